"""Benchmark 12: resume → first frame of ``companion run``, and Home's rebuild, with an
unfinished game of 1k, 10k and 100k actions in the journal, quiet and under load.

What is timed:

- **Resume → first frame**: from just before the spawn to the "ready" line (logged after
  the first frame) of ``companion run`` (the shipped configuration at 800x480, under the
  normal policy), in a data directory whose journal holds the game; it must have logged
  "resumed game" before (else the row says NO: it showed Home). ``REPEATS`` starts per size,
  sizes interleaved, after one untimed start (bytecode cached). The goal: 100k within
  2x of 1k.
- **Home after a game**: in this process, on an 800x480 app with that journal (the
  largest size), the game resumed as at a start with Home under it, then ``app.pop()``
  and the frame drawn: Home rebuilt (the unfinished games, each one's "round 3, Ben's
  turn" line, from the session that played it) and drawn; ``REPEATS`` times. Beside it
  (baseline column): that line worked out with no session of the game in this process
  (``where_it_stands`` from the journal's snapshot and the actions after it).

- **An action at any length**: the King's Dilemma and Inheritors (one game that grows
  long), in this process, the 1k and the largest journal opened as the kiosk opens it
  (``background_sync``), the game resumed as at a start: each of the ``NEXT`` actions that
  follow in the game dispatched through its session (the rules, the journal's commit, the
  view published, the seats' lights worked out from it as the Table does), timed each;
  twice a size, interleaved (1k, largest, largest, 1k). The goal, as for the resume: the
  largest's median within 2x the 1k's (p99 beside).

The games, as ``bench/resume.py`` makes them: the King's Dilemma (one night of that many
actions), Inheritors (one score sheet), Koryŏ and Chosŏn (autoplayed games, each one
finished in the journal but the last, which is cut short: a long history of short
games). Each journal is written as the kiosk writes it: action by action, with a
snapshot of the state every ``SNAPSHOT_EVERY`` actions (``synchronous=OFF`` only to build
it fast).

**Loaded**: the same again while ``BUSY`` busy processes (``while True: pass``, normal
policy) run.
"""

from __future__ import annotations

import contextlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench import resume as histories
from bench.common import Row, env_child, percentile, spread, verdict, without_realtime
from bench.contention import BURN
from bench.process import companion, config_800x480
from companion.commands.run import JOURNAL_FILE
from companion.play.session import Session
from companion.storage import snapshots
from companion.storage.journal import Journal

REPEATS = 5
NEXT = 100  # actions timed after each resumed game (an action at any length)
GROWING = ("King's Dilemma", "Inheritors")  # one game that grows long
BUSY = 2  # busy processes for the loaded rows
PLAYERS = histories.PLAYERS
GAMES = {  # label: (rules, setup, history of n actions, menu title shown when resumed)
    "King's Dilemma": (histories.KingsDilemma, histories.KD_SETUP,
                       lambda n: [histories.kd_night(n)]),
    "Inheritors": (histories.InheritorsSheet, {"players": PLAYERS},
                   lambda n: [histories.inheritors_sheet(n)]),
    "Koryŏ": (histories.KoryoGame, {"players": PLAYERS},
              lambda n: histories.repeated(histories.autoplayed(histories.KoryoGame(),
                                                                min(n, 10_000)), n)),
    "Chosŏn": (histories.ChosonGame, {"players": PLAYERS},
               lambda n: histories.repeated(histories.autoplayed(histories.ChosonGame(),
                                                                 min(n, 10_000)), n)),
}


def write_journal(path: Path, rules, setup: dict, games: list[histories.Actions]) -> None:
    """``games`` journaled as the kiosk does (every game finished but the last), with the
    snapshots ``Session.dispatch`` asks for."""
    with Journal(path) as journal:
        journal._db.execute("PRAGMA synchronous=OFF")  # build it fast
        stamp = snapshots.rules_stamp()
        for i, actions in enumerate(games):
            game = Session.start(journal, rules, setup).game_id
            state = rules.initial(setup)
            for action, private in actions:
                state = rules.apply(state, {**action, **(private or {})})
                seq = journal.append(game, action, private)
                if seq % snapshots.SNAPSHOT_EVERY == 0:
                    journal.keep_snapshot(game, seq, stamp,
                                          lambda s=state: snapshots.dump(s))
            if i < len(games) - 1:
                journal.finish(game, {"bench": "finished"})
        journal.snapshots_written()


