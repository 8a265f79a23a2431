"""Koryŏ (Gary Kim): 2–4 players, 8 rounds, 9 families and 2 kinds of events.

Its length: every rule of the game in one place (powers, limits, each action's
checks); what it shares with Chosŏn lives in ``companion.games.majority.rules``.

Rules: the Koryŏ rulebook; where it is silent, docs/house-rules.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ClassVar

from companion.games.majority import rules as shared
from companion.games.majority.rules import FAMILY_VALUES, Area, Family, Kind, Power
from companion.play.errors import RuleError

GAME = "koryo"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
ROUNDS = 8
VP_TOKENS = 8
EVENTS: tuple[str, ...] = ("barbarian", "lobbying")

MERCHANT, BROADCASTER, GUARDIAN, BANKER, SHIP_OWNER, PRIEST, SENATOR, SPY, OMNISCIENT = (
    9, 8, 7, 6, 5, 4, 3, 2, 1,
)

FAMILIES: dict[int, Family] = {
    f.value: f
    for f in (
        Family(9, "Merchant", "Marchand", "Merchants", "Marchands", "none"),
        Family(8, "Broadcaster", "Broadcaster", "Broadcasters", "Broadcasters",
               "+1 card in the distribution phase"),
        Family(7, "Guardian", "Gardien", "Guardians", "Gardiens",
               "cannot be targeted by Barbarians"),
        Family(6, "Banker", "Banquier", "Bankers", "Banquiers",
               "during own turn: take 1 VP token from the bank"),
        Family(5, "Ship Owner", "Armateur", "Ship Owners", "Armateurs",
               "order phase: may play exactly 2 different cards"),
        Family(4, "Priest", "Prêtre", "Priests", "Prêtres",
               "during own turn: may destroy one of own events"),
        Family(3, "Senator", "Sénateur", "Senators", "Sénateurs", "end phase: card limit +2"),
        Family(2, "Spy", "Espion", "Spies", "Espions",
               "during own turn: steal 1 VP token; immune to Lobbying without a Guardian"),
        Family(1, "Omniscient", "Omniscient", "Omniscients", "Omniscients",
               "wins every tie for majority powers during the rounds"),
    )
}

# Event names (EN / FR), singular and plural.
EVENT_NAMES: dict[str, tuple[str, str, str, str]] = {
    "barbarian": ("Barbarian", "Barbare", "Barbarians", "Barbares"),
    "lobbying": ("Lobbying", "Lobbying", "Lobbying", "Lobbying"),
}

# How many cards of each kind the deck has: family n has n cards; 6 Barbarians, 4 Lobbying.
DECK: dict[Kind, int] = {**{v: v for v in FAMILY_VALUES}, "barbarian": 6, "lobbying": 4}
KINDS: tuple[Kind, ...] = (*FAMILY_VALUES, *EVENTS)


def kind_name(kind: Kind, n: int = 2) -> str:
    """English name of a card kind, plural unless ``n`` is 1."""
    return shared.card_name(FAMILIES, EVENT_NAMES, kind, n)


# --------------------------------------------------------------------------- final scoring


@dataclass(frozen=True)
class PlayerScore:
    """One player's final score: points per family (index 0 is family 1), −1 per event,
    +1 per VP token."""

    name: str
    families: tuple[int, ...]
    events: int
    tokens: int

    @property
    def total(self) -> int:
        return sum(self.families) + self.events + self.tokens

    def breakdown(self) -> dict[str, int]:
        """Every part of the total, by name; the values add up to ``total``."""
        parts = {f"family_{v}": p for v, p in zip(FAMILY_VALUES, self.families, strict=True)}
        return {**parts, "events": self.events, "tokens": self.tokens}


@dataclass(frozen=True)
class FinalScore:
    players: tuple[PlayerScore, ...]
    holders: dict[int, str | None]  # family -> strict majority holder (ties: None)
    winners: tuple[str, ...]  # tied players share the victory (our ruling)


def final_score(
    players: Sequence[str], areas: Mapping[str, Area], tokens: Mapping[str, int]
) -> FinalScore:
    """Koryŏ final scoring: each family's strict majority holder scores its value (ties score
    nothing, the Omniscient does not break them); −1 per event in front; +1 per VP token."""
    order = list(players)
    full = {p: areas.get(p, Area()) for p in order}
    holders = shared.scoring_holders(full, order)
    scores = tuple(
        PlayerScore(
            name=p,
            families=tuple(v if holders[v] == p else 0 for v in FAMILY_VALUES),
            events=-full[p].events,
            tokens=tokens.get(p, 0),
        )
        for p in order
    )
    winners = shared.best({s.name: s.total for s in scores}, order)
    return FinalScore(scores, holders, winners)


def result(final: FinalScore, areas: Mapping[str, Area]) -> dict:
    """``final`` JSON-ready, with each player's cards (``areas``): what ``companion score
    --json`` prints and the game's final view holds."""
    return shared.result_dict(GAME, FAMILIES, final, areas)


