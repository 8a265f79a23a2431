"""Chosŏn (Gary Kim): 2–4 players, 8 rounds, 9 families, events, Yi's tokens.

Its length: every rule of the game in one place (phases, effects, Yi's tokens, each
action's checks); what it shares with Koryŏ lives in ``companion.games.majority.rules``.

Rules: the Chosŏn rulebook; where it is silent, docs/house-rules.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.games.majority import rules as shared
from companion.games.majority.rules import FAMILY_VALUES, Area, Family, Kind, Power
from companion.play.errors import RuleError

GAME = "choson"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
ROUNDS = 8
VP_TOKENS = 10
EVENT = "event"
EVENTS_IN_DECK = 10
FIRST_PLAYER_BONUS = 2
# Yi's Legacy above 10 points: bonus by number of players.
LEGACY_BONUS: dict[int, int] = {4: 3, 3: 4, 2: 5}

YI, SNIPER, ORACLE, REAPER, GOSU, SCIENTIST, HULK, TIME_TRAVELLER, WATCHER = range(1, 10)

FAMILIES: dict[int, Family] = {
    f.value: f
    for f in (
        Family(1, "Yi", "Yi", "Yi", "Yi",
               "once per turn: place or move Yi's Shield on one of own families"),
        Family(2, "Sniper", "Sniper", "Snipers", "Snipers", "holds Return Fire"),
        Family(3, "Oracle", "Oracle", "Oracles", "Oracles",
               "own turn: with Return Fire and/or Counter-Attack, must take 1 VP"),
        Family(4, "Reaper", "Faucheur", "Reapers", "Faucheurs",
               "a Sword effect may destroy two cards"),
        Family(5, "Gosu", "Gosu", "Gosu", "Gosu",
               "when playing an event: may keep one in front (+1 point at the end)"),
        Family(6, "Scientist", "Scientifique", "Scientists", "Scientifiques",
               "when playing an event: must take 1 VP"),
        Family(7, "Hulk", "Hulk", "Hulk", "Hulk", "holds Counter-Attack"),
        Family(8, "Time Traveller", "Voyageur temporel", "Time Travellers",
               "Voyageurs temporels",
               "time-travel phase: may discard one to take the first-player token and 1 VP"),
        Family(9, "Watcher", "Observateur", "Watchers", "Observateurs", "none"),
    )
}

# 'Comes into play' effect of each family, triggered in combination 3 (character + event).
LOBBY, FIREARM, SWORD = "lobby", "firearm", "sword"
EFFECTS: dict[int, str | None] = {
    YI: LOBBY, SNIPER: FIREARM, ORACLE: LOBBY, REAPER: SWORD, GOSU: SWORD,
    SCIENTIST: LOBBY, HULK: SWORD, TIME_TRAVELLER: FIREARM, WATCHER: None,
}

DECK: dict[Kind, int] = {**{v: v for v in FAMILY_VALUES}, EVENT: EVENTS_IN_DECK}
# Event names (EN / FR), singular and plural.
EVENT_NAMES: dict[str, tuple[str, str, str, str]] = {
    EVENT: ("event", "événement", "events", "événements"),
}


def kind_name(kind: Kind, n: int = 2) -> str:
    """English name of a card kind, plural unless ``n`` is 1."""
    return shared.card_name(FAMILIES, EVENT_NAMES, kind, n)


# --------------------------------------------------------------------------- final scoring


def legacy_bonus(points: int, n_players: int) -> int:
    """Yi's Legacy: 1…10 points double; above 10: +3 / +4 / +5 with 4 / 3 / 2 players;
    0 or below: nothing."""
    if points <= 0:
        return 0
    if points <= 10:
        return points
    return LEGACY_BONUS[n_players]


@dataclass(frozen=True)
class PlayerScore:
    """One player's final score; the parts add up to ``total``."""

    name: str
    families: tuple[int, ...]  # index 0 is family 1
    tokens: int
    kept_events: int
    first_player: int
    yi_legacy: int

    @property
    def total(self) -> int:
        return (
            sum(self.families) + self.tokens + self.kept_events + self.first_player
            + self.yi_legacy
        )

    def breakdown(self) -> dict[str, int]:
        parts = {f"family_{v}": p for v, p in zip(FAMILY_VALUES, self.families, strict=True)}
        return {
            **parts,
            "tokens": self.tokens,
            "kept_events": self.kept_events,
            "first_player": self.first_player,
            "yi_legacy": self.yi_legacy,
        }


