"""The Koryŏ and Chosŏn new-game screen, and the games' entry points.

``SetupScreen`` picks the players among the configured seats (2–4, clockwise in the
configuration's order) and the first player, then opens the game (``MajorityController``)
on its ``GameScreen``. On it a seat's **A** takes the seat in or out and **B** makes it the
first player; the help line says what the seat buttons do here (A: the seat plays or
watches, B: it starts).
"""

from __future__ import annotations

import pygame

from companion.games.majority.controller import MajorityController, RuleError
from companion.play.seat import ButtonEvent, Light, Press
from companion.play.turns import NOBODY, Turns
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.screens.majority.common import (
    FIGURE,
    WORDS,
    BaseScreen,
    GameSpec,
    make_button,
    row_of,
)
from companion.ui.screens.majority.game import GameScreen
from companion.ui.theme import Painter
from companion.ui.widgets import runs, shorten, wrap_runs


class SetupScreen(BaseScreen):
    """Who plays (tap a seat to take it in or out) and who starts (the first-player button
    goes round the players in)."""

    def __init__(self, app: App, spec: GameSpec) -> None:
        super().__init__(app)
        self.spec = spec
        self.name = f"{spec.game}-setup"
        n = len(app.seats)
        self.playing = [i < spec.max_players for i in range(n)]
        self.first = 0
        self._layout()

    def _layout(self) -> None:
        px = self.app.theme.px
        gap = px(8)
        r = self.inner
        self.title_rect = pygame.Rect(r.x, r.y, r.w, px(36))
        # the hint, its figures (how many play) as large as the board's: two lines at most
        self.msg_rect = pygame.Rect(r.x, self.title_rect.bottom, r.w, 2 * px(FIGURE * 2 // 3))
        bh = self.button_h()
        tiles = pygame.Rect(r.x, self.msg_rect.bottom + gap, r.w, max(bh, px(72)))
        self.tile_rects = row_of(tiles, len(self.app.seats), gap)
        bottom = pygame.Rect(r.x, r.bottom - bh, r.w, bh)
        self.help_rect = pygame.Rect(r.x, tiles.bottom, r.w, bottom.top - tiles.bottom)
        if len(self.app.screens) > 0:  # opened from Home: a way back
            back_rect, first_rect, start_rect = row_of(bottom, 3, gap)
        else:
            first_rect, start_rect = row_of(bottom, 2, gap)
        self.buttons = [
            make_button(rect, "", lambda i=i: self.toggle(i), f"seat-{i}")
            for i, rect in enumerate(self.tile_rects)
        ]
        self.buttons.append(make_button(first_rect, "", self.next_first, "first"))
        self.buttons.append(make_button(start_rect, self.t("majority.setup.start"),
                                        self.start, "start"))
        if len(self.app.screens) > 0:
            self.buttons.append(make_button(back_rect, self.t("majority.back"), self.home, "back"))
        self._labels()

    def players(self) -> list[int]:
        return [i for i, on in enumerate(self.playing) if on]

    def _labels(self) -> None:
        chosen = self.players()
        if chosen and self.first not in chosen:
            self.first = chosen[0]
        first = self.app.seats[self.first].name if chosen else "-"
        button = self.button("first")
        font = self.app.theme.font(round(button.rect.h * 0.5))
        label = self.t("majority.setup.first", name=first)
        if font.size(label)[0] > button.rect.w * 0.8:
            label = self.t("majority.setup.first", name=shorten(first, font, button.rect.w // 3))
        button.label = label

    def turns(self) -> Turns:
        """The first player's seat marked, once there are players."""
        return Turns(marks={self.first: Light.FIRST_PLAYER}) if self.players() else NOBODY

    def home(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()

    def toggle(self, seat: int) -> None:
        self.playing[seat] = not self.playing[seat]
        self.message = None
        self._labels()
        self.app.invalidate()

    def next_first(self) -> None:
        chosen = self.players()
        if chosen:
            after = [s for s in chosen if s > self.first]
            self.first = after[0] if after else chosen[0]
        self._labels()
        self.app.invalidate()

    def setup(self) -> dict:
        chosen = self.players()
        return {
            "players": [self.app.seats[i].name for i in chosen],
            "seats": chosen,
            "first_player": self.app.seats[self.first].name if chosen else None,
        }

    def start(self) -> None:
        n = len(self.players())
        if not self.spec.min_players <= n <= self.spec.max_players:
            self.message = self.t(
                "majority.setup.count", n=n, low=self.spec.min_players, high=self.spec.max_players
            )
            self.app.invalidate()
            return
        try:
            game = MajorityController.new(self.spec.game, self.setup(), self.app.journal)
        except RuleError as exc:
            self.message = self.t("majority.refused", reason=self.refusal(exc))
            self.app.invalidate()
            return
        self.app.replace(GameScreen(self.app, self.spec, game, SetupScreen))

    def on_button(self, event: ButtonEvent) -> None:
        if event.seat < len(self.playing) and event.press is Press.SHORT:
            if event.button == "a":
                self.toggle(event.seat)
            elif event.button == "b" and self.playing[event.seat]:
                self.first = event.seat
                self._labels()
                self.app.invalidate()

    def describe(self) -> str:
        names = ", ".join(self.app.seats[i].name for i in self.players())
        return f"{self.t(self.spec.game + '.title')} | {names} | {self.button('first').label}"

    def draw(self, p: Painter) -> None:
        self.background(p)
        title = f"{self.t(self.spec.game + '.title')} — {self.t('majority.setup.title')}"
        self.draw_text(p, title, 40, th.INK, self.title_rect)
        hint = self.message or self.t(
            "majority.setup.hint", low=self.spec.min_players, high=self.spec.max_players
        )
        self._draw_hint(p, hint, th.WARNING if self.message else th.INK_SOFT)
        font = self.app.theme.fitting_font(self.t("majority.setup.help"), self.app.theme.px(
            WORDS), self.help_rect.w, self.app.theme.px(WORDS))
        help_lines = p.lines(self.t("majority.setup.help"), font, self.help_rect.w)
        line_h = font.get_linesize()
        y = self.help_rect.centery - line_h * len(help_lines) // 2
        for line in help_lines:
            box = pygame.Rect(self.help_rect.x, y, self.help_rect.w, line_h)
            p.text(line, font, th.INK_SOFT, box, "center")
            y += line_h
        px = self.app.theme.px
        for i, button in enumerate(self.buttons):
            if i >= len(self.app.seats):
                button.draw(p)
                continue
            # A seat's tile: its name, whether it plays, its colour (dim when it watches).
            rect, playing = button.rect, self.playing[i]
            fill = th.BUTTON_PRESSED if button.pressed else (th.BUTTON if playing else th.PLATE)
            pygame.draw.rect(p.surface, fill, rect, border_radius=rect.h // 4)
            ink = th.BUTTON_INK if playing else th.INK_SOFT
            inner = rect.inflate(-px(12), -px(16))  # above the colour bar
            top = pygame.Rect(inner.x, inner.y, inner.w, inner.h // 2)
            self.name_text(p, self.app.seats[i].name, WORDS + 2, ink, top, "center")
            state = self.t("majority.setup.in" if playing else "majority.setup.out")
            self.draw_text(p, state, WORDS, ink, top.move(0, top.h), "center")
            colour = self.app.seats[i].colour if playing else th.INK_DIM
            bar = pygame.Rect(rect.x + px(10), rect.bottom - px(7), rect.w - px(20), px(4))
            pygame.draw.rect(p.surface, colour, bar)


    def _draw_hint(self, p: Painter, hint: str, colour) -> None:
        """The hint (or a refusal) on one line, else two, its figures large."""
        theme, box = self.app.theme, self.msg_rect
        lines = [hint] if runs(theme, hint, box.w, WORDS).width() <= box.w else wrap_runs(
            theme, hint, box.w)
        line_h = box.h // 2
        y = box.centery - line_h * min(2, len(lines)) // 2
        for line in lines[:2]:
            said = runs(theme, line, box.w, WORDS)
            if said.width() <= box.w:
                said.draw(p, colour, pygame.Rect(box.x, y, box.w, line_h))
            else:  # one word wider than the line: condensed, or said cut
                self.draw_text(p, line, WORDS, colour, pygame.Rect(box.x, y, box.w, line_h))
            y += line_h


def new_game(app: App, spec: GameSpec) -> Screen:
    """The latest game of this kind left unfinished in ``app.journal`` (the game screen's
    Home button), else the new-game screen."""
    return resume(app, spec, None) or SetupScreen(app, spec)


def resume(app: App, spec: GameSpec, game_id: int | None) -> Screen | None:
    """The screen of the unfinished game ``game_id`` of ``app.journal`` (None: the latest
    unfinished game of this kind); None when there is none, or no journal."""
    if app.journal is None:
        return None
    game = MajorityController.resume(spec.game, app.journal, game_id)
    return None if game is None else GameScreen(app, spec, game, SetupScreen)
