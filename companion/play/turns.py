"""The one turn-and-light model of every game (docs/turns.md).

A game (or a screen that lights seats without a game: Home, the table check, a set-up)
declares, for the moment shown, who sits in it and who acts: a ``Turns``. This module
turns that declaration into the seats' lights (``lights``), so there is one place that
decides what a light shows; and it takes every seat press first (``press``): it refuses
what every game refuses ("not your turn", "not your undo"), hands the rest to the game's
own reading of its buttons, and keeps a secret press silent; a press from a seat that
sits out the game is answered "watching" on that seat's plate. Every press answers with
one result type, ``Reply``. It needs no pygame: the screens and a headless table call
it alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent, Light, Press
from companion.play.words import Words


@dataclass(frozen=True)
class Turns:
    """What a game declares about its seats now.

    - ``seats``: the seats in the game; one not named below is dark (OFF); a press from
      any other seat is a watching seat's (none named: every seat may press);
    - ``marks``: a standing role shown on a seat (FIRST_PLAYER, LEADER, MODERATOR,
      BALLOT_LOCKED, or any light the table check shows);
    - ``acting``: the seats whose turn it is (YOUR_TURN, over their mark);
    - ``called``: the seats a decision waits on, such as a tie to break (ATTENTION, over
      everything else).

    A seat not in ``seats`` and named nowhere is left out of the lights (off).

    What a press may do (``press``):

    - ``closed``: the game takes no press now (it is over);
    - ``hears``: the seats whose presses the game reads now, any other is refused "not
      your turn" (None: every seat; the game's own grammar answers);
    - ``holds_undo``: a long press asks for an undo in this game, and only ``undoer``'s
      (the seat that made the last action; None: only the touchscreen undoes) is read,
      any other is refused "not your undo";
    - ``idle``: the seats whose presses mean nothing else now (in a game where a hold
      means something, such as a vote: a ballot locked, a vote played, a decision made):
      a hold from one of them asks for an undo as above, as every hold does when
      ``holds_undo`` (``asks_undo``);
    - ``secret``: a press now is part of a secret ballot: whatever it did, or why it was
      refused, it answers ``SILENT`` unless it made a public change (a lock).
    """

    seats: tuple[int, ...] = ()
    marks: Mapping[int, Light] = field(default_factory=dict)
    acting: frozenset[int] = frozenset()
    called: frozenset[int] = frozenset()
    closed: bool = False
    hears: frozenset[int] | None = None
    holds_undo: bool = False
    idle: frozenset[int] = frozenset()
    undoer: int | None = None
    secret: bool = False


NOBODY = Turns()  # a screen without a game: every light off


def lights(turns: Turns) -> dict[int, Light]:
    """Each seat's light from what the game declares: the seats of the game OFF, then
    their marks, then YOUR_TURN on the acting seats, then ATTENTION on the called ones."""
    out = dict.fromkeys(turns.seats, Light.OFF)
    out.update(turns.marks)
    out.update(dict.fromkeys(turns.acting, Light.YOUR_TURN))
    out.update(dict.fromkeys(turns.called, Light.ATTENTION))
    return out


# What a press did, as every game names it (a game adds its own: stepped, open-entry…).
IGNORED = "ignored"  # nothing for this press to do now
NOT_YOUR_TURN = "not-your-turn"  # a seat that does not act now
NOT_YOUR_UNDO = "not-your-undo"  # a hold from a seat that did not make the last action
UNDO_ASKED = "undo-asked"  # the seat that made the last action held once: held again, undone
UNDONE = "undone"  # that seat held again: its last action taken back
QUIET = "quiet"  # a secret press: the same answer whatever it did
WATCHING = "watching"  # a seat that sits out this game (not in ``Turns.seats``)


@dataclass(frozen=True)
class Reply:
    """What a seat's press did: the one answer of every game's ``press``. ``did`` names it
    (one of the names above, or the game's own); ``public``: whether anything the table
    may see changed or is to be said (a frame, the lights, a message); ``view``: the
    public view after it, when the press changed the game; ``answer``: what the pressing
    seat's own plate says back, when the shared layer answers it (a watching seat's press),
    never the table's instruction line."""

    did: str
    public: bool = True
    view: dict[str, Any] | None = None
    answer: Words | None = None


SILENT = Reply(QUIET, public=False)  # a secret press, whatever it did: nothing shows it
# A watching seat's press, in every game and at every moment (a secret vote's too: it says
# nothing of any ballot, only that this seat sits out, which the table knows).
WATCHED = Reply(WATCHING, answer=Words("seat.reply.watching"))


def asks_undo(turns: Turns, event: ButtonEvent) -> bool:
    """Whether ``event`` is a hold that asks for an undo now (``Turns.holds_undo``, or a
    hold from an ``idle`` seat): ``press`` reads it from ``undoer`` only, and the game's
    ``read`` takes it as its undo gesture (asked, then held again: undone)."""
    return event.press is Press.LONG and (turns.holds_undo or event.seat in turns.idle)


def press(turns: Turns, event: ButtonEvent, read: Callable[[ButtonEvent], Reply]) -> Reply:
    """A seat's press: the refusals every game shares (not your turn, not your undo),
    then the game's own reading of its buttons (``read``, which may raise ``RuleError``
    for a refusal of its own). A secret press answers ``SILENT`` whatever it did or why
    it was refused, unless it made a public change: the one place that keeps ballots
    from showing through a press's answer. A seat outside the game (when it names its
    ``seats``) is answered ``WATCHED`` on its own plate, before any of that."""
    if turns.closed:
        return Reply(IGNORED, public=False)
    if turns.seats and event.seat not in turns.seats:
        return WATCHED
    if asks_undo(turns, event):
        if event.seat != turns.undoer:
            return Reply(NOT_YOUR_UNDO)
    elif turns.hears is not None and event.seat not in turns.hears:
        return Reply(NOT_YOUR_TURN)
    if not turns.secret:
        return read(event)
    try:
        reply = read(event)
    except RuleError:
        return SILENT
    return reply if reply.public else SILENT
