"""`companion score` for Koryŏ table files (docs/table-files.md, "score: Koryŏ")."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from companion.files.table_text import row_format, winners_line
from companion.files.validate import check_keys, count, join, mapping, per_player, players
from companion.games.koryo import rules as koryo
from companion.games.majority.rules import FAMILY_VALUES, Area, Kind, check_deck
from companion.play.errors import RuleError


def read_area(value: Any, path: str, events: Collection[str]) -> Area:
    """One player's cards: family keys are the whole numbers 1–9 (as YAML reads them),
    event keys are names; every count is a non-negative whole number."""
    block = mapping(value, path)
    counts: dict[Kind, int] = {}
    for key, n in block.items():
        field = join(path, key)
        is_family = isinstance(key, int) and not isinstance(key, bool) and key in FAMILY_VALUES
        if isinstance(key, str) and key.strip().isdigit():
            raise RuleError(field, f"write the family as a number ({key.strip()}), not as text",
                            code="family_as_number", params={"item": key.strip()})
        if not is_family and key not in events:
            allowed = "a family 1–9" + "".join(f", {e}" for e in events)
            raise RuleError(field, f"not a card of the game (expected {allowed})",
                            code="not_a_card_expected", params={"allowed": allowed})
        counts[key] = count(n, field)
    return Area.of(counts)


def read_tokens(value: Any, path: str, names: list[str], supply: int) -> dict[str, int]:
    """VP tokens per player; their total may not exceed the game's ``supply``."""
    block = per_player(value, path, names)
    tokens = {p: count(n, join(path, p)) for p, n in block.items()}
    total = sum(tokens.values())
    if total > supply:
        last = [p for p in names if tokens.get(p)][-1]
        raise RuleError(join(path, last), f"{total} VP tokens, but the game has {supply}",
                        code="vp_supply", params={"total": total, "supply": supply})
    return tokens


def read_areas(
    value: Any, names: list[str], events: Collection[str], deck: Mapping[Kind, int],
    name: Callable[[Kind, int], str],
) -> dict[str, Area]:
    block = per_player(value, "cards", names)
    areas = {p: read_area(block.get(p), join("cards", p), events) for p in names}
    check_deck(areas, names, deck, name)
    return areas


def score(data: dict) -> dict:
    check_keys(data, "", {"game", "players", "cards"}, {"tokens"})
    names = players(data["players"], "players", koryo.MIN_PLAYERS, koryo.MAX_PLAYERS)
    areas = read_areas(data["cards"], names, koryo.EVENTS, koryo.DECK, koryo.kind_name)
    tokens = read_tokens(data.get("tokens"), "tokens", names, koryo.VP_TOKENS)
    return koryo.result(koryo.final_score(names, areas, tokens), areas)


def text_columns(title: str, result: dict, rows: list[tuple[str, str]]) -> str:
    """A plain text table: one column per player, one row per family then ``rows`` (label,
    breakdown key), the totals and the winners."""
    names = [p["name"] for p in result["players"]]
    by_name = {p["name"]: p for p in result["players"]}
    line = row_format(names)

    out = [title, line("", names)]
    for fam in result["families"]:
        cells = []
        for p in names:
            n = fam["counts"][p]
            pts = by_name[p]["breakdown"][f"family_{fam['family']}"]
            cells.append(f"{pts} ({n})" if n else "·")
        label = f"{fam['family']} {fam['en']}"
        if fam["holder"] is None and fam["counts"] and max(fam["counts"].values()) > 0:
            label += " (tie)"
        out.append(line(label, cells))
    for label, key in rows:
        out.append(line(label, [str(by_name[p]["breakdown"][key]) for p in names]))
    out.append(line("Total", [str(by_name[p]["total"]) for p in names]))
    out.append(winners_line(result["winners"]))
    return "\n".join(out)


def render(result: dict) -> str:
    return text_columns(
        "Koryŏ — final scoring (points, cards in play in brackets)",
        result,
        [("Events (−1 each)", "events"), ("VP tokens", "tokens")],
    )
