"""`companion import FILE [--db PATH]`: games from an export (CSV or JSON) into the history.

The file is read as a stream, each game checked and kept as it comes, all in one
transaction: a mistake anywhere in the file changes nothing, and memory stays bounded
whatever the file's size (within ``MAX_IMPORT_BYTES``). Games equal to one already kept, or
to one earlier in the file, are skipped, so importing twice is safe."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from companion.files.regularfile import TooBig, open_regular
from companion.files.safetext import escaped
from companion.files.yamlsrc import SourceError, read_bounded
from companion.play.errors import counted
from companion.storage import history
from companion.storage.journal import JournalError


class _Bounded(io.RawIOBase):
    """The bytes of a file descriptor, ``TooBig`` once more than ``limit`` are read (a
    file growing while it is imported is cut off too)."""

    def __init__(self, fd: int, limit: int) -> None:
        self.fd, self.limit, self.read_so_far = fd, limit, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = os.readv(self.fd, [buffer])
        self.read_so_far += n
        if self.read_so_far > self.limit:
            raise TooBig(None, self.limit)
        return n

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


@contextlib.contextmanager
def open_export(path: Path) -> Iterator[io.TextIOWrapper]:
    """The export at ``path`` as a text stream read as it is used: a regular file of at
    most ``MAX_IMPORT_BYTES`` (checked as ``read_bounded`` checks: a FIFO or a device is
    refused without blocking, a file over the limit by its size), decoded as UTF-8 with
    or without a BOM, line breaks kept as written (``newline=""``: a line break inside
    a quoted CSV field stays as it is)."""
    try:
        fd = open_regular(path)
    except (OSError, ValueError):  # read_bounded says why, as for every file
        read_bounded(path, "an export", history.MAX_IMPORT_BYTES)
        raise
    size = os.fstat(fd).st_size
    if size > history.MAX_IMPORT_BYTES:
        os.close(fd)
        read_bounded(path, "an export", history.MAX_IMPORT_BYTES)  # raises its message
    raw = _Bounded(fd, history.MAX_IMPORT_BYTES)
    stream = io.TextIOWrapper(io.BufferedReader(raw, 1 << 16), encoding="utf-8-sig",
                              newline="")
    try:
        yield stream
    finally:
        stream.close()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path,
                   help="an export of `companion export`: .csv or .json (else told by content)")
    p.add_argument("--db", type=Path,
                   help="history database; default: DATA_DIR/companion.db (see export)")


def run(args: argparse.Namespace) -> int:
    name = escaped(str(args.file))
    with open_export(args.file) as stream:
        games = history.iter_export(stream, name)
        try:
            with history.History(args.db) as h:
                if h.notice:
                    print(f"companion import: warning: {h.notice}", file=sys.stderr)
                kept, skipped = h.import_games(games)  # read, checked and kept as it goes
        except UnicodeDecodeError:
            raise SourceError(f"{name}: not a text file (expected UTF-8 CSV or JSON)") \
                from None
        except TooBig:
            raise SourceError(f"{name}: more than the "
                              f"{history.MAX_IMPORT_BYTES // 1_000_000} MB an export may have") \
                from None
        except JournalError as exc:
            print(f"companion import: {exc}", file=sys.stderr)
            return 1
    note = f" ({skipped} already in the history or given twice)" if skipped else ""
    print(f"{args.file}: {counted(kept, 'game', 'games')} imported{note}")
    return 0