# --------------------------------------------------------------------------- in-game state

SETUP, ORDERS, MAIN, END, OVER = "setup", "orders", "main", "end", "over"
BARBARIAN, LOBBYING = EVENTS


@dataclass(frozen=True)
class Turn:
    """The current player's turn in the main phase: what they revealed, the event effects
    they have yet to resolve (optional) and the once-per-turn powers already used."""

    revealed: bool = False
    barbarians: int = 0  # Barbarian destructions still available this turn
    lobbyings: int = 0  # Lobbying swaps still available this turn
    used: frozenset[str] = frozenset()  # "banker", "priest", "spy"


@dataclass(frozen=True)
class State(shared.MajorityState):
    """A Koryŏ game in progress. Seat-indexed tuples follow ``players`` (clockwise)."""

    vp_tokens: ClassVar[int] = VP_TOKENS

    players: tuple[str, ...]
    areas: tuple[Area, ...]
    tokens: tuple[int, ...]
    first: int = 0  # seat of the first-player token
    round: int = 0  # 1–8 once started
    phase: str = SETUP
    deals: tuple[int, ...] = ()  # cards dealt to each seat this round
    ship_owner: str | None = None  # Ship Owner majority at the order phase
    turn_index: int = 0  # turns played this round (main phase)
    turn: Turn = Turn()

    @property
    def current_player(self) -> str | None:
        if self.phase not in (ORDERS, MAIN):
            return None
        return self.player_on_turn()


def new_game(players: Sequence[str], first_player: str | None = None) -> State:
    """A game before round 1: empty areas, the 8 VP tokens in the bank."""
    names, first = shared.seat_players(players, first_player, "Koryŏ", MIN_PLAYERS, MAX_PLAYERS)
    return State(names, tuple(Area() for _ in names), tuple(0 for _ in names), first)


# -- queries ----------------------------------------------------------------------------------


def omniscient(state: State) -> str | None:
    """The player holding the Omniscient (#1), who wins ties during the rounds."""
    return _omniscient(state.players, state.areas)


def _omniscient(players: tuple[str, ...], areas: tuple[Area, ...]) -> str | None:
    return next((p for p, a in zip(players, areas, strict=True) if a[OMNISCIENT]), None)


def majority_of(state: State, family: int) -> shared.Majority:
    """The live majority of ``family`` during the rounds: ties go to the Omniscient holder."""
    return _majority(state.players, state.areas, family)


@lru_cache(maxsize=1024)
def _majority(players: tuple[str, ...], areas: tuple[Area, ...], family: int) -> shared.Majority:
    """Remembered for the tables seen last: one state's powers, limits, protections and
    view ask for the same majorities many times, and most actions leave the areas as
    they were."""
    counts = {p: a[family] for p, a in zip(players, areas, strict=True)}
    breaker = _omniscient(players, areas)
    return shared.majority(family, counts, players, breaker, FAMILIES[OMNISCIENT].en)


