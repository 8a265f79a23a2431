"""Power-cut torture with a real game: a scripted Koryŏ game (the ``KoryoGame`` rules
adapter, seeded autoplay, refused out-of-turn moves mixed in) played by a child process
through ``Session`` + ``Journal``, SIGKILLed 20 times at random points (while opening the
database, between commits, during a commit). After every restart the database opens
without being moved aside and the resumed game equals the game after the last
acknowledged action (or after the one action being committed when the kill came).

``tests/storage/test_journal_crash.py`` does the same with a minimal tally game; this file proves
it for the real rules adapter, whose replay rebuilds the whole engine state.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from companion.games.koryo.adapter import KoryoGame
from companion.games.majority.autoplay import next_action
from companion.play.errors import RuleError
from companion.play.session import Session
from companion.storage.journal import Journal

SETUP = {"players": ["Ana", "Ben", "Cleo"]}
KILLS = 20


def scripted_game(seed: int) -> list[dict]:
    """Steps ``{"action": …, "ok": bool}``: an autoplayed game up to round 3, with a move of
    the wrong player (refused by the rules) now and then."""
    rules = KoryoGame()
    table = rules.initial(SETUP)
    rng = random.Random(seed)
    steps = []
    while table.state.round < 3 or table.state.phase != "setup":
        if rng.random() < 0.15:
            wrong = {"action": "end_turn", "player": rng.choice(SETUP["players"])}
            try:
                rules.apply(table, wrong)
            except RuleError:
                steps.append({"action": wrong, "ok": False})
        action = next_action(rules, table, rng)
        table = rules.apply(table, action)
        steps.append({"action": action, "ok": True})
    return steps


def child(db: str, script: str) -> None:
    """Open, report the resumed game, then play the rest of the script, one line per step
    written only once ``dispatch`` returned (the action is on disk, or refused)."""
    print("opening", flush=True)
    journal = Journal(db)
    if journal.notice:
        print("notice", journal.notice, flush=True)
    rules = KoryoGame()
    session = Session.resume(journal, rules) or Session.start(journal, rules, SETUP)
    done = len(journal.actions(session.game_id))
    view = json.dumps(session.public_view(), sort_keys=True)
    print(f"state {done} {view}", flush=True)
    steps = json.loads(Path(script).read_text())
    ok_seen, start = 0, len(steps)
    for i, step in enumerate(steps):  # resume after the ``done``-th accepted step
        if ok_seen == done:
            start = i
            break
        ok_seen += step["ok"]
    for step in steps[start:]:
        try:
            session.dispatch(step["action"])
        except RuleError:
            print("refused", flush=True)
        else:
            print("ack", flush=True)


def spawn(db: Path, script: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, __file__, str(db), str(script)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )


def kill_after(proc: subprocess.Popen, marker: str, wanted: int) -> list[str]:
    """SIGKILL the child once it has written ``wanted`` lines starting with ``marker``
    (or when it ends first); every line it wrote, those still in the pipe included."""
    lines: list[str] = []
    seen = 0
    while seen < wanted:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.strip())
        seen += line.startswith(marker)
    proc.send_signal(signal.SIGKILL)
    lines += [x.strip() for x in proc.stdout.read().splitlines()]
    proc.wait()
    proc.stdout.close()
    return lines


def resumed(lines: list[str]) -> tuple[int, dict] | None:
    """The child's report of the game it resumed (None if killed before it)."""
    for line in lines:
        if line.startswith("state "):
            _, done, view = line.split(" ", 2)
            return int(done), json.loads(view)
    return None


def test_twenty_sigkills_in_a_koryo_game_resume_at_the_last_acknowledged_action(tmp_path):
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    steps = scripted_game(seed)
    script = tmp_path / "script.json"
    script.write_text(json.dumps(steps))
    rules = KoryoGame()
    table = rules.initial(SETUP)
    views = [rules.public_view(table)]  # views[n]: the game after n accepted actions
    for step in steps:
        if step["ok"]:
            table = rules.apply(table, step["action"])
            views.append(rules.public_view(table))
    views = [json.loads(json.dumps(v, sort_keys=True)) for v in views]

    db = tmp_path / "journal.db"
    acked = 0  # actions acknowledged so far, over every run
    for kill in range(KILLS + 1):
        proc = spawn(db, script)
        if kill == KILLS:
            lines = kill_after(proc, "state ", 1)  # the last run only reports
        elif rng.random() < 0.2:
            lines = kill_after(proc, "opening", 1)  # while opening the database
        else:
            lines = kill_after(proc, ("ack", "refused"), rng.randint(0, 6))
        assert not [x for x in lines if x.startswith("notice")], (seed, lines)
        report = resumed(lines)
        if report is None:
            continue  # killed before it had resumed: the next run checks the same state
        done, view = report
        # every acknowledged action is there; at most the one being committed on top
        assert done in (acked, acked + 1), (seed, kill, done, acked)
        assert view == views[done], (seed, kill, done)
        acked = done + lines.count("ack")
    assert acked <= len(views) - 1
    assert not [p for p in tmp_path.iterdir() if ".corrupt-" in p.name], seed


if __name__ == "__main__":
    child(sys.argv[1], sys.argv[2])
