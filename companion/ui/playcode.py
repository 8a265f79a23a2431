"""The QR code of a finished game's BG Stats import link (``companion.records.bgstats``).

``PlayCode`` is the widget a winner screen places in a rect (``between_plates``: as large
as on its own screen): black modules on a white square (its own quiet zone) at a whole
number of pixels per module, so a phone across the table reads it, and a screenshot
decodes exactly. It behaves like
a ``Button`` (a ``Pressable`` that draws itself), so a screen puts it
in its list of buttons; a tap opens ``PlayCodeScreen``, the same code as large as the
screen allows (the room between the seat plates: a five-player night's code at 4 px a
module on an 800×480 panel). The code holds only the history row (``bgstats.play``): nothing a
game keeps secret is ever in it. A play too long for any code (``bgstats.fitting_link``
gives None: dozens of players) says so, and the game is kept all the same.
"""

from __future__ import annotations

from functools import lru_cache

import pygame

from companion.play.table import PlayedGame
from companion.records import bgstats
from companion.records.charts import full_date
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import (
    FIGURE_GLYPH,
    SENTENCE_FIGURE,
    WORDS_GLYPH,
    Button,
    OnTheFelt,
    Pressable,
    fitted,
)

QUIET = 2  # modules of white around the code (phones and zxing read 2 from a screen)
DARK, LIGHT = (0, 0, 0), (255, 255, 255)


@lru_cache(maxsize=8)
def code_image(url: str | None) -> pygame.Surface | None:
    """The QR code of ``url``, one pixel per module, its quiet zone included (kept: segno
    chooses the best of eight masks, the slow part, once per code; callers only blit it);
    None for no link, or one no QR code holds."""
    import segno  # only when a code is shown: the kiosk starts without it

    if url is None:
        return None
    try:
        qr = segno.make(url, error="L", boost_error=False)  # a screen is never smudged
    except segno.DataOverflowError:
        return None
    rows = list(qr.matrix_iter(scale=1, border=QUIET))
    image = pygame.Surface((len(rows[0]), len(rows)))
    image.fill(LIGHT)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                image.set_at((x, y), DARK)
    return image


