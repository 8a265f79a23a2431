"""Koryŏ (Gary Kim): 2–4 players, 8 rounds, 9 families and 2 kinds of events.

Rules: shared/RULES.md section 1 (rulebooks: seeds 000 and 002).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.engine.majority import (
    FAMILY_VALUES,
    Area,
    Family,
    Kind,
    best,
    scoring_holders,
)

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
    if isinstance(kind, int):
        f = FAMILIES[kind]
        return f.en if n == 1 else f.en_plural
    singular, _, plural, _ = EVENT_NAMES[kind]
    return singular if n == 1 else plural


def deal(round_no: int) -> int:
    """Cards dealt in round ``round_no`` (season card): 10, 9, … 3."""
    return 11 - round_no


def limit(round_no: int) -> int:
    """Cards a player may keep in front of them at the end of the round: 3, 4, … 10."""
    return round_no + 2


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
    holders = scoring_holders(full, order)
    scores = tuple(
        PlayerScore(
            name=p,
            families=tuple(v if holders[v] == p else 0 for v in FAMILY_VALUES),
            events=-full[p].events,
            tokens=tokens.get(p, 0),
        )
        for p in order
    )
    winners = best({s.name: s.total for s in scores}, order)
    return FinalScore(scores, holders, winners)
