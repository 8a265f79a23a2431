"""`companion export --format csv|json|bgstats|bgstats-links [--games RANGE | --last N]
[--out FILE] [--db PATH]`: the game history, or some of its games."""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import re
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from companion.files.safetext import shown, terminal_safe
from companion.files.validate import NUMBER_DIGITS, ascii_whole
from companion.play.errors import counted
from companion.storage import history
from companion.storage.journal import JournalError

Chunks = Iterator[str]


def _csv(games: Iterable[history.GameResult]) -> Chunks:
    yield history.to_csv(list(games))


def _json(games: Iterable[history.GameResult]) -> Chunks:
    """``history.to_json``, a game at a time: the same text, never all of it at once."""
    head = {"format": history.JSON_FORMAT, "version": history.JSON_VERSION}
    yield "{\n" + "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items())
    yield '  "games": ['
    n = 0
    for n, g in enumerate(games, start=1):
        text = json.dumps(g.to_dict(), ensure_ascii=False, indent=2)
        yield ("," if n > 1 else "") + "\n" + textwrap.indent(text, "    ")
    yield ("\n  ]" if n else "]") + "\n}\n"


def _bgstats_links(games: Iterable[history.GameResult]) -> Chunks:
    from companion.records import bgstats  # loaded on use (start-up of every other format)

    for g in games:
        yield bgstats.link(g) + "\n"


def _bgstats_file(games: Iterable[history.GameResult], ledger: Path | None = None) -> Chunks:
    from companion.records import bgstats  # loaded on use (start-up of every other format)

    yield from bgstats.backup(games, _campaign(ledger))


def _campaign(path: Path | None):
    """The King's Dilemma campaign of ``path`` (default: the data directory's ledger), read
    as it is (``kd_ledger.read_campaign``); none when there is none or it is no ledger
    (said)."""
    from companion.games.kings_dilemma import ledger as kd_ledger
    from companion.system import paths

    try:
        return kd_ledger.read_campaign(path or paths.data_dir() / kd_ledger.LEDGER_FILE)
    except kd_ledger.NotALedger as exc:
        print(f"companion export: {exc}; no campaign in the plays' comments", file=sys.stderr)
        return None


# Each format as chunks of text written as they come: an export of ten thousand games
# never holds them all (CSV excepted: its rows are numbered by ``history.to_csv``).
FORMATS: dict[str, Callable[[Iterable[history.GameResult]], Chunks]] = {
    "csv": _csv,
    "json": _json,
    "bgstats": _bgstats_file,
    "bgstats-links": _bgstats_links,
}
SUFFIXES = {"bgsplay": "bgstats"}  # BG Stats' own name for its file of plays
_RANGE = re.compile(r"\s*([0-9]+)?\s*(-)?\s*([0-9]+)?\s*", re.ASCII)


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
    which.add_argument("--last", metavar="N", help="only the N latest games")
    p.add_argument("--out", type=Path, help="file to write (replaced whole); default: stdout")
    p.add_argument("--ledger", type=Path,
                   help="bgstats: The King's Dilemma campaign ledger, whose night each "
                   "King's Dilemma play's comments name; default: DATA_DIR/kd-campaign.json")
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
    last = None
    if args.last is not None:
        last = ascii_whole(args.last, NUMBER_DIGITS)  # bounded before any conversion
        if last is None or last < 1:
            print(f"companion export: --last: expected a whole number ≥ 1, got "
                  f"{shown(args.last)}", file=sys.stderr)
            return 2
    span = None
    if args.games is not None:
        span = parse_range(args.games)
        if span is None:
            print(f"companion export: --games: expected a range like 7, 3-7, 5- or -4, got "
                  f"{shown(args.games)}", file=sys.stderr)
            return 2
    path = args.db or history.default_path()
    form = FORMATS[fmt]
    if fmt == "bgstats":
        form = functools.partial(_bgstats_file, ledger=args.ledger)
    if not path.exists():  # nothing kept yet: an empty export, and no database is created
        return _write(args, form([]), [0])
    try:
        with history.History(path) as h:
            if h.notice:
                print(f"companion export: warning: {h.notice}", file=sys.stderr)
            total = h.count()
            if span is not None:
                low, high = span[0] - 1, (total if span[1] is None else min(span[1], total))
            else:
                low, high = (max(0, total - last) if last is not None else 0), total
            written = [0]

            def chosen() -> Iterator[history.GameResult]:
                for g in itertools.islice(h.iter_games(), low, max(low, high)):
                    written[0] += 1
                    yield g

            return _write(args, form(chosen()), written)
    except JournalError as exc:
        print(f"companion export: {exc}", file=sys.stderr)
        return 1


def _write(args: argparse.Namespace, chunks: Chunks, written: list[int]) -> int:
    """The export to ``--out`` (atomically) or to stdout, chunk by chunk; on a file, how
    many games it holds (``written``: counted as they are read)."""
    if args.out is None:
        # On a terminal, a name's control characters (kept by an older version) are shown
        # escaped, never obeyed; a pipe or a file gets the export as it is.
        tty = sys.stdout.isatty()
        for chunk in chunks:
            sys.stdout.write(terminal_safe(chunk) if tty else chunk)
        return 0
    try:
        write_atomically(args.out, chunks)
    except OSError as exc:
        print(f"companion export: --out: {args.out}: cannot write ({exc.strerror})",
              file=sys.stderr)
        return 2
    print(f"{args.out}: {counted(written[0], 'game', 'games')}", file=sys.stderr)
    return 0


def parse_range(text: str) -> tuple[int, int | None] | None:
    """``7`` → (7, 7), ``3-7`` → (3, 7), ``5-`` → (5, None: to the last), ``-4`` → (1, 4);
    None when it is no range (empty, 0, or backwards)."""
    m = _RANGE.fullmatch(text)
    if m is None or not (m[1] or m[3]):
        return None
    ends = [ascii_whole(m[i], NUMBER_DIGITS) if m[i] else None for i in (1, 3)]
    if any(m[i] and end is None for i, end in zip((1, 3), ends, strict=True)):
        return None  # more digits than any history holds games: never converted
    low = ends[0] if m[1] else 1
    high = ends[1] if m[3] else (None if m[2] else low)
    if low < 1 or (high is not None and high < low):
        return None
    return low, high


def write_atomically(path: Path, text: str | Iterable[str]) -> None:
    """Write ``text`` (or its chunks, as they come) to a temporary file beside ``path``,
    fsync it, then rename it over ``path``: a cut leaves the old file or the new one, never
    half of one."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.writelines([text] if isinstance(text, str) else text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
