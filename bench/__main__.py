"""Run every benchmark and print the machine and one table: ours, the baseline run in the
same command, the ratio, the goal and whether it is met. Repeated figures read
"median [min–max]". ``--quick`` for fewer samples (a smoke run, not figures to
publish). A benchmark that fails is a row saying NO and why, never the end of the run."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable

from bench import (
    contention,
    dropout,
    first_frame,
    frames,
    history_row,
    history_size,
    journal,
    pad_replug,
    pads,
    phones,
    process,
    resume,
)
from bench.common import Row, load, machine

HEADER = Row("benchmark", "metric", "ours", "baseline", "ratio", "goal", "met")


def table(rows: list[Row]) -> str:
    cells = [list(vars(r).values()) for r in [HEADER, *rows]]
    widths = [max(len(c[i]) for c in cells) for i in range(len(cells[0]))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    lines.insert(1, "-|-".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def markdown(rows: list[Row]) -> str:
    """The same table for the README's "Measured figures" (``|`` in a cell escaped)."""
    cells = [[c.replace("|", "\\|") for c in vars(r).values()] for r in [HEADER, *rows]]
    lines = ["| " + " | ".join(row) + " |" for row in cells]
    lines.insert(1, "|" + "|".join("---" for _ in cells[0]) + "|")
    return "\n".join(lines)


def guarded(name: str, bench: Callable[[], list[Row]]) -> list[Row]:
    """``bench()``'s rows; if it fails, one row saying so (NO), its traceback on stderr."""
    try:
        return bench()
    except Exception as exc:  # noqa: BLE001 - any failure is a missed row, not the end
        traceback.print_exc()
        return [Row(name, "the benchmark did not finish", "failed",
                    f"{type(exc).__name__}: {exc}"[:200], "", "", "NO")]


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="one round of 100 presses (a p99 stands on 100), no baselines "
                             "of benchmark 1, fewer appends and starts")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the table in Markdown (the README's figures)")
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
    print(f"load average before: {load()}", flush=True)
    start = time.monotonic()
    quick = args.quick
    rows: list[Row] = []
    # --quick: a p99 stands on 100 values (bench.common.fewest_for), so every p99 row with
    # a goal gets one round of 100 presses (or steps, commits); the time that costs is
    # taken back where no goal needs it: benchmark 1's baseline (its presses go to ours)
    # and the 10k journals of benchmark 12 (its goal compares 100k with 1k).
    rows += guarded("1 pads", lambda: pads.run(rounds=1, count=100, baseline=False) if quick
                    else pads.run())
    rows += guarded("3 journal", lambda: journal.run(count=100 if quick else 300))
    rows += guarded("3 history row", lambda: history_row.run(count=100 if quick else 200))
    rows += guarded("3 resume", lambda: resume.run(
        (500, 1_000, 2_000) if quick else (1_000, 10_000, 100_000)))
    rows += guarded("12 resume", lambda: first_frame.run((1_000, 100_000), repeats=2) if quick
                    else first_frame.run())
    rows += guarded("2/4/5 process", lambda: process.run(quick=quick))
    rows += guarded("6 pad replug", lambda: pad_replug.run(rounds=2 if quick else 6))
    rows += guarded("7 dropout", dropout.run)
    rows += guarded("8 frames", lambda: frames.run(rounds=1, count=100) if quick else frames.run())
    rows += guarded("9 busy cores", lambda: contention.run(rounds=1, count=100) if quick
                    else contention.run())
    rows += guarded("10 phones", lambda: phones.run(**phones.QUICK) if quick else phones.run())
    rows += guarded("11 history size", lambda: history_size.run(rounds=2) if quick
                    else history_size.run())
    rows.sort(key=lambda row: int(row.bench.split()[0].split("/")[0]))  # by number
    print(table(rows))
    print(f"load average after: {load()}")
    print(f"({time.monotonic() - start:.0f} s; command: {' '.join(['python -m bench', *sys.argv[1:]])})")
    if args.markdown:
        print()
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
