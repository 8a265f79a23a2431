"""The rules adapter Koryŏ and Chosŏn share (``MajorityGame``): the engines have the same shape
(families, areas, VP bank, rounds with a season deal and limit, live majorities, powers).
Each game module adds what is its own (the Broadcaster deal, Yi's Shield, the final score).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from types import ModuleType
from typing import Any

from companion.games.majority.rules import FAMILY_VALUES, Power, deal, limit, plain
from companion.games.registry import acting_player
from companion.play.errors import RuleError
from companion.play.seat import Light
from companion.play.seating import check_setup, seat_indexes
from companion.play.turns import Turns


def event_names(engine: ModuleType) -> list[dict[str, str]]:
    """The event cards of ``engine`` (Koryŏ's or Chosŏn's) by key with their names, in
    both languages and the plural: what a view and a refusal name them by."""
    return [{"key": k, "en": en, "fr": fr, "en_plural": enp, "fr_plural": frp}
            for k, (en, fr, enp, frp) in engine.EVENT_NAMES.items()]

SETUP_KEYS = ("players", "seats", "first_player")
# Powers carried out by an action of another name (Chosŏn's 'comes into play' effects).
POWER_ACTIONS = {"lobby": "swap", "firearm": "destroy", "sword": "destroy"}
PLAYER_FIELDS = ("target", "victim", "a", "b", "source")
FAMILY_FIELDS = ("family", "a_family", "b_family")


@dataclass(frozen=True)
class SeatedState:
    """A majority game in progress: the engine's state and, per player (seating order), the index
    of their seat in the configuration (whose button they press, whose light is theirs)."""

    seats: tuple[int, ...]
    state: Any


class MajorityGame:
    """The Session rules object of a majority game; ``engine`` is its engine module."""

    name = ""
    engine: ModuleType

    # -- Session interface ------------------------------------------------------------------

    def initial(self, setup: Mapping) -> SeatedState:
        """``setup``: ``{"players": [names clockwise], "seats": [seat index per player],
        "first_player": name}`` (seats default to 0, 1, …; first player to the first name)."""
        check_setup(setup, SETUP_KEYS)
        names = setup.get("players")
        if not isinstance(names, list) or not all(isinstance(p, str) and p for p in names):
            raise RuleError("players", "expected a list of player names",
                            code="player_names")
        state = self.engine.new_game(names, setup.get("first_player"))
        return SeatedState(seat_indexes(setup, len(names)), state)

    def apply(self, seated: SeatedState, action: Mapping) -> SeatedState:
        """The game after ``action`` (an action dict, as journaled), or RuleError."""
        if not isinstance(action, Mapping):
            raise RuleError("action", "expected a mapping", code="expected_mapping")
        try:
            act = self.engine.action_from_dict(action)
        except (AttributeError, TypeError, ValueError) as exc:
            if isinstance(exc, RuleError):
                raise
            raise RuleError("action", f"{action.get('action')}: {exc}",
                            code="bad_action",
                            params={"name": action.get("action"), "error": str(exc)}) from None
        return SeatedState(seated.seats, self.engine.apply(seated.state, act))

    def season(self, state: Any) -> dict[str, int]:
        """The round the table is in and its season card: between rounds (the set-up) the
        round about to start, as the first player's prompt names it."""
        n = min(state.round + 1, self.engine.ROUNDS) if state.phase == "setup" else state.round
        n = max(n, 1)
        return {"round": n, "deal": deal(n), "limit": limit(n)}

    def public_view(self, seated: SeatedState) -> dict:
        """Everything the screens and lights show, JSON-ready (nothing here is secret)."""
        e, s = self.engine, seated.state
        players = list(s.players)
        view = {
            "game": self.name,
            "players": players,
            "seats": list(seated.seats),
            "round": s.round,
            "rounds": e.ROUNDS,
            "phase": s.phase,
            "deal": deal(s.round) if s.round else None,
            "limit": limit(s.round) if s.round else None,
            # the round the table is in (between rounds: the one about to start) and its
            # season card, one round number for every line of the screen
            "season": self.season(s),
            "first_player": s.first_player,
            "current_player": s.current_player,
            "bank": s.bank,
            "vp_tokens": e.VP_TOKENS,
            "tokens": dict(zip(players, s.tokens, strict=True)),
            "areas": {p: s.area(p).to_dict() for p in players},
            "deck": {str(k): n for k, n in e.DECK.items()},
            "in_play": {str(k): n for k, n in self.in_play(s).items()},
            "families": [e.FAMILIES[v].to_dict() for v in FAMILY_VALUES],
            "events": event_names(e),
            "majorities": [m.to_dict() for m in e.majorities(s).values()],
            "powers": [self._power(seated, p) for p in e.powers(s)],
            "protections": [p.to_dict() for p in e.protections(s)],
            "limits": [c.to_dict() for c in e.limit_check(s)] if s.round else [],
            "turn": plain(s.turn),
            "final": self.final(s) if s.phase == e.OVER else None,
        }
        view.update(self.extra_view(s))
        return view

    def options(self, seated: SeatedState, power: Mapping) -> list[dict]:
        """Every legal action carrying out ``power`` (an item of the view's ``powers``),
        found by trying each choice of its fields on the engine: a power that needs no
        action (``deal_bonus``…) has none. Discards are offered one card at a time."""
        cls = self.engine.ACTIONS.get(POWER_ACTIONS.get(power["code"], power["code"]))
        if cls is None:
            return []
        players = list(seated.state.players)
        choices: dict[str, list] = {}
        for f in fields(cls):
            if f.name == "player":
                choices[f.name] = [power["player"]]
            elif f.name in PLAYER_FIELDS:
                choices[f.name] = ([None] if f.default is None else []) + players
            elif f.name in FAMILY_FIELDS:
                choices[f.name] = list(FAMILY_VALUES)
            elif f.name == "event":
                choices[f.name] = list(self.engine.EVENT_NAMES)
            elif f.name == "count":
                choices[f.name] = [1]
            elif f.default is MISSING:
                return []
        out = []
        for values in itertools.product(*choices.values()):
            action = {"action": cls.name, **dict(zip(choices, values, strict=True))}
            try:
                self.apply(seated, action)
            except RuleError:
                continue
            out.append({k: v for k, v in action.items() if v is not None})
        return out

    @staticmethod
    def next_step(view: Mapping) -> dict | None:
        """What comes next in a round when no one does more: start the round, let
        Chosŏn's time-travel phase pass without travelling, end the turn, end the round;
        None while an order waits to be revealed. The big button's action, and what the
        seeded player falls back on (``autoplay``)."""
        phase = view["phase"]
        if phase == "setup":
            return {"action": "start_round"}
        if phase == "time_travel":
            return {"action": "no_time_travel", "player": view["current_player"]}
        if phase == "end":
            return {"action": "end_round"}
        if phase == "main" and view["turn"]["revealed"]:
            return {"action": "end_turn", "player": view["current_player"]}
        return None

    # -- seat lights --------------------------------------------------------------------------

    @staticmethod
    def turns(view: Mapping) -> Turns:
        """Who acts (``companion.play.turns``): the seat that acts now (the current
        player, or the first player between turns), the first player's seat marked
        FIRST_PLAYER; once the game is over, the winners' seats marked LEADER."""
        seats = dict(zip(view["players"], view["seats"], strict=True))
        if view["final"] is not None:
            return Turns(tuple(view["seats"]),
                         marks=dict.fromkeys((seats[p] for p in view["final"]["winners"]),
                                             Light.LEADER))
        return Turns(tuple(view["seats"]), marks={seats[view["first_player"]]: Light.FIRST_PLAYER},
                     acting=frozenset({seats[acting_player(view)]}))

    # -- per game ---------------------------------------------------------------------------

    def _power(self, seated: SeatedState, power: Power) -> dict:
        """A power with ``params``: the numbers its sentence needs, for translated texts."""
        return {**power.to_dict(), "params": self.power_params(seated.state, power)}

    def power_params(self, state: Any, power: Power) -> dict[str, int]:
        if power.code == "discard":
            check = next(c for c in self.engine.limit_check(state) if c.player == power.player)
            return {"excess": check.excess, "limit": check.limit}
        return {}

    def in_play(self, state: Any) -> dict:
        """Cards of each kind in play, out of the deck's ``DECK[kind]``."""
        return {k: sum(a[k] for a in state.areas) for k in self.engine.DECK}

    def extra_view(self, state: Any) -> dict:
        return {}

    def final(self, state: Any) -> dict:
        """The final score, as ``companion score --json`` prints it for the same cards: the
        engine scores and shapes both."""
        areas = dict(zip(state.players, state.areas, strict=True))
        return self.engine.result(self.engine.score(state), areas)

