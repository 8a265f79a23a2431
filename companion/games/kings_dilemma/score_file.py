"""`companion score` for The King's Dilemma (docs/table-files.md, "score: The King's
Dilemma (one game's end)")."""

from __future__ import annotations

from companion.files.table_text import row_format, winners_line
from companion.files.validate import check_keys, count, integer, join, mapping, per_player, players
from companion.games.kings_dilemma import score as ks
from companion.games.kings_dilemma.data import read_agendas, read_open_agendas
from companion.games.kings_dilemma.kingdom import RESOURCE_NAMES, RESOURCES


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
    agendas = read_agendas(data["agendas"], names)
    open_agendas = read_open_agendas(data.get("open_agendas"), names)
    final = ks.final_score(names, coins, power, resources, agendas, open_agendas)
    return ks.result(final, coins, power, resources)


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
    line = row_format(names, label_width=26, width=width)

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
    out.append(winners_line(result["winners"]))
    return "\n".join(out)
