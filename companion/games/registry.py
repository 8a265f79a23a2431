"""Rules adapters: what a ``Session`` needs to run a game (``name``, ``initial(setup)``,
``apply(state, action_dict)``, ``public_view(state)``), plus the seat lights of a view;
and what Home reads of any game's view (``progress``).

Each game's adapter is imported the first time it is asked for (``ADAPTERS``, like the
menu's screens and the command line's sub-commands): Home asks only for a game the
journal holds unfinished, so its first frame loads no game's rules (start-up)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from companion.play.errors import RuleError
from companion.play.session import Rules

# journal game name -> (module, adapter class)
ADAPTERS: dict[str, tuple[str, str]] = {
    "koryo": ("companion.games.koryo.adapter", "KoryoGame"),
    "choson": ("companion.games.choson.adapter", "ChosonGame"),
    "inheritors": ("companion.games.inheritors.adapter", "InheritorsSheet"),
    "kings-dilemma": ("companion.games.kings_dilemma.adapter", "KingsDilemma"),
}
MAJORITY_GAMES = ("koryo", "choson")


def _adapter(game: str) -> Any:
    module, name = ADAPTERS[game]
    # A game's rules are loaded when first asked for (start-up: see above).
    return getattr(importlib.import_module(module), name)()


def round_number(view: Mapping) -> int:
    """The round a Koryŏ or Chosŏn table is in: between rounds (phase ``setup``) the one
    about to start, as the first player's prompt says it ("Cleo starts round 6"). One
    number everywhere."""
    return view["season"]["round"]


def acting_player(view: Mapping) -> str:
    """Who acts now in Koryŏ or Chosŏn: the current player during a turn, else the first
    player (who starts and closes the round)."""
    return view["current_player"] or view["first_player"]


def rules_for(game: str) -> Rules:
    """The rules adapter of ``game`` (``koryo``, ``choson``)."""
    if game not in MAJORITY_GAMES:
        raise RuleError("game", f"unknown game {game!r} (one of {', '.join(MAJORITY_GAMES)})",
                        code="unknown_game",
                        params={"game": repr(game), "games": ", ".join(MAJORITY_GAMES)})
    return _adapter(game)


def session_rules(game: str) -> Rules:
    """The rules adapter a ``Session`` of ``game`` runs on (every game on the menu)."""
    if game in ADAPTERS and game not in MAJORITY_GAMES:
        return _adapter(game)
    return rules_for(game)


def progress(game: str, view: Mapping) -> dict[str, Any]:
    """Where a game stands, for players: ``round`` (the round the table is in) and
    ``player`` (who acts now), each only when the game has one."""
    if game in MAJORITY_GAMES:
        if view["final"] is not None:
            return {"round": view["round"]}
        return {"round": round_number(view), "player": acting_player(view)}
    if game == "kings-dilemma":
        vote = view.get("vote") or {}
        return {"round": view["round"], "player": vote.get("turn")}
    return {}
