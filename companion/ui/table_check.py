""" "Table check": every seat presses a button, its light answers, the screen names it.

The first screen of the kiosk: it proves each pad (buttons and light) is wired to the
right seat before a game starts. A short press lights the seat YOUR_TURN (fast blink), a
long press ATTENTION (flicker); the screen says who pressed what ("Ana pressed B
(long)"). "Test lights" steps every pad through all light states; "Lights off" turns them
off, and who answered with which button stays on the screen.
Opened from Home it has a "Back" button (lights off, ``app.pop()``).
"""

from __future__ import annotations

import logging
import math

import pygame

from companion.play.seat import ButtonEvent, Light, Press
from companion.play.seatview import SeatFigure, SeatView
from companion.play.turns import Turns
from companion.play.words import Words
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.legible import figures_large, figures_large_width
from companion.ui.seats import SeatRing
from companion.ui.theme import SQUEEZE, Painter
from companion.ui.widgets import Button, NoticeBand, button_h, felt

log = logging.getLogger(__name__)

LIGHT_CYCLE = [light for light in Light if light is not Light.OFF] + [Light.OFF]


def key_hints(app: App) -> dict[int, SeatView]:
    """Each seat's keys ("1 · Q · A" over "keys") when the seats are simulated on the
    keyboard, as a figure of the seat's own view, as large as a game's figures on a plate
    (a seat whose pad is gone shows the missing mark instead):
    shown on Home and the Table check, where the table learns its seats, and nowhere else
    (a game screen's plates keep the seat's name, or what the game shows there, large)."""
    keymap = getattr(app.backend, "KEYMAP", None)
    if not keymap:
        return {}
    keys: dict[int, list[tuple[str, str]]] = {}
    for key, (seat, button) in keymap.items():
        keys.setdefault(seat, []).append((button, key.upper()))
    label = Words("seat.keys_label")
    return {
        seat: SeatView(seat, figures=(
            SeatFigure(label, " · ".join(k for _, k in sorted(pairs))),))
        for seat, pairs in keys.items()
        if seat < len(app.seats) and app.backend.connected(seat)
    }


