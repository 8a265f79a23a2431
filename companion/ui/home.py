"""Home: the kiosk's first screen, one big button per game of ``companion.ui.screens.MENU``
and one for "Table check".

Tapping a game pushes ``new_game(app)`` of its module; a game's screens come back here with
``app.pop()`` (Home turns every seat light off when it is on top again). Seat buttons do
nothing harmful here: a press lights that seat and says who is at the table.

At start, ``resume_unfinished(app)`` opens the latest unfinished game of the journal whose
game is on the menu, through its module's ``resume(app, game_id)``.
"""

from __future__ import annotations

import importlib
import logging
import math

import pygame

from companion.engine.errors import RuleError
from companion.hardware.base import ButtonEvent, Light
from companion.ui import screens
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.seats import SeatRing
from companion.ui.table_check import TableCheckScreen, key_hints
from companion.ui.theme import Painter
from companion.ui.widgets import Button, NoticeBand

log = logging.getLogger(__name__)


class HomeScreen(Screen):
    name = "home"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        t = app.catalog.text
        self.ring = SeatRing(app.theme, app.seats, app.catalog, key_hints(app))
        self.status: str | None = None
        choices = [(t(entry.title), self._opener(entry)) for entry in screens.MENU]
        choices.append((t("home.table_check"), self.open_table_check))
        self._layout(len(choices))
        self.buttons = [
            Button(rect, label, action) for rect, (label, action) in zip(self.cells, choices)
        ]

    # --- layout -------------------------------------------------------------------------

    def _layout(self, count: int) -> None:
        theme = self.app.theme
        px = theme.px
        inner = self.ring.centre.inflate(-2 * px(16), -2 * px(12))
        gap = px(10)
        # One header line: the title, then the status line in the room it leaves.
        title = self.app.catalog.text("app.name")
        title_w = min(theme.font(px(46)).size(title)[0], inner.w // 2)
        self.title_rect = pygame.Rect(inner.x, inner.y, title_w, px(44))
        self.status_rect = pygame.Rect(
            self.title_rect.right + gap * 2, inner.y, inner.w - title_w - gap * 2, px(44)
        )
        top = self.title_rect.bottom + gap
        bottom = inner.bottom
        self.notice = NoticeBand(self.app, inner.w)
        self.notice_rect = pygame.Rect(inner.x, bottom, inner.w, 0)
        if self.notice.height:
            self.notice_rect = pygame.Rect(
                inner.x, bottom - self.notice.height, inner.w, self.notice.height
            )
            bottom = self.notice_rect.top - gap
        grid = pygame.Rect(inner.x, top, inner.w, bottom - top)
        # As few columns (up to three) as keep every button at least a touch target high.
        least = max(th.MIN_TARGET, px(64))
        columns = 1 if count == 1 else 2
        while True:
            rows = math.ceil(count / columns)
            h = (grid.h - gap * (rows - 1)) // rows
            if h >= least or columns >= min(count, 3):
                break
            columns += 1
        h = max(least, min(px(110), h))
        w = min(px(330), (grid.w - gap * (columns - 1)) // columns)
        y0 = grid.y + (grid.h - (h * rows + gap * (rows - 1))) // 2
        self.cells = []
        for i in range(count):
            row, col = divmod(i, columns)
            in_row = min(columns, count - row * columns)  # a short last row is centred
            x0 = grid.centerx - (w * in_row + gap * (in_row - 1)) // 2
            self.cells.append(pygame.Rect(x0 + col * (w + gap), y0 + row * (h + gap), w, h))

    # --- actions ------------------------------------------------------------------------

    def _opener(self, entry: screens.Entry):
        return lambda: self.open_game(entry)

    def open_game(self, entry: screens.Entry) -> None:
        """Push the first screen of a new game of ``entry``; a table the game refuses (too
        few seats, say) is said on the status line instead."""
        module = importlib.import_module(entry.module)
        self._lights_off()  # before: the game's first screen may light seats already
        try:
            screen = module.new_game(self.app)
        except RuleError as exc:
            t = self.app.catalog.text
            self.status = t("home.refused", game=t(entry.title), reason=str(exc))
            log.warning("home: %s refused: %s", entry.game, exc)
            self.app.invalidate()
            return
        log.info("home: new game of %s", entry.game)
        self.app.push(screen)

    def open_table_check(self) -> None:
        self._lights_off()
        self.app.push(TableCheckScreen(self.app, back=True))

    def _lights_off(self) -> None:
        for seat in range(len(self.app.seats)):
            self.app.backend.set_light(seat, Light.OFF)

    def on_show(self) -> None:
        self._lights_off()
        self.status = None

    def on_button(self, event: ButtonEvent) -> None:
        self.app.backend.set_light(event.seat, Light.YOUR_TURN)
        name = self.app.seats[event.seat].name
        self.status = self.app.catalog.text("home.seat_here", name=name)
        self.app.invalidate()

    def pointer_down(self, pos: tuple[int, int]) -> None:
        changed = [b.pointer_down(pos) for b in self.buttons]  # every button hears it
        if any(changed):
            self.app.invalidate()

    def pointer_up(self, pos: tuple[int, int]) -> None:
        changed = [b.pointer_up(pos) for b in self.buttons]
        if any(changed):
            self.app.invalidate()

    def button(self, label: str) -> Button:
        """The button showing ``label`` (tests, demo)."""
        return next(b for b in self.buttons if b.label == label)

    def next_deadline(self, now_ms: int) -> int | None:
        return self.ring.next_deadline(self.app.backend, now_ms)

    def on_timer(self, now_ms: int) -> None:
        self.app.invalidate()

    # --- drawing ------------------------------------------------------------------------

    def describe(self) -> str:
        t = self.app.catalog.text
        labels = " · ".join(b.label for b in self.buttons)
        return f"{t('app.name')} | {self.status or t('home.choose')} | {labels}"

    def draw(self, p: Painter) -> None:
        theme = self.app.theme
        px = theme.px
        t = self.app.catalog.text
        p.surface.fill(th.RIM)
        felt = self.ring.centre
        pygame.draw.rect(p.surface, th.FELT, felt, border_radius=px(22))
        pygame.draw.rect(p.surface, th.FELT_EDGE, felt, width=max(2, px(3)), border_radius=px(22))
        self.ring.draw(p, self.app.backend, self.app.clock.now_ms())
        title = t("app.name")
        font = theme.fitting_font(title, px(46), self.title_rect.w)
        p.text(title, font, th.INK, self.title_rect, "left")
        status = self.status or t("home.choose")
        font = theme.fitting_font(status, px(30), self.status_rect.w)
        p.text(status, font, th.WARNING if self.status else th.INK_SOFT, self.status_rect, "right")
        for button in self.buttons:
            button.draw(p)
        self.notice.draw(p, self.notice_rect)


def resume_unfinished(app: App) -> Screen | None:
    """The screen of the latest unfinished game in ``app.journal`` whose game is on the
    menu (its module's ``resume(app, game_id)``), or None."""
    if app.journal is None:
        return None
    modules = {entry.game: entry.module for entry in screens.MENU}
    for record in reversed(app.journal.unfinished()):
        if record.game in modules:
            screen = importlib.import_module(modules[record.game]).resume(app, record.id)
            if screen is not None:
                log.info("resumed game %d (%s), %d actions", record.id, record.game, record.actions)
                return screen
    return None


def demo(ctx) -> None:
    """Home: the games, a seat saying it is here, Table check opened and closed by touch."""
    ctx.show(HomeScreen(ctx.app))
    ctx.shot()
    ctx.press(1, "a")
    ctx.shot("seat-here")
    t = ctx.app.catalog.text
    home = ctx.app.screen
    ctx.tap(home.button(t("home.table_check")).rect, "table check")
    ctx.press(0, "b")
    ctx.shot("from-home")
    ctx.tap(ctx.app.screen.back_rect, "back")
    ctx.shot("back")
