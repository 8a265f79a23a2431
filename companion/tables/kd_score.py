"""`companion score` for The King's Dilemma (docs/table-files.md, "score: The King's
Dilemma (one game's end)")."""

from __future__ import annotations

from typing import Any

from companion.engine import kd_score as ks
from companion.engine.errors import RuleError, listed
from companion.engine.kd_kingdom import RESOURCE_NAMES, RESOURCES
from companion.validate import (
    check_keys,
    count,
    describe,
    integer,
    join,
    mapping,
    per_player,
    players,
)


def _agenda(value: Any, path: str) -> ks.SecretAgenda:
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
    return ks.SecretAgenda(resources, points)  # type: ignore[arg-type]


def _open_agendas(value: Any, names: list[str]) -> dict[str, list[ks.OpenAgenda]]:
    block = per_player(value, "open_agendas", names)
    held: dict[str, str] = {}
    out: dict[str, list[ks.OpenAgenda]] = {}
    for player, tokens in block.items():
        path = join("open_agendas", player)
        if tokens is None:
            tokens = []
        if not isinstance(tokens, list):
            raise RuleError(path, f"expected a list of tokens like [+influence], got "
                                  f"{describe(tokens)}",
                            code="open_tokens_list", params={"got": describe(tokens)})
        parsed = []
        for i, text in enumerate(tokens):
            token = ks.OpenAgenda.parse(text, join(path, i))
            if str(token) in held:
                raise RuleError(
                    join(path, i),
                    f"{token} is already held by {held[str(token)]} (one token per resource "
                    "and sign)",
                    code="open_token_held",
                    params={"token": str(token), "player": held[str(token)]},
                )
            held[str(token)] = player
            parsed.append(token)
            same_sign = sum(t.positive == token.positive for t in parsed)
            if same_sign > ks.MAX_TOKENS_PER_SIGN:
                sign = "positive" if token.positive else "negative"
                raise RuleError(
                    join(path, i), f"{same_sign} {sign} tokens, but a player keeps at most "
                                   f"{ks.MAX_TOKENS_PER_SIGN}",
                    code="open_tokens_per_sign",
                    params={"n": same_sign, "sign": sign, "most": ks.MAX_TOKENS_PER_SIGN},
                )
        out[player] = parsed
    return out


def score(data: dict) -> dict:
    check_keys(
        data, "", {"game", "players", "coins", "power", "resources", "agendas"}, {"open_agendas"}
    )
    names = players(data["players"], "players", ks.MIN_PLAYERS, ks.MAX_PLAYERS)
    coins = {p: count(n, join("coins", p)) for p, n in
             per_player(data["coins"], "coins", names).items()}
    power = {p: count(n, join("power", p)) for p, n in
             per_player(data["power"], "power", names).items()}
    res_block = mapping(data["resources"], "resources")
    check_keys(res_block, "resources", set(RESOURCES))
    resources = {r: integer(res_block[r], join("resources", r)) for r in RESOURCES}
    agendas = {p: _agenda(v, join("agendas", p)) for p, v in
               per_player(data["agendas"], "agendas", names).items()}
    result = ks.final_score(
        names, coins, power, resources, agendas, _open_agendas(data.get("open_agendas"), names)
    )
    out = result.to_dict()
    for p in out["players"]:
        p["coins"] = coins.get(p["name"], 0)
        p["power_left"] = power.get(p["name"], 0)
    out["resources"] = resources
    return out


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def render(result: dict) -> str:
    names = [p["name"] for p in result["players"]]
    by_name = [next(p for p in result["players"] if p["name"] == n) for n in names]
    rows = [
        ("Secret agenda: resources", [str(p["breakdown"]["resources"]) for p in by_name]),
        ("Wealth (coins, place)", [
            f"{p['breakdown']['wealth']} ({p['coins']}, {_ordinal(p['coins_place'])})"
            for p in by_name
        ]),
        ("Open agendas", [str(p["breakdown"]["open_agendas"]) for p in by_name]),
        ("Power (left, place)", [
            f"{p['breakdown']['power']} ({p['power_left']}, {_ordinal(p['power_place'])})"
            for p in by_name
        ]),
        ("Total", [str(p["total"]) for p in by_name]),
    ]
    width = 2 + max(len(c) for c in [*names, *(c for _, cells in rows for c in cells)])

    def line(label: str, cells: list[str]) -> str:
        return f"{label:<26}" + "".join(f"{c:>{width}}" for c in cells)

    out = ["The King's Dilemma — end of game scoring", line("", names)]
    out += [line(label, cells) for label, cells in rows]
    tokens = [
        f"{p['name']}: " + ", ".join(f"{t['token']} {t['points']:+d}" for t in p["open_agendas"])
        for p in by_name if p["open_agendas"]
    ]
    if tokens:
        out.append("Open agenda tokens — " + "; ".join(tokens))
    places = result["resource_places"]
    out.append("Resources — " + ", ".join(
        f"{RESOURCE_NAMES[r][0]} {result['resources'][r]} "
        f"({_ordinal(places[r]['from_highest'])} highest, "
        f"{_ordinal(places[r]['from_lowest'])} lowest)"
        for r in RESOURCES
    ))
    winners = result["winners"]
    out.append(("Winner: " if len(winners) == 1 else "Shared victory: ") + listed(winners))
    return "\n".join(out)
