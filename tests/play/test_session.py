"""Session: dispatch = validate by applying → journal → publish; a refusal records nothing;
undo; resume replays an unfinished game; listeners only ever get the public view."""

from __future__ import annotations

import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.play.errors import RuleError
from companion.play.session import Session
from companion.storage.journal import Journal, JournalError


@dataclass(frozen=True)
class Count:
    limit: int
    moves: tuple[int, ...] = ()
    sealed: tuple[str, ...] = ()  # secrets, never in the public view


class CounterRules:
    """A small real game: add 1-3 to a counter that may not pass ``limit``; a move may
    carry a sealed word."""

    name = "counter"

    def initial(self, setup: dict) -> Count:
        limit = setup.get("limit")
        if not isinstance(limit, int) or limit < 1:
            raise RuleError("limit", f"{limit!r} is not a positive whole number")
        return Count(limit)

    def apply(self, state: Count, action: dict) -> Count:
        add = action.get("add")
        if add not in (1, 2, 3):
            raise RuleError("add", f"{add!r}: add 1, 2 or 3")
        if sum(state.moves) + add > state.limit:
            raise RuleError("add", f"would pass the limit {state.limit}")
        sealed = state.sealed + ((action["word"],) if "word" in action else ())
        return Count(state.limit, state.moves + (add,), sealed)

    def public_view(self, state: Count) -> dict:
        return {"total": sum(state.moves), "moves": len(state.moves), "sealed": len(state.sealed)}


RULES = CounterRules()


def test_dispatch_journals_then_publishes_the_public_view(journal):
    session = Session.start(journal, RULES, {"limit": 10})
    seen: list[tuple[dict, list[dict]]] = []
    # what the journal holds at the moment a listener is told
    session.subscribe(lambda view: seen.append((view, journal.actions(session.game_id))))
    view = session.dispatch({"add": 2})
    assert view == {"total": 2, "moves": 1, "sealed": 0}
    assert seen == [(view, [{"add": 2}])]  # already committed when published
    assert session.state.moves == (2,)


def test_refusal_raises_and_records_nothing(journal):
    session = Session.start(journal, RULES, {"limit": 4})
    session.dispatch({"add": 3})
    calls: list[dict] = []
    session.subscribe(calls.append)
    for bad in ({"add": 2}, {"add": 7}, {}):
        with pytest.raises(RuleError) as info:
            session.dispatch(bad)
        assert info.value.field == "add"
    assert calls == []
    assert journal.actions(session.game_id) == [{"add": 3}]
    assert session.state.moves == (3,)


def test_action_the_journal_refuses_changes_nothing(journal):
    """A move the rules accept but the journal can't store (not JSON) is not applied."""
    session = Session.start(journal, RULES, {"limit": 9})
    calls: list[dict] = []
    session.subscribe(calls.append)
    with pytest.raises(JournalError):
        session.dispatch({"add": 1, "note": {1, 2}})
    assert session.state.moves == () and calls == []
    assert journal.actions(session.game_id) == []


def test_bad_setup_refused_before_anything_is_journaled(journal):
    with pytest.raises(RuleError, match="limit"):
        Session.start(journal, RULES, {"limit": 0})
    assert journal.unfinished() == []


def test_private_part_reaches_the_rules_but_not_views_or_public_journal(tmp_path):
    """A sealed word: applied by the rules, kept across a restart, never published."""
    path = tmp_path / "journal.db"
    with Journal(path) as j:
        session = Session.start(j, RULES, {"limit": 9})
        views: list[dict] = []
        session.subscribe(views.append)
        session.dispatch({"add": 1, "seat": 2}, private={"word": "swordfish"})
        assert session.state.sealed == ("swordfish",)
        assert "swordfish" not in repr(views) and "swordfish" not in repr(j.actions(1))
        assert views == [{"total": 1, "moves": 1, "sealed": 1}]
    with Journal(path) as j:
        resumed = Session.resume(j, RULES)
        assert resumed.state.sealed == ("swordfish",)
        assert "swordfish" not in repr(resumed.public_view())


def test_private_field_may_not_shadow_a_public_one(journal):
    session = Session.start(journal, RULES, {"limit": 9})
    with pytest.raises(RuleError) as info:
        session.dispatch({"add": 1}, private={"add": 3})
    assert info.value.field == "add"
    assert journal.actions(session.game_id) == []


def test_undo_takes_back_the_last_action_and_republishes(journal):
    session = Session.start(journal, RULES, {"limit": 9})
    session.dispatch({"add": 1})
    session.dispatch({"add": 3}, private={"word": "x"})
    views: list[dict] = []
    session.subscribe(views.append)
    assert session.undo() == {"add": 3}
    assert session.state == Count(9, (1,))
    assert views == [{"total": 1, "moves": 1, "sealed": 0}]
    assert journal.actions(session.game_id) == [{"add": 1}]
    assert session.undo() == {"add": 1}
    assert session.undo() is None
    assert session.state == Count(9)


def test_resume_replays_exactly_where_the_game_was(tmp_path):
    path = tmp_path / "journal.db"
    with Journal(path) as j:
        session = Session.start(j, RULES, {"limit": 20})
        for add in (1, 2, 3, 2):
            session.dispatch({"add": add})
        session.undo()
        live = session.state
    with Journal(path) as j:
        resumed = Session.resume(j, RULES)
        assert resumed.state == live == Count(20, (1, 2, 3))
        resumed.dispatch({"add": 1})  # and play goes on
        assert j.actions(resumed.game_id) == [{"add": a} for a in (1, 2, 3, 1)]


