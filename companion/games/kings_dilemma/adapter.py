"""The King's Dilemma at the table: the Session rules adapter for a game night, and the seat
pads that cast each seat's vote (button grammar: docs/button-grammar.md).

Its length: the night's actions, public view and the seat pads share the night's state
and its secrecy rules, kept in one place so nothing leaks between them.

A game night is a series of dilemmas. For each: ``dilemma`` starts a vote (open or secret),
the vote's actions follow (``companion.games.kings_dilemma.vote``), then ``outcome`` applies the chosen
side's resource changes to the kingdom (``companion.games.kings_dilemma.kingdom``). The game ends when
the king abdicates or dies; ``score`` then scores it the same as ``companion score``, and
``campaign_record`` gives the campaign ledger its ``record_game`` action. The setup, the
actions as journaled and the public view's keys are in docs/kings-dilemma-night.md.

Secrecy: while a secret vote waits for ballots, the state's ``vote.sealed`` holds them and
nothing else does; ``public_view`` never reads it, ``SeatPads`` keeps pending presses out
of every view and publishes nothing, logs nothing and shows nothing for a press that only
changes a seat's pending choice (or is refused) in a secret vote.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.kings_dilemma import buttons as kd_buttons
from companion.games.kings_dilemma import data as kd_data
from companion.games.kings_dilemma import kingdom as kd_kingdom
from companion.games.kings_dilemma import score as kd_score
from companion.games.kings_dilemma import vote as kd_vote
from companion.games.kings_dilemma.campaign import (
    ABDICATED_BOTTOM,
    ABDICATED_TOP,
    KING_DIED,
    Campaign,
)
from companion.play import turns as shared
from companion.play.errors import RuleError, counted, listed
from companion.play.seat import ButtonEvent, Light
from companion.play.seating import check_setup, seat_indexes
from companion.play.session import Listeners
from companion.play.turns import Reply, Turns

log = logging.getLogger(__name__)

GAME = kd_vote.GAME
COUNCIL, VOTE, OUTCOME, OVER, SCORED = "council", "vote", "outcome", "over", "scored"
SETUP_KEYS = ("players", "seats", "campaign", "leader", "moderator", "power", "coins",
              "balance", "momenta", "kingdom", "public")
VOTE_ACTIONS = tuple(kd_vote.ACTIONS)


class VoteHistory:
    """The resolved votes of a night, oldest first; immutable to its readers (iterate,
    ``len``, index, compare). ``add`` gives the longer history in O(1): it shares its
    predecessor's list, copying it only when that one was added to already (a state
    branched from), so replaying a night of n votes costs O(n), not the O(n²) of a
    tuple copied at every vote."""

    __slots__ = ("_items", "_n", "_tuple")

    def __init__(self, items: tuple[dict, ...] | list[dict] = ()) -> None:
        self._items = list(items)
        self._n = len(self._items)
        self._tuple: tuple[dict, ...] | None = None

    _adding = threading.Lock()  # two threads adding to one history must not share a list

    def add(self, summary: dict) -> VoteHistory:
        longer = VoteHistory.__new__(VoteHistory)
        with VoteHistory._adding:
            if len(self._items) == self._n:
                longer._items = self._items  # nobody has added to this one: share its list
            else:
                longer._items = self._items[: self._n]
            longer._items.append(summary)
        longer._n = self._n + 1
        longer._tuple = None
        return longer

    def as_tuple(self) -> tuple[dict, ...]:
        """The summaries as a tuple, made once for this history, the summaries themselves
        not copied: every read goes through it (the public view's, between two votes, is
        one and the same tuple; an index costs no copy of the night)."""
        if self._tuple is None:
            self._tuple = tuple(self._items[: self._n])
        return self._tuple

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[dict]:
        return iter(self.as_tuple())

    def __getitem__(self, index: int) -> dict:
        return self.as_tuple()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, VoteHistory):
            return self.as_tuple() == other.as_tuple()
        if isinstance(other, (tuple, list)):
            return self.as_tuple() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  (like the dicts it holds)

    def __repr__(self) -> str:
        return f"VoteHistory({list(self.as_tuple())!r})"

    def __reduce__(self) -> tuple:
        """Pickled (a journal snapshot, made in another thread) as its own items only:
        never the shared list, which a longer history may be adding to meanwhile."""
        return VoteHistory, (self.as_tuple(),)


@dataclass(frozen=True)
class Night:
    """A game night. Between votes the council's fields hold power, coins, Balance and the
    tokens; during a vote ``vote`` holds them (``money``). ``vote`` keeps secret ballots
    sealed until the reveal: never show it, show ``public_view``."""

    players: tuple[str, ...]
    seats: tuple[int, ...]
    show_power: bool
    show_coins: bool
    power: tuple[int, ...]
    coins: tuple[int, ...]
    balance: int
    leader: int
    moderator: int
    kingdom: kd_kingdom.Kingdom
    phase: str = COUNCIL
    round: int = 0
    card: str | None = None
    vote: kd_vote.Vote | None = None
    moves: tuple[kd_kingdom.Move, ...] = ()
    history: VoteHistory = field(default_factory=VoteHistory)
    ended: str | None = None
    final: dict | None = None
    cards: tuple[tuple[str, str], ...] = ()

    def seat_of(self, player: Any, field: str = "player") -> int:
        if player not in self.players:
            raise RuleError(field, f"{player!r} is not one of the players "
                                   f"({', '.join(self.players)})",
                            code="not_at_table",
                            params={"player": repr(player), "names": ", ".join(self.players)})
        return self.players.index(player)

    def money(self) -> tuple[tuple[int, ...], tuple[int, ...], int, int, int]:
        """(power, coins, balance, leader seat, moderator seat) as they stand now."""
        if self.phase == VOTE and self.vote is not None:
            v = self.vote
            return v.power, v.coins, v.balance, v.leader, v.moderator
        return self.power, self.coins, self.balance, self.leader, self.moderator


# --------------------------------------------------------------------------- setup


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) and p.strip() for p in value):
        raise RuleError("players", "expected a list of player (house) names, clockwise",
                        code="house_names")
    if not kd_vote.MIN_PLAYERS <= len(value) <= kd_vote.MAX_PLAYERS:
        raise RuleError("players", f"{counted(len(value), 'player', 'players')}, but the game "
                                   "takes "
                                   f"{kd_vote.MIN_PLAYERS}–{kd_vote.MAX_PLAYERS}",
                        code="player_count",
                        params={"n": len(value), "low": kd_vote.MIN_PLAYERS,
                                "high": kd_vote.MAX_PLAYERS})
    if len(set(value)) != len(value):
        raise RuleError("players", "a player is seated twice", code="seated_twice")
    return tuple(value)


def _set(values: tuple, seat: int, value: Any) -> tuple:
    out = list(values)
    out[seat] = value
    return tuple(out)


def _count(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleError(field, f"expected a whole number ≥ 0, got {value!r}",
                        code="whole_number_at_least_0", params={"value": repr(value)})
    return value


def _per_player(setup: Mapping, key: str, names: tuple[str, ...], default: int
                ) -> tuple[int, ...]:
    block = setup.get(key, {})
    if not isinstance(block, Mapping):
        raise RuleError(key, "expected {player: number}", code="per_player_numbers")
    for p in block:
        if p not in names:
            raise RuleError(f"{key}.{p}", f"{p!r} is not one of the players",
                            code="not_a_player", params={"player": repr(p)})
    return tuple(_count(block.get(p, default), f"{key}.{p}") for p in names)


def _kingdom(setup: Mapping, data: Any) -> kd_kingdom.Kingdom:
    if "kingdom" in setup:
        if "momenta" in setup:
            raise RuleError("momenta", "give either the kingdom as it stands or the momenta",
                            code="kingdom_or_momenta")
        try:
            return kd_kingdom.Kingdom.from_dict(setup["kingdom"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RuleError("kingdom", f"not a kingdom board ({exc})",
                            code="not_a_kingdom", params={"error": str(exc)}) from None
    momenta = setup.get("momenta")
    if not isinstance(momenta, Mapping):
        raise RuleError("momenta", "missing: which side (up or down) is each resource "
                                   "marker on? (or give the kingdom as it stands)",
                        code="momenta_missing")
    for key in momenta:
        if key not in kd_kingdom.RESOURCES:
            raise RuleError(f"momenta.{key}", f"not a resource ({', '.join(kd_kingdom.RESOURCES)})",
                            code="not_a_resource_key",
                            params={"resources": ", ".join(kd_kingdom.RESOURCES)})
    low, high = data.stability
    return kd_kingdom.setup(data.track, low, high, momenta)


def new_night(setup: Mapping) -> Night:
    """The night's first council, from ``setup`` (see the module docstring)."""
    check_setup(setup, SETUP_KEYS)
    data = kd_data.shipped()
    names = _names(setup.get("players"))
    seats = seat_indexes(setup, len(names))
    start_power = dict.fromkeys(names, data.start_power)
    start_coins = dict.fromkeys(names, data.start_coins)
    leader, moderator = setup.get("leader"), setup.get("moderator")
    if "campaign" in setup:
        try:
            ledger = Campaign.from_dict(setup["campaign"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RuleError("campaign", f"not a campaign ledger ({exc})",
                            code="not_a_ledger", params={"error": str(exc)}) from None
        decided = ledger.setup(names)
        for key in ("leader", "moderator"):
            if key in setup:
                raise RuleError(key, "given by the campaign ledger (prestige order)",
                                code="given_by_ledger")
        leader, moderator = decided.leader, decided.moderator
        start_power, start_coins = decided.power, decided.coins
    for key, name in (("leader", leader), ("moderator", moderator)):
        if name is None:
            raise RuleError(key, "missing (highest prestige leads, lowest moderates)",
                            code="leader_moderator_missing")
        if name not in names:
            raise RuleError(key, f"{name!r} is not one of the players",
                            code="not_a_player", params={"player": repr(name)})
    public = setup.get("public", {})
    if not isinstance(public, Mapping) or not set(public) <= {"power", "coins"} or not all(
        isinstance(v, bool) for v in public.values()
    ):
        raise RuleError("public", "expected {power: true|false, coins: true|false}",
                        code="public_flags")
    return Night(
        players=names,
        seats=seats,
        show_power=public.get("power", True),
        show_coins=public.get("coins", True),
        power=_per_player(setup, "power", names, 0) if "power" in setup
        else tuple(start_power[p] for p in names),
        coins=_per_player(setup, "coins", names, 0) if "coins" in setup
        else tuple(start_coins[p] for p in names),
        balance=_count(setup.get("balance", data.balance), "balance"),
        leader=names.index(leader),
        moderator=names.index(moderator),
        kingdom=_kingdom(setup, data),
    )


# --------------------------------------------------------------------------- actions


def _fields(action: Mapping, allowed: set[str]) -> None:
    for key in action:
        if key != "action" and key not in allowed:
            raise RuleError(str(key), f"not a field of {action['action']}",
                            code="not_a_field", params={"name": action["action"]})


def _waiting(vote: kd_vote.Vote) -> RuleError:
    """The refusal of an action while ``vote`` is unresolved: what it waits for."""
    moderator = vote.moderator_name
    if vote.phase == kd_vote.TIE:
        return RuleError("action", f"the vote is tied: the moderator {moderator} breaks the tie "
                                   "first (break-tie aye or nay)",
                         code="waits_tie_break", params={"moderator": moderator})
    if vote.phase == kd_vote.LEADER_CHOICE:
        names = tuple(vote.players[s] for s in vote.candidates)
        return RuleError("action", f"the moderator {moderator} first gives the Leader token to "
                                   f"one of the winners, {listed(names)} (choose-leader)",
                         code="waits_leader_choice",
                         params={"moderator": moderator, "names": names})
    if vote.mode == kd_vote.OPEN:
        return RuleError("action", f"the vote is in progress: it is {vote.current_player}'s "
                                   "turn", code="waits_turn",
                         params={"player": vote.current_player})
    return RuleError("action", "the vote is in progress: waiting for every ballot to lock",
                     code="waits_ballots")


def _dilemma(night: Night, action: Mapping) -> Night:
    _fields(action, {"mode", "card"})
    if night.phase == VOTE and night.vote is not None:
        raise _waiting(night.vote)
    if night.phase == OUTCOME:
        raise RuleError("action", "apply the last vote's outcome first",
                        code="outcome_of_last_vote_first")
    if night.phase in (OVER, SCORED):
        raise RuleError("action", "the game is over", code="game_over")
    card = action.get("card")
    if card is not None and not isinstance(card, str):
        raise RuleError("card", f"expected the dilemma's name, got {card!r}",
                        code="dilemma_name", params={"value": repr(card)})
    vote = kd_vote.new_vote(
        night.players,
        leader=night.players[night.leader],
        moderator=night.players[night.moderator],
        power=dict(zip(night.players, night.power, strict=True)),
        coins=dict(zip(night.players, night.coins, strict=True)),
        balance=night.balance,
        mode=action.get("mode", kd_vote.OPEN),
    )
    return replace(night, phase=VOTE, round=night.round + 1, card=card, vote=vote, moves=())


def _vote_action(night: Night, action: Mapping) -> Night:
    if night.vote is None or night.phase not in (VOTE, OUTCOME):
        raise RuleError("action", "no vote in progress: read a dilemma first", code="no_vote")
    try:
        act = kd_vote.action_from_dict(action)
    except TypeError as exc:
        raise RuleError("action", f"{action.get('action')}: {exc}",
                        code="bad_action",
                        params={"name": action.get("action"), "error": str(exc)}) from None
    vote = kd_vote.apply(night.vote, act)
    night = replace(night, vote=vote)
    if vote.phase != kd_vote.DONE:
        return night
    # Debug: the rules run again at every resume, a line per vote would be thousands.
    log.debug("round %d: the vote is resolved: %s (aye %d, nay %d)", night.round,
             vote.outcome, vote.totals()[kd_vote.AYE], vote.totals()[kd_vote.NAY])
    summary = {"round": night.round, "card": night.card, "mode": vote.mode,
               "outcome": vote.outcome, "totals": vote.totals()}
    return replace(night, phase=OUTCOME, power=vote.power, coins=vote.coins,
                   balance=vote.balance, leader=vote.leader, moderator=vote.moderator,
                   history=night.history.add(summary))


def _outcome(night: Night, action: Mapping) -> Night:
    _fields(action, {"changes", "king_dies"})
    if night.phase == VOTE and night.vote is not None:
        raise _waiting(night.vote)
    if night.phase != OUTCOME:
        raise RuleError("action", "no resolved vote waits for its outcome", code="no_outcome_waits")
    raw = action.get("changes", [])
    if not isinstance(raw, list):
        raise RuleError("changes", "expected a list of {resource, amount}", code="changes_list")
    changes = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping) or set(item) != {"resource", "amount"}:
            raise RuleError(f"changes.{i}", "expected {resource: name, amount: ±n}",
                            code="change_item")
        changes.append(kd_kingdom.Change(item["resource"], item["amount"]))
    king_dies = action.get("king_dies", False)
    if not isinstance(king_dies, bool):
        raise RuleError("king_dies", f"expected true or false, got {king_dies!r}",
                        code="true_or_false", params={"value": repr(king_dies)})
    kingdom, moves = kd_kingdom.apply_outcome(night.kingdom, changes)
    night = replace(night, kingdom=kingdom, moves=moves, phase=COUNCIL, card=None)
    if kingdom.abdicated:
        return _over(night, ABDICATED_TOP if kingdom.abdication == kd_kingdom.TOP else ABDICATED_BOTTOM)
    if king_dies:
        return _over(night, KING_DIED)
    return night


def _over(night: Night, end: str) -> Night:
    log.info("the game is over: %s", end)
    return replace(night, phase=OVER, ended=end)


def _king_dies(night: Night, action: Mapping) -> Night:
    _fields(action, set())
    if night.phase == VOTE and night.vote is not None:
        raise _waiting(night.vote)
    if night.phase != COUNCIL:
        over = night.phase in (OVER, SCORED)
        raise RuleError("action", "the game is over" if over
                        else "apply the vote's outcome (with king_dies: true)",
                        code="game_over" if over else "outcome_first")
    return _over(night, KING_DIED)


def _not_over(night: Night) -> None:
    if night.phase in (OVER, SCORED):
        raise RuleError("action", "the game is over", code="game_over")


def _with_money(night: Night, power: tuple[int, ...], coins: tuple[int, ...]) -> Night:
    if night.phase == VOTE and night.vote is not None:
        return replace(night, vote=replace(night.vote, power=power, coins=coins))
    return replace(night, power=power, coins=coins)


def _delta(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(field, f"expected a whole number (+ or −), got {value!r}",
                        code="signed_whole_number", params={"value": repr(value)})
    return value


def _adjust(night: Night, action: Mapping) -> Night:
    _fields(action, {"player", "power", "coins"})
    _not_over(night)
    seat = night.seat_of(action.get("player"))
    p = night.players[seat]
    dp, dc = _delta(action.get("power", 0), "power"), _delta(action.get("coins", 0), "coins")
    if dp and night.phase == VOTE:
        raise RuleError("power", "power can't change during a vote", code="power_frozen")
    power, coins, *_ = night.money()
    if power[seat] + dp < 0:
        raise RuleError("power", f"{p} has only {power[seat]} power",
                        code="only_power", params={"player": p, "has": power[seat]})
    if coins[seat] + dc < 0:
        raise RuleError("coins", f"{p} has only {counted(coins[seat], 'coin', 'coins')}",
                        code="only_coins", params={"player": p, "has": coins[seat]})
    return _with_money(night, _set(power, seat, power[seat] + dp),
                       _set(coins, seat, coins[seat] + dc))


def _deal(night: Night, action: Mapping) -> Night:
    _fields(action, {"from", "to", "coins"})
    _not_over(night)
    giver, taker = night.seat_of(action.get("from"), "from"), night.seat_of(action.get("to"), "to")
    if giver == taker:
        raise RuleError("to", "a deal is between two players", code="deal_two_players")
    n = action.get("coins")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise RuleError("coins", f"expected a number of coins ≥ 1, got {n!r}",
                        code="coins_at_least_1", params={"value": repr(n)})
    power, coins, *_ = night.money()
    if coins[giver] < n:
        raise RuleError("coins",
                        f"{night.players[giver]} has only {counted(coins[giver], 'coin', 'coins')}",
                        code="only_coins",
                        params={"player": night.players[giver], "has": coins[giver]})
    coins = _set(coins, giver, coins[giver] - n)
    return _with_money(night, power, _set(coins, taker, coins[taker] + n))


def _score(night: Night, action: Mapping) -> Night:
    _fields(action, {"agendas", "open_agendas", "cards"})
    if night.phase != OVER:
        scored = night.phase == SCORED
        raise RuleError("action", "already scored" if scored
                        else "the game is not over: the king reigns",
                        code="already_scored" if scored else "king_reigns")
    agendas = action.get("agendas")
    if not isinstance(agendas, Mapping):
        raise RuleError("agendas", "expected {player: {resources: n, wealth: [a, b, c]}}",
                        code="agendas_block")
    for p in night.players:
        if p not in agendas:
            raise RuleError(f"agendas.{p}", "missing: read it off the player's secret agenda",
                            code="agenda_missing")
    names = list(night.players)
    cards = _cards(night, action.get("cards", {}))
    coins = dict(zip(names, night.coins, strict=True))
    power = dict(zip(names, night.power, strict=True))
    resources = night.kingdom.positions()
    scored = kd_score.final_score(names, coins, power, resources,
                                  kd_data.read_agendas(dict(agendas), names),
                                  kd_data.read_open_agendas(action.get("open_agendas"), names))
    final = kd_score.result(scored, coins, power, resources)
    final["end"] = night.ended
    return replace(night, phase=SCORED, final=final, cards=cards)


def _cards(night: Night, value: Any) -> tuple[tuple[str, str], ...]:
    """The secret agenda cards: a known card per house named, no card twice."""
    if not isinstance(value, Mapping):
        raise RuleError("cards", "expected {player: secret agenda card}", code="agenda_cards")
    known = kd_data.shipped().settings.agendas
    seen: dict[str, str] = {}
    for name, card in value.items():
        night.seat_of(name, f"cards.{name}")
        if card not in known:
            raise RuleError(f"cards.{name}", f"{card!r} is not a secret agenda "
                                             f"({', '.join(known)})",
                            code="not_a_secret_agenda",
                            params={"agenda": repr(card), "agendas": ", ".join(known)})
        if card in seen.values():
            raise RuleError(f"cards.{name}", f"{card} was already chosen (one card each)",
                            code="agenda_taken", params={"agenda": card})
        seen[name] = card
    return tuple((p, seen[p]) for p in night.players if p in seen)


HANDLERS: dict[str, Callable[[Night, Mapping], Night]] = {
    "dilemma": _dilemma,
    **dict.fromkeys(VOTE_ACTIONS, _vote_action),
    "outcome": _outcome,
    "adjust": _adjust,
    "deal": _deal,
    "king-dies": _king_dies,
    "score": _score,
}


# --------------------------------------------------------------------------- views


def public_view(night: Night, pads: tuple[kd_vote.Pad, ...] | None = None) -> dict:
    """What screens, lights and logs may show (see the module docstring for the keys).
    ``pads`` only matter in an open vote (the choice of the seat on turn is public)."""
    power, coins, balance, leader, moderator = night.money()
    names = list(night.players)
    vote = None
    if night.vote is not None:
        vote = kd_vote.public_view(night.vote, pads if night.vote.mode == kd_vote.OPEN else None)
        if not night.show_power:
            vote.pop("power")
        if not night.show_coins:
            vote.pop("coins")
    return {
        "game": GAME,
        "players": names,
        "seats": list(night.seats),
        "phase": night.phase,
        "round": night.round,
        "card": night.card,
        "leader": names[leader],
        "moderator": names[moderator],
        "balance": balance,
        "power": dict(zip(names, power, strict=True)) if night.show_power else None,
        "coins": dict(zip(names, coins, strict=True)) if night.show_coins else None,
        "kingdom": night.kingdom.to_dict(),
        "moves": [m.to_dict() for m in night.moves],
        "vote": vote,
        # the night's own summaries, not copies: a view at every action of a 100k night
        # copied its 13,873 vote summaries (7 ms a press on the bench machine)
        "history": night.history.as_tuple(),
        "ended": night.ended,
        "final": night.final,
        "cards": dict(night.cards),
    }


def turns(view: Mapping) -> Turns:
    """Who acts (``companion.play.turns``), from a public view only.

    - open vote, voting: the seat on turn acts, and it alone is heard: the shared layer
      refuses any other seat "not your turn" (``companion.play.turns.press``), but a seat
      that passed, which the grammar tells it has nothing more to do in this vote;
    - secret vote, voting: a seat that has locked is marked BALLOT_LOCKED, every other
      seat acts (all of them at once; who has locked is public, the ballot is not);
    - a tie to break or a leader to choose: the moderator is called (ATTENTION);
    - between votes and once the result is in: the leader, who reads the next dilemma
      or the outcome, acts;
    - scored: the winners marked LEADER, the others dark;
    - otherwise the leader's seat marked LEADER, the moderator's MODERATOR (one player
      holding both tokens shows LEADER), every other seat dark.

    Every other press is read by the button grammar (``kd_buttons``); while a secret vote
    waits for ballots, presses are secret. The seats whose presses mean nothing else now
    are ``idle``, their hold asks for an undo (``companion.play.turns.asks_undo``): in a
    vote, a seat whose ballot is locked, every seat but the one on turn; from the reveal
    until the outcome is in, every seat, but none on a tie (a hold there is about the tie).
    """
    seat = dict(zip(view["players"], view["seats"], strict=True))
    seats = tuple(view["seats"])
    if view["final"] is not None:
        return Turns(seats, marks=dict.fromkeys((seat[p] for p in view["final"]["winners"]),
                                                Light.LEADER))
    marks = {seat[view["moderator"]]: Light.MODERATOR, seat[view["leader"]]: Light.LEADER}
    vote = view["vote"]
    acting: set[int] = set()
    called: set[int] = set()
    hears: frozenset[int] | None = None
    idle: set[int] = set()
    secret = False
    if vote is not None and view["phase"] in (VOTE, OUTCOME):
        idle.update(seats)  # narrowed below to the seats whose presses mean nothing else
    if view["phase"] in (COUNCIL, OUTCOME) or (view["phase"] == VOTE
                                                and vote["phase"] == kd_vote.DONE):
        acting.add(seat[view["leader"]])
    if view["phase"] == VOTE and vote is not None:
        if vote["phase"] in (kd_vote.TIE, kd_vote.LEADER_CHOICE):
            called.add(seat[vote["moderator"]])
            if vote["phase"] == kd_vote.TIE:  # every hold is about the tie: the moderator's
                idle.clear()                  # decides it, any other is told who decides
        elif vote["mode"] == kd_vote.SECRET:
            if vote["phase"] == kd_vote.VOTING:
                secret = True
                for p, state in vote["seats"].items():
                    if state["locked"]:
                        marks[seat[p]] = Light.BALLOT_LOCKED
                    else:
                        acting.add(seat[p])
                        idle.discard(seat[p])
        elif vote["turn"] is not None:
            acting.add(seat[vote["turn"]])
            if vote["phase"] == kd_vote.VOTING:
                idle.discard(seat[vote["turn"]])
                hears = frozenset(seat[p] for p, state in vote["seats"].items()
                                  if state["vote"] in kd_vote.PASSES) | {seat[vote["turn"]]}
    return Turns(seats, marks=marks, acting=frozenset(acting), called=frozenset(called),
                 hears=hears, idle=frozenset(idle), secret=secret)


def campaign_record(view: Mapping, agendas: Mapping[str, str],
                    by_hand: Mapping[str, Mapping[str, int]] | None = None) -> dict:
    """The campaign ledger's ``record_game`` action (``kd_campaign``) for a scored game:
    how it ended and each house's total from the view, the secret agenda card each house
    chose (``agendas``), prestige/crave entered by hand where the table has none."""
    final = view.get("final")
    if final is None:
        raise RuleError("final", "the game is not scored yet", code="not_scored")
    return {
        "action": "record_game",
        "end": final["end"],
        "totals": {p["name"]: p["total"] for p in final["players"]},
        "agendas": dict(agendas),
        "by_hand": {h: dict(v) for h, v in (by_hand or {}).items()},
    }


# --------------------------------------------------------------------------- rules object


class KingsDilemma:
    """The Session rules object of The King's Dilemma."""

    name = GAME

    def initial(self, setup: Mapping) -> Night:
        return new_night(setup)

    def apply(self, night: Night, action: Mapping) -> Night:
        """The night after ``action`` (an action dict, private part merged in), or
        RuleError naming the field."""
        if not isinstance(action, Mapping):
            raise RuleError("action", "expected a mapping", code="expected_mapping")
        name = action.get("action")
        handler = HANDLERS.get(name)  # type: ignore[arg-type]
        if handler is None:
            raise RuleError("action", f"{name!r} is not an action of this game "
                                      f"({', '.join(HANDLERS)})",
                            code="not_an_action_of",
                            params={"name": repr(name), "actions": ", ".join(HANDLERS)})
        return handler(night, action)

    def public_view(self, night: Night) -> dict:
        return public_view(night)

    @staticmethod
    def holds_secrets(night: Night) -> bool:
        """A secret ballot is sealed in ``night`` (a vote not yet revealed): such a state
        is never kept whole anywhere (a snapshot), as its ballots are sealed in the journal."""
        return night.vote is not None and any(b is not None for b in night.vote.sealed)

    turns = staticmethod(turns)


# --------------------------------------------------------------------------- seat pads


# What a seat's press did in a vote (``Reply.did``): a pending choice changed on its
# buttons, a ballot locked, an open vote's turn played, a tie broken.
PENDING, LOCKED, PLAYED, BROKE_TIE = "pending", "locked", "played", "broke-tie"

# The button whose long press locks (or plays) a pending choice (docs/button-grammar.md).
LOCKS_WITH = {kd_vote.AYE: "a", kd_vote.NAY: "b", kd_vote.PASS_POWER: "a"}


class SeatPads:
    """The seats' buttons on a running session: each ``ButtonEvent`` goes through the
    button grammar (``kd_buttons.press``); a long press that completes a choice dispatches the
    vote action (a secret ballot's content only in the private part).

    The pending choices live here, not in the journal: a power cut loses only presses not
    yet locked. Every press goes through the shared layer (``companion.play.turns.press``): in a
    secret vote a press that changes only a pending choice, or that is refused, changes
    nothing anyone can see: no view is published, nothing is logged and ``press`` answers
    ``SILENT``. In an open vote the pending choice of the seat on turn is public:
    ``view()`` carries it and listeners get it; a refused press raises RuleError.
    On a tie the moderator holds Aye (a) or Nay (b) to decide it. Undo through
    ``SeatPads.undo`` so that no pending choice outlives the vote it was pressed in.

    A seat whose presses mean nothing else now (``Turns.idle``: its ballot locked, its
    vote played, its decision made) and whose action is the night's last holds a button:
    its undo is asked (``UNDO_ASKED``, said on its own plate); held again: undone
    (``UNDONE``), the same undo as the touchscreen's. Who may is the shared layer's
    rule (``companion.play.turns.press``, told ``undoer``).
    """

    def __init__(self, session: Any) -> None:
        self.session = session
        self._lock = threading.RLock()
        self._pads: tuple[kd_vote.Pad, ...] = ()
        self._vote_key: tuple[int, str] | None = None
        self._listeners = Listeners()
        # the last view and what it was made of: a night's view grows with its votes, and
        # a frame asks for it several times (the screen, the plates, the lights)
        self._shown: tuple[Night, tuple[kd_vote.Pad, ...], dict] | None = None
        # the seat that held once to undo, and the journal's length then: any action
        # since (or an undo) ends the request
        self._undo_asked: tuple[int, int] | None = None
        # the night, and the seat that made its last action with that action's name
        self._undoer: tuple[Night, tuple[int, str] | None] | None = None

    def subscribe(self, listener: Callable[[dict], None]) -> Callable[[], None]:
        """``listener(view)`` after a press that changed the open vote's pending choice
        (session changes go to the session's own listeners)."""
        return self._listeners.subscribe(listener)

    def _current(self) -> tuple[Night, tuple[kd_vote.Pad, ...]]:
        night: Night = self.session.state
        if night.vote is None:
            return night, ()
        key = (night.round, night.vote.mode)
        if self._vote_key != key:  # a new vote: fresh pads
            self._vote_key, self._pads = key, kd_vote.pads_for(night.vote)
        return night, self._pads

    def undo(self) -> dict | None:
        """Take back the session's last action and forget every pending choice (a pending
        choice belongs to the vote it was pressed in); returns the undone action."""
        with self._lock:
            self._vote_key, self._pads = None, ()
            self._undo_asked = None
            return self.session.undo()

    def last_by_a_seat(self) -> tuple[int, str] | None:
        """The seat that made the night's last action and that action's name, when a seat
        made it: a vote's lock or play (a pass too), a tie break or a leader choice (None:
        a dilemma read, an outcome: the touchscreen's Undo takes those back). Read from
        the session, so it holds after a resume or an undo as after a press."""
        with self._lock:
            night = self.session.state
            if self._undoer is None or self._undoer[0] is not night:
                last = self.session.last_action()
                made = None
                if last is not None and last[0].get("action") in VOTE_ACTIONS:
                    action = last[0]
                    made = (night.seats[night.seat_of(action["player"])], action["action"])
                self._undoer = (night, made)
            return self._undoer[1]

    def undoer(self) -> int | None:
        """The one seat whose hold may take the night's last action back (None: none)."""
        made = self.last_by_a_seat()
        return None if made is None else made[0]

    def undo_asked(self) -> int | None:
        """The seat that held once to undo its last action and may hold again (None)."""
        with self._lock:
            asked = self._undo_asked
            if asked is None or asked[1] != self.session.length:
                return None
            return asked[0]

    def _hold_undo(self, seat: int) -> Reply:
        """The hold of the seat that made the last action: the first asks, the second
        undoes. Public: the seat's plate says it, and it tells nothing of any ballot."""
        if self.undo_asked() == seat:
            self.undo()
            return Reply(shared.UNDONE, view=self.view())
        self._undo_asked = (seat, self.session.length)
        return Reply(shared.UNDO_ASKED)

    def view(self) -> dict:
        """The session's public view plus, in an open vote, the pending choice on turn."""
        with self._lock:
            night, pads = self._current()
            shown = self._shown
            if shown is not None and shown[0] is night and shown[1] == pads:
                return shown[2]
            view = public_view(night, pads or None)
            self._shown = (night, pads, view)
            return view

    def private_view(self, seat: int) -> dict | None:
        """What only ``seat`` may see, for its own phone: in a secret vote, the ballot on
        its buttons (``choice``/``power``), the power behind its screen and the button
        whose hold locks it; once locked, only that it is (``{"locked": True}``: the
        player confirmed it already, and a phone that joins the seat later must learn
        nothing of it); None in any other moment. Never put in a public view, a light or
        a log."""
        with self._lock:
            night, pads = self._current()
            vote = night.vote
            if (night.phase != VOTE or vote is None or vote.mode != kd_vote.SECRET
                    or vote.phase != kd_vote.VOTING or seat not in night.seats):
                return None
            player = night.seats.index(seat)
            if vote.locked(player):
                return {"locked": True}
            pad = pads[player]
            return {"locked": False, "choice": pad.choice, "power": pad.power,
                    "behind": vote.power[player],
                    "button": LOCKS_WITH.get(pad.choice) if pad.choice else None}

    def press(self, event: ButtonEvent) -> Reply:
        """Handle one button event of a seat (``event.seat`` is the seat index): what it
        did, with the new public view when it changed the game (``PENDING``: an open
        vote's pending choice, published; ``SILENT``: a secret press)."""
        with self._lock:
            night, pads = self._current()

            said = turns(self.view())
            if shared.asks_undo(said, event):
                said = replace(said, undoer=self.undoer())

            def read(event: ButtonEvent) -> Reply:
                # a seat without a player was answered by the shared layer (watching)
                if shared.asks_undo(said, event):  # from the seat that made the last action
                    return self._hold_undo(event.seat)
                player = night.seats.index(event.seat)
                if night.phase != VOTE or night.vote is None:
                    raise RuleError("button", "no vote in progress", code="no_vote_now")
                vote = night.vote
                if vote.phase == kd_vote.TIE:  # the moderator holds Aye or Nay to decide
                    return Reply(BROKE_TIE, view=self.session.dispatch(
                        kd_buttons.break_tie(vote, player, event).to_dict()))
                new, act = kd_buttons.press(vote, pads,
                                            ButtonEvent(player, event.button, event.press))
                if act is None:  # on the seat's buttons only, not yet in the game
                    self._pads = new
                    return Reply(PENDING, public=False)
                if isinstance(act, kd_vote.Lock):
                    view = self.session.dispatch(act.public_dict(), private=act.private_dict())
                    log.info("seat %d (%s) locked a ballot", event.seat, act.player)
                    self._pads = new
                    return Reply(LOCKED, view=view)
                view = self.session.dispatch(act.to_dict())
                self._pads = new
                return Reply(PLAYED, view=view)

            reply = shared.press(said, event, read)
            if reply.did == PENDING:  # an open vote's: the seat on turn's choice is public
                return replace(reply, public=True, view=self._publish(night))
            return reply

    def _publish(self, night: Night) -> dict:
        return self._listeners.publish(public_view(night, self._pads))
