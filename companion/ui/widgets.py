"""Touch widgets."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from companion.ui import theme as th
from companion.ui.theme import Painter


class Button:
    """A rounded button that acts when a finger lifts inside it, having gone down inside
    it (so a finger sliding across the screen triggers nothing)."""

    def __init__(self, rect: pygame.Rect, label: str, on_tap: Callable[[], None]) -> None:
        self.rect = pygame.Rect(rect)
        self.label = label
        self.on_tap = on_tap
        self.pressed = False

    def draw(self, p: Painter) -> None:
        radius = self.rect.height // 4
        shadow = self.rect.move(0, max(2, self.rect.height // 16))
        pygame.draw.rect(p.surface, th.SOCKET, shadow, border_radius=radius)
        fill = th.BUTTON_PRESSED if self.pressed else th.BUTTON
        pygame.draw.rect(p.surface, fill, self.rect, border_radius=radius)
        inner = self.rect.inflate(-self.rect.height // 2, 0)
        font = p.theme.fitting_font(self.label, round(self.rect.height * 0.5), inner.width)
        p.text(self.label, font, th.BUTTON_INK, inner)
        p.targets.append(self.rect)

    def pointer_down(self, pos: tuple[int, int]) -> bool:
        """True if this press changed how the button looks."""
        inside = self.rect.collidepoint(pos)
        changed = inside != self.pressed
        self.pressed = inside
        return changed

    def pointer_up(self, pos: tuple[int, int]) -> bool:
        was = self.pressed
        self.pressed = False
        if was and self.rect.collidepoint(pos):
            self.on_tap()
        return was