class TableCheckScreen(Screen):
    name = "table-check"

    def __init__(self, app: App, back: bool = False) -> None:
        """``back``: opened from Home, with a Back button that returns there."""
        super().__init__(app)
        t = app.catalog.text
        self.ring = SeatRing(app.theme, app.seats, app.catalog)
        self.last: dict[int, ButtonEvent] = {}
        self.lit: dict[int, Light] = {}  # what the seats show: a press's answer, the test
        self.headline: str | None = None
        self.cycle = 0
        self.back_rect: pygame.Rect | None = None
        self._layout(back)
        self.buttons = [
            Button(self.test_rect, t("table_check.test_lights"), self.test_lights),
            Button(self.off_rect, t("table_check.lights_off"), self.all_off),
        ]
        if self.back_rect:
            self.buttons.insert(0, Button(self.back_rect, t("table_check.back"), self.back))
        if self.phones_rect:
            self.buttons.append(Button(self.phones_rect, t("phones.screen.open"),
                                       self.open_phones))

    # --- layout -------------------------------------------------------------------------

    def _layout(self, back: bool) -> None:
        theme = self.app.theme
        px = theme.px
        inner = self.ring.centre.inflate(-2 * px(16), -2 * px(12))
        self.inner = inner
        gap = px(8)
        y = inner.top
        self.title_rect = pygame.Rect(inner.x, y, inner.w, px(44))
        y = self.title_rect.bottom + gap // 2
        self.status_rect = pygame.Rect(inner.x, y, inner.w, px(36))
        y = self.status_rect.bottom + gap
        bh = button_h(theme)
        bottom = inner.bottom - bh
        from companion.ui.phones import has_phones  # the Phones screen: with phones on

        self.phones_rect: pygame.Rect | None = None
        phones = has_phones(self.app)
        count = (3 if back else 2) + phones
        bw = min(px(270), (inner.w - gap * (count - 1)) // count)
        left = inner.centerx - (bw * count + gap * (count - 1)) // 2
        rects = [pygame.Rect(left + i * (bw + gap), bottom, bw, bh) for i in range(count)]
        if back:
            self.back_rect = rects.pop(0)
        if phones:
            self.phones_rect = rects.pop()
        self.test_rect, self.off_rect = rects
        self.notice = NoticeBand(self.app, inner.w)
        self.notice_rect = pygame.Rect(inner.x, bottom, inner.w, 0)
        if self.notice.height:
            self.notice_rect = pygame.Rect(
                inner.x, bottom - gap - self.notice.height, inner.w, self.notice.height
            )
            bottom = self.notice_rect.top
        self.rows_rect = pygame.Rect(inner.x, y, inner.w, bottom - gap - y)
        seats = len(self.app.seats)
        self.columns = 1 if seats <= 3 else 2
        per_column = math.ceil(seats / self.columns)
        row_h = min(px(42), self.rows_rect.h // per_column)
        top = self.rows_rect.y + (self.rows_rect.h - row_h * per_column) // 2
        col_w = (inner.w - gap * (self.columns - 1)) // self.columns
        self.rows = []
        for i in range(seats):
            col, row = divmod(i, per_column)
            self.rows.append(
                pygame.Rect(inner.x + col * (col_w + gap), top + row * row_h, col_w, row_h)
            )

    # --- actions ------------------------------------------------------------------------

    def on_button(self, event: ButtonEvent) -> None:
        t = self.app.catalog.text
        seat = self.app.seats[event.seat]
        self.lit[event.seat] = Light.ATTENTION if event.press is Press.LONG else Light.YOUR_TURN
        self.last[event.seat] = event
        key = (
            "table_check.pressed_long" if event.press is Press.LONG else "table_check.pressed_short"
        )
        self.headline = t(key, name=seat.name, button=t(f"pad_button.{event.button}"))
        log.info(
            "table check: seat %d (%s) button %s %s",
            event.seat,
            seat.name,
            event.button,
            event.press.value,
        )
        self.app.invalidate()

    def test_lights(self) -> None:
        light = LIGHT_CYCLE[self.cycle % len(LIGHT_CYCLE)]
        self.cycle += 1
        self.lit = dict.fromkeys(range(len(self.app.seats)), light)
        name = self.app.catalog.text(f"light.{light.value}")
        self.headline = self.app.catalog.text("table_check.lights_all", light=name)
        self.app.invalidate()

    def turns(self) -> Turns:
        """The light under test on every seat, as a mark (no seat acts here)."""
        return Turns(marks=self.lit)

    def all_off(self) -> None:
        """Every light off; the seats' answers stay on screen (the check goes on)."""
        self.lit = {}
        self.headline = None
        self.cycle = 0
        self.app.invalidate()

    def open_phones(self) -> None:
        from companion.ui.phones import PhonesScreen

        self.app.push(PhonesScreen(self.app))

    def back(self) -> None:
        self.all_off()
        self.app.pop()

    # --- drawing ------------------------------------------------------------------------

    def progress(self) -> str:
        total = len(self.app.seats)
        if len(self.last) == total:
            return self.app.catalog.text("table_check.all_answered", total=total)
        return self.app.catalog.text("table_check.answered", count=len(self.last), total=total)

    def row_text(self, seat: int) -> str:
        t = self.app.catalog.text
        event = self.last.get(seat)
        if event is None:
            return t("table_check.row_waiting")
        key = "table_check.row_long" if event.press is Press.LONG else "table_check.row_short"
        return t(key, button=t(f"pad_button.{event.button}"))

    def describe(self) -> str:
        rows = ", ".join(f"{s.name}: {self.row_text(i)}" for i, s in enumerate(self.app.seats))
        status = self.headline or self.app.catalog.text("table_check.prompt")
        return (
            f"{self.app.catalog.text('table_check.title')} | {status} | {self.progress()} | {rows}"
        )

    def draw(self, p: Painter) -> None:
        theme = self.app.theme
        px = theme.px
        self.ring.views = key_hints(self.app)  # a pad unplugged since shows missing
        felt(p, self.ring, self.app.backend, self.app.clock.now_ms())
        t = self.app.catalog.text

        title = t("table_check.title")
        title_box = self.title_rect.copy()
        # the count beside the title keeps the room it needs, its figures at the figure's
        # size among words at the least words' size (a long French count: "2 places sur 4
        # ont répondu"); the title fits in the rest
        count_w = figures_large_width(theme, self.progress())
        title_w = min(self.title_rect.w * 3 // 5, self.title_rect.w - count_w - px(24))
        title_font = theme.fitting_font(title, px(50), title_w)
        # the title as wide as it is drawn: the count beside it gets the rest, its figures
        # as large as a plate's
        title_box.w = min(title_w, title_font.size(title)[0] + px(16))
        p.text(title, title_font, th.INK, title_box, "left")
        progress_box = pygame.Rect(  # a gap from the title
            title_box.right + px(14), title_box.y, self.title_rect.w - title_box.w - px(14),
            title_box.h
        )
        done = len(self.last) == len(self.app.seats)
        colour = th.WARNING if done else th.INK_SOFT
        if theme.font(px(48)).size(self.progress())[0] * SQUEEZE <= progress_box.w:
            p.text(self.progress(), theme.fitting_font(self.progress(), px(48), progress_box.w),
                   colour, progress_box, "right")
        else:  # too long at the figure's size: its figures large among smaller words
            figures_large(p, self.progress(), progress_box, colour, "right")

        status = self.headline or t("table_check.prompt")
        font = theme.fitting_font(status, px(40), self.status_rect.w)
        p.text(status, font, th.WARNING if self.headline else th.INK_SOFT, self.status_rect, "left")

        for seat, rect in enumerate(self.rows):
            self._draw_row(p, seat, rect)

        self.notice.draw(p, self.notice_rect)
        for button in self.buttons:
            button.draw(p)

    def _draw_row(self, p: Painter, seat: int, rect: pygame.Rect) -> None:
        theme = self.app.theme
        px = theme.px
        config = self.app.seats[seat]
        answered = seat in self.last
        if answered:
            band = rect.inflate(0, -px(4))
            pygame.draw.rect(p.surface, th.PLATE, band, border_radius=band.h // 2)
        r = max(4, rect.h // 4)
        pygame.draw.circle(p.surface, config.colour, (rect.x + px(6) + r, rect.centery), r)
        size = min(px(34), rect.h)
        text = self.row_text(seat)
        # the state ("waiting…", "B (long)") may take half the row: names are short
        state_font = theme.fitting_font(text, size, rect.w // 2)
        state_w = min(state_font.size(text)[0], rect.w // 2)
        state_box = pygame.Rect(rect.right - px(12) - state_w, rect.y, state_w, rect.h)
        left = rect.x + 2 * r + px(16)
        name_box = pygame.Rect(left, rect.y, state_box.left - px(10) - left, rect.h)
        p.text(
            config.name, theme.fitting_font(config.name, size, name_box.w), th.INK, name_box, "left"
        )
        p.text(text, state_font, th.INK if answered else th.INK_DIM, state_box, "right")
