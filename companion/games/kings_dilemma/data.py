"""Load the King's Dilemma data file (``companion/games/kings_dilemma/kings_dilemma.yaml``): starting power
and coins, track bounds, house numbers, secret agendas and the prestige/crave table; and
read what the table reads off the agenda cards at a game's end (``read_agendas``,
``read_open_agendas``: a table file's blocks, the end-of-game score's too).

Lives outside the rules (it reads a file); errors are ``SourceError`` naming the
file, line and field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from companion.files import yamlsrc
from companion.files.validate import check_keys, count, describe, integer, join, mapping, per_player
from companion.games.kings_dilemma.campaign import ENDS, RANKS, Award, AwardTable, Settings
from companion.games.kings_dilemma.kingdom import Track, middle
from companion.games.kings_dilemma.score import OpenAgenda, SecretAgenda
from companion.play.errors import RuleError

SHIPPED = Path(__file__).resolve().with_name("kings_dilemma.yaml")


@dataclass(frozen=True)
class KingsDilemmaData:
    start_power: int
    start_coins: int
    balance: int
    track: Track
    stability: tuple[int, int]  # min, max
    settings: Settings


def _bounds(value: Any, path: str) -> tuple[int, int]:
    block = mapping(value, path)
    check_keys(block, path, {"min", "max"})
    low, high = integer(block["min"], join(path, "min")), integer(block["max"], join(path, "max"))
    middle(low, high, path)
    return low, high


def _cell(value: Any, path: str) -> Award:
    block = mapping(value, path)
    check_keys(block, path, {"prestige", "crave"})
    return Award(*(
        None if block[k] is None else count(block[k], join(path, k)) for k in ("prestige", "crave")
    ))


def _table(value: Any, path: str) -> AwardTable:
    block = mapping(value, path)
    check_keys(block, path, set(ENDS))
    cells = []
    for end in ENDS:
        ranks = mapping(block[end], join(path, end))
        check_keys(ranks, join(path, end), set(RANKS))
        cells += [(end, r, _cell(ranks[r], join(path, f"{end}.{r}"))) for r in RANKS]
    return AwardTable(tuple(cells))


def parse(doc: yamlsrc.Document) -> KingsDilemmaData:
    try:
        data = mapping(doc.data, "")
        check_keys(data, "", {"start", "tracks", "houses", "secret_agendas", "prestige_table"})
        start = mapping(data["start"], "start")
        check_keys(start, "start", {"power", "coins", "balance"})
        tracks = mapping(data["tracks"], "tracks")
        check_keys(tracks, "tracks", {"resources", "stability"})
        houses = mapping(data["houses"], "houses")
        check_keys(houses, "houses", {"numbers"})
        agendas = data["secret_agendas"]
        if not isinstance(agendas, list) or not agendas or not all(
            isinstance(a, str) and a for a in agendas
        ) or len(set(agendas)) != len(agendas):
            raise RuleError("secret_agendas", "expected a list of distinct agenda names",
                            code="agenda_names")
        track = Track(*_bounds(tracks["resources"], "tracks.resources"))
        power = count(start["power"], "start.power")
        coins = count(start["coins"], "start.coins")
        settings = Settings(
            power, coins, _numbers(houses["numbers"]), tuple(agendas),
            _table(data["prestige_table"], "prestige_table"),
        )
        return KingsDilemmaData(
            power, coins, count(start["balance"], "start.balance"), track,
            _bounds(tracks["stability"], "tracks.stability"), settings,
        )
    except RuleError as exc:
        raise doc.error(exc.field, exc.message) from None


def _numbers(value: Any) -> tuple[int, int]:
    block = mapping(value, "houses.numbers")
    check_keys(block, "houses.numbers", {"min", "max"})
    low = count(block["min"], "houses.numbers.min", low=1)
    high = count(block["max"], "houses.numbers.max", low=low)
    return low, high


def load(path: str | Path) -> KingsDilemmaData:
    return parse(yamlsrc.load(path))


@cache
def shipped() -> KingsDilemmaData:
    """The data file shipped with the package."""
    return load(SHIPPED)


def read_agendas(value: Any, names: list[str]) -> dict[str, SecretAgenda]:
    """The ``agendas`` block (a table file's, a night's end score): what the table reads
    off each player's secret agenda card."""
    return {p: read_agenda(v, join("agendas", p))
            for p, v in per_player(value, "agendas", names).items()}


def read_agenda(value: Any, path: str) -> SecretAgenda:
    """One card: ``{resources: n, wealth: [1st, 2nd, 3rd]}``."""
    block = mapping(value, path)
    check_keys(block, path, {"resources", "wealth"})
    resources = count(block["resources"], join(path, "resources"))
    wealth = block["wealth"]
    if not isinstance(wealth, list) or len(wealth) != 3:
        raise RuleError(
            join(path, "wealth"),
            f"expected the card's 3 numbers for 1st, 2nd, 3rd most coins, got {describe(wealth)}",
            code="wealth_numbers", params={"got": describe(wealth)},
        )
    points = tuple(count(n, join(path, f"wealth.{i}")) for i, n in enumerate(wealth))
    return SecretAgenda(resources, points)  # type: ignore[arg-type]


def read_open_agendas(value: Any, names: list[str]) -> dict[str, list[OpenAgenda]]:
    """The ``open_agendas`` block: the tokens each player holds, as written (who may hold
    which is the engine's rule, ``kd_score.check_open_agendas``)."""
    block = per_player(value, "open_agendas", names)
    out: dict[str, list[OpenAgenda]] = {}
    for player, tokens in block.items():
        path = join("open_agendas", player)
        if tokens is None:
            tokens = []
        if not isinstance(tokens, list):
            raise RuleError(path, f"expected a list of tokens like [+influence], got "
                                  f"{describe(tokens)}",
                            code="open_tokens_list", params={"got": describe(tokens)})
        out[player] = [OpenAgenda.parse(text, join(path, i)) for i, text in enumerate(tokens)]
    return out
