"""Inheritors: the final score sheet on the touchscreen, on the felt inside the seat ring
like every game screen.

``new_game(app)`` opens the setup: tap the configured seats that play (2–4), then the
first player (or let the table draw one); the first player's seat lights "first player".
The sheet (``inheritors_sheet``) then takes each player's count, one player at a time:
the top card of each colour, tomes and cards in hand, relics, quests, honors and the
clan bonus, with big − / + targets. Every entry is an action of the sheet's session
through its controller (``companion.games.inheritors.controller``): what the game can't produce is
refused and the screen says why; the breakdown is live; Undo takes back the last entry.
The final screen (``inheritors_final``) shows the breakdown, the tie-break and the
winners, and "Save" records ``companion score --json``'s result in ``app.history``.

Journal: with ``app.journal`` the sheet is a journaled ``Session`` (a cut loses no entry)
and ``resume(app, game_id)`` reopens it (the home screen's contract). Without a journal
the sheet lives in memory and ``resume`` returns None. The setup's Back returns Home
(``app.pop()``). The sheet's Home button leaves it unfinished in the journal (Home then
offers to resume or abandon it; it also resumes at the next start); without a journal the
entries would be lost, so Home then takes a second tap ("Sure? Home").
"""

from __future__ import annotations

import random

import pygame

from companion.games.inheritors.controller import SheetController
from companion.play.seat import Light
from companion.play.turns import NOBODY, Turns
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.screens.inheritors.draw import SELECTED, TableScreen, Tile, grid
from companion.ui.screens.inheritors.final import ResultScreen
from companion.ui.screens.inheritors.sheet import SheetScreen
from companion.ui.theme import Painter
from companion.ui.widgets import WORDS_GLYPH, Button, button_h, fitted, headline

__all__ = ["ResultScreen", "SetupScreen", "SheetScreen", "new_game", "resume"]

LEAST, MOST = SheetController.PLAYERS


def new_game(app: App) -> Screen:
    return SetupScreen(app)


def resume(app: App, game_id: int) -> Screen | None:
    """The sheet of the unfinished game ``game_id`` of ``app.journal`` (None without one)."""
    if app.journal is None:
        return None
    game = SheetController.resume(app.journal, game_id)
    return None if game is None else SheetScreen(app, game)


