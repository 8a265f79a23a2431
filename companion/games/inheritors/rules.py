"""Inheritors (« Cinq Fiefs », Jeffrey CCH and Kenneth YWN): final scoring, 2–4 players.

Rules: the Inheritors rulebook; where it is silent, docs/house-rules.md. The colours of the game are
card data (``companion/games/inheritors/inheritors.yaml``): they are passed in, never read from here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from companion.play.errors import RuleError, count, counted, whole_number

GAME = "inheritors"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
LOWEST, HIGHEST = 1, 6  # Influence cards are played 1 → 6 on each colour stack
FULFILLED, FAILED = 2, 1  # a quest's points
TOME_POINTS = (3, 1)  # most Tome (+ Legend) cards in hand, second most
TOMES_IN_GAME = 9  # 6 Tome (Livre) + 3 Legend (Légende) cards
RELIC_MATCH, RELIC_MISS = 1, -1

# Tie-break stages for the win, in order, after the highest total.
BY_TOMES, BY_HAND, SHARED = "tomes", "hand", "shared"


def colours_in_game(n_players: int) -> int:
    """At most 5 colours; with 2 players one colour is removed from the game (4)."""
    return 4 if n_players == 2 else 5


def rows_in_game(n_players: int) -> int:
    """Quest and Honor cards laid out: 5, or 4 with 2 players."""
    return 4 if n_players == 2 else 5


@dataclass(frozen=True)
class Colour:
    """A colour of the game: its key (what table files and actions write) and its names."""

    key: str
    en: str
    fr: str


@dataclass(frozen=True)
class PlayerEnd:
    """What a player has at the end of the game, as the table file says it.

    ``stacks``: colour -> top (highest) Influence card of that stack. ``hand`` is ``None``
    when not given (it counts as 0 cards for the tie-break)."""

    name: str
    stacks: Mapping[str, int] = field(default_factory=dict)
    tomes: int = 0
    hand: int | None = None
    relics: tuple[str, ...] = ()
    quests: tuple[int, ...] = ()
    honors: int = 0
    bonus: int = 0


@dataclass(frozen=True)
class PlayerScore:
    """One player's final score; the parts add up to ``total``."""

    name: str
    influence: int
    tomes: int
    relics: int
    quests: int
    honors: int
    bonus: int

    @property
    def total(self) -> int:
        return self.influence + self.tomes + self.relics + self.quests + self.honors + self.bonus

    def breakdown(self) -> dict[str, int]:
        return {
            "influence": self.influence,
            "tomes": self.tomes,
            "relics": self.relics,
            "quests": self.quests,
            "honors": self.honors,
            "bonus": self.bonus,
        }


@dataclass(frozen=True)
class FinalScore:
    players: tuple[PlayerScore, ...]
    highest: dict[str, int]  # colour -> highest card played in it (colours nobody played: absent)
    winners: tuple[str, ...]
    tied: tuple[str, ...]  # players tied on the highest total (one player: no tie)
    decided_by: str | None  # BY_TOMES, BY_HAND or SHARED when ``tied`` has several players


# --------------------------------------------------------------------------- validation