@dataclass(frozen=True)
class FinalScore:
    players: tuple[PlayerScore, ...]
    holders: dict[int, str | None]
    winners: tuple[str, ...]
    tied: tuple[str, ...]  # players tied on the highest total (one player: no tie)
    tie_break_family: int | None  # the lowest family a tied winner controls, if it decided


def final_score(
    players: Sequence[str],
    areas: Mapping[str, Area],
    tokens: Mapping[str, int],
    kept_events: Mapping[str, int],
    first_player: str,
    yi_legacy: str | None,
) -> FinalScore:
    """Chosŏn final scoring: strict majority of each family scores its value (Yi's Shield
    breaks no tie here); +1 per VP token; +1 per kept event; +2 first-player token; then
    Yi's Legacy. Tie for the win: the tied player controlling the lowest family wins; if none
    controls any family, they share the victory (our ruling)."""
    order = list(players)
    full = {p: areas.get(p, Area()) for p in order}
    holders = shared.scoring_holders(full, order)
    scores = []
    for p in order:
        families = tuple(v if holders[v] == p else 0 for v in FAMILY_VALUES)
        base = PlayerScore(
            name=p,
            families=families,
            tokens=tokens.get(p, 0),
            kept_events=kept_events.get(p, 0),
            first_player=FIRST_PLAYER_BONUS if p == first_player else 0,
            yi_legacy=0,
        )
        if p == yi_legacy:
            base = PlayerScore(
                p, families, base.tokens, base.kept_events, base.first_player,
                legacy_bonus(base.total, len(order)),
            )
        scores.append(base)
    tied = shared.best({s.name: s.total for s in scores}, order)
    winners, family = tied, None
    if len(tied) > 1:
        controlled = [v for v in FAMILY_VALUES if holders[v] in tied]
        if controlled:
            family = controlled[0]
            winners = (holders[family],)
    return FinalScore(tuple(scores), holders, winners, tied, family)


def result(final: FinalScore, areas: Mapping[str, Area]) -> dict:
    """``final`` JSON-ready, with each player's cards (``areas``) and the tie-break when
    players tied on the total: what ``companion score --json`` prints and the game's final
    view holds."""
    tie = {"tied": list(final.tied), "family": final.tie_break_family}
    return shared.result_dict(GAME, FAMILIES, final, areas,
                              tie_break=tie if len(final.tied) > 1 else None)


# --------------------------------------------------------------------------- in-game state

SETUP, TIME_TRAVEL, ORDERS, MAIN, END, OVER = (
    "setup", "time_travel", "orders", "main", "end", "over",
)
RETURN_FIRE, COUNTER_ATTACK = "Return Fire", "Counter-Attack"
SHIELD = "Yi's Shield"


@dataclass(frozen=True)
class Turn:
    """The current player's turn in the main phase."""

    revealed: bool = False
    combination: int | None = None  # 1–4
    character: int | None = None  # the character played with an event (combination 3)
    effect_uses: int = 0  # destructions or swaps of the 'comes into play' effect done
    events: int = 0  # events played this turn
    kept: bool = False  # Gosu power used
    scientist: bool = False  # Scientist VP taken
    oracle: bool = False  # Oracle VP taken
    shield_moved: bool = False
    riposte: tuple[str, str] | None = None  # (victim, token) who may riposte right now


@dataclass(frozen=True)
class State(shared.MajorityState):
    """A Chosŏn game in progress. Seat-indexed tuples follow ``players`` (clockwise)."""

    vp_tokens: ClassVar[int] = VP_TOKENS

    players: tuple[str, ...]
    areas: tuple[Area, ...]  # characters in front of each player
    tokens: tuple[int, ...]
    kept_events: tuple[int, ...]
    first: int = 0
    round: int = 0
    phase: str = SETUP
    shield: tuple[str, int] | None = None  # (owner, family) of Yi's Shield
    legacy: str | None = None  # holder of Yi's Legacy
    turn_index: int = 0
    turn: Turn = Turn()

    @property
    def current_player(self) -> str | None:
        """Who acts now: in the time-travel phase the Time Traveller majority (the only one
        with a decision to make), then each player's turn from the first player."""
        if self.phase == TIME_TRAVEL:
            return holder(self, TIME_TRAVELLER)
        if self.phase not in (ORDERS, MAIN):
            return None
        return self.player_on_turn()


