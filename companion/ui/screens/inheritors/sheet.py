"""The Inheritors score sheet: on the felt, inside the seat ring, the count of one player
at a time. Whose count and which field head it in large type; the player's seat is lit
"your turn" and outlined (a tap on a seat of the game, or any button of its pad, opens
that player's count); each seat's plate shows its total. Under the headline the fields
(the top card of each colour, tomes and cards in hand, relics, quests, honors, clan
bonus), the selected one's editor (− / +, the relics' colours, quests fulfilled and
failed) and at the right Home, Undo and Final score; the live breakdown (or the last
refusal, with its reason) along the foot, its figures large (a refusal too long for the
foot on two lines over the editor, until a tap). The rules are the controller's
(``companion.games.inheritors.controller``)."""

from __future__ import annotations

import pygame

from companion.games.inheritors import data as inheritors_data
from companion.games.inheritors.controller import SheetController
from companion.play.seat import ButtonEvent
from companion.play.table import NOT_SAVED
from companion.play.turns import Reply, Turns
from companion.ui import theme as th
from companion.ui.app import App
from companion.ui.screens.inheritors.draw import (
    CARD_COLOURS,
    SELECTED,
    TableScreen,
    Tile,
    colour_name,
    grid,
)
from companion.ui.screens.inheritors.final import ResultScreen
from companion.ui.theme import Painter
from companion.ui.widgets import (
    FIGURE_GLYPH,
    WORDS_GLYPH,
    Button,
    Runs,
    TapArea,
    TwoTaps,
    button_h,
    fitted,
    headline,
    wrap_runs,
)

COUNTS = ("tomes", "hand", "relics", "quests", "honors", "bonus")
# The quests' counters: a quest is worth 2 fulfilled, 1 not (the rulebook's values).
QUESTS = {"quests:2": "inheritors.quest.fulfilled", "quests:1": "inheritors.quest.failed"}
TILE_PAD = 4  # units: a count's tile, each side of its name (the tiles share one row)
ALERT_PAD = 8  # units: a long message's band, each side of its lines


