"""Chosŏn at the table: the Session rules adapter."""

from __future__ import annotations

from typing import Any

from companion.games.choson import rules as choson
from companion.games.majority.adapter import MajorityGame
from companion.games.majority.rules import Power, deal

EFFECT_CODES = (choson.LOBBY, choson.FIREARM, choson.SWORD)


class ChosonGame(MajorityGame):
    name = choson.GAME
    engine = choson

    def extra_view(self, state: choson.State) -> dict:
        players = state.players
        shield = state.shield
        return {
            # No Broadcaster in Chosŏn: everyone is dealt the season's count.
            "deals": {p: deal(state.round) for p in players} if state.round else {},
            "kept_events": dict(zip(players, state.kept_events, strict=True)),
            "shield": None if shield is None else {"player": shield[0], "family": shield[1]},
            "legacy": state.legacy,
            "return_fire": choson.return_fire(state),
            "counter_attack": choson.counter_attack(state),
        }

    def in_play(self, state: choson.State) -> dict:
        # Played events go back to the deck unless kept in front through a Gosu majority.
        return {**super().in_play(state), choson.EVENT: sum(state.kept_events)}

    def power_params(self, state: Any, power: Power) -> dict[str, int]:
        if power.code in EFFECT_CODES:
            # Uses of the 'comes into play' effect still open (two for a Reaper's Sword).
            return {"n": choson.effect_left(state, power.player)}
        return super().power_params(state, power)
