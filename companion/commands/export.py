"""`companion export --format csv|json|bgstats|bgstats-links [--games RANGE | --last N]
[--out FILE] [--db PATH]`: the game history, or some of its games."""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from companion import history
from companion.engine.errors import counted
from companion.journal import JournalError


def _bgstats_links(games: list[history.GameResult]) -> str:
    from companion import bgstats  # loaded on use (start-up of every other format)

    return "".join(bgstats.link(g) + "\n" for g in games)


def _bgstats_file(games: list[history.GameResult]) -> str:
    from companion import bgstats  # loaded on use (start-up of every other format)

    return "".join(bgstats.backup(games))


FORMATS: dict[str, Callable[[list[history.GameResult]], str]] = {
    "csv": history.to_csv,
    "json": history.to_json,
    "bgstats": _bgstats_file,
    "bgstats-links": _bgstats_links,
}
SUFFIXES = {"bgsplay": "bgstats"}  # BG Stats' own name for its file of plays
_RANGE = re.compile(r"\s*([0-9]+)?\s*(-)?\s*([0-9]+)?\s*")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=sorted(FORMATS),
                   help="csv (one row per player per game), json, bgstats (a file BG Stats "
                   "imports: its plays, games, players and location; open it with BG Stats "
                   "on a phone) or bgstats-links (one BG Stats import link per game, a line "
                   "each: the QR codes' links); default: from --out's extension")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--games", metavar="RANGE",
                       help="only these games, numbered from 1 (the first game kept) in the "
                       "order they were kept: 7, 3-7, 5- or -4")
    which.add_argument("--last", type=int, metavar="N", help="only the N latest games")
    p.add_argument("--out", type=Path, help="file to write (replaced whole); default: stdout")
    p.add_argument("--db", type=Path,
                   help="history database; default: DATA_DIR/companion.db "
                   "(DATA_DIR: $COMPANION_DATA_DIR, else $XDG_DATA_HOME/companion, "
                   "else ~/.local/share/companion)")


def run(args: argparse.Namespace) -> int:
    fmt = args.format
    suffix = args.out.suffix.lower()[1:] if args.out is not None else ""
    if fmt is None and (suffix in FORMATS or suffix in SUFFIXES):
        fmt = SUFFIXES.get(suffix, suffix)
    if fmt is None:
        print(f"companion export: --format: choose {', '.join(FORMATS)}", file=sys.stderr)
        return 2
    if args.last is not None and args.last < 1:
        print(f"companion export: --last: expected a whole number ≥ 1, got {args.last}",
              file=sys.stderr)
        return 2
    span = None
    if args.games is not None:
        span = parse_range(args.games)
        if span is None:
            print(f"companion export: --games: expected a range like 7, 3-7, 5- or -4, got "
                  f"{args.games!r}", file=sys.stderr)
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
    if span is not None:
        games = games[span[0] - 1:span[1]]
    elif args.last is not None:
        games = games[-args.last:]
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
    print(f"{args.out}: {counted(len(games), 'game', 'games')}", file=sys.stderr)
    return 0


def parse_range(text: str) -> tuple[int, int | None] | None:
    """``7`` → (7, 7), ``3-7`` → (3, 7), ``5-`` → (5, None: to the last), ``-4`` → (1, 4);
    None when it is no range (empty, 0, or backwards)."""
    m = _RANGE.fullmatch(text)
    if m is None or not (m[1] or m[3]):
        return None
    low = int(m[1]) if m[1] else 1
    high = int(m[3]) if m[3] else (None if m[2] else low)
    if low < 1 or (high is not None and high < low):
        return None
    return low, high


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
