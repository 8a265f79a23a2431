"""The seats' rows of the King's Dilemma council, vote and reveal: each house's colour,
name, tokens and status, one line per house, in one column or, where five houses' rows
would be too close for a figure's ink, in two."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from companion.hardware.base import LIGHT_COLOURS
from companion.play.seat import Light
from companion.ui import theme as th
from companion.ui.legible import (
    figure,
    figure_size_in,
    figures_large,
    figures_large_fit,
    figures_large_width,
    fit,
)
from companion.ui.theme import Painter
from companion.ui.widgets import FIGURE_GLYPH, WORDS_GLYPH, fitted

if TYPE_CHECKING:
    from companion.ui.screens.kings_dilemma.draw import KdScreen


def row_rects(rect: pygame.Rect, n: int, max_h: int) -> list[pygame.Rect]:
    """``n`` rows of ``rect``, each up to ``max_h`` high, centred in it."""
    h = min(max_h, rect.h // max(1, n))
    top = rect.y + (rect.h - h * n) // 2
    return [pygame.Rect(rect.x, top + i * h, rect.w, h) for i in range(n)]


def badge(p: Painter, text: str, light: Light, box: pygame.Rect, size: int) -> None:
    """A token (Leader, Moderator) as a pill in its light's colour."""
    pygame.draw.rect(p.surface, LIGHT_COLOURS[light], box, border_radius=box.h // 2)
    fit(p, text, size, box.inflate(-box.h // 2, 0), th.ink_on(LIGHT_COLOURS[light]), "center")


@dataclass(frozen=True)
class SeatLine:
    """One seat's line: its colour, name, the tokens it holds, its status (and the
    status's colour), whether it is the seat on turn."""

    name: str
    colour: tuple
    leader: bool
    moderator: bool
    status: str
    status_colour: tuple = th.INK
    on_turn: bool = False


# The tallest ink a status with a figure has ("Aye 2", "Nay 1?": a capital and a digit
# over a descender): rows closer than its ink at the figure's size go in two columns.
ROW_PROBE = "Ay 0"
# units: the least room a name keeps in two columns (a few letters and "…"); a longer one
# is cut there, whole on the seat's plate
NAME_LEAST = 56
# units: a two-column row's colour, gaps and margins beside its name and status
TWO_COLUMN_GAPS = 42


def seat_rows(screen: KdScreen, p: Painter, rect: pygame.Rect, lines: Sequence[SeatLine]
              ) -> None:
    """[colour] Name [Leader][Moderator] ........ status, one line per seat, every name,
    token and status of words in one type size (the largest in which each fits its place,
    capitals 16 px on the 7" panel), a status with a figure ("Aye 2 » Balance") at the
    figure's size. Too many seats for one column at that size (five houses on the 7"
    panel): two columns, the seats in order down the first then the second, and the
    tokens on a line of their own under them ([Leader] Dan   [Moderator] Cleo), when
    the columns hold their names and statuses whole; else one column, its figures as
    large as the rows allow."""
    theme = screen.app.theme
    px = theme.px
    boxes = row_rects(rect, len(lines), px(44))
    if not boxes:
        return
    tokens = [screen.t("kd.token.leader"), screen.t("kd.token.moderator")]
    size = max(px(WORDS_GLYPH), min(px(30), boxes[0].h))  # capitals 16 px on the panel
    bh = min(boxes[0].h - px(4), px(34))
    held = [(text, light, line.name) for line in lines
            for on, text, light in ((line.leader, tokens[0], Light.LEADER),
                                    (line.moderator, tokens[1], Light.MODERATOR)) if on]
    inline = True
    down = (len(lines) + 1) // 2
    gutter = px(12)
    word_font = theme.font(px(WORDS_GLYPH))

    def column_needs(cap: int) -> list[int]:
        """Each column as wide as its seats need (colour, name up to ``cap``, status)."""
        return [max(px(TWO_COLUMN_GAPS) + min(cap, word_font.size(line.name)[0])
                    + status_width(theme, line.status, px(WORDS_GLYPH)) for line in part)
                for part in (lines[:down], lines[down:]) if part]

    # long names: cut with an ellipsis (whole on their plates) down to NAME_LEAST, rather
    # than one column whose rows are too close for a figure at its size
    cap = max(word_font.size(line.name)[0] for line in lines)
    needs = column_needs(cap)
    while sum(needs) > rect.w - gutter and cap > px(NAME_LEAST):
        cap = max(px(NAME_LEAST), cap - px(8))
        needs = column_needs(cap)
    if (len(lines) > 2 and figure_size_in(theme, (ROW_PROBE,), boxes[0].h) < px(FIGURE_GLYPH)
            and sum(needs) <= rect.w - gutter):  # else one column, as close as it must be
        inline = False
        size = px(WORDS_GLYPH)
        bh = theme.font(size).get_linesize() + px(2)  # the pills as close as their words
        legend = pygame.Rect(rect.x, rect.bottom - bh, rect.w, bh) if held else None
        rows = pygame.Rect(rect.x, rect.y, rect.w, rect.h - (bh + px(2) if held else 0))
        left_w = needs[0] + (rect.w - gutter - sum(needs)) // 2
        boxes = [*row_rects(pygame.Rect(rows.x, rows.y, left_w, rows.h), down, px(44)),
                 *row_rects(pygame.Rect(rows.x + left_w + gutter, rows.y,
                                        rows.w - left_w - gutter, rows.h),
                            len(lines) - down, px(44))]
        boxes[down:] = [b.move(0, boxes[0].y - boxes[down].y) for b in boxes[down:]]
    figures = figure_size_in(theme, tuple(line.status for line in lines if figure(line.status)),
                             boxes[0].h)  # one size for every status with a figure
    bw = max(theme.font(size).size(t)[0] for t in tokens) + bh  # the pill's round ends
    placed = []
    for line, box in zip(lines, boxes, strict=True):
        r = max(4, box.h // 4 if inline else min(box.h // 4, px(8)))
        x = box.x + 2 * r + px(14 if inline else 10)
        # one column: the name up to 3/10 of the row; two: as wide as it needs (the columns
        # were made as wide as their seats need)
        name_w = box.w * 3 // 10 if inline else min(cap, theme.font(size).size(line.name)[0]
                                                    ) + px(4)
        pills = (bw + px(4)) * (int(line.leader) + int(line.moderator)) if inline else 0
        needed = status_width(theme, line.status, size, figures, whole=inline)
        if needed > box.right - px(18) - x - name_w - pills:  # a long status: the name
            name_w = min(name_w, theme.font(size).size(line.name)[0] + px(4))  # gives slack
        name_box = pygame.Rect(x, box.y, name_w, box.h)
        free = name_box.right + px(4) + pills
        status_box = pygame.Rect(free + px(4), box.y,
                                 box.right - px(10 if inline else 2) - free - px(4), box.h)
        placed.append((line, box, r, name_box, status_box))
        size = min(size, theme.fitting_size(line.name, size, name_box.w, px(WORDS_GLYPH)),
                   size if figure(line.status) else
                   theme.fitting_size(line.status, size, status_box.w, px(WORDS_GLYPH)))
    size = min([size, *(theme.fitting_size(t, size, bw - bh // 2, px(WORDS_GLYPH))
                        for t in tokens)])
    for line, box, r, name_box, status_box in placed:
        if line.on_turn:
            band = box.inflate(0, -px(4))
            pygame.draw.rect(p.surface, th.PLATE, band, border_radius=band.h // 2)
        pygame.draw.circle(p.surface, line.colour, (box.x + px(6) + r, box.centery), r)
        if inline:
            fit(p, line.name, size, name_box)
        else:  # a name longer than its column's room cut ("Maximi…"), never smaller
            fit(p, fitted(line.name, theme.font(size), name_box.w), size, name_box)
        x = name_box.right + px(4)
        for on, text, light in ((line.leader, tokens[0], Light.LEADER),
                                (line.moderator, tokens[1], Light.MODERATOR)):
            if on and inline:
                badge(p, text, light, pygame.Rect(x, box.centery - bh // 2, bw, bh), size)
                x += bw + px(4)
        status_size = figures if figure(line.status) else size
        # a figure's ink sits below the font's middle (the room above for accents): its box
        # reaches into the row's neighbours' margins, its ink stays within its row's height
        box = status_box.inflate(0, px(8))
        if (not inline and figure(line.status)  # (rows measured for it: inks apart)
                and theme.font(status_size).size(line.status)[0] * th.SQUEEZE > box.w
                and figures_large_fit(theme, line.status, box.w)):
            figures_large(p, line.status, box, line.status_colour, "right")  # "Oui-da 2 » …"
        else:
            fit(p, line.status, status_size, box, line.status_colour, "right")
    if not inline and held:
        x = legend.x + px(6)
        for text, light, name in held:
            badge(p, text, light, pygame.Rect(x, legend.y, bw, bh), size)
            x += bw + px(6)
            name_w = theme.font(size).size(name)[0] + px(4)
            fit(p, name, size, pygame.Rect(x, legend.y, name_w, bh))
            x += name_w + px(24)


def status_width(theme: th.Theme, status: str, size: int, figures: int | None = None,
                 whole: bool = False) -> int:
    """The width a seat's status needs, condensed: words at ``size``; a status with a
    figure whole at ``figures`` (``FIGURE_GLYPH`` unless said), or, narrower and unless
    ``whole``, its figures large among words (``figures_large``: "Oui-da **2** »
    Balance", as two columns draw it)."""
    if not status:
        return 0
    if not figure(status):
        return round(theme.font(size).size(status)[0] * th.SQUEEZE)
    width = theme.font(figures or theme.px(FIGURE_GLYPH)).size(status)[0]
    if whole:
        return round(width * th.SQUEEZE)
    return round(min(width * th.SQUEEZE, figures_large_width(theme, status)))
