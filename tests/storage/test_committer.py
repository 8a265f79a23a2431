"""The commit's fsync off the loop's thread (``companion.storage.committer``, the kiosk's
``Journal(background_sync=True)``): a press's action is written and the screen goes on at
once, touches and other presses are served while the disk syncs, and the seats' lights,
the players' receipt, come only after the fsync, in order. Driven by a journal whose
fsync is held on an Event."""

from __future__ import annotations

import errno
import random
import threading
from pathlib import Path

import pytest
from held_sync import WAIT_S, HeldSync, returns_while_held
from ui_majority import expected_lights, start

from companion.games.majority.autoplay import next_action
from companion.play.session import Session
from companion.storage.journal import Journal, StorageError
from companion.ui.demo.majority import play
from companion.ui.screens.majority import koryo

SEAT_PRESSES = ("start_round", "no_time_travel", "end_turn", "end_round")  # seat A (play)


def kiosk_journal(path: Path, held: HeldSync) -> Journal:
    return Journal(path, background_sync=True, sync_wal=held)


def game_begun(path: Path, held: HeldSync) -> tuple[Journal, int]:
    """A kiosk's journal holding a Koryŏ game begun, its commit durable."""
    journal = kiosk_journal(path, held)
    game = journal.begin_game("koryo", {"players": ["A", "B"]})
    journal.wait_durable()
    return journal, game


