"""What a press or a tap means, once per game: one controller per game between its
screens and its ``Session``, and the seat lights as a view of what is on top.

Every controller has the same shape (``GameController``): built on a session (``new`` opens
one, journaled or throwaway; ``resume`` reopens an unfinished one), seat presses in
(``press``, answering a ``Reply`` through ``companion.play.turns.press``), touch intents in (one
method per intent: ``start_vote``, ``step``, ``dispatch``…), one view out (``view()``, the
rules' public view, and ``turns()``, who acts, declared from it: the seats' lights are
computed from that in ``companion.play.turns``), ``undo``/``can_undo``. Screens read the view
and draw; they hold no game rule and open no session.

- ``majority``: Koryŏ and Chosŏn (``MajorityController``);
- ``inheritors``: the Inheritors score sheet (``SheetController``);
- ``kings_dilemma``: a King's Dilemma night and its campaign (``NightController``);
- ``lights``: the one writer of the seats' lights (computed in ``companion.play.turns``);
- ``where_it_stands``: an unfinished game's round and acting player, for Home.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from companion.games.registry import progress, session_rules
from companion.play.seat import ButtonEvent
from companion.play.session import Session
from companion.play.turns import Reply, Turns
from companion.storage.journal import GameRecord, Journal


class GameController(Protocol):
    session: Session

    def press(self, event: ButtonEvent) -> Reply: ...

    def view(self) -> dict: ...

    def turns(self) -> Turns: ...

    def undo(self) -> dict | None: ...

    def can_undo(self) -> bool: ...

    def subscribe(self, listener: Any) -> Any: ...


class FollowsSession:
    """A controller's copy of its session's public view, kept by subscribing to the session,
    so a change made through it by anyone (a screen, a seat pad, an undo) shows."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._view = session.public_view()
        session.subscribe(self._published)

    def view(self) -> dict:
        """The session's public view, as of the last change."""
        return self._view

    def _published(self, view: dict) -> None:
        self._view = view

    def subscribe(self, listener: Callable[[dict], None]) -> Callable[[], None]:
        """``listener(view)`` after every change of the game."""
        return self.session.subscribe(listener)

    def last_actor(self) -> int | None:
        """The seat that made the last action, the one seat that may take it back (the
        touchscreen always may): known after a resume or an undo as after a press, since
        it is read from the game itself. None: no action, or one no seat made."""
        last = self.session.last_action()
        return None if last is None else self.actor_of(*last)

    def actor_of(self, action: dict, before: dict) -> int | None:
        """The seat that made ``action`` (``before``: the public view just before it);
        each game says it. None here: only the touchscreen undoes."""
        return None


def where_it_stands(journal: Journal, record: GameRecord) -> dict[str, Any]:
    """An unfinished game's ``round`` and acting ``player`` (each when it has one): from the
    session that last played it in this process when it holds every action (after a
    game), else from its journal replayed (after its snapshot); RuleError or
    JournalError when it no longer replays."""
    session = Session.live(journal, record.id, record.actions)
    if session is None:
        session = Session(journal, session_rules(record.game), record.id)
    return progress(record.game, session.last_view())
