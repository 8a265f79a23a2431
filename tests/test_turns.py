"""The shared turn-and-light model (``companion.turns``): what a game declares about its
seats becomes the seats' lights in one place, whatever the game or the screen."""

from __future__ import annotations

from companion.seat import Light
from companion.turns import NOBODY, Turns, lights


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
