"""Test helpers for what the table sees: five seats with long names, the pixel a canvas
point shows, and the layout check every screen test runs (texts whole, legible and apart,
touch targets large and apart)."""

from __future__ import annotations

import itertools

import pygame

from companion.config import SeatConfig
from companion.ui import theme as th
from companion.ui.app import App

FIVE = (
    SeatConfig("Ana", (220, 40, 40), "bottom-left"),
    SeatConfig("Ben", (40, 80, 220), "bottom-right"),
    SeatConfig("Cléo", (40, 180, 80), "right"),
    SeatConfig("Dominique-Alexandre", (230, 200, 40), "top"),
    SeatConfig("Eve", (160, 60, 200), "left"),
)
LEGIBLE = 22  # the smallest type: pygame's font at size 22 on 800x480, scaled with the unit


def window_pixel(app: App, canvas_point: tuple[int, int]) -> tuple[int, int, int]:
    """The window's pixel showing ``canvas_point`` (0° or 180°: to_canvas is its own
    inverse)."""
    assert app.rotation in (0, 180)
    return tuple(app.window.get_at(app.to_canvas(canvas_point)))[:3]


def check_layout(app: App) -> None:
    """Every text is whole (not cut by its box), legible and on the canvas, no two texts overlap,
    every touch target is at least MIN_TARGET each way, on the canvas, apart from the
    others and from every text that is not its own label."""
    painter = app.painter
    canvas = pygame.Rect((0, 0), app.size)
    assert painter.texts, "nothing drawn"
    legible = app.theme.font(app.theme.px(LEGIBLE)).get_height()
    for box in painter.texts:
        assert not box.clipped, f"text cut: {box.text!r} at {box.rect}"
        assert box.height >= legible, f"text too small: {box.text!r} {box.height} px"
        assert canvas.contains(box.rect), f"off screen: {box.text!r}"
    for a, b in itertools.combinations(painter.texts, 2):
        assert not a.rect.colliderect(b.rect), f"texts overlap: {a.text!r} {b.text!r}"
    for target in painter.targets:
        assert min(target.size) >= th.MIN_TARGET, f"touch target too small: {target}"
        assert canvas.contains(target)
    for a, b in itertools.combinations(painter.targets, 2):
        assert not a.colliderect(b), f"touch targets overlap: {a} {b}"
    for target in painter.targets:
        for box in painter.texts:
            assert target.contains(box.rect) or not target.colliderect(box.rect), box.text
