"""Koryŏ's demo: a shortened game for three."""

from __future__ import annotations

from companion.ui.demo.majority import demo_game
from companion.ui.screens.majority.koryo import SPEC


def demo(ctx) -> None:
    """A shortened Koryŏ game for three (``companion demo``)."""
    demo_game(ctx, SPEC, seed=3, drop_seat=3)
