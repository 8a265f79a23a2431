"""Chosŏn's demo: a shortened game for four."""

from __future__ import annotations

from companion.ui.demo.majority import demo_game
from companion.ui.screens.majority.choson import SPEC


def demo(ctx) -> None:
    """A shortened Chosŏn game for four (``companion demo``)."""
    demo_game(ctx, SPEC, seed=5, drop_seat=None)
