"""Rules adapters: what a ``Session`` needs to run a game (``name``, ``initial(setup)``,
``apply(state, action_dict)``, ``public_view(state)``), plus the seat lights of a view."""

from __future__ import annotations

from companion.engine.errors import RuleError
from companion.games.choson import ChosonGame
from companion.games.koryo import KoryoGame
from companion.games.majority import MajorityGame

MAJORITY_GAMES: dict[str, type[MajorityGame]] = {"koryo": KoryoGame, "choson": ChosonGame}


def rules_for(game: str) -> MajorityGame:
    """The rules adapter of ``game`` (``koryo``, ``choson``)."""
    if game not in MAJORITY_GAMES:
        raise RuleError("game", f"unknown game {game!r} (one of {', '.join(MAJORITY_GAMES)})")
    return MAJORITY_GAMES[game]()
