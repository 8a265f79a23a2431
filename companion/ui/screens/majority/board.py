"""The Koryŏ and Chosŏn game screen's board mode: the live majority board and the lines
under it, sized to be read from a chair.

The board has a row per player (their seat's colour, their name) and a column per family
someone has in play (highest value first), then the events in front of the players; the
controller (``MajorityController.board``) says which (its VP column is left to the plates:
each player's VP is the first figure on their own plate). A family's head
is a chip of its own colour with its value, and its name in full when the columns leave
room for it; the family's majority holder has that colour in their cell, ``*`` when the
tie-breaker in force gave it (said under the board), a tie is amber and marked ``=``, a
zero is left empty. Every figure is ``FIGURE`` units (24 px per 480 px of screen).

Beside or under the board, in the same large type: the powers of the phase, protections
in force, end-of-round limit warnings, the tie-breaker and Chosŏn's tokens. Few families in
play leave the felt's right part free: the lines go there, beside the board, whose rows
then take the whole height (their figures growing with them) — whichever of the two
places hides fewer lines, beside on a tie. The rows are as tall as the lines leave room
for; what does not fit goes on "more" pages that a tap on the board turns (the board's
head corner says how many lines wait there), the tie-breaker first on each when a cell
shows ``*``; beside the board the pages turn there and the board stays.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.games.majority.controller import BROKEN, HELD, TIED, VP, BoardColumn
from companion.ui import theme as th
from companion.ui.screens.majority.common import (
    FIGURE,
    WORDS,
    ink_box,
    make_button,
    row_of,
)
from companion.ui.theme import Painter
from companion.ui.widgets import Runs, runs, wrap_runs

# A colour per family value (the chips of the board's head, the holder's cell, the card
# entry's tiles): light enough for dark ink, told apart by lightness as well as hue.
FAMILY_COLOURS: dict[int, tuple[int, int, int]] = {
    9: (240, 212, 96),
    8: (242, 160, 84),
    7: (168, 204, 108),
    6: (104, 206, 186),
    5: (128, 172, 240),
    4: (192, 152, 232),
    3: (232, 128, 132),
    2: (164, 164, 176),
    1: (244, 244, 236),
}
NAME = 32  # units: a player's name in their row
HEAD = 32  # units: the board's head row (a family's chip: its value's ink 24 px)
ROW_MIN, ROW_MAX = 29, 50  # units: a player's row (its figures FIGURE units up to ROW_MAX)
ROW_TALL = 72  # units: a row's most when the board has the felt's height to itself
FIGURE_TALL = FIGURE * ROW_TALL // ROW_MAX  # units: a figure in the tallest rows
SIDE_MIN = 200  # units: the least width for the lines beside the board
SIDE_GAP = 14  # units: between the board and the lines beside it
INFO_LINE = 34  # units: a line under the board (its figures FIGURE units, words WORDS)
FAMILY_MIN = 46  # units: a family's column (its chip and a two-figure count)
COLUMN_MAX = 170  # units: a column's width when there is room to spare
Line = list[tuple[str, tuple]]  # a line under the board: one or two (text, colour) items


@dataclass
class Plan:
    """Where the lines go (under the board or beside it), the board's widths and rows,
    and the pages of lines that gives."""

    side: bool
    name_w: int
    col_w: list[int]
    named_heads: bool
    info_rect: pygame.Rect
    row_h: int
    pages: list[list[Line]]
    hidden: list[int]  # per page: the lines still to come after it


class BoardMode:
    """The board mode of ``majority_game.GameScreen`` (its other methods are the game
    screen's: the view, the sentences, the catalog)."""

    # --- layout -------------------------------------------------------------------------

    def _layout_board(self) -> None:
        items = [(self.t("majority.undo_sure" if self.undo_armed else "majority.undo"),
                  self.undo, "undo")]
        if self.game.can_enter():
            items.append((self.t("majority.enter", player=self.view["current_player"]),
                          self.open_entry, "entry"))
        if self.offered():
            items.append((self.t("majority.powers"), self.open_powers, "powers"))
        step = self.game.next_step()
        if step is not None:
            items.append((self.t(f"majority.step.{step['action']}"), self.step, "step"))
        if len(self.app.screens) > 1:  # opened from Home: a way back, at the right end as
            items.append((self.t("majority.home"), self.home, "home"))  # on every screen
        self._bar(items)
        bar_step = self.button("step")
        if bar_step is not None:  # the end of the round waits for the discards: says so
            bar_step.unavailable = not self.game.can_step()
        # the VP are each player's own figure, on their plate: the centre keeps what the
        # table shares, the majorities (and the events in front, when there is room)
        self.columns = [c for c in self.game.board() if c.kind != VP]
        under, beside = self._plan_under(), self._plan_beside()
        plan = beside if beside is not None and beside.hidden[0] <= under.hidden[0] else under
        self.side, self.name_w, self.col_w = plan.side, plan.name_w, plan.col_w
        self.named_heads, self.info_rect, self.row_h = plan.named_heads, plan.info_rect, plan.row_h
        self.info_pages, self.hidden = plan.pages, plan.hidden
        px = self.app.theme.px
        # the figures grow with the rows past ROW_MAX (FIGURE_TALL in the tallest)
        self.figure = max(FIGURE, FIGURE * self.row_h // max(1, px(ROW_MAX)))
        self.info_page %= len(self.info_pages)
        if len(self.info_pages) > 1:  # the whole board is the big target of "more"
            self.buttons.append(make_button(self.pages_rect(), "", self.next_info, "more"))

    def _plan_under(self) -> Plan:
        """The lines under the board across the felt, the rows as tall as they leave room
        for, the columns spread over the width."""
        px = self.app.theme.px
        name_w, col_w, named = self._size_columns()
        body = self.body
        blocks, pinned = self.info_blocks(body.w)
        n = len(self.view["players"])
        line_h = px(INFO_LINE)
        room = body.h - self.head_h - px(4)
        shown = len(take(blocks, max(0, room - n * px(ROW_MIN)) // line_h, cut=False))
        row_h = min(px(ROW_TALL), (room - shown * line_h) // n)
        top = body.y + self.head_h + row_h * n + px(4)
        info = pygame.Rect(body.x, top, body.w, body.bottom - top)
        # a page over the board takes the round line's place too (back with the board)
        page_h = body.bottom - self.pages_rect(side=False).top
        per = max(1, page_h // line_h - len(pinned) - self._footer_lines(body.w))
        pages, hidden = self._info_pages(*self.info_blocks(body.w), info.h // line_h, per,
                                         body.w)
        return Plan(False, name_w, col_w, named, info, row_h, pages, hidden)

    def _plan_beside(self) -> Plan | None:
        """The lines beside the board, at the felt's right, the rows taking its height:
        with the families' names in their heads or without (then the lines have more
        room), whichever hides fewer lines, the names on a tie; None when the board leaves
        less than ``SIDE_MIN`` there or there are no lines."""
        px = self.app.theme.px
        body = self.body
        n = len(self.view["players"])
        line_h = px(INFO_LINE)
        row_h = min(px(ROW_TALL), (body.h - self.head_h - px(4)) // n)
        plans = []
        for with_names in (True, False):
            name_w, col_w, named = self._size_columns(spread=False, with_names=with_names)
            side_w = body.w - name_w - sum(col_w) - px(SIDE_GAP)
            if side_w < px(SIDE_MIN):
                continue
            blocks, pinned = self.info_blocks(side_w)
            if not blocks:
                return None
            info = pygame.Rect(body.right - side_w, body.y, side_w, body.h)
            per = max(1, info.h // line_h - len(pinned) - self._footer_lines(side_w))
            pages, hidden = self._info_pages(blocks, pinned, info.h // line_h, per, side_w)
            plans.append(Plan(True, name_w, col_w, named, info, row_h, pages, hidden))
        return min(plans, key=lambda plan: plan.hidden[0], default=None)

    def column_label(self, column: BoardColumn) -> str:
        """A column's name: the family's in full (plural), the events', the VP's."""
        if column.family is not None:
            return self.kind_name(column.family, plural=True)
        return self.t(f"majority.col.{column.kind}")

    def _size_columns(self, spread: bool = True, with_names: bool = True
                      ) -> tuple[int, list[int], bool]:
        """The name column's width, each board column's width and whether the families'
        heads have room for their names beside their values: with ``spread`` the columns
        share the whole width (up to ``COLUMN_MAX`` each), else each takes what its head
        needs (``with_names``: its family's name too, up to ``COLUMN_MAX``)."""
        theme, px = self.app.theme, self.app.theme.px
        body = self.body
        name_font = theme.font(px(NAME))
        widest = max(name_font.size(p)[0] for p in self.view["players"])
        # the name column's head says how many lines wait on "more" pages: room for it
        tag = Runs(theme, self.t("majority.more_corner", n=9), WORDS).width() + px(16)
        name_w = max(px(90), tag, min(body.w * 3 // 10, round(widest * th.SQUEEZE) + px(18)))
        small = theme.font(px(WORDS))
        figure = theme.font(px(FIGURE))

        def named_w(c: BoardColumn) -> int:
            return round(small.size(self.column_label(c))[0] * th.SQUEEZE
                         + figure.size(c.kind)[0] + px(30))

        needs = [px(FAMILY_MIN) if c.family is not None
                 else max(px(FAMILY_MIN), round(small.size(self.column_label(c))[0] * th.SQUEEZE)
                          + px(8)) for c in self.columns]
        room = body.w - name_w
        if sum(needs) > room:  # the names give way first, then every column alike
            name_w = max(px(64), body.w - sum(needs))
            room = body.w - name_w
            needs = [w * room // sum(needs) for w in needs]
        if spread:
            spare = (room - sum(needs)) // max(1, len(needs))
            col_w = [min(max(w, px(COLUMN_MAX)), w + spare) for w in needs]
        else:
            col_w = [max(w, min(px(COLUMN_MAX), named_w(c))) if c.family is not None
                     and with_names else w + px(16)
                     for c, w in zip(self.columns, needs, strict=True)]
        named = all(named_w(c) <= w for c, w in zip(self.columns, col_w, strict=True)
                    if c.family is not None)
        self.head_h = px(HEAD)
        return name_w, col_w, named

    # --- the lines under the board ------------------------------------------------------

    def info_lines(self) -> tuple[list[Line], list[Line]]:
        """What is said under the board, as lines of one or two (text, colour) items, and
        apart the tie-breaker's lines when a cell shows ``*`` (they head every page)."""
        blocks, pinned = self.info_blocks()
        return [line for block in blocks for line in block], pinned

    def info_blocks(self, width: int | None = None) -> tuple[list[list[Line]], list[Line]]:
        """What is said under the board, a block of lines per sentence (a page never cuts
        one): powers (the ones that must be used first) and protections (a line each, more
        when long), then limit warnings,
        the tie-breaker and Chosŏn's tokens (two a line when short). When a cell shows
        ``*`` the tie-breaker comes first: it is also returned apart, to head every page.
        ``width``: the lines' (by default where they are now, under or beside the board)."""
        theme, v = self.app.theme, self.view
        width = width or self.info_rect.w
        # what must be done first: never behind "more" while a "may" is shown
        musts_first = sorted(v["powers"], key=lambda pw: not pw["must"])
        wide = [(self.power_text(pw), th.INK) for pw in musts_first] + [
            (self.protection_text(pr), th.INK_SOFT) for pr in v["protections"]
        ]
        breaker = [(self.breaker_text(), th.INK_SOFT)]
        broken = any(m["tie_breaker"] for m in v["majorities"])  # a cell shows "*": say why
        narrow = [(w, th.WARNING) for w in self.limit_texts()] + ([] if broken else breaker) + [
            (line, th.INK_SOFT) for line in self.token_texts()
        ]
        half = (width - theme.px(10)) // 2

        def block(text: str, colour) -> list[Line]:
            return [[(part, colour)] for part in wrap_runs(theme, text, width)]

        pinned = block(*breaker[0]) if broken else []
        blocks = ([pinned] if pinned else []) + [block(*item) for item in wide]
        pair: Line = []
        for item in narrow:  # short ones two a line
            if Runs(theme, item[0], WORDS).width() > half:
                blocks.append(block(*item))
                continue
            pair.append(item)
            if len(pair) == 2:
                blocks.append([pair])
                pair = []
        if pair:
            blocks.append([pair])
        return blocks, pinned

    def _footer_lines(self, width: int) -> int:
        """The most lines a "more" page's footer takes at ``width``."""
        theme = self.app.theme
        return max(len(wrap_runs(theme, self.t("majority.more_tag", n=99), width)),
                   len(wrap_runs(theme, self.t("majority.info_back"), width)))

    def _info_pages(self, blocks: list[list[Line]], pinned: list[Line], first: int,
                    per: int, width: int) -> tuple[list[list[Line]], list[int]]:
        """The lines (``blocks``, their sentences) by the board, ``first`` of them, and
        when they do not all fit there, "more" pages of ``per`` lines (the tie-breaker
        first on each), each sentence whole on one page; every page but the last ends with
        how many lines are still to come, the last with how to get back to the board.
        Returns the pages and, per page, how many lines are still to come after it."""
        lines = [line for block in blocks for line in block]
        if len(lines) <= first:
            return [lines], [0]
        chunks = [take(blocks, first, cut=False)]
        if blocks and pinned and blocks[0] is pinned:  # not by the board: heads the pages
            blocks.pop(0)
        while blocks:
            chunks.append(pinned + take(blocks, per))
        seen: set[int] = set()  # the lines shown so far (the pinned ones come again)
        unseen = sum(len(line) for line in lines)
        hidden = []
        for chunk in chunks:
            for line in chunk:
                if id(line) not in seen:
                    seen.add(id(line))
                    unseen -= len(line)
            hidden.append(unseen)
        pages = [chunks[0]]
        for i, chunk in enumerate(chunks[1:], 1):
            if i + 1 < len(chunks):
                footer = self.t("majority.more_tag", n=hidden[i])
            else:
                footer = self.t("majority.info_back")
            pages.append(chunk + [[(part, th.INK_SOFT)]
                                  for part in wrap_runs(self.app.theme, footer, width)])
        return pages, hidden

    def pages_rect(self, side: bool | None = None) -> pygame.Rect:
        """Where the "more" pages show and a tap turns them: the board and the round line
        above it (a page over the board takes its place too, unless the instruction is on
        two lines there), beside the board its lines (``side``: the plan's, by default)."""
        if self.side if side is None else side:
            return self.body
        return self.body if self.two_line_status() else self.body.union(self.banner_rect)

    def next_info(self) -> None:
        """The next "more" page of the lines under the board (after the last: the board)."""
        self.info_page = (self.info_page + 1) % len(self.info_pages)
        self.app.invalidate()

    # --- drawing ------------------------------------------------------------------------

    def _draw_board(self, p: Painter) -> None:
        if len(self.info_pages) > 1:
            p.targets.append(self.pages_rect())  # a tap on the board turns the "more" pages
        if self.info_page and not self.side:  # the page over the board and the round line
            self._draw_info(p, self.pages_rect(), self.info_pages[self.info_page])
            return
        px = self.app.theme.px
        v = self.view
        x0 = self.body.x + self.name_w
        y = self.body.y
        if len(self.info_pages) > 1:  # the head's corner: how many lines wait on pages
            corner = pygame.Rect(self.body.x, y, self.name_w - px(6), self.head_h)
            pygame.draw.rect(p.surface, th.PLATE, corner.inflate(0, -px(4)),
                             border_radius=px(8))
            tag = corner.inflate(-px(10), 0)
            line = runs(self.app.theme, self.t("majority.more_corner", n=self.hidden[0]), tag.w,
                        WORDS)
            line.draw(p, th.WARNING, tag.move((tag.w - line.width()) // 2, 0))
        x = x0
        for column, w in zip(self.columns, self.col_w, strict=True):
            self._draw_head(p, column, pygame.Rect(x, y, w, self.head_h))
            x += w
        y += self.head_h
        for i, player in enumerate(v["players"]):
            row = pygame.Rect(self.body.x, y, self.body.w, self.row_h)
            seat = self.seat_of(player)
            colour = self.app.seats[seat].colour if seat < len(self.app.seats) else th.INK
            pygame.draw.rect(p.surface, colour, pygame.Rect(row.x, row.y + px(4), px(6),
                                                            self.row_h - px(8)))
            name_box = pygame.Rect(row.x + px(12), row.y, self.name_w - px(14), self.row_h)
            is_current = player == v["current_player"]
            self.name_text(p, player, NAME * self.figure / FIGURE,
                           th.WARNING if is_current else th.INK, name_box)
            x = x0
            for column, w in zip(self.columns, self.col_w, strict=True):
                cell = pygame.Rect(x, y, w, self.row_h).inflate(-px(4), -px(2))
                self._draw_cell(p, column, column.cells[i], cell)
                x += w
            y += self.row_h
        self._draw_info(p, self.info_rect, self.info_pages[self.info_page])

    def _draw_head(self, p: Painter, column: BoardColumn, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        chip = rect.inflate(-px(4), -px(4))
        if column.family is None:
            self.draw_text(p, self.column_label(column), WORDS, th.INK_SOFT, chip, "center")
            return
        pygame.draw.rect(p.surface, FAMILY_COLOURS[column.family], chip, border_radius=px(8))
        figure = self.app.theme.font(px(FIGURE))
        if not self.named_heads:
            p.text(column.kind, figure, th.BUTTON_INK, ink_box(figure, column.kind, chip))
            return
        value = pygame.Rect(chip.x + px(6), chip.y, figure.size(column.kind)[0], chip.h)
        p.text(column.kind, figure, th.BUTTON_INK, ink_box(figure, column.kind, value), "left")
        name = pygame.Rect(value.right + px(6), chip.y, chip.right - value.right - px(10), chip.h)
        self.draw_text(p, self.column_label(column), WORDS, th.BUTTON_INK, name, "left")

    def _draw_cell(self, p: Painter, column: BoardColumn, cell, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        ink, mark = (th.INK_SOFT if column.kind == VP else th.INK), ""
        if cell.mark in (HELD, BROKEN):
            pygame.draw.rect(p.surface, FAMILY_COLOURS[column.family], rect, border_radius=px(6))
            ink, mark = th.BUTTON_INK, "*" if cell.mark == BROKEN else ""
        elif cell.mark == TIED:  # amber on dark amber: a figure as tall as the cell
            pygame.draw.rect(p.surface, th.WARNING_BG, rect, border_radius=px(6))
            ink, mark = th.WARNING, "="
        if cell.n or column.kind == VP:
            text = f"{cell.n}{mark}"
            font = self.app.theme.fitting_font(text, px(self.figure), rect.w, px(WORDS))
            p.text(text, font, ink, ink_box(font, text, rect), "center")

    def _draw_info(self, p: Painter, rect: pygame.Rect, lines: list[Line]) -> None:
        px = self.app.theme.px
        line_h = px(INFO_LINE)
        for i, line in enumerate(lines):
            row = pygame.Rect(rect.x, rect.y + i * line_h, rect.w, line_h)
            for (text, colour), cell in zip(line, row_of(row, len(line), px(10)), strict=True):
                said = runs(self.app.theme, text, cell.w, WORDS)
                if said.width() <= cell.w:
                    said.draw(p, colour, cell)
                else:  # a word longer than the line: condensed, or said cut
                    self.draw_text(p, text, WORDS, colour, cell)


def take(blocks: list[list[Line]], room: int, cut: bool = True) -> list[Line]:
    """The lines of the first whole ``blocks`` that fit ``room`` lines, taken off the list;
    with ``cut``, a first block longer than ``room`` is cut (a sentence longer than a page),
    its rest left at the head of the list."""
    out: list[Line] = []
    while blocks and len(out) + len(blocks[0]) <= room:
        out += blocks.pop(0)
    if cut and not out and blocks and room > 0:
        out, blocks[0] = blocks[0][:room], blocks[0][room:]
    return out
