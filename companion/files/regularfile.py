"""Every file the kiosk or a command opens by name: a regular file only, read within a
bound.

A FIFO blocks an ``open`` for reading until a writer comes (and one for writing until a
reader comes), ``/dev/zero`` never ends, a directory or a device is no file of ours: put
at the place of a journal's ``-ack``, the log, a parsed copy, a ledger or an import, any
of them would hang or exhaust the kiosk. So a file is opened with ``O_NONBLOCK`` (which
never blocks, whatever the path names, a symbolic link to a FIFO included), checked with
``fstat`` to be a regular file, and only then read (never more than the bound given) or
written."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from pathlib import Path


class NotRegular(OSError):
    """The path names something other than a regular file (``strerror`` says what)."""


class TooBig(OSError):
    """A file longer than the bound it is read within."""

    def __init__(self, size: int | None, limit: int) -> None:
        super().__init__(errno.EFBIG, "file too large")
        self.size = size  # None: it grew past the bound while read
        self.limit = limit


def kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    return "not a regular file"


def open_regular(path: str | Path, flags: int = os.O_RDONLY, mode: int = 0o600) -> int:
    """``os.open(path, flags, mode)`` for a regular file only, never blocking: a FIFO, a
    device, a directory or a socket (or a link to one) is ``NotRegular``, closed again.
    The descriptor returned is blocking, as a plain ``open`` gives."""
    try:
        fd = os.open(path, flags | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO opened to write, with no reader: say what
            info = None
            with contextlib.suppress(OSError):
                info = os.stat(path)
            if info is not None and not stat.S_ISREG(info.st_mode):
                raise NotRegular(errno.EINVAL, kind(info.st_mode), str(path)) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(errno.EINVAL, kind(info.st_mode), str(path))
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them, read once:
    ``NotRegular``, ``TooBig`` (by its size, or grown past ``limit`` while read) or any
    other ``OSError`` otherwise."""
    fd = open_regular(path)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise TooBig(size, limit)
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise TooBig(None, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)
