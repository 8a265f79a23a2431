"""The King's Dilemma end-of-game scoring (the rulebook,
« 1. Calculer les scores »).

1. Secret agenda: the resource objective's points (read off the card's diagram by the
   table) plus the wealth objective: the card's points for 1st, 2nd and 3rd most coins.
2. Open agenda tokens: a positive token scores +3 if its resource is the highest on the
   track, +1 if second highest; a negative token −3 if lowest, −1 if second lowest.
3. Power: most power behind the screen +2, second most +1.

Every place (coins, power, resources) is counted over distinct amounts: tied players or
resources share a place and the next distinct amount takes the next place (coins 10, 10,
6, 3 → places 1, 1, 2, 3). Highest total wins; ties share the victory.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.kings_dilemma.kingdom import RESOURCES
from companion.play.errors import RuleError
from companion.play.places import places

GAME = "kings-dilemma"
MIN_PLAYERS, MAX_PLAYERS = 3, 5
POWER_BONUS: dict[int, int] = {1: 2, 2: 1}
OPEN_POSITIVE: dict[int, int] = {1: 3, 2: 1}  # place from the highest
OPEN_NEGATIVE: dict[int, int] = {1: -3, 2: -1}  # place from the lowest
MAX_TOKENS_PER_SIGN = 2  # a player keeps at most 2 positive and 2 negative tokens


@dataclass(frozen=True)
class SecretAgenda:
    """What the table reads off a player's secret agenda card: the resource objective's
    points and the wealth objective's points for 1st, 2nd, 3rd most coins."""

    resources: int
    wealth: tuple[int, int, int]

    def wealth_points(self, place: int) -> int:
        return self.wealth[place - 1] if 1 <= place <= len(self.wealth) else 0

    def to_dict(self) -> dict:
        return {"resources": self.resources, "wealth": list(self.wealth)}


@dataclass(frozen=True)
class OpenAgenda:
    """An open agenda token: a resource and a sign (``+influence``, ``-welfare``)."""

    resource: str
    positive: bool

    def __post_init__(self) -> None:
        if self.resource not in RESOURCES:
            raise RuleError("open_agendas", f"{self.resource!r} is not a resource",
                            code="not_a_resource", params={"resource": repr(self.resource)})

    @classmethod
    def parse(cls, text: str, field: str) -> OpenAgenda:
        if not isinstance(text, str) or text[:1] not in "+-" or text[1:] not in RESOURCES:
            raise RuleError(
                field,
                f"{text!r} is not an open agenda token (+ or - then one of "
                f"{', '.join(RESOURCES)})",
                code="not_an_open_agenda",
                params={"token": repr(text), "resources": ", ".join(RESOURCES)},
            )
        return cls(text[1:], text[0] == "+")

    def __str__(self) -> str:
        return f"{'+' if self.positive else '-'}{self.resource}"

    def points(self, high: Mapping[str, int], low: Mapping[str, int]) -> int:
        """The token's points from the resources' places (from the highest / the lowest)."""
        if self.positive:
            return OPEN_POSITIVE.get(high[self.resource], 0)
        return OPEN_NEGATIVE.get(low[self.resource], 0)


@dataclass(frozen=True)
class PlayerScore:
    name: str
    resources: int
    wealth: int
    open_agendas: int
    power: int
    coins_place: int
    power_place: int
    tokens: tuple[tuple[str, int], ...]  # each open agenda token and its points

    @property
    def total(self) -> int:
        return self.resources + self.wealth + self.open_agendas + self.power

    def breakdown(self) -> dict[str, int]:
        return {
            "resources": self.resources,
            "wealth": self.wealth,
            "open_agendas": self.open_agendas,
            "power": self.power,
        }

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "total": self.total,
            "breakdown": self.breakdown(),
            "coins_place": self.coins_place,
            "power_place": self.power_place,
            "open_agendas": [{"token": t, "points": p} for t, p in self.tokens],
        }