@contextlib.contextmanager
def busy(n: int) -> Iterator[None]:
    procs = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(n)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def first_frame(config: Path, data: Path) -> tuple[float, bool]:
    """Seconds from the spawn to "ready", and whether it resumed a game before."""
    t0 = time.monotonic()
    proc = subprocess.Popen([*without_realtime(), *companion("run", "--config", str(config))],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**env_child(), "COMPANION_DATA_DIR": str(data)})
    try:
        seen = []
        for line in proc.stdout:
            seen.append(line)
            if "ready:" in line:
                return time.monotonic() - t0, any("resumed game" in s for s in seen)
        raise RuntimeError(f"exited {proc.wait()} before it was ready: {''.join(seen)[-300:]}")
    finally:
        proc.kill()
        proc.wait()


def home_ms(journal_path: Path, repeats: int) -> tuple[list[float], list[float]]:
    """Home shown again after the game (ms, ``repeats`` times): the game resumed as at a
    start (``resume_unfinished``, Home under it), then ``app.pop()`` and the frame drawn,
    what a return to Home does; and Home's progress line worked out without a session of
    the game in this process (from the journal's snapshot: ``where_it_stands``)."""
    from companion.hardware.sim import SimBackend
    from companion.play import session as session_module
    from companion.play.controller import where_it_stands
    from companion.ui.app import make_app
    from companion.ui.demo import demo_config
    from companion.ui.home import HomeScreen, resume_unfinished

    config = demo_config((800, 480), "en")
    backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
    after, cold = [], []
    with Journal(journal_path) as journal:
        app = make_app(config, backend, journal=journal, checks_texts=False)  # as the kiosk
        game = resume_unfinished(app)
        if game is None:
            raise RuntimeError(f"{journal_path}: nothing resumed")
        app.push(HomeScreen(app))
        for _ in range(repeats):
            app.push(game)
            app.render_if_dirty()
            t0 = time.perf_counter()
            app.pop()
            app.render_if_dirty()
            after.append((time.perf_counter() - t0) * 1000)
        record = journal.unfinished()[-1]
        for _ in range(repeats):
            session_module._LIVE.clear()  # as if no session of it were in this process
            t0 = time.perf_counter()
            where_it_stands(journal, record)
            cold.append((time.perf_counter() - t0) * 1000)
        backend.close()
    return after, cold


def action_ms(journal_path: Path, rules, actions: histories.Actions) -> list[float]:
    """Each of ``actions`` dispatched (ms) through the session of the game resumed from
    ``journal_path`` as at a start, with the journal opened as the kiosk opens it and a
    listener working out the seats' lights from each view, as the Table does."""
    from companion.play import session as session_module
    from companion.play.turns import lights

    session_module._LIVE.clear()  # nothing of an earlier sitting: resumed as at a start
    out = []
    with tempfile.TemporaryDirectory(dir=journal_path.parent) as scratch:
        for kept in journal_path.parent.glob(f"{journal_path.name}*"):  # its -seal, -ack
            shutil.copyfile(kept, Path(scratch) / kept.name)  # the next run finds it as it was
        with Journal(Path(scratch) / journal_path.name, background_sync=True) as journal:
            record = journal.unfinished()[-1]
            session = Session(journal, rules, record.id)
            session.subscribe(lambda view: lights(rules.turns(view)))
            for action, private in actions:
                t0 = time.perf_counter()
                session.dispatch(action, private)
                out.append((time.perf_counter() - t0) * 1000)
            journal.wait_durable()
    return out


def _n(size: int) -> str:
    return f"{size // 1000}k"


