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
short after its commit): pads are only ever appended, so it reads no more than the file's
tail past the last kept pad and the pads of the undos it listed (``Journal``), whatever
the number of secrets kept before.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from companion.files.regularfile import open_regular

PREFIX = "sealed64:"  # a padded secret (every ballot of a vote the same length)
UNPADDED_PREFIX = "sealed:"  # an older version's: the secret's own length, not padded
SEAL_SUFFIX = "-seal"
MAX_SECRET = 1 << 16  # bytes: a ballot is a few dozen
BLOCK = 64  # bytes: a padded secret is a multiple of it


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
    """The pads of one journal's secrets (``NAME-seal``, 0600, a regular file only)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def _file(self) -> int:
        if self._fd is None:
            self._fd = open_regular(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        return self._fd

    def seal(self, data: bytes) -> str:
        """``data`` masked with a new pad, written and synced at the end of the file; the
        text the journal keeps instead of ``data``. Raises ``SealError``."""
        if len(data) > MAX_SECRET:
            raise SealError(f"a secret of {len(data):,} bytes (at most {MAX_SECRET:,})")
        data = padded(data)  # so its length says nothing of what it is
        # the kernel's CSPRNG, as secrets.token_bytes is (SystemRandom: os.urandom), without
        # secrets' import (hmac's OpenSSL: ms of the kiosk's start-up)
        pad = os.urandom(len(data))
        try:
            fd = self._file()
            offset = os.lseek(fd, 0, os.SEEK_END)
            written = os.pwrite(fd, pad, offset)
            if written != len(pad):
                raise SealError(f"{self.path.name}: short write")
            os.fdatasync(fd)
        except SealError:
            raise
        except OSError as exc:
            raise SealError(exc.errno, f"{self.path.name}: {exc.strerror}") from None
        return f"{PREFIX}{offset}:{len(data)}:{_mask(data, pad).hex()}"

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
        to; returns how many bytes were zeroed. A file that doesn't exist is left so."""
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
        return zeroed

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