def test_resume_picks_the_latest_unfinished_game_of_these_rules(journal):
    old = Session.start(journal, RULES, {"limit": 5})
    latest = Session.start(journal, RULES, {"limit": 6})
    other = journal.begin_game("koryo", {"players": ["Ana", "Ben"]})
    latest.dispatch({"add": 2})
    assert Session.resume(journal, RULES).game_id == latest.game_id
    assert Session.resume(journal, RULES, old.game_id).state == Count(5)
    latest.finish({"total": 2})
    assert Session.resume(journal, RULES).game_id == old.game_id
    old.finish({"total": 0})
    assert Session.resume(journal, RULES) is None  # finished games are history
    with pytest.raises(JournalError, match="koryo, not counter"):
        Session(journal, RULES, other)


def test_finished_game_accepts_no_more_actions(journal):
    session = Session.start(journal, RULES, {"limit": 5})
    session.dispatch({"add": 1})
    session.finish({"total": 1})
    with pytest.raises(JournalError, match="finished"):
        session.dispatch({"add": 1})
    with pytest.raises(JournalError, match="finished"):
        session.undo()
    assert session.state == Count(5, (1,))
    [record] = journal.finished()
    assert record.result == {"total": 1} and record.actions == 1


def test_failing_listener_does_not_lose_the_action(journal, caplog):
    session = Session.start(journal, RULES, {"limit": 5})
    good: list[dict] = []

    def broken(view: dict) -> None:
        raise RuntimeError("screen gone")

    session.subscribe(broken)
    session.subscribe(good.append)
    session.dispatch({"add": 1})
    assert good == [{"total": 1, "moves": 1, "sealed": 0}]
    assert journal.actions(session.game_id) == [{"add": 1}]
    assert "screen gone" in caplog.text


def test_unsubscribe(journal):
    session = Session.start(journal, RULES, {"limit": 5})
    calls: list[dict] = []
    stop = session.subscribe(calls.append)
    session.dispatch({"add": 1})
    stop()
    stop()  # twice is harmless
    session.dispatch({"add": 1})
    assert len(calls) == 1


def test_dispatch_from_many_threads_keeps_journal_and_state_in_step(journal):
    """Seat buttons arrive on backend threads: the journal order is the applied order."""
    session = Session.start(journal, RULES, {"limit": 1000})
    barrier = threading.Barrier(4)

    def press(seat: int) -> None:
        barrier.wait()
        for _ in range(25):
            session.dispatch({"add": 1 + seat % 3, "seat": seat})

    threads = [threading.Thread(target=press, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    journaled = journal.actions(session.game_id)
    assert len(journaled) == 100
    assert tuple(a["add"] for a in journaled) == session.state.moves


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(0, 4), st.booleans()),
        st.tuples(st.just("undo")),
        st.tuples(st.just("reopen")),
    ),
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(OPS)
def test_session_matches_a_model_through_moves_undos_and_restarts(ops):
    """Property: after any sequence of moves (legal or refused), undos and restarts, the
    state equals a plain list model, and the resumed game equals the live one."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.db"
        journal = Journal(path)
        session = Session.start(journal, RULES, {"limit": 12})
        model: list[tuple[int, str | None]] = []
        for op in ops:
            if op[0] == "move":
                _, add, sealed = op
                word = f"w{len(model)}" if sealed else None
                private = {"word": word} if sealed else None
                if 1 <= add <= 3 and sum(a for a, _ in model) + add <= 12:
                    session.dispatch({"add": add}, private)
                    model.append((add, word))
                else:
                    with pytest.raises(RuleError):
                        session.dispatch({"add": add}, private)
            elif op[0] == "undo":
                taken = session.undo()
                assert taken == ({"add": model.pop()[0]} if model else None)
            else:
                journal.close()
                journal = Journal(path)
                session = Session.resume(journal, RULES)
            moves = tuple(a for a, _ in model)
            assert session.state == Count(12, moves, tuple(w for _, w in model if w))
            assert journal.actions(session.game_id) == [{"add": a} for a in moves]
        journal.close()


def test_without_a_journal_a_throwaway_one_plays_alike_and_close_removes_it():
    session = Session.start(None, RULES, {"limit": 5})
    assert not session.kept
    seen: list[dict] = []
    session.subscribe(seen.append)
    session.dispatch({"add": 2})
    session.dispatch({"add": 3})
    assert session.undo() == {"add": 3}
    assert seen[-1] == {"total": 2, "moves": 1, "sealed": 0}
    where = session.journal.path.parent
    assert where.is_dir()
    session.close()
    session.close()  # twice is fine
    assert not where.exists()
    assert session.public_view()["total"] == 2  # the state stays readable


def test_a_throwaway_journal_goes_when_the_game_finishes_or_the_session_is_dropped(journal):
    finished = Session.start(None, RULES, {"limit": 5})
    where = finished.journal.path.parent
    finished.finish({"total": 0})
    assert not where.exists()
    dropped = Session.start(None, RULES, {"limit": 5})
    where = dropped.journal.path.parent
    del dropped
    assert not where.exists()
    kept = Session.start(journal, RULES, {"limit": 5})
    assert kept.kept
    kept.close()  # a kept game stays in the table's journal
    assert Session.resume(journal, RULES).game_id == kept.game_id


def test_a_bad_setup_makes_no_throwaway_journal(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pytest.raises(RuleError):
        Session.start(None, RULES, {"limit": 0})
    assert list(tmp_path.iterdir()) == []
