"""Load the King's Dilemma data file (``companion/data/kings_dilemma.yaml``): starting power
and coins, track bounds, house numbers, secret agendas and the prestige/crave table.

Lives outside ``companion.engine`` (it reads a file); errors are ``SourceError`` naming the
file, line and field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from companion import yamlsrc
from companion.engine.errors import RuleError
from companion.engine.kd_campaign import ENDS, RANKS, Award, AwardTable, Settings
from companion.engine.kd_kingdom import Track, middle
from companion.validate import check_keys, count, integer, join, mapping

SHIPPED = Path(__file__).resolve().parent / "data" / "kings_dilemma.yaml"


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
