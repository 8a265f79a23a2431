"""The journal: an append-only SQLite log of every game, durable across power cuts.

Its length: opening, durability checks, the private part and the fault handling all
guard the same database file.

Every action is committed (WAL, ``synchronous=FULL``: the WAL is fsynced at each commit)
before ``append`` returns, so the session shows a result only once it would survive a
power cut. The kiosk's journal (``background_sync``) has that fsync made by a thread of
its own (``companion.storage.committer``) and the seats' lights, the players' receipt, wait for
it instead of the loop. An unfinished game is resumed by replaying its actions; a finished one stays
as history. A game the players drop is ``abandon``-ed: it is then neither unfinished (it
no longer resumes) nor history, and its actions are kept, never deleted.

What must survive a power cut but never be shown (a sealed ballot) goes in ``private``:
it lives in its own table, is never returned by the methods that show a game, and only
the session reads it back (``actions_with_secrets``) to rebuild the state.

A database that cannot be used (SQLite says it is not a database or malformed, a
directory in its place, another program's database) is never overwritten: it is moved
aside as ``NAME.corrupt-YYYYmmdd-HHMMSS`` (with its ``-wal``/``-shm`` files), a fresh
journal is started and ``Journal.notice`` says what happened, for the screen and the log.

A healthy database on storage that fails (disk full, read-only, I/O error) is never moved
aside: ``StorageError`` says what failed. A write that fails changes nothing and is
refused (``Journal.failure`` holds why, for the screen, until a write succeeds again); a
journal that can't be opened is retried at each write, so the game is back once the
cause is gone.

Losing the ``-wal`` file (garbage or a truncation: SQLite then silently drops the frames
from the first bad one) would lose acknowledged actions without a trace. So every write
also counts itself in the database (``meta.commits``) and the count is written, after the
commit, to ``NAME-ack`` beside it (fsynced every ``SYNC_EVERY`` writes, by a thread of its own
so that the light waiting for the commit does not also wait for this second fsync, and at
once at the end of a game). On opening, a count in the database below the one in ``NAME-ack`` means writes
went missing: ``Journal.lost`` says how many, ``notice`` and the log say so.

Copying the -wal into the database (a checkpoint) is done by a thread of its own too
(``Checkpointer``), not inside the commit that happens to cross SQLite's threshold.

A game's state is also kept now and then (``snapshots``, bytes made and read by
``companion.storage.snapshots``), so that a resume replays only the actions after the latest one;
a snapshot is bound by its digest to the action it follows and never outlives that action.

Deleted rows leave no bytes (``PRAGMA secure_delete``); undoing a sealed ballot also
checkpoints and truncates the ``-wal``, where its older copy would otherwise stay. The
files are created readable by the kiosk's account only (0600).
"""

from __future__ import annotations

import errno
import functools
import json
import logging
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Self

from companion.files import regularfile
from companion.files.regularfile import open_regular, read_regular
from companion.files.safetext import shown
from companion.storage.committer import Committer
from companion.storage.seal import SEAL_SUFFIX, SealError, SealFile
from companion.storage.seal import parse as parse_sealed
from companion.system import realtime

log = logging.getLogger(__name__)

# "CPJ1" in the SQLite header: tells our journal from any other SQLite file.
JOURNAL_APP_ID = 0x43504A31
# 1: games, actions, private. 2: games.abandoned. 3: meta (journal_id, commits).
# 4: snapshots. ``_migrate`` brings an older one up to date.
JOURNAL_VERSION = 4
SYNC_EVERY = 8  # writes between two fsyncs of the -ack count
CHECKPOINT_EVERY = 64  # writes between two checkpoints of the -wal (Checkpointer's thread)
ACK_SUFFIX = "-ack"
BUSY_TIMEOUT_MS = 5000  # what sqlite3.connect gives every connection (timeout=5.0)
ACK_MAX_BYTES = 128  # its one record: the journal's id and its write count (48 bytes)
# More acknowledged writes missing than this is no damaged -wal (SQLite checkpoints it every
# 1,000 pages, each write at least one) but a forged or garbled count: said, not believed.
MAX_LOST = 100_000


def _ack_count(word: bytes) -> int | None:
    """The write count of an -ack record: 1 to 12 ASCII digits, else None."""
    if not 1 <= len(word) <= 12 or not all(0x30 <= b <= 0x39 for b in word):
        return None
    return int(word)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    setup    TEXT NOT NULL,
    started  TEXT NOT NULL,
    finished TEXT,
    result   TEXT,
    abandoned TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    action  TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS private (
    game_id INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, seq) REFERENCES actions(game_id, seq)
);
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    stamp   TEXT NOT NULL,
    digest  TEXT NOT NULL,
    state   BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
# The snapshots table (format 4) alone, for ``_migrate``.
_SNAPSHOTS = _SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS snapshots"):]
SNAPSHOTS_KEPT = 2  # a game's latest snapshots kept; older ones are deleted
# A snapshot is made once no action has been journaled for SNAPSHOT_QUIET_S (or after
# SNAPSHOT_WAIT_S at the most): pickling a long night's state is one call that holds the
# interpreter's lock throughout (8 ms for the King's Dilemma at 100k actions on the bench
# machine, several times that on a Pi), and writing it takes the journal's lock; made at
# once it would hold back the very press that asked for it, its light and the next press.
SNAPSHOT_QUIET_S = 1.0
SNAPSHOT_WAIT_S = 60.0
_META = "INSERT OR IGNORE INTO meta VALUES ('journal_id', ?), ('commits', 0)"
# The sealed secrets' pads (``companion.storage.seal``), kept in ``meta`` so that an opening
# scrubs only what changed, never every kept secret: where the kept pads end (raised in the
# commit of each sealed action; a pad past it was written for a commit that never came),
# and one row per undone secret's pad until an opening has zeroed it again (an undo cut
# between its commit and its shred).
SEALED_END = "sealed_end"
UNSHREDDED = "unshredded:"  # + the pad's offset; its value, the pad's length
_RAISE_SEALED_END = ("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE"
                     " SET value = max(value, excluded.value)")
_COUNT = ("UPDATE meta SET value = value + 1 WHERE key = 'commits'", ())


class JournalError(RuntimeError):
    """A request the journal can't honour (unknown or finished game, data that isn't JSON,
    a database that can't be opened even after moving the old one aside)."""


