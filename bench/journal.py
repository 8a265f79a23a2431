"""Benchmark 3: the journal's durable appends and the replay of a 10,000-action history.

Appends: ``Journal.append`` (WAL, ``synchronous=FULL``: one fsync'd commit per action,
the durability promise) against a bare ``sqlite3`` loop inserting one row per committed
transaction, SQLite's defaults (rollback journal, ``synchronous=FULL``) — both in a
directory on the same disk. Figure: appends per second, ratio ours / bare.

Replay: a 10,000-action history read back (``Journal.actions_with_secrets``: what the session
reads) and replayed (``Session.resume``: read + every action through the rules), for
(a) one game of a minimal rules adapter (an action adds to a tally: the cost is the
journal's and the session's) and (b) the real Koryŏ and Chosŏn rules adapters: distinct
complete autoplayed 8-round games (seeds 1, 2, …; about 100-130 actions each) journaled
up to 10,000 actions, every game resumed. Distinct games, not one game again and again:
the engines remember the majorities of the tables seen last, and a repeated game would
find them there. The histories are written with ``synchronous=OFF`` (only to build
them faster; reading does not depend on it). Ratio: replay time over the time of one
bare fsync'd insert (how many durable inserts the whole replay costs). The goal is set
for a Pi 4; "met" says whether this machine's figure is under it.
"""

from __future__ import annotations

import random
import sqlite3
import tempfile
import time
from pathlib import Path

from bench.common import Row, times, verdict
from companion.games.autoplay import next_action
from companion.games.choson import ChosonGame
from companion.games.koryo import KoryoGame
from companion.games.majority import MajorityGame
from companion.journal import Journal
from companion.session import Session

HISTORY = 10_000
PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]


class Tally:
    """Minimal rules: each action adds ``n`` to a total."""

    name = "tally"

    def initial(self, setup: dict) -> int:
        return 0

    def apply(self, state: int, action: dict) -> int:
        return state + action["n"]

    def public_view(self, state: int) -> dict:
        return {"total": state}


def appends_per_second(path: Path, count: int) -> float:
    with Journal(path) as journal:
        game = journal.begin_game("tally", {})
        start = time.perf_counter()
        for i in range(count):
            journal.append(game, {"n": i, "action": "add"})
        return count / (time.perf_counter() - start)


def bare_inserts_per_second(path: Path, count: int) -> float:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, action TEXT NOT NULL)")
    start = time.perf_counter()
    for i in range(count):
        db.execute("BEGIN")
        db.execute("INSERT INTO t VALUES (?, ?)", (i, f'{{"n": {i}, "action": "add"}}'))
        db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    db.close()
    return count / elapsed


def best_of(n: int, fn) -> float:
    """The fastest of ``n`` timings of ``fn()`` (seconds)."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def autoplayed_game(rules: MajorityGame, seed: int) -> list[dict]:
    """The actions of one complete autoplayed game (seeded)."""
    table = rules.initial({"players": PLAYERS})
    rng = random.Random(seed)
    actions = []
    while rules.public_view(table)["final"] is None:
        action = next_action(rules, table, rng)
        table = rules.apply(table, action)
        actions.append(action)
    return actions


def replay_rows(path: Path, rules: MajorityGame, label: str, one_insert: float) -> list[Row]:
    """Read and resume 10,000 actions of distinct autoplayed games (seeds 1, 2, …; the
    last cut short), every game resumed."""
    with Journal(path) as journal:
        journal._db.execute("PRAGMA synchronous=OFF")  # build the history fast
        games, total = [], 0
        while total < HISTORY:
            actions = autoplayed_game(rules, seed=len(games) + 1)[: HISTORY - total]
            game = Session.start(journal, rules, {"players": PLAYERS}).game_id
            for action in actions:
                journal.append(game, action)
            total += len(actions)
            games.append(game)
    with Journal(path) as journal:
        read = best_of(3, lambda: [journal.actions_with_secrets(g) for g in games])
        resume = best_of(3, lambda: [Session(journal, rules, g) for g in games])
    what = f"10,000 actions ({len(games)} {label} games)"
    return [
        Row("3 journal", f"read {what}", f"{read * 1000:.0f} ms", f"{one_insert * 1000:.1f} ms",
            f"= {read / one_insert:.1f} inserts"),
        Row("3 journal", f"resume {what}", f"{resume * 1000:.0f} ms",
            f"{one_insert * 1000:.1f} ms", f"= {resume / one_insert:.1f} inserts",
            "< 1 s (Pi 4)", verdict(resume < 1)),
    ]


def run(appends: int = 300) -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory(dir=Path.cwd(), prefix=".bench-") as tmp:
        d = Path(tmp)
        ours = appends_per_second(d / "journal.db", appends)
        bare = bare_inserts_per_second(d / "bare.db", appends)
        rows.append(Row("3 journal", f"durable appends/s ({appends})", f"{ours:.0f}/s",
                        f"{bare:.0f}/s", times(1 / bare, 1 / ours, "more", "fewer")))
        one_insert = 1 / bare

        with Journal(d / "tally.db") as journal:
            journal._db.execute("PRAGMA synchronous=OFF")  # build the history fast
            game = Session.start(journal, Tally(), {}).game_id
            for i in range(HISTORY):
                journal.append(game, {"action": "add", "n": i % 7})
        with Journal(d / "tally.db") as journal:
            read = best_of(3, lambda: journal.actions_with_secrets(game))
            resume = best_of(3, lambda: Session.resume(journal, Tally()))
            assert Session.resume(journal, Tally()).state == sum(i % 7 for i in range(HISTORY))
        rows.append(Row("3 journal", "read 10,000 actions (tally)", f"{read * 1000:.0f} ms",
                        f"{one_insert * 1000:.1f} ms", f"= {read / one_insert:.1f} inserts"))
        rows.append(Row("3 journal", "resume 10,000 actions (tally)", f"{resume * 1000:.0f} ms",
                        f"{one_insert * 1000:.1f} ms", f"= {resume / one_insert:.1f} inserts",
                        "< 1 s (Pi 4)", verdict(resume < 1)))

        for rules, label in ((KoryoGame(), "Koryŏ"), (ChosonGame(), "Chosŏn")):
            rows += replay_rows(d / f"{rules.name}.db", rules, label, one_insert)
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
