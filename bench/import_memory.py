"""`companion import` at the 50 MB limit: peak resident memory and time, CSV and JSON.

    python -m bench.import_memory            # 3 rounds, CSV and JSON interleaved
    python -m bench.import_memory --rounds 1

Each file is an export just under ``history.MAX_IMPORT_BYTES`` of distinct games (a CSV
of about a million, a JSON of some 170,000: its records are longer), imported into a
fresh database by ``python -m companion import`` under ``bench/peak_rss.py`` (the
program's own ``VmHWM``). The goal: at most 100 MB whatever the file, which an import
reading the file whole (its bytes, its text, every game at once) missed by 10x. The
baseline column is the same measure of ``python -c pass`` (what Python itself takes)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bench.common import ROOT, Row, load, machine, spread, verdict
from bench.process import peak_rss_mb
from companion.storage import history

GOAL_MB = 100


def _game(i: int) -> history.GameResult:
    day, rest = divmod(i, 86_400)
    hour, rest = divmod(rest, 3600)
    when = f"{2001 + day // 365:04d}-{day % 365 // 28 + 1:02d}-{day % 28 + 1:02d}T" \
           f"{hour:02d}:{rest // 60:02d}:{rest % 60:02d}+01:00"
    return history.GameResult(when, "koryo", (
        history.PlayerResult("Ana", i % 50, {"influence": i % 7}),
        history.PlayerResult("Ben", i % 41, {"influence": i % 5})), ("Ana",))


def write_exports(tmp: Path) -> dict[str, Path]:
    """A CSV and a JSON export of distinct games, each just under the import limit."""
    limit = history.MAX_IMPORT_BYTES - 200_000
    out = {}
    for fmt, render in (("csv", history.to_csv), ("json", history.to_json)):
        path = tmp / f"export.{fmt}"
        per = len(render([_game(0), _game(1)]).encode()) / 2
        count = int(limit / per)
        while True:
            games = [_game(i) for i in range(count)]
            data = render(games).encode()
            if len(data) <= history.MAX_IMPORT_BYTES:
                break
            count = int(count * 0.97)
        path.write_bytes(data)
        out[fmt] = path
        del games, data
    return out


def measure(path: Path, tmp: Path, n: int) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of one import of ``path`` into a fresh database."""
    db = tmp / f"h{n}.db"
    started = time.monotonic()
    mb = peak_rss_mb([sys.executable, "-m", "companion", "import", str(path), "--db", str(db)],
                     tmp / f"rss{n}")
    seconds = time.monotonic() - started
    games = len(history.History(db).games())
    if games == 0:
        raise RuntimeError(f"{path}: nothing imported")
    for p in tmp.glob(f"h{n}.db*"):
        p.unlink()
    return mb, seconds


def run(rounds: int = 3) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="companion-import-") as name:
        tmp = Path(name)
        files = write_exports(tmp)
        base = [peak_rss_mb([sys.executable, "-c", "pass"], tmp / "base") for _ in range(rounds)]
        seen: dict[str, list[tuple[float, float]]] = {fmt: [] for fmt in files}
        n = 0
        for _ in range(rounds):  # interleaved: CSV, JSON, CSV, JSON…
            for fmt, path in files.items():
                seen[fmt].append(measure(path, tmp, n))
                n += 1
        rows = []
        for fmt, path in files.items():
            mbs = [mb for mb, _ in seen[fmt]]
            secs = [s for _, s in seen[fmt]]
            size = path.stat().st_size / 1_000_000
            rows.append(Row("import", f"{size:.0f} MB {fmt.upper()}: peak RSS (time "
                            f"{spread(secs, 's', 0)})", spread(mbs, "MB", 0),
                            spread(base, "MB (python -c pass)", 0), "",
                            f"≤ {GOAL_MB} MB", verdict(max(mbs) <= GOAL_MB)))
        return rows


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.import_memory", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {machine()}; load average {load()}; root {ROOT}")
    rows = run(args.rounds)
    for row in rows:
        print(" | ".join(vars(row).values()))
    return 0 if all(row.met != "NO" for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
