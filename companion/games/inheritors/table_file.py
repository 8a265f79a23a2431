"""`companion score` for Inheritors table files (docs/table-files.md,
"score: Inheritors")."""

from __future__ import annotations

from typing import Any

from companion.files.table_text import row_format, winners_line
from companion.files.validate import (
    check_keys,
    count,
    describe,
    integer,
    join,
    mapping,
    per_player,
    players,
)
from companion.games.inheritors import rules as inheritors
from companion.games.inheritors.data import colours
from companion.play.errors import RuleError


def _colour(value: Any, path: str) -> Any:
    """A colour as written; a French name gets a hint (the engine refuses any other)."""
    for c in colours().values():
        if isinstance(value, str) and value.strip().lower() == c.fr.lower() and value != c.key:
            raise RuleError(path, f"write the colour in English: {c.key} (not {value})",
                            code="colour_in_english", params={"item": c.key, "value": value})
    return value


def _list(value: Any, path: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise RuleError(path, f"expected a list, got {describe(value)}",
                        code="expected_list", params={"got": describe(value)})
    return value


def read_players(data: dict) -> list[inheritors.PlayerEnd]:
    """The table file's blocks, per player, in seating order (missing: zero / empty)."""
    check_keys(
        data, "", {"game", "players", "stacks"},
        {"tomes", "hand", "relics", "quests", "honors", "bonus"},
    )
    names = players(data["players"], "players", inheritors.MIN_PLAYERS, inheritors.MAX_PLAYERS)
    blocks = {
        key: per_player(data.get(key), key, names)
        for key in ("stacks", "tomes", "hand", "relics", "quests", "honors", "bonus")
    }
    out = []
    for p in names:
        path = join("stacks", p)
        stacks = {
            _colour(c, join(path, c)): v for c, v in mapping(blocks["stacks"].get(p), path).items()
        }
        relics = _list(blocks["relics"].get(p), join("relics", p))
        hand = blocks["hand"].get(p)
        out.append(inheritors.PlayerEnd(
            name=p,
            stacks=stacks,
            tomes=count(blocks["tomes"].get(p, 0), join("tomes", p)),
            hand=None if hand is None else count(hand, join("hand", p)),
            relics=tuple(_colour(c, join(join("relics", p), i)) for i, c in enumerate(relics)),
            quests=tuple(_list(blocks["quests"].get(p), join("quests", p))),
            honors=count(blocks["honors"].get(p, 0), join("honors", p)),
            bonus=integer(blocks["bonus"].get(p, 0), join("bonus", p)),
        ))
    return out


def score(data: dict) -> dict:
    return inheritors.result(read_players(data), colours())


def render(result: dict) -> str:
    """The human table: top card of each colour per player (* = highest of that colour), the
    breakdown, the totals and the winner(s), with the tie-break when one decided."""
    names = [p["name"] for p in result["players"]]
    by_name = {p["name"]: p for p in result["players"]}
    line = row_format(names)

    out = ["Inheritors — final scoring (top Influence card per colour, * highest)",
           line("", names)]
    for col in result["colours"]:
        if col["highest"] is None:
            continue
        cells = []
        for p in names:
            v = by_name[p]["stacks"].get(col["colour"])
            cells.append("·" if v is None else f"{v}*" if p in col["played_highest"] else str(v))
        out.append(line(f"  {col['en']}", cells))
    rows = [
        ("Influence", "influence", None),
        ("Tomes (in hand)", "tomes", "tomes_in_hand"),
        ("Relics (held)", "relics", "relics"),
        ("Quests (held)", "quests", "quests"),
        ("Honors", "honors", None),
        ("Clan bonus", "bonus", None),
    ]
    for label, key, detail in rows:
        cells = []
        for p in names:
            pts = str(by_name[p]["breakdown"][key])
            if detail is not None:
                d = by_name[p][detail]
                n = d if isinstance(d, int) else len(d)
                pts += f" ({n})" if n else ""
            cells.append(pts)
        out.append(line(label, cells))
    out.append(line("Total", [str(by_name[p]["total"]) for p in names]))
    out.append(winners_line(result["winners"]))
    tie = result["tie_break"]
    if tie:
        how = {
            inheritors.BY_TOMES: "most tomes in hand",
            inheritors.BY_HAND: "same tomes, most cards in hand",
            inheritors.SHARED: "same tomes and cards in hand: shared",
        }[tie["decided_by"]]
        out.append(f"Tie between {', '.join(tie['tied'])}: {how}")
    return "\n".join(out)
