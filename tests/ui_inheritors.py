"""Shared by the Inheritors and history screen tests: a sheet started and filled by touch
on a ``TableRig``, and the rulebook-like count of three players."""

from __future__ import annotations

from table_rig import TableRig

from companion.ui.screens.inheritors import setup as screens


def start(t: TableRig, seats=(0, 1, 2), first=1) -> screens.SheetScreen:
    """The setup by touch: tap the seats that play, the first player, Start."""
    t.ctx.show(screens.new_game(t.app))
    setup = t.app.screen
    for seat in seats:
        t.tap(setup.seat_rects[seat], "seat")
    t.tap(setup.first_rects[first], "first")
    t.tap(setup.start_rect, "start")
    assert isinstance(t.app.screen, screens.SheetScreen), t.app.screen.describe()
    return t.app.screen


def undo(t: TableRig, sheet: screens.SheetScreen) -> None:
    """Undo as the table does it: two taps on the button ("Sure? Undo" in between)."""
    t.tap(sheet.undo_rect, "undo")
    t.tap(sheet.undo_rect, "sure? undo")


def set_value(t: TableRig, sheet: screens.SheetScreen, field: str, value) -> None:
    """Select ``field`` and tap − / + until it shows ``value`` (None: nothing)."""
    t.tap(sheet.field_rects[field], field)
    for _ in range(30):
        end = sheet.sheet.end(sheet.name_)
        now = end.stacks.get(field[6:]) if field.startswith("stack:") else getattr(end, field)
        if now == value:
            return
        up = now is None or (value is not None and value > now)
        t.tap(sheet.plus_rect if up else sheet.minus_rect, "+" if up else "-")
        assert sheet.message is None, sheet.message
    raise AssertionError(f"{field} never reached {value}")


def enter(t: TableRig, sheet: screens.SheetScreen, data: dict) -> None:
    """Everything of an Inheritors table file, entered by touch on the sheet."""
    for i, player in enumerate(data["players"]):
        t.tap(sheet.player_rects[i], player)
        for colour, value in data["stacks"].get(player, {}).items():
            set_value(t, sheet, f"stack:{colour}", value)
        for field in ("tomes", "hand", "honors", "bonus"):
            if player in data.get(field, {}):
                set_value(t, sheet, field, data[field][player])
        t.tap(sheet.field_rects["quests"], "quests")
        for value in data.get("quests", {}).get(player, []):
            t.tap(sheet.quest_rects[f"quests:{value}"][1], f"+ quest worth {value}")
        t.tap(sheet.field_rects["relics"], "relics")
        for colour in data.get("relics", {}).get(player, []):
            t.tap(sheet.relic_rects[colour], colour)
        assert sheet.message is None, sheet.message


THREE = {
    "game": "inheritors",
    "players": ["Ana", "Ben", "Cleo"],
    "stacks": {
        "Ana": {"yellow": 5, "purple": 3, "blue": 4, "green": 1},
        "Ben": {"yellow": 5, "red": 4, "green": 2},
        "Cleo": {"purple": 6, "blue": 5, "red": 3},
    },
    "tomes": {"Ana": 2, "Ben": 2, "Cleo": 1},
    "hand": {"Ana": 5, "Ben": 4, "Cleo": 6},
    "relics": {"Ana": ["blue", "green"], "Ben": ["yellow"], "Cleo": ["red"]},
    "quests": {"Ana": [2], "Ben": [2, 1], "Cleo": [1, 1]},
    "honors": {"Ana": 1, "Ben": 2},
    "bonus": {"Cleo": 1, "Ben": -3},
}
