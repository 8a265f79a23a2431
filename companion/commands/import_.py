"""`companion import FILE [--db PATH]`: games from an export (CSV or JSON) into the history.

The file is checked whole before anything is kept, and kept in one transaction: a bad file
changes nothing. Games equal to one already kept are skipped, so importing twice is safe."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion import history
from companion.engine.errors import counted
from companion.journal import JournalError
from companion.safetext import escaped
from companion.yamlsrc import SourceError, read_bounded


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path,
                   help="an export of `companion export`: .csv or .json (else told by content)")
    p.add_argument("--db", type=Path,
                   help="history database; default: DATA_DIR/companion.db (see export)")


def run(args: argparse.Namespace) -> int:
    raw = read_bounded(args.file, "an export", history.MAX_IMPORT_BYTES)
    try:
        # bytes decoded as they are: a line break inside a quoted CSV field stays as written
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceError(f"{escaped(str(args.file))}: not a text file (expected UTF-8 CSV "
                          "or JSON)") from None
    games = history.parse(text, escaped(str(args.file)))
    try:
        with history.History(args.db) as h:
            if h.notice:
                print(f"companion import: warning: {h.notice}", file=sys.stderr)
            kept, skipped = h.import_games(games)
    except JournalError as exc:
        print(f"companion import: {exc}", file=sys.stderr)
        return 1
    note = f" ({skipped} already in the history)" if skipped else ""
    print(f"{args.file}: {counted(kept, 'game', 'games')} imported{note}")
    return 0
