"""The Koryŏ and Chosŏn game screen's choices: the card entry and the powers.

- ``entry``: the cards the current player reveals, by touch: a tile per card kind (a
  family's value on its colour, the kind's name in full, the tile as wide as the name
  needs at the words' size), a tap adds one, − and + change the selected
  kind; a count the deck or the deal cannot have is refused with the reason;
- ``powers``: the actions that carry out a power (the engine's options): one button each,
  or, when there are more than a page holds, one choice at a time (who, which card…); the
  power's sentence takes the round line's place.
"""

from __future__ import annotations

import math

import pygame

from companion.games.majority.controller import (
    CHOICE_BACK,
    CHOICE_NEXT,
    CHOICE_TAKE,
    OPTIONS_PER_PAGE,
)
from companion.play.seat import Press
from companion.ui import theme as th
from companion.ui.screens.majority.board import FAMILY_COLOURS
from companion.ui.screens.majority.common import FIGURE, WORDS, ink_box, make_button, row_of
from companion.ui.theme import Painter
from companion.ui.widgets import SMALLEST, runs

VALUES_PER_PAGE = 6  # one choice at a time (a player, a family): two rows of three


class ChoiceModes:
    """The entry and powers modes of ``majority_game.GameScreen`` (its other methods are
    the game screen's)."""

    # --- card entry ---------------------------------------------------------------------

    def open_entry(self) -> None:
        if self.game.can_enter():
            self.mode, self.entry, self.selected, self.message = "entry", {}, None, None
            self._layout()
            self.app.invalidate()

    def tap_kind(self, kind: str) -> None:
        self.selected = kind
        self.change(+1)

    def change(self, delta: int) -> None:
        kind = self.selected
        if kind is None:
            return
        counts = dict(self.entry)
        counts[kind] = max(0, counts.get(kind, 0) + delta)
        if counts[kind] == 0:
            counts.pop(kind)
        refused = self.game.entry_refusal(counts, kind) if delta > 0 else None
        if refused is not None:
            params = dict(refused.params)
            if "deck" in params:  # "10 × Merchants", as the engine names them
                params["kind"] = self.kind_name(kind, plural=True)
            self.message = self.t("majority.refused", reason=self.t(refused.key, **params))
            self.app.invalidate()
            return
        self.entry, self.message = counts, None
        self.app.invalidate()

    def reveal(self) -> None:
        if self.dispatch(self.game.reveal_action(self.entry)):
            self.entry = {}

    def _layout_entry(self) -> None:
        px = self.app.theme.px
        gap = px(6)
        kinds = self.kinds
        h = (self.body.h - gap) // 2
        rows = [pygame.Rect(self.body.x, self.body.y + row * (h + gap), self.body.w, h)
                for row in range(2)]
        self.tiles: dict[str, pygame.Rect] = {}
        widths = self._tile_widths(kinds)
        split = tile_split(widths, self.body.w, gap)
        if split is None:  # the names can't all fit at the words' size: equal tiles
            cols = math.ceil(len(kinds) / 2)
            for row, rect in enumerate(rows):
                for kind, cell in zip(kinds[row * cols:(row + 1) * cols],
                                      row_of(rect, cols, gap), strict=False):
                    self.tiles[kind] = cell
        else:
            for row, part in zip(rows, (slice(0, split), slice(split, None)), strict=True):
                cells = cells_by_width(row, widths[part], gap)
                self.tiles.update(zip(kinds[part], cells, strict=True))
        self._bar([
            (self.t("majority.cancel"), self.back, "cancel"),
            ("−", lambda: self.change(-1), "minus"),
            ("+", lambda: self.change(+1), "plus"),
            (self.t("majority.reveal"), self.reveal, "reveal"),
        ])
        self.buttons += [
            make_button(rect, "", lambda k=kind: self.tap_kind(k), f"kind-{kind}")
            for kind, rect in self.tiles.items()
        ]

    def _draw_entry(self, p: Painter) -> None:
        theme = self.app.theme
        px = theme.px
        figure = theme.font(px(FIGURE))
        for kind, rect in self.tiles.items():
            n = self.entry.get(kind, 0)
            selected = kind == self.selected
            fill = th.BUTTON_PRESSED if selected else (th.BUTTON if n else th.PLATE)
            pygame.draw.rect(p.surface, fill, rect, border_radius=px(10))
            ink = th.BUTTON_INK if (selected or n) else th.INK
            inner = rect.inflate(-px(6), -px(6))
            if kind.isdigit():  # the family's value on its colour, at the tile's top left
                chip = pygame.Rect(inner.x, inner.y, px(34), px(32))
                pygame.draw.rect(p.surface, FAMILY_COLOURS[int(kind)], chip, border_radius=px(6))
                p.text(kind, figure, th.BUTTON_INK, ink_box(figure, kind, chip))
            count = pygame.Rect(inner.x, inner.y, inner.w - px(2), px(32))
            if n:
                p.text(str(n), figure, ink, ink_box(figure, str(n), count), "right")
            name = pygame.Rect(inner.x, count.bottom, inner.w, inner.bottom - count.bottom)
            self._draw_name(p, self.kind_name(kind), ink, name)
            p.targets.append(rect)

    def _tile_widths(self, kinds: list[str]) -> list[int]:
        """Each kind's tile as wide as its name needs at the words' size (the painter may
        condense it to SQUEEZE), and at least its figure chip beside a one-digit count."""
        theme = self.app.theme
        px = theme.px
        font = theme.font(px(WORDS))
        least = px(34) + theme.font(px(FIGURE)).size("8")[0] + px(14)
        return [max(least, math.ceil(font.size(self.kind_name(kind))[0] * th.SQUEEZE) + px(8))
                for kind in kinds]

    def _draw_name(self, p: Painter, name: str, ink, box: pygame.Rect) -> None:
        """A card kind's name in full in ``box``: on one line at the words' size, else (a
        tile too narrow for it) smaller, on two lines when it is long."""
        theme = self.app.theme
        if theme.font(theme.px(WORDS)).size(name)[0] * th.SQUEEZE <= box.w:
            self.draw_text(p, name, WORDS, ink, box, "center")
            return
        font = theme.font(theme.px(SMALLEST))
        lines = p.lines(name, font, box.w) if font.size(name)[0] * th.SQUEEZE > box.w else [name]
        line_h = font.get_linesize()
        y = box.centery - line_h * len(lines) // 2
        for line in lines[:2]:
            self.draw_text(p, line, SMALLEST, ink, pygame.Rect(box.x, y, box.w, line_h), "center")
            y += line_h

    # --- powers -------------------------------------------------------------------------

    def open_powers(self) -> None:
        """The powers of the phase; opened by a seat that must discard at the end of a
        round, on that seat's discard."""
        offered = self.offered()
        if offered:
            self.mode, self.power_index, self.page, self.message = "powers", 0, 0, None
            for i, (power, _) in enumerate(offered):
                if power["player"] == self.game.opened_for and power["code"] == "discard":
                    self.power_index = i
            self.picked = {}
            self._layout()
            self.app.invalidate()

    def claims(self, event) -> bool:
        """A seat's press while a power's options are open is the screen's: the pad picks
        among them (a long press stays the game's: the undo request)."""
        return (self.mode == "powers" and event.press is not Press.LONG
                and self.power_options() is not None)

    def on_choice_button(self, event) -> bool:
        """A seat's press while a power's options are open: its player's pad picks (C the
        next option, A takes it, B back), as the controller says; True if handled."""
        chosen = self.power_options()
        if self.mode != "powers" or chosen is None or event.press is Press.LONG:
            return False  # a long press: the undo request, as on the board
        did = self.game.choice_press(event, chosen[0]).did
        if did == CHOICE_NEXT and self.option_buttons:
            self.cursor = (self.cursor + 1) % len(self.option_buttons)
        elif did == CHOICE_TAKE and self.option_buttons:
            self.option_buttons[self.cursor % len(self.option_buttons)].on_tap()
        elif did == CHOICE_BACK:
            self.powers_back()
        self.app.invalidate()  # (another seat: answered on its plate)
        return True

    def power_options(self) -> tuple[dict, list[dict]] | None:
        offered = self.offered()
        if not offered:
            return None
        return offered[self.power_index % len(offered)]

    def remaining(self) -> list[dict]:
        """The chosen power's actions that agree with the choices picked so far."""
        chosen = self.power_options()
        return self.game.remaining(chosen[1] if chosen else [], self.picked)

    def other_power(self) -> None:
        self.power_index += 1
        self.page, self.picked = 0, {}
        self._layout()
        self.app.invalidate()

    def turn_page(self) -> None:
        self.page += 1
        self._layout()
        self.app.invalidate()

    def pick(self, field: str, value: object) -> None:
        self.picked[field] = value
        self.page = 0
        self._layout()
        self.app.invalidate()

    def choose(self, action: dict) -> None:
        if self.dispatch(action) and self.mode == "powers":
            self.page, self.picked = 0, {}
            self._layout()

    def powers_back(self) -> None:
        """Back one choice, or to the board."""
        if self.picked:
            self.picked.popitem()
            self.page = 0
            self._layout()
            self.app.invalidate()
        else:
            self.back()

    def value_label(self, field: str, value: object) -> str:
        if field in ("family", "a_family", "b_family"):
            return self.kind_name(value)  # type: ignore[arg-type]
        if field == "event":
            return self.kind_name(str(value))
        return str(value)

    def option_label(self, action: dict) -> str:
        name = action["action"]
        fmt = {k: v for k, v in action.items() if k != "action"}
        if "family" in fmt:
            fmt["family"] = self.kind_name(fmt["family"])
        for field in ("a_family", "b_family"):  # a swap names four things: value and name
            if field in fmt:
                fmt[field] = f"{fmt[field]} {self.kind_name(fmt[field])}"
        if "event" in fmt:
            fmt["event"] = self.kind_name(fmt["event"])
        key = f"majority.option.{name}"
        if "source" in fmt:
            key += "_from"
        return self.t(key, **fmt)

    def _layout_powers(self) -> None:
        px = self.app.theme.px
        gap = px(6)
        options = self.remaining()
        self.pick_field = field = self.game.choice_field(options)
        if field is None:
            shown = options
            per_page, columns = OPTIONS_PER_PAGE, 2
        else:  # the distinct values of ``field``, short labels: three a row
            shown = list({repr(a[field]): a[field] for a in options}.values())
            per_page, columns = VALUES_PER_PAGE, 3
        self.pages = pages = max(1, math.ceil(len(shown) / per_page))
        self.page %= pages
        items = [(self.t("majority.back"), self.powers_back, "back")]
        if len(self.offered()) > 1:
            items.append((self.t("majority.other_power"), self.other_power, "other"))
        if pages > 1:
            items.append((self.t("majority.more"), self.turn_page, "page"))
        self._bar(items)
        self.power_rect = self.banner_rect  # the power said in the round line's place
        grid = self.body
        h = (grid.h - gap) // 2
        page = shown[self.page * per_page:(self.page + 1) * per_page]
        cells = [c for row in range(2) for c in row_of(
            pygame.Rect(grid.x, grid.y + row * (h + gap), grid.w, h), columns, gap)]
        self.option_buttons = []
        self.cursor = 0  # the option a pad's A takes (C moves it)
        for cell, item in zip(cells, page, strict=False):
            if field is None:
                button = make_button(cell, self.option_label(item),
                                     lambda a=item: self.choose(a), "option")
                button.action = item  # type: ignore[attr-defined]
            else:
                button = make_button(cell, self.value_label(field, item),
                                     lambda v=item: self.pick(field, v), "value")
                button.pick = (field, item)  # type: ignore[attr-defined]
            self.option_buttons.append(button)
        self.buttons += self.option_buttons

    def _draw_powers(self, p: Painter) -> None:
        if self.option_buttons:  # the option the pad's A takes
            marked = self.option_buttons[self.cursor % len(self.option_buttons)].rect
            ring = marked.inflate(self.app.theme.px(8), self.app.theme.px(8))
            pygame.draw.rect(p.surface, th.WARNING, ring, width=max(2, self.app.theme.px(4)),
                             border_radius=ring.h // 4)
        chosen = self.power_options()
        if chosen:
            said = self.power_text(chosen[0])
            line = runs(self.app.theme, said, self.power_rect.w, WORDS + 2)
            if line.width() <= self.power_rect.w:  # its figures as large as the board's
                line.draw(p, th.WARNING, self.power_rect)
            else:  # a long one: smaller, on one line
                self.draw_text(p, said, WORDS, th.WARNING, self.power_rect)


def tile_split(widths: list[int], width: int, gap: int) -> int | None:
    """Where the kinds, in order, break into two rows of tiles each within ``width``: the
    break that leaves the fuller row the least full (None when no break fits them)."""
    def row(ws: list[int]) -> int:
        return sum(ws) + gap * (len(ws) - 1)

    fits = [(max(row(widths[:k]), row(widths[k:])), k) for k in range(1, len(widths))
            if max(row(widths[:k]), row(widths[k:])) <= width]
    return min(fits)[1] if fits else None


def cells_by_width(rect: pygame.Rect, widths: list[int], gap: int) -> list[pygame.Rect]:
    """``rect`` cut into cells side by side, each as wide as asked plus an even share of
    what is left over, the last one ending at ``rect``'s right edge."""
    spare = rect.w - sum(widths) - gap * (len(widths) - 1)
    cells, x = [], rect.x
    for i, w in enumerate(widths):
        share = spare // len(widths) + (1 if i < spare % len(widths) else 0)
        cells.append(pygame.Rect(x, rect.y, w + share, rect.h))
        x += w + share + gap
    return cells