class SheetScreen(TwoTaps, TableScreen):
    """One player's count at a time. Undo takes two taps ("Sure? Undo"), and so does Home
    when the sheet is not journaled (the entries would be lost); any other tap or a seat's
    press cancels the question."""

    name = "inheritors-sheet"

    def __init__(self, app: App, game: SheetController) -> None:
        super().__init__(app)
        self.game = game
        self.plays = game  # the Table gives it the seats' presses
        app.follow(game)
        self.field = "stack:" + next(iter(inheritors_data.colours()))
        self.message: str | None = None
        self.refused = False
        self.build()

    # --- state --------------------------------------------------------------------------

    @property
    def sheet(self):  # the controller's Sheet (players, seats, each player's end)
        return self.game.sheet

    @property
    def view(self) -> dict:
        return self.game.view()

    @property
    def name_(self) -> str:
        return self.game.counted

    def fields(self) -> list[str]:
        return [f"stack:{c}" for c in inheritors_data.colours()] + list(COUNTS)

    def turns(self) -> Turns:
        return self.game.turns()

    def seat_views(self):
        return self.game.seat_views()

    # --- actions ------------------------------------------------------------------------

    def home(self) -> None:
        """Back to Home, the sheet unfinished in the journal (Home offers to resume it)."""
        self.confirming = None
        self.leave()

    def entered(self, done: bool | None) -> None:
        """After an entry: a refusal is shown with its reason (nothing changed)."""
        if done is None or done is NOT_SAVED:
            return
        self.message, self.refused = (None, False) if done else (self.refusal(), True)
        self.refresh()

    def refusal(self) -> str:
        """The controller's refusal in the table's language."""
        key, values = self.game.refusal_text()
        if "colour" in values:
            values["colour"] = colour_name(self.app, values["colour"])
        if "error" in values:
            values = {"reason": self.app.catalog.refusal(values.pop("error"))}
        return self.app.catalog.text(key, **values)

    def undo(self) -> None:
        """The second tap on Undo: the last entry taken back."""
        t = self.app.catalog.text
        self.confirming = None
        undone = self.app.table.act(self.game.undo)
        if undone is NOT_SAVED:
            return
        self.message = t("inheritors.sheet.nothing_to_undo" if undone is None
                         else "inheritors.sheet.undone")
        self.refused = False
        self.refresh()

    def finish(self) -> None:
        self.app.replace(ResultScreen(self.app, self.game, self))

    def pressed(self, event: ButtonEvent, result: Reply) -> None:
        self.confirming = None
        if result.public and result.answer is None:  # a watching seat's: on its plate only
            self.message = None
        self.refresh()

    def pointer_down(self, pos: tuple[int, int]) -> None:
        if self.cancels(pos):
            self.confirming = None
            self.refresh()  # before the buttons hear the press: the rebuilt ones do
        super().pointer_down(pos)

    def open_seat(self, seat: int) -> None:
        if self.app.table.act(self.game.open_seat, seat) is NOT_SAVED:
            return
        self.message = None
        self.refresh()

    def select_field(self, field: str) -> None:
        self.field, self.message = field, None
        self.refresh()

    def step(self, delta: int, field: str | None = None) -> None:
        self.entered(self.app.table.act(self.game.step, self.name_, field or self.field, delta))

    def relic(self, colour: str) -> None:
        self.entered(self.app.table.act(self.game.relic, self.name_, colour))

    # --- layout -------------------------------------------------------------------------

    def build(self) -> None:
        t, px = self.app.catalog.text, self.app.theme.px
        inner, gap, bh = self.inner, px(6), button_h(self.app.theme)
        self.buttons = []
        # The players: their seats' plates.
        self.player_rects = [self.ring.plates[seat].rect for seat in self.sheet.seats]
        for seat, rect in zip(self.sheet.seats, self.player_rects, strict=True):
            self.buttons.append(TapArea(rect, lambda s=seat: self.open_seat(s)))
        # At the top: whose count and which field, the player's total at the right.
        self.total_rect = pygame.Rect(0, inner.y, px(130), px(40))
        self.total_rect.right = inner.right
        self.head_rect = pygame.Rect(inner.x, inner.y, self.total_rect.x - gap - inner.x,
                                     px(40))
        top = self.head_rect.bottom + px(4)
        # At the right: Home, Undo, Final score, as narrow as their labels allow at the
        # least words' size (on two lines where they have a space): the fields' room.
        home = (t("inheritors.sheet.home"), self.home)
        actions = [home if self.game.kept else self.confirm(*home),
                   self.confirm(t("inheritors.sheet.undo"), self.undo),
                   (t("inheritors.sheet.finish"), self.finish)]
        labels = [label for label, _ in actions] + [t("app.confirm", action=label) for label in
                                                    (home[0], t("inheritors.sheet.undo"))]
        side_w = max(Button.least_width(self.app.theme, label, bh) for label in labels)
        side = pygame.Rect(inner.right - side_w, top, side_w, 3 * bh + 2 * gap)
        self.home_rect, self.undo_rect, self.finish_rect = grid(side, 1, 3, gap)
        self.buttons += [Button(rect, *action) for rect, action in
                         zip((self.home_rect, self.undo_rect, self.finish_rect), actions,
                             strict=True)]
        self.line_rect = pygame.Rect(inner.x, side.bottom + gap, inner.w,
                                     inner.bottom - side.bottom - gap)
        # At the left: the colours in a row, the other fields in a row, the editor.
        left = pygame.Rect(inner.x, top, side.x - gap - inner.x, bh)
        colours = [f for f in self.fields() if f.startswith("stack:")]
        self.field_rects = dict(zip(colours, grid(left, len(colours), 1, gap), strict=True))
        self.field_rects.update(zip(COUNTS, self.count_cells(left.move(0, bh + gap)),
                                    strict=True))
        for field, rect in self.field_rects.items():
            self.buttons.append(Tile(rect, lambda f=field: self.select_field(f),
                                     lambda p, r, d, f=field: self.paint_field(p, r, d, f)))
        self.editor_rect = left.move(0, 2 * (bh + gap))
        # A message too long for the line: on two lines over the editor and the line (a tap
        # there puts the editor back), else the editor.
        self.alert_lines = self.wrapped_message()
        if self.alert_lines:
            self.alert_rect = pygame.Rect(self.editor_rect.x, self.editor_rect.y,
                                          self.editor_rect.w,
                                          self.line_rect.bottom - self.editor_rect.y)
            self.buttons.append(TapArea(self.alert_rect, self.dismiss))
            self.value_rects = {}
            self.minus_rect = self.plus_rect = None
            self.quest_rects, self.relic_rects = {}, {}
            return
        self.build_editor(gap)

    def count_cells(self, row: pygame.Rect) -> list[pygame.Rect]:
        """The counts' tiles side by side in ``row``, each as wide as its name needs at
        the least words' size (a touch target at least), what is left shared evenly; in a
        row too narrow for that, in proportion to their needs (their names then smaller)."""
        theme, px = self.app.theme, self.app.theme.px
        font, gap = theme.font(px(WORDS_GLYPH)), px(4)
        needs = [max(th.MIN_TARGET, int(font.size(self.tile_label(f))[0] * th.SQUEEZE)
                     + 2 * px(TILE_PAD) + 1) for f in COUNTS]
        room = row.w - gap * (len(COUNTS) - 1)
        if sum(needs) > room:
            needs = [need * room // sum(needs) for need in needs]
        spare = max(0, room - sum(needs)) // len(COUNTS)
        cells, x = [], row.x
        for need in needs:
            cells.append(pygame.Rect(x, row.y, need + spare, row.h))
            x += need + spare + gap
        return cells

    def tile_label(self, field: str) -> str:
        """A count's shorter name (``inheritors.tile``), on its tile where its full name
        does not fit (the headline says it in full)."""
        return self.app.catalog.text(f"inheritors.tile.{field}")

    def wrapped_message(self) -> list[str]:
        """The message on the lines it takes with its figures large (``Runs``), when one
        line can't hold it; else none (it takes the line)."""
        if not self.message:
            return []
        theme = self.app.theme
        if Runs(theme, self.message, WORDS_GLYPH).fits(self.line_rect.w):
            return []
        return wrap_runs(theme, self.message, self.editor_rect.w - 2 * theme.px(ALERT_PAD))

    def dismiss(self) -> None:
        """A tap on a long message: the editor back."""
        self.message = None
        self.refresh()

    def build_editor(self, gap: int) -> None:
        px = self.app.theme.px
        row = self.editor_rect
        self.value_rects: dict[str, pygame.Rect] = {}
        self.minus_rect = self.plus_rect = None
        if self.field == "relics":
            colours = list(inheritors_data.colours())
            self.relic_rects = dict(zip(colours, grid(row, len(colours), 1, gap), strict=True))
            for colour, rect in self.relic_rects.items():
                self.buttons.append(Tile(rect, lambda c=colour: self.relic(c),
                                         lambda p, r, d, c=colour: self.paint_relic(p, r, d, c)))
            return
        counters = list(QUESTS) if self.field == "quests" else [self.field]
        side = max(row.h, px(84)) if len(counters) == 1 else row.h
        width = (row.w - gap * (len(counters) - 1)) // len(counters)
        self.quest_rects: dict[str, tuple[pygame.Rect, pygame.Rect]] = {}
        for i, field in enumerate(counters):
            x = row.x + i * (width + gap)
            minus = pygame.Rect(x, row.y, side, row.h)
            plus = pygame.Rect(x + width - side, row.y, side, row.h)
            self.value_rects[field] = pygame.Rect(minus.right, row.y, plus.x - minus.right,
                                                  row.h)
            self.buttons.append(Button(minus, "−", lambda f=field: self.step(-1, f)))
            self.buttons.append(Button(plus, "+", lambda f=field: self.step(+1, f)))
            self.quest_rects[field] = (minus, plus)
        self.minus_rect, self.plus_rect = self.quest_rects[counters[0]]

    # --- texts --------------------------------------------------------------------------

    def field_label(self, field: str) -> str:
        if field.startswith("stack:"):
            return colour_name(self.app, field[6:])
        return self.app.catalog.text(f"inheritors.field.{field}")

    def field_value(self, field: str) -> str:
        end = self.sheet.end(self.name_)
        none = self.app.catalog.text("inheritors.none")
        if field.startswith("stack:"):
            v = end.stacks.get(field[6:])
        elif field.startswith("quests:"):
            v = end.quests.count(int(field[7:]))
        elif field in ("relics", "quests"):
            v = len(getattr(end, field)) or None
        else:
            v = getattr(end, field)
        return none if v is None else str(v)

    def score_of(self, player: str) -> dict:
        return next(p for p in self.view["score"]["players"] if p["name"] == player)

    def live(self, width: int | None = None) -> str:
        """The player's breakdown and total. Given the ``width`` of its line, drawn with
        its figures large (``Runs``): with the parts' full names if that fits, else the
        tiles' shorter names, else the short forms, else the figures alone, in the tiles'
        order (the tiles above name each part)."""
        t = self.app.catalog.text
        s = self.score_of(self.name_)
        theme = self.app.theme
        line = ""
        for names in ("part", "tile", "part_short", None):
            if names is None:
                parts = " · ".join(str(v) for v in s["breakdown"].values())
            else:
                label = {k: t(f"inheritors.{names}.{k}") for k in s["breakdown"]
                         if k != "influence"}
                label["influence"] = t("inheritors."
                                       f"{'part_short' if names == 'part_short' else 'part'}"
                                       ".influence")
                parts = " · ".join(f"{label[k]} {v}" for k, v in s["breakdown"].items())
            line = t("inheritors.sheet.live", parts=parts, total=s["total"])
            if width is None or Runs(theme, line, WORDS_GLYPH).fits(width):
                break
        return line

    def headline(self) -> str:
        return self.app.catalog.text("inheritors.sheet.editing", name=self.name_,
                                     field=self.field_label(self.field))

    def describe(self) -> str:
        t = self.app.catalog.text
        totals = ", ".join(f"{p['name']} {p['total']}" for p in self.view["score"]["players"])
        return (f"{t('inheritors.sheet.title')} | {self.headline()} = "
                f"{self.field_value(self.field)} | {totals} | {self.message or ''}")

    # --- drawing ------------------------------------------------------------------------

    def draw(self, p: Painter) -> None:
        px = self.app.theme.px
        # the counted player's plate outlined: part of the ring, drawn again with it alone
        self.ring.outlined = {self.sheet.seats[self.game.counting or 0]: SELECTED}
        self.background(p)
        headline(p, self.headline(), self.head_rect)  # whose count and what, large
        total = str(self.score_of(self.name_)["total"])
        font, box = self.app.theme.font(px(FIGURE_GLYPH)), self.total_rect
        width = font.size(total)[0]
        p.text(total, font, th.WARNING, pygame.Rect(box.right - width, box.y, width, box.h))
        self.plain(p, self.app.catalog.text("inheritors.part.total"),
                   pygame.Rect(box.x, box.y, box.w - width - px(8), box.h), px(WORDS_GLYPH),
                   th.INK_SOFT, "right")
        for b in self.buttons:
            b.draw(p)
        for field, box in self.value_rects.items():
            if field in QUESTS:
                label = self.app.catalog.text(QUESTS[field])
                top = pygame.Rect(box.x, box.y, box.w, box.h * 2 // 5)
                self.plain(p, label, top.inflate(-px(8), 0), px(WORDS_GLYPH), th.INK_SOFT,
                           "center")
                box = pygame.Rect(box.x, top.bottom, box.w, box.h - top.h)
            font = self.app.theme.font(px(56 if len(self.value_rects) == 1 else FIGURE_GLYPH))
            p.text(self.field_value(field), font, th.INK, box)
        colour = th.WARNING if self.refused else th.INK
        if self.alert_lines:  # over the editor, on a band as the other screens' alerts
            pygame.draw.rect(p.surface, th.WARNING_BG, self.alert_rect, border_radius=px(8))
            band = self.alert_rect.inflate(-2 * px(ALERT_PAD), 0)
            lines = [Runs(self.app.theme, line, WORDS_GLYPH) for line in self.alert_lines]
            line_h = min(band.h // len(lines), lines[0].figures.get_linesize())
            y = band.y + (band.h - line_h * len(lines)) // 2
            for line in lines:
                line.draw(p, colour, pygame.Rect(band.x, y, band.w, line_h))
                y += line_h
        else:  # the message, or the player's breakdown, its figures large
            text = self.message or self.live(self.line_rect.w)
            Runs(self.app.theme, text, WORDS_GLYPH).draw(
                p, colour if self.message else th.INK_SOFT, self.line_rect)

    def paint_field(self, p: Painter, rect: pygame.Rect, down: bool, field: str) -> None:
        theme, px = self.app.theme, self.app.theme.px
        on = field == self.field
        pygame.draw.rect(p.surface, th.PLATE if on or down else th.RIM, rect,
                         border_radius=px(10))
        inner = rect.inflate(-2 * px(TILE_PAD), -px(4))
        if field.startswith("stack:"):
            colour = CARD_COLOURS.get(field[6:], th.INK_DIM)
            pygame.draw.rect(p.surface, colour, pygame.Rect(rect.x, rect.y, px(10), rect.h),
                             border_top_left_radius=px(10), border_bottom_left_radius=px(10))
            inner = pygame.Rect(rect.x + px(14), inner.y, rect.right - px(20) - rect.x,
                                inner.h)
        if on:
            pygame.draw.rect(p.surface, SELECTED, rect, width=max(2, px(3)),
                             border_radius=px(10))
        label_box = pygame.Rect(inner.x, inner.y, inner.w, inner.h * 2 // 5)
        value_box = pygame.Rect(inner.x, label_box.bottom, inner.w, inner.h - label_box.h)
        label = self.field_label(field)
        if (not field.startswith("stack:")  # a colour's name has no shorter form
                and theme.font(px(WORDS_GLYPH)).size(label)[0] * th.SQUEEZE > label_box.w):
            label = self.tile_label(field)
        self.plain(p, label, label_box, px(WORDS_GLYPH), th.INK_SOFT)
        p.text(self.field_value(field), theme.font(px(FIGURE_GLYPH)), th.INK, value_box, "left")

    def paint_relic(self, p: Painter, rect: pygame.Rect, down: bool, colour: str) -> None:
        theme, px = self.app.theme, self.app.theme.px
        holder = next((e.name for e in self.sheet.ends if colour in e.relics), None)
        mine = holder == self.name_
        pygame.draw.rect(p.surface, th.PLATE if mine or down else th.RIM, rect,
                         border_radius=px(10))
        pygame.draw.rect(p.surface, CARD_COLOURS.get(colour, th.INK_DIM), rect,
                         width=max(3, px(5)) if mine else max(1, px(2)), border_radius=px(10))
        inner = rect.inflate(-px(12), -px(6))
        top = pygame.Rect(inner.x, inner.y, inner.w, inner.h // 2)
        under = pygame.Rect(inner.x, top.bottom, inner.w, inner.h - top.h)
        self.plain(p, colour_name(self.app, colour), top, px(WORDS_GLYPH),
                   th.INK if mine else th.INK_SOFT, "center")
        if holder is not None:
            font = theme.fitting_font(holder, px(WORDS_GLYPH), under.w, px(22))
            p.text(fitted(holder, font, under.w), font, SELECTED if mine else th.INK_DIM,
                   under)
