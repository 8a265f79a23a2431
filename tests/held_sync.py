"""A journal's committer fsync held on an Event (``Journal(sync_wal=HeldSync())``, the
``held`` fixture): what the kiosk does while a commit waits for the disk, and when the
disk fails, driven through the real committer."""

from __future__ import annotations

import os
import threading

WAIT_S = 10  # a bound on waiting for the other thread, never a timing under test


class HeldSync:
    """The committer's fsync, held while ``hold`` is set: ``entered`` says the committer
    is in it, ``release()`` lets it through (a real fdatasync then). ``fail`` makes the
    next one fail as a broken disk does."""

    def __init__(self) -> None:
        self.hold = threading.Event()
        self.entered = threading.Event()
        self.go = threading.Event()
        self.fail: OSError | None = None
        self.synced: list[str] = []  # the files synced (their paths)

    def __call__(self, fd: int) -> None:
        if self.hold.is_set():
            self.entered.set()
            if not self.go.wait(WAIT_S):
                raise AssertionError("the held fsync was never released")
        self.synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        if self.fail is not None:
            exc, self.fail = self.fail, None
            raise exc
        os.fdatasync(fd)

    def arm(self) -> None:
        self.entered.clear()
        self.go.clear()
        self.hold.set()

    def release(self) -> None:
        self.hold.clear()
        self.go.set()


def returns_while_held(held: HeldSync, call, *args) -> bool:
    """Whether ``call(*args)`` returns while ``held`` holds the fsync of the commit it makes
    (its own thread, waited for within the held fsync's own bound). One that waits for
    the disk is let through, so the test goes on to say so."""
    done = threading.Thread(target=call, args=args)
    done.start()
    done.join(WAIT_S / 2)
    if done.is_alive():
        held.release()
        done.join(WAIT_S)
        return False
    return True
