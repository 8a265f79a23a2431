"""Benchmark 3b: what a game's history row costs the loop at the game's end.

The kiosk's history (``History(background_sync=True)``: ``synchronous=NORMAL``, the -wal
fsynced by its committer's thread) against the history as the commands keep it
(``synchronous=FULL``: SQLite fsyncs the -wal inside the commit, on the caller's thread,
which is what the kiosk's loop did before), both in a directory on the same disk (a
``.bench-*`` directory of the current directory, not tmpfs), ``ROUNDS`` alternating
blocks of ``count`` rows each. Figure: the time ``History.keep`` holds its caller, p50 /
p99 / max, each the median over the rounds with min and max. The kiosk's rows are made
durable between two keeps (``wait_durable``, not timed): games end minutes apart.
"""

from __future__ import annotations

import time
from pathlib import Path

from bench.common import Row, alternated, median, percentiles, spread, times, verdict
from companion.storage.history import History, result_of

ROUNDS = 3
GOAL_MS = 5.0  # the p99 a row may hold the loop: a press's whole light budget
RESULT = {"game": "koryo", "winners": ["Ben"],
          "players": [{"name": n, "total": t, "breakdown": {"families": t, "events": 1}}
                      for n, t in (("Ana", 14), ("Ben", 19), ("Cleo", 11), ("Dan", 9))]}


def keeps(path: Path, count: int, kiosk: bool) -> list[float]:
    """Milliseconds each of ``count`` rows held the caller."""
    out = []
    with History(path, background_sync=kiosk) as history:
        for i in range(count):
            row = result_of(RESULT, "2026-11-26T21:00:00+00:00")
            start = time.perf_counter_ns()
            history.keep(row, f"bench:{i}")
            out.append((time.perf_counter_ns() - start) / 1e6)
            history.wait_durable()
    return out


def run(count: int = 200) -> list[Row]:
    got = alternated(ROUNDS, {"kiosk": lambda path: keeps(path, count, True),
                              "full": lambda path: keeps(path, count, False)})
    rows = []
    for label, p in (("p50", 50), ("p99", 99), ("max", 100)):
        if p < 100:
            ours, how, stands = percentiles(got["kiosk"], p)
            base, _, _ = percentiles(got["full"], p)
        else:
            ours, how, stands = [max(r) for r in got["kiosk"]], "", True
            base = [max(r) for r in got["full"]]
        ours_med, base_med = median(ours), median(base)
        goal, met = ("", "")
        if label == "p99":
            goal, met = f"≤ {GOAL_MS:g} ms", verdict(stands and ours_med <= GOAL_MS)
        rows.append(Row("3 history row", f"a game's row on the loop, {label}"
                        + (f" ({how})" if how else ""), spread(ours, "ms", 2),
                        spread(base, "ms", 2) + " fsynced in the commit",
                        times(base_med, ours_med, "faster", "slower"), goal, met))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