def majorities(state: State) -> dict[int, shared.Majority]:
    return {v: majority_of(state, v) for v in FAMILY_VALUES}


def holder(state: State, family: int) -> str | None:
    return majority_of(state, family).holder


def round_limit(state: State, player: str) -> int:
    """The season's card limit, +2 for the Senator majority."""
    return _limit_checks(state.players, state.areas, state.round)[state.seat(player)].limit


def limit_check(state: State) -> list[shared.LimitCheck]:
    """End phase: every card counts (events too), but only characters can be discarded."""
    return list(_limit_checks(state.players, state.areas, state.round))


@lru_cache(maxsize=256)
def _limit_checks(
    players: tuple[str, ...], areas: tuple[Area, ...], round_no: int
) -> tuple[shared.LimitCheck, ...]:
    senators = _majority(players, areas, SENATOR).holder
    return tuple(
        _limit_of(round_no, senators, p, area) for p, area in zip(players, areas, strict=True)
    )


def _limit_of(round_no: int, senators: str | None, player: str, area: Area) -> shared.LimitCheck:
    lim = shared.limit(round_no) + (2 if senators == player else 0)  # the Senator majority: +2
    excess = min(area.characters, max(0, area.total - lim))
    return shared.LimitCheck(player, area.total, lim, excess)


def barbarian_proof(state: State, player: str) -> bool:
    """The Guardian majority cannot be targeted by Barbarians."""
    return holder(state, GUARDIAN) == player


def lobbying_proof(state: State, player: str) -> bool:
    """The Spy majority cannot be targeted by Lobbying, unless it has a Guardian in play."""
    return holder(state, SPY) == player and state.area(player)[GUARDIAN] == 0


def barbarian_targets(state: State, player: str) -> list[str]:
    """The players a Barbarian of ``player`` can hit: others, not Guardian-proof, with a
    character in play."""
    return [q for q in state.players if q != player and not barbarian_proof(state, q)
            and state.area(q).characters]


def lobbying_targets(state: State) -> list[str]:
    """The players a Lobbying can swap with: not Spy-proof, with a character in play (a swap
    needs two of them)."""
    return [q for q in state.players if not lobbying_proof(state, q) and state.area(q).characters]


def protections(state: State) -> list[shared.Protection]:
    out = []
    for p in state.players:
        if barbarian_proof(state, p):
            out.append(shared.Protection(
                p, (BARBARIAN,), "Guardian majority",
                f"{p} cannot be targeted by Barbarians — Guardians", GUARDIAN))
        if lobbying_proof(state, p):
            out.append(shared.Protection(p, (LOBBYING,), "Spy majority without a Guardian",
                                         f"{p} cannot be targeted by Lobbying — Spies", SPY))
    return out


def powers(state: State) -> list[Power]:
    """What each player may or must do in the current phase."""
    out: list[Power] = []
    if state.phase == ORDERS:
        if (b := holder(state, BROADCASTER)) is not None and state.turn_index == 0:
            out.append(Power(b, "deal_bonus", False, f"{b}: deal 1 more card — Broadcasters",
                             BROADCASTER))
        if state.ship_owner is not None:
            s = state.ship_owner
            out.append(Power(s, "two_different", False,
                             f"{s} may order exactly 2 different cards — Ship Owners", SHIP_OWNER))
    if state.phase in (ORDERS, MAIN):
        out += _turn_powers(state)
    if state.phase == END:
        if (s := holder(state, SENATOR)) is not None:
            out.append(Power(s, "limit_plus_2", False, f"{s} may keep 2 more cards — Senators",
                             SENATOR))
        for c in limit_check(state):
            if c.excess:
                out.append(Power(c.player, "discard", True,
                                 f"{c.player} must discard {c.excess} character"
                                 f"{'s' if c.excess > 1 else ''} — limit {c.limit}"))
    return out


