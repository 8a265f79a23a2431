"""The one turn-and-light model of every game (docs/turns.md).

A game (or a screen that lights seats without a game: Home, the table check, a set-up)
declares, for the moment shown, who sits in it and who acts: a ``Turns``. This module
turns that declaration into the seats' lights (``lights``), so there is one place that
decides what a light shows, and answers a seat's press with one result type
(``Reply``). It needs no pygame: the screens and a headless table call it alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.seat import Light


@dataclass(frozen=True)
class Turns:
    """What a game declares about its seats now.

    - ``seats``: the seats in the game; one not named below is dark (OFF);
    - ``marks``: a standing role shown on a seat (FIRST_PLAYER, LEADER, MODERATOR,
      BALLOT_LOCKED, or any light the table check shows);
    - ``acting``: the seats whose turn it is (YOUR_TURN, over their mark);
    - ``called``: the seats a decision waits on, such as a tie to break (ATTENTION, over
      everything else).

    A seat not in ``seats`` and named nowhere is left out of the lights (off).
    """

    seats: tuple[int, ...] = ()
    marks: Mapping[int, Light] = field(default_factory=dict)
    acting: frozenset[int] = frozenset()
    called: frozenset[int] = frozenset()


NOBODY = Turns()  # a screen without a game: every light off


def lights(turns: Turns) -> dict[int, Light]:
    """Each seat's light from what the game declares: the seats of the game OFF, then
    their marks, then YOUR_TURN on the acting seats, then ATTENTION on the called ones."""
    out = dict.fromkeys(turns.seats, Light.OFF)
    out.update(turns.marks)
    out.update(dict.fromkeys(turns.acting, Light.YOUR_TURN))
    out.update(dict.fromkeys(turns.called, Light.ATTENTION))
    return out
