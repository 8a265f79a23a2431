"""Inheritors' demo: three players count a game by touch and save it to the history."""

from __future__ import annotations

from companion.games.inheritors import data as inheritors_data
from companion.ui.demo.history import demo_history
from companion.ui.screens.inheritors.setup import SetupScreen


def demo(ctx) -> None:
    """Three players count an Inheritors game by touch: setup with the first player lit,
    the sheet with a refusal (a 7) and an undo, then the final score (a tie broken by the
    tomes in hand) saved to history."""
    app = ctx.app
    demo_history(ctx)
    setup = SetupScreen(app)
    ctx.show(setup)
    for seat in (0, 1, 2):
        ctx.tap(setup.seat_rects[seat], f"seat {seat}")
    ctx.tap(setup.first_rects[1], "first player")
    ctx.shot("setup")
    ctx.tap(setup.start_rect, "start")
    sheet = app.screen
    entries = {
        0: {"yellow": 5, "purple": 3, "blue": 4, "tomes": 2, "honors": 1, "quests": [2]},
        1: {"yellow": 6, "red": 4, "green": 2, "tomes": 1, "honors": 2, "quests": [2, 1]},
        2: {"purple": 6, "blue": 5, "red": 3, "tomes": 3, "quests": [1], "bonus": 2},
    }
    relics = {0: "blue", 1: "yellow", 2: "red"}
    for player, values in entries.items():
        ctx.tap(sheet.player_rects[player], f"player {player}")
        for field, value in values.items():
            key = f"stack:{field}" if field in inheritors_data.colours() else field
            ctx.tap(sheet.field_rects[key], field)
            if field == "quests":
                for worth in value:
                    ctx.tap(sheet.quest_rects[f"quests:{worth}"][1], f"+ quest worth {worth}")
                continue
            for _ in range(value):
                ctx.tap(sheet.plus_rect, "+")
        ctx.tap(sheet.field_rects["relics"], "relics")
        ctx.tap(sheet.relic_rects[relics[player]], "relic")
    ctx.shot("relics")
    ctx.tap(sheet.field_rects["stack:yellow"], "yellow")
    ctx.tap(sheet.plus_rect, "+")  # Cleo has no yellow: 1
    ctx.tap(sheet.player_rects[1], "Ben")
    ctx.tap(sheet.plus_rect, "+")  # Ben's 6 → 7: refused
    ctx.shot("refused")
    ctx.tap(sheet.player_rects[2], "Cleo")
    ctx.tap(sheet.undo_rect, "undo")
    ctx.shot("undo_sure")
    ctx.tap(sheet.undo_rect, "sure? undo")
    ctx.tap(sheet.field_rects["quests"], "quests")
    ctx.shot("sheet")
    ctx.tap(sheet.player_rects[1], "Ben")
    ctx.tap(sheet.field_rects["bonus"], "clan bonus")
    ctx.tap(sheet.plus_rect, "+")  # Ben ties Cleo at 19: Cleo has more tomes
    ctx.tap(sheet.finish_rect, "final score")
    ctx.shot("final")
    final = app.screen
    ctx.tap(final.save_rect, "save")
    ctx.shot("saved")
