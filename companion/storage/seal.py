"""Sealed ballots kept so that undoing one destroys it, whatever SQLite still holds.

A secret (a sealed ballot) must survive a power cut, so the journal keeps it; and it must
leave no trace once undone. Deleting its row is not enough: SQLite's -wal keeps the old
page images until a checkpoint can reset it, and a checkpoint can't while any other
connection holds a read transaction (a backup, ``sqlite3`` left open). So the secret never
reaches SQLite in clear: it is XORed with a one-time pad of random bytes (as long as the
secret: a one-time pad, unbreakable without it), the pad kept in ``NAME-seal`` beside the
journal and the journal keeping only ``sealed64:OFFSET:LENGTH:HEX`` (where its pad is and
the masked bytes). Undoing it overwrites its pad with zeros in place (and syncs): the
masked bytes left in the -wal, or in any copy of the database, then say nothing.

XOR keeps a secret's length, and a ballot's length says what it is (``pass-power`` is
longer than ``aye 3``, ``aye 12`` than ``aye 3``). So the secret is padded before masking,
to a multiple of ``BLOCK`` bytes (one block for any ballot): a 0x80 byte, then zeros
(ISO/IEC 7816-4 padding, removable whatever the secret's last bytes). Texts an older
version wrote, ``sealed:OFFSET:LENGTH:HEX``, were not padded and still read back.

The pad is on disk (synced) before the journal's commit, so a ballot acknowledged is one
that can be read back. At each opening the journal zeroes every byte of ``NAME-seal``
that no kept secret refers to (a pad written just before a crash, or whose undo was cut
short after its commit) and cuts the file after the last pad a secret refers to: pads are
only ever appended, so it reads no more than the file's tail past the last kept pad and the
pads of the undos it listed (``Journal``), whatever the number of secrets kept before.

The kiosk's file (``ahead``) keeps pads written and synced ahead of their secrets
(``RESERVE`` bytes, refilled by the journal's errands thread once half of it is taken):
sealing a ballot then takes a pad already on disk and waits for no fsync, on the loop's
thread that handles the press. Only the first ballot after an opening whose file had no
reserve yet writes its own pad and syncs it there (with a reserve for the next ones, in
the same write and the same fsync). Pads of the reserve that no secret took are random
bytes that mask nothing: zeroed and cut off at the next opening like any other.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable
from pathlib import Path

from companion.files.regularfile import open_regular

PREFIX = "sealed64:"  # a padded secret (every ballot of a vote the same length)
UNPADDED_PREFIX = "sealed:"  # an older version's: the secret's own length, not padded
SEAL_SUFFIX = "-seal"
MAX_SECRET = 1 << 16  # bytes: a ballot is a few dozen
BLOCK = 64  # bytes: a padded secret is a multiple of it
RESERVE = 16 * BLOCK  # bytes of pads kept on disk ahead (``ahead``): 16 ballots, 3 votes of 5

log = logging.getLogger(__name__)


def padded(data: bytes) -> bytes:
    """``data``, a 0x80 byte and zeros up to the next multiple of ``BLOCK``."""
    size = -(-(len(data) + 1) // BLOCK) * BLOCK
    return data + b"\x80" + bytes(size - len(data) - 1)


def unpadded(data: bytes) -> bytes | None:
    """What ``padded`` was given, or None when ``data`` isn't padded so."""
    body = data.rstrip(b"\0")
    if not body.endswith(b"\x80"):
        return None
    return body[:-1]


class SealError(OSError):
    """A secret can't be sealed (its pad not written) or read back (its pad gone)."""


def _mask(data: bytes, pad: bytes) -> bytes:
    return (int.from_bytes(data, "big") ^ int.from_bytes(pad, "big")).to_bytes(len(data), "big")


def parse(text: str) -> tuple[int, int, bytes] | None:
    """(offset, length, masked bytes) of a sealed secret, padded or not, None for any
    other text (a secret kept in clear by an older version)."""
    prefix = next((p for p in (PREFIX, UNPADDED_PREFIX) if text.startswith(p)), None)
    if prefix is None:
        return None
    try:
        offset, length, masked = text[len(prefix):].split(":")
        where, size, data = int(offset), int(length), bytes.fromhex(masked)
    except ValueError:
        return None
    if where < 0 or size != len(data) or size > MAX_SECRET + BLOCK:
        return None
    return where, size, data