def new_game(players: Sequence[str], first_player: str | None = None) -> State:
    names, first = shared.seat_players(players, first_player, "Chosŏn", MIN_PLAYERS, MAX_PLAYERS)
    zeros = tuple(0 for _ in names)
    return State(names, tuple(Area() for _ in names), zeros, zeros, first)


# -- queries ----------------------------------------------------------------------------------


def majority_of(state: State, family: int) -> shared.Majority:
    """The live majority of ``family``: a tie goes to the owner of Yi's Shield when the
    shield is on that family."""
    breaker = state.shield[0] if state.shield and state.shield[1] == family else None
    return shared.live_majority(family, state.players, state.areas, breaker, SHIELD)


def majorities(state: State) -> dict[int, shared.Majority]:
    return {v: majority_of(state, v) for v in FAMILY_VALUES}


def holder(state: State, family: int) -> str | None:
    return majority_of(state, family).holder


def return_fire(state: State) -> str | None:
    """The Return Fire token follows the Sniper majority."""
    return holder(state, SNIPER)


def counter_attack(state: State) -> str | None:
    """The Counter-Attack token follows the Hulk majority."""
    return holder(state, HULK)


def shielded(state: State, player: str, family: int) -> bool:
    return state.shield == (player, family)


def limit_check(state: State) -> list[shared.LimitCheck]:
    """End phase: only characters count (kept events don't)."""
    lim = shared.limit(state.round)
    return [
        shared.LimitCheck(p, state.area(p).characters, lim, max(0, state.area(p).characters - lim))
        for p in state.players
    ]


def protections(state: State) -> list[shared.Protection]:
    if state.shield is None:
        return []
    owner, family = state.shield
    name = FAMILIES[family].en_plural
    return [shared.Protection(
        owner, (LOBBY, FIREARM, SWORD, "riposte"), SHIELD,
        f"{owner}'s {name} cannot be targeted by Lobby, Firearm, Sword or ripostes — {SHIELD}",
        family,
    )]


def _scientist_due(state: State, p: str) -> bool:
    t = state.turn
    triggered = t.combination == 4 or (t.combination == 3 and t.effect_uses > 0)
    return triggered and not t.scientist and holder(state, SCIENTIST) == p


def _gosu_due(state: State, p: str) -> bool:
    t = state.turn
    triggered = t.combination == 4 or (t.combination == 3 and t.effect_uses > 0)
    return triggered and not t.kept and holder(state, GOSU) == p


def _oracle_due(state: State, p: str) -> bool:
    if state.turn.oracle or holder(state, ORACLE) != p:
        return False
    return p in (return_fire(state), counter_attack(state))


def effect_left(state: State, p: str) -> int:
    """How many uses of the 'comes into play' effect remain this turn."""
    t = state.turn
    if t.combination != 3 or t.character is None:
        return 0
    uses = 2 if EFFECTS[t.character] == SWORD and holder(state, REAPER) == p else 1
    return max(0, uses - t.effect_uses)


def powers(state: State) -> list[Power]:
    """What each player may or must do in the current phase."""
    out: list[Power] = []
    if state.phase == TIME_TRAVEL and (tt := holder(state, TIME_TRAVELLER)) is not None:
        # Phase 1 alone: no turn power exists until the time travel is settled.
        out.append(Power(tt, "time_travel", False,
                         f"{tt} may discard a Time Traveller to take the first-player token "
                         "and 1 VP — Time Travellers", TIME_TRAVELLER))
    if state.phase in (ORDERS, MAIN):
        out += _turn_powers(state)
    if state.phase == END:
        for c in limit_check(state):
            if c.excess:
                out.append(Power(c.player, "discard", True,
                                 f"{c.player} must discard {c.excess} character"
                                 f"{'s' if c.excess > 1 else ''} — limit {c.limit}"))
    return out


def _vp_power(state: State, p: str, family: int) -> list[Power]:
    """A MUST-take-a-VP power; with the bank empty it becomes a MAY-take-from-a-player."""
    name = FAMILIES[family].en_plural
    if state.bank:
        return [Power(p, "take_vp", True, f"{p} must take a VP — {name}", family)]
    if any(state.tokens_of(q) for q in state.players if q != p):
        return [Power(p, "take_vp", False,
                      f"{p} may take a VP from another player, the bank is empty — {name}",
                      family)]
    return []


