"""Undo from a seat pad: two long presses, only from the seat that made the last action,
never from a watching seat; after a resume as before it (the seat is read from the game
the journal holds, not from what this sitting saw)."""

from __future__ import annotations

import pytest

from companion.games.majority.controller import (
    NOT_YOUR_UNDO,
    STEPPED,
    UNDO_ASKED,
    UNDONE,
    MajorityController,
)
from companion.play.seat import ButtonEvent, Press
from companion.storage.journal import Journal

SETUP = {"players": ["Ana", "Ben", "Cleo"], "seats": [0, 1, 2], "first_player": "Ana"}


def hold(game: MajorityController, seat: int) -> str:
    """What a hold of ``seat``'s C did (``Reply.did``)."""
    return game.press(ButtonEvent(seat, "c", Press.LONG)).did


@pytest.mark.parametrize("game_name", ["koryo", "choson"])
def test_after_a_resume_the_seat_that_acted_undoes_and_a_watching_seat_cannot(
        tmp_path, game_name):
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        game = MajorityController.new(game_name, SETUP, journal)
        assert game.press(ButtonEvent(0, "a")).did == STEPPED  # Ana starts the round
        assert game.dispatch(game.reveal_action({"9": 1}))  # Ana reveals a card
        assert game.view()["current_player"] == "Ana"
        game_id = game.session.game_id
    with Journal(path) as journal:  # the kiosk restarted: a new sitting
        game = MajorityController.resume(game_name, journal, game_id)
        assert game.view()["areas"]["Ana"] == {"9": 1}
        assert game.undo_seat() == 0
        for watching in (1, 2):
            assert hold(game, watching) == NOT_YOUR_UNDO
        assert game.undo_request is None and game.view()["areas"]["Ana"] == {"9": 1}
        assert hold(game, 0) == UNDO_ASKED  # first step: asked, nothing undone yet
        assert game.view()["areas"]["Ana"] == {"9": 1}
        assert hold(game, 1) == NOT_YOUR_UNDO  # a watching seat can't carry it out either
        assert game.view()["areas"]["Ana"] == {"9": 1}
        assert hold(game, 0) == UNDONE
        assert game.view()["areas"]["Ana"] == {}
        assert len(journal.actions(game_id)) == 1
        # The action before it (the round started from Ana's seat, before the resume too).
        assert game.undo_seat() == 0
        assert hold(game, 2) == NOT_YOUR_UNDO
        assert hold(game, 0) == UNDO_ASKED and hold(game, 0) == UNDONE
        assert journal.actions(game_id) == [] and game.undo_seat() is None
        assert hold(game, 0) == NOT_YOUR_UNDO  # nothing left that a seat made


def test_the_seat_of_an_action_is_the_same_live_and_after_a_resume(tmp_path):
    """Ben's turn, made by Ben's seat: Ben (not Ana, the first player) may take it back,
    in the sitting that saw it and in the next one."""
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        game = MajorityController.new("koryo", SETUP, journal)
        game.press(ButtonEvent(0, "a"))
        game.dispatch(game.reveal_action({"9": 1}))
        game.press(ButtonEvent(0, "a"))  # Ana ends her turn
        game.dispatch(game.reveal_action({"8": 1}))  # Ben reveals
        live = (game.undo_seat(), hold(game, 0))
        game_id = game.session.game_id
    with Journal(path) as journal:
        game = MajorityController.resume("koryo", journal, game_id)
        assert live == (game.undo_seat(), hold(game, 0)) == (1, NOT_YOUR_UNDO)
        assert hold(game, 1) == UNDO_ASKED and hold(game, 1) == UNDONE
        assert game.view()["areas"]["Ben"] == {} and game.undo_seat() == 0
