"""A game's history row made durable off the loop's thread (the kiosk's
``History(background_sync=True)``, ``Table.end_game``): with the row's fsync held, the
game's last press and a touch after it are served, the winner screen says the game is
being saved and the journal holds it unfinished; once the fsync returns the journal
finishes it and the screen says "Saved in the history". A failed fsync leaves the game
unfinished, says so, and the kiosk restarted ends it again with one row."""

from __future__ import annotations

import errno

import ui_inheritors
from held_sync import WAIT_S
from ui_majority import middle_rounds, play_through, start

from companion.games.majority.controller import MajorityController
from companion.play.table import SAVED, SAVING
from companion.ui.screens.inheritors import setup as inheritors
from companion.ui.screens.majority import koryo

SAVING_TEXT, SAVED_TEXT = "Saving in the history…", "Saved in the history"
SEAT_PRESSES = ("start_round", "no_time_travel", "end_turn", "end_round")  # seat A


def said(table) -> str:
    """The last frame's texts as one line (a note may be drawn on two)."""
    return " ".join(table.texts())


def test_the_last_press_and_a_touch_are_served_while_the_row_syncs_then_it_is_saved(
        open_table, held):
    table = open_table(history_options={"background_sync": True, "sync_wal": held})
    screen = start(table, koryo, players=[0, 1, 2])
    game = screen.game
    table.history.wait_durable()  # its opening's sync (the -wal made ready), off the loop
    held.arm()  # the next one: the game's row
    done = play_through(table, seed=5, fast=middle_rounds)
    assert done[-1]["action"] in SEAT_PRESSES  # the game's last action: a seat's press
    assert held.entered.wait(WAIT_S)  # the row's fsync under way, held
    assert screen.mode == "final" and table.app.table.keeping(game) == SAVING
    assert table.history.count() == 1  # the row written…
    assert [g.id for g in table.journal.unfinished()] == [game.session.game_id]  # …not final
    table.app.step(block=False)
    assert SAVING_TEXT in said(table) and SAVED_TEXT not in said(table)
    table.tap(screen.button("details").rect, "details")  # a touch, served meanwhile
    assert not screen.winner.showing_code
    table.ctx.press(1, "a")  # a seat's press, served meanwhile
    table.app.step(block=False)
    assert table.journal.finished() == []
    table.app.invalidate()  # the whole screen drawn (a press may redraw only the plates)
    table.app.step(block=False)
    assert SAVING_TEXT in said(table) and SAVED_TEXT not in said(table)
    held.release()
    table.history.wait_durable()
    assert table.journal.finished() == []  # the finish is the loop's, after the row
    table.app.step(block=False)
    assert table.app.table.keeping(game) == SAVED
    assert [g.id for g in table.journal.finished()] == [game.session.game_id]
    assert table.journal.unfinished() == [] and game.recorded
    assert SAVED_TEXT in said(table) and SAVING_TEXT not in said(table)
    assert held.synced == [f"{table.history.path}-wal"] * 2  # the opening's, the row's
    assert table.history.count() == 1


def test_a_row_whose_fsync_fails_leaves_the_game_unfinished_and_is_kept_once_later(
        open_table, held, tmp_path):
    table = open_table(history_options={"background_sync": True, "sync_wal": held})
    screen = start(table, koryo, players=[0, 1, 2])
    game_id = screen.game.session.game_id
    table.history.wait_durable()  # its opening's sync: the row's is the next one
    held.fail = OSError(errno.EIO, "Input/output error")
    play_through(table, seed=5, fast=middle_rounds)
    table.history.wait_durable()
    table.app.step(block=False)
    assert table.history.halted is not None
    assert [g.id for g in table.journal.unfinished()] == [game_id]  # nothing lost
    shown = said(table)
    assert "Not saved" in shown and SAVED_TEXT not in shown and SAVING_TEXT not in shown
    table.close()
    again = open_table(tmp=tmp_path)  # the kiosk restarted on the same files
    resumed = MajorityController.resume("koryo", again.journal, game_id)
    assert again.app.table.end_game(resumed) is not None
    assert again.history.count() == 1 and again.journal.unfinished() == []


def test_the_inheritors_save_says_saving_until_the_row_is_on_disk_and_home_waits_for_it(
        open_table, held):
    """Save taps while the row's fsync is held: Done and the play's code at once, the note
    "Saving…", the count unfinished in the journal but not offered on Home; the fsync
    done, the count is finished and the note says it is saved."""
    table = open_table(history_options={"background_sync": True, "sync_wal": held})
    sheet = ui_inheritors.start(table)
    ui_inheritors.enter(table, sheet, ui_inheritors.THREE)
    game_id = sheet.game.session.game_id
    table.tap(sheet.finish_rect, "final score")
    final = table.app.screen
    assert isinstance(final, inheritors.ResultScreen)
    table.history.wait_durable()  # its opening's sync: the row's is the next one
    held.arm()
    table.tap(final.save_rect, "save")  # served with the row's fsync held
    assert held.entered.wait(WAIT_S)
    table.app.step(block=False)
    assert not final.saved and final.done_rect is not None and final.save_rect is None
    assert SAVING_TEXT in said(table) and SAVED_TEXT not in said(table)
    assert [g.id for g in table.journal.unfinished()] == [game_id]
    assert table.app.table.unfinished() == []  # Home (its list) offers no resume of it
    held.release()
    table.history.wait_durable()
    table.app.step(block=False)
    assert final.saved and table.journal.unfinished() == []
    assert SAVED_TEXT in said(table) and SAVING_TEXT not in said(table)
    assert table.history.count() == 1
