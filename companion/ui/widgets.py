"""Touch widgets."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import pygame

from companion.ui import theme as th
from companion.ui.theme import Painter

HEADLINE = 34  # units: who acts now and what, at the top of a game screen
TITLE = 40  # units: a screen's title, at its top left
SMALLEST = 22  # units: the smallest type a screen draws (legible on the 7" panel)
# units: a seat's name on its plate, and the line under it (capitals 19 px per 480 px of
# screen): a figure a player reads is FIGURE_GLYPH or SENTENCE_FIGURE, not this.
FIGURE = 38
BUTTON = 64  # units: a touch button's height (never under MIN_TARGET, a fingertip)
# units: type whose digits are drawn 24 px high per 480 px (the glyph as drawn, not the
# font's height), and type whose capitals are drawn 16 px high: a figure read from a chair,
# and the least for any other text.
FIGURE_GLYPH = 48
WORDS_GLYPH = 32
# units: a figure inside a sentence (``Runs``): pygame's font draws a digit's ink at about
# half the nominal size, so 50 units are 24 px per 480 px of screen for every digit ("7"
# the shortest), the height tests/ui/test_legibility.py measures.
SENTENCE_FIGURE = 50
# a figure in a sentence, drawn large: a count, a limit, a score, a rank ("1er", "2nd",
# "toutes 1res")
FIGURES = re.compile(
    r"(?<!\w)([−+\-]?\d+(?:[.,/]\d+)?(?:st|nd|rd|th|ers|er|res|re|es|e)?)(?!\w)")


def shorten(text: str, font: pygame.font.Font, width: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels in ``font`` (a long seat name in
    a narrow cell; the whole name shows elsewhere); ``fitted`` allows for the painter's
    condensing. The cut is found by bisection on a text first cut to ``width`` characters
    (no glyph is narrower than a pixel): a few measures, whatever the name's length, never
    one per character (a 20,000-character name took 15 s)."""
    if len(text) <= width and font.size(text)[0] <= width:
        return text
    text = text[:max(1, width) + 1]
    low, high = 1, len(text) - 1  # text[:low] is kept even when nothing fits
    while low < high:
        mid = (low + high + 1) // 2
        if font.size(text[:mid] + "…")[0] <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip(" -") + "…"


def fitted(text: str, font: pygame.font.Font, width: int) -> str:
    """``text`` as the painter can draw it ``width`` pixels wide: condensed up to
    ``SQUEEZE``, then cut with an ellipsis (long names)."""
    return shorten(text, font, int(width / th.SQUEEZE))


def headline(p: Painter, text: str, box: pygame.Rect, colour=th.INK) -> None:
    """The top line of a game screen: who acts now and what (the Koryŏ/Chosŏn board, the
    King's Dilemma council, vote and reveal, the Inheritors sheet), in large type
    (``HEADLINE`` units), smaller to fit ``box`` down to ``SMALLEST``, then cut with an
    ellipsis rather than off the screen."""
    theme = p.theme
    font = theme.fitting_font(text, theme.px(HEADLINE), box.w, theme.px(SMALLEST))
    # the painter condenses a line up to SQUEEZE before anything is cut
    p.text(fitted(text, font, box.w), font, colour, box, "left")


