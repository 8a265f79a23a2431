"""The journal's commits made durable off the loop's thread, and the seats' lights (the
players' receipts) written only once they are.

SQLite's ``synchronous=FULL`` fsyncs the -wal inside every commit, on the thread that
commits: the kiosk's loop, so a tap or another seat's press made meanwhile waits for the
disk. The journal's own connection runs ``synchronous=NORMAL`` instead, where a commit
writes its -wal frames and returns, and SQLite still syncs the -wal before every
checkpoint and the database after it, so the file stays consistent through a power cut
(https://www.sqlite.org/pragma.html#pragma_synchronous, https://www.sqlite.org/wal.html
"Performance Considerations"). What NORMAL gives up, that a commit survives a power cut,
the ``Committer`` gives back: its thread fsyncs the -wal after each commit (one fsync for
every commit made while the previous one ran), as FULL would, and only then does it let
the lights through. So the in-memory game may move on at once (a controller reads
``Session.dispatch``'s view right away), the screen answers touches, other seats' presses
are written, and the light that tells a player "saved" still comes after the disk says
so, in the order the commits were made. What must follow a commit on disk but that
nothing shown waits for (zeroing an undone ballot's pad) is ``after_durable``'s work, on
the same thread after the lights.

A full disk shows at the commit itself (SQLite writes the frames there): that is still the
caller's ``StorageError``, nothing changes. An fsync that fails (an I/O error) is final:
it is told to ``on_failure`` (the journal then refuses every write until the kiosk is
restarted, and its band says so) and logged, the lights waiting are never written (they
would tell the players a result the disk may not hold; the ``failed`` callback given
with them is called instead, so the screen shows the band) and no fsync is tried again.
An fsync that failed once can't be trusted to mean anything the next time: Linux marks
the pages it could not write clean, and a later fsync of the same file then returns
success without writing them (the "fsyncgate" of PostgreSQL, which since answers a
failed fsync by stopping and recovering from its log at the next start:
https://wiki.postgresql.org/wiki/Fsync_Errors). The kiosk does the same: what is on the
card after a restart is a prefix of the commits, SQLite's -wal being checksummed frame by
frame (https://www.sqlite.org/fileformat.html#the_write_ahead_log: a recovery stops at
the first frame whose checksum fails), and the game resumes from it.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

Sync = Callable[[int], None]

# How long a thread that waits for the interpreter's lock lets the running one go on
# before asking for it (Python's default: 5 ms). The committer's thread, back from the
# fsync, writes the lights while the loop draws the frame of the press: at the default it
# could wait up to 5 ms for that frame, most of the light's budget; the loop's drawing is
# Python code that gives the lock up at the next check.
SWITCH_INTERVAL_S = 0.0005


class Committer:
    """fsyncs ``wal`` (the -wal file SQLite writes the commits to) in a thread of its own
    after each ``committed(n)``; ``when_durable(write)`` runs ``write`` once every commit
    made so far is on disk (at once when it is already). ``after_sync(n)`` is called on its
    thread once commit ``n`` is durable, before any light: what must never be ahead of
    the disk (the journal's -ack count). ``sync`` is the fsync itself (a test may hold
    it): ``fdatasync``, as SQLite's own under FULL where the system has one."""

    def __init__(self, wal: Path, *, after_sync: Callable[[int], None] | None = None,
                 on_failure: Callable[[OSError], None] | None = None,
                 sync: Sync = os.fdatasync, name: str = "commit fsync") -> None:
        self.wal = wal
        self.database = wal.with_name(wal.name.removesuffix("-wal"))  # SQLite's naming
        self.name = name
        self._after_sync = after_sync
        self._on_failure = on_failure
        self._sync = sync
        self._cond = threading.Condition()
        self._written = 0  # commits made (a count of this committer's own)
        self._durable = 0  # commits on disk
        self._receipted = 0  # the latest commit a light waits for (``receipt``)
        self._count = 0  # the caller's number of the latest commit (``after_sync``)
        # the writes waiting, by what they show (``when_durable``'s ``what``): the commit
        # each waits for, the write, what to call instead should that commit's fsync fail
        self._deferred: dict[str, tuple[int, Callable[[], None],
                                        Callable[[], None] | None]] = {}
        self.error: OSError | None = None  # the fsync that failed: nothing synced after it
        # ``after_durable``'s work: the commit count each waits for, the work; and whether
        # the thread is running some now
        self._tasks: list[tuple[int, Callable[[], None]]] = []
        self._working = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self._fd: int | None = None  # the -wal as last opened
        self._inode: tuple[int, int] | None = None

    # --- the loop's side ----------------------------------------------------------------

    def committed(self, number: int, *, receipt: bool = True) -> None:
        """A commit was written (not yet synced), the caller's ``number`` (given back to
        ``after_sync``): the thread syncs it. Without ``receipt`` no light waits for it
        (a snapshot, a write made for the start-up): the seats are not held back by it."""
        with self._cond:
            self._written += 1
            self._count = number
            if receipt:
                self._receipted = self._written
            self._start()
            self._cond.notify_all()

    def _start(self) -> None:
        """The thread, started at the first commit (the condition's lock held)."""
        if self._thread is None and not self._closed:
            if sys.getswitchinterval() > SWITCH_INTERVAL_S:
                sys.setswitchinterval(SWITCH_INTERVAL_S)
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def pending(self) -> bool:
        """A commit a light waits for is not on disk yet (and may still be: not after a
        failed fsync)."""
        with self._cond:
            return self.error is None and self._durable < self._receipted

    def when_durable(self, write: Callable[[], None],
                     failed: Callable[[], None] | None = None, *, what: str = "lights") -> None:
        """Run ``write`` (the seats' lights; ``what`` names what it shows: a phone's page
        is another) now if nothing waits for the disk, else on the committer's thread
        once every commit made so far is durable. A later ``write`` of the same ``what``
        replaces one still waiting: the lights are a view, the latest one is what counts
        (it holds everything the earlier one did). Writes never overlap. After a failed
        fsync ``write`` is never run (what it shows may not be on disk): ``failed`` is
        called instead, on the committer's thread or at once."""
        with self._cond:
            if self.error is not None and self._durable < self._receipted:
                self._deferred.pop(what, None)
                if failed is not None:
                    failed()
            elif self._durable >= self._receipted:
                self._deferred.pop(what, None)
                write()
            else:
                self._deferred[what] = (self._receipted, write, failed)

    def after_durable(self, work: Callable[[], None]) -> None:
        """Run ``work`` on the committer's thread once every commit made so far is on disk,
        after their lights (what must follow a commit on disk but nothing shown waits for:
        zeroing an undone ballot's pad). Never after a failed fsync: what it follows may
        not be on disk."""
        with self._cond:
            if self.error is not None:
                return
            self._tasks.append((self._written, work))
            self._start()
            self._cond.notify_all()

    def wait_durable(self) -> None:
        """Return once every commit made so far is on disk (its lights written, its
        ``after_durable`` work done), or its fsync failed (``error``)."""
        with self._cond:
            target = self._written
            self._cond.wait_for(
                lambda: (self._durable >= target and not self._working
                         and not any(n <= target for n, _ in self._tasks))
                or self._thread is None or self.error is not None)

    def close(self) -> None:
        """Sync what was committed, write the lights waiting, stop the thread."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()
        with self._cond:
            self._thread = None
            self._cond.notify_all()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    # --- the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        # No realtime.background(): the lights wait for this thread; it keeps the policy
        # of the thread that started it (the loop's: real-time under the console unit).
        while True:
            with self._cond:
                while (self._durable >= self._written and not self._ready()
                       and not self._closed):
                    self._cond.wait()
                if self._durable >= self._written:
                    if not self._ready():
                        return  # closed, everything synced and done
                    target = None
                else:
                    target, count = self._written, self._count
            if target is None:
                self._work()
                continue
            synced = self._flush(count)
            with self._cond:
                if synced:
                    self._durable = target
                for what, (waits_for, write, failed) in list(self._deferred.items()):
                    if waits_for > target and synced:
                        continue
                    del self._deferred[what]
                    run = write if synced else failed
                    try:
                        if run is not None:
                            run()
                    except Exception:  # the lights of one press: never the thread
                        log.exception("%s: the %s could not be written", self.name, what)
                self._cond.notify_all()
                if not synced:
                    self._tasks.clear()
                    return  # nothing is synced after a failed fsync (the module's doc)
            self._work()

    def _ready(self) -> bool:
        """``after_durable`` work whose commits are on disk (the condition's lock held)."""
        return any(n <= self._durable for n, _ in self._tasks)

    def _work(self) -> None:
        """Run the ``after_durable`` work whose commits are on disk, in order, outside the
        condition's lock (the loop's commits and lights never wait for it)."""
        with self._cond:
            ready = [work for n, work in self._tasks if n <= self._durable]
            self._tasks = [(n, work) for n, work in self._tasks if n > self._durable]
            self._working = True
        try:
            for work in ready:
                try:
                    work()
                except Exception:  # one piece of work: never the thread
                    log.exception("%s: after a commit", self.name)
        finally:
            with self._cond:
                self._working = False
                self._cond.notify_all()

    def _flush(self, count: int) -> bool:
        """fsync the -wal holding the caller's commits up to ``count``, then
        ``after_sync(count)``; False when the fsync failed (``error``, ``on_failure``)."""
        try:
            self._sync(self._wal_fd())
        except FileNotFoundError:
            # No -wal: the last connection closing (a reopening after a failure) copied
            # it into the database, which SQLite syncs before it deletes the -wal.
            pass
        except OSError as exc:
            log.error("%s: %s: the commit may not survive a power cut (%s); nothing more "
                      "is saved until a restart", self.name, self.wal, exc.strerror or exc)
            with self._cond:
                self.error = exc
            if self._on_failure is not None:
                self._on_failure(exc)
            return False
        if self._after_sync is not None:
            try:
                self._after_sync(count)
            except Exception:
                log.exception("%s: after the sync", self.name)
        return True

    def _wal_fd(self) -> int:
        """A descriptor of the -wal as it is now. SQLite may have made it anew (a
        connection reopened after a failure; the last one closing deletes it), or the
        database with it, unsynced (``journal._connect``'s ``sync_creation``): then the
        database file and the directory that gained them are synced too, as SQLite does
        for the files it creates under FULL, so the files themselves survive a cut (a
        -wal beside an empty database is deleted by SQLite at the next opening)."""
        st = os.stat(self.wal)
        inode = (st.st_dev, st.st_ino)
        if self._fd is None or inode != self._inode:
            fd = os.open(self.wal, os.O_RDONLY | os.O_CLOEXEC)
            if self._fd is not None:
                os.close(self._fd)
            self._fd, self._inode = fd, inode
            for path, flags in ((self.database, os.O_RDONLY),
                                (self.wal.parent, os.O_RDONLY | os.O_DIRECTORY)):
                other = os.open(path, flags | os.O_CLOEXEC)
                try:
                    os.fsync(other)
                finally:
                    os.close(other)
        return self._fd