def _turn_powers(state: State) -> list[Power]:
    p = state.current_player
    assert p is not None
    t, out = state.turn, []
    if t.riposte is not None:
        victim, token = t.riposte
        out.append(Power(victim, "riposte", False,
                         f"{victim} may riposte and destroy {p}'s "
                         f"{kind_name(t.character or 0, 1)} — {token}"))
    if holder(state, YI) == p and not t.shield_moved:
        out.append(Power(p, "move_shield", False, f"{p} may place or move Yi's Shield — Yi", YI))
    if _oracle_due(state, p):
        out += _vp_power(state, p, ORACLE)
    if _scientist_due(state, p):
        out += _vp_power(state, p, SCIENTIST)
    if _gosu_due(state, p):
        out.append(Power(p, "keep_event", False, f"{p} may keep one event in front — Gosu", GOSU))
    if left := effect_left(state, p):
        effect = EFFECTS[t.character or 0]
        verb = {LOBBY: "swap two characters", FIREARM: "destroy a character of another player",
                SWORD: "destroy a character of value ±1 of another player"}[effect or ""]
        times = f" ({left} left)" if left > 1 else ""
        out.append(Power(p, effect or "", False,
                         f"{p} may {verb}{times} — {effect.capitalize() if effect else ''}",
                         t.character))
    return out


# -- actions ----------------------------------------------------------------------------------
# Shared with Koryŏ (engine.majority): StartRound (the round opens with the time-travel
# phase), Reveal (families and ``event``), Destroy (Firearm or Sword, a 'comes into play'
# effect), Swap (Lobby), EndTurn, Discard and EndRound.


class TimeTravel(shared.Action, name="time_travel"):
    """Time Traveller majority: discard one to take the first-player token and 1 VP (from
    ``source``, another player, only when the bank is empty). Once per round."""

    player: str
    source: str | None = None


class NoTimeTravel(shared.Action, name="no_time_travel"):
    """The Time Traveller majority lets the time-travel phase pass without travelling."""

    player: str


class Riposte(shared.Action, name="riposte"):
    """Return Fire / Counter-Attack: the player just hit destroys the attacker's character."""

    player: str


class TakeVP(shared.Action, name="take_vp"):
    """Oracle (3) or Scientist (6) majority: take the VP due; ``source`` names another
    player to take it from, allowed only when the bank is empty."""

    player: str
    family: int
    source: str | None = None


class KeepEvent(shared.Action, name="keep_event"):
    """Gosu majority: keep one played event in front (+1 point at the end)."""

    player: str


class MoveShield(shared.Action, name="move_shield"):
    """Yi majority: place or move Yi's Shield onto one of own families (once per turn)."""

    player: str
    family: int


ACTIONS: dict[str, type] = {
    cls.name: cls
    for cls in (shared.StartRound, TimeTravel, NoTimeTravel, shared.Reveal, shared.Destroy,
                shared.Swap, Riposte, TakeVP, KeepEvent, MoveShield, shared.EndTurn,
                shared.Discard, shared.EndRound)
}


def action_from_dict(data: Mapping) -> shared.Action:
    return shared.action_from_dict(data, ACTIONS)


def apply(state: State, action: shared.Action) -> State:
    """The state after ``action``, or ``RuleError`` saying why the rules refuse it."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("action", f"{action!r} is not a Chosŏn action", code="not_an_action")
    if not isinstance(action, Riposte) and state.turn.riposte is not None:
        state = replace(state, turn=replace(state.turn, riposte=None))  # "immediately" passed
    return _settle_shield(handler(state, action))


def is_legal(state: State, action: shared.Action) -> bool:
    return shared.legal(apply, state, action)


def score(state: State) -> FinalScore:
    """Final scoring of what is in play (meant for the end of round 8)."""
    return final_score(
        state.players, dict(zip(state.players, state.areas, strict=True)),
        dict(zip(state.players, state.tokens, strict=True)),
        dict(zip(state.players, state.kept_events, strict=True)),
        state.first_player, state.legacy,
    )


# -- rules of each action ---------------------------------------------------------------------


def _settle_shield(state: State) -> State:
    """Yi's Shield is lost at once when its owner loses the Yi majority."""
    if state.shield is not None and holder(state, YI) != state.shield[0]:
        return replace(state, shield=None)
    return state