class SetupScreen(TableScreen):
    """Who plays (configured seats, 2–4) and who goes first (tapped or drawn)."""

    name = "inheritors-setup"

    def __init__(self, app: App, rng: random.Random | None = None) -> None:
        super().__init__(app)
        self.rng = rng or random.Random()
        self.chosen: list[int] = []  # seats, in seating order
        self.first: int | None = None
        self.message: str | None = None
        self.build()

    def on_show(self) -> None:
        self.refresh()

    def toggle(self, seat: int) -> None:
        if seat in self.chosen:
            self.chosen.remove(seat)
            if self.first == seat:
                self.first = None
        elif len(self.chosen) < MOST:
            self.chosen = sorted([*self.chosen, seat])
        else:
            self.message = self.app.catalog.text("inheritors.setup.too_many", most=MOST)
            self.refresh()
            return
        self.message = None
        self.refresh()

    def pick_first(self, seat: int) -> None:
        if seat not in self.chosen:
            self.chosen = sorted([*self.chosen, seat])
        self.first = seat
        self.message = None
        self.refresh()

    def draw_first(self) -> None:
        if self.chosen:
            self.first = self.rng.choice(self.chosen)
        self.refresh()

    def turns(self) -> Turns:
        return NOBODY if self.first is None else Turns(marks={self.first: Light.FIRST_PLAYER})

    def back(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()

    def start(self) -> None:
        t = self.app.catalog.text
        if not LEAST <= len(self.chosen) <= MOST:
            self.message = t("inheritors.setup.need", least=LEAST, most=MOST)
            self.refresh()
            return
        if self.first is None:
            self.first = self.rng.choice(self.chosen)
        names = [self.app.seats[s].name for s in self.chosen]
        setup = {"players": names, "seats": list(self.chosen),
                 "first_player": self.app.seats[self.first].name}
        self.app.replace(SheetScreen(self.app, SheetController.new(setup, self.app.journal)))

    def build(self) -> None:
        t, px = self.app.catalog.text, self.app.theme.px
        inner, gap, bh = self.inner, px(6), button_h(self.app.theme)
        self.title_rect = pygame.Rect(inner.x, inner.y, inner.w, px(40))
        self.bar_rect = pygame.Rect(inner.x, inner.bottom - bh, inner.w, bh)
        seats = len(self.app.seats)
        area = pygame.Rect(inner.x, self.title_rect.bottom + gap, inner.w, 2 * bh + gap)
        self.seat_rects = grid(area, seats, 2, gap)[:seats]
        self.first_rects = grid(area, seats, 2, gap)[seats:]
        self.message_rect = pygame.Rect(inner.x, area.bottom + gap, inner.w,
                                        self.bar_rect.y - gap - area.bottom - gap)
        self.buttons = []
        for seat, (tile, first) in enumerate(zip(self.seat_rects, self.first_rects,
                                                 strict=True)):
            self.buttons.append(Tile(tile, lambda s=seat: self.toggle(s),
                                     lambda p, r, down, s=seat: self.paint_seat(p, r, down, s)))
            self.buttons.append(Tile(first, lambda s=seat: self.pick_first(s),
                                     lambda p, r, down, s=seat: self.paint_first(p, r, down, s)))
        self.back_rect, self.random_rect, self.start_rect = grid(self.bar_rect, 3, 1, gap)
        self.buttons.append(Button(self.back_rect, t("inheritors.setup.back"), self.back))
        self.buttons.append(Button(self.random_rect, t("inheritors.setup.random"),
                                   self.draw_first))
        self.buttons.append(Button(self.start_rect, t("inheritors.setup.start"), self.start))

    def paint_seat(self, p: Painter, rect: pygame.Rect, down: bool, seat: int) -> None:
        theme, px = self.app.theme, self.app.theme.px
        config = self.app.seats[seat]
        on = seat in self.chosen
        pygame.draw.rect(p.surface, th.PLATE if on or down else th.RIM, rect,
                         border_radius=px(12))
        pygame.draw.rect(p.surface, SELECTED if on else th.INK_DIM, rect, width=max(2, px(3)),
                         border_radius=px(12))
        stripe = pygame.Rect(rect.x + px(10), rect.bottom - px(12), rect.w - px(20), px(6))
        pygame.draw.rect(p.surface, config.colour, stripe, border_radius=px(3))
        body = pygame.Rect(rect.x + px(8), rect.y + px(3), rect.w - px(16),
                           stripe.y - rect.y - px(4))
        # the name and whether the seat plays, both at the least words' size
        name_box = pygame.Rect(body.x, body.y, body.w, body.h // 2)
        mark_box = pygame.Rect(body.x, name_box.bottom, body.w, body.h - name_box.h)
        font = theme.fitting_font(config.name, px(WORDS_GLYPH), name_box.w, px(22))
        p.text(fitted(config.name, font, name_box.w), font, th.INK if on else th.INK_DIM,
               name_box)
        mark = self.app.catalog.text("inheritors.setup.plays" if on else "inheritors.setup.out")
        self.plain(p, mark, mark_box, px(WORDS_GLYPH), th.INK_SOFT, "center")

    def paint_first(self, p: Painter, rect: pygame.Rect, down: bool, seat: int) -> None:
        px = self.app.theme.px
        first = seat == self.first
        fill = th.BUTTON_PRESSED if down or first else th.BUTTON
        pygame.draw.rect(p.surface, fill, rect, border_radius=rect.h // 4)
        label = self.app.catalog.text("inheritors.setup.first")
        self.plain(p, label, rect.inflate(-px(12), 0), rect.h // 2, th.BUTTON_INK, "center")

    def describe(self) -> str:
        t = self.app.catalog.text
        names = ", ".join(self.app.seats[s].name for s in self.chosen) or "-"
        first = self.app.seats[self.first].name if self.first is not None else "-"
        return f"{t('inheritors.setup.title')} | {names} | {first} | {self.message or ''}"

    def draw(self, p: Painter) -> None:
        t, px = self.app.catalog.text, self.app.theme.px
        self.background(p)
        headline(p, t("inheritors.setup.title"), self.title_rect)
        if self.message:
            self.plain(p, self.message, self.message_rect, px(WORDS_GLYPH), th.WARNING)
        elif self.first is not None:
            self.plain(p, t("inheritors.setup.first_is", name=self.app.seats[self.first].name),
                       self.message_rect, px(WORDS_GLYPH), th.INK)
        else:
            self.plain(p, t("inheritors.setup.hint", least=LEAST,
                            most=MOST), self.message_rect, px(WORDS_GLYPH),
                       th.INK_SOFT)
        for b in self.buttons:
            b.draw(p)
