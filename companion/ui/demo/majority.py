"""Koryŏ and Chosŏn driven the way players do (the demo and the tests): seat button A for the
next step, taps on the card entry for an order, taps on a power's options otherwise."""

from __future__ import annotations

import random

from companion.games.majority.autoplay import next_action
from companion.play.seat import Press
from companion.ui.screens.majority.common import GameSpec
from companion.ui.screens.majority.game import GameScreen
from companion.ui.screens.majority.setup import SetupScreen


def play(ctx, action: dict) -> None:
    """Carry out ``action`` on the screen the way players do: seat button A for the next
    step, taps on the card entry for an order, taps on a power's option otherwise
    (``ctx``: a ``companion.ui.demo.DemoContext``; the demo and the tests use it)."""
    screen: GameScreen = ctx.app.screen
    name = action["action"]
    if name in ("start_round", "no_time_travel", "end_turn", "end_round"):
        ctx.press(screen.seat_of(screen.acting()), "a")
    elif name == "reveal":
        ctx.tap(screen.button("entry").rect, "enter cards")
        for kind, n in action["cards"].items():
            for _ in range(n):
                ctx.tap(screen.tiles[kind], f"family {kind}")
        ctx.tap(screen.button("reveal").rect, "reveal")
    else:
        ctx.tap(screen.button("powers").rect, "powers")
        for _ in range(sum(len(options) for _, options in screen.offered()) + 10):
            buttons = screen.option_buttons
            full = [b for b in buttons if getattr(b, "action", None) == action]
            if full:
                ctx.tap(full[0].rect, full[0].label)
                if screen.mode == "powers":
                    ctx.tap(screen.button("back").rect, "back")
                return
            here = action in screen.remaining()  # the power on screen is the one
            part = [b for b in buttons if here and getattr(b, "pick", None)
                    and action[b.pick[0]] == b.pick[1]]
            more, other = screen.button("page"), screen.button("other")
            if part:
                ctx.tap(part[0].rect, part[0].label)
            elif here and more and screen.page + 1 < screen.pages:
                ctx.tap(more.rect, "more")
            elif other and not here:
                ctx.tap(other.rect, "other power")
            else:
                break
        raise AssertionError(f"{action} is not offered on screen")


def demo_game(ctx, spec: GameSpec, seed: int, drop_seat: int | None) -> None:
    """A shortened game for ``companion demo``: set-up by touch, rounds 1, 2 and 8 played
    through the screen (card entry, a refused count, powers, undo, limit warnings), rounds
    3–7 fast-forwarded through the session, then the final score (recorded in the demo's
    history when the app has one)."""
    rng = random.Random(seed)
    setup = SetupScreen(ctx.app, spec)
    ctx.show(setup)
    ctx.shot()
    if drop_seat is not None:
        ctx.tap(setup.button(f"seat-{drop_seat}").rect, "seat out")
    ctx.tap(setup.button("first").rect, "first player")
    ctx.shot("players")
    ctx.tap(setup.button("start").rect, "start")
    screen: GameScreen = ctx.app.screen
    ctx.shot("before-round-1")
    shown: set[str] = set()
    while screen.view["phase"] != "over":
        action = next_action(screen.game.rules, screen.game.session.state, rng)
        v = screen.view
        if 2 <= v["round"] <= 7 and v["phase"] != "setup":
            screen.dispatch(action)
            ctx.record(f"fast-forward {action['action']}")
            continue
        name = action["action"]
        if name == "reveal" and "entry" not in shown:
            shown.add("entry")
            ctx.tap(screen.button("entry").rect, "enter cards")
            ctx.tap(screen.tiles["1"], "family 1")
            ctx.tap(screen.tiles["1"], "family 1 again")
            ctx.shot("refused")
            ctx.tap(screen.button("cancel").rect, "cancel")
            ctx.tap(screen.button("entry").rect, "enter cards")
            for kind, n in action["cards"].items():
                for _ in range(n):
                    ctx.tap(screen.tiles[kind], f"family {kind}")
            ctx.shot()
            ctx.tap(screen.button("reveal").rect, "reveal")
            ctx.shot("revealed")
            continue
        steps = ("start_round", "no_time_travel", "end_turn", "end_round", "reveal")
        if name not in steps and "powers" not in shown:
            shown.add("powers")
            ctx.tap(screen.button("powers").rect, "powers")
            ctx.shot()
            ctx.tap(screen.button("back").rect, "back")
        if v["round"] == v["rounds"] and len(screen.info_pages) > 1 and "more" not in shown:
            shown.add("more")
            ctx.app.step(block=False)  # after a fast-forward: draw this view first
            ctx.shot("crowded")
            for _ in range(len(screen.info_pages)):
                ctx.tap(screen.button("more").rect, "more")
                ctx.shot("more" if screen.info_page else "board-again")
        discards = any(pw["code"] == "discard" for pw in v["powers"])
        if v["phase"] == "end" and "limit" not in shown and discards:
            shown.add("limit")
            ctx.shot("limit-warning")
        play(ctx, action)
        if name == "start_round" and v["round"] == 1:
            ctx.shot("round-2-first-player-passed")
            ctx.press(screen.game.undo_seat(), "c", Press.LONG)  # the seat that made it
            ctx.shot("undo-request")
            ctx.tap(screen.button("undo").rect, "undo")
            ctx.shot("undo-sure")
            ctx.tap(screen.button("undo").rect, "undo, sure")
            ctx.shot("undone")
            ctx.press(screen.seat_of(screen.acting()), "a")
    ctx.shot()
