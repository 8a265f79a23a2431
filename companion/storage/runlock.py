"""One kiosk per data directory: an OS lock on ``DATA_DIR/companion.lock``.

Two kiosks on one journal would both resume the same game and interleave their actions
(both lock the same ballot; the game then no longer replays). ``companion run`` takes an
exclusive ``flock`` on the lock file before it opens anything and holds it until it
exits; the kernel drops it when the process ends in any way, SIGKILL included, so a stale
lock can't block the next start. The file holds the holder's pid, for the message. The
headless commands don't take it (SQLite keeps their reads and writes consistent).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from companion.files.regularfile import open_regular
from companion.files.safetext import escaped
from companion.files.yamlsrc import SourceError

LOCK_FILE = "companion.lock"


class RunLock:
    """Held while the object lives (or until ``release``)."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd: int | None = fd
        self.path = path

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the file drops the flock
            self.fd = None


def acquire(data_dir: Path) -> RunLock:
    """Take the data directory's lock, or raise ``SourceError`` naming the running kiosk's
    pid (``companion run`` exits 2 on it)."""
    path = data_dir / LOCK_FILE
    where = escaped(str(data_dir))
    try:
        # a FIFO, a device or a directory put there is refused (a FIFO would open and lock)
        fd = open_regular(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        raise SourceError(f"{where}: cannot open {LOCK_FILE} ({exc.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(fd)
        os.close(fd)
        raise SourceError(
            f"{where}: another companion is already running on this data directory "
            f"({holder}); stop it first (two would split the games)"
        ) from None
    except OSError as exc:
        os.close(fd)
        raise SourceError(f"{where}: cannot lock {LOCK_FILE} ({exc.strerror})") from None
    try:  # the pid is for the message only: a full disk must not stop the kiosk here
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:
        pass
    return RunLock(fd, path)


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return f"pid {text}" if text.isdigit() else "pid unknown"
