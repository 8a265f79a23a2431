"""Drawing pieces shared by the Inheritors setup and sheet: the table
(the felt in the middle, the seat ring around it, as on every game screen), touch tiles
drawn by their owner, a grid, the Influence cards' colours and names."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from companion.games.inheritors import data as inheritors_data
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.home import HomeScreen
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import SMALLEST, Button, OnTheFelt

# What the Influence cards look like (keys of companion/games/inheritors/inheritors.yaml).
CARD_COLOURS = {
    "yellow": (226, 186, 40),
    "purple": (136, 78, 170),
    "blue": (58, 108, 200),
    "red": (196, 58, 48),
    "green": (58, 146, 72),
}
SELECTED = (255, 214, 120)


class Tile(Button):
    """A touch target drawn by its owner (``paint(p, rect, pressed)``)."""

    def __init__(self, rect: pygame.Rect, on_tap: Callable[[], None],
                 paint: Callable[[Painter, pygame.Rect, bool], None]) -> None:
        super().__init__(rect, "", on_tap)
        self.paint = paint

    def draw(self, p: Painter) -> None:
        self.paint(p, self.rect, self.pressed)
        p.targets.append(self.rect)


class TableScreen(OnTheFelt, Screen):
    """The felt in the middle with the seat ring around it (every seat at its place, its
    pad's light mirrored); ``inner``: where the screen draws; ``buttons`` rebuilt by
    ``build()`` after every change."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.on_the_felt(SeatRing(app.theme, app.seats, app.catalog))
        self.buttons: list = []

    def build(self) -> None:
        raise NotImplementedError

    def refresh(self) -> None:
        self.build()
        self.app.invalidate()

    def plain(self, p: Painter, text: str, box: pygame.Rect, size: int,
              colour=th.INK, align: str = "left") -> None:
        """One line of ``size`` pixels, smaller to fit ``box`` (not below ``SMALLEST``)."""
        theme = self.app.theme
        p.text(text, theme.fitting_font(text, size, box.w, theme.px(SMALLEST)), colour, box,
               align)

    def leave(self) -> None:
        """Back to the screen below (Home), or Home when there is none."""
        if len(self.app.screens) > 1:
            self.app.pop()
        else:
            self.app.replace(HomeScreen(self.app))


def colour_name(app: App, key: str) -> str:
    c = inheritors_data.colours()[key]
    return c.fr if app.catalog.language == "fr" else c.en


def grid(area: pygame.Rect, cols: int, rows: int, gap: int) -> list[pygame.Rect]:
    """``area`` cut into ``cols`` × ``rows`` cells, row by row."""
    w = (area.w - gap * (cols - 1)) // cols
    h = (area.h - gap * (rows - 1)) // rows
    return [pygame.Rect(area.x + c * (w + gap), area.y + r * (h + gap), w, h)
            for r in range(rows) for c in range(cols)]