def _turn_powers(state: State) -> list[Power]:
    p = state.current_player
    assert p is not None
    t, out = state.turn, []
    others_with_tokens = [q for q in state.players if q != p and state.tokens_of(q)]
    if holder(state, BANKER) == p and "banker" not in t.used and state.bank:
        out.append(Power(p, "take_vp", False, f"{p} may take a VP — Bankers", BANKER))
    if holder(state, PRIEST) == p and "priest" not in t.used and state.area(p).events:
        out.append(Power(p, "destroy_event", False, f"{p} may destroy one of their events — "
                                                     "Priests", PRIEST))
    if holder(state, SPY) == p and "spy" not in t.used and others_with_tokens:
        out.append(Power(p, "steal_vp", False, f"{p} may steal a VP — Spies", SPY))
    # An event's power is offered only when some move can use it (a 2-player Lobbying played
    # by the Spy majority has nobody to swap with).
    if t.barbarians and barbarian_targets(state, p):
        out.append(Power(p, "destroy", False,
                         f"{p} may destroy {t.barbarians} character "
                         f"{'card' if t.barbarians == 1 else 'cards'} of other players — Barbarians"))
    if t.lobbyings and len(lobbying_targets(state)) >= 2:
        out.append(Power(p, "swap", False,
                         f"{p} may swap {t.lobbyings} {'pair' if t.lobbyings == 1 else 'pairs'} of "
                         "character cards — Lobbying"))
    return out


# -- actions ----------------------------------------------------------------------------------
# Shared with Chosŏn (engine.majority): StartRound (deal 11 − r cards, +1 with the
# Broadcaster majority), Reveal, Destroy (the Barbarian), Swap (Lobbying), EndTurn, Discard
# (never events) and EndRound (the first-player token passes).


class TakeVP(shared.Action, name="take_vp"):
    """Banker majority: take 1 VP token from the bank (once per own turn)."""

    player: str


class StealVP(shared.Action, name="steal_vp"):
    """Spy majority: steal 1 VP token from another player (once per own turn)."""

    player: str
    victim: str


class DestroyEvent(shared.Action, name="destroy_event"):
    """Priest majority: destroy one of own events (once per own turn)."""

    player: str
    event: str


ACTIONS: dict[str, type] = {
    cls.name: cls
    for cls in (shared.StartRound, shared.Reveal, shared.Destroy, shared.Swap, TakeVP, StealVP,
                DestroyEvent, shared.EndTurn, shared.Discard, shared.EndRound)
}


def action_from_dict(data: Mapping) -> shared.Action:
    return shared.action_from_dict(data, ACTIONS)


