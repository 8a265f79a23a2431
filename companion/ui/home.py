"""Home: the kiosk's first screen, one big button per game of ``companion.ui.screens.MENU``
and one for "Table check".

Tapping a game pushes ``new_game(app)`` of its module; a game's screens come back here with
``app.pop()`` (Home turns every seat light off when it is on top again). Seat buttons do
nothing harmful here: a press lights that seat and says who is at the table.

A game with an unfinished game in the journal shows it instead, first and two cells wide
("Resume Koryŏ" over "round 3, Ben's turn, started 20:14", from its journal replayed):
the tap resumes it through ``resume(app, game_id)``, and "Abandon" beside
it drops it (``Journal.abandon``: its actions stay in the database, it no longer resumes)
after a second tap on the same button ("Sure? Abandon"); any other tap or seat press
cancels. Home rebuilds this list every time it is on top again.

At start, ``resume_unfinished(app)`` opens the latest unfinished game of the journal whose
game is on the menu, through its module's ``resume(app, game_id)``.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from datetime import datetime
from functools import partial

import pygame

from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent
from companion.play.table import NOT_REPLAYED, KeptGame
from companion.play.turns import NOBODY, Turns
from companion.ui import screens
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.phones import PhonesScreen, has_phones
from companion.ui.seats import SeatRing
from companion.ui.table_check import TableCheckScreen, key_hints
from companion.ui.theme import Painter
from companion.ui.widgets import (
    FIGURE_GLYPH,
    WORDS_GLYPH,
    Button,
    NoticeBand,
    button_h,
    felt,
    split_in_two,
)

log = logging.getLogger(__name__)
LEGIBLE = 22  # units: the smallest type on Home (legible on the 7" panel)


def split_at_comma(text: str) -> list[str]:
    """``text`` in two lines at the ", " nearest its middle (the comma stays at the end of
    the first line); one line when it has none."""
    cuts = [i for i in range(len(text)) if text.startswith(", ", i)]
    if not cuts:
        return [text]
    cut = min(cuts, key=lambda i: abs(len(text) - 2 * i))
    return [text[:cut + 1], text[cut + 2:]]


class ResumeButton(Button):
    """A game's button when it has an unfinished game: "Resume GAME" over its progress."""

    def __init__(self, rect: pygame.Rect, label: str, detail: str | Callable[[], str],
                 on_tap) -> None:
        super().__init__(rect, label, on_tap)
        self._detail = detail

    @property
    def detail(self) -> str:
        """The progress line, worked out when first wanted (a replay from the game's
        snapshot): Home built under the game resumed at start replays nothing for it."""
        if callable(self._detail):
            self._detail = self._detail()
        return self._detail

    def draw(self, p: Painter) -> None:
        radius = self.rect.height // 4
        pygame.draw.rect(p.surface, th.SOCKET, self.rect.move(0, max(2, self.rect.height // 16)),
                         border_radius=radius)
        fill = th.BUTTON_PRESSED if self.pressed else th.BUTTON
        pygame.draw.rect(p.surface, fill, self.rect, border_radius=radius)
        theme = p.theme
        inner = self.rect.inflate(-self.rect.height // 4, -self.rect.height // 8)
        legible = theme.font(theme.px(LEGIBLE)).get_height()
        lines = [self.label]
        if theme.fitting_font(self.label, theme.px(32), inner.w).get_height() < legible:
            lines = list(split_in_two(self.label) or lines)  # too long: on two lines
        details = [self.detail]
        if theme.fitting_font(self.detail, theme.px(WORDS_GLYPH), inner.w).get_height() < legible:
            details = split_at_comma(self.detail)  # "round 3, Ben's turn" / "started 20:14"
        # The progress line's time is a figure read from a chair: at the figure's size.
        sizes = [32] * len(lines) + [FIGURE_GLYPH if any(c.isdigit() for c in d)
                                     else WORDS_GLYPH for d in details]
        lines += details
        y = inner.y
        for line, units in zip(lines, sizes, strict=True):
            line_h = inner.h * units // sum(sizes)  # each line's share of the height
            box = pygame.Rect(inner.x, y, inner.w, line_h)
            y += line_h
            size = theme.px(units)
            while size > theme.px(LEGIBLE) and theme.font(size).get_height() > line_h:
                size -= 1
            font = theme.fitting_font(line, size, inner.w)
            p.text(line, font, th.BUTTON_INK, box)
        p.targets.append(self.rect)


class HomeScreen(Screen):
    name = "home"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.ring = SeatRing(app.theme, app.seats, app.catalog)
        self.status: str | None = None
        self.here: int | None = None  # the seat that last pressed a button
        self.build()
        self._built = True  # by __init__: its push need not build again (a replay each)

    def build(self) -> None:
        """The buttons: a game's, or its unfinished game's Resume and Abandon."""
        t = self.app.catalog.text
        self.pending = self._unfinished()
        self.confirming: str | None = None  # the game whose Abandon asks "Sure?"
        self.abandons: dict[str, Button] = {}
        # An unfinished game first, on a whole row: its progress needs the room.
        entries = sorted(screens.MENU, key=lambda e: e.game not in self.pending)
        phones = has_phones(self.app)  # then the seats' codes, one tap away
        self._layout([entry.game in self.pending for entry in entries] + [False] * (1 + phones))
        self.buttons = []
        for entry, cell in zip(entries, self.cells, strict=False):
            record = self.pending.get(entry.game)
            if record is None:
                self.buttons.append(Button(cell, t(entry.title), self._opener(entry)))
                continue
            side = max(th.MIN_TARGET, cell.w // 3)
            gap = self.app.theme.px(6)
            main = pygame.Rect(cell.x, cell.y, cell.w - side - gap, cell.h)
            drop = pygame.Rect(main.right + gap, cell.y, side, cell.h)
            self.buttons.append(ResumeButton(
                main, t("home.resume", game=t(entry.title)), partial(self.progress, record),
                self._resumer(entry, record)))
            abandon = Button(drop, t("home.abandon"), self._abandoner(entry, record))
            self.abandons[entry.game] = abandon
            self.buttons.append(abandon)
        self.buttons.append(Button(self.cells[len(entries)], t("home.table_check"),
                                   self.open_table_check))
        if phones:
            self.buttons.append(Button(self.cells[-1], t("phones.screen.open"),
                                       lambda: self.app.push(PhonesScreen(self.app))))

    def _unfinished(self) -> dict[str, KeptGame]:
        """The latest unfinished game of each menu entry, from the Table's journal."""
        games = {entry.game for entry in screens.MENU}
        return {r.game: r for r in self.app.table.unfinished() if r.game in games}

    def progress(self, record: KeptGame) -> str:
        """Where an unfinished game stands, in the players' words: its round and whose
        turn it is (when the game has them), and when it started (the date too if not
        today): "round 3, Ben's turn, started 20:14"."""
        t = self.app.catalog.text
        started = datetime.fromisoformat(record.started)
        now = datetime.now(started.tzinfo)
        time = started.strftime("%H:%M" if started.date() == now.date() else "%d/%m %H:%M")
        where = self._where(record)
        if not where.get("round"):
            return t("home.progress", time=time)
        round_text = t(f"home.round.{record.game}", round=where["round"])  # the game's word
        if where.get("player") is not None:
            return t("home.progress_turn", round_text=round_text, player=where["player"],
                     time=time)
        return t("home.progress_round", round_text=round_text, time=time)

    def _where(self, record: KeptGame) -> dict:
        """The game's round and acting player, from its journal replayed (nothing when it
        can't be: its start time only, and the Resume tap then says why)."""
        return self.app.table.where(record)

    # --- layout -------------------------------------------------------------------------

    def _layout(self, wide: list[bool]) -> None:
        """``self.cells``: one per item, row by row; a ``wide`` item takes two cells."""
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
        least = button_h(theme)
        count = len(wide)
        columns = 1 if count == 1 else 2
        while True:
            rows = self._rows(wide, columns)
            h = (grid.h - gap * (len(rows) - 1)) // len(rows)
            if h >= least or columns >= min(count, 3):
                break
            columns += 1
        h = max(least, min(px(110), h))
        w = min(px(330), (grid.w - gap * (columns - 1)) // columns)
        y0 = grid.y + (grid.h - (h * len(rows) + gap * (len(rows) - 1))) // 2
        self.cells = []
        for r, row in enumerate(rows):
            y = y0 + r * (h + gap)
            spans = [self._span(wide[i], columns) for i in row]
            x = grid.centerx - (w * sum(spans) + gap * (sum(spans) - 1)) // 2  # a short row
            for span in spans:  # is centred
                self.cells.append(pygame.Rect(x, y, w * span + gap * (span - 1), h))
                x += (w + gap) * span

    @staticmethod
    def _span(wide: bool, columns: int) -> int:
        return min(2, columns) if wide else 1

    @classmethod
    def _rows(cls, wide: list[bool], columns: int) -> list[list[int]]:
        """The items' indexes row by row, each row at most ``columns`` cells wide."""
        rows: list[list[int]] = [[]]
        used = 0
        for i, is_wide in enumerate(wide):
            span = cls._span(is_wide, columns)
            if used + span > columns:
                rows.append([])
                used = 0
            rows[-1].append(i)
            used += span
        return rows

    # --- actions ------------------------------------------------------------------------

    def _opener(self, entry: screens.Entry):
        return lambda: self.open_game(entry)

    def _resumer(self, entry: screens.Entry, record: KeptGame):
        return lambda: self.resume_game(entry, record)

    def _abandoner(self, entry: screens.Entry, record: KeptGame):
        return lambda: self.abandon_game(entry, record)

    def resume_game(self, entry: screens.Entry, record: KeptGame) -> None:
        """Push the screen of ``entry``'s unfinished game; a game that can't be rebuilt is
        said on the status line (Abandon is then the way out)."""
        module = importlib.import_module(entry.module)
        t = self.app.catalog.text
        try:
            screen = module.resume(self.app, record.id)
        except NOT_REPLAYED as exc:
            log.error("home: game %d (%s) does not resume: %s", record.id, entry.game, exc)
            reason = self.app.catalog.refusal(exc) if isinstance(exc, RuleError) else str(exc)
            self.status = t("home.cannot_resume", game=t(entry.title), reason=reason)
            self.app.invalidate()
            return
        if screen is None:  # nothing the module can resume: a new game
            self.open_game(entry)
            return
        log.info("home: resumed game %d (%s)", record.id, entry.game)
        self.app.push(screen)

    def abandon_game(self, entry: screens.Entry, record: KeptGame) -> None:
        """First tap: ask "Sure?" on the same button; second: abandon the game."""
        t = self.app.catalog.text
        if self.confirming != entry.game:
            self._cancel()
            self.confirming = entry.game
            self.abandons[entry.game].label = t("home.abandon_sure")
            self.status = t("home.abandon_ask", game=t(entry.title))
            self.app.invalidate()
            return
        self.app.table.abandon(record.id)
        log.info("home: abandoned game %d (%s), %d actions kept", record.id, entry.game,
                 record.actions)
        self.build()
        self.status = t("home.abandoned", game=t(entry.title))
        self.app.invalidate()

    def _cancel(self) -> bool:
        """Put back the Abandon button that asks "Sure?"; True if there was one."""
        if self.confirming is None:
            return False
        self.abandons[self.confirming].label = self.app.catalog.text("home.abandon")
        self.confirming = None
        self.status = None
        return True

    def open_game(self, entry: screens.Entry) -> None:
        """Push the first screen of a new game of ``entry``; a table the game refuses (too
        few seats, say) is said on the status line instead."""
        module = importlib.import_module(entry.module)
        try:
            screen = module.new_game(self.app)
        except RuleError as exc:
            t = self.app.catalog.text
            self.status = t("home.refused", game=t(entry.title),
                            reason=self.app.catalog.refusal(exc))
            log.warning("home: %s refused: %s", entry.game, exc)
            self.app.invalidate()
            return
        log.info("home: new game of %s", entry.game)
        self.app.push(screen)

    def open_table_check(self) -> None:
        self.app.push(TableCheckScreen(self.app, back=True))

    def on_show(self) -> None:
        self.here = None
        if not self._built:
            self.build()
        self._built = False
        self.status = None

    def turns(self) -> Turns:
        """No game here: only the seat that last said it is here is lit, as acting."""
        return NOBODY if self.here is None else Turns(acting=frozenset({self.here}))

    def on_button(self, event: ButtonEvent) -> None:
        self._cancel()
        self.here = event.seat
        name = self.app.seats[event.seat].name
        self.status = self.app.catalog.text("home.seat_here", name=name)
        self.app.invalidate()

    def pointer_down(self, pos: tuple[int, int]) -> None:
        changed = [b.pointer_down(pos) for b in self.buttons]  # every button hears it
        asking = self.abandons.get(self.confirming)
        if asking is not None and not asking.rect.collidepoint(pos):
            changed.append(self._cancel())  # a tap anywhere else: no, keep the game
        if any(changed):
            self.app.invalidate()

    def button(self, label: str) -> Button:
        """The button showing ``label`` (tests, demo)."""
        return next(b for b in self.buttons if b.label == label)

    # --- drawing ------------------------------------------------------------------------

    def describe(self) -> str:
        t = self.app.catalog.text
        labels = " · ".join(
            f"{b.label} ({b.detail})" if isinstance(b, ResumeButton) else b.label
            for b in self.buttons
        )
        return f"{t('app.name')} | {self.status or t('home.choose')} | {labels}"

    def draw(self, p: Painter) -> None:
        theme = self.app.theme
        px = theme.px
        t = self.app.catalog.text
        self.ring.views = key_hints(self.app)  # a pad unplugged since shows missing
        felt(p, self.ring, self.app.backend, self.app.clock.now_ms())
        title = t("app.name")
        font = theme.fitting_font(title, px(46), self.title_rect.w)
        p.text(title, font, th.INK, self.title_rect, "left")
        status = self.status or t("home.choose")
        font = theme.fitting_font(status, px(WORDS_GLYPH), self.status_rect.w)
        p.text(status, font, th.WARNING if self.status else th.INK_SOFT, self.status_rect, "right")
        for button in self.buttons:
            button.draw(p)
        self.notice.draw(p, self.notice_rect)


def resume_unfinished(app: App) -> Screen | None:
    """The screen of the latest unfinished game in ``app.journal`` whose game is on the
    menu (its module's ``resume(app, game_id)``), or None."""
    modules = {entry.game: entry.module for entry in screens.MENU}
    for record in reversed(app.table.unfinished()):
        if record.game in modules:
            screen = importlib.import_module(modules[record.game]).resume(app, record.id)
            if screen is not None:
                log.info("resumed game %d (%s), %d actions", record.id, record.game, record.actions)
                return screen
    return None