def validate(players: Sequence[PlayerEnd], colours: Collection[str]) -> None:
    """Refuse what the game can't produce; fields are the table file's (``stacks.Ana.red``).

    ``colours``: every colour of the game (the five of the box)."""
    names = [p.name for p in players]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError("players",
                        f"{counted(len(names), 'player', 'players')}, but Inheritors takes 2–4",
                        code="player_count", params={"n": len(names), "low": 2, "high": 4})
    if len(set(names)) != len(names):
        raise RuleError("players", "a player is seated twice", code="seated_twice")
    allowed = ", ".join(colours)
    limit = colours_in_game(len(players))
    used: list[str] = []  # colours seen so far, in file order

    def colour(c: object, path: str) -> None:
        if c not in colours:
            raise RuleError(path, f"{c!r} is not a colour of the game ({allowed})",
                            code="not_a_colour", params={"colour": repr(c), "colours": allowed})
        if c not in used:
            used.append(c)  # type: ignore[arg-type]
        if len(used) > limit:
            raise RuleError(
                path,
                f"{len(used)} colours ({', '.join(used)}), but a {len(players)}-player game "
                f"has {limit}",
                code="too_many_colours",
                params={"n": len(used), "used": ", ".join(used), "players": len(players),
                        "limit": limit},
            )

    for p in players:
        for c, value in p.stacks.items():
            path = f"stacks.{p.name}.{c}"
            colour(c, path)
            whole_number(value, path)
            if not LOWEST <= value <= HIGHEST:
                raise RuleError(path, f"{value} is not an Influence card (values 1–6)",
                                code="not_an_influence_card", params={"value": value})
    relic_holder: dict[str, str] = {}
    for p in players:
        for i, c in enumerate(p.relics):
            path = f"relics.{p.name}.{i}"
            colour(c, path)
            if c in relic_holder:
                raise RuleError(
                    path, f"there is one {c} relic, and {relic_holder[c]} already holds it",
                    code="relic_held", params={"colour": c, "player": relic_holder[c]},
                )
            relic_holder[c] = p.name
    _total(players, "tomes", lambda p: count(p.tomes, f"tomes.{p.name}"), TOMES_IN_GAME,
           "Tome and Legend cards, but the game has")
    rows = rows_in_game(len(players))
    for p in players:
        for i, q in enumerate(p.quests):
            if isinstance(q, bool) or q not in (FULFILLED, FAILED):
                raise RuleError(
                    f"quests.{p.name}.{i}",
                    f"a quest is worth {FULFILLED} (fulfilled) or {FAILED} (not), got {q!r}",
                    code="quest_value",
                    params={"fulfilled": FULFILLED, "failed": FAILED, "value": repr(q)},
                )
    _total(players, "quests", lambda p: len(p.quests), rows, "quests, but the game lays out")
    _total(players, "honors", lambda p: count(p.honors, f"honors.{p.name}"), rows,
           "honors, but the game lays out")
    for p in players:
        whole_number(p.bonus, f"bonus.{p.name}")
        if p.hand is not None:
            count(p.hand, f"hand.{p.name}")
            held = p.tomes + len(p.relics)
            if p.hand < held:
                raise RuleError(
                    f"hand.{p.name}",
                    f"{counted(p.hand, 'card', 'cards')} in hand, but "
                    f"{counted(p.tomes, 'tome', 'tomes')} and "
                    f"{counted(len(p.relics), 'relic', 'relics')} are held in hand",
                    code="hand_too_small",
                    params={"hand": p.hand, "tomes": p.tomes, "relics": len(p.relics)},
                )


def _total(
    players: Sequence[PlayerEnd], block: str, amount: Callable[[PlayerEnd], int], supply: int,
    what: str,
) -> None:
    """The sum over players may not exceed ``supply``; the error names the last player
    that has some."""
    amounts = {p.name: amount(p) for p in players}
    total = sum(amounts.values())
    if total > supply:
        last = [n for n, a in amounts.items() if a][-1]
        raise RuleError(f"{block}.{last}", f"{total} {what} {supply}",
                        code={"tomes": "supply_tomes", "quests": "supply_quests",
                              "honors": "supply_honors"}[block],
                        params={"total": total, "supply": supply})


# --------------------------------------------------------------------------- final scoring


def tome_points(tomes: Mapping[str, int]) -> dict[str, int]:
    """Most tomes: 3, second most: 1; tied players each score their rank's points; a tie for
    first awards no second place; a player with no tome scores nothing (our ruling)."""
    counts = sorted({n for n in tomes.values() if n > 0}, reverse=True)
    first = counts[0] if counts else None
    firsts = [p for p, n in tomes.items() if n == first]
    second = counts[1] if len(counts) > 1 and len(firsts) == 1 else None
    points = {}
    for p, n in tomes.items():
        points[p] = TOME_POINTS[0] if n == first else TOME_POINTS[1] if n == second else 0
    return points


