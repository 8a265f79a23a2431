"""`companion export --format csv|json [--out FILE] [--db PATH]`: the whole game history."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from companion import history
from companion.journal import JournalError

FORMATS = {"csv": history.to_csv, "json": history.to_json}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=sorted(FORMATS),
                   help="csv (one row per player per game) or json; default: from --out's "
                   "extension")
    p.add_argument("--out", type=Path, help="file to write (replaced whole); default: stdout")
    p.add_argument("--db", type=Path,
                   help="history database; default: DATA_DIR/companion.db "
                   "(DATA_DIR: $COMPANION_DATA_DIR, else $XDG_DATA_HOME/companion, "
                   "else ~/.local/share/companion)")


def run(args: argparse.Namespace) -> int:
    fmt = args.format
    if fmt is None and args.out is not None and args.out.suffix.lower()[1:] in FORMATS:
        fmt = args.out.suffix.lower()[1:]
    if fmt is None:
        print("companion export: --format: choose csv or json", file=sys.stderr)
        return 2
    path = args.db or history.default_path()
    games: list[history.GameResult] = []
    if path.exists():  # nothing kept yet: an empty export, and no database is created
        try:
            with history.History(path) as h:
                if h.notice:
                    print(f"companion export: warning: {h.notice}", file=sys.stderr)
                games = h.games()
        except JournalError as exc:
            print(f"companion export: {exc}", file=sys.stderr)
            return 1
    text = FORMATS[fmt](games)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        write_atomically(args.out, text)
    except OSError as exc:
        print(f"companion export: --out: {args.out}: cannot write ({exc.strerror})",
              file=sys.stderr)
        return 2
    print(f"{args.out}: {len(games)} {'game' if len(games) == 1 else 'games'}", file=sys.stderr)
    return 0


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, fsync it, then rename it over
    ``path``: a cut leaves the old file or the new one, never half of one."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
