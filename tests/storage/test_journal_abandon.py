"""Journal: abandoning a game (``Journal.abandon``) and the migration of a format-1 journal.

An abandoned game is neither unfinished (it no longer resumes) nor history, its actions
(public and private) stay in the database, and its record can't change any more. A
journal written before abandon existed (tests/data/journal-v1.sql, dumped from a database
the format-1 code made) opens, keeps every game and action, and can then abandon."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.play.session import Session
from companion.storage.journal import JOURNAL_VERSION, Journal, JournalError

V1_DUMP = Path(__file__).parents[1] / "data" / "journal-v1.sql"


class Counter:
    """Minimal rules: the state counts the actions."""

    name = "counter"

    def initial(self, setup: dict) -> int:
        return 0

    def apply(self, state: int, action: dict) -> int:
        return state + action.get("n", 1)

    def public_view(self, state: int) -> dict:
        return {"total": state}


def test_abandoned_game_neither_unfinished_nor_history_and_keeps_its_actions(journal):
    kept = journal.begin_game("counter", {})
    dropped = journal.begin_game("counter", {"n": 2})
    journal.append(dropped, {"n": 1})
    journal.append(dropped, {"n": 2}, private={"secret": "aye"})
    journal.abandon(dropped)
    assert [g.id for g in journal.unfinished()] == [kept]
    assert journal.finished() == []
    [record] = journal.abandoned()
    assert record.id == dropped and record.abandoned is not None and record.actions == 2
    assert journal.actions(dropped) == [{"n": 1}, {"n": 2}]
    assert journal.actions_with_secrets(dropped)[1] == ({"n": 2}, {"secret": "aye"})


def test_latest_unfinished_resume_skips_an_abandoned_game(journal):
    older = Session.start(journal, Counter(), {})
    older.dispatch({"n": 5})
    newer = Session.start(journal, Counter(), {})
    journal.abandon(newer.game_id)
    resumed = Session.resume(journal, Counter())
    assert resumed.game_id == older.game_id and resumed.public_view() == {"total": 5}
    journal.abandon(older.game_id)
    assert Session.resume(journal, Counter()) is None


def test_abandoned_or_finished_game_refuses_changes_and_a_second_abandon(journal):
    game = journal.begin_game("counter", {})
    journal.append(game, {"n": 1})
    journal.abandon(game)
    for change in (
        lambda: journal.append(game, {"n": 1}),
        lambda: journal.undo(game),
        lambda: journal.finish(game, {"winners": []}),
        lambda: journal.abandon(game),
    ):
        with pytest.raises(JournalError, match="abandoned"):
            change()
    assert journal.actions(game) == [{"n": 1}]
    done = journal.begin_game("counter", {})
    journal.finish(done, {"winners": ["Ana"]})
    with pytest.raises(JournalError, match="finished"):
        journal.abandon(done)
    with pytest.raises(JournalError, match="no game 99"):
        journal.abandon(99)


def test_abandon_survives_reopening(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        game = j.begin_game("counter", {})
        j.abandon(game)
    with Journal(path) as j:
        assert j.unfinished() == [] and [g.id for g in j.abandoned()] == [game]


def v1_database(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(V1_DUMP.read_text(encoding="utf-8"))
    conn.close()
    return path


def test_format_1_journal_is_migrated_keeping_every_game_and_action(tmp_path):
    path = v1_database(tmp_path / "journal.sqlite")
    with Journal(path) as j:
        assert j.notice is None, "an old journal is migrated, never moved aside"
        assert [g.game for g in j.finished()] == ["koryo"]
        [night] = j.unfinished()
        assert night.game == "kings-dilemma" and night.actions == 2 and night.abandoned is None
        assert j.actions_with_secrets(night.id)[1][1] == {"ballot": "aye"}
        j.abandon(night.id)
    assert not list(tmp_path.glob("*.corrupt-*"))
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == JOURNAL_VERSION == 4
    conn.close()
    with Journal(path) as j:
        assert j.unfinished() == [] and [g.game for g in j.abandoned()] == ["kings-dilemma"]
        assert j.actions(night.id) == [{"kind": "open"}, {"kind": "lock", "seat": 1}]


def test_a_journal_from_a_newer_format_is_still_moved_aside(tmp_path):
    """The migration only goes up: format 3 is not ours to rewrite."""
    path = v1_database(tmp_path / "journal.sqlite")
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={JOURNAL_VERSION + 1}")
    conn.close()
    with Journal(path) as j:
        assert "newer version" in j.notice and j.unfinished() == []
    assert len(list(tmp_path.glob("journal.sqlite.corrupt-*"))) == 1