def highest_cards(players: Sequence[PlayerEnd]) -> dict[str, int]:
    """Per colour, the highest Influence card anyone played."""
    highest: dict[str, int] = {}
    for p in players:
        for c, v in p.stacks.items():
            highest[c] = max(v, highest.get(c, 0))
    return highest


def relic_points(player: PlayerEnd, highest: Mapping[str, int]) -> int:
    """Each relic: +1 if its holder played the highest card of its colour (ties count as
    highest), else −1 — also when the holder played no card of that colour."""
    return sum(
        RELIC_MATCH if c in player.stacks and player.stacks[c] == highest[c] else RELIC_MISS
        for c in player.relics
    )


def final_score(players: Sequence[PlayerEnd], colours: Collection[str]) -> FinalScore:
    """Inheritors final scoring: influence (sum of the top card of each stack), tomes, relics,
    quests (2 fulfilled / 1 not), honors (+1 each), clan bonus as entered. Highest total
    wins; tie-break: most tomes in hand, then most cards in hand, then a shared victory."""
    validate(players, colours)
    highest = highest_cards(players)
    tomes = tome_points({p.name: p.tomes for p in players})
    scores = tuple(
        PlayerScore(
            name=p.name,
            influence=sum(p.stacks.values()),
            tomes=tomes[p.name],
            relics=relic_points(p, highest),
            quests=sum(p.quests),
            honors=p.honors,
            bonus=p.bonus,
        )
        for p in players
    )
    best = max(s.total for s in scores)
    tied = tuple(s.name for s in scores if s.total == best)
    winners, decided_by = winners_of(tied, players)
    return FinalScore(scores, highest, winners, tied, decided_by)


def winners_of(
    tied: Sequence[str], players: Sequence[PlayerEnd]
) -> tuple[tuple[str, ...], str | None]:
    """Among the players tied on the highest total: most tomes, then most cards in hand
    (not given: 0), then shared. Returns the winners and the stage that decided."""
    if len(tied) == 1:
        return tuple(tied), None
    by_name = {p.name: p for p in players}
    left = list(tied)
    for stage, key in ((BY_TOMES, lambda n: by_name[n].tomes),
                       (BY_HAND, lambda n: by_name[n].hand or 0)):
        top = max(key(n) for n in left)
        left = [n for n in left if key(n) == top]
        if len(left) == 1:
            return tuple(left), stage
    return tuple(left), SHARED


def result(players: Sequence[PlayerEnd], colours: Mapping[str, Colour]) -> dict:
    """The final score JSON-ready (``companion score --json``, the score sheet's view):
    each player's total, breakdown and what it counts, the winners, the tie-break when one
    decided, and per colour of the game (in ``colours``' order) the highest card played
    and who played it."""
    final = final_score(players, tuple(colours))
    highest = final.highest
    return {
        "game": GAME,
        "players": [
            {
                "name": s.name,
                "total": s.total,
                "breakdown": s.breakdown(),
                "stacks": dict(e.stacks),
                "tomes_in_hand": e.tomes,
                "hand": e.hand,
                "relics": [
                    {"colour": c, "highest": c in e.stacks and e.stacks[c] == highest[c]}
                    for c in e.relics
                ],
                "quests": list(e.quests),
                "honors": e.honors,
            }
            for s, e in zip(final.players, players, strict=True)
        ],
        "winners": list(final.winners),
        "tie_break": {"tied": list(final.tied), "decided_by": final.decided_by}
        if len(final.tied) > 1
        else None,
        "colours": [
            {
                "colour": c.key,
                "en": c.en,
                "fr": c.fr,
                "highest": highest.get(c.key),
                "played_highest": [e.name for e in players
                                   if c.key in highest and e.stacks.get(c.key) == highest[c.key]],
            }
            for c in colours.values()
        ],
    }
