"""Koryŏ at the table: the Session rules adapter."""

from __future__ import annotations

from typing import Any

from companion.games.koryo import rules as koryo
from companion.games.majority.adapter import MajorityGame
from companion.games.majority.rules import Power


class KoryoGame(MajorityGame):
    name = koryo.GAME
    engine = koryo

    def extra_view(self, state: koryo.State) -> dict:
        players = state.players
        return {
            # Cards dealt this round (the Broadcaster majority gets one more).
            "deals": dict(zip(players, state.deals, strict=True)) if state.deals else {},
            "ship_owner": state.ship_owner,
            "omniscient": koryo.omniscient(state),
        }

    def power_params(self, state: Any, power: Power) -> dict[str, int]:
        if power.code == "destroy":
            return {"n": state.turn.barbarians}
        if power.code == "swap":
            return {"n": state.turn.lobbyings}
        return super().power_params(state, power)
