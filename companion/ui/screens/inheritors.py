"""Inheritors: the final score sheet on the touchscreen.

Its length: three screens (setup, sheet, result) that share the sheet's layout
helpers; the rules are in ``companion.play.inheritors``.

``new_game(app)`` opens the setup: tap the configured seats that play (2–4), then the
first player (or let the table draw one); the first player's seat lights FIRST_PLAYER.
The sheet then takes, per player, the top card of each colour, tomes and cards in hand,
relics, quests, honors and the clan bonus, each with big − / + targets. Every entry is an
action of ``companion.games.inheritors.InheritorsSheet``: the engine's validator refuses
what the game can't produce and the screen says why; the breakdown is live; Undo takes
back the last entry. The final screen shows the breakdown, the tie-break and the winners,
and "Save" records ``companion score --json``'s result in ``app.history``.

Journal: with ``app.journal`` the sheet is a journaled ``Session`` (a cut loses no entry)
and ``resume(app, game_id)`` reopens it (the home screen's contract). Without a journal
the sheet lives in memory and ``resume`` returns None. The setup's Back returns Home
(``app.pop()``). The sheet's Home button leaves it unfinished in the journal (Home then
offers to resume or abandon it; it also resumes at the next start); without a journal the
entries would be lost, so Home then takes a second tap ("Sure? Home"). A seat's pad
button opens that player's column.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pygame

from companion.engine import inheritors as engine
from companion.engine.errors import RuleError
from companion.games.inheritors import InheritorsSheet, Sheet
from companion.hardware.base import light_rgb
from companion.play.inheritors import SheetController
from companion.seat import ButtonEvent, Light
from companion.tables import inheritors as table
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.seats import next_change
from companion.ui.theme import Painter
from companion.ui.widgets import Button, TwoTaps, fitted, headline
from companion.ui.winner import Standing, WinnerView

# What the Influence cards look like (keys of companion/data/inheritors.yaml).
CARD_COLOURS = {
    "yellow": (226, 186, 40),
    "purple": (136, 78, 170),
    "blue": (58, 108, 200),
    "red": (196, 58, 48),
    "green": (58, 146, 72),
}
PARTS = ("influence", "tomes", "relics", "quests", "honors", "bonus")
COUNTS = ("tomes", "hand", "honors", "bonus")
SELECTED = (255, 214, 120)


# --------------------------------------------------------------------------- shared bits


class Tile(Button):
    """A touch target drawn by its owner (``paint(p, rect, pressed)``)."""

    def __init__(self, rect: pygame.Rect, on_tap: Callable[[], None],
                 paint: Callable[[Painter, pygame.Rect, bool], None]) -> None:
        super().__init__(rect, "", on_tap)
        self.paint = paint

    def draw(self, p: Painter) -> None:
        self.paint(p, self.rect, self.pressed)
        p.targets.append(self.rect)


class Touch(Screen):
    """A screen made of buttons rebuilt by ``build()`` after every change."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.buttons: list[Button] = []

    def build(self) -> None:
        raise NotImplementedError

    def refresh(self) -> None:
        self.build()
        self.app.invalidate()

    def next_deadline(self, now_ms: int) -> int | None:
        return next_change([self.app.backend.light(i) for i in range(len(self.app.seats))],
                           now_ms)

    def on_timer(self, now_ms: int) -> None:
        self.app.invalidate()

    def background(self, p: Painter) -> None:
        p.surface.fill(th.RIM)
        felt = p.surface.get_rect().inflate(-self.app.theme.px(6), -self.app.theme.px(6))
        pygame.draw.rect(p.surface, th.FELT, felt, border_radius=self.app.theme.px(18))

    def light_dot(self, p: Painter, seat: int, centre: tuple[int, int], r: int) -> None:
        """The seat's pad light, mirrored (its colour and rhythm, as the pad shows it)."""
        rgb = light_rgb(self.app.backend.light(seat), self.app.clock.now_ms())
        pygame.draw.circle(p.surface, th.SOCKET, centre, r + max(2, r // 3))
        if any(rgb):
            pygame.draw.circle(p.surface, rgb, centre, r)

    def plain(self, p: Painter, text: str, box: pygame.Rect, size: int,
              colour=th.INK, align: str = "left") -> None:
        p.text(text, self.app.theme.fitting_font(text, size, box.w), colour, box, align)


def name_lines(font: pygame.font.Font, name: str, width: int) -> list[str]:
    """A seat's name on one line, or on two broken after a space or hyphen when it is too
    wide for ``width`` in ``font`` (Dominique-/Alexandre)."""
    if font.size(name)[0] <= width:
        return [name]
    cuts = [i + 1 for i, ch in enumerate(name) if ch in " -"]
    if not cuts:
        return [name]
    cut = min(cuts, key=lambda i: max(font.size(name[:i])[0], font.size(name[i:])[0]))
    return [name[:cut].rstrip(), name[cut:]]


def colour_name(app: App, key: str) -> str:
    c = table.colours()[key]
    return c.fr if app.catalog.language == "fr" else c.en


def grid(area: pygame.Rect, cols: int, rows: int, gap: int) -> list[pygame.Rect]:
    w = (area.w - gap * (cols - 1)) // cols
    h = (area.h - gap * (rows - 1)) // rows
    return [pygame.Rect(area.x + c * (w + gap), area.y + r * (h + gap), w, h)
            for r in range(rows) for c in range(cols)]


def button_h(app: App) -> int:
    return max(th.MIN_TARGET, app.theme.px(68))


# --------------------------------------------------------------------------- sessions


def new_game(app: App) -> Screen:
    return SetupScreen(app)


def resume(app: App, game_id: int) -> Screen | None:
    """The sheet of the unfinished game ``game_id`` of ``app.journal`` (None without one)."""
    if app.journal is None:
        return None
    game = SheetController.resume(app.journal, game_id)
    return None if game is None else SheetScreen(app, game)


# --------------------------------------------------------------------------- setup


class SetupScreen(Touch):
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
        self.show_first()

    def toggle(self, seat: int) -> None:
        if seat in self.chosen:
            self.chosen.remove(seat)
            if self.first == seat:
                self.first = None
        elif len(self.chosen) < engine.MAX_PLAYERS:
            self.chosen = sorted([*self.chosen, seat])
        else:
            self.message = self.app.catalog.text("inheritors.setup.too_many",
                                                 most=engine.MAX_PLAYERS)
            self.refresh()
            return
        self.message = None
        self.show_first()

    def pick_first(self, seat: int) -> None:
        if seat not in self.chosen:
            self.chosen = sorted([*self.chosen, seat])
        self.first = seat
        self.message = None
        self.show_first()

    def draw_first(self) -> None:
        if self.chosen:
            self.first = self.rng.choice(self.chosen)
        self.show_first()

    def show_first(self) -> None:
        self.refresh()

    def lights(self) -> dict[int, Light]:
        return {} if self.first is None else {self.first: Light.FIRST_PLAYER}

    def back(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()

    def start(self) -> None:
        t = self.app.catalog.text
        if not engine.MIN_PLAYERS <= len(self.chosen) <= engine.MAX_PLAYERS:
            self.message = t("inheritors.setup.need", least=engine.MIN_PLAYERS,
                             most=engine.MAX_PLAYERS)
            self.refresh()
            return
        if self.first is None:
            self.first = self.rng.choice(self.chosen)
        names = [self.app.seats[s].name for s in self.chosen]
        setup = {"players": names, "seats": list(self.chosen),
                 "first_player": self.app.seats[self.first].name}
        self.app.replace(SheetScreen(self.app, SheetController.new(setup, self.app.journal)))

    def build(self) -> None:
        theme, t = self.app.theme, self.app.catalog.text
        px = theme.px
        w, h = self.app.size
        m, gap = px(14), px(8)
        bh = button_h(self.app)
        self.title_rect = pygame.Rect(m, m, w - 2 * m, px(48))
        self.hint_rect = pygame.Rect(m, self.title_rect.bottom, w - 2 * m, px(34))
        bottom = h - m - bh
        self.message_rect = pygame.Rect(m, bottom - gap - px(34), w - 2 * m, px(34))
        seats = len(self.app.seats)
        area = pygame.Rect(m, self.hint_rect.bottom + gap, w - 2 * m,
                           self.message_rect.top - gap - self.hint_rect.bottom - gap)
        cols = seats
        tw = (area.w - gap * (cols - 1)) // cols
        first_h = bh
        tile_h = area.h - gap - first_h
        self.buttons = []
        self.seat_rects, self.first_rects = [], []
        for seat in range(seats):
            x = area.x + seat * (tw + gap)
            tile = pygame.Rect(x, area.y, tw, tile_h)
            first = pygame.Rect(x, tile.bottom + gap, tw, first_h)
            self.seat_rects.append(tile)
            self.first_rects.append(first)
            self.buttons.append(Tile(tile, lambda s=seat: self.toggle(s),
                                     lambda p, r, down, s=seat: self.paint_seat(p, r, down, s)))
            self.buttons.append(Tile(first, lambda s=seat: self.pick_first(s),
                                     lambda p, r, down, s=seat: self.paint_first(p, r, down, s)))
        bw = (w - 2 * m - 2 * gap) // 3
        self.back_rect = pygame.Rect(m, bottom, bw, bh)
        self.random_rect = pygame.Rect(m + bw + gap, bottom, bw, bh)
        self.start_rect = pygame.Rect(m + 2 * (bw + gap), bottom, bw, bh)
        self.buttons.append(Button(self.back_rect, t("inheritors.setup.back"), self.back))
        self.buttons.append(Button(self.random_rect, t("inheritors.setup.random"),
                                   self.draw_first))
        self.buttons.append(Button(self.start_rect, t("inheritors.setup.start"), self.start))

    def paint_seat(self, p: Painter, rect: pygame.Rect, down: bool, seat: int) -> None:
        px = self.app.theme.px
        config = self.app.seats[seat]
        on = seat in self.chosen
        pygame.draw.rect(p.surface, th.PLATE if on or down else th.RIM, rect,
                         border_radius=px(14))
        pygame.draw.rect(p.surface, SELECTED if on else th.INK_DIM, rect, width=max(2, px(4)),
                         border_radius=px(14))
        stripe = pygame.Rect(rect.x + px(10), rect.bottom - px(18), rect.w - px(20), px(8))
        pygame.draw.rect(p.surface, config.colour, stripe, border_radius=px(4))
        r = px(14)
        self.light_dot(p, seat, (rect.centerx, rect.y + px(16) + r), r)
        body = pygame.Rect(rect.x + px(8), rect.y + px(40) + r, rect.w - px(16),
                           rect.h - px(66) - r)
        mark_box = pygame.Rect(body.x, body.bottom - px(26), body.w, px(26))
        name_box = pygame.Rect(body.x, body.y, body.w, mark_box.y - body.y)
        lines = name_lines(self.app.theme.font(px(30)), config.name, name_box.w)
        line_h = name_box.h // len(lines)
        for i, line in enumerate(lines):
            box = pygame.Rect(name_box.x, name_box.y + i * line_h, name_box.w, line_h)
            self.plain(p, line, box, min(px(40), line_h), th.INK if on else th.INK_DIM,
                       "center")
        mark = self.app.catalog.text("inheritors.setup.plays" if on else "inheritors.setup.out")
        self.plain(p, mark, mark_box, px(24), th.INK_SOFT, "center")

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
        self.plain(p, t("inheritors.setup.title"), self.title_rect, px(46))
        self.plain(p, t("inheritors.setup.hint", least=engine.MIN_PLAYERS,
                        most=engine.MAX_PLAYERS), self.hint_rect, px(28), th.INK_SOFT)
        if self.message:
            self.plain(p, self.message, self.message_rect, px(30), th.WARNING)
        elif self.first is not None:
            self.plain(p, t("inheritors.setup.first_is", name=self.app.seats[self.first].name),
                       self.message_rect, px(30), th.INK)
        for b in self.buttons:
            b.draw(p)


# --------------------------------------------------------------------------- the sheet


class SheetScreen(TwoTaps, Touch):
    """Per player (tabs), the fields of the final count (tiles) and an editor for the
    selected field (− / +, colour toggles, quests); the live breakdown underneath. Undo
    takes two taps ("Sure? Undo"); any other tap or a seat's press cancels it."""

    name = "inheritors-sheet"

    def __init__(self, app: App, game: SheetController) -> None:
        super().__init__(app)
        self.game = game
        app.follow(game)
        self.player = 0
        self.field = "stack:" + next(iter(table.colours()))
        self.quest = 0  # selected quest of the player
        self.message: str | None = None
        self.refused = False
        self.build()

    def home(self) -> None:
        """Back to Home, the sheet unfinished in the journal (without a journal, where the
        entries are lost, Home takes two taps)."""
        self.confirming = None
        if len(self.app.screens) > 1:
            self.app.pop()
        else:
            self.app.replace(new_game(self.app))

    # --- state --------------------------------------------------------------------------

    @property
    def sheet(self) -> Sheet:
        return self.game.sheet

    @property
    def view(self) -> dict:
        return self.game.view()

    @property
    def name_(self) -> str:
        return self.sheet.players[self.player]

    def fields(self) -> list[str]:
        return [f"stack:{c}" for c in table.colours()] + [
            "tomes", "hand", "relics", "quests", "honors", "bonus"]

    def lights(self) -> dict[int, Light]:
        return self.game.lights()

    def entered(self, done: bool | None) -> None:
        """After an entry: a refusal is shown with its reason (nothing changed)."""
        if done is None:
            return
        if done:
            self.message, self.refused = None, False
        else:
            action, exc = self.game.refusal
            self.message, self.refused = refusal(self.app, self.game.rules, self.sheet,
                                                 action, exc)
        self.refresh()

    def undo(self) -> None:
        """The second tap on Undo: the last entry taken back."""
        t = self.app.catalog.text
        self.confirming = None
        if self.game.undo() is None:
            self.message = t("inheritors.sheet.nothing_to_undo")
        else:
            self.message = t("inheritors.sheet.undone")
            end = self.sheet.end(self.name_)
            self.quest = min(self.quest, max(0, len(end.quests) - 1))
        self.refused = False
        self.refresh()

    def finish(self) -> None:
        self.app.replace(ResultScreen(self.app, self.game, self))

    def on_button(self, event: ButtonEvent) -> None:
        if self.confirming is not None:
            self.confirming = None
            self.refresh()
        player = self.game.press(event)
        if player is not None:
            self.select_player(player)

    def pointer_down(self, pos: tuple[int, int]) -> None:
        if self.cancels(pos):
            self.confirming = None
            self.refresh()  # before the buttons hear the press: the rebuilt ones do
        super().pointer_down(pos)

    def select_player(self, i: int) -> None:
        self.player, self.quest, self.message = i, 0, None
        self.refresh()

    def select_field(self, field: str) -> None:
        self.field, self.message = field, None
        self.refresh()

    # --- entries ------------------------------------------------------------------------

    def step(self, delta: int) -> None:
        self.entered(self.game.step(self.name_, self.field, self.quest, delta))
        if self.field == "quests":
            self.quest = min(self.quest, max(0, self.game.quests(self.name_) - 1))

    def add_quest(self) -> None:
        self.entered(self.game.add_quest(self.name_))
        self.quest = self.game.quests(self.name_) - 1

    def next_quest(self, delta: int) -> None:
        n = self.game.quests(self.name_)
        if n:
            self.quest = (self.quest + delta) % n
            self.refresh()

    def relic(self, colour: str) -> None:
        self.entered(self.game.relic(self.name_, colour))

    # --- layout -------------------------------------------------------------------------

    def build(self) -> None:
        theme, t = self.app.theme, self.app.catalog.text
        px = theme.px
        w, h = self.app.size
        m, gap = px(10), px(8)
        bh = button_h(self.app)
        self.buttons = []
        # Top bar: Home, player tabs, Undo, Final score.
        fw, uw, hw = px(160), px(110), px(110)
        self.home_rect = pygame.Rect(m, m, hw, bh)
        self.finish_rect = pygame.Rect(w - m - fw, m, fw, bh)
        self.undo_rect = pygame.Rect(self.finish_rect.x - gap - uw, m, uw, bh)
        tabs = pygame.Rect(self.home_rect.right + gap, m,
                           self.undo_rect.x - gap - self.home_rect.right - gap, bh)
        home = (t("inheritors.sheet.home"), self.home)
        self.buttons.append(Button(self.home_rect, *(home if self.game.kept else
                                                     self.confirm(*home))))
        self.tab_rects = grid(tabs, len(self.sheet.players), 1, gap)
        for i, rect in enumerate(self.tab_rects):
            self.buttons.append(Tile(rect, lambda i=i: self.select_player(i),
                                     lambda p, r, d, i=i: self.paint_tab(p, r, d, i)))
        self.buttons.append(Button(self.undo_rect,
                                   *self.confirm(t("inheritors.sheet.undo"), self.undo)))
        self.buttons.append(Button(self.finish_rect, t("inheritors.sheet.finish"), self.finish))
        # Bottom: the live breakdown and the last message.
        line = px(30)
        self.message_rect = pygame.Rect(m, h - m - line, w - 2 * m, line)
        self.live_rect = pygame.Rect(m, self.message_rect.y - line, w - 2 * m, line)
        body = pygame.Rect(m, tabs.bottom + gap, w - 2 * m, self.live_rect.y - gap - tabs.bottom
                           - gap)
        # Fields: a 3 × 4 grid on the left; the editor on the right.
        left = pygame.Rect(body.x, body.y, body.w * 58 // 100, body.h)
        self.editor_rect = pygame.Rect(left.right + gap, body.y, body.right - left.right - gap,
                                       body.h)
        self.field_rects = dict(zip(self.fields(), grid(left, 3, 4, gap), strict=False))
        for field, rect in self.field_rects.items():
            self.buttons.append(Tile(rect, lambda f=field: self.select_field(f),
                                     lambda p, r, d, f=field: self.paint_field(p, r, d, f)))
        self.build_editor(gap, bh)

    def build_editor(self, gap: int, bh: int) -> None:
        t, px = self.app.catalog.text, self.app.theme.px
        e = self.editor_rect
        self.editor_title = pygame.Rect(e.x, e.y, e.w, px(38))
        below = pygame.Rect(e.x, self.editor_title.bottom + gap, e.w,
                            e.bottom - self.editor_title.bottom - gap)
        self.value_rect = None
        self.minus_rect = self.plus_rect = None
        if self.field == "relics":
            rows = (len(table.colours()) + 1) // 2
            area = pygame.Rect(below.x, below.y, below.w, min(below.h, rows * (bh + gap) - gap))
            self.relic_rects = dict(zip(table.colours(), grid(area, 2, rows, gap), strict=False))
            for colour, rect in self.relic_rects.items():
                self.buttons.append(Tile(rect, lambda c=colour: self.relic(c),
                                         lambda p, r, d, c=colour: self.paint_relic(p, r, d, c)))
            return
        row = pygame.Rect(below.x, below.y, below.w, bh)
        side = max(bh, px(84))
        self.minus_rect = pygame.Rect(row.x, row.y, side, bh)
        self.plus_rect = pygame.Rect(row.right - side, row.y, side, bh)
        self.value_rect = pygame.Rect(self.minus_rect.right, row.y,
                                      self.plus_rect.x - self.minus_rect.right, bh)
        self.buttons.append(Button(self.minus_rect, "−", lambda: self.step(-1)))
        self.buttons.append(Button(self.plus_rect, "+", lambda: self.step(+1)))
        if self.field == "quests":
            nav = pygame.Rect(below.x, row.bottom + gap, below.w, bh)
            self.prev_rect = pygame.Rect(nav.x, nav.y, side, bh)
            self.next_rect = pygame.Rect(nav.right - side, nav.y, side, bh)
            self.which_rect = pygame.Rect(self.prev_rect.right, nav.y,
                                          self.next_rect.x - self.prev_rect.right, bh)
            self.buttons.append(Button(self.prev_rect, "«", lambda: self.next_quest(-1)))
            self.buttons.append(Button(self.next_rect, "»", lambda: self.next_quest(+1)))
            self.add_rect = pygame.Rect(below.x, nav.bottom + gap, below.w, bh)
            self.buttons.append(Button(self.add_rect, t("inheritors.quest.add"),
                                       self.add_quest))

    # --- texts --------------------------------------------------------------------------

    def field_label(self, field: str) -> str:
        if field.startswith("stack:"):
            return colour_name(self.app, field[6:])
        return self.app.catalog.text(f"inheritors.field.{field}")

    def field_value(self, field: str, player: str | None = None) -> str:
        end = self.sheet.end(player or self.name_)
        none = self.app.catalog.text("inheritors.none")
        if field.startswith("stack:"):
            v = end.stacks.get(field[6:])
            return none if v is None else str(v)
        if field == "relics":
            return str(len(end.relics)) if end.relics else none
        if field == "quests":
            return " + ".join(str(q) for q in end.quests) if end.quests else none
        v = getattr(end, field)
        return none if v is None else str(v)

    def score_of(self, player: str) -> dict:
        return next(p for p in self.view["score"]["players"] if p["name"] == player)

    def live(self) -> str:
        t = self.app.catalog.text
        s = self.score_of(self.name_)
        parts = " · ".join(f"{t(f'inheritors.part.{k}')} {v}" for k, v in s["breakdown"].items())
        return t("inheritors.sheet.live", name=self.name_, parts=parts, total=s["total"])

    def describe(self) -> str:
        t = self.app.catalog.text
        totals = ", ".join(f"{p['name']} {p['total']}" for p in self.view["score"]["players"])
        return (f"{t('inheritors.sheet.title')} | {self.name_}: {self.field_label(self.field)}"
                f" = {self.field_value(self.field)} | {totals} | {self.message or ''}")

    # --- drawing ------------------------------------------------------------------------

    def draw(self, p: Painter) -> None:
        t, px = self.app.catalog.text, self.app.theme.px
        self.background(p)
        for b in self.buttons:
            b.draw(p)
        # who is counted now and what, in large type (the seat's press opens its column)
        title = t("inheritors.sheet.editing", name=self.name_, field=self.field_label(self.field))
        headline(p, title, self.editor_title)
        if self.value_rect is not None:
            value = self.field_value(self.field)
            if self.field == "quests":
                quests = self.sheet.end(self.name_).quests
                value = str(quests[self.quest]) if quests else t("inheritors.none")
                which = (t("inheritors.quest.which", n=self.quest + 1, count=len(quests))
                         if quests else t("inheritors.quest.none"))
                self.plain(p, which, self.which_rect, px(28), th.INK_SOFT, "center")
            self.plain(p, value, self.value_rect, px(56), th.INK, "center")
        self.plain(p, self.live(), self.live_rect, px(28), th.INK_SOFT)
        if self.message:
            self.plain(p, self.message, self.message_rect, px(28),
                       th.WARNING if self.refused else th.INK)

    def paint_tab(self, p: Painter, rect: pygame.Rect, down: bool, i: int) -> None:
        px = self.app.theme.px
        seat = self.sheet.seats[i]
        name = self.sheet.players[i]
        on = i == self.player
        pygame.draw.rect(p.surface, th.PLATE if on or down else th.RIM, rect,
                         border_radius=px(12))
        if on:
            pygame.draw.rect(p.surface, SELECTED, rect, width=max(2, px(3)),
                             border_radius=px(12))
        pygame.draw.rect(p.surface, self.app.seats[seat].colour,
                         pygame.Rect(rect.x + px(8), rect.bottom - px(12), rect.w - px(16),
                                     px(6)), border_radius=px(3))
        r = px(10)
        self.light_dot(p, seat, (rect.x + px(10) + r, rect.centery - px(4)), r)
        text = pygame.Rect(rect.x + px(16) + 2 * r, rect.y + px(4), rect.w - px(24) - 2 * r,
                           rect.h - px(16))
        name_box = pygame.Rect(text.x, text.y, text.w, text.h * 11 // 20)
        total_box = pygame.Rect(text.x, name_box.bottom, text.w, text.h - name_box.h)
        font = self.app.theme.fitting_font(name, px(30), name_box.w, smallest=px(22))
        p.text(fitted(name, font, name_box.w), font, th.INK if on else th.INK_SOFT,
               name_box, "left")
        total = self.app.catalog.text("inheritors.sheet.points",
                                      total=self.score_of(name)["total"])
        self.plain(p, total, total_box, px(24), th.INK_SOFT)

    def paint_field(self, p: Painter, rect: pygame.Rect, down: bool, field: str) -> None:
        px = self.app.theme.px
        on = field == self.field
        pygame.draw.rect(p.surface, th.PLATE if on or down else th.RIM, rect,
                         border_radius=px(10))
        if field.startswith("stack:"):
            colour = CARD_COLOURS.get(field[6:], th.INK_DIM)
            pygame.draw.rect(p.surface, colour, pygame.Rect(rect.x, rect.y, px(12), rect.h),
                             border_top_left_radius=px(10), border_bottom_left_radius=px(10))
        if on:
            pygame.draw.rect(p.surface, SELECTED, rect, width=max(2, px(3)),
                             border_radius=px(10))
        inner = rect.inflate(-px(28), -px(6))
        label_box = pygame.Rect(inner.x, inner.y, inner.w, inner.h * 2 // 5)
        value_box = pygame.Rect(inner.x, label_box.bottom, inner.w, inner.h - label_box.h)
        self.plain(p, self.field_label(field), label_box, px(24), th.INK_SOFT)
        self.plain(p, self.field_value(field), value_box, px(40), th.INK)

    def paint_relic(self, p: Painter, rect: pygame.Rect, down: bool, colour: str) -> None:
        px = self.app.theme.px
        holder = next((e.name for e in self.sheet.ends if colour in e.relics), None)
        mine = holder == self.name_
        pygame.draw.rect(p.surface, th.PLATE if mine or down else th.RIM, rect,
                         border_radius=px(10))
        pygame.draw.rect(p.surface, CARD_COLOURS.get(colour, th.INK_DIM), rect,
                         width=max(3, px(5)) if mine else max(1, px(2)), border_radius=px(10))
        inner = rect.inflate(-px(16), -px(6))
        top = pygame.Rect(inner.x, inner.y, inner.w, inner.h // 2)
        under = pygame.Rect(inner.x, top.bottom, inner.w, inner.h - top.h)
        self.plain(p, colour_name(self.app, colour), top, px(28),
                   th.INK if mine else th.INK_SOFT, "center")
        if holder is not None:
            self.plain(p, holder, under, px(24), SELECTED if mine else th.INK_DIM, "center")


def refusal(app: App, rules: InheritorsSheet, sheet: Sheet, action: dict,
            exc: RuleError) -> tuple[str, bool]:
    """The validator's refusal in the table's language: (text, True)."""
    t = app.catalog.text
    block, _, rest = exc.field.partition(".")
    value = action.get("value")
    n = len(sheet.players)
    try:
        after = rules.edit(sheet, action)
    except RuleError:
        return t("inheritors.refused.other", reason=app.catalog.refusal(exc)), True
    holders = [e.name for e in after.ends if action.get("colour") in e.relics]
    if isinstance(value, int) and value < 0 and action["kind"] == "count":
        text = t("inheritors.refused.negative", value=value)
    elif block == "stacks" and not (isinstance(value, int)
                                    and engine.LOWEST <= value <= engine.HIGHEST):
        text = t("inheritors.refused.card", value=value, low=engine.LOWEST, high=engine.HIGHEST)
    elif block == "relics" and len(holders) > 1:
        holder = next(h for h in holders if h != action["player"])
        text = t("inheritors.refused.relic", holder=holder,
                 colour=colour_name(app, action["colour"]))
    elif block in ("stacks", "relics"):
        text = t("inheritors.refused.colours", players=n, limit=engine.colours_in_game(n))
    elif block == "tomes":
        text = t("inheritors.refused.tomes", supply=engine.TOMES_IN_GAME)
    elif block == "quests" and "." in rest:
        text = t("inheritors.refused.quest", value=value, good=engine.FULFILLED,
                 bad=engine.FAILED)
    elif block in ("quests", "honors"):
        text = t(f"inheritors.refused.{block}", rows=engine.rows_in_game(n))
    elif block == "hand":
        end = after.end(rest)
        text = t("inheritors.refused.hand", name=rest, hand=end.hand,
                 held=end.tomes + len(end.relics))
    else:
        text = t("inheritors.refused.other", reason=app.catalog.refusal(exc))
    return text, True


# --------------------------------------------------------------------------- final score


class ResultScreen(Touch):
    """The final count: breakdown per player, total, winners and the tie-break; Save
    records it in the history (and closes the journaled game)."""

    name = "inheritors-final"

    def __init__(self, app: App, game: SheetController, sheet: SheetScreen) -> None:
        super().__init__(app)
        self.game = game
        self.sheet = sheet
        self.result = game.view()["score"]
        self.build()

    @property
    def saved(self) -> bool:
        return self.game.saved

    def back(self) -> None:
        self.app.replace(self.sheet)
        self.sheet.refresh()

    def save(self) -> None:
        self.game.save(self.app.history)
        self.refresh()

    def lights(self) -> dict[int, Light]:
        return self.game.lights()

    def done(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()
        else:
            self.app.replace(new_game(self.app))

    def build(self) -> None:
        """The shared winner screen (companion/ui/winner.py): before Save, Back to the
        sheet and Save; once saved, Done and the play's BG Stats code."""
        t = self.app.catalog.text
        players = self.result["players"]
        if self.saved:
            actions = [(t("inheritors.final.done"), self.done, "done")]
            kept = "inheritors.final.saved" if self.app.history is not None else \
                "inheritors.final.not_kept"
            notes = [self.tie_text() or "", t(kept)]
        else:
            actions = [(t("inheritors.final.back"), self.back, "back"),
                       (t("inheritors.final.save"), self.save, "save")]
            notes = [self.tie_text() or ""]
        self.winner = WinnerView(
            self.app, "inheritors",
            [Standing(q["name"], str(q["total"]), [str(q["breakdown"][k]) for k in PARTS])
             for q in players],
            [t(f"inheritors.part.{k}") for k in PARTS], self.result["winners"], actions,
            self.game.played if self.saved else None, notes)
        self.buttons = self.winner.buttons
        rects = {b.key: b.rect for b in self.buttons if hasattr(b, "key")}
        self.done_rect = rects.get("done")
        self.back_rect = rects.get("back")
        self.save_rect = rects.get("save")

    def winners_text(self) -> str:
        t = self.app.catalog.text
        names = ", ".join(self.result["winners"])
        key = "inheritors.final.winner" if len(self.result["winners"]) == 1 else \
            "inheritors.final.shared"
        return t(key, names=names)

    def tie_text(self) -> str | None:
        tie = self.result["tie_break"]
        if not tie:
            return None
        return self.app.catalog.text(f"inheritors.tie.{tie['decided_by']}",
                                     names=", ".join(tie["tied"]))

    def describe(self) -> str:
        totals = ", ".join(f"{p['name']} {p['total']}" for p in self.result["players"])
        return " | ".join(x for x in (self.app.catalog.text("inheritors.final.title"), totals,
                                      self.winners_text(), self.tie_text(),
                                      self.saved and self.app.catalog.text(
                                          "inheritors.final.saved")) if x)

    def draw(self, p: Painter) -> None:
        self.winner.draw(p)
