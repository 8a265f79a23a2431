"""Drawing pieces shared by the King's Dilemma screens: the base screen (felt, seat ring,
lights from the night's controller, a bar of touch buttons, the headline naming who acts
now), seat rows with the Leader and Moderator tokens in one type size, a table of
numbers, and the kingdom board; ``words`` says a ``Say`` of ``companion.games.kings_dilemma.say`` in
the table's language.

The screens move from one to the next by name (``KdScreen.go``, ``screen_for``): each
screen class registers under its ``name``, so the modules split from the screen module
need not import each other in a circle."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import pygame

from companion.games.kings_dilemma import controller as kd
from companion.games.kings_dilemma.controller import RuleError
from companion.games.kings_dilemma.say import Say, grammar_help
from companion.play.table import NOT_SAVED
from companion.play.turns import Turns
from companion.play.words import Names, Words, words_text
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.legible import (
    figure,
    figures_large,
    figures_large_fit,
    fit,
    headline_lines,
    legible_size,
)
from companion.ui.screens.kings_dilemma.seat_rows import row_rects
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import (
    FIGURE_GLYPH,
    WORDS_GLYPH,
    Button,
    OnTheFelt,
    TwoTaps,
    button_h,
    headline,
    split_in_two,
    title_line,
)

# The screen that shows each step of the night (``screen_for``).
STEP_SCREENS = {kd.COUNCIL: "kd-council", kd.VOTE: "kd-vote", kd.REVEAL: "kd-reveal",
                kd.AGENDAS: "kd-agenda", kd.SCORE: "kd-score"}
SCREENS: dict[str, type[KdScreen]] = {}  # every screen class, by its name

Actions = Sequence[tuple[str, Callable[[], None]]]  # touch buttons: (label, callback)

WHITE_SIDE = (244, 240, 230)
BLACK_SIDE = (22, 20, 18)
TRACK = (160, 150, 120)
END_ZONE = (170, 60, 50)
STABILITY = (120, 170, 220)


class KdScreen(OnTheFelt, TwoTaps, Screen):
    """Felt in the middle, the seat ring around it, a title line, a body and a bar of
    buttons at the bottom. Subclasses set ``actions`` (catalog key, callback) and draw the
    body in ``draw_body``; the seat lights follow ``turns()`` on every change."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__:
            SCREENS[cls.name] = cls

    def __init__(self, app: App, night: kd.NightController | None) -> None:
        super().__init__(app)
        self.night = night
        if night is not None:  # the setup screen has no night yet
            app.follow(night)
        self.on_the_felt(SeatRing(app.theme, app.seats, app.catalog))
        px = app.theme.px
        inner = self.inner
        self.title_rect = pygame.Rect(inner.x, inner.y, inner.w, px(38))
        self.bar_h = button_h(app.theme)
        self.bar_rect = pygame.Rect(inner.x, inner.bottom - self.bar_h, inner.w, self.bar_h)
        self.body = pygame.Rect(
            inner.x,
            self.title_rect.bottom + px(4),
            inner.w,
            self.bar_rect.top - px(6) - self.title_rect.bottom - px(4),
        )
        self.buttons: list[Button] = []
        self.confirming = None  # the label of an action waiting for its 2nd tap
        self.refresh()

    def t(self, key: str, **fmt) -> str:
        return self.app.catalog.text(key, **fmt)

    def say(self, said: Say | list[Say]) -> str:
        """What the night's controller says, in the table's language."""
        return words(self.t, said, self.app.catalog.names)

    def refusal(self, exc: RuleError) -> str:
        """A refused press's reason as the engine gives it, a side named as the screens
        name it."""
        return self.app.catalog.refusal(exc, {"side": lambda s: self.t(f"kd.side.{s}")})

    def seat_text(self, words: Words) -> str:
        """A sentence of a seat view; a refusal in it (a plate's reply) said as
        ``refusal``."""
        return words_text(self.app.catalog, self.app.seats, words,
                          lambda v: self.refusal(v) if isinstance(v, RuleError) else v)

    def go(self, name: str, *args: Any) -> None:
        """The screen ``name`` of this night in place of this one."""
        self.app.replace(SCREENS[name](self.app, self.night, *args))

    # --- state --------------------------------------------------------------------------

    def actions(self) -> Actions:
        """The touch buttons: (label, callback), laid out left to right."""
        return ()

    def turns(self) -> Turns:
        """Who acts, from the night's controller (the seats' lights follow)."""
        return self.night.turns()

    # Whether the seats' plates show each house's own view (the council, a vote, its
    # reveal: where the pads act); the end of the night's screens light their own seats.
    shows_seats = False

    def seat_views(self):
        return self.night.seat_views() if self.shows_seats else {}

    def refresh(self) -> None:
        """Buttons follow the table; the frame is redrawn (the lights with it)."""
        self.buttons = self.bar(self.actions(), self.bar_rect)
        self.app.invalidate()

    def bar(self, actions, rect: pygame.Rect) -> list[Button]:
        if not actions:
            return []
        theme = self.app.theme
        gap = theme.px(8)
        room = rect.w - gap * (len(actions) - 1)
        w = min(theme.px(230), room // len(actions))
        widths = [w] * len(actions)
        # a label too long for an equal share at the words' size ("Campaign" among six):
        # each button as wide as its label needs (on one line or two), the rest shared
        font = theme.font(round(rect.h * 0.5))  # the size a Button draws its label at
        needs = [round(min(font.size(line)[0] for line in (label, max(
            split_in_two(label) or (label,), key=lambda h: font.size(h)[0]))) * th.SQUEEZE)
            + rect.h // 4 + 2 for label, _ in actions]
        if max(needs) > w and sum(needs) <= room:
            spare = (room - sum(needs)) // len(actions)
            widths = [min(theme.px(230), n + spare) for n in needs]
        total = sum(widths) + gap * (len(actions) - 1)
        x = rect.centerx - total // 2
        out = []
        for (label, callback), width in zip(actions, widths, strict=True):
            out.append(Button(pygame.Rect(x, rect.y, width, rect.h), label, callback))
            x += width + gap
        return out

    # --- drawing ------------------------------------------------------------------------

    def title(self) -> tuple[str, str]:
        return "", ""

    def title_colour(self) -> tuple:
        """The title's colour: the headline's when the title is the headline."""
        return th.INK

    def draw(self, p: Painter) -> None:
        self.background(p)
        title_line(p, *self.title(), self.title_rect, left_colour=self.title_colour(),
                   right_size=FIGURE_GLYPH)  # a balance, a count, the totals: figures
        self.draw_body(p, self.body)
        for button in self.buttons:
            button.draw(p)

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        raise NotImplementedError

    def headline_rect(self, body: pygame.Rect, text: str = "") -> pygame.Rect:
        """The line at the top of ``body`` naming who acts now and what (``headline``);
        two lines for ``text`` when its figure makes it too wide for one
        (``headline_lines``)."""
        heights = self.headline_heights(text, body.w)
        return pygame.Rect(body.x, body.y, body.w, sum(h for _, h in heights))

    def headline_heights(self, text: str, width: int) -> list[tuple[str, int]]:
        """The headline's lines and each one's height: a line of words ``HEADLINE`` high
        (36 units), a line at the figure's size with room for an accent over a capital."""
        theme = self.app.theme
        if not figure(text):
            return [(text, theme.px(36))]
        return [(line, max(theme.px(36) if k == 0 else 0,
                           theme.font(legible_size(theme, line)).get_linesize() + theme.px(8)))
                for k, line in enumerate(headline_lines(theme, text, width))]

    def draw_headline(self, p: Painter, rect: pygame.Rect, text: str,
                      colour=th.WARNING) -> pygame.Rect:
        """``text`` large at the top of ``rect`` (who acts now and what); what is left of
        ``rect`` below it. A headline with a figure ("Dan reads dilemma 1") has it at the
        figure's size."""
        theme = p.theme
        y = rect.y
        for said, h in self.headline_heights(text, rect.w):
            line = pygame.Rect(rect.x, y, rect.w, h)
            whole = theme.font(legible_size(theme, said)).size(said)[0] * th.SQUEEZE <= line.w
            if figure(said) and not whole and figures_large_fit(theme, said, line.w):
                figures_large(p, said, line, colour)  # its figures large among the words
            elif figure(text):
                fit(p, said, legible_size(theme, said), line, colour)
            else:
                headline(p, said, line, colour)
            y += h
        return pygame.Rect(rect.x, y, rect.w, rect.bottom - y)


def screen_for(app: App, night: kd.NightController) -> KdScreen:
    """The screen of the night as it stands: the vote, the reveal (or the outcome to
    enter), the agendas, the scores or the council."""
    return SCREENS[STEP_SCREENS[night.step()]](app, night)


def undo_action(screen: KdScreen) -> list[tuple[str, Callable[[], None]]]:
    """The Undo button (two taps: "Sure? Undo") while the journal holds an action of the
    night; a seat's pad may take back its own last action too (docs/button-grammar.md),
    the same undo (the screens' ``pressed``)."""
    if not screen.night.can_undo():
        return []
    return [screen.confirm(screen.t("kd.undo"), partial(undo, screen))]


def undo(screen: KdScreen) -> None:
    """Take back the last action and show the screen of the night as it then stands. A
    secret lock taken back before the reveal: that seat shows "not yet" again, exactly as
    if it had never locked (its ballot deleted unseen); every seat's unlocked pending
    choice is forgotten too."""
    if screen.app.table.act(screen.night.undo) is NOT_SAVED:
        return
    screen.app.replace(screen_for(screen.app, screen.night))


def words(t: Callable[..., str], said: Any,
          names: Callable[[Sequence[str]], str] = ", ".join) -> str:
    """A ``Say`` (``Words``: catalog key and values, a value itself ``Words``, ``Names``
    said by ``names``), or a list or tuple of them said joined by " · ", in the catalog
    ``t`` reads."""
    if isinstance(said, list | tuple):
        return " · ".join(words(t, s, names) for s in said)
    if isinstance(said, Words):
        return t(said.key, **{k: words(t, v, names) for k, v in said.params.items()})
    if isinstance(said, Names):
        return names(said.names)
    return said


def vote_help(t: Callable[..., str], mode: str) -> list[str]:
    """What the seat buttons do in a vote of ``mode`` (``kd_say.grammar_help``): one line
    for the presses, one for the holds."""
    return [words(t, line) for line in grammar_help(mode)]


def table_grid(
    p: Painter,
    rect: pygame.Rect,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    first_share: float = 0.3,
    bold_last: bool = False,
    weights: Sequence[float] | None = None,
) -> None:
    """A small table: the first column and any column of words left-aligned (a gap from
    the figures before it), numbers right-aligned; the columns after the first share the
    rest of the width by ``weights`` (default: equally)."""
    theme = p.theme
    px = theme.px
    lines = row_rects(rect, len(rows) + 1, px(42))
    # the figures players read: digits 24 px high on the 800×480 panel when the rows allow
    size = max(px(22), min(px(FIGURE_GLYPH), lines[0].h + px(8)))
    weights = [first_share / (1 - first_share) * sum(weights or [1.0] * (len(header) - 1)),
               *(weights or [1.0] * (len(header) - 1))]
    words = [k == 0 or any(r[k] and not r[k].lstrip("+-−").replace(".", "").isdigit()
                           for r in rows) for k in range(len(header))]
    # each column as wide as its head (at the words' size) and its cells need, the rest
    # shared by ``weights``; a table too wide for that shares it all by ``weights``
    needs = [round(max(theme.font(px(WORDS_GLYPH)).size(text)[0],
                       *(theme.font(px(WORDS_GLYPH) if words[k] else size).size(r[k])[0]
                         for r in rows)) * th.SQUEEZE) + px(24 if words[k] and k else 6)
             for k, text in enumerate(header)]
    spare = max(0, rect.w - sum(needs)) if sum(needs) <= rect.w else None
    widths = ([n + spare * w / sum(weights) for n, w in zip(needs, weights, strict=True)]
              if spare is not None else [rect.w * w / sum(weights) for w in weights])
    first = round(widths[0])
    edges = [round(sum(widths[:k + 1])) for k in range(len(widths))]

    def cells(line: pygame.Rect) -> list[pygame.Rect]:
        out = [pygame.Rect(line.x, line.y, first, line.h)]
        for k in range(1, len(header)):
            left, right = edges[k - 1] + (px(18) if words[k] else 0), edges[k]
            out.append(pygame.Rect(line.x + left, line.y, right - left - px(6), line.h))
        return out

    for k, (box, text) in enumerate(zip(cells(lines[0]), header, strict=True)):
        fit(p, text, min(size, px(WORDS_GLYPH)), box, th.INK_SOFT,
            "left" if words[k] else "right", smallest=px(WORDS_GLYPH))
    pygame.draw.line(
        p.surface,
        th.FELT_EDGE,
        (rect.x, lines[0].bottom - 1),
        (rect.right, lines[0].bottom - 1),
        max(1, px(2)),
    )
    for line, row in zip(lines[1:], rows, strict=True):
        for k, (box, text) in enumerate(zip(cells(line), row, strict=True)):
            colour = th.WARNING if bold_last and k == len(row) - 1 else th.INK
            fit(p, text, size, box, colour, "left" if words[k] else "right",
                smallest=px(WORDS_GLYPH))


def kingdom_board(
    screen: KdScreen,
    p: Painter,
    rect: pygame.Rect,
    kingdom: Any,
    moved: set[str] = frozenset(),
) -> None:
    """Five resource tracks and Stability, side by side, with a scale: each track from its
    minimum (bottom) to its maximum (top), its position in large figures above it, its
    name under it at the words' size (one row when every name fits its column, else two
    rows, alternate names on the lower one, each up to two columns wide); the resource
    track's ends and middle (its ends only when the track is short) numbered on the left,
    Stability's ends (abdication, red) numbered beside them. A resource marker is a disc
    on its momentum side (white: up, black: down) with an arrow, and a small second disc
    when it carries a momentum marker."""
    theme = screen.app.theme
    px = theme.px
    scale_w = px(58)  # "+10" whole at FIGURE_GLYPH
    columns = [*kingdom.resources, None]
    col_w = (rect.w - scale_w) // len(columns)
    labels = [screen.t(f"kd.resource.{res.name}") if res else screen.t("kd.kingdom.stability")
              for res in columns]
    words = theme.font(px(WORDS_GLYPH))
    staggered = any(words.size(text)[0] * th.SQUEEZE > col_w - px(4) for text in labels)
    row_h = px(26 if staggered else 30)  # two rows: as close as the words' lines allow
    label_h = row_h * (2 if staggered else 1)
    value_h = px(40)  # the positions players read: digits 24 px high on the 800×480 panel
    top = rect.y + value_h + px(8)
    bottom = rect.bottom - label_h - px(8)

    def y_of(v: int, low: int, high: int) -> int:
        return round(top + (high - v) * (bottom - top) / (high - low))

    # The scale of the resource track, on the left: its ends and its middle.
    low, high = kingdom.track.min, kingdom.track.max
    marks = {low, (low + high) // 2, high}
    if (bottom - top) // 2 < px(36):  # a short track (names on two rows): its ends only
        marks = {low, high}
    for v in sorted(marks):
        box = pygame.Rect(rect.x, 0, scale_w - px(4), px(36))
        box.centery = y_of(v, low, high)
        fit(p, f"{v:+d}" if v else "0", px(FIGURE_GLYPH), box, th.INK_SOFT, "right")
    for k, res in enumerate(columns):
        col = pygame.Rect(rect.x + scale_w + k * col_w, rect.y, col_w, rect.h)
        if staggered:  # its row's neighbours are two columns away: up to two columns wide
            lower = k % 2
            label_box = pygame.Rect(0, col.bottom - (2 - lower) * row_h, 2 * col_w - px(6),
                                    row_h)
            label_box.centerx = col.centerx
            label_box.clamp_ip(pygame.Rect(rect.x, rect.y, rect.w, rect.h))
        else:
            label_box = pygame.Rect(col.x, col.bottom - label_h, col.w, label_h)
        label = labels[k]
        if res is None:
            low, high = kingdom.stability.min, kingdom.stability.max
            pos = kingdom.stability.position
        else:
            low, high, pos = kingdom.track.min, kingdom.track.max, res.position
        hot = res is not None and res.name in moved
        fit(p, label, px(WORDS_GLYPH), label_box, th.WARNING if hot else th.INK, "center")
        x = col.centerx
        pygame.draw.line(p.surface, TRACK, (x, top), (x, bottom), max(2, px(3)))
        for v in range(low, high + 1):
            w = px(9) if v in (low, high, (low + high) // 2) else px(4)
            y = y_of(v, low, high)
            pygame.draw.line(p.surface, TRACK, (x - w, y), (x + w, y), 1)
        if res is None:
            for v in (low, high):
                y = y_of(v, low, high)
                pygame.draw.rect(p.surface, END_ZONE, pygame.Rect(x - px(12), y - px(3), px(24),
                                                                  px(6)))
                end = pygame.Rect(x + px(14), 0, col.right - x - px(14), px(36))
                end.centery = y
                fit(p, f"{v:+d}", px(FIGURE_GLYPH), end, th.INK_SOFT, "left")  # the zone: red
        r = px(11)
        cy = y_of(pos, low, high)
        if res is None:
            pts = [(x, cy - r), (x + r, cy), (x, cy + r), (x - r, cy)]
            pygame.draw.polygon(p.surface, STABILITY, pts)
            pygame.draw.polygon(p.surface, th.SOCKET, pts, 1)
        else:
            up = res.momentum == kd.UP
            fill, ink = (WHITE_SIDE, BLACK_SIDE) if up else (BLACK_SIDE, WHITE_SIDE)
            if res.marker:
                pygame.draw.circle(p.surface, fill, (x + r + px(5), cy), px(6))
                pygame.draw.circle(p.surface, TRACK, (x + r + px(5), cy), px(6), 1)
            pygame.draw.circle(p.surface, fill, (x, cy), r)
            pygame.draw.circle(p.surface, TRACK, (x, cy), r, 1)
            a = r * 0.6
            tip, base = (cy - a, cy + a * 0.7) if up else (cy + a, cy - a * 0.7)
            pygame.draw.polygon(p.surface, ink, [(x, tip), (x - a, base), (x + a, base)])
        value_box = pygame.Rect(col.x, col.y, col.w, value_h)
        fit(p, f"{pos:+d}" if pos else "0", px(FIGURE_GLYPH), value_box,
            th.WARNING if hot else th.INK, "center")