class Lights:
    """A light writer as the App gives ``when_durable``: records what it wrote, in order."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def writer(self, what: str):
        return lambda: self.written.append(what)


def test_an_append_returns_before_its_fsync_and_the_light_waits_for_it(tmp_path, held):
    journal = kiosk_journal(tmp_path / "j.sqlite", held)
    lights = Lights()
    try:
        game = journal.begin_game("koryo", {"players": ["A", "B"]})
        journal.wait_durable()
        held.arm()
        seq = journal.append(game, {"action": "one"})  # returns with its fsync held
        assert seq == 1 and held.entered.wait(WAIT_S)
        journal.when_durable(lights.writer("after one"))
        assert lights.written == []  # the receipt waits for the disk
        assert journal.actions(game) == [{"action": "one"}]  # the write itself is done
        held.release()
        journal.wait_durable()
        assert lights.written == ["after one"]
        assert held.synced and held.synced[-1] == f"{tmp_path / 'j.sqlite'}-wal"
    finally:
        held.release()
        journal.close()


def test_presses_meanwhile_are_written_in_order_and_the_latest_light_comes_after_all(
        tmp_path, held):
    journal = kiosk_journal(tmp_path / "j.sqlite", held)
    lights = Lights()
    try:
        game = journal.begin_game("koryo", {"players": ["A", "B"]})
        journal.wait_durable()
        held.arm()
        journal.append(game, {"action": "one"})
        assert held.entered.wait(WAIT_S)
        journal.when_durable(lights.writer("after one"))
        # another seat's press while the first one's fsync waits: written at once too
        assert journal.append(game, {"action": "two"}) == 2
        journal.when_durable(lights.writer("after two"))
        held.hold.clear()  # the next fsync (the second press's) is not held
        assert lights.written == []
        held.release()
        journal.wait_durable()
        # one view replaces the other: the lights of "two", only once "two" is durable
        assert lights.written == ["after two"]
        assert journal.actions(game) == [{"action": "one"}, {"action": "two"}]
    finally:
        held.release()
        journal.close()


def test_the_ack_count_is_never_ahead_of_what_is_synced(tmp_path, held):
    path = tmp_path / "j.sqlite"
    journal = kiosk_journal(path, held)
    try:
        game = journal.begin_game("koryo", {"players": ["A", "B"]})
        journal.wait_durable()
        before = Path(f"{path}-ack").read_bytes()
        held.arm()
        journal.append(game, {"action": "one"})
        assert held.entered.wait(WAIT_S)
        assert Path(f"{path}-ack").read_bytes() == before  # not counted until durable
        held.release()
        journal.wait_durable()
        assert Path(f"{path}-ack").read_bytes() != before
    finally:
        held.release()
        journal.close()
    with Journal(path) as again:  # the count and the database agree: no loss said
        assert again.lost == 0 and again.notice is None


def test_the_kiosk_journal_writes_without_syncing_and_its_committer_syncs(tmp_path, held):
    """NORMAL on the journal's connection (no fsync inside the commit), the committer's
    fsync given back: a commit counted on disk by the committer, not by SQLite."""
    journal = kiosk_journal(tmp_path / "j.sqlite", held)
    try:
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        journal.begin_game("koryo", {"players": ["A", "B"]})
        journal.wait_durable()
        assert held.synced == [f"{tmp_path / 'j.sqlite'}-wal"]
    finally:
        journal.close()
    with Journal(tmp_path / "plain.sqlite") as plain:  # the commands' journal: FULL
        assert plain._db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_the_end_of_a_game_returns_before_its_fsync_and_its_lights_wait(tmp_path, held):
    """Finishing (or abandoning) a game in the kiosk: written at once, the loop goes on;
    what is shown of it waits for the disk as a press's lights do, and the -ack count
    is fsynced once it is there."""
    path = tmp_path / "j.sqlite"
    journal = kiosk_journal(path, held)
    lights = Lights()
    try:
        games = [journal.begin_game("koryo", {"players": ["A", "B"]}) for _ in range(2)]
        journal.wait_durable()
        for end in (lambda g: journal.finish(g, {"winner": "A"}), journal.abandon):
            game = games.pop(0)
            held.arm()
            assert returns_while_held(held, end, game)
            assert held.entered.wait(WAIT_S)
            journal.when_durable(lights.writer(f"game {game} over"))
            assert f"game {game} over" not in lights.written
            assert journal.unfinished() == [
                journal.game(g) for g in games]
            held.release()
            journal.wait_durable()
            assert lights.written[-1] == f"game {game} over"
    finally:
        journal.close()
    with Journal(path) as again:  # on disk, counted: no loss said
        assert again.lost == 0 and again.unfinished() == []
        assert [g.id for g in again.finished()] and [g.id for g in again.abandoned()]


def test_close_syncs_what_waits_and_writes_its_lights(tmp_path, held):
    journal = kiosk_journal(tmp_path / "j.sqlite", held)
    lights = Lights()
    game = journal.begin_game("koryo", {"players": ["A", "B"]})
    journal.wait_durable()
    held.arm()
    journal.append(game, {"action": "one"})
    assert held.entered.wait(WAIT_S)
    journal.when_durable(lights.writer("after one"))
    closing = threading.Thread(target=journal.close)
    closing.start()
    held.release()
    closing.join(WAIT_S)
    assert not closing.is_alive() and lights.written == ["after one"]
    with Journal(tmp_path / "j.sqlite") as again:
        assert again.actions(game) == [{"action": "one"}]


def test_a_failed_fsync_halts_the_journal_and_lights_nothing_it_may_not_hold(
        tmp_path, held, caplog):
    """An fsync that fails is final: the light waiting for it is never written (its
    ``failed`` is called instead), every later write is refused with the same cause,
    nothing is counted in -ack, and the files opened again resume from what they hold."""
    path = tmp_path / "j.sqlite"
    journal, game = game_begun(path, held)
    lights = Lights()
    try:
        acked = Path(f"{path}-ack").read_bytes()
        held.fail = OSError(errno.EIO, "Input/output error")
        journal.append(game, {"action": "one"})
        journal.when_durable(lights.writer("after one"), lights.writer("not saved"))
        journal.wait_durable()
        assert journal.failure is not None and journal.failure.cause == "unsynced"
        assert lights.written == ["not saved"]  # never "after one"
        assert any("may not survive a power cut" in r.getMessage() for r in caplog.records)
        synced = len(held.synced)
        with pytest.raises(StorageError) as refused:
            journal.append(game, {"action": "two"})
        assert refused.value.cause == "unsynced" and journal.failure is refused.value
        with pytest.raises(StorageError):
            journal.undo(game)
        journal.when_durable(lights.writer("later"), lights.writer("still not saved"))
        assert lights.written == ["not saved", "still not saved"]
        assert not journal.receipt_pending()  # the loop never waits for it
        assert len(held.synced) == synced  # no fsync tried again
        assert Path(f"{path}-ack").read_bytes() == acked  # "one" never counted as saved
    finally:
        journal.close()
    with Journal(path, background_sync=True) as again:  # the kiosk restarted
        assert again.failure is None and again.lost == 0
        assert again.actions(game) in ([], [{"action": "one"}])  # a prefix of the commits
        again.append(game, {"action": "two"})
        again.wait_durable()
        assert again.actions(game)[-1] == {"action": "two"}


def test_a_finish_whose_fsync_fails_lights_nothing_and_resumes_unfinished_or_finished(
        tmp_path, held):
    path = tmp_path / "j.sqlite"
    journal, game = game_begun(path, held)
    lights = Lights()
    try:
        held.fail = OSError(errno.EIO, "Input/output error")
        journal.finish(game, {"winner": "A"})
        journal.when_durable(lights.writer("winner A"), lights.writer("not saved"))
        journal.wait_durable()
        assert journal.halted is not None and lights.written == ["not saved"]
    finally:
        journal.close()
    with Journal(path) as again:  # either state is whole: resumed, or in the history
        assert [g.id for g in again.unfinished() + again.finished()] == [game]


def up_to_a_press_that_moves_the_lights(table, screen) -> tuple[dict, dict]:
    """A Koryŏ game on the screens played up to a seat's A press that hands the turn on
    (its light moves), every commit durable: that press's action and the lights after it."""
    rules, session = screen.game.rules, screen.game.session
    seats = len(table.app.seats)
    rng = random.Random(1)
    for _ in range(200):
        action = next_action(rules, session.state, rng)
        after = expected_lights(rules.public_view(rules.apply(session.state, action)), seats)
        if action["action"] in SEAT_PRESSES and after != table.lights():
            break
        play(table.ctx, action)
    else:
        raise AssertionError("no press moved the lights")
    table.journal.wait_durable()
    return action, after


