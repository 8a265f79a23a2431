"""Rules adapters: what a ``Session`` needs to run a game (``name``, ``initial(setup)``,
``apply(state, action_dict)``, ``public_view(state)``), plus the seat lights of a view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import RuleError
from companion.games.choson import ChosonGame
from companion.games.inheritors import InheritorsSheet
from companion.games.kings_dilemma import KingsDilemma
from companion.games.koryo import KoryoGame
from companion.games.majority import MajorityGame, acting_player, round_number

MAJORITY_GAMES: dict[str, type[MajorityGame]] = {"koryo": KoryoGame, "choson": ChosonGame}


def rules_for(game: str) -> MajorityGame:
    """The rules adapter of ``game`` (``koryo``, ``choson``)."""
    if game not in MAJORITY_GAMES:
        raise RuleError("game", f"unknown game {game!r} (one of {', '.join(MAJORITY_GAMES)})")
    return MAJORITY_GAMES[game]()


def session_rules(game: str) -> Any:
    """The rules adapter a ``Session`` of ``game`` runs on (every game on the menu)."""
    if game == KingsDilemma.name:
        return KingsDilemma()
    if game == InheritorsSheet.name:
        return InheritorsSheet()
    return rules_for(game)


def progress(game: str, view: Mapping) -> dict[str, Any]:
    """Where a game stands, for players: ``round`` (the round the table is in) and
    ``player`` (who acts now), each only when the game has one."""
    if game in MAJORITY_GAMES:
        if view["final"] is not None:
            return {"round": view["round"]}
        return {"round": round_number(view), "player": acting_player(view)}
    if game == KingsDilemma.name:
        vote = view.get("vote") or {}
        return {"round": view["round"], "player": vote.get("turn")}
    return {}