@dataclass(frozen=True)
class FinalScore:
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    resource_high: dict[str, int]  # each resource's place from the highest
    resource_low: dict[str, int]  # … and from the lowest

    def to_dict(self) -> dict:
        return {
            "game": GAME,
            "players": [p.to_dict() for p in self.players],
            "winners": list(self.winners),
            "resource_places": {
                r: {"from_highest": self.resource_high[r], "from_lowest": self.resource_low[r]}
                for r in RESOURCES
            },
        }


def final_score(
    players: Sequence[str],
    coins: Mapping[str, int],
    power: Mapping[str, int],
    resources: Mapping[str, int],
    agendas: Mapping[str, SecretAgenda],
    open_agendas: Mapping[str, Sequence[OpenAgenda]],
) -> FinalScore:
    """Score the end of one game; a player missing from a mapping counts as zero / none."""
    check_open_agendas(open_agendas)
    coins_place = places({p: coins.get(p, 0) for p in players})
    power_place = places({p: power.get(p, 0) for p in players})
    positions = {r: resources[r] for r in RESOURCES}
    high = places(positions)
    low = places(positions, lowest_first=True)
    scores = []
    for p in players:
        agenda = agendas.get(p, SecretAgenda(0, (0, 0, 0)))
        tokens = tuple((str(t), t.points(high, low)) for t in open_agendas.get(p, ()))
        scores.append(PlayerScore(
            name=p,
            resources=agenda.resources,
            wealth=agenda.wealth_points(coins_place[p]),
            open_agendas=sum(points for _, points in tokens),
            power=POWER_BONUS.get(power_place[p], 0),
            coins_place=coins_place[p],
            power_place=power_place[p],
            tokens=tokens,
        ))
    top = max(s.total for s in scores)
    winners = tuple(s.name for s in scores if s.total == top)
    return FinalScore(tuple(scores), winners, high, low)


def check_open_agendas(open_agendas: Mapping[str, Sequence[OpenAgenda]]) -> None:
    """One token per resource and sign on the table, and at most ``MAX_TOKENS_PER_SIGN``
    of a sign per player; fields are the table file's (``open_agendas.Ana.0``)."""
    held: dict[str, str] = {}
    for player, tokens in open_agendas.items():
        for i, token in enumerate(tokens):
            field = f"open_agendas.{player}.{i}"
            if str(token) in held:
                raise RuleError(
                    field,
                    f"{token} is already held by {held[str(token)]} (one token per resource "
                    "and sign)",
                    code="open_token_held",
                    params={"token": str(token), "player": held[str(token)]},
                )
            held[str(token)] = player
            same_sign = sum(t.positive == token.positive for t in tokens[:i + 1])
            if same_sign > MAX_TOKENS_PER_SIGN:
                sign = "positive" if token.positive else "negative"
                raise RuleError(
                    field, f"{same_sign} {sign} tokens, but a player keeps at most "
                           f"{MAX_TOKENS_PER_SIGN}",
                    code="open_tokens_per_sign",
                    params={"n": same_sign, "sign": sign, "most": MAX_TOKENS_PER_SIGN},
                )


def open_agendas_allowed(tokens: Mapping[str, Sequence[str]]) -> bool:
    """Whether the houses may hold these open agenda tokens (``{"Ana": ["+morale"]}``)
    together: ``check_open_agendas``'s rules, for a screen offering only what they allow."""
    try:
        check_open_agendas({
            player: [OpenAgenda.parse(t, f"open_agendas.{player}.{i}") for i, t in enumerate(held)]
            for player, held in tokens.items()})
    except RuleError:
        return False
    return True


def result(final: FinalScore, coins: Mapping[str, int], power: Mapping[str, int],
           resources: Mapping[str, int]) -> dict:
    """``final`` JSON-ready with each house's coins and power left and the kingdom's
    resources: what ``companion score --json`` prints and a night's final view holds."""
    out = final.to_dict()
    for p in out["players"]:
        p["coins"] = coins.get(p["name"], 0)
        p["power_left"] = power.get(p["name"], 0)
    out["resources"] = dict(resources)
    return out
