"""Text at the sizes read from a chair (the King's Dilemma's screens, the Table check): a
figure (a text with a digit) at ``FIGURE_GLYPH`` units, 24 px high on the 7" 800×480
panel, words at ``WORDS_GLYPH``, 16 px; two lines, or the figures alone large among the
words, rather than a smaller size where the room allows."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from companion.ui import theme as th
from companion.ui.theme import Painter
from companion.ui.widgets import FIGURE_GLYPH, WORDS_GLYPH, Runs, split_in_two


def fit(
    p: Painter, text: str, size: int, box: pygame.Rect, colour=th.INK, align: str = "left",
    smallest: int | None = None,
) -> pygame.Rect:
    """One line in ``box``, as large as ``size`` allows down to ``smallest`` (22 units
    unless said; nothing for an empty text)."""
    if not text:
        return pygame.Rect(box.topleft, (0, 0))
    least = p.theme.px(22) if smallest is None else smallest
    font = p.theme.fitting_font(text, size, box.w, smallest=least)
    return p.text(text, font, colour, box, align)


def figure(text: str) -> bool:
    """Whether ``text`` holds a figure (a digit): it is read at ``FIGURE_GLYPH``."""
    return any(c.isdigit() for c in text)


def legible_size(theme: th.Theme, text: str) -> int:
    """The size a text is read at from a chair: ``FIGURE_GLYPH`` units for a text with a
    digit (its figure 24 px high on the 7" panel), ``WORDS_GLYPH`` for words (16 px)."""
    return theme.px(FIGURE_GLYPH if figure(text) else WORDS_GLYPH)


def figure_size_in(theme: th.Theme, texts: tuple[str, ...], height: int) -> int:
    """``_figure_size_in``, measured once per theme (per frame each row asks again). Kept
    on the theme, not in a module-wide cache: that would keep every theme, and its open
    font files, alive."""
    return theme.measured(("figure_size_in", texts, height),
                          lambda: _figure_size_in(theme, texts, height))


def _figure_size_in(theme: th.Theme, texts: tuple[str, ...], height: int) -> int:
    """The one size of ``texts`` drawn in rows ``height`` apart: ``FIGURE_GLYPH`` units,
    or smaller where the rows are too close for their ink (five houses' rows on the 7"
    panel): the largest at which their ink, from the highest above the baseline to the
    lowest under it ("Aye 1 » Balance" over "Nay 2 » back"), is no taller than ``height``
    (so neighbouring rows' ink never meets); never under ``WORDS_GLYPH``."""
    size = theme.px(FIGURE_GLYPH)
    while size > theme.px(WORDS_GLYPH):
        font = theme.font(size)
        inks = [font.render(text, True, th.INK).get_bounding_rect() for text in texts]
        if (max((font.get_ascent() - r.top for r in inks), default=0)
                + max((r.bottom - font.get_ascent() for r in inks), default=0) <= height):
            break
        size -= 1
    return size


def text_lines(theme: th.Theme, text: str, width: int) -> list[str]:
    """``text`` as it is drawn ``width`` pixels wide at its ``legible_size``: one line, or
    two (cut at its middle space) rather than a smaller size."""
    font = theme.font(legible_size(theme, text))
    halves = split_in_two(text)
    if font.size(text)[0] * th.SQUEEZE <= width or halves is None:
        return [text]
    return list(halves)


def paragraphs(p: Painter, texts: Sequence[str], room: pygame.Rect, colour=th.INK_SOFT,
               align: str = "center") -> None:
    """``texts`` one under the other, centred in ``room``, each at its ``legible_size``
    on one line or two (``text_lines``)."""
    theme = p.theme
    placed = [(line, legible_size(theme, text))
              for text in texts for line in text_lines(theme, text, room.w)]
    gap = theme.px(2)
    height = sum(theme.font(size).get_linesize() + gap for _, size in placed) - gap
    y = room.centery - height // 2
    for line, size in placed:
        box = pygame.Rect(room.x, y, room.w, theme.font(size).get_linesize())
        fit(p, line, size, box, colour, align, smallest=theme.px(WORDS_GLYPH))
        y += box.h + gap


def figure_runs(theme: th.Theme, text: str) -> Runs:
    """``text`` as ``figures_large`` draws it: a ``Runs`` of words at ``WORDS_GLYPH`` and
    figures at ``FIGURE_GLYPH``."""
    return Runs(theme, text, WORDS_GLYPH, FIGURE_GLYPH)


def figures_large_width(theme: th.Theme, text: str) -> int:
    """The least width in which ``figures_large`` draws ``text`` as it means to
    (``figures_large_fit``): condensed as the painter may, a pixel a run for rounding."""
    runs = figure_runs(theme, text)
    return math.ceil(runs.width() * th.SQUEEZE) + len(runs.parts)


def figures_large_fit(theme: th.Theme, text: str, width: int) -> bool:
    """Whether ``figures_large`` draws ``text`` in ``width`` pixels as it means to."""
    return figure_runs(theme, text).fits(width)


def figures_large(p: Painter, text: str, box: pygame.Rect, colour=th.INK,
                  align: str = "left") -> None:
    """One line of words with figures among them ("Press: A Aye +1 · B Nay +1 · …") in
    ``box`` (``align``: left or right): the words at ``WORDS_GLYPH``, each figure at
    ``FIGURE_GLYPH`` (24 px on the 7" panel), on one baseline (``Runs``); condensed up to
    ``SQUEEZE`` to fit, else the whole line fitted at the words' size."""
    theme = p.theme
    if not figures_large_fit(theme, text, box.w):
        fit(p, text, theme.px(WORDS_GLYPH), box, colour, align,
            smallest=theme.px(WORDS_GLYPH))
        return
    figure_runs(theme, text).draw(p, colour, box, align)


def headline_lines(theme: th.Theme, text: str, width: int) -> list[str]:
    """A headline with a figure as drawn: one line at the figure's size; too wide for that,
    one line with its figures at the figure's size among words (``figures_large``);
    too wide still, two lines cut at its last " · " ("Aye wins, 5 to 1" over "Dan reads the
    outcome"), else at its middle space."""
    if (not figure(text)
            or theme.font(legible_size(theme, text)).size(text)[0] * th.SQUEEZE <= width
            or figures_large_fit(theme, text, width)):
        return [text]
    if " · " in text:
        return text.rsplit(" · ", 1)
    return list(split_in_two(text) or (text,))
