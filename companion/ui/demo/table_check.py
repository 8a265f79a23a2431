"""Table check's demo: presses, the keyboard simulator, a blinking light, the light test."""

from __future__ import annotations

from companion.ui.table_check import TableCheckScreen


def demo(ctx) -> None:
    """Four players check their pads: short and long presses, the keyboard simulator, a
    blinking light, the light test and the reset by touch (``companion demo``)."""
    screen = TableCheckScreen(ctx.app)
    ctx.show(screen)
    ctx.shot()
    ctx.press(0, "a")
    ctx.shot("short-press")
    ctx.key("w", hold_ms=ctx.backend.long_press_ms + 100)  # seat 1, button B, held: long
    ctx.shot("long-press")
    ctx.press(2, "c")
    ctx.press(3, "b")
    ctx.shot("all-answered")
    ctx.wait(200)
    ctx.shot("blink-dark", lit=False)
    ctx.tap(screen.test_rect, "test lights")
    ctx.shot("test-lights")
    ctx.tap(screen.test_rect, "test lights")
    ctx.tap(screen.off_rect, "lights off")
    ctx.shot("lights-off")