def module_px(image: pygame.Surface, rect: pygame.Rect) -> int:
    """Pixels a module when ``image`` is drawn as large as ``rect`` allows (at least 1)."""
    return max(1, min(rect.w, rect.h) // image.get_width())


def draw_code(p: Painter, image: pygame.Surface | None, rect: pygame.Rect,
              too_long: str = "") -> pygame.Rect:
    """``image`` scaled by the largest whole factor that fits ``rect``, centred (at
    least one pixel per module); no image: ``too_long`` wrapped in ``rect``. Returns
    where it went."""
    if image is None:
        font = p.theme.font(p.theme.px(22))
        y = rect.y
        for line in p.lines(too_long, font, rect.w):
            p.text(line, font, th.INK_SOFT, pygame.Rect(rect.x, y, rect.w,
                                                        font.get_linesize()), "left")
            y += font.get_linesize()
        return pygame.Rect(rect.x, rect.y, rect.w, y - rect.y)
    scale = module_px(image, rect)
    big = pygame.transform.scale_by(image, scale)  # nearest neighbour: sharp modules
    where = big.get_rect(center=rect.center)
    p.surface.blit(big, where)
    return where


def between_plates(ring: SeatRing, screen: pygame.Rect) -> pygame.Rect:
    """The largest square at the left of the felt that no seat plate covers: as tall as the
    room between the plates above the felt and those below it (more than the felt: the
    code may cover its edge), at most three fifths of the room between the side plates."""
    centre = ring.centre
    above = [p.rect.bottom for p in ring.plates if p.rect.bottom <= centre.top]
    below = [p.rect.top for p in ring.plates if p.rect.top >= centre.bottom]
    left = [p.rect.right for p in ring.plates if p.rect.right <= centre.left]
    right = [p.rect.left for p in ring.plates if p.rect.left >= centre.right]
    top, bottom = max(above, default=screen.top), min(below, default=screen.bottom)
    x0, x1 = max(left, default=screen.left), min(right, default=screen.right)
    side = min(bottom - top, (x1 - x0) * 3 // 5)
    return pygame.Rect(x0, top + (bottom - top - side) // 2, side, side)


class PlayCode(Pressable):
    """The code of ``game`` drawn as large as ``area`` allows, its caption under it as wide
    as ``area`` (``rect``: the whole area, a screen may shorten it to the code and
    caption); a tap opens it full screen."""

    key = "playcode"  # as the screens name their buttons

    def __init__(self, app: App, game: PlayedGame, area: pygame.Rect) -> None:
        self.app = app
        self.game = game
        self.url = bgstats.fitting_link(game)
        self.image = code_image(self.url)
        self.rect = pygame.Rect(area)
        self.pressed = False
        self.drawn: pygame.Rect | None = None  # where the last frame drew the code
        self.captioned = True  # False: ``rect`` is the code's alone (its screen says it)

    def font(self, width: int) -> pygame.font.Font:
        """The caption's type: the least words' size (``WORDS_GLYPH``), condensed to fit
        ``width`` and no smaller (a caption too long for it is cut with an ellipsis)."""
        theme = self.app.theme
        return theme.font(theme.px(WORDS_GLYPH))

    @property
    def label(self) -> str:  # what a test or the demo taps it by
        return self.app.catalog.text("playcode.caption")

    def draw(self, p: Painter) -> None:
        px = p.theme.px
        font = self.font(self.rect.w)
        caption = pygame.Rect(self.rect.x, self.rect.bottom - font.get_linesize(),
                              self.rect.w, font.get_linesize())
        box = pygame.Rect(self.rect.x, self.rect.y, self.rect.w, caption.y - self.rect.y) \
            if self.captioned else self.rect
        too_long = self.app.catalog.text("playcode.too_long")
        where = self.drawn = draw_code(p, self.image, box, too_long)
        if self.pressed:
            pygame.draw.rect(p.surface, th.BUTTON_PRESSED, where, width=max(2, px(3)))
        if self.captioned:
            p.text(fitted(self.label, font, caption.w), font, th.INK_SOFT, caption)
        p.targets.append(self.rect)

    def on_tap(self) -> None:
        self.app.push(PlayCodeScreen(self.app, self.game))


class PlayCodeScreen(OnTheFelt, Screen):
    """The code as large as the room between the seat plates allows at the left (over the
    felt's edge: on an 800×480 screen 388 px, a five-player night's code at 4 px a module),
    what it holds beside it (game, date, scores) and how to use it, inside the slim seat
    ring; Back returns to the screen that opened it."""

    name = "playcode"

    def __init__(self, app: App, game: PlayedGame) -> None:
        super().__init__(app)
        self.game = game
        self.url = bgstats.fitting_link(game)
        self.image = code_image(self.url)
        t, px = app.catalog.text, app.theme.px
        self.on_the_felt(SeatRing(app.theme, app.seats, app.catalog, slim=True))
        inner = self.inner
        self.code_rect = between_plates(self.ring, app.canvas.get_rect())
        right = max(self.code_rect.right + px(16), inner.x + inner.w // 3)
        bh = max(th.MIN_TARGET, px(68))
        self.back = Button(pygame.Rect(right, inner.bottom - bh, inner.right - right, bh),
                           t("playcode.back"), self.close)
        self.text_rect = pygame.Rect(right, inner.y, inner.right - right,
                                     self.back.rect.y - px(8) - inner.y)

    def close(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()

    def lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        """What the code holds, as (text, size in units, colour): its title, the game, the
        date, then ``players``, then the help."""
        t = self.app.catalog.text
        game = t(f"history.game.{self.game.game}") if \
            f"history.game.{self.game.game}" in self.app.catalog.texts else self.game.game
        # the table's own clock, written as History writes it; a figure: large
        return [(t("playcode.title"), 34, th.INK), (game, 32, th.WARNING),
                (full_date(self.game.date), FIGURE_GLYPH, th.INK_SOFT)]

    def players(self) -> list[tuple[str, tuple[int, int, int]]]:
        """Each player's name and score, a winner's in gold."""
        return [(f"{p['name']} {p['score']}", th.WARNING if p.get("winner") else th.INK)
                for p in bgstats.play(self.game)["players"]]

    def help(self) -> str:
        """How to use the code, and what it could not hold."""
        t = self.app.catalog.text
        if self.image is None:
            return t("playcode.too_long")
        if self.url != bgstats.link(self.game):
            return f'{t("playcode.help")} {t("playcode.shortened")}'
        return t("playcode.help")

    def describe(self) -> str:
        texts = [text for text, _, _ in self.lines()] + [text for text, _ in self.players()]
        texts.append(self.help())
        return f"{self.name} | {' | '.join(texts)} | {self.url}"

    def draw(self, p: Painter) -> None:
        self.background(p)
        if self.image is not None:
            draw_code(p, self.image, self.code_rect)
        help_text = self.help()
        width = self.text_rect.w
        # the scores as large as a figure read from a chair and the help at the least
        # words' size, never smaller: where both don't fit above Back under the lines
        # (five long names in two columns, a shortened code's note), the lines go from the
        # top: the title (the help says BG Stats too), the game, then the date
        font = p.theme.font(p.theme.px(WORDS_GLYPH))
        help_h = len(p.lines(help_text, font, width)) * (font.get_height() * 3 // 2)
        rows = -(-len(self.players()) // (1 if len(self.players()) <= 3 else 2))
        big = p.theme.font(p.theme.px(SENTENCE_FIGURE)).get_height() + p.theme.px(4)
        lines = self.lines()
        while lines and (self.lines_h(p, lines) + rows * big + help_h
                         >= self.back.rect.y - self.text_rect.y):
            lines = lines[1:]
        y = self.draw_lines(p, lines, self.text_rect.y)
        y = self.draw_players(p, y)
        self.draw_lines(p, [(help_text, WORDS_GLYPH, th.INK_SOFT)], y)
        self.back.draw(p)

    def lines_h(self, p: Painter, lines: list[tuple[str, int, tuple[int, int, int]]]) -> int:
        """How tall ``draw_lines`` draws ``lines``."""
        return sum(self.line_h(p, size) * len(p.lines(text, p.theme.font(p.theme.px(size)),
                                                        self.text_rect.w)) + p.theme.px(4)
                   for text, size, _ in lines)

    @staticmethod
    def line_h(p: Painter, size: int) -> int:
        """A line's height at ``size`` units: room for accents and descenders (a figure
        has neither)."""
        font = p.theme.font(p.theme.px(size))
        return font.get_height() + (p.theme.px(4) if size == FIGURE_GLYPH
                                    else font.get_height() // 2)

    def draw_lines(self, p: Painter, lines: list[tuple[str, int, tuple[int, int, int]]],
                   y: int) -> int:
        """``lines`` (text, size in units, colour) from ``y``, each wrapped to the column;
        returns where the next line goes."""
        x, width, px = self.text_rect.x, self.text_rect.w, p.theme.px
        for text, size, colour in lines:
            font = p.theme.font(px(size))
            for line in p.lines(text, font, width):
                line_h = self.line_h(p, size)
                p.text(line, font, colour, pygame.Rect(x, y, width, line_h), "left")
                y += line_h
            y += px(4)
        return y

    def draw_players(self, p: Painter, y: int) -> int:
        """The players' lines from ``y``, in two columns beyond three players (five long
        names keep the help above Back): each score at the figure's size, its name as
        large up to it as the cell allows, never under the least words' size (cut with
        an ellipsis: the whole name is on its plate); returns where the next line goes."""
        px, theme = p.theme.px, p.theme
        players = self.players()
        columns = 1 if len(players) <= 3 else 2
        cell_w = (self.text_rect.w - px(12) * (columns - 1)) // columns
        figure = theme.font(px(SENTENCE_FIGURE))  # every digit 24 px, a "7" too
        line_h = figure.get_height() + px(4)
        for i, (text, colour) in enumerate(players):
            row, column = divmod(i, columns)
            box = pygame.Rect(self.text_rect.x + column * (cell_w + px(12)), y + row * line_h,
                              cell_w, line_h)
            name, _, score = text.rpartition(" ")
            score_w = round(figure.size(f" {score}")[0] * th.SQUEEZE) + 1
            room = box.w - score_w
            font = theme.fitting_font(name, px(SENTENCE_FIGURE), room, px(WORDS_GLYPH))
            said = fitted(name, font, room)
            name_w = min(room, round(font.size(said)[0] * th.SQUEEZE) + 1)
            p.text(said, font, colour, pygame.Rect(box.x, box.y, name_w, box.h), "left")
            p.text(f" {score}", figure, colour,
                   pygame.Rect(box.x + name_w, box.y, score_w, box.h), "left")
        return y + -(-len(players) // columns) * line_h + px(4)

    def pointer_down(self, pos: tuple[int, int]) -> None:
        if self.back.pointer_down(pos):
            self.app.invalidate()

    def pointer_up(self, pos: tuple[int, int]) -> None:
        if self.back.pointer_up(pos):
            self.app.invalidate()
