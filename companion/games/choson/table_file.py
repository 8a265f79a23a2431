"""`companion score` for Chosŏn table files (docs/table-files.md, "score: Chosŏn")."""

from __future__ import annotations

from companion.files.validate import check_keys, count, join, per_player, player_name, players
from companion.games.choson import rules as choson
from companion.games.koryo.table_file import read_areas, read_tokens, text_columns
from companion.play.errors import RuleError


def score(data: dict) -> dict:
    check_keys(
        data, "", {"game", "players", "cards", "first_player"},
        {"kept_events", "tokens", "yi_legacy"},
    )
    names = players(data["players"], "players", choson.MIN_PLAYERS, choson.MAX_PLAYERS)
    deck = {k: n for k, n in choson.DECK.items() if isinstance(k, int)}
    areas = read_areas(data["cards"], names, (), deck, choson.kind_name)
    kept = per_player(data.get("kept_events"), "kept_events", names)
    kept_events = {p: count(n, join("kept_events", p)) for p, n in kept.items()}
    total_kept = sum(kept_events.values())
    if total_kept > choson.EVENTS_IN_DECK:
        last = [p for p in names if kept_events.get(p)][-1]
        raise RuleError(
            join("kept_events", last),
            f"{total_kept} events, but the deck has {choson.EVENTS_IN_DECK}",
            code="kept_events_deck", params={"total": total_kept, "deck": choson.EVENTS_IN_DECK},
        )
    tokens = read_tokens(data.get("tokens"), "tokens", names, choson.VP_TOKENS)
    first = player_name(data["first_player"], "first_player", names)
    legacy = data.get("yi_legacy")
    if legacy is not None:
        legacy = player_name(legacy, "yi_legacy", names)
    return choson.result(
        choson.final_score(names, areas, tokens, kept_events, first, legacy), areas)


def render(result: dict) -> str:
    text = text_columns(
        "Chosŏn — final scoring (points, cards in play in brackets)",
        result,
        [
            ("VP tokens", "tokens"),
            ("Kept events", "kept_events"),
            ("First player (+2)", "first_player"),
            ("Yi's Legacy", "yi_legacy"),
        ],
    )
    tie = result["tie_break"]
    if tie:
        if tie["family"] is None:
            how = "none of them controls a family: shared"
        else:
            fam = choson.FAMILIES[tie["family"]]
            how = f"{result['winners'][0]} controls the lowest family, {tie['family']} {fam.en}"
        text += f"\nTie between {', '.join(tie['tied'])}: {how}"
    return text