# What an SQLite error says about the storage: its primary result code (sqlite3.h).
_CORRUPT_CODES = {11, 24, 26}  # SQLITE_CORRUPT, SQLITE_FORMAT, SQLITE_NOTADB
_CAUSE_OF_CODE = {
    13: "disk_full",  # SQLITE_FULL
    8: "read_only",  # SQLITE_READONLY
    3: "read_only",  # SQLITE_PERM
    23: "read_only",  # SQLITE_AUTH
    10: "io",  # SQLITE_IOERR
    14: "cannot_open",  # SQLITE_CANTOPEN
    5: "busy",  # SQLITE_BUSY
    6: "busy",  # SQLITE_LOCKED
}
_CAUSE_OF_ERRNO = {
    errno.ENOSPC: "disk_full", errno.EDQUOT: "disk_full", errno.EFBIG: "disk_full",
    errno.EROFS: "read_only", errno.EACCES: "read_only", errno.EPERM: "read_only",
}
CAUSES = {  # cause -> what the log says (the screens say it from the catalogs)
    "disk_full": "disk full",
    "read_only": "read-only",
    "io": "I/O error",
    "cannot_open": "cannot open the file",
    "busy": "in use by another program",
    "corrupt": "the database is damaged",
    "unsynced": "the last action may not be on the disk (its fsync failed)",
    "other": "database error",
}
# Causes that a fresh connection may cure (a file made writable again, a disk back):
# after one of these the next write reopens the database first.
_REOPEN = {"read_only", "cannot_open", "io", "corrupt", "other"}


def cause_of(exc: BaseException) -> str:
    """The ``CAUSES`` key for an SQLite or OS error."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is None:
            return "other"
        primary = code & 0xFF
        if primary in _CORRUPT_CODES:
            return "corrupt"
        return _CAUSE_OF_CODE.get(primary, "other")
    if isinstance(exc, OSError):
        return _CAUSE_OF_ERRNO.get(exc.errno or 0, "io")
    return "other"


class StorageError(JournalError):
    """The storage refused (disk full, read-only, I/O error): nothing was written, the
    database was left where it is. ``cause`` is a ``CAUSES`` key (the screens' catalog
    texts are ``storage.cause.<cause>``); the message reads "not saved: disk full (…)"."""

    def __init__(self, cause: str, detail: str, *, saving: bool = True) -> None:
        self.cause = cause
        self.detail = detail
        self.saving = saving
        head = "not saved" if saving else "cannot read"
        super().__init__(f"{head}: {CAUSES.get(cause, cause)} ({detail})")


def storage_error(exc: BaseException, path: Path, *, saving: bool = True) -> StorageError:
    """``exc`` as a StorageError. SQLite says "unable to open" for a WAL database whose file
    this account may not write: said as read-only, which is what the table can fix."""
    cause = cause_of(exc)
    if cause in ("cannot_open", "io") and path.exists() and not os.access(path, os.W_OK):
        cause = "read_only"
    elif cause == "io" and _no_room(path):  # SQLite's word for a -shm it can't grow
        cause, exc = "disk_full", OSError(errno.ENOSPC, "no space left on the device")
    detail = f"{path.name}: {getattr(exc, 'strerror', None) or exc}"
    return StorageError(cause, detail, saving=saving)


ROOM_TO_OPEN = 128 * 1024  # bytes: a -shm (32 kB), -wal pages, with room to spare


def _no_room(path: Path) -> bool:
    """Whether the file system of ``path`` has less free space than opening a WAL database
    takes: SQLite then says "disk I/O error" (growing its -shm), which is a full disk."""
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < ROOM_TO_OPEN


class Unusable(Exception):
    """The file at the database path can't be used as our database. Carries the reason and
    the connection still open on it: it is closed only once the files are moved aside, so
    SQLite's clean-up on close can't delete or rewrite the evidence (a stale -wal)."""

    def __init__(self, reason: str, conn: sqlite3.Connection | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.conn = conn


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    setup: dict
    started: str  # ISO 8601, local time with offset
    finished: str | None
    result: dict | None
    actions: int  # number of actions journaled
    abandoned: str | None = None  # ISO 8601, when the players dropped it


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def _dump(value: Any, what: str) -> str:
    if not isinstance(value, dict):
        raise JournalError(f"{what} must be a mapping, got {type(value).__name__}")
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"{what} is not JSON data: {exc}") from None


def _token() -> str:
    """16 random hex digits (what ``secrets.token_hex(8)`` gives, without importing
    ``secrets``: its hashlib loads OpenSSL, several ms of the kiosk's start-up)."""
    return os.urandom(8).hex()


# --- opening a durable database (also used by other SQLite stores) ---------------------


_SIDE_FILES = ("-wal", "-shm", "-journal", ACK_SUFFIX)


def create_private(path: Path) -> None:
    """Create ``path`` empty and readable by this account only (0600), if it is missing:
    SQLite then gives its ``-wal`` and ``-shm`` the same mode."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise storage_error(exc, path) from None


def move_aside(path: Path) -> Path:
    """Rename ``path`` (and its ``-wal``, ``-shm``, ``-journal`` companions) to
    ``NAME.corrupt-YYYYmmdd-HHMMSS``, never replacing an earlier one; returns the new path."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while any(Path(f"{target}{s}").exists() for s in ("", *_SIDE_FILES)):
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    for suffix in _SIDE_FILES:
        side = Path(f"{path}{suffix}")
        if side.exists():
            side.rename(f"{target}{suffix}")
    path.rename(target)
    return target


def _connect(path: Path, schema: str, app_id: int, version: int, *,
             sync_creation: bool = True) -> sqlite3.Connection:
    """Open and check ``path``; raise ``Unusable`` if it isn't a healthy database of ours.
    Without ``sync_creation``, a database started from nothing is created without a sync
    and its connection left at ``synchronous=OFF``: the caller's ``Committer`` makes the
    files durable (the database, its folder, the -wal: ``Committer._wal_fd``) before the
    first light, and resets the level. The kiosk's first boot then makes no sync before
    its first frame (eight of them, tens of ms on an SD card), and a cut before the
    committer's first sync can only lose an empty journal."""
    if path.exists() and not path.is_file():
        raise Unusable("it is not a regular file")
    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):  # SQLite would say "I/O error"
        try:
            mode = side.stat().st_mode
        except OSError:
            continue
        if not stat.S_ISREG(mode):
            raise StorageError("cannot_open", f"{side.name}: {regularfile.kind(mode)}",
                               saving=False)
    create_private(path)
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        if cause_of(exc) == "corrupt":
            raise Unusable(f"SQLite can't open it ({exc})") from None
        raise storage_error(exc, path, saving=False) from None
    try:
        found_id = conn.execute("PRAGMA application_id").fetchone()[0]
        found_version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables and found_id != app_id:
            raise Unusable("it is another program's database")
        if found_version > version:
            raise Unusable(f"it was written by a newer version (format {found_version})")
        check = conn.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise Unusable(f"integrity check failed ({check[0][0]})")
        unsynced = not tables and not sync_creation
        # before the switch to WAL, which syncs a rollback journal, the database and the folder
        conn.execute(f"PRAGMA synchronous={'OFF' if unsynced else 'FULL'}")
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            log.warning("%s: SQLite refused WAL mode (%s)", path, mode)
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA secure_delete=ON")
        if not tables:
            # One transaction: a crash here leaves either nothing or the whole schema with
            # our id in the header, never half a database that looks foreign.
            conn.execute("BEGIN IMMEDIATE")
            for statement in schema.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id={app_id:d}")
            conn.execute(f"PRAGMA user_version={version:d}")
            conn.execute("COMMIT")
    except Unusable as exc:
        exc.conn = conn
        raise
    except sqlite3.Error as exc:
        if cause_of(exc) == "corrupt":
            raise Unusable(f"SQLite can't read it ({exc})", conn) from None
        # Full, read-only, I/O: the storage, not the file. Leave it where it is.
        conn.close()
        raise storage_error(exc, path, saving=False) from None
    return conn