def apply(state: State, action: shared.Action) -> State:
    """The state after ``action``, or ``RuleError`` saying why the rules refuse it."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("action", f"{action!r} is not a Koryŏ action", code="not_an_action")
    return handler(state, action)


def is_legal(state: State, action: shared.Action) -> bool:
    return shared.legal(apply, state, action)


def score(state: State) -> FinalScore:
    """Final scoring of the cards and tokens in play (meant for the end of round 8)."""
    return final_score(
        state.players, dict(zip(state.players, state.areas, strict=True)),
        dict(zip(state.players, state.tokens, strict=True)),
    )


# -- rules of each action ---------------------------------------------------------------------


def _own_turn(state: State, player: str) -> None:
    shared.seated(state, player, "player")
    if state.phase not in (ORDERS, MAIN):
        raise RuleError("player", f"not the main phase (phase: {state.phase})",
                        code="not_main_phase")
    if state.current_player != player:
        raise RuleError("player", f"it is {state.current_player}'s turn, not {player}'s",
                        code="not_your_turn",
                        params={"current": state.current_player, "player": player})


def _majority_power(state: State, player: str, family: int, power: str) -> None:
    f = FAMILIES[family]
    if holder(state, family) != player:
        raise RuleError("player", f"{player} does not hold the {f.en} majority",
                        code="no_majority", params={"player": player, "family": family})
    if power in state.turn.used:
        raise RuleError("player", f"{player} already used the {f.en} power this turn",
                        code="power_used", params={"player": player, "family": family})


def _start_round(state: State, action: shared.StartRound) -> State:
    if state.phase != SETUP:
        raise RuleError("phase", f"the round is not over (phase: {state.phase})",
                        code="round_not_over")
    r = state.round + 1
    b = holder(state, BROADCASTER)
    deals = tuple(shared.deal(r) + (1 if p == b else 0) for p in state.players)
    return replace(state, round=r, phase=ORDERS, deals=deals,
                   ship_owner=holder(state, SHIP_OWNER), turn_index=0, turn=Turn())


def order_refusal(cards: Area, may_mix: bool) -> str | None:
    """Why an order is illegal, or None: one family or one event type, any number; the Ship
    Owner majority may instead order exactly 2 different cards."""
    if len(cards.items) <= 1:
        return None
    if may_mix and cards.total == 2:
        return None
    if may_mix:
        return "with the Ship Owner majority: identical cards, or exactly 2 different cards"
    return "an order is identical cards only: one family or one event type"


def _reveal(state: State, action: shared.Reveal) -> State:
    p = action.player
    _own_turn(state, p)
    if state.turn.revealed:
        raise RuleError("player", f"{p} has already revealed this turn",
                        code="already_revealed", params={"player": p})
    cards = action.cards
    shared.check_revealed(cards, DECK, lambda kind: sum(a[kind] for a in state.areas), "Koryŏ",
                          kind_name)
    dealt = state.deals[state.seat(p)]
    if cards.total > dealt:
        raise RuleError("cards", f"{cards.total} cards, but {p} was dealt {dealt}",
                        code="dealt_player",
                        params={"total": cards.total, "player": p, "dealt": dealt})
    why = order_refusal(cards, state.ship_owner == p)
    if why:
        raise RuleError("cards", why, code="order_ship_owner" if state.ship_owner == p
                        else "order_identical")
    turn = replace(state.turn, revealed=True, barbarians=cards[BARBARIAN],
                   lobbyings=cards[LOBBYING])
    state = shared.with_area(state, p, state.area(p).plus(cards))
    return replace(state, phase=MAIN, turn=turn)


def _take_character(state: State, owner: str, family: int, field: str) -> State:
    if state.area(owner)[family] == 0:
        raise RuleError(field, f"{owner} has no {kind_name(family, 1)} in play",
                        code="not_in_play", params={"player": owner, "family": family})
    return shared.with_area(state, owner, state.area(owner).add(family, -1))


def _destroy(state: State, action: shared.Destroy) -> State:
    p, target = action.player, shared.seated(state, action.target, "target")
    _own_turn(state, p)
    family = shared.family_value(action.family, "family")
    if state.turn.barbarians == 0:
        raise RuleError("player", f"{p} has no Barbarian to resolve this turn",
                        code="no_barbarian", params={"player": p})
    if target == p:
        raise RuleError("target", "a Barbarian destroys a card of another player",
                        code="barbarian_own")
    if barbarian_proof(state, target):
        raise RuleError("target", f"{target} holds the Guardian majority: Barbarians cannot "
                                  "target them", code="guardian_protects",
                        params={"player": target})
    state = _take_character(state, target, family, "family")
    return replace(state, phase=MAIN,
                   turn=replace(state.turn, barbarians=state.turn.barbarians - 1))


def _swap(state: State, action: shared.Swap) -> State:
    p = action.player
    _own_turn(state, p)
    a, b = shared.seated(state, action.a, "a"), shared.seated(state, action.b, "b")
    fa = shared.family_value(action.a_family, "a_family")
    fb = shared.family_value(action.b_family, "b_family")
    if state.turn.lobbyings == 0:
        raise RuleError("player", f"{p} has no Lobbying to resolve this turn",
                        code="no_lobbying", params={"player": p})
    if a == b:
        raise RuleError("b", "Lobbying swaps cards between two different players",
                        code="swap_same")
    for who, field in ((a, "a"), (b, "b")):
        if lobbying_proof(state, who):
            raise RuleError(field, f"{who} holds the Spy majority without a Guardian: Lobbying "
                                   "cannot target them", code="spy_protects",
                            params={"player": who})
    state = _take_character(state, a, fa, "a_family")
    state = _take_character(state, b, fb, "b_family")
    state = shared.with_area(state, a, state.area(a).add(fb))
    state = shared.with_area(state, b, state.area(b).add(fa))
    return replace(state, phase=MAIN,
                   turn=replace(state.turn, lobbyings=state.turn.lobbyings - 1))


def _use(state: State, power: str) -> State:
    return replace(state, phase=MAIN, turn=replace(state.turn, used=state.turn.used | {power}))


def _take_vp(state: State, action: TakeVP) -> State:
    p = action.player
    _own_turn(state, p)
    _majority_power(state, p, BANKER, "banker")
    if state.bank == 0:
        raise RuleError("player", "the bank has no VP token left", code="bank_empty")
    return _use(shared.with_tokens(state, p, 1), "banker")


def _steal_vp(state: State, action: StealVP) -> State:
    p, victim = action.player, shared.seated(state, action.victim, "victim")
    _own_turn(state, p)
    _majority_power(state, p, SPY, "spy")
    if victim == p:
        raise RuleError("victim", "the Spies steal from another player", code="steal_own")
    if state.tokens_of(victim) == 0:
        raise RuleError("victim", f"{victim} has no VP token", code="no_vp",
                        params={"player": victim})
    return _use(shared.with_tokens(shared.with_tokens(state, victim, -1), p, 1), "spy")


def _destroy_event(state: State, action: DestroyEvent) -> State:
    p = action.player
    _own_turn(state, p)
    _majority_power(state, p, PRIEST, "priest")
    if action.event not in EVENTS:
        raise RuleError("event", f"{action.event!r} is not an event (barbarian, lobbying)",
                        code="not_an_event", params={"card": action.event})
    if state.area(p)[action.event] == 0:
        raise RuleError("event", f"{p} has no {kind_name(action.event, 1)} in front of them",
                        code="no_event", params={"player": p, "event": action.event})
    return _use(shared.with_area(state, p, state.area(p).add(action.event, -1)), "priest")


def _end_turn(state: State, action: shared.EndTurn) -> State:
    _own_turn(state, action.player)
    nxt = state.turn_index + 1
    if nxt == len(state.players):
        return replace(state, phase=END, turn_index=nxt, turn=Turn())
    return replace(state, phase=MAIN, turn_index=nxt, turn=Turn())


def _discard(state: State, action: shared.Discard) -> State:
    p = shared.seated(state, action.player, "player")
    if state.phase != END:
        raise RuleError("phase", "cards are discarded to the limit in the end phase",
                        code="discard_phase")
    if action.family in EVENTS:
        raise RuleError("family", "events can never be discarded to the limit (only a Priest "
                                  "majority destroys them)", code="discard_event")
    family = shared.family_value(action.family, "family")
    check = _limit_of(state.round, holder(state, SENATOR), p, state.area(p))
    return shared.discard_down(state, p, family, action.count, check, kind_name,
                               characters=False)


def _end_round(state: State, action: shared.EndRound) -> State:
    if state.phase != END:
        raise RuleError("phase", f"the round is not at its end phase (phase: {state.phase})",
                        code="round_not_ending")
    shared.check_within_limit(limit_check(state), characters=False)
    first = (state.first + 1) % len(state.players)
    phase = OVER if state.round == ROUNDS else SETUP
    return replace(state, first=first, phase=phase, deals=(), ship_owner=None, turn_index=0,
                   turn=Turn())


_HANDLERS: dict[type, Callable[[State, Any], State]] = {
    shared.StartRound: _start_round, shared.Reveal: _reveal, shared.Destroy: _destroy,
    shared.Swap: _swap, TakeVP: _take_vp, StealVP: _steal_vp, DestroyEvent: _destroy_event,
    shared.EndTurn: _end_turn, shared.Discard: _discard, shared.EndRound: _end_round,
}
