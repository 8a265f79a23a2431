"""The kiosk's log file, which must never take the kiosk down.

A full disk or a read-only data directory makes every write to ``companion.log`` fail.
``logging.FileHandler`` then prints a traceback per record on stderr, and its ``close``
(at exit) raises: ``companion run`` ended with exit 1 from the log handler. This handler
drops what it can't write, says so once on stderr (the journal of systemd still gets
every record through the stream handler), tries again at the next record, and notes in
the file how many records were lost once writing works again.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from companion.files.regularfile import open_regular


class KioskLogFile(logging.Handler):
    """Appends records to ``path`` (created 0600); never raises, never blocks the kiosk on
    a failing disk."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.fd: int | None = None
        self.dropped = 0
        self.error: str | None = None
        self._open()

    def _open(self) -> bool:
        if self.fd is not None:
            return True
        try:
            # a regular file only: a FIFO there would block the kiosk's start for good
            self.fd = open_regular(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            self._failed(exc)
            return False
        return True

    def _failed(self, exc: OSError) -> None:
        if self.error is None:
            self.error = exc.strerror or str(exc)
            try:
                print(f"companion: log file {self.path}: cannot write ({self.error}); "
                      "records are dropped until it can", file=sys.stderr)
            except (OSError, ValueError):
                pass

    def _write(self, data: bytes) -> bool:
        if not self._open():
            return False
        assert self.fd is not None
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError as exc:
            self._failed(exc)
            return False
        return True

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record) + "\n"
        except (TypeError, ValueError, KeyError):  # a bad record: not worth a crash either
            line = f"(unformattable log record from {record.name})\n"
        if self.dropped:
            note = f"[{self.dropped} log records were lost: {self.error}]\n"
            if not self._write(note.encode("utf-8", "backslashreplace")):
                self.dropped += 1
                return
            self.dropped, self.error = 0, None
        if not self._write(line.encode("utf-8", "backslashreplace")):
            self.dropped += 1
        elif self.error is not None:
            self.error = None

    def close(self) -> None:
        try:
            if self.fd is not None:
                os.close(self.fd)
        except OSError:
            pass
        self.fd = None
        super().close()
