"""`companion score` for Inheritors table files (docs/table-files.md,
"score: Inheritors"), and the game's card data (``companion/data/inheritors.yaml``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import yamlsrc
from companion.engine import inheritors
from companion.engine.errors import RuleError, listed
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

DATA = Path(__file__).resolve().parent.parent / "data" / "inheritors.yaml"
COLOURS_IN_BOX = 5


@dataclass(frozen=True)
class Colour:
    key: str  # what table files write
    en: str
    fr: str


def load_colours(path: str | Path = DATA) -> dict[str, Colour]:
    """The colours of the game, in display order; a bad data file is a ``SourceError``."""
    doc = yamlsrc.load(path, "a table file")
    try:
        data = mapping(doc.data, "")
        check_keys(data, "", {"colours"})
        block = mapping(data["colours"], "colours")
        if len(block) != COLOURS_IN_BOX:
            raise RuleError("colours", f"{len(block)} colours, but the game has {COLOURS_IN_BOX}",
                            code="colours_in_box", params={"n": len(block), "box": COLOURS_IN_BOX})
        colours = {}
        for key, names in block.items():
            path_ = join("colours", key)
            if not isinstance(key, str) or not key.isidentifier() or key != key.lower():
                raise RuleError(path_, "a colour key is one lower-case word", code="colour_key")
            names = mapping(names, path_)
            check_keys(names, path_, {"en", "fr"})
            for lang in ("en", "fr"):
                if not isinstance(names[lang], str) or not names[lang].strip():
                    raise RuleError(join(path_, lang), f"expected a name, got "
                                    f"{describe(names[lang])}",
                                    code="expected_name", params={"got": describe(names[lang])})
            colours[key] = Colour(key, names["en"], names["fr"])
    except RuleError as exc:
        raise doc.error(exc.field, exc.message) from None
    return colours


@functools.cache
def colours() -> dict[str, Colour]:
    """The shipped colours (read once)."""
    return load_colours()


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
    ends = read_players(data)
    result = inheritors.final_score(ends, tuple(colours()))
    highest = result.highest
    return {
        "game": inheritors.GAME,
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
            for s, e in zip(result.players, ends, strict=True)
        ],
        "winners": list(result.winners),
        "tie_break": {"tied": list(result.tied), "decided_by": result.decided_by}
        if len(result.tied) > 1
        else None,
        "colours": [
            {
                "colour": c.key,
                "en": c.en,
                "fr": c.fr,
                "highest": highest.get(c.key),
                "played_highest": [e.name for e in ends
                                   if c.key in highest and e.stacks.get(c.key) == highest[c.key]],
            }
            for c in colours().values()
        ],
    }


def render(result: dict) -> str:
    """The human table: top card of each colour per player (* = highest of that colour), the
    breakdown, the totals and the winner(s), with the tie-break when one decided."""
    names = [p["name"] for p in result["players"]]
    by_name = {p["name"]: p for p in result["players"]}
    width = max(8, *(len(n) + 2 for n in names))
    label_w = 24

    def line(label: str, cells: list[str]) -> str:
        return f"{label:<{label_w}}" + "".join(f"{c:>{width}}" for c in cells)

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
    winners = result["winners"]
    out.append(("Winner: " if len(winners) == 1 else "Shared victory: ") + listed(winners))
    tie = result["tie_break"]
    if tie:
        how = {
            inheritors.BY_TOMES: "most tomes in hand",
            inheritors.BY_HAND: "same tomes, most cards in hand",
            inheritors.SHARED: "same tomes and cards in hand: shared",
        }[tie["decided_by"]]
        out.append(f"Tie between {', '.join(tie['tied'])}: {how}")
    return "\n".join(out)
