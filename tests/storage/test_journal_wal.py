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
