"""Home's demo: the games, a seat saying it is here, Table check, a game left and abandoned."""

from __future__ import annotations

from companion.ui.home import HomeScreen


def demo(ctx) -> None:
    """Home: the games, a seat saying it is here, Table check opened and closed by touch;
    an Inheritors sheet left by its Home button shows as Resume, then is abandoned (two
    taps)."""
    ctx.show(HomeScreen(ctx.app))
    ctx.shot()
    ctx.press(1, "a")
    ctx.shot("seat-here")
    t = ctx.app.catalog.text
    home = ctx.app.screen
    ctx.tap(home.button(t("home.table_check")).rect, "table check")
    ctx.press(0, "b")
    ctx.shot("from-home")
    ctx.tap(ctx.app.screen.back_rect, "back")
    ctx.shot("back")
    ctx.tap(home.button(t("inheritors.menu")).rect, "Inheritors")
    setup = ctx.app.screen
    for seat in (0, 1):
        ctx.tap(setup.seat_rects[seat], f"seat {seat}")
    ctx.tap(setup.start_rect, "start")
    ctx.tap(ctx.app.screen.home_rect, "home")
    ctx.shot("resume")
    for label in ("abandon", "sure"):
        ctx.tap(home.abandons["inheritors"].rect, label)
        ctx.shot(label)
