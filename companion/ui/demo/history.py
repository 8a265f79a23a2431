"""The history's demo: a few evenings' games, page by page, filtered, and the players' statistics."""

from __future__ import annotations

from companion.ui.screens.history import HistoryScreen


def demo_history(ctx):
    """The demo's history: a fresh ``demo-history.db`` in the demo's output directory when
    the app keeps none (``companion demo`` keeps none)."""
    if ctx.app.history is None:
        path = ctx.out / "demo-history.db"
        for old in ctx.out.glob("demo-history.db*"):
            old.unlink()
        ctx.app.table.keep_history(path)
    return ctx.app.history


def _result(game: str, scores: dict[str, int], winners: list[str]) -> dict:
    return {"game": game, "winners": winners,
            "players": [{"name": n, "total": s, "breakdown": {"total": s}}
                        for n, s in scores.items()]}


def demo(ctx) -> None:
    """The history after a few evenings (the Inheritors count of the previous demo among
    them): the games page by page with the BG Stats code of the latest, filtered by game,
    the players' statistics, and the charts."""
    h = demo_history(ctx)
    h.record(_result("koryo", {"Ana": 31, "Ben": 27, "Cleo": 33, "Dan": 25}, ["Cleo"]),
             date="2026-11-02T20:40:00+01:00")
    h.record(_result("kings-dilemma", {"Ana": 14, "Ben": 17, "Cleo": 9, "Dan": 17, "Eve": 12},
                     ["Ben", "Dan"]), date="2026-11-09T22:10:00+01:00")
    h.record(_result("choson", {"Ben": 41, "Dan": 38}, ["Ben"]),
             date="2026-11-14T21:05:00+01:00")
    for day, scores in ((16, {"Ana": 22, "Cleo": 19}), (18, {"Ana": 18, "Ben": 18, "Eve": 20})):
        best = max(scores.values())
        h.record(_result("inheritors", scores, [n for n, s in scores.items() if s == best]),
                 date=f"2026-11-{day}T21:30:00+01:00")
    screen = HistoryScreen(ctx.app)
    ctx.show(screen)
    ctx.shot()
    ctx.tap(screen.rows[0].rect, "the latest game")
    ctx.shot()
    ctx.tap(ctx.app.screen.back.rect, "back")
    ctx.tap(screen.next_rect, "next page")
    ctx.shot("page-2")
    ctx.tap(screen.filter_rect, "filter")
    while screen.game != "inheritors":
        ctx.tap(screen.filter_rect, "filter")
    ctx.shot("inheritors")
    ctx.tap(screen.view_rect, "players")
    ctx.shot("inheritors-players")
    while screen.game is not None:
        ctx.tap(screen.filter_rect, "filter")
    ctx.shot("players")
    ctx.tap(screen.charts_rect, "charts")
    pictures = ctx.app.screen
    for page in pictures.pages:  # every game's, and the campaign's when it has nights
        ctx.shot(page)
        ctx.tap(pictures.next_rect, "next chart")
    ctx.tap(pictures.back_rect, "back")
