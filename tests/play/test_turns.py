"""The shared turn-and-light model (``companion.play.turns``): what a game declares about its
seats becomes the seats' lights in one place, whatever the game or the screen, and a
press passes the refusals every game shares, and a secret press's silence, there."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent, Light, Press
from companion.play.turns import (
    IGNORED,
    NOBODY,
    NOT_YOUR_TURN,
    NOT_YOUR_UNDO,
    SILENT,
    Reply,
    Turns,
    asks_undo,
    lights,
    press,
)


def test_nobody_lights_nothing():
    assert lights(NOBODY) == {}


def test_the_seats_of_a_game_are_dark_unless_declared():
    assert lights(Turns((0, 2, 4))) == {0: Light.OFF, 2: Light.OFF, 4: Light.OFF}


def test_acting_shows_over_a_mark_and_called_over_everything():
    turns = Turns((0, 1, 2, 3), marks={0: Light.LEADER, 1: Light.MODERATOR,
                                       2: Light.FIRST_PLAYER},
                  acting=frozenset({0, 3}), called=frozenset({1, 3}))
    assert lights(turns) == {0: Light.YOUR_TURN, 1: Light.ATTENTION,
                             2: Light.FIRST_PLAYER, 3: Light.ATTENTION}


def test_a_seat_outside_the_game_may_still_be_lit():
    """Home lights the seat that said it is here, with no game and so no seats."""
    assert lights(Turns(acting=frozenset({5}))) == {5: Light.YOUR_TURN}


def test_press_refuses_a_seat_the_game_does_not_hear_and_reads_the_others():
    read = []

    def game(event: ButtonEvent) -> Reply:
        read.append(event.seat)
        return Reply("stepped")

    turns = Turns((0, 1), acting=frozenset({1}), hears=frozenset({1}))
    assert press(turns, ButtonEvent(0, "a"), game) == Reply(NOT_YOUR_TURN)
    assert press(turns, ButtonEvent(1, "a"), game) == Reply("stepped")
    assert read == [1]  # the refused press never reached the game


def test_a_hold_asks_for_an_undo_only_from_the_seat_that_made_the_last_action():
    turns = Turns((0, 1, 2), hears=frozenset({0}), holds_undo=True, undoer=2)
    asked = Reply("undo-asked")
    assert press(turns, ButtonEvent(1, "c", Press.LONG), lambda e: asked) == Reply(NOT_YOUR_UNDO)
    # the seat that made the last action may undo, though it does not act now
    assert press(turns, ButtonEvent(2, "c", Press.LONG), lambda e: asked) == asked
    # nothing made by a seat: only the touchscreen undoes
    nobody = Turns((0, 1), holds_undo=True)
    assert press(nobody, ButtonEvent(0, "c", Press.LONG), lambda e: asked).did == NOT_YOUR_UNDO


def test_only_an_idle_seats_hold_asks_for_an_undo_where_holds_mean_something_else():
    """A vote: a hold locks for a seat still voting; from a seat whose ballot is locked
    (``idle``) it asks for an undo, read from the seat that made the last action only, and
    answered aloud even in a secret vote (it says nothing of any ballot)."""
    turns = Turns((0, 1, 2), acting=frozenset({0}), idle=frozenset({1, 2}), undoer=2,
                  secret=True)
    locked, asked = Reply("locked"), Reply("undo-asked")

    def game(event: ButtonEvent) -> Reply:
        return asked if asks_undo(turns, event) else locked

    assert press(turns, ButtonEvent(0, "a", Press.LONG), game) == locked
    assert press(turns, ButtonEvent(1, "a", Press.LONG), game) == Reply(NOT_YOUR_UNDO)
    assert press(turns, ButtonEvent(2, "a", Press.LONG), game) == asked
    assert press(turns, ButtonEvent(2, "a"), lambda e: Reply("pending", public=False)) \
        is SILENT  # a short press of an idle seat: the game's, silent as ever


def test_a_closed_game_ignores_every_press_without_reading_it():
    def game(event: ButtonEvent) -> Reply:
        raise AssertionError("read")

    assert press(Turns((0,), closed=True), ButtonEvent(0, "a"), game) == Reply(IGNORED,
                                                                              public=False)


def test_a_secret_press_answers_silent_whatever_it_did_or_why_it_was_refused():
    """A pending choice and a refusal give the same answer; a lock (public: who locked)
    is answered as the game says."""
    secret = Turns((0, 1), acting=frozenset({0, 1}), secret=True)

    def refused(event: ButtonEvent) -> Reply:
        raise RuleError("button", "Ana has only 3 power behind the screen", code="power_only")

    assert press(secret, ButtonEvent(0, "a"), lambda e: Reply("pending", public=False)) \
        is SILENT
    assert press(secret, ButtonEvent(0, "a"), refused) is SILENT
    locked = Reply("locked", view={"vote": {"seats": {"Ana": {"locked": True}}}})
    assert press(secret, ButtonEvent(0, "a", Press.LONG), lambda e: locked) == locked
    # the same refusal in an open vote is the game's to say
    with pytest.raises(RuleError, match="only 3 power"):
        press(Turns((0, 1), acting=frozenset({0})), ButtonEvent(0, "a"), refused)


def test_the_turn_model_and_the_controllers_need_no_pygame():
    """A headless table calls the controllers' ``turns``/``press`` and ``lights`` with no
    screen: importing them loads no pygame."""
    code = (
        "import sys, companion.play.turns, companion.games.majority.controller, companion.games.inheritors.controller\n"
        "import companion.games.kings_dilemma.controller, companion.games.kings_dilemma.buttons\n"
        "assert 'pygame' not in sys.modules, sorted(m for m in sys.modules if 'pygame' in m)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
