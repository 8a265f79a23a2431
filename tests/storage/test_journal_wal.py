"""The journal's -wal is made ready (``make_wal_ready``: its header written and synced,
which ``companion run`` does after its first frame), so the first action after a start
is one sync of the -wal, not the file's creation, its header and the directory too."""

from __future__ import annotations

from pathlib import Path

from companion.storage.journal import Journal


def wal_of(path: Path) -> Path:
    return Path(f"{path}-wal")


def test_the_wal_made_ready_has_its_header_before_the_first_action(tmp_path):
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        game = journal.begin_game("tally", {})
        journal.append(game, {"n": 1})
    assert not wal_of(path).exists()  # SQLite removes it at the last close
    with Journal(path) as journal:
        assert wal_of(path).stat().st_size == 0  # opened: the file, but nothing in it
        journal.make_wal_ready()
        assert wal_of(path).stat().st_size >= 32  # its 32-byte header (sqlite.org/fileformat2.html#walformat)
        assert journal.actions(game) == [{"n": 1}]  # nothing written but the header's page
        journal.append(game, {"n": 2})
        assert journal.actions(game) == [{"n": 1}, {"n": 2}]


def test_opening_starts_no_thread_and_the_ack_count_is_synced_once_the_wal_is_ready(
        tmp_path, monkeypatch):
    """Opening writes the -ack count but leaves its fsync (a thread to start: ms of a busy
    machine's start-up) until ``make_wal_ready``, which the kiosk calls after its first
    frame; the syncer's thread does it then."""
    import os
    import threading

    from companion.storage import journal as journal_module

    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(threading.current_thread().name)
        real_fsync(fd)

    monkeypatch.setattr(journal_module.os, "fsync", fsync)
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        assert journal._ack_syncer._thread is None and synced == []
        assert Path(f"{path}-ack").read_bytes().split()[1] == b"0"  # written all the same
        journal.make_wal_ready()
        journal._ack_syncer.drain()
        assert synced == ["journal.db-ack fsync"]


def statements_of_new_connections(monkeypatch) -> list[str]:
    """Every statement the connections opened from now on run, in order (SQLite's own
    trace: what the code asked of the database, as SQLite saw it)."""
    import sqlite3

    from companion.storage import journal as journal_module

    seen: list[str] = []
    real_connect = sqlite3.connect

    def connect(*args, **kwargs):
        conn = real_connect(*args, **kwargs)
        conn.set_trace_callback(seen.append)
        return conn

    monkeypatch.setattr(journal_module.sqlite3, "connect", connect)
    return seen


def sync_level_of(statements: list[str], index: int) -> str:
    """The ``PRAGMA synchronous`` set last before ``statements[index]``."""
    levels = [s.split("=")[1] for s in statements[:index] if s.startswith("PRAGMA synchronous=")]
    return levels[-1] if levels else "FULL (SQLite's default)"


def test_the_kiosks_journal_is_created_from_nothing_without_a_sync(tmp_path, monkeypatch, held):
    """A first boot: the kiosk's journal switches to WAL, makes its tables and its first
    row at ``synchronous=OFF`` (SQLite then syncs neither the database, its journals nor
    the folder: eight syncs before the first frame otherwise), then runs at NORMAL under
    its committer. The commands' journal keeps FULL throughout."""
    seen = statements_of_new_connections(monkeypatch)
    journal = Journal(tmp_path / "kiosk.db", background_sync=True, sync_wal=held)
    try:
        creating = [i for i, s in enumerate(seen)
                    if s.startswith(("PRAGMA journal_mode", "CREATE", "INSERT", "COMMIT"))]
        assert creating and {sync_level_of(seen, i) for i in creating} == {"OFF"}
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL now
    finally:
        journal.close()
    seen.clear()
    with Journal(tmp_path / "kiosk.db", background_sync=True, sync_wal=held):
        # an existing journal (a migration would write real data): never at OFF
        assert "PRAGMA synchronous=OFF" not in seen
    seen.clear()
    with Journal(tmp_path / "command.db"):
        creating = [i for i, s in enumerate(seen) if s.startswith(("CREATE", "COMMIT"))]
        assert creating and {sync_level_of(seen, i) for i in creating} == {"FULL"}


def test_a_journal_created_unsynced_is_on_disk_before_the_first_light(tmp_path, monkeypatch,
                                                                       held):
    """The committer's first sync makes durable what the creation did not sync, in the
    order SQLite would have: the database file and the folder holding the new files,
    then the -wal; the first press's light comes only after all three. (A -wal whose
    database is lost is deleted by SQLite at the next opening: without the database's
    sync, an action acknowledged could vanish with it.)"""
    import os

    from companion.storage import committer as committer_module

    order: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        order.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(committer_module.os, "fsync", fsync)

    def wal_sync(fd: int) -> None:
        held(fd)
        order.append(held.synced[-1])

    path = tmp_path / "kiosk.db"
    journal = Journal(path, background_sync=True, sync_wal=wal_sync)
    try:
        held.arm()
        game = journal.begin_game("tally", {})  # the first commit: its sync held
        assert held.entered.wait(10)
        lights: list[str] = []
        journal.when_durable(lambda: lights.append("lit"))
        assert lights == [] and order == [str(path), str(tmp_path)]
        held.release()
        journal.wait_durable()
        assert order == [str(path), str(tmp_path), f"{path}-wal"] and lights == ["lit"]
        assert journal.actions(game) == []
    finally:
        held.release()
        journal.close()
