"""The winner screen every game shows once it is over (Koryŏ, Chosŏn, Inheritors, a King's
Dilemma night). Before the game is kept: the winner(s) in large gold type at the top, each
player's total large, the breakdown rows beneath, the actions at the right. Once kept, the
play's BG Stats code first, as large as the room between the seat plates (what a phone
reads from across the table: a five-player night of 24-character names at 4 px a module on
the 800×480 panel), beside it the winners, each player's place and total, and Details, one
tap from the breakdown (whose Code button comes back).

One layout for every game, on the felt inside the slim seat ring, each seat's plate
saying that player's place and total ("2nd · 18", ``companion.play.standings``), so that
every figure is readable from a chair (at least 24 px per 480 px of screen height,
tests/ui/test_legibility.py): a game screen builds a ``WinnerView`` from its result and hands
it its buttons; a game that has no final screen of its own (the King's Dilemma night)
shows ``WinnerScreen``.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from companion.play.standings import place_words, places
from companion.play.table import PlayedGame
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.playcode import PlayCode, between_plates
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import (
    SENTENCE_FIGURE,
    SMALLEST,
    WORDS_GLYPH,
    Button,
    Runs,
    button_h,
    felt,
    fitted,
    split_in_two,
    wrap_runs,
)

GOLD = th.WARNING
# Nominal type sizes in units (a 480th of the short side); FIGURE keeps every figure's
# digits 24 px high per 480 px, LABEL a label's capitals 16 px.
HEADLINE, NAME, TOTAL, LABEL, NOTE = 48, 34, 54, WORDS_GLYPH, WORDS_GLYPH
FIGURE = SENTENCE_FIGURE  # every digit 24 px, "7" (the shortest) too: any total may end in it
PLACE = FIGURE  # units: a player's place beside their total in the code view
LONG_HEADLINE = 34  # units: the smallest the code view's headline takes on one line
LEAST_ROW = 28  # units: the breakdown's rows no lower (a FIGURE's digits whole in them)
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
    actions, the breakdown's or the code's toggle, then the play's code) for the screen to
    put in its own.

    Two views. Once the game is kept (``played``), the play's code first: as tall as the
    room between the seat plates at the left (a five-player night of 24-character names at
    4 px a module on the 800×480 panel, what a phone reads across the table), beside it the
    winners, each player's place and total, the notes where they fit, the actions and
    Details; Details shows the breakdown (the table view), whose Code button comes back.
    Before the game is kept (no code yet), the table view alone."""

    def __init__(self, app: App, game: str, standings: Sequence[Standing],
                 labels: Sequence[str], winners: Sequence[str], actions: Sequence[Action],
                 played: PlayedGame | None = None, notes: Sequence[str] = ()) -> None:
        self.app = app
        self.game = game
        self.standings = list(standings)
        self.labels = list(labels)
        self.winners = list(winners)
        self.notes = [n for n in notes if n]
        self.actions = list(actions)
        t, px = app.catalog.text, app.theme.px
        self.ring = SeatRing(app.theme, app.seats, app.catalog, slim=True)
        self.seat_of = {seat.name: i for i, seat in enumerate(app.seats)}  # seated players
        self.ring.figures = self.plate_figures()
        self.ring.short_figures = {self.seat_of[s.name]: s.total for s in self.standings
                                   if s.name in self.seat_of}  # the total alone
        self.felt_rect = self.ring.centre
        self.inner = self.felt_rect.inflate(-2 * px(12), -2 * px(8))
        self.code: PlayCode | None = None
        if played is not None:
            self.code = PlayCode(app, played, between_plates(self.ring, app.canvas.get_rect()))
            self.code.captioned = False  # the caption goes in the column beside it
            if self.code.image is None:  # too many players for any code: said, not shown
                self.code = None
                self.notes.append(t("playcode.too_long"))
        self.title = t(f"history.game.{game}")
        self.buttons: list = []  # the screen's own list: a toggle changes it in place
        self.showing_code = self.code is not None
        self.layout()

    def toggle(self) -> None:
        """From the code to the breakdown, or back."""
        self.showing_code = not self.showing_code
        self.layout()
        self.app.invalidate()

    def layout(self) -> None:
        """The rects of the view shown, and its buttons."""
        if self.showing_code:
            self._layout_code()
        else:
            self._layout_table()

    def _make_buttons(self, rects: Sequence[pygame.Rect]) -> None:
        """The actions, then the toggle where there is a code, in ``rects``; the code last
        in the code view (a tap opens it full screen with what it holds)."""
        t = self.app.catalog.text
        actions = list(self.actions)
        if self.code is not None:
            actions.append((t("winner.details"), self.toggle, "details") if self.showing_code
                           else (t("winner.code"), self.toggle, "code"))
        buttons: list = []
        for rect, (label, on_tap, key) in zip(rects, actions, strict=True):
            button = Button(rect, label, on_tap)
            button.key = key  # type: ignore[attr-defined]
            buttons.append(button)
        if self.showing_code:
            buttons.append(self.code)
        self.buttons[:] = buttons

    def _buttons_count(self) -> int:
        return len(self.actions) + (self.code is not None)

    def _wrapped_notes(self, width: int, room: int | None = None) -> list[str]:
        """Each note's lines, its words at NOTE units (their capitals the least any words
        may be) and its figures large (``Runs``: "every house 1st"), on as many lines as it
        needs (a tie between four long names); given the ``room`` they have (a height),
        only the notes that fit in it whole, in order."""
        lines: list[str] = []
        for note in self.notes:
            more = wrap_runs(self.app.theme, note, int(width / th.SQUEEZE), NOTE)
            if room is None or self._notes_h(lines + more) <= room:
                lines += more
        return lines

    def _notes_h(self, lines: Sequence[str]) -> int:
        """The height of note ``lines``: each half as tall again as its words' font (room
        for accents, as the play code's lines have), or its figures' where it has one."""
        return sum(self._note_line_h(line) for line in lines)

    def _note_line_h(self, line: str) -> int:
        run = Runs(self.app.theme, line, NOTE)
        tallest = max(run.font(part).get_height() for part in run.parts)
        return max(tallest, run.words.get_height() * 3 // 2)

    def _layout_table(self) -> None:
        """The headline across the top; a column at the right with the actions (and Code)
        along its foot; the table and the notes at the left."""
        px, inner = self.app.theme.px, self.inner
        gap = px(8)
        bh = button_h(self.app.theme)
        self.headline_rect = pygame.Rect(inner.x, inner.y, inner.w, px(48))
        top = self.headline_rect.bottom + gap
        count = self._buttons_count()
        column = pygame.Rect(0, top, inner.w * 3 // 10, inner.bottom - top)
        column.right = inner.right
        self.bar_rect = pygame.Rect(column.x, column.bottom - count * (bh + gap) + gap,
                                    column.w, count * (bh + gap) - gap)
        self._make_buttons([pygame.Rect(column.x, self.bar_rect.y + i * (bh + gap), column.w,
                                        bh) for i in range(count)])
        content = pygame.Rect(inner.x, top, column.x - px(16) - inner.x, inner.bottom - top)
        # The notes above the actions where they all fit there, else under the table.
        above = self.bar_rect.y - gap - top
        self.note_lines = self._wrapped_notes(column.w)
        note_h = self._notes_h(self.note_lines)
        if note_h <= above:
            self.notes_rect = pygame.Rect(column.x, self.bar_rect.y - gap - note_h, column.w,
                                          note_h)
            self.table_rect = content
            return
        # under the table, where it keeps its figures' rows; else in a wider column above
        # the actions (the table narrower: a long name cut in its head, whole on its plate)
        least_table = (2.5 + len(self.labels)) * px(LEAST_ROW)
        self.note_lines = self._wrapped_notes(content.w)
        if content.h - gap - self._notes_h(self.note_lines) < least_table:
            column.w = inner.w * 2 // 5
            column.right = inner.right
            self._make_buttons([pygame.Rect(column.x, self.bar_rect.y + i * (bh + gap),
                                            column.w, bh) for i in range(count)])
            self.bar_rect.x, self.bar_rect.w = column.x, column.w
            self.note_lines = self._wrapped_notes(column.w, above)
            note_h = self._notes_h(self.note_lines)
            self.notes_rect = pygame.Rect(column.x, self.bar_rect.y - gap - note_h, column.w,
                                          note_h)
            self.table_rect = pygame.Rect(inner.x, top, column.x - px(16) - inner.x,
                                          inner.bottom - top)
            return
        note_h = self._notes_h(self.note_lines)
        self.notes_rect = pygame.Rect(content.x, content.bottom - note_h, content.w, note_h)
        self.table_rect = pygame.Rect(content.x, top, content.w,
                                      self.notes_rect.y - top - (gap if note_h else 0))

    def _layout_code(self) -> None:
        """The code at the left (``between_plates``, as on its own screen); at its right,
        from the top: the headline (on two lines for long names), a row per player in place
        order, the notes where they fit, the code's caption, the actions and Details side
        by side."""
        theme, px, inner = self.app.theme, self.app.theme.px, self.inner
        gap = px(8)
        bh = button_h(theme)
        code = self.code.rect
        self.column = column = pygame.Rect(code.right + px(16), inner.y,
                                           inner.right - code.right - px(16), inner.h)
        self.bar_rect = pygame.Rect(column.x, column.bottom - bh, column.w, bh)
        count = self._buttons_count()
        cell = (column.w - gap * (count - 1)) // count
        self._make_buttons([pygame.Rect(column.x + i * (cell + gap), self.bar_rect.y, cell, bh)
                            for i in range(count)])
        caption = self.code.font(column.w)
        self.caption_rect = pygame.Rect(column.x, self.bar_rect.y - gap - caption.get_linesize(),
                                        column.w, caption.get_linesize())
        self.headline_lines = self._headline_lines(column.w)
        line = theme.font(self.headline_lines[0][1]).get_linesize()
        self.headline_rect = pygame.Rect(column.x, column.y, column.w,
                                         line * len(self.headline_lines))
        top = self.headline_rect.bottom + gap
        room = self.caption_rect.y - gap - top
        # The notes that fit under the rows (closer rows make room for them); every note
        # is in the breakdown too, one tap away.
        least = theme.font(px(FIGURE)).get_linesize() + px(4)
        # The first places where more players than the column holds (the seats' plates and
        # the breakdown have them all).
        self.rows = min(len(self.standings), max(1, room // least))
        notes = self._wrapped_notes(column.w, room - least * self.rows)
        note_h = self._notes_h(notes)
        self.note_lines = notes
        row_h = max(least, min(px(44), (room - note_h) // self.rows))
        rows_h = row_h * self.rows
        self.rows_rect = pygame.Rect(column.x, top, column.w, rows_h)
        self.notes_rect = pygame.Rect(column.x, self.caption_rect.y - gap - note_h, column.w,
                                      note_h)
        self.row_h = row_h

    def _headline_lines(self, width: int) -> list[tuple[str, int]]:
        """The headline in the code view's column: one line as large as fits down to
        ``LONG_HEADLINE`` units, else two lines at the size the longer needs (long names),
        the second cut with an ellipsis if even that is too long."""
        theme, px = self.app.theme, self.app.theme.px
        text = self.headline()
        size = theme.fitting_size(text, px(HEADLINE), width, px(LONG_HEADLINE))
        if theme.font(size).size(text)[0] * th.SQUEEZE <= width:
            return [(text, size)]
        words = text.split(" ")
        cut = max(1, min(range(1, len(words)), default=1,
                         key=lambda i: abs(len(" ".join(words[:i])) - len(text) / 2)))
        halves = [" ".join(words[:cut]), " ".join(words[cut:])] if len(words) > 1 else [text]
        size = min(theme.fitting_size(h, px(NAME), width, px(SMALLEST)) for h in halves)
        return [(h, size) for h in halves]

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

    def place_alone(self, place: int, standing: Standing) -> str:
        """The player's place as their seat's plate says it, without the total ("2nd",
        "Last"), or "" where the words don't end with the total."""
        words = place_words(place, standing.total, standing.rank)
        said = self.app.catalog.text(words.key, **words.params)
        if not said.endswith(standing.total):
            return ""
        return said[:-len(standing.total)].rstrip(" ·")

    def headline(self) -> str:
        t = self.app.catalog.text
        key = "winner.one" if len(self.winners) == 1 else "winner.shared"
        return t(key, names=self.app.catalog.names(self.winners))

    def describe(self) -> str:
        totals = ", ".join(f"{s.name} {s.total}" for s in self.standings)
        return " | ".join([self.title, self.headline(), totals, *self.notes])

    def draw(self, p: Painter) -> None:
        felt(p, self.ring, self.app.backend, self.app.clock.now_ms())
        if self.showing_code:
            self._draw_code_view(p)
        else:
            self._draw_headline(p)
            self._draw_table(p)
        self._draw_notes(p)
        for button in self.buttons:
            button.draw(p)

    def _draw_headline(self, p: Painter) -> None:
        """The game's name small at the right, the winners as large as the rest allows."""
        theme, px = self.app.theme, self.app.theme.px
        head = self.headline_rect
        title_font = theme.font(px(LABEL))
        title_w = min(title_font.size(self.title)[0], head.w // 3)
        title_box = pygame.Rect(head.right - title_w, head.y, title_w, head.h)
        p.text(fitted(self.title, title_font, title_w), title_font, th.INK_SOFT, title_box,
               "right")
        room = head.w - title_w - px(16)
        text = self.headline()
        font = theme.fitting_font(text, px(HEADLINE), room, smallest=px(34))
        halves = split_in_two(text)
        if font.size(text)[0] * th.SQUEEZE > room and halves:
            # a victory shared by long names: on two lines, words no smaller than a label's
            size = min(theme.fitting_size(h, px(34), room, px(LABEL)) for h in halves)
            font = theme.font(size)
            for i, half in enumerate(halves):
                # each centred on its half, its accents and descenders past it
                box = pygame.Rect(head.x, head.y + i * head.h // 2, room, head.h // 2)
                p.text(fitted(half, font, room), font, GOLD, box.inflate(0, px(12)), "left")
            return
        p.text(fitted(text, font, room), font, GOLD,
               pygame.Rect(head.x, head.y, room, head.h), "left")

    def _draw_notes(self, p: Painter) -> None:
        y = self.notes_rect.y
        for line in self.note_lines:
            line_h = self._note_line_h(line)
            box = pygame.Rect(self.notes_rect.x, y, self.notes_rect.w, line_h)
            Runs(self.app.theme, line, NOTE).draw(p, th.INK_SOFT, box)
            y += line_h

    def _draw_code_view(self, p: Painter) -> None:
        """The headline, a row per player (a winner's on a dark plate, in gold): the name at
        the left, the place and total as the seat's plate says them at the right (the total
        alone where the two would leave the name too little room), the caption."""
        theme, px = self.app.theme, self.app.theme.px
        y = self.headline_rect.y
        for line, size in self.headline_lines:
            font = theme.font(size)
            box = pygame.Rect(self.headline_rect.x, y, self.headline_rect.w, font.get_linesize())
            p.text(fitted(line, font, box.w), font, GOLD, box, "left")
            y += font.get_linesize()
        totals = {s.name: int(s.total) for s in self.standings}
        placed = places(totals, self.winners)
        order = sorted(range(len(self.standings)),
                       key=lambda i: placed[self.standings[i].name])
        figure_font = theme.font(px(FIGURE))
        for row, i in enumerate(order[:self.rows]):
            s = self.standings[i]
            won = s.name in self.winners
            box = pygame.Rect(self.rows_rect.x, self.rows_rect.y + row * self.row_h,
                              self.rows_rect.w, self.row_h)
            if won:
                pygame.draw.rect(p.surface, th.PLATE, box, border_radius=px(8))
            colour = GOLD if won else th.INK
            inside = box.inflate(-px(16), 0)
            total_w = figure_font.size(s.total)[0]
            p.text(s.total, figure_font, colour, inside, "right")
            place = self.place_alone(placed[s.name], s)
            place_font = theme.font(px(PLACE))
            place_w = place_font.size(place)[0] if place else 0
            name_need = min(int(theme.font(px(24)).size(s.name)[0] * th.SQUEEZE), inside.w // 2)
            if place and total_w + place_w + 2 * px(12) + name_need > inside.w:
                place, place_w = "", 0  # the seat's plate says it; the name keeps its room
            if place:
                p.text(place, place_font, colour if won else th.INK_SOFT,
                       pygame.Rect(inside.right - total_w - px(12) - place_w, box.y, place_w,
                                   box.h), "right")
            name_w = inside.w - total_w - px(12) - (place_w + px(12) if place else 0)
            font = theme.fitting_font(s.name, px(NAME), name_w, smallest=px(24))
            p.text(fitted(s.name, font, name_w), font, colour,
                   pygame.Rect(inside.x, box.y, name_w, box.h), "left")
        caption = self.code.font(self.caption_rect.w)
        p.text(fitted(self.code.label, caption, self.caption_rect.w), caption, th.INK_SOFT,
               self.caption_rect, "left")

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
            # a long name cut at the least any words take: whole on its seat's plate
            font = theme.fitting_font(s.name, px(NAME), cell.w, smallest=px(LABEL))
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
            font = theme.fitting_font(label, px(LABEL), box.w, smallest=px(LABEL))
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
                if isinstance(shown, Sum) and font.size(text)[0] * th.SQUEEZE > room:
                    text, font = str(shown.total), figure_font
                p.text(text, font, th.INK, cell.inflate(-px(16), 0))
            y += row_h


class ShowsWinner:
    """A screen that shows the shared winner screen (``show_winner``): its buttons are the
    winner's, and its ``ring`` (whose lights' rhythm ``Screen`` follows, and which a blink
    step redraws alone) is the winner's slim ring, not a full one drawn under it. Mixed in
    before ``Screen``."""

    winner: WinnerView | None = None
    kept_said: str | None = None  # the Table's ``keeping`` the note says (None: no note)

    def show_winner(self, winner: WinnerView) -> None:
        self.winner = winner
        self.buttons = winner.buttons
        self.ring = winner.ring

    def kept_note(self, game: object) -> str:
        """What the history holds of ``game`` as a note ("Saving in the history…", then
        "Saved in the history" once its row is on disk; the Table's ``keeping``)."""
        self.kept_said = self.app.table.keeping(game)  # type: ignore[attr-defined]
        return self.app.catalog.text(f"winner.{self.kept_said}") \
            if self.kept_said else ""  # type: ignore[attr-defined]

    def kept_moved(self, game: object) -> bool:
        """Whether the history holds ``game`` otherwise than the note says: a new layout."""
        return self.kept_said is not None and \
            self.app.table.keeping(game) != self.kept_said  # type: ignore[attr-defined]


class WinnerScreen(ShowsWinner, Screen):
    """The winner screen on its own, for a game whose result has no screen of its own (a
    King's Dilemma night once recorded); the seats' lights are off."""

    name = "winner"

    def __init__(self, app: App, view: WinnerView | None, game: object = None,
                 make: Callable[[str], WinnerView] | None = None) -> None:
        """``view``, or with ``make`` the view of ``game`` it makes from the note of what
        the history holds of it (``kept_note``), made again once that changes."""
        super().__init__(app)
        self.game, self.make = game, make
        self.show_winner(view if make is None else make(self.kept_note(game)))

    def on_change(self) -> None:
        if self.make is not None and self.kept_moved(self.game):
            self.show_winner(self.make(self.kept_note(self.game)))

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
