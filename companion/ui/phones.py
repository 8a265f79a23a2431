"""The Phones screen: each seat's QR code, to make a phone that seat's pad
(``companion.phones``), opened from Home and the Table check when phones are on.

Each seat has a card in its colour: its name, its code (the kiosk's address, the port and
the seat's secret, new at each start), and whether a phone holds it. When a second phone
asks for a seat that has one, the card offers "Give Ben's seat to the new phone": the
seat's confirmation on the kiosk (its phone can confirm too; its wired pad never does,
and nothing is handed over during a secret vote).
"""

from __future__ import annotations

import pygame

from companion.play.seat import ButtonEvent
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.theme import Painter
from companion.ui.widgets import Button, button_h

LEGIBLE = 22  # units: the smallest type (as Home's)


def has_phones(app: App) -> bool:
    """The seat backend serves phones (``PhoneSeats``) and its server runs."""
    return callable(getattr(app.backend, "url", None)) and not getattr(
        app.backend, "failure", None)


class PhonesScreen(Screen):
    name = "phones"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.cards: list[pygame.Rect] = []
        self.codes: list[pygame.Rect] = []
        self.build()

    def build(self) -> None:
        """The cards and the buttons, as the seats' phones stand now."""
        theme = self.app.theme
        px = theme.px
        w, h = self.app.size
        gap = px(8)
        t = self.app.catalog.text
        self.title_rect = pygame.Rect(px(16), px(8), w - 2 * px(16), px(40))
        bh = button_h(theme)
        self.back_rect = pygame.Rect(w - px(16) - px(200), h - px(8) - bh, px(200), bh)
        seats = len(self.app.seats)
        top = self.title_rect.bottom + gap
        bottom = self.back_rect.top - gap
        card_w = (w - 2 * px(16) - gap * (seats - 1)) // seats
        self.cards = [pygame.Rect(px(16) + i * (card_w + gap), top, card_w, bottom - top)
                      for i in range(seats)]
        self.buttons = [Button(self.back_rect, t("phones.screen.back"), self.app.pop)]
        backend = self.app.backend
        for seat, card in enumerate(self.cards):
            if backend.waiting(seat):
                rect = pygame.Rect(card.x, card.bottom - bh, card.w, bh)
                label = t("phones.screen.give", name=self.app.seats[seat].name)
                self.buttons.append(Button(rect, label, self._giver(seat)))

    def _giver(self, seat: int):
        return lambda: self.app.backend.hand_over(seat)

    def status(self, seat: int) -> str:
        backend = self.app.backend
        t = self.app.catalog.text
        if backend.waiting(seat):
            return t("phones.screen.waiting")
        if not backend.paired(seat):
            return t("phones.screen.free")
        return t("phones.screen.paired" if backend.connected(seat) else "phones.screen.away")

    def on_status(self, seat: int, connected: bool) -> None:
        self.build()  # a phone came, went or asks: the cards and their buttons follow
        self.app.invalidate()

    def on_button(self, event: ButtonEvent) -> None:
        self.app.invalidate()

    def describe(self) -> str:
        t = self.app.catalog.text
        rows = ", ".join(f"{s.name}: {self.status(i)}" for i, s in enumerate(self.app.seats))
        return f"{t('phones.screen.title')} | {rows}"

    def draw(self, p: Painter) -> None:
        from companion.ui.playcode import code_image, draw_code  # segno: when codes show

        theme = self.app.theme
        px = theme.px
        t = self.app.catalog.text
        p.surface.fill(th.FELT)
        title = t("phones.screen.title")
        p.text(title, theme.fitting_font(title, px(34), self.title_rect.w), th.INK,
               self.title_rect, "left")
        prompt = t("phones.screen.prompt")
        prompt_rect = pygame.Rect(px(16), self.back_rect.y, self.back_rect.x - px(24),
                                  self.back_rect.h)
        for i, line in enumerate(p.lines(prompt, theme.font(px(LEGIBLE)), prompt_rect.w)[:2]):
            half = pygame.Rect(prompt_rect.x, prompt_rect.y + i * prompt_rect.h // 2,
                               prompt_rect.w, prompt_rect.h // 2)
            p.text(line, theme.fitting_font(line, px(LEGIBLE), half.w, px(LEGIBLE)),
                   th.INK_SOFT, half, "left")
        self.codes = []
        backend = self.app.backend
        for seat, card in enumerate(self.cards):
            config = self.app.seats[seat]
            pygame.draw.rect(p.surface, th.PLATE, card, border_radius=px(10))
            band = pygame.Rect(card.x, card.y, card.w, px(40))
            pygame.draw.rect(p.surface, config.colour, band, border_top_left_radius=px(10),
                             border_top_right_radius=px(10))
            ink = (0, 0, 0) if sum(config.colour) > 380 else th.INK
            p.text(config.name, theme.fitting_font(config.name, px(28), band.w - px(8)), ink,
                   band)
            status = self.status(seat)
            font = theme.font(px(LEGIBLE))
            lines = p.lines(status, font, card.w - px(8))
            state = pygame.Rect(card.x, band.bottom + px(4), card.w,
                                font.get_linesize() * len(lines))
            for i, line in enumerate(lines):
                row = pygame.Rect(card.x + px(4), state.y + i * font.get_linesize(),
                                  card.w - px(8), font.get_linesize())
                p.text(line, theme.fitting_font(line, px(LEGIBLE), row.w, px(LEGIBLE)),
                       th.WARNING if backend.waiting(seat) else th.INK_SOFT, row)
            room_bottom = card.bottom - (button_h(theme) + px(4) if backend.waiting(seat)
                                         else px(6))
            room = pygame.Rect(card.x + px(4), state.bottom, card.w - px(8),
                               room_bottom - state.bottom)
            self.codes.append(draw_code(p, code_image(backend.url(seat)), room))
        for button in self.buttons:
            button.draw(p)