def _own_turn(state: State, player: str) -> None:
    shared.seated(state, player, "player")
    if state.phase == TIME_TRAVEL:
        raise RuleError("phase", f"{state.current_player} decides on time travel first",
                        code="time_travel_first", params={"player": state.current_player})
    if state.phase not in (ORDERS, MAIN):
        raise RuleError("player", f"not the main phase (phase: {state.phase})",
                        code="not_main_phase")
    if state.current_player != player:
        raise RuleError("player", f"it is {state.current_player}'s turn, not {player}'s",
                        code="not_your_turn",
                        params={"current": state.current_player, "player": player})


def _turn(state: State, **changes: Any) -> State:
    return replace(state, phase=MAIN, turn=replace(state.turn, **changes))


def _gain_vp(state: State, p: str, source: str | None) -> State:
    """Take 1 VP from the bank; only when it is empty MAY it come from another player."""
    if source is None:
        if state.bank == 0 and not any(state.tokens_of(q) for q in state.players if q != p):
            return state  # no VP token anywhere to take
        if state.bank == 0:
            raise RuleError("source", "the bank is empty: name the player to take the VP from",
                            code="source_needed")
        return shared.with_tokens(state, p, 1)
    source = shared.seated(state, source, "source")
    if state.bank:
        raise RuleError("source", "the bank still has VP tokens: take it from the bank",
                        code="source_bank")
    if source == p or state.tokens_of(source) == 0:
        raise RuleError("source", f"{source} has no VP token to give", code="no_vp",
                        params={"player": source})
    return shared.with_tokens(shared.with_tokens(state, source, -1), p, 1)


def _start_round(state: State, action: shared.StartRound) -> State:
    if state.phase != SETUP:
        raise RuleError("phase", f"the round is not over (phase: {state.phase})",
                        code="round_not_over")
    state = replace(state, round=state.round + 1, phase=TIME_TRAVEL, turn_index=0, turn=Turn())
    if holder(state, TIME_TRAVELLER) is None:
        return replace(state, phase=ORDERS)  # nobody may travel: phase 1 is over at once
    return state


def _time_traveller(state: State, player: str) -> str:
    """``player``, if they are the one the time-travel phase waits for."""
    p = shared.seated(state, player, "player")
    if holder(state, TIME_TRAVELLER) != p:
        raise RuleError("player", f"{p} does not hold the Time Traveller majority",
                        code="no_majority", params={"player": p, "family": TIME_TRAVELLER})
    if state.phase != TIME_TRAVEL:
        raise RuleError("phase", "time travel happens at the start of the round, once",
                        code="time_travel_once")
    return p


def _time_travel(state: State, action: TimeTravel) -> State:
    p = _time_traveller(state, action.player)
    state = shared.with_area(state, p, state.area(p).add(TIME_TRAVELLER, -1))
    if action.source is not None or state.bank:
        # With the bank empty the VP MAY come from another player: taking none is legal.
        state = _gain_vp(state, p, action.source)
    return replace(state, first=state.seat(p), phase=ORDERS)


def _no_time_travel(state: State, action: NoTimeTravel) -> State:
    _time_traveller(state, action.player)
    return replace(state, phase=ORDERS)


def combination(cards: Area) -> int:
    """Which of the four order combinations ``cards`` is, or RuleError: (1) any number of
    one family; (2) two different characters; (3) one character (not a Watcher) and one
    event; (4) exactly three events."""
    events, families = cards[EVENT], cards.families()
    if events == 0 and len(families) == 1:
        return 1
    if events == 0 and len(families) == 2 and cards.total == 2:
        return 2
    if events == 1 and cards.characters == 1:
        if families[0] == WATCHER:
            raise RuleError("cards", "a Watcher has no 'comes into play' effect: it cannot be "
                                     "played with an event", code="watcher_event")
        return 3
    if events == 3 and cards.characters == 0:
        return 4
    raise RuleError("cards", "not a combination: one family (any number), two different "
                             "characters, one character and one event, or three events",
                    code="not_a_combination")