def test_on_the_table_a_touch_is_served_while_a_press_commits_and_the_light_comes_after(
        open_table, held):
    """A Koryŏ game on the screens: seat A's press is handled and the screen moves on
    while its fsync is held; a tap on the screen is served meanwhile; the seats' lights
    stay as they were until the fsync returns, then show the new turn."""
    table = open_table(journal_options={"background_sync": True, "sync_wal": held})
    screen = start(table, koryo, players=[0, 1, 2])
    session, seats = screen.game.session, len(table.app.seats)
    action, after = up_to_a_press_that_moves_the_lights(table, screen)
    before = table.lights()
    assert before == expected_lights(screen.view, seats)
    held.arm()
    play(table.ctx, action)  # seat A of the acting seat: a press
    assert held.entered.wait(WAIT_S)  # its commit's fsync is under way, held
    assert table.journal.actions(session.game_id)[-1] == action
    assert expected_lights(screen.view, seats) == after  # the screen moved on at once
    assert table.lights() == before  # the receipt waits for the disk
    table.tap(screen.button("entry").rect, "enter cards")  # a touch, served meanwhile
    assert screen.mode == "entry"
    assert table.lights() == before
    frames = table.app.frames
    held.release()
    table.journal.wait_durable()
    assert table.lights() == after
    table.app.step(block=False)  # the ring, which mirrors the seats' lights, drawn again
    assert table.app.frames == frames + 1


def test_a_wal_gone_is_no_failure(tmp_path):
    """No -wal to sync (the last connection closing copied it into the database and
    removed it): the commit is counted durable, nothing is said to have failed."""
    from companion.storage.committer import Committer

    failed: list[OSError] = []
    counted: list[int] = []
    committer = Committer(tmp_path / "gone.db-wal", after_sync=counted.append,
                          on_failure=failed.append)
    lights = Lights()
    committer.committed(7)
    committer.when_durable(lights.writer("after 7"))
    committer.wait_durable()
    committer.close()
    assert failed == [] and counted == [7] and lights.written == ["after 7"]


def test_on_the_table_a_failed_fsync_keeps_the_lights_says_restart_and_resumes_from_disk(
        open_table, held, tmp_path):
    """A press whose fsync fails: the screen has moved on, the seats' lights never show
    it, the band says the last action did not reach the card and to restart; the next
    press changes nothing; the kiosk restarted on the same files resumes the game from
    what they hold and plays on."""
    table = open_table(journal_options={"background_sync": True, "sync_wal": held})
    screen = start(table, koryo, players=[0, 1, 2])
    rules, session = screen.game.rules, screen.game.session
    action, _after = up_to_a_press_that_moves_the_lights(table, screen)
    before = table.lights()
    held.fail = OSError(errno.EIO, "Input/output error")
    play(table.ctx, action)
    table.journal.wait_durable()
    assert table.journal.halted is not None
    assert table.lights() == before  # never the lights of a press that may not be saved
    table.app.step(block=False)
    said = " ".join(table.texts())
    assert "Not saved: the last action did not reach the card" in said
    assert "Check the SD card and restart" in said
    journaled = table.journal.actions(session.game_id)
    state = session.state
    play(table.ctx, next_action(rules, state, random.Random(2)))  # refused, nothing moves
    assert table.journal.actions(session.game_id) == journaled
    assert session.state is state and table.lights() == before
    table.close()
    again = open_table(tmp=tmp_path)  # the kiosk restarted on the same files
    resumed = Session.resume(again.journal, rules, session.game_id)
    on_disk = again.journal.actions(session.game_id)
    assert on_disk == journaled[:len(on_disk)]  # a prefix of what was journaled
    assert resumed.length == len(on_disk) and again.journal.failure is None
    resumed.dispatch(next_action(rules, resumed.state, random.Random(3)))  # plays on
