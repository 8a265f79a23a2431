"""Benchmark 3a: the journal's durable commit, the one wait between a press and its light.

``Journal.append`` (WAL, ``synchronous=FULL``: the WAL fsynced at each commit, the
durability promise) against a bare ``sqlite3`` loop inserting one row per committed
transaction with SQLite's defaults (rollback journal, ``synchronous=FULL``), both in a
directory on the same disk (a ``.bench-*`` directory of the current directory, not
tmpfs), ``ROUNDS`` alternating blocks of ``count`` commits each. Figures: commits per
second, and the time of one commit, p50 / p99 / max (the tail a press's light waits
for), each the median over the rounds with min and max.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from bench.common import Row, alternated, median, percentile, spread, times
from companion.storage.journal import Journal

ROUNDS = 3
ACTION = {"action": "end_round", "player": "Ana", "note": "x" * 60}


def ours(path: Path, count: int) -> list[float]:
    """Milliseconds of each of ``count`` appends."""
    out = []
    with Journal(path) as journal:
        game = journal.begin_game("tally", {})
        for _ in range(count):
            start = time.perf_counter_ns()
            journal.append(game, ACTION)
            out.append((time.perf_counter_ns() - start) / 1e6)
    return out


def bare(path: Path, count: int) -> list[float]:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS t (seq INTEGER PRIMARY KEY, action TEXT NOT NULL)")
    out = []
    for i in range(count):
        start = time.perf_counter_ns()
        db.execute("BEGIN")
        db.execute("INSERT INTO t (action) VALUES (?)", (f'{{"n": {i}, "action": "add"}}',))
        db.execute("COMMIT")
        out.append((time.perf_counter_ns() - start) / 1e6)
    db.close()
    return out


def run(count: int = 300) -> list[Row]:
    got = alternated(ROUNDS, {"ours": lambda path: ours(path, count),
                              "bare": lambda path: bare(path, count)})
    rate = {k: [len(r) / (sum(r) / 1000) for r in v] for k, v in got.items()}
    med = {k: median(v) for k, v in rate.items()}
    rows = [Row("3 journal", f"durable commits/s ({ROUNDS}×{count})", spread(rate["ours"], "/s", 0),
                spread(rate["bare"], "/s", 0), times(1 / med["bare"], 1 / med["ours"], "more",
                                                    "fewer"))]
    for label, p in (("p50", 50), ("p99", 99), ("max", 100)):
        o = [percentile(r, p) if p < 100 else max(r) for r in got["ours"]]
        b = [percentile(r, p) if p < 100 else max(r) for r in got["bare"]]
        rows.append(Row("3 journal", f"one durable commit, {label}", spread(o, "ms", 2),
                        spread(b, "ms", 2), times(median(b), median(o), "faster", "slower")))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
