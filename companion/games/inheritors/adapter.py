"""Inheritors at the table: the final score sheet as a Session rules adapter (its rulebook).

The sheet is filled in entry by entry (one action each), so it is journaled like any game:
a cut during the count loses nothing and undo takes back the last entry. Every entry is
checked by the engine's ``validate`` on the whole sheet; a refusal raises its
``RuleError`` and changes nothing. The view's ``score`` is exactly what
``companion score --json`` gives for a table file of the same sheet: the same engine
function (``inheritors.result``) makes both.

Actions (JSON dicts, as journaled), ``player`` a name of the setup:

- ``{"kind": "stack", "player", "colour", "value": 1..6 | None}``: the top card of a
  colour stack (None: no stack of that colour);
- ``{"kind": "count", "player", "field": tomes|hand|honors|bonus, "value": int}``
  (``hand`` may be None: not counted);
- ``{"kind": "relic", "player", "colour", "held": bool}``;
- ``{"kind": "quest", "player", "index", "value": 1 | 2 | None}``: ``index`` = the number of
  quests adds one; None removes that quest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.inheritors import rules as inheritors
from companion.games.inheritors.data import colours
from companion.games.inheritors.rules import PlayerEnd
from companion.play.errors import RuleError, whole_number
from companion.play.seat import Light
from companion.play.seating import check_setup
from companion.play.turns import Turns

SETUP_KEYS = ("players", "seats", "first_player")
COUNTS = ("tomes", "hand", "honors", "bonus")
KINDS = ("stack", "count", "relic", "quest")


@dataclass(frozen=True)
class Sheet:
    players: tuple[str, ...]  # seating order
    seats: tuple[int, ...]  # configured seat of each player
    first_player: str
    ends: tuple[PlayerEnd, ...]

    def end(self, player: str) -> PlayerEnd:
        return self.ends[self.players.index(player)]


def _whole(value: Any, field: str, *, none: bool = False) -> int | None:
    return None if value is None and none else whole_number(value, field)


class InheritorsSheet:
    """The Session rules object of an Inheritors final count."""

    name = inheritors.GAME

    def initial(self, setup: Mapping) -> Sheet:
        """``setup``: ``{"players": [names clockwise], "seats": [seat per player],
        "first_player": name}``; 2–4 players."""
        check_setup(setup, SETUP_KEYS)
        names = setup.get("players")
        if not isinstance(names, list) or not all(isinstance(p, str) and p for p in names):
            raise RuleError("players", "expected a list of player names", code="player_names")
        seats = setup.get("seats", list(range(len(names))))
        if (not isinstance(seats, list) or len(seats) != len(names)
                or len(set(seats)) != len(seats)
                or not all(_whole(s, "seats") >= 0 for s in seats)):
            raise RuleError("seats", f"expected {len(names)} different seat numbers",
                            code="seat_numbers", params={"n": len(names)})
        first = setup.get("first_player", names[0] if names else None)
        if first not in names:
            raise RuleError("first_player", f"{first!r} is not one of the players",
                            code="not_a_player", params={"player": repr(first)})
        ends = tuple(PlayerEnd(n) for n in names)
        inheritors.validate(ends, tuple(colours()))
        return Sheet(tuple(names), tuple(seats), first, ends)

    def edit(self, sheet: Sheet, action: Mapping) -> Sheet:
        """The sheet with ``action`` written in, not yet checked against the rules."""
        if not isinstance(action, Mapping):
            raise RuleError("action", "expected a mapping", code="expected_mapping")
        kind, player = action.get("kind"), action.get("player")
        if kind not in KINDS:
            raise RuleError("kind", f"{kind!r}: one of {', '.join(KINDS)}",
                            code="one_of",
                            params={"value": repr(kind), "allowed": ", ".join(KINDS)})
        if player not in sheet.players:
            raise RuleError("player", f"{player!r} is not one of the players",
                            code="not_a_player", params={"player": repr(player)})
        end = sheet.end(player)
        if kind == "stack":
            colour, value = action.get("colour"), _whole(action.get("value"), "value", none=True)
            stacks = {c: v for c, v in end.stacks.items() if c != colour}
            if value is not None:
                stacks = {**dict(end.stacks), colour: value}
            end = dataclasses.replace(end, stacks=stacks)
        elif kind == "count":
            field = action.get("field")
            if field not in COUNTS:
                raise RuleError("field", f"{field!r}: one of {', '.join(COUNTS)}",
                                code="one_of",
                                params={"value": repr(field), "allowed": ", ".join(COUNTS)})
            value = _whole(action.get("value"), "value", none=field == "hand")
            end = dataclasses.replace(end, **{field: value})
        elif kind == "relic":
            colour = action.get("colour")
            relics = tuple(c for c in end.relics if c != colour)
            if action.get("held"):
                relics += (colour,)
            end = dataclasses.replace(end, relics=relics)
        else:
            index = _whole(action.get("index"), "index")
            quests = list(end.quests)
            if not 0 <= index <= len(quests):
                raise RuleError("index", f"{player} has {len(quests)} quests, no quest {index}",
                                code="no_such_quest",
                                params={"player": player, "n": len(quests), "index": index})
            value = _whole(action.get("value"), "value", none=True)
            if value is None:
                quests[index:index + 1] = []
            else:
                quests[index:index + 1] = [value]
            end = dataclasses.replace(end, quests=tuple(quests))
        i = sheet.players.index(player)
        return dataclasses.replace(sheet, ends=sheet.ends[:i] + (end,) + sheet.ends[i + 1:])

    def apply(self, sheet: Sheet, action: Mapping) -> Sheet:
        """The sheet after ``action``, or the engine's RuleError (fields as in a table
        file: ``stacks.Ana.red``, ``quests.Ben.0``)."""
        new = self.edit(sheet, action)
        inheritors.validate(new.ends, tuple(colours()))
        return new

    def public_view(self, sheet: Sheet) -> dict:
        return {
            "game": self.name,
            "players": list(sheet.players),
            "seats": list(sheet.seats),
            "first_player": sheet.first_player,
            "score": inheritors.result(sheet.ends, colours()),
        }

    @staticmethod
    def turns(view: Mapping) -> Turns:
        """The first player's seat marked FIRST_PLAYER; no seat acts by itself (the
        controller says whose count is open)."""
        seats = dict(zip(view["players"], view["seats"], strict=True))
        return Turns(tuple(view["seats"]), marks={seats[view["first_player"]]: Light.FIRST_PLAYER})

