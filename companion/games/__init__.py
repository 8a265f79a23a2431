"""Rules adapters: what a ``Session`` needs to run a game (``name``, ``initial(setup)``,
``apply(state, action_dict)``, ``public_view(state)``), plus the seat lights of a view.

Each game's adapter is imported the first time it is asked for (``ADAPTERS``, like the
menu's screens and the command line's sub-commands): Home asks only for a game the
journal holds unfinished, so its first frame loads no game's rules (start-up)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.engine.errors import RuleError

if TYPE_CHECKING:
    from companion.games.majority import MajorityGame

# journal game name -> (module, adapter class)
ADAPTERS: dict[str, tuple[str, str]] = {
    "koryo": ("companion.games.koryo", "KoryoGame"),
    "choson": ("companion.games.choson", "ChosonGame"),
    "inheritors": ("companion.games.inheritors", "InheritorsSheet"),
    "kings-dilemma": ("companion.games.kings_dilemma", "KingsDilemma"),
}
MAJORITY_GAMES = ("koryo", "choson")


def _adapter(game: str) -> Any:
    module, name = ADAPTERS[game]
    return getattr(importlib.import_module(module), name)()


def rules_for(game: str) -> MajorityGame:
    """The rules adapter of ``game`` (``koryo``, ``choson``)."""
    if game not in MAJORITY_GAMES:
        raise RuleError("game", f"unknown game {game!r} (one of {', '.join(MAJORITY_GAMES)})",
                        code="unknown_game",
                        params={"game": repr(game), "games": ", ".join(MAJORITY_GAMES)})
    return _adapter(game)


def session_rules(game: str) -> Any:
    """The rules adapter a ``Session`` of ``game`` runs on (every game on the menu)."""
    if game in ADAPTERS and game not in MAJORITY_GAMES:
        return _adapter(game)
    return rules_for(game)


def progress(game: str, view: Mapping) -> dict[str, Any]:
    """Where a game stands, for players: ``round`` (the round the table is in) and
    ``player`` (who acts now), each only when the game has one."""
    if game in MAJORITY_GAMES:
        majority = importlib.import_module("companion.games.majority")
        if view["final"] is not None:
            return {"round": view["round"]}
        return {"round": majority.round_number(view), "player": majority.acting_player(view)}
    if game == "kings-dilemma":
        vote = view.get("vote") or {}
        return {"round": view["round"], "player": vote.get("turn")}
    return {}
