"""What a press or a tap means, once per game: one controller per game between its
screens and its ``Session``, and the seat lights as a view of what is on top.

Every controller has the same shape (``GameController``): built on a session (``new`` opens
one, journaled or throwaway; ``resume`` reopens an unfinished one), seat presses in
(``press``), touch intents in (one method per intent: ``start_vote``, ``step``,
``dispatch``…), one view out (``view()``, the rules' public view, and ``lights()``
computed from it), ``undo``/``can_undo``. Screens read the view and draw; they hold no game rule and
open no session.

- ``majority``: Koryŏ and Chosŏn (``MajorityController``);
- ``inheritors``: the Inheritors score sheet (``SheetController``);
- ``kings_dilemma``: a King's Dilemma night and its campaign (``NightController``);
- ``lights``: the one writer of the seats' lights.
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.seat import ButtonEvent, Light
from companion.session import Session


class GameController(Protocol):
    session: Session

    def press(self, event: ButtonEvent) -> Any: ...

    def view(self) -> dict: ...

    def lights(self) -> dict[int, Light]: ...

    def undo(self) -> dict | None: ...

    def can_undo(self) -> bool: ...