def run(sizes: tuple[int, ...] = (1_000, 10_000, 100_000), repeats: int = REPEATS) -> list[Row]:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(dir=Path.cwd(), prefix=".bench-") as tmp:
        root = Path(tmp)
        config = config_800x480(root)
        dirs: dict[tuple[str, int], Path] = {}
        following: dict[tuple[str, int], histories.Actions] = {}  # the NEXT actions after
        for label, (make, setup, history) in GAMES.items():
            built = history(max(sizes) + (NEXT if label in GROWING else 0))
            for size in sizes:
                data = root / f"{make.__name__}-{size}"
                data.mkdir()
                write_journal(data / JOURNAL_FILE, make(), setup, histories.cut(built, size))
                dirs[label, size] = data
                if label in GROWING:
                    following[label, size] = built[0][size:size + NEXT]
        failed: dict[str, str] = {}  # a kiosk that did not come up: its row says why
        # Untimed: the bytecode cache, the kept parsed copies (as at every boot but the first).
        for (label, size), data in dirs.items():
            try:
                first_frame(config, data)
            except RuntimeError as exc:
                failed[label] = f"{_n(size)}: {str(exc).strip().splitlines()[-1]}"
        for condition in ("quiet", "loaded"):
            got: dict[tuple[str, int], list[float]] = {key: [] for key in dirs}
            wrong: dict[str, str] = {}
            with busy(BUSY) if condition == "loaded" else contextlib.nullcontext():
                for _ in range(repeats):
                    for (label, size), data in dirs.items():
                        if label in failed:
                            continue
                        try:
                            seconds, resumed = first_frame(config, data)
                        except RuntimeError as exc:
                            failed[label] = f"{_n(size)}: {str(exc).strip().splitlines()[-1]}"
                            continue
                        got[label, size].append(seconds * 1000)
                        if not resumed:
                            wrong[label] = f"{_n(size)} showed Home, not the game"
                homes = {label: home_ms(dirs[label, max(sizes)] / JOURNAL_FILE, repeats)
                         for label in GAMES}
                acts: dict[tuple[str, int], list[float]] = {key: [] for key in following}
                for label in GROWING:  # interleaved: 1k, 100k, 100k, 1k
                    for size in (min(sizes), max(sizes), max(sizes), min(sizes)):
                        acts[label, size] += action_ms(dirs[label, size] / JOURNAL_FILE,
                                                       GAMES[label][0](),
                                                       following[label, size])
            tag = "quiet" if condition == "quiet" else f"{BUSY} busy processes"
            small, large = min(sizes), max(sizes)
            for label in GROWING:
                at = {size: sorted(acts[label, size]) for size in (small, large)}
                p50 = {size: statistics.median(v) for size, v in at.items()}
                p99 = {size: percentile(v, 99) for size, v in at.items()}
                ratio = p50[large] / p50[small]
                rows.append(Row(
                    f"12 an action ({tag})",
                    f"{label}: one action dispatched at {_n(small)} / {_n(large)} actions"
                    f" (rules, journal, view, lights; {NEXT} actions twice each, interleaved)",
                    f"p50 {p50[small]:.2f} / {p50[large]:.2f} ms, p99 {p99[small]:.2f} /"
                    f" {p99[large]:.2f} ms", "", f"{ratio:.2f}x the {_n(small)} (p50)",
                    f"{_n(large)} ≤ 2x {_n(small)}", verdict(ratio <= 2)))
            for label in GAMES:
                after, cold = homes[label]
                rows.append(Row(
                    f"12 Home ({tag})",
                    f"{label}: back to Home after the game ({_n(max(sizes))} actions): "
                    "pop, Home rebuilt and drawn", spread(after, "ms", 1),
                    spread(cold, "ms (its line from the snapshot)", 1), "", "≤ 50 ms",
                    verdict(statistics.median(after) <= 50)))
                if label in failed:
                    rows.append(Row(f"12 resume ({tag})", f"{label}: spawn → first frame of "
                                    "the resumed game", "did not start", failed[label], "", "",
                                    "NO"))
                    continue
                med = {s: statistics.median(got[label, s]) for s in sizes}
                ratio = med[max(sizes)] / med[min(sizes)]
                rows.append(Row(
                    f"12 resume ({tag})",
                    f"{label}: spawn → first frame of the resumed game at "
                    f"{'/'.join(_n(s) for s in sizes)} actions ({repeats} starts each)",
                    " / ".join(f"{med[s]:.0f}" for s in sizes) + " ms",
                    spread(got[label, min(sizes)], f"ms at {_n(min(sizes))}", 0),
                    f"{ratio:.2f}x the {_n(min(sizes))}" + (f"; {wrong[label]}"
                                                            if label in wrong else ""),
                    f"{_n(max(sizes))} ≤ 2x {_n(min(sizes))}",
                    verdict(ratio <= 2 and label not in wrong)))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
