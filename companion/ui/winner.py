"""The winner screen every game shows once it is over (Koryŏ, Chosŏn, Inheritors, a King's
Dilemma night): the winner(s) in large gold type at the top, each player's total large, the
breakdown rows beneath, the play's BG Stats code at the right once the game is kept.

One layout for every game, on the felt inside the slim seat ring, each seat's plate
saying that player's place and total ("2nd · 18", ``companion.play.standings``), so that
every figure is readable from a chair (at least 24 px per 480 px of screen height,
tests/test_legibility.py): a game screen builds a ``WinnerView`` from its result and hands
it its buttons; a game that has no final screen of its own (the King's Dilemma night)
shows ``WinnerScreen``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from companion.history import GameResult
from companion.play.standings import place_words, places
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.playcode import PlayCode
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import FIGURE, SMALLEST, Button, button_h, felt, fitted

GOLD = th.WARNING
# Nominal type sizes in units (a 480th of the short side); FIGURE keeps every figure above
# 24 px per 480 px.
HEADLINE, NAME, TOTAL, LABEL, NOTE = 48, 34, 54, 30, 28
SMALLEST_LABEL = 22
NOTE_LINE = 28  # units: a note's line
FIGURE_TEXT = re.compile(r"[−+\-]?\d+(?:[.,/]\d+)?[=*]?")  # a figure alone

Action = tuple[str, Callable[[], None], str]  # label, what a tap does, a key to find it by


@dataclass(frozen=True)
class Sum:
    """A breakdown cell that adds figures up (Koryŏ's families "9+5+2 = 16"): spelt out
    where its column has room, else its total alone."""

    parts: Sequence[int]
    total: int

    def __str__(self) -> str:
        if len(self.parts) < 2:
            return str(self.total)
        return f"{'+'.join(map(str, self.parts))} = {self.total}"


@dataclass(frozen=True)
class Standing:
    """One player's line of the result: the figures as shown, one per breakdown row."""

    name: str
    total: str  # a whole number as shown ("18", "-2"): the places are ranked on it
    breakdown: Sequence[str | Sum]
    rank: str | None = None  # the game's own word for the player's rank, where it has one


class WinnerView:
    """The layout and drawing of the winner screen over the whole canvas: ``buttons`` (the
    actions along the bottom, then the play's code) for the screen to put in its own."""

    def __init__(self, app: App, game: str, standings: Sequence[Standing],
                 labels: Sequence[str], winners: Sequence[str], actions: Sequence[Action],
                 played: GameResult | None = None, notes: Sequence[str] = ()) -> None:
        self.app = app
        self.game = game
        self.standings = list(standings)
        self.labels = list(labels)
        self.winners = list(winners)
        self.notes = [n for n in notes if n]
        t, px = app.catalog.text, app.theme.px
        self.ring = SeatRing(app.theme, app.seats, app.catalog, slim=True)
        self.seat_of = {seat.name: i for i, seat in enumerate(app.seats)}  # seated players
        self.ring.figures = self.plate_figures()
        self.ring.short_figures = {self.seat_of[s.name]: s.total for s in self.standings
                                   if s.name in self.seat_of}  # the total alone
        self.felt_rect = self.ring.centre
        inner = self.felt_rect.inflate(-2 * px(12), -2 * px(8))
        gap = px(8)
        bh = button_h(app.theme)
        self.headline_rect = pygame.Rect(inner.x, inner.y, inner.w, px(48))
        top = self.headline_rect.bottom + gap
        # A column at the right: the play's code and its caption once the game is kept,
        # the actions under it; the table and the notes at the left.
        column = pygame.Rect(0, top, inner.w * 3 // 10, inner.bottom - top)
        column.right = inner.right
        self.bar_rect = pygame.Rect(column.x, column.bottom - len(actions) * (bh + gap) + gap,
                                    column.w, len(actions) * (bh + gap) - gap)
        bar = [pygame.Rect(column.x, self.bar_rect.y + i * (bh + gap), column.w, bh)
               for i in range(len(actions))]
        self.code: PlayCode | None = None
        if played is not None:
            area = pygame.Rect(column.x, top, column.w, self.bar_rect.y - gap - top)
            self.code = PlayCode(app, played, area)
            # Only as tall as the code and its caption: the caption right under the code.
            side = self.code.image.get_width()
            caption_h = self.code.font(self.code.rect.w).get_linesize()
            scale = max(1, min(self.code.rect.w, area.h - caption_h) // side)
            self.code.rect.h = min(area.h, side * scale + caption_h + px(4))
        content = pygame.Rect(inner.x, top, column.x - px(16) - inner.x, inner.bottom - top)
        # Each note on a line at up to NOTE units; one too long even at the smallest legible
        # size on as many lines as it needs (a tie between four long names).
        self.note_lines: list[tuple[str, int]] = []
        for note in self.notes:
            size = app.theme.fitting_size(note, px(NOTE), content.w, px(SMALLEST))
            font = app.theme.font(size)
            self.note_lines += [(line, size) for line in
                                Painter(app.canvas, app.theme).lines(
                                    note, font, int(content.w / th.SQUEEZE))]
        note_h = px(NOTE_LINE) * len(self.note_lines)
        self.notes_rect = pygame.Rect(content.x, content.bottom - note_h, content.w, note_h)
        self.table_rect = pygame.Rect(content.x, top, content.w,
                                      self.notes_rect.y - top - (gap if note_h else 0))
        self.buttons: list = []
        for rect, (label, on_tap, key) in zip(bar, actions, strict=True):
            button = Button(rect, label, on_tap)
            button.key = key  # type: ignore[attr-defined]
            self.buttons.append(button)
        if self.code is not None:
            self.buttons.append(self.code)
        self.title = t(f"history.game.{game}")

    def plate_figures(self) -> dict[int, str]:
        """Each seated player's place and total, large at the end of their seat's plate."""
        t = self.app.catalog.text
        totals = {s.name: int(s.total) for s in self.standings}
        by_name = {s.name: s for s in self.standings}
        notes = {}
        for name, place in places(totals, self.winners).items():
            if name in self.seat_of:
                words = place_words(place, by_name[name].total, by_name[name].rank)
                notes[self.seat_of[name]] = t(words.key, **words.params)
        return notes

    def headline(self) -> str:
        t = self.app.catalog.text
        key = "winner.one" if len(self.winners) == 1 else "winner.shared"
        return t(key, names=self.app.catalog.names(self.winners))

    def describe(self) -> str:
        totals = ", ".join(f"{s.name} {s.total}" for s in self.standings)
        return " | ".join([self.title, self.headline(), totals, *self.notes])

    def draw(self, p: Painter) -> None:
        theme, px = self.app.theme, self.app.theme.px
        felt(p, self.ring, self.app.backend, self.app.clock.now_ms())
        # The game's name small at the right, the winners as large as the rest allows.
        head = self.headline_rect
        title_font = theme.font(px(LABEL))
        title_w = min(title_font.size(self.title)[0], head.w // 3)
        title_box = pygame.Rect(head.right - title_w, head.y, title_w, head.h)
        p.text(fitted(self.title, title_font, title_w), title_font, th.INK_SOFT, title_box,
               "right")
        room = head.w - title_w - px(16)
        font = theme.fitting_font(self.headline(), px(HEADLINE), room, smallest=px(34))
        p.text(fitted(self.headline(), font, room), font, GOLD,
               pygame.Rect(head.x, head.y, room, head.h), "left")
        self._draw_table(p)
        y = self.notes_rect.y
        for line, size in self.note_lines:
            box = pygame.Rect(self.notes_rect.x, y, self.notes_rect.w, px(NOTE_LINE))
            p.text(line, theme.font(size), th.INK_SOFT, box, "left")
            y += px(NOTE_LINE)
        for button in self.buttons:
            button.draw(p)

    def _draw_table(self, p: Painter) -> None:
        """Names across the top, each total large under its name, the breakdown beneath;
        the winners' columns on a dark plate, their names in gold."""
        theme, px = self.app.theme, self.app.theme.px
        area = self.table_rect
        n = len(self.standings)
        # Heights in shares of a row: names 1, totals 1.5, each breakdown row 1.
        unit = area.h / (2.5 + len(self.labels))
        row_h = min(int(unit), px(44))
        total_h = min(int(unit * 1.5), px(66))
        label_font = theme.font(px(LABEL))
        total_label = self.app.catalog.text("winner.total")
        widest = max(label_font.size(label)[0] for label in [total_label, *self.labels])
        label_w = min(int(widest * th.SQUEEZE) + px(12), area.w * 2 // 5)
        col_w = (area.w - label_w) // max(1, n)
        height = row_h + total_h + row_h * len(self.labels)
        area = area.move(0, (area.h - height) // 3)  # a short table nearer the middle
        figure_font, total_font = theme.font(px(FIGURE)), theme.font(px(TOTAL))
        for i, s in enumerate(self.standings):
            col = pygame.Rect(area.x + label_w + i * col_w, area.y, col_w, height)
            won = s.name in self.winners
            if won:
                pygame.draw.rect(p.surface, th.PLATE, col.inflate(-px(4), 0),
                                 border_radius=px(10))
            cell = pygame.Rect(col.x, area.y, col_w, row_h).inflate(-px(8), 0)
            font = theme.fitting_font(s.name, px(NAME), cell.w, smallest=px(24))
            p.text(fitted(s.name, font, cell.w), font, GOLD if won else th.INK, cell)
            cell = pygame.Rect(col.x, area.y + row_h, col_w, total_h)
            p.text(s.total, total_font, GOLD if won else th.INK, cell)
        y = area.y + row_h
        p.text(total_label, label_font, th.INK,
               pygame.Rect(area.x, y, label_w - px(8), total_h), "left")
        y += total_h
        pygame.draw.line(p.surface, th.FELT_EDGE, (area.x, y), (area.right, y), max(1, px(2)))
        for r, label in enumerate(self.labels):
            box = pygame.Rect(area.x, y, label_w - px(8), row_h)
            font = theme.fitting_font(label, px(LABEL), box.w, smallest=px(SMALLEST_LABEL))
            p.text(fitted(label, font, box.w), font, th.INK_SOFT, box, "left")
            for i, s in enumerate(self.standings):
                cell = pygame.Rect(area.x + label_w + i * col_w, y, col_w, row_h)
                shown = s.breakdown[r]
                text = str(shown)
                room = cell.w - px(16)  # a gap between neighbouring columns' figures
                # A sum spelt out may take a smaller size to fit; where even that is too
                # wide, its total alone.
                font = figure_font if FIGURE_TEXT.fullmatch(text) else theme.fitting_font(
                    text, px(FIGURE), room, smallest=px(26))
                if isinstance(shown, Sum) and font.size(text)[0] > room:
                    text, font = str(shown.total), figure_font
                p.text(text, font, th.INK, cell.inflate(-px(16), 0))
            y += row_h


class ShowsWinner:
    """A screen that shows the shared winner screen (``show_winner``): its buttons are the
    winner's, and its ``ring`` (whose lights' rhythm ``Screen`` follows, and which a blink
    step redraws alone) is the winner's slim ring, not a full one drawn under it. Mixed in
    before ``Screen``."""

    winner: WinnerView | None = None

    def show_winner(self, winner: WinnerView) -> None:
        self.winner = winner
        self.buttons = winner.buttons
        self.ring = winner.ring


class WinnerScreen(ShowsWinner, Screen):
    """The winner screen on its own, for a game whose result has no screen of its own (a
    King's Dilemma night once recorded); the seats' lights are off."""

    name = "winner"

    def __init__(self, app: App, view: WinnerView) -> None:
        super().__init__(app)
        self.show_winner(view)

    def describe(self) -> str:
        return f"{self.name} | {self.winner.describe()}"

    def draw(self, p: Painter) -> None:
        self.winner.draw(p)

    def pointer_down(self, pos: tuple[int, int]) -> None:
        if [b for b in list(self.buttons) if b.pointer_down(pos)]:  # every one: unpress
            self.app.invalidate()

    def pointer_up(self, pos: tuple[int, int]) -> None:
        if [b for b in list(self.buttons) if b.pointer_up(pos)]:
            self.app.invalidate()
