"""Colours, type sizes and text drawing, all scaled from the screen size.

One ``unit`` is a 480th of the short side of the screen (an 800th of the long side on a
squarer screen), so a layout drawn in units reads the same on the 7" 800×480 panel, a
1280×720, a 1280×800 and a 1024×768 screen. Type is pygame's own
font (``freesansbold.ttf``, shipped inside pygame), which has é, è, à and ŏ (Koryŏ,
Chosŏn): nothing to install (``tests/ui/test_ui_look.py`` checks every catalog character).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import pygame

T = TypeVar("T")
MEASURED_MAX = 512  # sizes a canvas keeps measured (``Theme.measured``)

Colour = tuple[int, int, int]

# A dark table: walnut rim where the players sit, green felt in the middle, cream type.
RIM = (33, 24, 19)
RIM_EDGE = (58, 43, 33)
FELT = (20, 74, 56)
FELT_EDGE = (196, 160, 84)  # brass
PLATE = (47, 35, 28)
PLATE_TURN = (92, 64, 22)  # the plate of a seat whose turn it is, steady
INK = (246, 240, 224)
INK_SOFT = (196, 206, 190)
INK_DIM = (186, 176, 160)  # what is not on now: softer, still 4.5:1 on the felt
WARNING = (255, 196, 64)
WARNING_BG = (74, 52, 16)
MISSING = (255, 150, 120)
BUTTON = (236, 226, 200)
BUTTON_PRESSED = (196, 160, 84)
BUTTON_INK = (30, 40, 34)
BUTTON_OFF = (52, 46, 40)  # a button that can't be used yet: flat, dark, its label soft
SOCKET = (14, 10, 8)  # an unlit light

# Every pair of a text's colour and what it is drawn on, as the screens draw them: each
# reads at 4.5:1 or more (WCAG 2's minimum contrast for text; tests/ui/test_ui_look.py).
TEXT_ON: tuple[tuple[str, str], ...] = tuple(
    (ink, ground)
    for ground in ("FELT", "PLATE", "RIM", "WARNING_BG", "BUTTON_OFF")
    for ink in ("INK", "INK_SOFT", "INK_DIM", "WARNING", "MISSING")
) + (("INK", "PLATE_TURN"), ("INK_SOFT", "PLATE_TURN"), ("WARNING", "PLATE_TURN"),
     ("BUTTON_INK", "BUTTON"), ("BUTTON_INK", "BUTTON_PRESSED"))


def luminance(colour: Colour) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0 black … 1 white)."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = colour
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Colour, b: Colour) -> float:
    """WCAG 2's contrast ratio of two colours (1 … 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(ground: Colour) -> Colour:
    """The text colour that reads best on ``ground``: dark ink or cream."""
    return max((BUTTON_INK, INK), key=lambda ink: contrast(ink, ground))


# A line a little too wide for its box is drawn condensed to fit, down to this share of
# its width, rather than in a smaller (less legible) size or cut.
SQUEEZE = 0.9

MIN_TARGET = 64  # px: the smallest touch target on the 800×480 panel
# pygame.font.Font(None, px) opens its default font at this share of px (pygame-ce's
# font.c); Theme.font opens the same file by its path at the same size.
DEFAULT_SCALE = 0.6875


