"""Benchmark 11: History at ten thousand games, against the same at ten.

**Time**: on the kiosk at 800x480 (SDL's dummy driver), each of History opened (read and
its first frame drawn), the filter turned to the next game, a page turned, the players'
figures shown, Charts opened (from there), the next page (the first game's records), and
Back from the charts to History, each with its frame. A history of ``BIG`` games
(**ours**) and one of ``SMALL`` games (**baseline**: the same operations), alternately,
``ROUNDS`` rounds; median [min–max]. Goal: each ≤ 100 ms at ``BIG`` games. Quiet, then
again while ``BUSY`` busy processes run (memory is not a matter of load: measured once).

**Memory**: the peak resident memory (``VmHWM``, bench/peak_rss.py) of every command that
reads or writes the whole history — ``export`` in each format, ``report``, ``import`` of
the JSON and the CSV export into a new history — and of the kiosk's History screen
(opened, filtered, charts, back) in a process of its own, at ``BIG`` games (**ours**) and
at ``SMALL`` (**baseline**). Goal: ≤ 100 MB at ``BIG`` games. Every row names the count
it was measured at.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import ROOT, Row, env_child, median, spread, times, verdict

BIG, SMALL = 10_000, 10
ROUNDS = 5
GOAL_MS = 100.0
GOAL_MB = 100.0
GAMES = ("koryo", "choson", "inheritors", "kings-dilemma")
NAMES = ("Ana", "Benoît", "Cléopâtre", "Dan", "Évangéline", "Fatou", "Gunnar")


def make_history(path: Path, n: int) -> Path:
    """A history of ``n`` games in one transaction: the four games in turn, three to five
    players of seven, a few breakdown rows each, a start and a first player, dates a day
    apart with their offset."""
    from datetime import datetime, timedelta, timezone

    from companion.storage.history import GameResult, History, PlayerResult

    zone = timezone(timedelta(hours=1))
    start = datetime(2000, 1, 1, 20, 0, tzinfo=zone)
    games = []
    for i in range(n):
        count = 3 + i % 3
        names = [NAMES[(i + k) % len(NAMES)] for k in range(count)]
        players = tuple(PlayerResult(name, (i * 7 + k * 13) % 60,
                                     {"tokens": k, "families": (i + k) % 20, "events": -1})
                        for k, name in enumerate(names))
        best = max(p.total for p in players)
        ended = start + timedelta(days=i, hours=2)
        games.append(GameResult(ended.isoformat(), GAMES[i % len(GAMES)], players,
                                tuple(p.name for p in players if p.total == best),
                                (start + timedelta(days=i)).isoformat(), names[0]))
    with History(path) as h:
        h.import_games(games)
    return path


def _kiosk(db: Path):
    """The app at 800x480 on the history at ``db``, Home underneath."""
    from companion.hardware.sim import SimBackend
    from companion.storage.history import History
    from companion.ui.app import ManualClock, make_app
    from companion.ui.demo import demo_config

    config = demo_config((800, 480), "en")
    backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
    return make_app(config, backend, clock=ManualClock(1000), history=History(db),
                    checks_texts=False)  # as ``companion run`` draws


def _operations(app) -> dict[str, float]:
    """Each step's time in ms, its frame drawn: History opened, filter, page, the players'
    figures, Charts, a game's records, Back."""
    from companion.ui.screens.charts import open_charts
    from companion.ui.screens.history import HistoryScreen

    out = {}
    app.history._tally = None  # as after a game kept: the players' figures counted again

    def timed(name: str, step) -> None:
        t0 = time.perf_counter()
        step()
        app.invalidate()
        app.render_if_dirty()
        out[name] = (time.perf_counter() - t0) * 1000

    timed("History opened", lambda: app.push(HistoryScreen(app)))
    screen = app.screen
    timed("filter (next game)", screen.next_filter)
    timed("page turned", lambda: screen.turn(+1))
    timed("players' figures", screen.switch_view)
    timed("Charts opened", lambda: open_charts(app))
    timed("a game's records", lambda: app.screen.turn(+1))
    timed("Back to History", app.pop)
    app.pop()  # History closed: Home again, for the next round
    return out