def _reveal(state: State, action: shared.Reveal) -> State:
    p = action.player
    _own_turn(state, p)
    if state.turn.revealed:
        raise RuleError("player", f"{p} has already revealed this turn",
                        code="already_revealed", params={"player": p})
    cards = action.cards

    def in_play(kind: Kind) -> int:  # the events kept in front count against the deck's
        return sum(state.kept_events) if kind == EVENT else sum(a[kind] for a in state.areas)

    shared.check_revealed(cards, DECK, in_play, "Chosŏn", kind_name)
    if cards.total > shared.deal(state.round):
        raise RuleError("cards", f"{cards.total} cards, but {shared.deal(state.round)} were dealt",
                        code="dealt",
                        params={"total": cards.total, "dealt": shared.deal(state.round)})
    combo = combination(cards)
    character = cards.families()[0] if combo == 3 else None
    characters = Area.of({k: n for k, n in cards.items if isinstance(k, int)})
    state = shared.with_area(state, p, state.area(p).plus(characters))
    if combo == 4:
        state = replace(state, legacy=p)
    return _turn(state, revealed=True, combination=combo, character=character,
                 events=cards[EVENT])


def _use_effect(state: State, p: str, effect: str) -> None:
    t = state.turn
    if t.combination != 3 or t.character is None or EFFECTS[t.character] != effect:
        raise RuleError("player", f"{p} has no {effect.capitalize()} effect this turn",
                        code="no_effect", params={"player": p, "effect": effect})
    if effect_left(state, p) == 0:
        raise RuleError("player", f"{p} has already used the {effect.capitalize()} effect",
                        code="effect_used", params={"player": p, "effect": effect})


def _not_shielded(state: State, owner: str, family: int, field: str) -> None:
    if shielded(state, owner, family):
        raise RuleError(field, f"{owner}'s {FAMILIES[family].en_plural} are protected by "
                               f"{SHIELD}", code="shielded",
                        params={"player": owner, "kinds": family})


def _remove(state: State, owner: str, family: int, field: str) -> State:
    if state.area(owner)[family] == 0:
        raise RuleError(field, f"{owner} has no {kind_name(family, 1)} in play",
                        code="not_in_play", params={"player": owner, "family": family})
    return shared.with_area(state, owner, state.area(owner).add(family, -1))


def _destroy(state: State, action: shared.Destroy) -> State:
    p, target = action.player, shared.seated(state, action.target, "target")
    _own_turn(state, p)
    family = shared.family_value(action.family, "family")
    character = state.turn.character or 0
    effect = EFFECTS.get(character)
    if effect not in (FIREARM, SWORD):
        raise RuleError("player", f"{p} has no Firearm or Sword effect this turn",
                        code="no_destroy_effect", params={"player": p})
    _use_effect(state, p, effect)
    if target == p:
        raise RuleError("target", f"{effect.capitalize()} destroys a card of another player",
                        code="destroy_own", params={"effect": effect})
    if effect == SWORD and abs(family - character) > 1:
        raise RuleError("family", f"a Sword from a {kind_name(character, 1)} ({character}) "
                                  f"destroys values {character - 1}–{character + 1} only",
                        code="sword_range",
                        params={"family": character, "value": character, "low": character - 1,
                                "high": character + 1})
    _not_shielded(state, target, family, "family")
    token, token_holder = (
        (RETURN_FIRE, return_fire(state)) if effect == FIREARM
        else (COUNTER_ATTACK, counter_attack(state))
    )
    state = _remove(state, target, family, "family")
    riposte = (target, token) if token_holder == target else None
    return _turn(state, effect_uses=state.turn.effect_uses + 1, riposte=riposte)


def _swap(state: State, action: shared.Swap) -> State:
    p = action.player
    _own_turn(state, p)
    a, b = shared.seated(state, action.a, "a"), shared.seated(state, action.b, "b")
    fa = shared.family_value(action.a_family, "a_family")
    fb = shared.family_value(action.b_family, "b_family")
    _use_effect(state, p, LOBBY)
    if a == b:
        raise RuleError("b", "Lobby swaps cards between two different players", code="swap_same")
    _not_shielded(state, a, fa, "a_family")
    _not_shielded(state, b, fb, "b_family")
    state = _remove(state, a, fa, "a_family")
    state = _remove(state, b, fb, "b_family")
    state = shared.with_area(state, a, state.area(a).add(fb))
    state = shared.with_area(state, b, state.area(b).add(fa))
    return _turn(state, effect_uses=state.turn.effect_uses + 1)


def _riposte(state: State, action: Riposte) -> State:
    p = shared.seated(state, action.player, "player")
    t = state.turn
    if t.riposte is None or t.riposte[0] != p:
        raise RuleError("player", f"{p} has no riposte to make now", code="no_riposte",
                        params={"player": p})
    attacker, family = state.current_player, t.character
    assert attacker is not None and family is not None
    _not_shielded(state, attacker, family, "player")
    state = _remove(state, attacker, family, "player")
    return _turn(state, riposte=None)


