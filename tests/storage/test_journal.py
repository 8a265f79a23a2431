"""Journal: durable append, undo, history, private payloads kept apart, and a corrupt or
unreadable database reported and moved aside — never silently overwritten."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from companion.storage.journal import Journal, JournalError, move_aside

SETUP = {"players": ["Ana", "Ben", "Cleo"]}
STAMP = re.compile(r"^journal\.db\.corrupt-\d{8}-\d{6}(-\d+)?$")


def test_database_is_wal_with_full_sync(journal):
    """Durability settings: WAL journal, synchronous=FULL (2) on the live connection."""
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_ack_count_fsynced_off_the_committing_thread(tmp_path, monkeypatch):
    """The -ack count is written after every commit (and at opening), but its fsync then
    runs in the syncer's thread, not in the thread whose commit a light (or the first
    frame) waits for; a finished game fsyncs it at once, and closing waits for what was
    asked."""
    import os
    import threading

    from companion.storage import journal as journal_module

    synced: list[tuple[int, str]] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append((fd, threading.current_thread().name))
        real_fsync(fd)

    monkeypatch.setattr(journal_module.os, "fsync", fsync)
    j = Journal(tmp_path / "journal.db")
    game = j.begin_game("koryo", SETUP)
    for i in range(journal_module.SYNC_EVERY):
        j.append(game, {"type": "play", "n": i})
    j._ack_syncer.close()  # waits for the fsyncs it was asked for
    ack_fd = j._ack_fd
    by = {name for fd, name in synced if fd == ack_fd}
    assert by == {"journal.db-ack fsync"}
    words = j.ack_path.read_bytes().split()
    assert int(words[1]) == j._commits  # the count written after the last commit
    synced.clear()
    j.finish(game, {"winner": "Ana"})
    assert (ack_fd, threading.current_thread().name) in synced  # at once, by the caller
    j.close()
    with Journal(tmp_path / "journal.db") as again:
        assert again.lost == 0 and again.notice is None


def test_append_and_read_back_in_order(journal):
    game = journal.begin_game("koryo", SETUP)
    seqs = [journal.append(game, {"type": "play", "n": i}) for i in range(5)]
    assert seqs == [1, 2, 3, 4, 5]
    assert journal.actions(game) == [{"type": "play", "n": i} for i in range(5)]
    [record] = journal.unfinished()
    assert (record.id, record.game, record.setup, record.actions) == (game, "koryo", SETUP, 5)
    assert record.finished is None and record.result is None


def test_committed_actions_are_visible_to_another_connection(journal, tmp_path):
    """append returns after COMMIT: a second, independent connection already sees it."""
    game = journal.begin_game("koryo", SETUP)
    journal.append(game, {"type": "play"})
    other = sqlite3.connect(journal.path)
    assert other.execute("SELECT count(*) FROM actions").fetchone()[0] == 1
    other.close()


def test_reopen_keeps_everything(tmp_path):
    with Journal(tmp_path / "journal.db") as j:
        game = j.begin_game("choson", SETUP)
        j.append(game, {"a": 1})
        j.append(game, {"a": 2}, private={"ballot": "aye 3"})
    with Journal(tmp_path / "journal.db") as j:
        assert j.notice is None
        assert j.actions(game) == [{"a": 1}, {"a": 2}]
        assert j.actions_with_secrets(game) == [({"a": 1}, None), ({"a": 2}, {"ballot": "aye 3"})]


def test_private_payload_never_in_public_interface(journal):
    """A sealed ballot survives in the journal but no public method returns it."""
    game = journal.begin_game("kings-dilemma", SETUP)
    journal.append(game, {"type": "lock", "seat": 1}, private={"vote": "nay", "power": 5})
    public = [journal.actions(game), journal.unfinished(), journal.game(game)]
    assert "nay" not in repr(public) and "power" not in repr(public)
    assert journal.actions_with_secrets(game)[0][1] == {"vote": "nay", "power": 5}
    # kept in its own table, not inside the public action row
    row = journal._db.execute("SELECT action FROM actions").fetchone()[0]
    assert json.loads(row) == {"type": "lock", "seat": 1}


def test_undo_removes_the_last_action_and_its_private_part(journal):
    game = journal.begin_game("koryo", SETUP)
    journal.append(game, {"n": 1})
    journal.append(game, {"n": 2}, private={"secret": True})
    assert journal.undo(game) == {"n": 2}
    assert journal.actions(game) == [{"n": 1}]
    assert journal.actions_with_secrets(game) == [({"n": 1}, None)]
    assert journal._db.execute("SELECT count(*) FROM private").fetchone()[0] == 0
    assert journal.append(game, {"n": 3}) == 2  # the sequence continues after the undo
    assert journal.undo(game) == {"n": 3}
    assert journal.undo(game) == {"n": 1}
    assert journal.undo(game) is None  # nothing left


def test_undo_only_touches_its_own_game(journal):
    a = journal.begin_game("koryo", SETUP)
    b = journal.begin_game("choson", SETUP)
    journal.append(a, {"g": "a"})
    journal.append(b, {"g": "b"})
    assert journal.undo(a) == {"g": "a"}
    assert journal.actions(b) == [{"g": "b"}]


def test_finished_games_stay_as_history(tmp_path):
    """Finishing a game moves it to history, where it can no longer change."""
    with Journal(tmp_path / "journal.db") as j:
        first = j.begin_game("koryo", SETUP)
        j.append(first, {"n": 1})
        j.finish(first, {"winners": ["Ana"]})
        second = j.begin_game("koryo", SETUP)
        for op in (
            lambda: j.append(first, {"n": 2}),
            lambda: j.undo(first),
            lambda: j.finish(first, {}),
        ):
            with pytest.raises(JournalError, match="finished"):
                op()
    with Journal(tmp_path / "journal.db") as j:
        [done] = j.finished()
        assert (done.id, done.result, done.actions) == (first, {"winners": ["Ana"]}, 1)
        assert done.finished is not None
        assert j.actions(first) == [{"n": 1}]
        assert [g.id for g in j.unfinished()] == [second]


def test_unknown_game_and_non_json_refused(journal):
    with pytest.raises(JournalError, match="no game 99"):
        journal.append(99, {"n": 1})
    with pytest.raises(JournalError, match="no game 99"):
        journal.actions(99)
    game = journal.begin_game("koryo", SETUP)
    with pytest.raises(JournalError, match="not JSON"):
        journal.append(game, {"n": object()})
    with pytest.raises(JournalError, match="not JSON"):
        journal.append(game, {"n": float("nan")})
    with pytest.raises(JournalError, match="must be a mapping"):
        journal.append(game, ["n"])  # type: ignore[arg-type]
    assert journal.actions(game) == []  # nothing half-written


# --- corrupt or unreadable databases ----------------------------------------------------


def good_journal(path: Path) -> None:
    with Journal(path) as j:
        game = j.begin_game("koryo", SETUP)
        for i in range(300):
            j.append(game, {"n": i, "pad": "x" * 200})
        j._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def moved_aside(tmp_path: Path) -> list[Path]:
    return sorted(p for p in tmp_path.iterdir() if ".corrupt-" in p.name)


def assert_fresh_after_move(tmp_path: Path, original: bytes | None) -> Journal:
    path = tmp_path / "journal.db"
    j = Journal(path)
    assert j.notice is not None and "could not be used" in j.notice
    [kept] = [p for p in moved_aside(tmp_path) if not p.name.endswith(("-wal", "-shm", "-ack"))]
    assert STAMP.match(kept.name), kept.name
    assert kept.name in j.notice
    if original is not None:
        assert kept.read_bytes() == original  # moved, not rewritten
    assert j.unfinished() == [] and j.finished() == []  # a fresh journal, usable
    game = j.begin_game("koryo", SETUP)
    j.append(game, {"n": 1})
    assert j.actions(game) == [{"n": 1}]
    return j


def test_garbage_bytes_moved_aside(tmp_path):
    garbage = bytes(range(256)) * 64
    (tmp_path / "journal.db").write_bytes(garbage)
    assert_fresh_after_move(tmp_path, garbage).close()


def test_truncated_database_moved_aside(tmp_path):
    path = tmp_path / "journal.db"
    good_journal(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert_fresh_after_move(tmp_path, data[: len(data) // 2]).close()


def test_directory_in_place_of_the_file_moved_aside(tmp_path):
    (tmp_path / "journal.db").mkdir()
    (tmp_path / "journal.db" / "something").write_text("kept")
    j = assert_fresh_after_move(tmp_path, None)
    [kept] = moved_aside(tmp_path)
    assert (kept / "something").read_text() == "kept"
    j.close()


def test_another_programs_database_is_not_taken_over(tmp_path):
    other = sqlite3.connect(tmp_path / "journal.db")
    other.execute("CREATE TABLE photos (name TEXT)")
    other.execute("INSERT INTO photos VALUES ('holiday')")
    other.commit()
    other.close()
    j = assert_fresh_after_move(tmp_path, None)
    assert "another program" in j.notice
    [kept] = moved_aside(tmp_path)
    assert sqlite3.connect(kept).execute("SELECT name FROM photos").fetchall() == [("holiday",)]
    j.close()


def test_stale_wal_moves_aside_with_its_database(tmp_path):
    """The -wal of a corrupt file goes with it: never replayed into the fresh journal."""
    (tmp_path / "journal.db").write_bytes(b"not a database" * 100)
    (tmp_path / "journal.db-wal").write_bytes(b"old wal")
    j = Journal(tmp_path / "journal.db")
    [wal] = [p for p in moved_aside(tmp_path) if p.name.endswith("-wal")]
    assert wal.read_bytes() == b"old wal"
    assert j.unfinished() == []
    j.close()


def test_move_aside_never_replaces_an_earlier_copy(tmp_path):
    path = tmp_path / "journal.db"
    kept = []
    for content in (b"first", b"second", b"third"):
        path.write_bytes(content)
        kept.append(move_aside(path))
    assert len(set(kept)) == 3
    assert [p.read_bytes() for p in kept] == [b"first", b"second", b"third"]
    assert not path.exists()


def test_wal_checkpointed_by_its_own_thread_between_commits(tmp_path, monkeypatch):
    """A checkpoint (a batch of page writes and an fsync of the database) runs in the
    checkpointer's thread, asked for every CHECKPOINT_EVERY commits: at a player's pace
    (each commit after the thread is done) the -wal never reaches SQLite's own threshold
    (1,000 pages), where the commit crossing it would checkpoint in the thread a light
    waits on. With that thread stuck in a checkpoint, appends still return; let go, it
    copies the whole -wal into the database, and the game's actions are all there."""
    import threading

    from companion.storage import journal as journal_module

    wal = tmp_path / "journal.db-wal"

    def wal_frames() -> int:  # the -wal's size: the most frames it ever held
        return (wal.stat().st_size - 32) // (4096 + 24)

    j = Journal(tmp_path / "journal.db")
    game = j.begin_game("koryo", SETUP)
    for n in range(1, 1201):  # about 3,600 frames: 3.6 times SQLite's threshold
        j.append(game, {"type": "play", "n": n})
        j._checkpointer.drain()  # the next press comes after the checkpoint is done
    assert wal_frames() < 500  # about 4 pages a commit, 64 commits between checkpoints

    real = journal_module.checkpoint_wal
    release, began = threading.Event(), threading.Event()
    done: list[tuple[str, tuple[int, int, int]]] = []

    def stuck_checkpoint(path):
        began.set()
        assert release.wait(30)
        done.append((threading.current_thread().name, real(path)))
        return done[-1][1]

    monkeypatch.setattr(journal_module, "checkpoint_wal", stuck_checkpoint)
    for n in range(1201, 1201 + 2 * journal_module.CHECKPOINT_EVERY):
        j.append(game, {"type": "play", "n": n})
    assert began.is_set()  # asked for, stuck, and the appends went on
    release.set()
    j._checkpointer.drain()
    thread, (busy, frames, copied) = done[-1]
    assert thread == "journal.db checkpoint"
    assert busy == 0 and copied == frames > 0
    assert j.actions(game) == [{"type": "play", "n": i} for i in range(1, n + 1)]
    j.close()
    with Journal(tmp_path / "journal.db") as again:
        assert len(again.actions(game)) == n


def test_a_chore_that_fails_is_logged_and_the_next_request_still_runs(caplog):
    """An unexpected error in a background chore (a checkpoint, the -ack fsync) ends
    neither its thread nor a drain() waiting beside it: the next request is done."""
    import threading

    from companion.storage.journal import Chore

    done: list[int] = []
    second = threading.Event()

    class Flaky(Chore):
        def work(self, arg: int) -> None:
            if arg == 1:
                raise ValueError("a surprise")
            done.append(arg)
            second.set()

    chore = Flaky("flaky")
    chore.request(1)
    chore.drain()
    chore.request(2)
    assert second.wait(30), "the chore's thread died with the first error"
    chore.drain()
    chore.close()
    assert done == [2]
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [("ERROR", "flaky failed")]
    assert "ValueError: a surprise" in caplog.text