def _times(big: Path, small: Path, rounds: int, n: int, tag: str = "") -> list[Row]:
    apps = {"big": _kiosk(big), "small": _kiosk(small)}
    got: dict[str, dict[str, list[float]]] = {"big": {}, "small": {}}
    for r in range(rounds):
        order = ("big", "small") if r % 2 == 0 else ("small", "big")
        for which in order:
            for name, ms in _operations(apps[which]).items():
                got[which].setdefault(name, []).append(ms)
    for app in apps.values():
        app.backend.close()
        app.history.close()
    rows = []
    for name, ours in got["big"].items():
        base = got["small"][name]
        rows.append(Row(f"11 history size{tag}", f"{name}, frame included, 800x480 ({rounds} rounds)",
                        spread(ours, f"ms at {n:,} games"),
                        spread(base, f"ms at {SMALL} games"),
                        times(median(base), median(ours), "less", "more"),
                        f"≤ {GOAL_MS:.0f} ms", verdict(max(ours) <= GOAL_MS)))
    return rows


KIOSK_HISTORY = """
import sys
from bench.history_size import _kiosk, _operations
app = _kiosk(sys.argv[1])
_operations(app)
app.backend.close()
"""


def _peak_mb(out: Path, program: list[str]) -> float:
    """The peak resident memory of ``program`` (a ``-m MODULE ARGS`` or ``-c CODE ARGS``)
    run in a process of its own, in MB."""
    peak = out / "peak"
    subprocess.run([sys.executable, str(ROOT / "bench" / "peak_rss.py"), str(peak), *program],
                   check=True, env=env_child(), cwd=ROOT, stdout=subprocess.DEVNULL)
    return int(peak.read_text(encoding="ascii")) * 1024 / 1e6


def _memory(big: Path, small: Path, tmp: Path, n: int) -> list[Row]:
    cases = [(f"export --format {fmt}", ["-m", "companion", "export", "--format", fmt,
                                         "--out", str(tmp / f"out.{fmt}"), "--db"])
             for fmt in ("json", "csv", "bgstats", "bgstats-links")]
    cases.append(("report", ["-m", "companion", "report", "--out", str(tmp / "r.html"),
                             "--ledger", str(tmp / "none.json"), "--db"]))
    cases.append(("kiosk: History, filter, page, players, Charts, records, Back",
                  ["-c", KIOSK_HISTORY]))
    rows = []
    for name, program in cases:
        ours = _peak_mb(tmp, [*program, str(big)])
        base = _peak_mb(tmp, [*program, str(small)])
        rows.append(Row("11 history size", f"peak memory: {name}", f"{ours:.0f} MB at {n:,} "
                        "games", f"{base:.0f} MB at {SMALL} games",
                        times(base, ours, "less", "more"), f"≤ {GOAL_MB:.0f} MB",
                        verdict(ours <= GOAL_MB)))
    for fmt in ("json", "csv"):  # import: each history's export read into a new one
        peaks = []
        for label, db in (("big", big), ("small", small)):
            export = tmp / f"import-{label}.{fmt}"
            subprocess.run([sys.executable, "-m", "companion", "export", "--format", fmt,
                            "--out", str(export), "--db", str(db)], check=True,
                           env=env_child(), cwd=ROOT, stdout=subprocess.DEVNULL)
            fresh = tmp / f"import-{label}-{fmt}.db"
            peaks.append(_peak_mb(tmp, ["-m", "companion", "import", str(export),
                                        "--db", str(fresh)]))
        ours, base = peaks
        rows.append(Row("11 history size", f"peak memory: import of the {fmt} export into a "
                        "new history", f"{ours:.0f} MB at {n:,} games",
                        f"{base:.0f} MB at {SMALL} games", times(base, ours, "less", "more"),
                        f"≤ {GOAL_MB:.0f} MB", verdict(ours <= GOAL_MB)))
    return rows


def run(rounds: int = ROUNDS, big: int = BIG) -> list[Row]:
    from bench.first_frame import BUSY, busy  # here: KIOSK_HISTORY's memory imports this module
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        folder = Path(tmp)
        big_db = make_history(folder / "big.db", big)
        small_db = make_history(folder / "small.db", SMALL)
        rows = _times(big_db, small_db, rounds, big)
        with busy(BUSY):
            rows += _times(big_db, small_db, rounds, big, f" ({BUSY} busy processes)")
        return rows + _memory(big_db, small_db, folder, big)


if __name__ == "__main__":
    for row in run():
        print(row)
