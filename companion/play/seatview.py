"""What one seat is shown about itself, whatever shows it: the seat's plate on the kiosk
(it faces that player) and that seat's phone page read the same ``SeatView``.

A controller answers ``seat_views()`` from the game's public view only, so everything in
a ``SeatView`` may be seen by the whole table: a secret ballot's content is never in it.
What only one seat may see (the ballot it is about to lock) is a separate question,
``private_view(seat)``, asked by that seat's own phone and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from companion.play.words import Words


@dataclass(frozen=True)
class SeatFigure:
    """One figure a player reads about themselves: ``label`` what it counts (a sentence
    as data, said in the table's language by whoever shows it) and ``value`` as drawn
    ("12", "3/5")."""

    label: Words
    value: str


@dataclass(frozen=True)
class SeatView:
    """One seat's own display: whether it acts now (a steady highlight of its plate, the
    pad light blinks too), what it must do now (``todo``: "discard 2", "lock your
    ballot"), what its buttons do now (``help``), the answer to its last press (``reply``:
    a refusal is said to the seat that pressed, never over the table's instruction) and its
    figures, the ones the player looks at most first."""

    seat: int
    your_turn: bool = False
    todo: Words | None = None
    help: Words | None = None
    reply: Words | None = None
    figures: tuple[SeatFigure, ...] = ()


class ShowsSeats(Protocol):
    """A controller whose seats have their own displays."""

    def seat_views(self) -> Mapping[int, SeatView]:
        """Every seat in the game, by seat index: what its plate and its phone show."""
        ...

    def private_view(self, seat: int) -> dict | None:
        """What only ``seat`` may see now (JSON-ready), for that seat's phone alone; None
        when there is nothing private. Never drawn on the shared screen or logged."""
        ...
