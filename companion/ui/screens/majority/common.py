"""What the Koryŏ and Chosŏn screens share: the game's spec, the felt under the seat ring,
a base screen (touch buttons, a message line, text that fits its box); their sentences are
drawn with their figures large (``companion.ui.widgets.Runs``).

The screens themselves: ``majority_setup`` (who plays, who starts; the games' entry points
``new_game`` and ``resume``), ``majority_game`` (a game in progress through its
controller, ``companion.games.majority.controller``), with its board (``majority_board``) and its card
entry and powers (``majority_choice``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from companion.games.majority.controller import RuleError, card_names
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import SENTENCE_FIGURE, Button, OnTheFelt, button_h, shorten

# units: a figure a player acts on (a count, VP, the round, the deal): as large as a figure
# in a sentence, 24 px per 480 px of screen for every digit.
FIGURE = SENTENCE_FIGURE
# units: the smallest word these screens draw: its capitals 16 px per 480 px of screen.
WORDS = 32
# Refusal params that name a card kind (a family value or an event key): "kinds" in plural.
KIND_PARAMS = ("family", "kinds", "event")


@dataclass(frozen=True)
class GameSpec:
    """Per game: the catalog prefix (``koryo``, ``choson``) and the player counts."""

    game: str
    min_players: int
    max_players: int


def row_of(rect: pygame.Rect, n: int, gap: int) -> list[pygame.Rect]:
    """``rect`` cut into ``n`` equal cells side by side."""
    w = (rect.w - gap * (n - 1)) // n
    return [pygame.Rect(rect.x + i * (w + gap), rect.y, w, rect.h) for i in range(n)]


def make_button(rect: pygame.Rect, label: str, on_tap: Callable[[], None], key: str) -> Button:
    button = Button(rect, label, on_tap)
    button.key = key  # type: ignore[attr-defined]
    return button


def ink_box(font: pygame.font.Font, text: str, rect: pygame.Rect) -> pygame.Rect:
    """The box to draw ``text`` in so that its ink, not the font's line, is centred in
    ``rect`` (a figure's ink sits high in its line: a low cell would cut its top)."""
    ink = font.render(text, True, (255, 255, 255)).get_bounding_rect()
    shift = font.get_height() // 2 - (ink.top + ink.bottom) // 2
    return pygame.Rect(rect.x, rect.y + shift - abs(shift), rect.w, rect.h + 2 * abs(shift))


class BaseScreen(OnTheFelt, Screen):
    """A screen with the seat ring, touch buttons and a message line."""

    spec: GameSpec

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.on_the_felt(SeatRing(app.theme, app.seats, app.catalog))
        self.buttons: list[Button] = []
        self.message: str | None = None  # a refusal or a notice, shown in WARNING colour

    def t(self, key: str, **fmt: object) -> str:
        return self.app.catalog.text(key, **fmt)

    def button_h(self) -> int:
        return button_h(self.app.theme)

    def draw_text(
        self, p: Painter, text: str, size: float, colour, box: pygame.Rect, align: str = "left"
    ) -> None:
        """One line of ``size`` units, smaller to fit ``box`` but never below ``WORDS``."""
        theme = self.app.theme
        font = theme.fitting_font(text, theme.px(size), box.w, theme.px(WORDS))
        p.text(text, font, colour, box, align)

    def name_text(
        self, p: Painter, name: str, size: float, colour, box: pygame.Rect, align: str = "left"
    ) -> None:
        """A player's name: smaller to fit, then cut with an ellipsis."""
        theme = self.app.theme
        font = theme.fitting_font(name, theme.px(size), box.w, theme.px(WORDS))
        # the painter condenses a line up to SQUEEZE before anything is cut
        p.text(shorten(name, font, int(box.w / th.SQUEEZE)), font, colour, box, align)

    def refusal(self, exc: RuleError) -> str:
        """The engine's refusal in the screen's language: the catalog's ``refusal.<code>``
        filled with its params (card kinds by their names in this language); the English
        message only for a refusal the catalog has no text for."""
        words: dict[str, Callable[[object], str]] = {
            name: lambda v, plural=name == "kinds": self.kind_label(v, plural)
            for name in KIND_PARAMS
        }
        words["effect"] = lambda v: self.t(f"refusal.effect.{v}")
        return self.app.catalog.refusal(exc, words)

    def kind_label(self, kind: object, plural: bool) -> str:
        """A card kind's name in the screen's language (a family value or an event key)."""
        names = card_names(self.spec.game)[str(kind)]
        return names[f"{self.app.catalog.language}{'_plural' if plural else ''}"]

    def button(self, key: str) -> Button | None:
        """The button whose action is ``key`` (tests, demo)."""
        return next((b for b in self.buttons if getattr(b, "key", None) == key), None)