def _take_vp(state: State, action: TakeVP) -> State:
    p = action.player
    _own_turn(state, p)
    if action.family == ORACLE:
        if not _oracle_due(state, p):
            raise RuleError("family", f"{p} has no Oracle VP to take (needs the Oracle majority "
                                      f"and {RETURN_FIRE} or {COUNTER_ATTACK}, once per turn)",
                                code="no_oracle_vp", params={"player": p})
        return _turn(_gain_vp(state, p, action.source), oracle=True)
    if action.family == SCIENTIST:
        if not _scientist_due(state, p):
            raise RuleError("family", f"{p} has no Scientist VP to take (needs the Scientist "
                                      "majority and an event played with its effect resolved)",
                                code="no_scientist_vp", params={"player": p})
        return _turn(_gain_vp(state, p, action.source), scientist=True)
    raise RuleError("family", "only the Oracles (3) and Scientists (6) take VP tokens",
                    code="vp_families")


def _keep_event(state: State, action: KeepEvent) -> State:
    p = action.player
    _own_turn(state, p)
    if not _gosu_due(state, p):
        raise RuleError("player", f"{p} cannot keep an event (needs the Gosu majority and an "
                                  "event played with its effect resolved, once per turn)",
                        code="cannot_keep_event", params={"player": p})
    kept = list(state.kept_events)
    kept[state.seat(p)] += 1
    return _turn(replace(state, kept_events=tuple(kept)), kept=True)


def _move_shield(state: State, action: MoveShield) -> State:
    p = action.player
    _own_turn(state, p)
    family = shared.family_value(action.family, "family")
    if holder(state, YI) != p:
        raise RuleError("player", f"{p} does not hold the Yi majority", code="no_majority",
                        params={"player": p, "family": YI})
    if state.turn.shield_moved:
        raise RuleError("player", f"{p} already placed {SHIELD} this turn", code="shield_moved",
                        params={"player": p})
    if state.area(p)[family] == 0:
        raise RuleError("family", f"{p} has no {kind_name(family, 1)}: the shield goes on one "
                                  "of their own families", code="shield_own",
                        params={"player": p, "family": family})
    return _turn(replace(state, shield=(p, family)), shield_moved=True)


def _end_turn(state: State, action: shared.EndTurn) -> State:
    p = action.player
    _own_turn(state, p)
    for due, family in ((_oracle_due, ORACLE), (_scientist_due, SCIENTIST)):
        if state.bank and due(state, p):
            raise RuleError("player", f"{p} must take a VP first — {FAMILIES[family].en_plural}",
                            code="must_take_vp", params={"player": p, "kinds": family})
    nxt = state.turn_index + 1
    phase = END if nxt == len(state.players) else MAIN
    return replace(state, phase=phase, turn_index=nxt, turn=Turn())


def _discard(state: State, action: shared.Discard) -> State:
    p = shared.seated(state, action.player, "player")
    if state.phase != END:
        raise RuleError("phase", "cards are discarded to the limit in the end phase",
                        code="discard_phase")
    family = shared.family_value(action.family, "family")
    check = next(c for c in limit_check(state) if c.player == p)
    return shared.discard_down(state, p, family, action.count, check, kind_name,
                               characters=True)


def _end_round(state: State, action: shared.EndRound) -> State:
    if state.phase != END:
        raise RuleError("phase", f"the round is not at its end phase (phase: {state.phase})",
                        code="round_not_ending")
    shared.check_within_limit(limit_check(state), characters=True)
    if state.round == ROUNDS:
        # The token passes "and a new round begins": after round 8 none does, so it stays.
        return replace(state, phase=OVER, turn_index=0, turn=Turn())
    first = (state.first + 1) % len(state.players)
    return replace(state, first=first, phase=SETUP, turn_index=0, turn=Turn())


_HANDLERS: dict[type, Callable[[State, Any], State]] = {
    shared.StartRound: _start_round, TimeTravel: _time_travel, NoTimeTravel: _no_time_travel,
    shared.Reveal: _reveal, shared.Destroy: _destroy,
    shared.Swap: _swap, Riposte: _riposte, TakeVP: _take_vp, KeepEvent: _keep_event,
    MoveShield: _move_shield, shared.EndTurn: _end_turn, shared.Discard: _discard,
    shared.EndRound: _end_round,
}
