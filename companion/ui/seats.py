"""The seat ring: every seat drawn at its place around the screen edge, facing its player.

A seat's plate shows its name, its colour and a mirror of its pad's light (the state's
colour and rhythm, and a press's acknowledgement, as the pad shows them:
``SeatBackend.shown``), or a "missing" mark while its pad is unplugged; a screen may add
a figure of the seat's at the plate's far end (``figures``: the Inheritors total, a
winner's place and total; ``short_figures``: what shows where one can't fit whole), as
large as every figure a player acts on, and an outline round the plate of the seat it is
about (``outlined``). Plates are drawn upright then turned so the text faces the player
sitting there: top seats read upside down, side seats sideways.

On a game screen each plate is that player's own display (``show_views``, the seat views
of ``companion.play.seatview``): their figures, large, at the far end, what they must do
(or the answer to their last refused press) under their name, and a steady highlight
while they act. The figures are laid out first, all of them: a long line is cut short,
never a figure; for that a plate is long (468 units, a seat alone on the top or bottom
edge up to 560), a side plate reaches into a corner no other plate takes, and seats
sharing an edge share it out. The centre stays fixed (decided looking at the demo's
screenshots, no turning setting built): it holds what the whole table shares, and turned
toward the acting seat it would face the others upside down every other turn, while each
plate already faces its player.

Two depths: the full ring (``FULL_BAND``) where the seats act, with a second line under
the name (the simulator's keys on Home and the Table check); the slim ring
(``SLIM_BAND``) where the seats only watch (History, the charts, the winner screen, a
play's code), the name and a figure or the missing mark on one line beside the light,
leaving the middle to a list or a table. Both are drawn by the same code: the same
stripe, light and name. A plate is drawn whole (opaque inside its rounded corners, clear
outside them): drawn again alone over the last frame, it gives the same picture.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pygame

from companion.hardware.base import SeatBackend, next_light_change
from companion.i18n import Catalog
from companion.play.seat import Light
from companion.play.seatview import SeatView
from companion.play.words import Words
from companion.ui import theme as th
from companion.ui.theme import Painter, TextBox, Theme
from companion.ui.widgets import FIGURE, SENTENCE_FIGURE, WORDS_GLYPH, fitted

# position -> (edge, slot along the edge in canvas x or y order: 0, 1, 2)
PLACES: dict[str, tuple[str, int]] = {
    "bottom-left": ("bottom", 0),
    "bottom": ("bottom", 1),
    "bottom-right": ("bottom", 2),
    "left": ("left", 1),
    "top-left": ("top", 0),
    "top": ("top", 1),
    "top-right": ("top", 2),
    "right": ("right", 1),
}
# pygame.transform.rotate angle (counter-clockwise) that turns an upright plate to face
# the player on that edge.
ANGLES = {"bottom": 0, "top": 180, "left": -90, "right": 90}
# The ring's band from the screen edge inwards, in units (a 480th of the short side).
FULL_BAND = 80
# Slim: a plate 40 units deep, its one line (the name, FIGURE units) with the light beside
# it; 28 units fewer than the full ring on each seated edge.
SLIM_BAND = 52
# A seat's own figures on its plate (units): each value over its label, the value's digits
# 24 px high at 800×480, the label's capitals 16 px.
PLATE_FIGURE = 50
PLATE_LABEL = 32


def next_change(lights: Sequence[Light], now_ms: int) -> int | None:
    """The first time after ``now_ms`` when one of ``lights`` shows something else."""
    times = [t for light in lights if (t := next_light_change(light, now_ms)) is not None]
    return min(times) if times else None


@dataclass(frozen=True)
class Plate:
    seat: int
    edge: str
    rect: pygame.Rect  # on the canvas
    length: int  # along the edge
    depth: int  # from the edge inwards

    def to_canvas(self, x: float, y: float) -> tuple[int, int]:
        """A point of the upright plate (``length`` × ``depth``) on the canvas."""
        r, n, d = self.rect, self.length, self.depth
        if self.edge == "top":
            return round(r.x + n - x), round(r.y + d - y)
        if self.edge == "left":
            return round(r.x + d - y), round(r.y + x)
        if self.edge == "right":
            return round(r.x + y), round(r.y + n - x)
        return round(r.x + x), round(r.y + y)

    def rect_to_canvas(self, rect: pygame.Rect) -> pygame.Rect:
        x0, y0 = self.to_canvas(rect.left, rect.top)
        x1, y1 = self.to_canvas(rect.right, rect.bottom)
        return pygame.Rect(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))


class SeatRing:
    """Where each seat goes for one canvas size, and how to draw them."""

    def __init__(
        self,
        theme: Theme,
        seats: Sequence,
        catalog: Catalog,
        hints: Mapping[int, str] | None = None,
        slim: bool = False,
    ) -> None:
        """``hints``: per seat, the second line of a full plate, or a note at the end of a
        slim plate's line (the missing mark goes there too)."""
        self.theme = theme
        self.seats = tuple(seats)
        self.catalog = catalog
        self.hints = dict(hints or {})
        self.slim = slim
        self.figures: dict[int, str] = {}  # seat -> a figure shown large on its plate
        # seat -> its figure's short form, for a plate where the whole one can't fit
        self.short_figures: dict[int, str] = {}
        # seat -> the colour of an outline round its plate: the seat a screen is about
        self.outlined: dict[int, tuple[int, int, int]] = {}
        # seat -> what its own plate shows while a game is on (``show_views``)
        self.views: dict[int, SeatView] = {}
        self.say: Callable[[Words], str] = lambda words: catalog.text(words.key)
        self._insides: dict[tuple[int, int, int], pygame.Surface] = {}  # ``_inside``
        # seat -> what its light showed (colour, connected) when its plate was last drawn
        self.drawn_lights: dict[int, tuple[tuple[int, int, int], bool]] = {}
        # (seat, what its light shows) -> its plate as drawn on the canvas since the last
        # whole frame: a blink step between two looks of a light blits one of them
        self._blinked: dict[tuple[int, tuple], pygame.Surface] = {}
        w, h = theme.size
        band = theme.px(SLIM_BAND if slim else FULL_BAND)
        self.gap = gap = theme.px(6)
        self.stripe = theme.px(6 if slim else 9)
        edges = {PLACES[s.position][0] for s in self.seats}
        top = band if "top" in edges else 0
        bottom = band if "bottom" in edges else 0
        left = band if "left" in edges else 0
        right = band if "right" in edges else 0
        # The free middle, for the screens' own content.
        self.centre = pygame.Rect(left, top, w - left - right, h - top - bottom).inflate(
            -2 * gap, -2 * gap
        )
        # a plate's longest: room for a seat's figures, its name and the line under it (a
        # side plate reaches that long where the corners are free); a top or bottom plate
        # alone on its edge may be longer, up to the side seats' bands
        longest = theme.px(468)
        widest = min(theme.px(560), w - 2 * band - 2 * gap)
        rects: dict[int, pygame.Rect] = {}
        for i, seat in enumerate(self.seats):  # the top and bottom edges first
            edge, slot = PLACES[seat.position]
            if edge in ("top", "bottom"):
                # seats sharing an edge share it out in their slots' order: two take a
                # half each (the empty third between them is theirs), three a third
                slots = sorted({PLACES[s.position][1] for s in self.seats
                                if PLACES[s.position][0] == edge})
                crowded = len(slots) > 1
                span = w // len(slots)
                start = span * slots.index(slot)
                n = min(span - 2 * gap, longest if crowded else widest)
                x = start + (span - n) // 2
                y = gap if edge == "top" else h - band + gap
                rects[i] = pygame.Rect(x, y, n, band - 2 * gap)
        for i, seat in enumerate(self.seats):
            edge = PLACES[seat.position][0]
            if edge in ("left", "right"):
                # a side plate reaches into a corner no top or bottom plate takes: a side
                # seat's plate as long as the others, its figures kept whole
                x = gap if edge == "left" else w - band + gap
                column = pygame.Rect(x - gap, 0, band, h)
                low = top if any(r.top < top and r.colliderect(column)
                                 for r in rects.values()) else 0
                high = h - bottom if any(r.bottom > h - bottom and r.colliderect(column)
                                         for r in rects.values()) else h
                n = min(high - low - 2 * gap, longest)
                rects[i] = pygame.Rect(x, low + (high - low - n) // 2, band - 2 * gap, n)
        self.plates: list[Plate] = []
        for i, seat in enumerate(self.seats):
            edge = PLACES[seat.position][0]
            rect = rects[i]
            n = rect.w if edge in ("top", "bottom") else rect.h
            self.plates.append(Plate(i, edge, rect, n, band - 2 * gap))

    def show_views(self, views: Mapping[int, SeatView], say: Callable[[Words], str]) -> None:
        """Each seat's own view (its figures, its turn, what it must do, the answer to its
        last press) on its plate from now on, its sentences said by ``say``."""
        self.views = {seat: view for seat, view in views.items() if seat < len(self.seats)}
        self.say = say

    def light(self, plate: Plate) -> tuple[int, int, int]:
        """The light on the upright plate: its centre and radius, a disc as tall as the
        plate above its stripe allows, at the plate's start (the full ring's as it was)."""
        d, px = plate.depth, self.theme.px
        if not self.slim:
            return d // 2, d // 2 - px(3), round(d * 0.27)
        above = d - self.stripe
        return above // 2 + px(5), above // 2 + px(1), round(above * 0.3)

    def light_centre(self, seat: int) -> tuple[int, int]:
        """Where the seat's light is drawn on the canvas."""
        plate = self.plates[seat]
        cx, cy, _ = self.light(plate)
        return plate.to_canvas(cx, cy)

    def next_deadline(self, backend: SeatBackend, now_ms: int) -> int | None:
        """When a light's rhythm next changes what the ring shows (None: nothing moves)."""
        times = [t for p in self.plates
                 if (t := backend.next_shown_change(p.seat, now_ms)) is not None]
        return min(times) if times else None

    def draw(self, p: Painter, backend: SeatBackend, now_ms: int) -> None:
        self._blinked.clear()  # a whole frame: what the plates show may have changed
        for plate in self.plates:
            self._draw_plate(p, plate, backend, now_ms)
        for seat in self.outlined:
            self._draw_outline(p, seat)

    def _draw_outline(self, p: Painter, seat: int) -> pygame.Rect:
        """The outline round a seat's plate (``outlined``); the rectangle it covers."""
        px = self.theme.px
        rect = self.plates[seat].rect.inflate(px(6), px(6))
        pygame.draw.rect(p.surface, self.outlined[seat], rect, width=max(2, px(3)),
                         border_radius=px(16))
        return rect

    def draw_blinked(self, p: Painter, backend: SeatBackend, now_ms: int) -> list[pygame.Rect]:
        """Over the last frame, only the plates whose light shows something else than when
        they were last drawn (a blink step: most often one seat's); their rectangles, for
        the screen to show. Whatever else a plate shows changes only with a whole frame,
        so a plate drawn with a look of its light since then is blitted again as it was."""
        changed = [plate for plate in self.plates
                   if self.drawn_lights.get(plate.seat) != self._light_look(plate, backend,
                                                                            now_ms)]
        for plate in changed:
            look = self._light_look(plate, backend, now_ms)
            kept = self._blinked.get((plate.seat, look))
            if kept is None:
                self._draw_plate(p, plate, backend, now_ms)
                self._blinked[plate.seat, look] = p.surface.subsurface(plate.rect).copy()
            else:
                p.surface.blit(kept, plate.rect)
                self.drawn_lights[plate.seat] = look
        return [self._draw_outline(p, plate.seat) if plate.seat in self.outlined
                else plate.rect for plate in changed]

    @staticmethod
    def _light_look(plate: Plate, backend: SeatBackend,
                    now_ms: int) -> tuple[tuple[int, int, int], bool]:
        return backend.shown(plate.seat, now_ms), backend.connected(plate.seat)

    def _draw_view(self, lp: Painter, view: SeatView, body: pygame.Rect,
                   connected: bool) -> None:
        """A seat's own view on its upright plate: its figures at the far end, each large
        over its label, all of them (a player's own figures are never dropped for a
        sentence); in what they leave, its name over what it must do (or the answer to its
        last press), that line at the least size for words and cut short if it must."""
        theme, px = self.theme, self.theme.px
        seat = self.seats[view.seat]
        gap = px(10)  # between two figures: their labels apart
        value_font, label_font = theme.font(px(PLATE_FIGURE)), theme.font(px(PLATE_LABEL))
        line = None if not connected else (
            self.say(view.reply) if view.reply else self.say(view.todo) if view.todo else None)
        # the name whole at the least size for words, or (a long name on a short plate)
        # its first letters: the plate's colour and place say whose it is as well
        least = min(label_font.size(seat.name)[0],
                    label_font.size(seat.name[:3] + "…")[0]) * th.SQUEEZE
        cells: list[tuple[str, str, int]] = []
        right = body.right
        for figure in view.figures:
            value, label = figure.value, self.say(figure.label)
            w = max(value_font.size(value)[0], label_font.size(label)[0])
            # every figure is kept, whatever the line says (the line is cut short instead):
            # only a plate too short for the figures and the name's least drops the last
            if cells and right - w - gap - body.x < least + px(4):
                break
            cells.append((value, label, w))
            right -= w + gap
        label_h = label_font.get_height() + px(2)  # a descender reaches below its height
        value_h = body.h - label_h
        ink = th.INK if connected else th.INK_DIM
        x = body.right
        for value, label, w in cells:
            x -= w
            lp.text(value, value_font, th.WARNING if connected else th.INK_DIM,
                    pygame.Rect(x, body.y, w, value_h), "center")
            lp.text(label, label_font, th.INK_SOFT,
                    pygame.Rect(x, body.y + value_h, w, body.h - value_h), "center")
            x -= gap
        left = pygame.Rect(body.x, body.y, max(0, right - body.x - px(4)), body.h)
        if line:
            name_box = pygame.Rect(left.x, left.y, left.w, left.h - label_h)
            line_box = pygame.Rect(left.x, name_box.bottom, left.w, label_h)
            font = theme.fitting_font(line, px(PLATE_LABEL), line_box.w, px(PLATE_LABEL))
            colour = th.WARNING if view.reply else th.INK
            lp.text(fitted(line, font, line_box.w), font, colour, line_box, "left")
        else:
            name_box = left
        font = theme.fitting_font(seat.name, px(44), name_box.w, px(PLATE_LABEL))
        lp.text(fitted(seat.name, font, name_box.w), font, ink, name_box, "left")

    def _inside(self, n: int, d: int, radius: int) -> pygame.Surface:
        """An ``n`` × ``d`` plate's shape, opaque white inside its rounded corners and clear
        outside them, made once per size (a blink step redraws the plates)."""
        key = (n, d, radius)
        if key not in self._insides:
            shape = pygame.Surface((n, d), pygame.SRCALPHA)
            pygame.draw.rect(shape, (255, 255, 255, 255), shape.get_rect(), border_radius=radius)
            self._insides[key] = shape
        return self._insides[key]

    def _draw_plate(self, p: Painter, plate: Plate, backend: SeatBackend, now_ms: int) -> None:
        seat = self.seats[plate.seat]
        theme = self.theme
        n, d = plate.length, plate.depth
        connected = backend.connected(plate.seat)
        local = pygame.Surface((n, d), pygame.SRCALPHA)
        lp = Painter(local, theme)
        radius = theme.px(14)
        view = None if self.slim else self.views.get(plate.seat)
        acts = view is not None and view.your_turn and connected
        pygame.draw.rect(local, th.PLATE_TURN if acts else th.PLATE, local.get_rect(),
                         border_radius=radius)
        if acts:  # whose turn it is, steady (the pad's light blinks as well)
            pygame.draw.rect(local, th.WARNING, local.get_rect(), width=max(3, theme.px(5)),
                             border_radius=radius)
        stripe = self.stripe
        colour = seat.colour if connected else th.INK_DIM
        pygame.draw.rect(
            local,
            colour,
            pygame.Rect(0, d - stripe, n, stripe),
            border_bottom_left_radius=radius,
            border_bottom_right_radius=radius,
        )
        # The light: a dark socket, lit in the state's colour (with a halo) when on.
        cx, cy, r = self.light(plate)
        rgb = backend.shown(plate.seat, now_ms)
        self.drawn_lights[plate.seat] = (rgb, connected)
        on = connected and any(rgb)
        if on:
            glow = pygame.Surface(local.get_size(), pygame.SRCALPHA)
            for k in range(5, 0, -1):
                pygame.draw.circle(glow, (*rgb, 150 // (k + 1)), (cx, cy), r + theme.px(3) * k)
            # Inside the plate only: a halo left in its clear corners would add up on the
            # rim each time the plate alone is drawn again over the last frame (a blink step).
            glow.blit(self._inside(n, d, radius), (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
            local.blit(glow, (0, 0))
        pygame.draw.circle(local, th.SOCKET, (cx, cy), r + theme.px(4))
        if on:
            pygame.draw.circle(local, rgb, (cx, cy), r)
        elif not connected:
            a = round(r * 0.6)
            for sx in (-1, 1):
                pygame.draw.line(
                    local, th.MISSING, (cx - a, cy - sx * a), (cx + a, cy + sx * a), theme.px(5)
                )
        # The name, and the keys (simulator), a note or the missing mark: under it on a
        # full plate, after it on a slim one.
        left = cx + r + theme.px(20) if self.slim else d + theme.px(4)
        body = pygame.Rect(left, theme.px(4), n - left - theme.px(12), d - stripe - theme.px(8))
        if view is not None and (view.figures or view.todo or view.reply):
            self._draw_view(lp, view, pygame.Rect(body.x, 0, body.w, d - stripe), connected)
            figure = None
            body.width = 0
        else:
            figure = self.figures.get(plate.seat)
        if body.width == 0:
            pass
        elif figure:  # at the far end, its digits 24 px: the name keeps what it needs
            # the name whole at its least (up to two thirds of the line), the figure the rest
            name_need = min(int(theme.font(theme.px(WORDS_GLYPH)).size(seat.name)[0]
                                * th.SQUEEZE), body.w * 2 // 3)
            room = max(body.w // 3, body.w - name_need - theme.px(10))
            font = theme.font(theme.px(SENTENCE_FIGURE))  # every digit 24 px, "7" too
            if font.size(figure)[0] * th.SQUEEZE > room and plate.seat in self.short_figures:
                # "Dernier · 12" on a short plate: "12", whole, rather than a cut place
                figure = self.short_figures[plate.seat]
            w = min(room, font.size(figure)[0])
            # the plate's whole depth above its stripe: a figure's digits 24 px high
            lp.text(figure, font, th.WARNING if connected else th.INK_DIM,
                    pygame.Rect(body.right - w, 0, w, d - stripe), "right")
            body.width -= w + theme.px(10)
        under = self.catalog.text("seat.missing") if not connected else self.hints.get(plate.seat)
        under_colour = th.MISSING if not connected else th.INK_SOFT
        if body.width == 0:  # the seat's own view drew the name with its figures
            name_box = None
        elif under and self.slim:
            body = pygame.Rect(left, 0, body.w, d - stripe)
            font = theme.fitting_font(under, theme.px(FIGURE), body.w // 2, theme.px(28))
            note_w = min(body.w // 2, font.size(under)[0])
            note_box = pygame.Rect(body.right - note_w, body.y, note_w, body.h)
            lp.text(under, font, under_colour if not connected else th.WARNING, note_box, "right")
            name_box = pygame.Rect(body.x, body.y, body.w - note_w - theme.px(14), body.h)
        elif under:
            name_box = pygame.Rect(body.x, body.y, body.width, body.height * 3 // 5)
            under_box = pygame.Rect(body.x, name_box.bottom, body.width, body.height - name_box.h)
            font = theme.fitting_font(under, theme.px(24), under_box.width)
            lp.text(under, font, under_colour, under_box, "left")
        else:
            name_box = pygame.Rect(body.x, 0, body.w, d - stripe) if self.slim else body
        if name_box is None:
            pass
        elif self.slim:
            font = theme.fitting_font(seat.name, theme.px(FIGURE), name_box.w,
                                      theme.px(WORDS_GLYPH))
            lp.text(fitted(seat.name, font, name_box.w), font,
                    th.INK if connected else th.INK_DIM, name_box, "left")
        else:
            font = theme.fitting_font(seat.name, theme.px(44), name_box.w)
            lp.text(seat.name, font, th.INK if connected else th.INK_DIM, name_box, "left")
        turned = pygame.transform.rotate(local, ANGLES[plate.edge])
        p.surface.blit(turned, plate.rect)
        p.texts.extend(
            TextBox(b.text, plate.rect_to_canvas(b.rect), b.clipped, b.height, b.glyph,
                    b.contrast)
            for b in lp.texts
        )
