"""Chosŏn (Gary Kim): 2–4 players, 8 rounds, 9 families, events, Yi's tokens.

Rules: shared/RULES.md section 2 (rulebook: seed 003, English inside).
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


def kind_name(kind: Kind, n: int = 2) -> str:
    """English name of a card kind, plural unless ``n`` is 1."""
    if isinstance(kind, int):
        f = FAMILIES[kind]
        return f.en if n == 1 else f.en_plural
    return "event" if n == 1 else "events"


def deal(round_no: int) -> int:
    """Cards dealt in round ``round_no`` (season card): 10, 9, … 3; no Broadcaster in Chosŏn."""
    return 11 - round_no


def limit(round_no: int) -> int:
    """Character cards a player may keep at the end of the round: 3, 4, … 10."""
    return round_no + 2


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
    holders = scoring_holders(full, order)
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
    tied = best({s.name: s.total for s in scores}, order)
    winners, family = tied, None
    if len(tied) > 1:
        controlled = [v for v in FAMILY_VALUES if holders[v] in tied]
        if controlled:
            family = controlled[0]
            winners = (holders[family],)
    return FinalScore(tuple(scores), holders, winners, tied, family)
