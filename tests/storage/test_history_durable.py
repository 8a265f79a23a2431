"""The kiosk's history (``History(background_sync=True)``): a game's row is written on the
caller's thread and fsynced by a committer of its own, as the journal's commits are; what
must follow it on disk waits for ``when_durable``; a failed fsync halts it. And a game
played at the table is kept once by its identity in the journal (``Journal.game_origin``),
however often it is ended, across a reopening. Driven by a history whose fsync is held on
an Event."""

from __future__ import annotations

import errno

import pytest
from held_sync import WAIT_S, returns_while_held
from old_history import write_old_history

from companion.storage.history import History, result_of
from companion.storage.journal import Journal, StorageError


def played(date: str = "2026-11-26T21:00:00+00:00"):
    return result_of({"game": "koryo", "winners": ["Ben"],
                      "players": [{"name": "Ana", "total": 5, "breakdown": {}},
                                  {"name": "Ben", "total": 9, "breakdown": {}}]}, date)


def test_a_game_of_one_origin_is_kept_once_across_a_reopening(tmp_path):
    """Kept, the files closed with the journal's game unfinished (a cut after the row),
    opened again and the game ended again (its end stamped anew): no second row, the
    first row's number. Another game of the journal, or of another journal, is a row of
    its own; a game with no origin (an import, a hand-kept result) is never matched."""
    with Journal(tmp_path / "journal.db") as journal:
        one = journal.begin_game("koryo", {"players": ["Ana", "Ben"]})
        two = journal.begin_game("koryo", {"players": ["Ana", "Ben"]})
        origin, other = journal.game_origin(one), journal.game_origin(two)
    with History(tmp_path / "history.db") as h:
        first = h.keep(played(), origin)
    with Journal(tmp_path / "journal.db") as journal:  # the same journal, reopened
        assert journal.game_origin(one) == origin and [g.id for g in journal.unfinished()] \
            == [one, two]
    with History(tmp_path / "history.db") as h:
        assert h.keep(played("2026-11-26T21:05:00+00:00"), origin) == first
        assert h.count() == 1 and h.games() == [played()]
        assert h.keep(played(), other) != first
        assert h.keep(played(), None) != h.keep(played(), None)
        assert h.count() == 4
    with Journal(tmp_path / "elsewhere.db") as another:
        assert another.game_origin(one) != origin


def test_a_history_of_the_second_format_gets_the_origin_and_keeps_its_games(tmp_path):
    path = write_old_history(tmp_path / "v2.db", 2,
                             games=[(1, "2024-05-01", "koryo", None, None)],
                             scores=[(1, 1, "Ana", 5, "{}", 0), (1, 2, "Ben", 9, "{}", 1)])
    with History(path) as h:
        assert h.notice is None and h.count() == 1
        assert h.keep(played(), "j:1") == h.keep(played(), "j:1") == 2
    with History(path) as h:
        assert h.keep(played(), "j:1") == 2 and h.count() == 2


def test_the_kiosk_history_keeps_a_row_before_its_fsync_and_what_follows_waits(
        tmp_path, held):
    h = History(tmp_path / "history.db", background_sync=True, sync_wal=held)
    after: list[str] = []
    try:
        assert h._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        h.wait_durable()  # the opening's sync (the -wal made ready), by the committer
        assert held.synced == [f"{tmp_path / 'history.db'}-wal"]
        held.arm()
        number: list[int] = []
        assert returns_while_held(held, lambda: number.append(h.keep(played(), "j:1")))
        assert held.entered.wait(WAIT_S)
        h.when_durable(lambda: after.append("finish"))
        assert after == [] and h.count() == 1  # written, not yet on disk
        assert h.keep(played(), "j:1") == number[0]  # once, even while it syncs
        held.release()
        h.wait_durable()
        assert after == ["finish"]
        assert f"{tmp_path / 'history.db'}-wal" in held.synced
    finally:
        held.release()
        h.close()
    with History(tmp_path / "history.db") as again:
        assert again.games() == [played()]


def test_the_commands_history_syncs_as_it_writes_and_follows_at_once(tmp_path):
    with History(tmp_path / "history.db") as h:
        assert h._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        h.keep(played(), "j:1")
        after: list[str] = []
        h.when_durable(lambda: after.append("finish"))
        assert after == ["finish"]


def test_a_failed_fsync_halts_the_history_and_follows_with_the_failure(tmp_path, held):
    """The row's fsync fails: what waited for it is told it failed, never run; every
    later keep is refused (``failure`` says why) until the history is opened again."""
    h = History(tmp_path / "history.db", background_sync=True, sync_wal=held)
    told: list[str] = []
    try:
        h.wait_durable()  # the opening's sync: the row's is the next one
        held.fail = OSError(errno.EIO, "Input/output error")
        h.keep(played(), "j:1")
        h.when_durable(lambda: told.append("finish"), lambda: told.append("failed"))
        h.wait_durable()
        assert told == ["failed"] and h.halted is not None
        with pytest.raises(StorageError):
            h.keep(played(), "j:2")
        assert h.failure is h.halted
    finally:
        h.close()
    with History(tmp_path / "history.db", background_sync=True) as again:
        assert again.failure is None
        assert again.keep(played(), "j:1") == 1 and again.count() == 1