class Theme:
    """Sizes for one canvas size, and a cache of fonts. ``checks_texts``: each text drawn
    is also measured for the layout and legibility checks (``TextBox``: cut, glyph height,
    contrast), for the tests and the demo; the kiosk draws the same pixels without (a
    fifth of a game screen's frame, which a press arriving meanwhile waits for)."""

    def __init__(self, size: tuple[int, int], *, checks_texts: bool = True) -> None:
        self.size = size
        self.checks_texts = checks_texts
        # A 480th of the short side, but no more than an 800th of the long one: the layouts
        # are drawn for the 5:3 panel, so a squarer screen (1024×768) lays them out as its
        # 5:3 width allows and keeps the extra height as margin, not as too-wide type.
        self.unit = min(min(size) / 480, max(size) / 800)
        self._fonts: dict[int, pygame.font.Font] = {}
        self._measured: dict[object, object] = {}  # ``measured``: sizes found by measuring

    def measured(self, key: object, measure: Callable[[], T]) -> T:
        """``measure()``, kept for this canvas under ``key`` (a hashable naming what was
        measured and from what): a layout measured at every frame is measured once. The
        kept sizes are forgotten past ``MEASURED_MAX`` (a long night's many tallies)."""
        if key not in self._measured:
            if len(self._measured) >= MEASURED_MAX:
                self._measured.clear()
            self._measured[key] = measure()
        return self._measured[key]  # type: ignore[return-value]

    def px(self, units: float) -> int:
        return max(1, round(units * self.unit))

    def font(self, px: int) -> pygame.font.Font:
        """pygame's default font at a nominal size of ``px``: what ``Font(None, px)``
        gives, opened from its path (``Font(None, …)`` looks the file up through
        importlib.resources at every size, a few ms of the first frame)."""
        px = max(8, int(px))
        if px not in self._fonts:
            self._fonts[px] = pygame.font.Font(_default_font_path(), int(px * DEFAULT_SCALE))
        return self._fonts[px]

    def fitting_font(self, text: str, px: int, width: int, smallest: int = 14) -> pygame.font.Font:
        """The largest font up to ``px`` in which ``text`` fits ``width`` pixels, allowing
        for :data:`SQUEEZE` (never smaller than ``smallest``; the caller's box then clips)."""
        return self.font(self.fitting_size(text, px, width, smallest))

    def fitting_size(self, text: str, px: int, width: int, smallest: int = 14) -> int:
        """The size of ``fitting_font``: for lines that must share one size, the smallest
        of their fitting sizes. The first of ``px``, ``px - 2``, … that fits, or the first
        at or under ``smallest``. A text's width grows with its size, so the search
        starts where the width at ``px`` says it fits and steps from there: each size
        tried is a font opened and its glyphs drawn (a tenth of a ms each, the most of a
        first frame's text), two or three sizes instead of one per step."""
        size = int(px)

        def drawn(at: int) -> float:
            return self.font(at).size(text)[0] * SQUEEZE

        widest = drawn(size)
        if size <= smallest or widest <= width:
            return size
        floor = size - 2 * -((smallest - size) // 2)  # where stepping down by 2 would stop
        guess = max(floor, size - 2 * max(1, round(size * (1 - width / widest) / 2)))
        if guess > floor and drawn(guess) > width:  # too wide: down until it fits
            guess -= 2
            while guess > floor and drawn(guess) > width:
                guess -= 2
        else:  # it fits (or is the floor): up while the next size fits too
            while guess + 2 < size and drawn(guess + 2) <= width:
                guess += 2
        return guess


@dataclass
class TextBox:
    text: str
    rect: pygame.Rect  # where it shows (inside its box)
    clipped: bool = False  # True: it did not fit its box and was cut
    height: int = 0  # the font's height in pixels
    glyph: int = 0  # how legible it is: ``glyph_height``, in pixels as drawn
    contrast: float = 21.0  # its colour against what it was drawn on (``ground``)


@dataclass
class Painter:
    """Draws on one surface and remembers where text went and which rectangles are touch
    targets, so tests can check a layout fits the screen."""

    surface: pygame.Surface
    theme: Theme
    texts: list[TextBox] = field(default_factory=list)
    targets: list[pygame.Rect] = field(default_factory=list)

    def text(
        self,
        text: str,
        font: pygame.font.Font,
        colour: Colour,
        box: pygame.Rect,
        align: str = "center",
    ) -> pygame.Rect:
        """Draw one line inside ``box`` (clipped to it), vertically centred; ``align`` is
        left, center or right. Returns where it went."""
        image = font.render(text, True, colour)
        if box.width < image.get_width() <= box.width / SQUEEZE:
            image = pygame.transform.smoothscale(image, (box.width, image.get_height()))
        rect = image.get_rect()
        # pygame-ce renders a line taller than the font's height (the line gap below); centre
        # the font's own height, and call the text cut only when ink is cut, not blank rows.
        rect.top = box.centery - font.get_height() // 2
        if align == "left":
            rect.left = box.left
        elif align == "right":
            rect.right = box.right
        else:
            rect.centerx = box.centerx
        shown = rect.clip(box)
        # measured before the blit: what the text is drawn on is read from the surface
        drawn = (self._measured(text, font, colour, image, rect, box, shown)
                 if self.theme.checks_texts else TextBox(text, shown))
        self.surface.blit(image, shown, shown.move(-rect.x, -rect.y))
        self.texts.append(drawn)
        return pygame.Rect(rect.x, rect.y, rect.w, font.get_height()).clip(box)

    def _measured(self, text: str, font: pygame.font.Font, colour: Colour,
                  image: pygame.Surface, rect: pygame.Rect, box: pygame.Rect,
                  shown: pygame.Rect) -> TextBox:
        """``text`` as the checks see it (``Theme.checks_texts``): where its ink shows,
        whether it is cut, its glyph height, its contrast with what it is drawn on."""
        ink = image.get_bounding_rect().move(rect.topleft)
        ground = self.ground(ink.clip(box) if ink.width else shown)
        whole = ink.width == 0 or box.contains(ink)
        where = ink.clip(box) if ink.width else shown
        return TextBox(text, where, not whole, font.get_height(), glyph_height(font, text),
                       contrast(colour, ground))

    def ground(self, rect: pygame.Rect) -> Colour:
        """What a text is about to be drawn on: the colour most of a few points of
        ``rect`` show (its corners and middle), read before the text is drawn."""
        area = rect.clip(self.surface.get_rect())
        if not area.w or not area.h:
            return FELT
        points = [(area.x, area.y), (area.right - 1, area.y), (area.x, area.bottom - 1),
                  (area.right - 1, area.bottom - 1), area.center,
                  (area.centerx, area.y), (area.centerx, area.bottom - 1)]
        seen = [tuple(self.surface.get_at(p))[:3] for p in points]
        return max(seen, key=seen.count)  # type: ignore[return-value]

    def lines(self, words: str, font: pygame.font.Font, width: int) -> list[str]:
        """``words`` broken into lines no wider than ``width`` (a long word stays whole)."""
        out: list[str] = []
        line = ""
        for word in words.split():
            trial = f"{line} {word}" if line else word
            if line and font.size(trial)[0] > width:
                out.append(line)
                line = word
            else:
                line = trial
        if line:
            out.append(line)
        return out


_GLYPHS: dict[tuple[int, int, str], int] = {}  # (font, its height, glyphs) -> ink height


def glyph_height(font: pygame.font.Font, text: str) -> int:
    """How tall ``text`` reads in ``font``, in pixels as rendered: the ink height of its
    digits (a figure's legibility), or for a text without one the height of a capital
    ("H", the height its capitals and digits share in this font). Measured once per font."""
    digits = "".join(sorted({c for c in text if c.isdigit()})) or "H"
    key = (id(font), font.get_height(), digits)
    if key not in _GLYPHS:
        _GLYPHS[key] = font.render(digits, True, (255, 255, 255)).get_bounding_rect().height
    return _GLYPHS[key]


def missing_glyphs(text: str) -> str:
    """The characters of ``text`` the theme's font has no glyph for (they would show as an
    empty box), each once, in order. ``check-config`` refuses a seat name with any."""
    import pygame.freetype

    pygame.freetype.init()
    font = pygame.freetype.Font(_default_font_path(), 20)
    missing = ""
    for char, metrics in zip(text, font.get_metrics(text), strict=True):
        if metrics is None and not char.isspace() and char not in missing:
            missing += char
    return missing


def _default_font_path() -> str:
    """pygame's own font, the one ``pygame.font.Font(None, …)`` draws with."""
    import os

    return os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())
