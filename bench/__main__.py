"""Run every benchmark and print the machine and one table: ours, the baseline run in the
same command, the ratio, the goal and whether it is met. Repeated figures read
"median [min–max]". ``--quick`` for fewer samples (a smoke run, not figures to
publish)."""

from __future__ import annotations

import argparse
import sys
import time

from bench import (
    contention,
    dropout,
    frames,
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


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer presses and appends")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the table in Markdown (the README's figures)")
    args = parser.parse_args()
    print(f"machine: {machine()}", flush=True)
    print(f"load average before: {load()}", flush=True)
    start = time.monotonic()
    rows: list[Row] = []
    rows += pads.run(rounds=1, count=10) if args.quick else pads.run()
    rows += journal.run(count=50 if args.quick else 300)
    rows += resume.run((500, 1_000, 2_000) if args.quick else (1_000, 10_000, 100_000))
    rows += process.run(quick=args.quick)
    rows += pad_replug.run(rounds=2 if args.quick else 6)
    rows += dropout.run()
    rows += frames.run(rounds=1, count=20) if args.quick else frames.run()
    rows += contention.run(rounds=1, count=10) if args.quick else contention.run()
    rows += history_size.run(rounds=2, big=2_000) if args.quick else history_size.run()
    rows += phones.run(rounds=1, count=10, idle_rounds=1) if args.quick else phones.run()
    rows.sort(key=lambda row: int(row.bench.split()[0]))  # in the order of the issue
    print(table(rows))
    print(f"load average after: {load()}")
    print(f"({time.monotonic() - start:.0f} s; command: {' '.join(['python -m bench', *sys.argv[1:]])})")
    if args.markdown:
        print()
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
