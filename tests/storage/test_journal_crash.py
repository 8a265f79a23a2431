"""Crash safety: a process killed with SIGKILL at any point loses no acknowledged action and
never corrupts the journal.

The child (this file run as a script) plays a scripted sequence through a real
``Session`` and prints ``ack I`` (or ``refused I``) only after ``dispatch``/``undo``
returned, i.e. after the commit. The parent kills it after reading the k-th line, reads
what the child had already written, restarts, and compares the resumed state with a
model of the script. An action committed but killed before its ``ack`` was written may
be there too (durability promises acked ⇒ on disk, not the converse): the resumed state
is the state after the last acknowledged step, or after the one step it was executing.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from companion.play.errors import RuleError
from companion.play.session import Session
from companion.storage.journal import Journal

STEPS = 40
KILLS = 10  # torture: each run acks at most 2 steps (+1 committed unacked): 30 < STEPS


@dataclass(frozen=True)
class Tally:
    log: tuple[tuple[int, int, int | None], ...] = ()  # (step, added, secret or None)


class TallyRules:
    """A tiny real game: add 1-9 to a tally; a move may carry a sealed secret."""

    name = "tally"

    def initial(self, setup: dict) -> Tally:
        return Tally()

    def apply(self, state: Tally, action: dict) -> Tally:
        add = action.get("add")
        if not isinstance(add, int) or not 1 <= add <= 9:
            raise RuleError("add", f"{add!r} is not 1-9")
        return Tally(state.log + ((action["step"], add, action.get("secret")),))

    def public_view(self, state: Tally) -> dict:
        return {"total": sum(a for _, a, _ in state.log), "moves": len(state.log)}


def script(undos: bool) -> list[dict]:
    """The same sequence in parent and child: moves, refused moves, sealed moves, undos."""
    rng = random.Random(20240)
    steps: list[dict] = []
    for i in range(STEPS):
        r = rng.random()
        if undos and r < 0.12:
            steps.append({"op": "undo"})
        elif r < 0.22:
            steps.append({"op": "move", "action": {"step": i, "add": 0}})  # refused
        elif r < 0.4:
            move = {"step": i, "add": rng.randint(1, 9)}
            steps.append({"op": "move", "action": move, "private": {"secret": rng.randrange(99)}})
        else:
            steps.append({"op": "move", "action": {"step": i, "add": rng.randint(1, 9)}})
    return steps


def model(steps: list[dict]) -> list[list]:
    """The tally after ``steps``, computed without Session or Journal."""
    log: list[list] = []
    for s in steps:
        if s["op"] == "undo":
            if log:
                log.pop()
        elif s["action"]["add"] != 0:
            a = s["action"]
            log.append([a["step"], a["add"], s.get("private", {}).get("secret")])
    return log


def child(db: str, mode: str) -> None:
    print("opening", flush=True)
    journal = Journal(db)
    if journal.notice:
        print("notice", journal.notice, flush=True)
    rules = TallyRules()
    session = Session.resume(journal, rules) or Session.start(journal, rules, {})
    if mode == "report":
        print("state", json.dumps([list(m) for m in session.state.log]), flush=True)
        return
    steps = script(undos=mode == "undos")
    # the torture script has no undo: the next step follows the last one journaled
    start = session.state.log[-1][0] + 1 if mode == "continue" and session.state.log else 0
    print("ready", flush=True)
    for i in range(start, len(steps)):
        s = steps[i]
        if s["op"] == "undo":
            session.undo()
            print(f"ack {i}", flush=True)
            continue
        try:
            session.dispatch(s["action"], s.get("private"))
        except RuleError:
            print(f"refused {i}", flush=True)
        else:
            print(f"ack {i}", flush=True)


def spawn(db: Path, mode: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, __file__, str(db), mode],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )


def report(db: Path) -> list[list]:
    out = subprocess.run(
        [sys.executable, __file__, str(db), "report"], capture_output=True, text=True, check=True
    ).stdout
    assert "notice" not in out, out  # the journal opened cleanly: nothing moved aside
    [line] = [x for x in out.splitlines() if x.startswith("state ")]
    return json.loads(line[len("state ") :])


def kill_after(proc: subprocess.Popen, wanted: int, marker: tuple[str, ...]) -> list[str]:
    """Read lines until the ``wanted``-th line starting with ``marker``, SIGKILL the child,
    then return every line it wrote (those already in the pipe included)."""
    lines: list[str] = []
    seen = 0
    while seen < wanted:
        line = proc.stdout.readline()
        if not line:
            break  # the child finished the script first
        lines.append(line.strip())
        seen += line.startswith(marker)
    proc.send_signal(signal.SIGKILL)
    lines += [x.strip() for x in proc.stdout.read().splitlines()]
    proc.wait()
    proc.stdout.close()
    return lines


def done_steps(lines: list[str]) -> list[int]:
    return [int(x.split()[1]) for x in lines if x.startswith(("ack ", "refused "))]


def test_sigkill_mid_sequence_resumes_at_last_acknowledged_action(tmp_path):
    """Kill after the k-th durable dispatch (k random, several times): the restarted journal
    holds exactly the acknowledged steps (plus at most the one being executed)."""
    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    steps = script(undos=True)
    for run in range(6):
        db = tmp_path / f"run{run}.db"
        k = rng.randint(1, STEPS - 1)
        done = done_steps(kill_after(spawn(db, "undos"), k, ("ack ", "refused ")))
        acked = len(done)
        assert done == list(range(acked)) and acked >= k, (seed, k, done)
        state = report(db)
        assert state in (model(steps[:acked]), model(steps[: acked + 1])), (seed, k, acked)


def test_sigkill_torture_database_always_opens(tmp_path):
    """KILLS SIGKILLs at random points (while opening or creating the database, between and
    during commits), counted, not timed: each child is killed once it has announced that it
    is opening the journal or acknowledged 0-2 steps, so the script (40 steps) is never done
    before the last kill. Every restart opens the journal without moving anything aside, and
    what it holds is a prefix of the script covering every ack."""
    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    db = tmp_path / "torture.db"
    steps = script(undos=False)
    acked = 0  # steps acknowledged so far, over all runs
    for _ in range(KILLS):
        assert acked + 3 <= STEPS, (seed, acked)  # the child still has steps to run
        proc = spawn(db, "continue")
        if rng.random() < 0.25:
            lines = kill_after(proc, 1, ("opening",))  # while opening / creating the file
        else:
            lines = kill_after(proc, rng.randint(0, 2), ("ack ", "refused "))
        assert proc.returncode == -signal.SIGKILL, (seed, lines)  # killed, not finished
        done = done_steps(lines)
        assert not any(x.startswith("notice") for x in lines), (seed, lines)
        if done:
            acked = done[-1] + 1
        state = report(db)
        # every acknowledged move is there; at most the one being executed on top
        assert state in (model(steps[:acked]), model(steps[: acked + 1])), (seed, acked)
        if state != model(steps[:acked]):
            acked += 1  # that step was committed: the next run starts after it
    assert not [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]


if __name__ == "__main__":
    child(sys.argv[1], sys.argv[2])