class SealFile:
    """The pads of one journal's secrets (``NAME-seal``, 0600, a regular file only);
    ``ahead``: pads kept on disk ahead of the secrets (the kiosk: the module's doc)."""

    def __init__(self, path: Path, *, ahead: bool = False) -> None:
        self.path = path
        self.ahead = ahead
        self._fd: int | None = None
        self._lock = threading.Lock()  # the file's end and the reserve (``refill``'s thread)
        self._reserve: list[tuple[int, int]] = []  # (offset, length): synced, not yet taken
        self._generation = 0  # bumped by ``scrub``: a refill begun before it is not kept

    def _file(self) -> int:
        if self._fd is None:
            self._fd = open_regular(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        return self._fd

    def seal(self, data: bytes) -> str:
        """``data`` masked with a pad on disk: one of the reserve, else a new one written
        and synced at the end of the file (with a reserve, when ``ahead``); the text the
        journal keeps instead of ``data``. Raises ``SealError``."""
        if len(data) > MAX_SECRET:
            raise SealError(f"a secret of {len(data):,} bytes (at most {MAX_SECRET:,})")
        data = padded(data)  # so its length says nothing of what it is
        try:
            with self._lock:
                taken = self._take(len(data))
            if taken is None:
                offset, pad = self._write_synced(len(data))
            else:
                offset, pad = taken
        except SealError:
            raise
        except OSError as exc:
            raise SealError(exc.errno, f"{self.path.name}: {exc.strerror}") from None
        return f"{PREFIX}{offset}:{len(data)}:{_mask(data, pad).hex()}"

    def _take(self, size: int) -> tuple[int, bytes] | None:
        """(offset, pad) of ``size`` bytes of the reserve, taken from it; None when it has
        none that long (the lock held). A pad read back short or all zeros is never used:
        it would leave the secret in clear."""
        while self._reserve:
            offset, length = self._reserve[0]
            if length < size:
                self._reserve.pop(0)  # what is left of it: zeroed at the next opening
                continue
            pad = os.pread(self._file(), size, offset)
            if length == size:
                self._reserve.pop(0)
            else:
                self._reserve[0] = (offset + size, length - size)
            if len(pad) == size and any(pad):
                return offset, pad
        return None

    def _write_synced(self, size: int) -> tuple[int, bytes]:
        """A new pad of ``size`` bytes (and, ``ahead``, a reserve behind it) written at the
        end of the file and synced: (offset, pad)."""
        extra = RESERVE if self.ahead else 0
        # the kernel's CSPRNG, as secrets.token_bytes is (SystemRandom: os.urandom), without
        # secrets' import (hmac's OpenSSL: ms of the kiosk's start-up)
        pad = os.urandom(size + extra)
        with self._lock:
            fd = self._file()
            offset = os.lseek(fd, 0, os.SEEK_END)
            written = os.pwrite(fd, pad, offset)
            generation = self._generation
        if written != len(pad):
            raise SealError(f"{self.path.name}: short write")
        os.fdatasync(fd)
        if extra:
            self._reserved(generation, offset + size, extra)
        return offset, pad[:size]

    def _reserved(self, generation: int, offset: int, length: int) -> None:
        """Pads synced at ``offset``: into the reserve, unless the file was scrubbed since
        they were written (they are zeros now, or gone)."""
        with self._lock:
            if generation == self._generation:
                self._reserve.append((offset, length))

    def low(self) -> bool:
        """``ahead`` and less than half the reserve left: time for ``refill``."""
        with self._lock:
            return self.ahead and sum(n for _, n in self._reserve) < RESERVE // 2

    def refill(self) -> None:
        """Write and sync a reserve of pads (the journal's errands thread: the loop never
        waits for it); a failure only leaves the next secret to sync its own pad."""
        if not self.low():
            return
        try:
            self._write_synced(0)
        except OSError as exc:
            log.warning("%s: no pads written ahead (%s)", self.path.name,
                        exc.strerror or exc)

    def unseal(self, text: str) -> bytes:
        """The secret ``text`` stands for (``text`` itself when it was kept in clear).
        Raises ``SealError`` when its pad is gone (an undone secret, a lost file)."""
        found = parse(text)
        if found is None:
            return text.encode("utf-8")
        offset, length, masked = found
        try:
            pad = os.pread(self._file(), length, offset)
        except OSError as exc:
            raise SealError(exc.errno, f"{self.path.name}: {exc.strerror}") from None
        if len(pad) != length or (length and not any(pad)):
            raise SealError(f"{self.path.name}: the pad of a sealed secret is gone")
        data = _mask(masked, pad)
        if text.startswith(UNPADDED_PREFIX):
            return data
        secret = unpadded(data)
        if secret is None:
            raise SealError(f"{self.path.name}: the pad of a sealed secret doesn't match it")
        return secret

    def shred(self, text: str) -> None:
        """Overwrite the pad of ``text`` with zeros and sync: the secret is gone from every
        file, whatever copies of ``text`` remain. Raises ``SealError``."""
        found = parse(text)
        if found is None:
            return
        offset, length, _ = found
        self.zero(offset, length)

    def zero(self, offset: int, length: int) -> None:
        """Overwrite ``length`` bytes at ``offset`` with zeros and sync (a pad, by where it
        is); nothing when the file doesn't exist or they are zeros already (no sync: an
        opening zeroes again the pads of every undo since the last one). Raises
        ``SealError``."""
        if self._fd is None and not self.path.exists():
            return
        try:
            fd = self._file()
            if not any(os.pread(fd, length, offset)):
                return
            os.pwrite(fd, bytes(length), offset)
            os.fdatasync(fd)
        except OSError as exc:
            raise SealError(exc.errno, f"{self.path.name}: {exc.strerror}") from None

    def size(self) -> int:
        """The file's size in bytes (0 when it doesn't exist): where the next pad goes."""
        if self._fd is None and not self.path.exists():
            return 0
        return os.fstat(self._file()).st_size

    def scrub(self, kept: Iterable[str], start: int = 0) -> int:
        """Zero every byte of the file from ``start`` on that no secret of ``kept`` refers
        to, and cut it after the last one referred to (never before ``start``); returns
        how many bytes were zeroed. The reserve is given up (its pads are among those
        bytes). A file that doesn't exist is left so."""
        with self._lock:
            self._generation += 1
            self._reserve.clear()
            if not self.path.exists():
                return 0
            fd = self._file()
            size = os.fstat(fd).st_size
            used = sorted((o, o + n) for o, n, _ in filter(None, map(parse, kept)))
            zeroed, at = 0, start
            for begin, end in [*used, (size, size)]:
                if begin > at:
                    gap = min(begin, size) - at
                    for done in range(0, gap, 1 << 16):
                        chunk = min(1 << 16, gap - done)
                        if any(os.pread(fd, chunk, at + done)):
                            os.pwrite(fd, bytes(chunk), at + done)
                            zeroed += chunk
                at = max(at, end)
            if zeroed:
                os.fdatasync(fd)
            last = max([start, *(end for _, end in used)])
            if size > last:  # zeros now, that nothing refers to: the file stops growing
                os.ftruncate(fd, last)
            return zeroed

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