def writable(conn: sqlite3.Connection, path: Path) -> StorageError | None:
    """Whether a write would be refused by the file (read-only): a write rolled back,
    which needs no disk space. None when it is writable."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.execute(f"PRAGMA user_version={version:d}")
        finally:
            conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        return storage_error(exc, path)
    return None


def open_durable(
    path: str | Path, schema: str, app_id: int, version: int = 1, *,
    sync_creation: bool = True,
) -> tuple[sqlite3.Connection, str | None]:
    """Open (creating it and its directory if needed) a WAL, ``synchronous=FULL`` SQLite
    database in autocommit mode (run ``BEGIN``/``COMMIT`` yourself). A file that can't be
    used is moved aside and a fresh database created: the second value is then the notice
    saying so (else None). ``schema`` (statements separated by ``;``) is run in one
    transaction when the database has no table yet; ``app_id`` marks the file as ours.
    ``sync_creation``: see ``_connect``."""
    path = Path(path).expanduser()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(cause_of(exc), f"{path.parent}: cannot create the directory "
                                          f"({exc.strerror})", saving=False) from None
    try:
        return _connect(path, schema, app_id, version, sync_creation=sync_creation), None
    except Unusable as exc:
        reason, conn = exc.reason, exc.conn
    try:
        moved = move_aside(path)
    except OSError as exc:
        raise JournalError(
            f"{path}: unusable ({reason}) and cannot be moved aside ({exc.strerror})"
        ) from None
    finally:
        if conn is not None:
            conn.close()
    notice = f"{path} could not be used ({reason}); kept as {moved.name}, started a new one."
    log.error("%s", notice)
    try:
        return _connect(path, schema, app_id, version, sync_creation=sync_creation), notice
    except Unusable as exc:
        if exc.conn is not None:
            exc.conn.close()
        raise JournalError(f"{path}: cannot start a new database ({exc.reason})") from None


class transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` on any exception (a rollback that
    fails too, on a broken disk, leaves the first error to be seen)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None:
            self._conn.execute("COMMIT")
        elif self._conn.in_transaction:
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("rollback failed")


class Chore:
    """Work done in a thread of its own when asked (``request(arg)``: ``work(arg)``), off
    the path of the commit a light waits for. Requests made while it runs are merged into
    the next run (the latest ``arg``); ``close`` waits for what was asked, then stops the
    thread (started at the first request). A chore that raises is logged, and the next
    request runs as usual: a checkpoint never stops for good in silence."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._cond = threading.Condition()
        self._arg: Any = None  # asked and not yet begun
        self._closed = False
        self._busy = False  # working on what was asked
        self._thread: threading.Thread | None = None

    def work(self, arg: Any) -> None:
        raise NotImplementedError

    def request(self, arg: Any) -> None:
        with self._cond:
            if self._closed:
                return
            self._arg = arg
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._cond.notify_all()  # the thread, not only a drain() waiting beside it

    def _run(self) -> None:
        realtime.background()  # started by the press path's thread: nothing shown waits here
        while True:
            with self._cond:
                while self._arg is None and not self._closed:
                    self._cond.wait()
                if self._arg is None:
                    return
                arg, self._arg, self._busy = self._arg, None, True
            try:
                self.work(arg)
            except Exception:  # the thread must outlive a failed chore
                log.exception("%s failed", self.name)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def drain(self) -> None:
        """Return once everything asked so far is done."""
        with self._cond:
            self._cond.wait_for(lambda: self._arg is None and not self._busy)

    def close(self) -> None:
        """Finish what was asked and stop; what it works on may be closed afterwards."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()


class Syncer(Chore):
    """fsyncs a file descriptor: a second flush to the disk that nothing shown waits for."""

    def work(self, fd: int) -> None:
        try:
            os.fsync(fd)
        except OSError as exc:
            log.warning("%s failed (%s)", self.name, exc.strerror)


def checkpoint_wal(path: Path, mode: str = "PASSIVE") -> tuple[int, int, int]:
    """Copy what the -wal holds into the database, through a connection of its own
    (``PRAGMA wal_checkpoint(PASSIVE)``: writers are never blocked); returns SQLite's
    (busy, frames in the -wal, frames copied). ``TRUNCATE`` also empties the -wal, at
    once or not at all (busy: a reader or a writer in its way, never waited for:
    https://www.sqlite.org/pragma.html#pragma_wal_checkpoint)."""
    uri = f"{path.resolve().as_uri()}?mode=rw"  # never creates a file
    conn = sqlite3.connect(uri, uri=True, isolation_level=None,
                           timeout=0 if mode == "TRUNCATE" else BUSY_TIMEOUT_MS / 1000)
    try:
        conn.execute("PRAGMA synchronous=FULL")
        return conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
    finally:
        conn.close()


class Checkpointer(Chore):
    """Checkpoints the journal's -wal (``checkpoint_wal``) every ``CHECKPOINT_EVERY``
    commits, in its own thread. SQLite does it inside the commit that crosses its
    threshold (1,000 pages: about every 300 actions), in the thread whose light waits: a
    batch of page writes and a second fsync, of the database file, on an SD card. A
    checkpoint adds nothing to durability (a commit is durable once its -wal frames are
    fsynced), so it need not come before any light. Asked for well before that threshold,
    it is done between two presses at any player's pace, and SQLite's own stays the
    bound for commits coming faster than this thread can keep up with (a script).
    ``lock`` is held while it runs: the emptying of the -wal after a sealed ballot's undo
    takes it too, so never finds a checkpoint of this thread in its way."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.lock = threading.Lock()

    def work(self, path: Path) -> None:
        with self.lock:
            try:
                checkpoint_wal(path)
            except sqlite3.Error as exc:
                log.warning("%s: %s failed (%s)", path, self.name, exc)


# --- the journal ------------------------------------------------------------------------


class Journal:
    """Games and their actions, one SQLite file. Safe to share between threads.

    ``failure`` is the ``StorageError`` of the last write when it failed (None once one
    succeeds again); ``notice`` what the table must be told about the file (moved aside,
    can't be opened, writes lost); ``lost`` how many acknowledged writes went missing.

    With ``background_sync`` (the kiosk) a commit returns once SQLite has written it, and a
    thread of its own makes it durable (``companion.storage.committer``): what waits for the disk
    is what is given to ``when_durable`` (the seats' lights), not the caller. Without it
    (the commands, the tests' plain journals) every commit is durable when it returns.
    ``sync_wal`` is the committer's fsync (a test may hold it). Once that fsync fails the
    journal is ``halted``: every write is refused (``StorageError``, cause ``unsynced``)
    until it is opened again, at the kiosk's restart, from what the disk holds (why:
    ``companion.storage.committer``)."""

    def __init__(self, path: str | Path, *, background_sync: bool = False,
                 sync_wal: Callable[[int], None] = os.fdatasync) -> None:
        self.path = Path(path).expanduser()
        self.ack_path = Path(f"{self.path}{ACK_SUFFIX}")
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self.notice: str | None = None
        self.failure: StorageError | None = None
        self.lost = 0
        self._id = ""
        self._commits = 0
        self._unsynced = 0
        self._ack_fd: int | None = None
        self._ack_lock = threading.Lock()  # the -ack count: the committer writes it too
        self._acked = 0  # the count written there last (it never goes back)
        self._ack_syncer = Syncer(f"{self.ack_path.name} fsync")
        self._sync_wal = sync_wal
        self.halted: StorageError | None = None  # the committer's fsync failed
        self._committer = self._new_committer() if background_sync else None
        # sealed secrets' pads; the kiosk's written ahead, off the loop (``seal``)
        self._seal = SealFile(Path(f"{self.path}{SEAL_SUFFIX}"), ahead=background_sync)
        self._sealing: str | None = None  # the secret sealed for the commit under way
        self._checkpointer = Checkpointer(f"{self.path.name} checkpoint")
        self._errands = Errands(f"{self.path.name} errands")
        self._snapshotter = Errands(f"{self.path.name} snapshots")  # waits for a quiet spell
        self._snapshots_now = threading.Event()  # wanted at once: written without the wait
        self._appended_at = 0.0  # time.monotonic() of the last action journaled
        self._uncheckpointed = 0  # writes since the last checkpoint was asked for
        self._created = False  # this open started the database from nothing
        self._opened = False  # it has been open once (then never moved aside)
        try:
            self._open()
        except StorageError as exc:
            self._failed(exc)
            self.notice = (f"{self.path} can't be opened ({CAUSES[exc.cause]}): it was left as "
                           "it is; nothing is saved until it can be, tried again at each action.")
            log.error("%s", self.notice)

    # --- opening ------------------------------------------------------------------------

    def _open(self) -> None:
        """Open (or reopen) the database and check its -ack count; raises StorageError.
        Once it has been open, a file found damaged on reopening is not moved aside under
        the game in progress: it is a StorageError ("corrupt") like any other."""
        if self._opened:
            try:
                conn, notice = _connect(self.path, _SCHEMA, JOURNAL_APP_ID, JOURNAL_VERSION), None
            except Unusable as exc:
                if exc.conn is not None:
                    exc.conn.close()
                raise StorageError("corrupt", f"{self.path.name}: {exc.reason}") from None
        else:  # the kiosk's: created without a sync, made durable by its committer
            conn, notice = open_durable(self.path, _SCHEMA, JOURNAL_APP_ID, JOURNAL_VERSION,
                                        sync_creation=self._committer is None)
        try:
            self._migrate(conn)
            journal_id, commits = self._meta(conn)
        except sqlite3.Error as exc:
            conn.close()
            raise storage_error(exc, self.path, saving=False) from None
        if self._committer is not None:
            try:  # durable through the committer's fsync (``companion.storage.committer``)
                conn.execute("PRAGMA synchronous=NORMAL")
            except sqlite3.Error as exc:
                conn.close()
                raise storage_error(exc, self.path, saving=False) from None
        old, self._db = self._db, conn
        self._opened = True
        if old is not None:
            old.close()
        if notice:
            self.notice = notice
        self._id, self._commits = journal_id, commits
        self._check_ack()
        try:  # pads no kept secret refers to (a cut between an undo's commit and its shred)
            self._scrub(conn)
        except (OSError, sqlite3.Error) as exc:
            log.warning("%s: not scrubbed (%s)", self._seal.path, exc)
        failure = writable(conn, self.path)
        if failure is not None:
            self._failed(failure)
            self.notice = (f"{self.path} is {CAUSES[failure.cause]}: the games in it can be "
                           "seen but nothing new is saved until it (and its -wal, -shm) is "
                           "writable.")
            log.error("%s", self.notice)

    def _scrub(self, conn: sqlite3.Connection) -> None:
        """Zero the pads no kept secret refers to, reading what changed since the last
        opening only (a resume's time does not grow with the secrets kept): the pads past
        ``SEALED_END`` and those listed ``UNSHREDDED``. A journal without the mark (an older
        version's) is scrubbed in full, once, and marked."""
        marks = dict(conn.execute("SELECT key, value FROM meta WHERE key = ? OR key LIKE ?",
                                  (SEALED_END, f"{UNSHREDDED}%")).fetchall())
        end = marks.pop(SEALED_END, None)
        # a reopening by the write that will commit it: the pad sealed for it is kept
        sealing = [] if self._sealing is None else [self._sealing]
        if end is None:
            kept = (p for (p,) in conn.execute("SELECT payload FROM private"))
            self._seal.scrub([*sealing, *kept])
        else:
            self._seal.scrub(sealing, start=int(end))
            for key, length in marks.items():
                self._seal.zero(int(key.removeprefix(UNSHREDDED)), int(length))
        pad = None if self._sealing is None else parse_sealed(self._sealing)
        size = self._seal.size() if pad is None else pad[0]  # the pad being committed: past it
        if marks or (end is None and size) or (end is not None and size > int(end)):
            with transaction(conn):
                conn.execute("DELETE FROM meta WHERE key LIKE ?", (f"{UNSHREDDED}%",))
                conn.execute(_RAISE_SEALED_END, (SEALED_END, size))

    def make_wal_ready(self) -> None:
        """Write the -wal's header now (a commit that changes nothing): SQLite writes and
        syncs it, and the directory that gains the file, at the first commit after
        opening, which would otherwise be a player's first press (three syncs instead of
        one). The kiosk calls it once its first frame is shown. The -ack count written at
        opening is fsynced now too (by the syncer's thread), and a table that seals
        ballots has its pads written ahead (by the errands thread)."""
        with self._lock:
            with self._ack_lock:
                if self._unsynced:
                    self._request_sync()
            if self._db is None or self.failure is not None:
                return
            if self._seal.path.exists():  # a table that seals ballots: its pads ahead
                self._pads_ahead()
            try:
                with transaction(self._db):
                    version = self._db.execute("PRAGMA user_version").fetchone()[0]
                    self._db.execute(f"PRAGMA user_version={version:d}")
            except sqlite3.Error as exc:
                log.warning("journal %s: the -wal is not made ready (%s)", self.path.name, exc)
                return
            if self._committer is not None:  # synced (and its folder) off this thread
                self._committer.committed(self._commits, receipt=False)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """Bring a journal written by an older version up to ``JOURNAL_VERSION``, in one
        transaction (a cut leaves the old format whole, migrated again at the next open)."""
        if conn.execute("PRAGMA user_version").fetchone()[0] == JOURNAL_VERSION:
            if conn.execute("SELECT count(*) FROM meta").fetchone()[0] == 0:
                with transaction(conn):  # a journal created just now
                    conn.execute(_META, (_token(),))
                self._created = True
            return
        with transaction(conn):
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version < 2:
                conn.execute("ALTER TABLE games ADD COLUMN abandoned TEXT")
            if version < 3:
                conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, "
                             "value NOT NULL)")
                conn.execute(_META, (_token(),))
            if version < 4:
                conn.execute(_SNAPSHOTS)
            log.info("%s: journal format %d -> %d", self.path, version, JOURNAL_VERSION)
            conn.execute(f"PRAGMA user_version={JOURNAL_VERSION:d}")

    @staticmethod
    def _meta(conn: sqlite3.Connection) -> tuple[str, int]:
        rows = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        return str(rows["journal_id"]), int(rows["commits"])

    def _check_ack(self) -> None:
        """Compare the database's write count with the one kept in ``-ack``: fewer in the
        database means acknowledged writes were lost (a damaged -wal)."""
        try:
            words = read_regular(self.ack_path, ACK_MAX_BYTES).split()
            same = len(words) >= 2 and words[0].decode() == self._id
            # A database started from nothing beside a count of another one: everything it
            # held was in a -wal that is gone (a replaced file keeps its own id: ignored).
            if len(words) >= 2 and (same or self._created):
                acked = _ack_count(words[1])
                if acked is None or acked - self._commits > MAX_LOST:
                    log.warning("%s: a write count this journal can't have written (%s): "
                                "not checked", self.ack_path, shown(words[1].decode("ascii",
                                                                                    "replace")))
                elif acked > self._commits:
                    self.lost = acked - self._commits
                    self.notice = (
                        f"{self.path}: {self.lost} saved action(s) are missing (the file or "
                        "its -wal was damaged or removed); the games resume without them.")
                    log.error("%s", self.notice)
        except FileNotFoundError:
            pass
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            log.warning("%s: unreadable, not checked (%s)", self.ack_path, exc)
        # The count as it is now, fsynced by the syncer's thread once the kiosk's first
        # frame is shown (``make_wal_ready``; starting that thread is ms of a start-up on
        # a busy machine), or with the next writes, or at ``close``: a cut before it is on
        # disk leaves an older, lower count, never a false loss.
        with self._ack_lock:
            self._acked = 0  # the database's count, as opened, is the one to keep
        self._write_ack()

    def _write_ack(self, count: int | None = None, *, sync: bool = False) -> None:
        """Record the write count (``count``, else the latest) beside the database, once
        the commits it counts are durable (never ahead of what the -wal holds on disk);
        fsynced now with ``sync``, else every ``SYNC_EVERY`` writes by the syncer's thread.
        A failure here only weakens the loss check: logged."""
        with self._ack_lock:
            count = self._commits if count is None else count
            if count < self._acked:
                return  # a later count is there already
            try:
                if self._ack_fd is None:
                    self._ack_fd = open_regular(self.ack_path, os.O_RDWR | os.O_CREAT, 0o600)
                record = f"{self._id} {count}\n".encode().ljust(48)
                os.pwrite(self._ack_fd, record, 0)
                self._acked = count
                self._unsynced += 1
                if sync:
                    os.fsync(self._ack_fd)
                    self._unsynced = 0
                elif self._unsynced >= SYNC_EVERY:
                    self._request_sync()
            except OSError as exc:
                log.warning("%s: cannot record the write count (%s)", self.ack_path,
                            exc.strerror)

    def _new_committer(self) -> Committer:
        return Committer(Path(f"{self.path}-wal"), after_sync=self._write_ack,
                         on_failure=self._sync_failed, sync=self._sync_wal,
                         name=f"{self.path.name} commit")

    def _sync_failed(self, exc: OSError) -> None:
        """The committer's fsync failed (its thread): the journal is ``halted``, said on
        every screen ("Not saved") and logged; no write succeeds until it is opened again."""
        self.halted = StorageError("unsynced", f"{self.path.name}-wal: {exc.strerror or exc}")
        self._failed(self.halted)

    def when_durable(self, write: Callable[[], None],
                     failed: Callable[[], None] | None = None, *, what: str = "lights") -> None:
        """Run ``write`` (the seats' lights: the players' receipt; ``what`` it shows) once
        every action journaled so far is on disk: at once without ``background_sync`` or
        when nothing waits, else on the committer's thread (``Committer.when_durable``);
        never once its fsync failed, ``failed`` is called instead."""
        if self._committer is None:
            write()
        else:
            self._committer.when_durable(write, failed, what=what)

    def receipt_pending(self) -> bool:
        """A light waits for a commit not yet on disk (``background_sync``)."""
        return self._committer is not None and self._committer.pending()

    def wait_durable(self) -> None:
        """Return once every commit made so far is on disk (tests, benches, shut-down)."""
        if self._committer is not None:
            self._committer.wait_durable()

    def _sync_ack(self) -> None:
        """Have the -ack count written last fsynced now (by the syncer's thread)."""
        with self._ack_lock:
            self._request_sync()

    def _request_sync(self) -> None:
        """Have the syncer's thread fsync the -ack count written last."""
        if self._ack_fd is not None:
            self._ack_syncer.request(self._ack_fd)
            self._unsynced = 0

    def close(self) -> None:
        # A snapshot asked for is written before the end, without waiting for a quiet
        # spell: outside the lock, which the errands take.
        self._snapshots_now.set()
        self._snapshotter.close()
        self._errands.close()
        with self._lock:
            self._snapshots_now.clear()
            self._snapshotter = Errands(self._snapshotter.name)
            self._errands = Errands(self._errands.name)
            if self._committer is not None:  # every commit synced, its lights written
                self._committer.close()
                self._committer = self._new_committer()
            self._checkpointer.close()  # its connection first: ours may be the last one
            self._checkpointer = Checkpointer(self._checkpointer.name)
            if self._db is not None:
                self._db.close()
                self._db = None
            self._ack_syncer.close()  # a journal used again after close gets a new one
            self._ack_syncer = Syncer(self._ack_syncer.name)
            if self._ack_fd is not None:
                try:
                    os.fsync(self._ack_fd)
                except OSError:
                    pass
                os.close(self._ack_fd)
                self._ack_fd = None
            self._seal.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading and writing ------------------------------------------------------------

    def _failed(self, exc: StorageError) -> None:
        if self.failure is None or self.failure.cause != exc.cause:
            log.error("journal %s: %s", self.path, exc)
        self.failure = exc

    def _usable(self) -> sqlite3.Connection:
        """The connection to write with: after a failure that a fresh connection may cure,
        or when the database could not be opened, the database is opened again first."""
        if self._db is None or (self.failure is not None and self.failure.cause in _REOPEN):
            try:
                self._open()
            except StorageError as exc:
                self._failed(StorageError(exc.cause, exc.detail))  # a write: "not saved"
                raise self.failure from None
        assert self._db is not None
        return self._db

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of a query; a storage failure is a ``StorageError`` (cannot read)."""
        with self._lock:
            if self._db is None:
                raise self.failure or StorageError("other", "the journal is closed", saving=False)
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise storage_error(exc, self.path, saving=False) from None

    def _write(self, statements: list[tuple[str, tuple]], *, sync: bool = False,
               receipt: bool = True) -> sqlite3.Cursor:
        """Run ``statements`` in one transaction; returns the last cursor once committed
        (with ``background_sync``: written, made durable by the committer; ``receipt``: the
        seats' lights wait for it). ``sync``: the -ack count fsynced too as soon as the
        commit is durable (at once without ``background_sync``; else by the committer,
        off the caller's thread: what is shown of it waits as the lights do). A failure
        rolls it all back and raises ``StorageError`` (also kept in ``failure``)."""
        with self._lock:
            if self.halted is not None:  # nothing after a failed fsync (``halted``)
                self._failed(self.halted)
                raise self.halted
            db = self._usable()
            try:
                with transaction(db):
                    for sql, params in statements:
                        cur = db.execute(sql, params)
                    db.execute(*_COUNT)
            except sqlite3.Error as exc:
                error = storage_error(exc, self.path)
                self._failed(error)
                raise error from None
            if self.failure is not None:
                log.info("journal %s: saving again", self.path)
                self.failure = None
            self._commits += 1
            if self._committer is None:
                self._write_ack(sync=sync)
            else:
                self._committer.committed(self._commits, receipt=receipt)
                if sync:  # the end of a game: its count fsynced once it is on disk
                    self._committer.after_durable(self._sync_ack)
            self._uncheckpointed += 1
            if self._uncheckpointed >= CHECKPOINT_EVERY:
                self._checkpointer.request(self.path)
                self._uncheckpointed = 0
            return cur

    def _open_game(self, game_id: int) -> None:
        self._usable()
        rows = self._read("SELECT finished, abandoned FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise JournalError(f"no game {game_id} in the journal")
        if rows[0][0] is not None:
            raise JournalError(f"game {game_id} is finished: its record can't change")
        if rows[0][1] is not None:
            raise JournalError(f"game {game_id} was abandoned: its record can't change")

    def begin_game(self, game: str, setup: dict) -> int:
        """Start a game; returns its id."""
        row = ("INSERT INTO games (game, setup, started) VALUES (?, ?, ?)",
               (game, _dump(setup, "setup"), _now()))
        return int(self._write([row]).lastrowid)

    def append(self, game_id: int, action: dict, private: dict | None = None) -> int:
        """Record one action (and its private part); returns its sequence number (1, 2, …)
        only after the commit is on disk."""
        public = _dump(action, "action")
        secret = None if private is None else _dump(private, "private")
        with self._lock:
            self._open_game(game_id)
            seq = 1 + self._read(
                "SELECT coalesce(max(seq), 0) FROM actions WHERE game_id = ?", (game_id,)
            )[0][0]
            row = (game_id, seq, public, _now())
            statements = [("INSERT INTO actions VALUES (?, ?, ?, ?)", row)]
            if secret is not None:
                secret = self._sealed(secret)  # never in clear in the database or its -wal
                statements.append(("INSERT INTO private VALUES (?, ?, ?)", (game_id, seq, secret)))
                if (pad := parse_sealed(secret)) is not None:  # always: our own seal's text
                    statements.append((_RAISE_SEALED_END, (SEALED_END, pad[0] + pad[1])))
            self._sealing = secret
            self._appended_at = time.monotonic()
            try:
                self._write(statements)
            except StorageError:
                if secret is not None:
                    self._drop_unkept_pad(game_id, seq, secret)
                raise
            finally:
                self._sealing = None
            return seq

    def _drop_unkept_pad(self, game_id: int, seq: int, secret: str) -> None:
        """Zero the pad of a secret whose commit failed, once the journal is seen not to
        hold it (it lies below the pads sealed later, where no opening looks again)."""
        try:
            kept = self._read("SELECT 1 FROM private WHERE game_id = ? AND seq = ?"
                              " AND payload = ?", (game_id, seq, secret))
        except StorageError:
            kept = [()]  # unknown: a pad still referred to must never be zeroed
        if not kept:
            self._shred(secret)

    def undo(self, game_id: int) -> dict | None:
        """Remove the last action of an unfinished game; returns it (public part), or None
        when there was none. An action with a private part leaves no copy behind: its rows
        are zeroed (secure_delete) and the -wal, which still holds them, is emptied."""
        with self._lock:
            self._open_game(game_id)
            rows = self._read(
                "SELECT a.seq, a.action, p.payload FROM actions a LEFT JOIN private p"
                " ON p.game_id = a.game_id AND p.seq = a.seq"
                " WHERE a.game_id = ? ORDER BY a.seq DESC LIMIT 1",
                (game_id,),
            )
            if not rows:
                return None
            seq, action, payload = rows[0]
            had_private = payload is not None
            statements = [
                ("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game_id, seq)),
                ("DELETE FROM private WHERE game_id = ? AND seq = ?", (game_id, seq)),
                ("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq)),
            ]
            if had_private and (pad := parse_sealed(payload)) is not None:
                # zeroed again at the next opening, should the shred below be cut short
                statements.append(("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                   (f"{UNSHREDDED}{pad[0]}", pad[1])))
            later = self._committer is not None  # the kiosk: off the loop's thread
            self._write(statements, sync=had_private and not later)
            if had_private:
                if later:
                    self._committer.after_durable(functools.partial(self._forget, payload))
                else:
                    self._forget(payload)
            return json.loads(action)

    def _forget(self, payload: str) -> None:
        """An undone secret made unreadable, once its undo is on disk (before it, a cut
        would leave its action kept and its pad zeroed): its pad zeroed, so what the -wal
        still holds says nothing, then the -wal emptied. The kiosk's committer thread
        does it (``Committer.after_durable``), while the loop goes on: a press meanwhile
        waits only if its commit comes while the -wal is being emptied."""
        self._shred(payload)
        self._empty_wal()

    def _sealed(self, secret: str) -> str:
        """``secret`` as the database keeps it (``seal``); raises StorageError."""
        try:
            sealed = self._seal.seal(secret.encode("utf-8"))
        except SealError as exc:
            raise self._failed_seal(exc) from None
        self._pads_ahead()
        return sealed

    def _pads_ahead(self) -> None:
        """Have the errands thread write the seal file's pads ahead when they run low
        (the kiosk's: ``companion.storage.seal``)."""
        if self._seal.low():
            self._errands.request(self._seal.refill)

    def _failed_seal(self, exc: SealError) -> StorageError:
        failure = storage_error(exc, self._seal.path)
        self._failed(failure)
        return failure

    def _shred(self, payload: str) -> None:
        try:
            self._seal.shred(payload)
        except SealError as exc:  # zeroed at the next opening (scrub), said now
            log.error("journal %s: an undone secret's pad could not be zeroed yet (%s)",
                      self.path, exc)

    def _unsealed(self, payload: str) -> dict | None:
        """A kept secret read back; None (said in the log) when its pad is gone."""
        try:
            return json.loads(self._seal.unseal(payload))
        except (SealError, ValueError) as exc:
            log.error("journal %s: a sealed secret can't be read back (%s)", self.path, exc)
            return None

    def _empty_wal(self) -> None:
        """Copy the -wal into the database and truncate it to nothing: older page images
        (a deleted sealed ballot) are no longer in any file. Through a connection of its
        own (``checkpoint_wal``), so the journal's lock is not held meanwhile."""
        try:  # at once: a reader holding the -wal would stall the press for 5 s (its pads
            # are zeroed already: what it holds says nothing)
            with self._checkpointer.lock:
                busy, _, _ = checkpoint_wal(self.path, "TRUNCATE")
        except sqlite3.Error as exc:
            log.warning("journal %s: the -wal could not be emptied (%s)", self.path, exc)
            return
        if busy:
            log.warning("journal %s: the -wal could not be emptied (a reader)", self.path)

    def actions(self, game_id: int) -> list[dict]:
        """The public actions of a game, in order."""
        with self._lock:
            self.game(game_id)
            rows = self._read(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        return [json.loads(a) for (a,) in rows]

    def actions_with_secrets(self, game_id: int) -> list[tuple[dict, dict | None]]:
        """Each action with its private part, to rebuild the state (``Session``): holds the
        secrets, never for a view or a log."""
        return list(self.replay(game_id))

    def replay(self, game_id: int, after: int = 0) -> Iterator[tuple[dict, dict | None]]:
        """``actions_with_secrets`` one at a time: the rows are read at once (JSON text,
        which the garbage collector never scans) and decoded as they are taken, so a long
        game's replay holds one decoded action at a time, not all of them (the collector
        would scan those again and again: a replay growing faster than its length).
        ``after``: only the actions after that many (those a snapshot does not cover)."""
        with self._lock:
            self.game(game_id)
            rows = self._read(
                "SELECT a.action, p.payload FROM actions a LEFT JOIN private p"
                " ON p.game_id = a.game_id AND p.seq = a.seq"
                " WHERE a.game_id = ? AND a.seq > ? ORDER BY a.seq",
                (game_id, after),
            )
        return ((json.loads(a), None if p is None else self._unsealed(p)) for a, p in rows)

    def finish(self, game_id: int, result: dict) -> None:
        """Close a game with its result; it then stays as history, unchangeable. With
        ``background_sync`` it returns once written, durable as every commit is (what waits
        for it: ``when_durable``); its -ack count is fsynced then, not ``SYNC_EVERY``
        writes later (the last write of an evening)."""
        encoded = _dump(result, "result")
        with self._lock:
            self._open_game(game_id)
            self._write(
                [("UPDATE games SET finished = ?, result = ? WHERE id = ?",
                  (_now(), encoded, game_id)), _drop_snapshots(game_id)],
                sync=True,
            )

    def abandon(self, game_id: int) -> None:
        """Drop an unfinished game: it no longer resumes and is not history; its actions
        stay in the database."""
        with self._lock:
            self._open_game(game_id)
            self._write([("UPDATE games SET abandoned = ? WHERE id = ?", (_now(), game_id)),
                         _drop_snapshots(game_id)], sync=True)

    def game_origin(self, game_id: int) -> str | None:
        """Game ``game_id``'s identity beyond this journal (its id and the game's), what
        the history keeps its row by, once (``History.keep``); None while the journal has
        never been opened."""
        return f"{self._id}:{game_id}" if self._id else None

    def game(self, game_id: int) -> GameRecord:
        records = self._records("WHERE g.id = ?", (game_id,))
        if not records:
            raise JournalError(f"no game {game_id} in the journal")
        return records[0]

    def unfinished(self) -> list[GameRecord]:
        """Games neither finished nor abandoned, oldest first."""
        return self._records("WHERE g.finished IS NULL AND g.abandoned IS NULL", ())

    def finished(self) -> list[GameRecord]:
        """Finished games (history), oldest first."""
        return self._records("WHERE g.finished IS NOT NULL", ())

    def abandoned(self) -> list[GameRecord]:
        """Games the players dropped, oldest first."""
        return self._records("WHERE g.abandoned IS NOT NULL", ())

    def _records(self, where: str, params: tuple) -> list[GameRecord]:
        """Games matching ``where``. While the journal can't be opened there are none to
        show (``failure`` and ``notice`` say why); opening is tried again here."""
        with self._lock:
            if self._db is None:
                try:
                    self._usable()
                except StorageError:
                    return []
            # A game's actions are numbered 1..n (append and undo work at its end): n is
            # the index's last entry, read at once, where counting them reads them all.
            rows = self._read(
                "SELECT g.id, g.game, g.setup, g.started, g.finished, g.result,"
                " (SELECT coalesce(max(a.seq), 0) FROM actions a WHERE a.game_id = g.id),"
                f" g.abandoned FROM games g {where} ORDER BY g.id",
                params,
            )
        return [
            GameRecord(
                id=i,
                game=game,
                setup=json.loads(setup),
                started=started,
                finished=finished,
                result=None if result is None else json.loads(result),
                actions=n,
                abandoned=abandoned,
            )
            for i, game, setup, started, finished, result, n, abandoned in rows
        ]

    # --- snapshots ----------------------------------------------------------------------
    # A game's state after its first ``seq`` actions, as bytes the journal does not read
    # (``companion.storage.snapshots`` makes and reads them): a resume replays only the actions
    # after it. Each is bound to the action it follows by its digest (SHA-256 of that
    # action's public and private text and of the state's bytes): a snapshot whose action
    # was undone (undo deletes it too), whose bytes changed, or made by other code
    # (``stamp``) is never returned. It holds what the state holds, sealed ballots too:
    # like ``private``, never shown, zeroed when deleted.

    def has_actions(self, game_id: int) -> bool:
        """Whether the game has an action (to take back), without reading any."""
        return bool(self._read("SELECT EXISTS (SELECT 1 FROM actions WHERE game_id = ?)",
                               (game_id,))[0][0])

    def keep_snapshot(self, game_id: int, seq: int, stamp: str,
                      make: Callable[[], bytes]) -> None:
        """Have the snapshot thread keep ``make()`` as the state after the game's first
        ``seq`` actions, off the caller's path and once the table is quiet
        (``SNAPSHOT_QUIET_S``); nothing if action ``seq`` is no longer the one journaled
        now by then (an undo)."""
        with self._lock:
            rows = self._action_text(game_id, seq)
        if rows:
            self._snapshotter.request(functools.partial(self._write_snapshot, game_id, seq,
                                                        rows[0], stamp, make))

    def _action_text(self, game_id: int, seq: int) -> list[tuple[str, str | None]]:
        """Action ``seq`` as journaled: its public and private text."""
        return self._read("SELECT a.action, p.payload FROM actions a LEFT JOIN private p"
                          " ON p.game_id = a.game_id AND p.seq = a.seq"
                          " WHERE a.game_id = ? AND a.seq = ?", (game_id, seq))

    def snapshots_written(self) -> None:
        """Return once every snapshot asked for so far is written, at once, without the
        quiet spell, and the other errands too (the sealed pads written ahead): tests,
        benches, a start that builds a journal."""
        self._snapshots_now.set()
        try:
            self._errands.drain()
            self._snapshotter.drain()
        finally:
            self._snapshots_now.clear()

    def _await_quiet(self) -> None:
        """Until no action has been journaled for ``SNAPSHOT_QUIET_S``, ``SNAPSHOT_WAIT_S``
        have passed, or the snapshots are wanted at once (``snapshots_written``, ``close``)."""
        end = time.monotonic() + SNAPSHOT_WAIT_S
        while not self._snapshots_now.is_set():
            left = min(self._appended_at + SNAPSHOT_QUIET_S, end) - time.monotonic()
            if left <= 0:
                return
            self._snapshots_now.wait(left)

    def _write_snapshot(self, game_id: int, seq: int, text: tuple[str, str | None],
                        stamp: str, make: Callable[[], bytes]) -> None:
        self._await_quiet()
        state = make()
        with self._lock:
            if self._db is None or self._action_text(game_id, seq) != [text]:
                return  # closed, or undone meanwhile (another action there now)
            action, private = text
            self._write([
                ("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?)",
                 (game_id, seq, stamp, _digest(action, private, state), state)),
                (("DELETE FROM snapshots WHERE game_id = ? AND seq NOT IN (SELECT seq FROM"
                  " snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT ?)"),
                 (game_id, game_id, SNAPSHOTS_KEPT)),
            ], receipt=False)

    def snapshot(self, game_id: int, stamp: str) -> tuple[int, bytes] | None:
        """The latest sound snapshot of the game that leaves at least one action to replay
        (the last action's state before is then known too): (``seq``, its bytes), or None.
        One that is not sound (its action gone, its bytes changed, another ``stamp``) is
        deleted, with a log line."""
        with self._lock:
            rows = self._read(
                "SELECT s.seq, s.stamp, s.digest, CAST(s.state AS BLOB), a.action, p.payload"
                " FROM snapshots s LEFT JOIN actions a ON a.game_id = s.game_id"
                " AND a.seq = s.seq LEFT JOIN private p ON p.game_id = s.game_id"
                " AND p.seq = s.seq WHERE s.game_id = ? AND s.seq <"
                " (SELECT coalesce(max(seq), 0) FROM actions WHERE game_id = ?)"
                " ORDER BY s.seq DESC", (game_id, game_id))
            for seq, kept_stamp, digest, state, action, private in rows:
                if kept_stamp != stamp:
                    why = "made by another version of the rules"
                elif action is None or digest != _digest(action, private, bytes(state)):
                    why = "it does not match its action (damaged)"
                else:
                    return seq, bytes(state)
                self.drop_snapshot(game_id, seq, why)
        return None

    def drop_snapshot(self, game_id: int, seq: int, why: str) -> None:
        """Delete a snapshot that can't be used (``why``: for the log); a failure to
        delete it only leaves it to be refused again."""
        log.warning("journal %s: game %d: the snapshot after action %d is not used (%s); "
                    "its actions are replayed", self.path.name, game_id, seq, why)
        try:
            self._write([("DELETE FROM snapshots WHERE game_id = ? AND seq = ?",
                          (game_id, seq))], receipt=False)
        except StorageError:
            pass


def _drop_snapshots(game_id: int) -> tuple[str, tuple]:
    """The statement deleting a game's snapshots (a game that no longer resumes)."""
    return "DELETE FROM snapshots WHERE game_id = ?", (game_id,)


def _digest(action: str, private: str | None, state: bytes) -> str:
    """What binds a snapshot to the action it follows and to its own bytes."""
    import hashlib  # here: its OpenSSL costs the kiosk's start-up several ms

    h = hashlib.sha256(action.encode())
    h.update(b"\0" if private is None else b"\1" + private.encode())
    h.update(b"\0")
    h.update(state)
    return h.hexdigest()


class Errands(Chore):
    """Runs the callables asked for, in order, each once, in its own thread: the journal's
    work that nothing shown waits for (the sealed pads written ahead; a game's snapshots, in
    an Errands of their own that waits for a quiet spell)."""

    def request(self, errand: Callable[[], None]) -> None:
        """Queued, not merged (a chore keeps only its latest request)."""
        with self._cond:  # a re-entrant lock: ``Chore.request`` takes it again
            super().request([*(self._arg or ()), errand])

    def work(self, errands: list[Callable[[], None]]) -> None:
        for errand in errands:
            try:
                errand()
            except StorageError as exc:
                log.warning("%s: %s", self.name, exc)
