"""The game history on the touchscreen (issue #5)."""

from __future__ import annotations

from companion.history import History


def demo_history(ctx) -> History:
    """The demo's history: a fresh ``demo-history.db`` in the demo's output directory when
    the app keeps none (``companion demo`` keeps none)."""
    if ctx.app.history is None:
        path = ctx.out / "demo-history.db"
        for old in ctx.out.glob("demo-history.db*"):
            old.unlink()
        ctx.app.history = History(path)
    return ctx.app.history