class Runs:
    """A sentence drawn with its figures (``SENTENCE_FIGURE`` units) larger than its words,
    on one baseline: a count or a limit inside a sentence reads from a chair as a figure
    alone."""

    def __init__(self, theme: th.Theme, text: str, words: float,
                 figures: float = SENTENCE_FIGURE) -> None:
        self.parts = [part for part in FIGURES.split(text) if part]
        self.words = theme.font(theme.px(words))
        self.figures = theme.font(theme.px(max(words, figures)))

    def font(self, part: str) -> pygame.font.Font:
        return self.figures if FIGURES.fullmatch(part) else self.words

    def width(self) -> int:
        return sum(self.font(part).size(part)[0] for part in self.parts)

    def fits(self, width: int) -> bool:
        """Whether ``draw`` shows it whole ``width`` pixels wide (condensed up to
        ``SQUEEZE``, as the painter condenses a line)."""
        return self.width() * th.SQUEEZE + len(self.parts) <= width  # a pixel a part: rounding

    def draw(self, p: Painter, colour, box: pygame.Rect, align: str = "left") -> None:
        """Left-aligned (or right-aligned) in ``box``, the words on the figures' baseline;
        a little too wide for ``box``, condensed to fit it (``fits``)."""
        whole = self.width()
        scale = (box.w - len(self.parts)) / whole if whole > box.w and self.fits(box.w) else 1
        x = box.x if align == "left" else box.right - (whole if scale == 1 else box.w)
        # the baseline of the tallest type drawn (words alone: theirs, centred in the box)
        big = self.figures if any(FIGURES.fullmatch(part) for part in self.parts) \
            else self.words
        for part in self.parts:
            font = self.font(part)
            w = font.size(part)[0]
            shift = (big.get_ascent() - font.get_ascent()
                     - (big.get_height() - font.get_height()) // 2)
            drawn = math.ceil(w * scale)
            # the part's own line in the box (centred as the painter centres it), with room
            # for a descender under the font's height: no taller than the part itself
            top = box.y + shift + box.h // 2 - font.get_height() // 2
            pad = font.get_height() // 4
            p.text(part, font, colour,
                   pygame.Rect(x, top - pad, drawn, font.get_height() + 2 * pad), "left")
            x += drawn


def wrap_runs(theme: th.Theme, text: str, width: int, words: float = WORDS_GLYPH
              ) -> list[str]:
    """``text`` broken into lines that fit ``width`` drawn as ``Runs`` (words ``words``
    units, figures ``SENTENCE_FIGURE``); a word longer than a line stays whole."""
    out: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and Runs(theme, trial, words).width() > width:
            out.append(line)
            line = word
        else:
            line = trial
    return out + [line] if line else out


def runs(theme: th.Theme, text: str, width: int, words: float) -> Runs:
    """``text`` with its figures large, its words as large as ``words`` units allow in
    ``width`` (down to ``WORDS_GLYPH``)."""
    size = words
    line = Runs(theme, text, size)
    while size > WORDS_GLYPH and line.width() > width:
        size -= 2
        line = Runs(theme, text, size)
    return line


def panel(p: Painter, rect: pygame.Rect) -> None:
    """The walnut rim with the green felt at ``rect``, its edge drawn: what every screen
    draws on."""
    px = p.theme.px
    p.surface.fill(th.RIM)
    pygame.draw.rect(p.surface, th.FELT, rect, border_radius=px(22))
    pygame.draw.rect(p.surface, th.FELT_EDGE, rect, width=max(2, px(3)), border_radius=px(22))


def felt(p: Painter, ring, backend, now_ms: int) -> None:
    """The table every game screen draws on: the felt in the middle (``panel``), the seat
    ring (``companion.ui.seats.SeatRing``) around it."""
    panel(p, ring.centre)
    ring.draw(p, backend, now_ms)


def button_h(theme: th.Theme) -> int:
    """A touch button's height: ``BUTTON`` units, never under ``MIN_TARGET``."""
    return max(th.MIN_TARGET, theme.px(BUTTON))


class OnTheFelt:
    """What every screen drawn on the felt inside a seat ring shares (the games' screens,
    History, the charts, a play's code): the seat ring around it (``felt_ring``, a
    ``companion.ui.seats.SeatRing`` the screen makes) and where it draws (``inner``).
    ``ring`` is the ring on screen, whose lights' rhythm ``Screen`` follows: the felt's,
    or a winner screen's slim one while the screen shows it (``winner.ShowsWinner``).
    Mixed in before ``Screen``."""

    app: object
    ring: object
    felt_ring: object
    inner: pygame.Rect

    def on_the_felt(self, ring) -> None:
        """Take ``ring``: the screen draws inside its centre, a margin from the felt's edge."""
        self.ring = self.felt_ring = ring
        px = ring.theme.px
        self.inner = ring.centre.inflate(-2 * px(10), -2 * px(8))

    def background(self, p: Painter) -> None:
        """The felt and the seat ring, as of now: each seat's plate with its own view."""
        self.felt_ring.show_views(self.seat_views(), self.seat_text)  # type: ignore
        felt(p, self.ring, self.app.backend, self.app.clock.now_ms())  # type: ignore


def title_line(p: Painter, left: str, right: str, box: pygame.Rect,
               right_colour=th.WARNING, left_colour=th.INK, right_size: int = 28) -> None:
    """The top line of a screen as the game screens have it: the title at the left in
    ``TITLE`` units (in the headline's colour when it names who acts now), what stands now
    (a page, a balance) at the right in gold, in ``right_size`` units (``FIGURE_GLYPH``
    for a figure alone, such as a page "1 / 3"), the two kept apart. A title that holds a
    figure ("dilemma 1") is drawn in ``FIGURE_GLYPH`` units: its figure read from a chair."""
    theme, px = p.theme, p.theme.px
    size = px(FIGURE_GLYPH if any(c.isdigit() for c in left) else TITLE)
    split = box.w
    if right:  # the title keeps what it needs (up to 3/5), the rest goes to the right;
        # a title's figure grows into what the right side leaves unused, never taking its room
        gap = px(14)
        split = min(box.w * 3 // 5, theme.font(px(TITLE)).size(left)[0] + px(16))
        spare = box.w - gap - theme.font(px(right_size)).size(right)[0]
        split = max(split, min(spare, theme.font(size).size(left)[0] + px(16)))
        split = figure_kept_whole(theme, left, size, right, px(right_size), box.w - gap, split)
        font = theme.fitting_font(right, px(right_size), box.w - split - gap, px(SMALLEST))
        p.text(right, font, right_colour, pygame.Rect(box.x + split + gap, box.y,
                                                      box.w - split - gap, box.h), "right")
    font = theme.fitting_font(left, size, split, px(SMALLEST))
    # centred on the line as before; a descender ("ç" of a name) may reach into the margin
    p.text(left, font, left_colour, pygame.Rect(box.x, box.y, split, box.h).inflate(0, px(8)),
           "left")


def figure_kept_whole(theme: th.Theme, left: str, size: int, right: str, right_size: int,
                      width: int, split: int) -> int:
    """Where ``title_line`` splits its ``width`` so that its right side keeps its figure's
    size ("3 of 4 locked", "Balance: 3 » 8 power"), and a title with a figure its own:
    both sides condensed alike when that fits them, else a title of words at no less
    than ``WORDS_GLYPH``; ``split`` when both fit already or neither helps."""
    need = theme.font(right_size).size(right)[0]
    if (need * th.SQUEEZE <= width - split
            and theme.font(size).size(left)[0] * th.SQUEEZE <= split):
        return split
    for left_size in (size, theme.px(WORDS_GLYPH)):
        words = theme.font(left_size).size(left)[0]
        if (words + need) * th.SQUEEZE <= width:
            return width - need if words + need <= width else width * words // (words + need)
        if any(c.isdigit() for c in left):
            break  # a title's figure is not made smaller for the right side's
    return split


def split_in_two(label: str) -> tuple[str, str] | None:
    """``label`` cut at the space nearest its middle, or None for a single word. Never at
    the space French puts before ":;?!»" or after "«": that sign stays with its word."""
    spaces = [i for i, c in enumerate(label) if c == " "
              and label[i + 1:i + 2] not in tuple(":;?!»") and label[i - 1:i] != "«"]
    if not spaces:
        return None
    cut = min(spaces, key=lambda i: abs(len(label) - 2 * i))
    return label[:cut], label[cut + 1 :]


class Pressable:
    """A touch target that acts when a finger lifts inside it, having gone down inside it
    (so a finger sliding across the screen triggers nothing): what every widget a screen
    lists in ``buttons`` shares (``Button``, ``TapArea``, the play's code)."""

    rect: pygame.Rect
    pressed: bool = False

    def on_tap(self) -> None:
        raise NotImplementedError

    def pointer_down(self, pos: tuple[int, int]) -> bool:
        """True if this press changed how the target looks."""
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


class Button(Pressable):
    """A rounded button with its label."""

    def __init__(self, rect: pygame.Rect, label: str, on_tap: Callable[[], None]) -> None:
        self.rect = pygame.Rect(rect)
        self.label = label
        self.on_tap = on_tap  # type: ignore[method-assign]
        self.pressed = False
        # True: it can't be used yet (a tap says why): drawn flat and dark, not raised
        self.unavailable = False

    @staticmethod
    def least_width(theme: th.Theme, label: str, height: int) -> int:
        """The narrowest button ``height`` high whose ``label`` ``draw`` shows at the least
        words' size (``WORDS_GLYPH``): on one line, or on two where it has a space, each
        line condensed up to ``SQUEEZE``. For a row of buttons sharing its room by need."""
        font = theme.font(theme.px(WORDS_GLYPH))
        lines = [label, *(split_in_two(label) or ())]
        widest = min(font.size(label)[0],
                     max((font.size(line)[0] for line in lines[1:]), default=10 ** 6))
        return int(widest * th.SQUEEZE) + height // 4 + 2

    def draw(self, p: Painter) -> None:
        radius = self.rect.height // 4
        ink = th.BUTTON_INK
        if self.unavailable:
            pygame.draw.rect(p.surface, th.BUTTON_OFF, self.rect, border_radius=radius)
            pygame.draw.rect(p.surface, th.INK_DIM, self.rect, width=max(1, p.theme.px(2)),
                             border_radius=radius)
            ink = th.INK_SOFT
        else:
            shadow = self.rect.move(0, max(2, self.rect.height // 16))
            pygame.draw.rect(p.surface, th.SOCKET, shadow, border_radius=radius)
            fill = th.BUTTON_PRESSED if self.pressed else th.BUTTON
            pygame.draw.rect(p.surface, fill, self.rect, border_radius=radius)
        inner = self.rect.inflate(-self.rect.height // 4, 0)
        size = round(self.rect.height * 0.5)
        font = p.theme.fitting_font(self.label, size, inner.width)
        halves = split_in_two(self.label)
        # the least words' size, for a button tall enough to hold it
        least = min(size, p.theme.px(WORDS_GLYPH))
        shrunk = font.get_height() < p.theme.font(size).get_height() * 3 // 4
        if halves and (shrunk or font.get_height() < p.theme.font(least).get_height()):
            # Too long for one line at a legible size: two lines, if that reads larger.
            # from the least size or a tenth under the button's (fitting steps by 2 px:
            # either may land larger), the larger of the two
            two = max(
                (min((p.theme.fitting_font(h, start, inner.width) for h in halves),
                     key=lambda f: f.get_height())
                 for start in {max(size * 9 // 10, least), size * 9 // 10}),
                key=lambda f: f.get_height(),
            )
            line_h = two.get_linesize()
            # (a line a little short of the least size stays one line unless two reach it)
            legible = shrunk or two.get_height() >= p.theme.font(least).get_height()
            if two.get_height() > font.get_height() and 2 * line_h <= inner.height and legible:
                top = inner.centery - line_h
                for i, half in enumerate(halves):
                    box = pygame.Rect(inner.x, top + i * line_h, inner.width, line_h)
                    p.text(half, two, ink, box)
                p.targets.append(self.rect)
                return
        p.text(self.label, font, ink, inner)
        p.targets.append(self.rect)


class TapArea(Pressable):
    """An invisible touch target over something the screen draws itself (a list row, a
    seat's plate): draws nothing but its outline while pressed."""

    label = ""  # no words of its own (a screen's list of buttons may hold it beside them)

    def __init__(self, rect: pygame.Rect, on_tap: Callable[[], None]) -> None:
        self.rect = pygame.Rect(rect)
        self.on_tap = on_tap  # type: ignore[method-assign]
        self.pressed = False

    def draw(self, p: Painter) -> None:
        if self.pressed:
            width = max(2, p.theme.px(3))
            pygame.draw.rect(p.surface, th.BUTTON_PRESSED, self.rect, width=width,
                             border_radius=p.theme.px(10))
        p.targets.append(self.rect)


class NoticeBand:
    """The warnings the table must see (``App.notices``: no seat hardware found, a database
    moved aside), each as its catalog title and detail, wrapped into one amber band."""

    def __init__(self, app, width: int) -> None:
        theme = app.theme
        self.pad = theme.px(12)
        self.font = theme.font(theme.px(22))
        t = app.catalog.text
        painter = Painter(app.canvas, theme)
        self.lines = [
            line
            for key, detail in app.notices
            for line in painter.lines(
                t("notice.line", title=t(key), detail=detail), self.font, width - 2 * self.pad
            )
        ]
        self.height = self.font.get_linesize() * len(self.lines) + theme.px(10) if self.lines else 0

    def draw(self, p: Painter, rect: pygame.Rect) -> None:
        if not self.lines:
            return
        px = p.theme.px
        pygame.draw.rect(p.surface, th.WARNING_BG, rect, border_radius=px(10))
        line_h = self.font.get_linesize()
        y = rect.y + px(5)
        for line in self.lines:
            box = pygame.Rect(rect.x + self.pad, y, rect.w - 2 * self.pad, line_h)
            p.text(line, self.font, th.WARNING, box, "left")
            y += line_h


class TwoTaps:
    """Actions that take two taps (Undo, New campaign…): the first tap turns the button
    into "Sure? <action>", the second does it. For a screen that rebuilds its buttons in
    ``refresh()`` from (label, callback) pairs; ``confirming`` is the label waiting for
    its second tap (the screen sets it back to None when something else happens)."""

    confirming: str | None = None

    def confirm(self, label: str, callback: Callable[[], None]
                ) -> tuple[str, Callable[[], None]]:
        """``label``'s button: at its first tap it asks, at its second it runs ``callback``."""
        if self.confirming == label:
            return self.app.catalog.text("app.confirm", action=label), callback
        return label, lambda: self.ask(label)

    def ask(self, label: str) -> None:
        self.confirming = label
        self.refresh()  # type: ignore[attr-defined]  # the screen's

    def cancels(self, pos: tuple[int, int]) -> bool:
        """Whether a press at ``pos`` puts the asking button back: any press but the second
        tap on it."""
        if self.confirming is None:
            return False
        sure = self.app.catalog.text("app.confirm", action=self.confirming)  # type: ignore
        return not any(getattr(b, "label", None) == sure and b.rect.collidepoint(pos)
                       for b in self.buttons)  # type: ignore[attr-defined]
