"""The QR code of a finished game's BG Stats import link (``companion.bgstats``).

``PlayCode`` is the small widget a winner screen or History places in a rect: black
modules on a white square (its own quiet zone) at a whole number of pixels per module,
so a phone across the table reads it, and a screenshot decodes exactly. It behaves like
a ``Button`` (a ``Pressable`` that draws itself), so a screen puts it
in its list of buttons; a tap opens ``PlayCodeScreen``, the same code as large as the
screen allows. The code holds only the history row (``bgstats.play``): nothing a game
keeps secret is ever in it.
"""

from __future__ import annotations

from functools import lru_cache

import pygame

from companion import bgstats
from companion.history import GameResult
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import Button, OnTheFelt, Pressable, fitted

QUIET = 2  # modules of white around the code (phones and zxing read 2 from a screen)
DARK, LIGHT = (0, 0, 0), (255, 255, 255)


@lru_cache(maxsize=8)
def code_image(url: str) -> pygame.Surface:
    """The QR code of ``url``, one pixel per module, its quiet zone included (kept: segno
    chooses the best of eight masks, the slow part, once per code; callers only blit it)."""
    import segno  # only when a code is shown: the kiosk starts without it

    qr = segno.make(url, error="L", boost_error=False)  # a screen is never smudged
    rows = list(qr.matrix_iter(scale=1, border=QUIET))
    image = pygame.Surface((len(rows[0]), len(rows)))
    image.fill(LIGHT)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                image.set_at((x, y), DARK)
    return image


def draw_code(p: Painter, image: pygame.Surface, rect: pygame.Rect) -> pygame.Rect:
    """``image`` scaled by the largest whole factor that fits ``rect``, centred (at
    least one pixel per module). Returns where it went."""
    scale = max(1, min(rect.w, rect.h) // image.get_width())
    big = pygame.transform.scale_by(image, scale)  # nearest neighbour: sharp modules
    where = big.get_rect(center=rect.center)
    p.surface.blit(big, where)
    return where


class PlayCode(Pressable):
    """The code of ``game`` drawn as large as ``area`` allows, its caption under it as wide
    as ``area`` (``rect``: the whole area, a screen may shorten it to the code and
    caption); a tap opens it full screen."""

    key = "playcode"  # as the screens name their buttons

    def __init__(self, app: App, game: GameResult, area: pygame.Rect) -> None:
        self.app = app
        self.game = game
        self.url = bgstats.link(game)
        self.image = code_image(self.url)
        self.rect = pygame.Rect(area)
        self.pressed = False
        self.drawn: pygame.Rect | None = None  # where the last frame drew the code

    def font(self, width: int) -> pygame.font.Font:
        theme = self.app.theme
        return theme.fitting_font(self.label, theme.px(22), width)

    @property
    def label(self) -> str:  # what a test or the demo taps it by
        return self.app.catalog.text("playcode.caption")

    def draw(self, p: Painter) -> None:
        px = p.theme.px
        font = self.font(self.rect.w)
        caption = pygame.Rect(self.rect.x, self.rect.bottom - font.get_linesize(),
                              self.rect.w, font.get_linesize())
        box = pygame.Rect(self.rect.x, self.rect.y, self.rect.w, caption.y - self.rect.y)
        where = self.drawn = draw_code(p, self.image, box)
        if self.pressed:
            pygame.draw.rect(p.surface, th.BUTTON_PRESSED, where, width=max(2, px(3)))
        p.text(self.label, font, th.INK_SOFT, caption)
        p.targets.append(self.rect)

    def on_tap(self) -> None:
        self.app.push(PlayCodeScreen(self.app, self.game))


class PlayCodeScreen(OnTheFelt, Screen):
    """The code as large as the felt's height allows, what it holds beside it (game,
    date, scores) and how to use it, inside the slim seat ring; Back returns to the screen
    that opened it."""

    name = "playcode"

    def __init__(self, app: App, game: GameResult) -> None:
        super().__init__(app)
        self.game = game
        self.url = bgstats.link(game)
        self.image = code_image(self.url)
        t, px = app.catalog.text, app.theme.px
        self.on_the_felt(SeatRing(app.theme, app.seats, app.catalog, slim=True))
        inner = self.inner
        # The code as tall as the felt at the left; what it holds at the right, Back under it.
        self.code_rect = pygame.Rect(inner.x, inner.y, inner.h, inner.h)
        right = self.code_rect.right + px(16)
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
        play = bgstats.play(self.game)
        game = t(f"history.game.{self.game.game}") if \
            f"history.game.{self.game.game}" in self.app.catalog.texts else self.game.game
        return [(t("playcode.title"), 34, th.INK), (game, 28, th.WARNING),
                (play["playDate"][:16], 24, th.INK_SOFT)]

    def players(self) -> list[tuple[str, tuple[int, int, int]]]:
        """Each player's name and score, a winner's in gold."""
        return [(f"{p['name']} {p['score']}", th.WARNING if p.get("winner") else th.INK)
                for p in bgstats.play(self.game)["players"]]

    def describe(self) -> str:
        texts = [text for text, _, _ in self.lines()] + [text for text, _ in self.players()]
        texts.append(self.app.catalog.text("playcode.help"))
        return f"{self.name} | {' | '.join(texts)} | {self.url}"

    def draw(self, p: Painter) -> None:
        self.background(p)
        draw_code(p, self.image, self.code_rect)
        help_text = self.app.catalog.text("playcode.help")
        y = self.draw_lines(p, self.lines(), self.text_rect.y)
        y = self.draw_players(p, y)
        self.draw_lines(p, [(help_text, 22, th.INK_SOFT)], y)
        self.back.draw(p)

    def draw_lines(self, p: Painter, lines: list[tuple[str, int, tuple[int, int, int]]],
                   y: int) -> int:
        """``lines`` (text, size in units, colour) from ``y``, each wrapped to the column;
        returns where the next line goes."""
        x, width, px = self.text_rect.x, self.text_rect.w, p.theme.px
        for text, size, colour in lines:
            font = p.theme.font(px(size))
            for line in p.lines(text, font, width):
                line_h = font.get_height() * 3 // 2  # room for accents and descenders
                p.text(line, font, colour, pygame.Rect(x, y, width, line_h), "left")
                y += line_h
            y += px(4)
        return y

    def draw_players(self, p: Painter, y: int) -> int:
        """The players' lines from ``y``, in two columns beyond three players (five long
        names keep the help above Back); returns where the next line goes."""
        px, theme = p.theme.px, p.theme
        players = self.players()
        columns = 1 if len(players) <= 3 else 2
        cell_w = (self.text_rect.w - px(12) * (columns - 1)) // columns
        line_h = theme.font(px(26)).get_height() * 3 // 2
        for i, (text, colour) in enumerate(players):
            row, column = divmod(i, columns)
            box = pygame.Rect(self.text_rect.x + column * (cell_w + px(12)), y + row * line_h,
                              cell_w, line_h)
            font = theme.fitting_font(text, px(26), cell_w, px(22))
            p.text(fitted(text, font, cell_w), font, colour, box, "left")
        return y + -(-len(players) // columns) * line_h + px(4)

    def pointer_down(self, pos: tuple[int, int]) -> None:
        if self.back.pointer_down(pos):
            self.app.invalidate()

    def pointer_up(self, pos: tuple[int, int]) -> None:
        if self.back.pointer_up(pos):
            self.app.invalidate()
