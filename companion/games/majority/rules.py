"""What Koryŏ and Chosŏn share: families of characters, the cards in front of a player and
the majority rule.

A player holds the majority of a family when they have strictly more of its cards in play
than every other player. During the rounds one player may win ties (the Omniscient holder in
Koryŏ, the owner of Yi's Shield in Chosŏn); at final scoring nobody does.

Its length: all the two games share lives here once (cards, majorities, the actions both
take and their checks, the final result's shape), so each game module keeps only its
differences; the games use it as ``shared``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import cache, lru_cache
from typing import Any, ClassVar, dataclass_transform

from companion.play.errors import RuleError, counted

# A card kind: a family value 1–9, or an event name ("barbarian", "lobbying", "event").
Kind = int | str

FAMILY_VALUES: tuple[int, ...] = tuple(range(1, 10))


@dataclass(frozen=True)
class Family:
    """One family of characters: value n means n cards in the deck, worth n points."""

    value: int
    en: str
    fr: str
    en_plural: str
    fr_plural: str
    power: str  # the majority power, in English, as the rulebook states it

    def to_dict(self) -> dict:
        return {
            "value": self.value,
            "en": self.en,
            "fr": self.fr,
            "en_plural": self.en_plural,
            "fr_plural": self.fr_plural,
            "power": self.power,
        }


def _kind_order(kind: Kind) -> tuple[int, int, str]:
    return (1, 0, kind) if isinstance(kind, str) else (0, kind, "")


@dataclass(frozen=True)
class Area:
    """The face-up cards in front of one player: ``(kind, count)`` pairs, counts > 0, sorted
    (families by value, then events by name)."""

    items: tuple[tuple[Kind, int], ...] = ()

    @classmethod
    def of(cls, counts: Mapping[Kind, int]) -> Area:
        items = ((k, n) for k, n in counts.items() if n)
        return cls(tuple(sorted(items, key=lambda i: _kind_order(i[0]))))

    def __getitem__(self, kind: Kind) -> int:
        for k, n in self.items:
            if k == kind:
                return n
        return 0

    def as_dict(self) -> dict[Kind, int]:
        return dict(self.items)

    def add(self, kind: Kind, n: int = 1) -> Area:
        counts = self.as_dict()
        counts[kind] = counts.get(kind, 0) + n
        if counts[kind] < 0:
            raise ValueError(f"no {kind} card to remove")
        return Area.of(counts)

    def plus(self, other: Area) -> Area:
        counts = self.as_dict()
        for k, n in other.items:
            counts[k] = counts.get(k, 0) + n
        return Area.of(counts)

    @property
    def characters(self) -> int:
        return sum(n for k, n in self.items if isinstance(k, int))

    @property
    def events(self) -> int:
        return sum(n for k, n in self.items if isinstance(k, str))

    @property
    def total(self) -> int:
        return sum(n for _, n in self.items)

    def families(self) -> tuple[int, ...]:
        return tuple(k for k, _ in self.items if isinstance(k, int))

    def to_dict(self) -> dict[str, int]:
        return {str(k): n for k, n in self.items}

    @classmethod
    def from_dict(cls, data: Mapping[str, int]) -> Area:
        return cls.of({kind_from_key(k): n for k, n in data.items()})


def kind_from_key(key: str | int) -> Kind:
    """``"9"`` → 9 and ``"barbarian"`` → ``"barbarian"`` (JSON keys are strings)."""
    if isinstance(key, int):
        return key
    return int(key) if key.isdigit() else key


@dataclass(frozen=True)
class Majority:
    """Who holds a family's majority, and how.

    ``tied`` lists the players sharing the top count when there is a tie (empty otherwise);
    ``tie_breaker`` names what gave a tied player the majority (``"Omniscient"``,
    ``"Yi's Shield"``), or is None.
    """

    family: int
    holder: str | None
    count: int
    tied: tuple[str, ...] = ()
    tie_breaker: str | None = None

    def to_dict(self) -> dict:
        return {
            "family": self.family,
            "holder": self.holder,
            "count": self.count,
            "tied": list(self.tied),
            "tie_breaker": self.tie_breaker,
        }


def leaders(counts: Mapping[str, int], order: Sequence[str]) -> tuple[str, ...]:
    """The players (in ``order``) with the top count, if that count is above zero."""
    top = max((counts.get(p, 0) for p in order), default=0)
    if top <= 0:
        return ()
    return tuple(p for p in order if counts.get(p, 0) == top)


def majority(
    family: int,
    counts: Mapping[str, int],
    order: Sequence[str],
    breaker: str | None = None,
    breaker_name: str | None = None,
) -> Majority:
    """The strict majority of ``family``; a tie goes to ``breaker`` when they are among the
    tied players (the tie-breaker in force during the rounds), to nobody otherwise."""
    top = leaders(counts, order)
    count = counts.get(top[0], 0) if top else 0
    if len(top) == 1:
        return Majority(family, top[0], count)
    if breaker is not None and breaker in top:
        return Majority(family, breaker, count, top, breaker_name)
    return Majority(family, None, count, top)


@lru_cache(maxsize=1024)
def live_majority(
    family: int,
    players: tuple[str, ...],
    areas: tuple[Area, ...],
    breaker: str | None = None,
    breaker_name: str | None = None,
) -> Majority:
    """``majority`` of ``family`` on the cards of ``areas`` (seat-indexed like ``players``),
    remembered for the tables seen last: one state's powers, limits, protections and view
    ask for the same majorities many times, and most actions leave the areas as they were."""
    counts = {p: a[family] for p, a in zip(players, areas, strict=True)}
    return majority(family, counts, players, breaker, breaker_name)


def scoring_holders(areas: Mapping[str, Area], order: Sequence[str]) -> dict[int, str | None]:
    """Final scoring: the strict majority holder of every family; ties give nobody."""
    return {
        v: majority(v, {p: areas[p][v] for p in order}, order).holder for v in FAMILY_VALUES
    }


def best(totals: Mapping[str, int], order: Iterable[str]) -> tuple[str, ...]:
    """The players (in ``order``) with the highest total."""
    names = list(order)
    top = max(totals[p] for p in names)
    return tuple(p for p in names if totals[p] == top)


def result_dict(game: str, families: Mapping[int, Family], final: Any,
                areas: Mapping[str, Area], **extra: Any) -> dict:
    """A final score (``final``: the game's ``FinalScore``) JSON-ready, as ``companion
    score --json`` prints it and a game's final view holds it: each player's total,
    breakdown and cards, the winners, ``extra`` (a game's own keys), then per family
    (highest first) the counts in play, the strict majority holder and its points."""
    return {
        "game": game,
        "players": [
            {
                "name": s.name,
                "total": s.total,
                "breakdown": s.breakdown(),
                "cards": areas[s.name].to_dict(),
            }
            for s in final.players
        ],
        "winners": list(final.winners),
        **extra,
        "families": [
            {
                "family": v,
                "en": families[v].en,
                "fr": families[v].fr,
                "counts": {s.name: areas[s.name][v] for s in final.players},
                "holder": final.holders[v],
                "points": v if final.holders[v] else 0,
            }
            for v in sorted(FAMILY_VALUES, reverse=True)
        ],
    }


def check_deck(
    areas: Mapping[str, Area],
    order: Sequence[str],
    deck: Mapping[Kind, int],
    name: Callable[[Kind, int], str],
    prefix: str = "cards",
) -> None:
    """Refuse more cards of a kind in play than the deck has. The error names the field of
    the last player (in ``order``) holding that kind and says the total over all players:
    ``cards.Ben.9: 10 Merchants, but the deck has 9``."""
    for kind, size in deck.items():
        holding = [p for p in order if areas.get(p, Area())[kind]]
        total = sum(areas[p][kind] for p in holding)
        if total > size:
            raise RuleError(
                f"{prefix}.{holding[-1]}.{kind}",
                f"{total} {name(kind, total)}, but the deck has {size}",
                code="deck_total", params={"total": total, "kinds": kind, "deck": size},
            )


# ------------------------------------------------------------- shared in-game structures


@dataclass(frozen=True)
class Power:
    """A majority power (or event effect) a player may or must use now.

    ``code`` is stable for programs (``deal_bonus``, ``take_vp``, ``destroy``…), ``text`` is
    the sentence for people: ``"Ben: deal 1 more card — Broadcasters"``.
    """

    player: str
    code: str
    must: bool
    text: str
    family: int | None = None

    def to_dict(self) -> dict:
        return plain(self)


@dataclass(frozen=True)
class Protection:
    """A protection in force: ``player`` (or their ``family``) cannot be targeted by
    ``against`` (effect names), because of ``reason``."""

    player: str
    against: tuple[str, ...]
    reason: str
    text: str
    family: int | None = None

    def to_dict(self) -> dict:
        return plain(self)


@dataclass(frozen=True)
class LimitCheck:
    """End of round: ``counted`` cards against ``limit``; ``excess`` characters to discard."""

    player: str
    counted: int
    limit: int
    excess: int

    def to_dict(self) -> dict:
        return plain(self)


def plain(obj: object) -> object:
    """A JSON-ready copy of engine data: dataclasses become dicts, ``Area`` a ``{kind: n}``
    dict with string keys, tuples and frozensets lists."""
    if isinstance(obj, Area):
        return obj.to_dict()
    if is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: plain(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, tuple | list):
        return [plain(v) for v in obj]
    if isinstance(obj, frozenset | set):
        return sorted(plain(v) for v in obj)
    return obj


@dataclass_transform(frozen_default=True)
class Action:
    """Base of the small frozen dataclasses a player's press becomes. A game's action names
    itself in its class line, as the journal keeps it (``class Swap(Action, name="swap")``),
    and is made a frozen dataclass of its fields here, for every game alike. ``to_dict``
    gives ``{"action": name, field: value…}`` for the journal; each game's
    ``action_from_dict`` reads it back."""

    name: ClassVar[str] = ""

    def __init_subclass__(cls, name: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = name
        dataclass(frozen=True)(cls)

    def to_dict(self) -> dict:
        data = plain(self)
        assert isinstance(data, dict)
        return {"action": self.name, **data}


@cache
def _field_types(cls: type) -> dict[str, object]:
    """An action class's fields and their annotations (asked once per class)."""
    return {f.name: f.type for f in fields(cls)}


def action_from_dict(data: Mapping, registry: Mapping[str, type]) -> Action:
    """Rebuild an action from ``to_dict`` output; an unknown action or field is refused."""
    name = data.get("action")
    if name not in registry:
        raise RuleError("action", f"{name!r} is not an action of this game",
                        code="not_an_action_named", params={"name": name})
    cls = registry[name]
    known = _field_types(cls)
    values = {}
    for key, value in data.items():
        if key == "action":
            continue
        if key not in known:
            raise RuleError(key, f"not a field of {name}",
                            code="not_a_field", params={"name": name})
        values[key] = Area.from_dict(value) if known[key] == "Area" else value
    try:
        return cls(**values)
    except TypeError as exc:
        raise RuleError("action", f"{name}: {exc}",
                        code="bad_action", params={"name": name, "error": str(exc)}) from None


class MajorityState:
    """The base of the Koryŏ and Chosŏn states: what both answer about the players (seat-indexed ``players``, ``areas``
    and ``tokens``, the first player's seat ``first``); ``vp_tokens``: the game's VP
    tokens, the bank holding those no player has."""

    players: tuple[str, ...]
    areas: tuple[Area, ...]
    tokens: tuple[int, ...]
    first: int
    turn_index: int  # turns played this round
    vp_tokens: ClassVar[int]

    def to_dict(self) -> dict:
        return plain(self)  # type: ignore[return-value]

    def player_on_turn(self) -> str:
        """Whose turn it is among the round's turns: the first player's, then clockwise."""
        return self.players[(self.first + self.turn_index) % len(self.players)]

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def area(self, player: str) -> Area:
        return self.areas[self.seat(player)]

    def tokens_of(self, player: str) -> int:
        return self.tokens[self.seat(player)]

    @property
    def bank(self) -> int:
        return self.vp_tokens - sum(self.tokens)

    @property
    def first_player(self) -> str:
        return self.players[self.first]


def seat_players(players: Sequence[str], first_player: str | None, game: str,
                 low: int, high: int) -> tuple[tuple[str, ...], int]:
    """The players in seating order and the first player's seat (the first seated when
    none is named), refusing a number of players ``game`` does not take, a player seated
    twice or a first player who is not at the table."""
    names = tuple(players)
    if not low <= len(names) <= high:
        raise RuleError("players",
                        f"{counted(len(names), 'player', 'players')}, but {game} takes {low}–{high}",
                        code="player_count", params={"n": len(names), "low": low, "high": high})
    if len(set(names)) != len(names):
        raise RuleError("players", "a player is seated twice", code="seated_twice")
    if first_player is not None and first_player not in names:
        raise RuleError("first_player", f"{first_player} is not one of the players",
                        code="not_a_player", params={"player": first_player})
    return names, names.index(first_player) if first_player is not None else 0


def card_name(families: Mapping[int, Family], events: Mapping[str, tuple[str, str, str, str]],
              kind: Kind, n: int = 2) -> str:
    """English name of a card kind of a game with these families and events (each event's
    names EN / FR, singular and plural), plural unless ``n`` is 1."""
    if isinstance(kind, int):
        f = families[kind]
        return f.en if n == 1 else f.en_plural
    singular, _, plural, _ = events[kind]
    return singular if n == 1 else plural


def deal(round_no: int) -> int:
    """Cards dealt in round ``round_no`` (the season card): 10, 9, … 3 (in Koryŏ the
    Broadcaster majority gets one more)."""
    return 11 - round_no


def limit(round_no: int) -> int:
    """Cards a player may keep in front of them at the end of the round: 3, 4, … 10
    (Koryŏ counts every card and gives the Senator majority two more; Chosŏn counts only
    characters)."""
    return round_no + 2


def check_revealed(cards: Area, deck: Mapping[Kind, int], in_play: Callable[[Kind], int],
                   game: str, name: Callable[[Kind, int], str]) -> None:
    """Refuse revealed ``cards`` that are not cards of ``game`` (its ``deck``), a negative
    count, or more of a kind than the deck has beside the ``in_play(kind)`` already
    played."""
    for kind, n in cards.items:
        if kind not in deck:
            raise RuleError(f"cards.{kind}", f"{kind!r} is not a {game} card",
                            code="not_a_card", params={"card": kind})
        if n < 0:
            raise RuleError(f"cards.{kind}", "a count cannot be negative", code="negative_count")
        played = in_play(kind)
        if played + n > deck[kind]:
            raise RuleError(
                f"cards.{kind}",
                f"{n} {name(kind, n)}, but only {deck[kind] - played} of the "
                f"{deck[kind]} are not already in play",
                code="deck",
                params={"n": n, "kinds": kind, "left": deck[kind] - played, "deck": deck[kind]},
            )


# ------------------------------------------------------- the actions both games share
# Each game's engine adds its own (Koryŏ's StealVP, Chosŏn's TimeTravel…) and says which
# power carries out Destroy and Swap; the names are what the journal keeps.


class StartRound(Action, name="start_round"):
    """Turn the next season card and deal."""


class Reveal(Action, name="reveal"):
    """The current player reveals the cards they ordered face down."""

    player: str
    cards: Area


class Destroy(Action, name="destroy"):
    """Destroy one character card of another player (a power of the game)."""

    player: str
    target: str
    family: int


class Swap(Action, name="swap"):
    """``a`` gives one ``a_family`` card to ``b`` and gets one ``b_family`` back."""

    player: str
    a: str
    a_family: int
    b: str
    b_family: int


class EndTurn(Action, name="end_turn"):
    player: str


class Discard(Action, name="discard"):
    """End phase: discard characters down to the limit."""

    player: str
    family: int
    count: int = 1


class EndRound(Action, name="end_round"):
    """Close the round once everyone is within the limit."""


def legal(apply: Callable[[Any, Action], Any], state: Any, action: Action) -> bool:
    """Whether a game's ``apply`` accepts ``action`` in ``state``."""
    try:
        apply(state, action)
    except RuleError:
        return False
    return True


# ------------------------------------------------------- helpers for the games' state updates
# Both games' states have ``players``, ``areas`` and ``tokens`` (seat-indexed) and ``seat()``.


def with_area(state: Any, player: str, area: Area) -> Any:
    areas = list(state.areas)
    areas[state.seat(player)] = area
    return replace(state, areas=tuple(areas))


def with_tokens(state: Any, player: str, delta: int) -> Any:
    tokens = list(state.tokens)
    tokens[state.seat(player)] += delta
    return replace(state, tokens=tuple(tokens))


def seated(state: Any, name: object, field: str) -> str:
    """``name`` if it is a player at the table, else a RuleError on ``field``."""
    if name not in state.players:
        raise RuleError(field, f"{name} is not at the table ({', '.join(state.players)})",
                        code="not_at_table",
                        params={"player": name, "names": ", ".join(state.players)})
    return str(name)


def family_value(value: object, field: str) -> int:
    """A family 1–9, else a RuleError on ``field``."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in FAMILY_VALUES:
        raise RuleError(field, f"{value!r} is not a family (1–9)",
                        code="not_a_family", params={"value": repr(value)})
    return value


def check_within_limit(checks: Iterable[LimitCheck], *, characters: bool) -> None:
    """Refuse to close the round while a player is over the limit (the first one found in
    ``checks``, in seating order); ``characters``: the limit counts characters only
    (Chosŏn), else every card (Koryŏ)."""
    c = next((c for c in checks if c.excess), None)
    if c is None:
        return
    if characters:
        raise RuleError("player", f"{c.player} has {c.counted} characters for a limit of "
                                  f"{c.limit}: discard {c.excess} first",
                        code="over_limit_characters",
                        params={"player": c.player, "counted": c.counted, "limit": c.limit,
                                "excess": c.excess})
    raise RuleError("player", f"{c.player} has {c.counted} cards for a limit of {c.limit}: "
                              f"discard {counted(c.excess, 'character', 'characters')} first",
                    code="over_limit",
                    params={"player": c.player, "counted": c.counted, "limit": c.limit,
                            "excess": c.excess})


def discard_down(state: Any, player: str, family: int, count: int, check: LimitCheck,
                 kind_name: Callable[..., str], *, characters: bool) -> Any:
    """The end phase's discard of ``count`` ``family`` cards by ``player`` down to the limit
    (``check``, the player's ``LimitCheck``); ``characters``: the limit counts characters
    only (Chosŏn), else every card (Koryŏ)."""
    if count < 1:
        raise RuleError("count", "discard at least 1 card", code="discard_none")
    if count > check.excess:
        counted = "characters" if characters else "cards"
        raise RuleError("count", f"{player} has {check.counted} {counted} for a limit of "
                                 f"{check.limit}: {check.excess} to discard, not {count}",
                        code="discard_too_many_characters" if characters else "discard_too_many",
                        params={"player": player, "counted": check.counted, "limit": check.limit,
                                "excess": check.excess, "count": count})
    held = state.area(player)[family]
    if held < count:
        raise RuleError("family", f"{player} has {held} {kind_name(family)} in play",
                        code="discard_missing", params={"player": player, "n": held,
                                                        "kinds": family})
    return with_area(state, player, state.area(player).add(family, -count))
