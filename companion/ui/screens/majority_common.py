"""Koryŏ and Chosŏn at the table: the screens both games share.

Its length: the setup screen and the game screen's four modes with their sentences
and drawing, shared by Koryŏ and Chosŏn; the rules are in ``companion.play.majority``.

``SetupScreen`` picks the players among the configured seats (2–4, clockwise in the
configuration's order) and the first player, then opens the game (``MajorityController``).
``GameScreen`` shows one game through its controller's view, in four modes:

- ``board``: the season banner (round n/8, deal d, keep at most l, VP bank), the first
  player, the live majority board (a gold cell holds the family; ``=`` marks a tie; ``*``
  a tie won by the tie-breaker in force, named under the board), the powers of the phase
  as sentences, protections in force, end-of-round limit warnings; what does not fit
  under the board goes on "more" pages a tap on the board turns (the tie-breaker first);
- ``entry``: the cards the current player reveals, by touch (tap a family: +1; − and +
  change the selected one); an impossible count or order is refused with the reason;
- ``powers``: the actions that carry out a power (the engine's options): one button each,
  or, when there are more than a page holds, one choice at a time (who, which card…);
- ``final``: the breakdown and winner(s); the result is recorded in ``app.history`` and the
  journal's game is finished as soon as the game is over.

Every change goes through the controller; a refusal shows the engine's reason and
changes nothing. Undo is on every game screen but the final one. The board's Home button
goes back to Home and leaves the game unfinished in the journal: the game's menu entry
(``new_game``) opens it again where it was.

On the new-game screen a seat's **A** takes it in or out and **B** makes it the first
player. In the game (the help line of the new-game screen says it too): **A** = the next
step (start the round, end the turn, end the round), from the seat whose turn it is (the
first player's seat between turns); **B** = the current player opens their card entry;
**C** = the current player opens the powers; a **long press** of the seat that made the
last action asks for an undo (another seat is told it can't), shown on screen until that
seat's second long press or two taps on Undo ("Sure? Undo") carry it out. The top line
names who acts and what, in large type; the round line under it has one round number.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from companion.engine.errors import RuleError
from companion.games import rules_for
from companion.play.majority import (
    NOT_YOUR_TURN,
    NOT_YOUR_UNDO,
    NOTHING_TO_UNDO,
    OPEN_ENTRY,
    OPEN_POWERS,
    OPTIONS_PER_PAGE,
    REFUSED,
    STEPPED,
    UNDO_ASKED,
    UNDONE,
    MajorityController,
)
from companion.seat import ButtonEvent, Light, Press
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import SMALLEST, Button, headline, shorten
from companion.ui.winner import Standing, WinnerView

log = logging.getLogger(__name__)

VALUES_PER_PAGE = 6  # one choice at a time (a player, a family): two rows of three
# units: the board's header, a player's row (its figures ≥ 24 px on the 800×480 panel), a line
HEAD_H, ROW_H, INFO_LINE = 38, 30, 19
FIGURE = 36  # units: the board's figures
# Chosŏn's riposte tokens, as the engine names them -> catalog key.
TOKENS = {"Return Fire": "return_fire", "Counter-Attack": "counter_attack"}
# Refusal params that name a card kind (a family value or an event key): "kinds" in plural.
KIND_PARAMS = ("family", "kinds", "event")
Line = list[tuple[str, tuple]]  # a line under the board: one or two (text, colour) items


@dataclass(frozen=True)
class GameSpec:
    """Per game: the catalog prefix (``koryo``, ``choson``) and the player counts."""

    game: str
    min_players: int
    max_players: int


def felt(p: Painter, ring: SeatRing, backend, now_ms: int) -> None:
    """The table: walnut rim, the seat ring, green felt in the middle."""
    theme = p.theme
    p.surface.fill(th.RIM)
    pygame.draw.rect(p.surface, th.FELT, ring.centre, border_radius=theme.px(22))
    pygame.draw.rect(
        p.surface, th.FELT_EDGE, ring.centre, width=max(2, theme.px(3)), border_radius=theme.px(22)
    )
    ring.draw(p, backend, now_ms)


def row_of(rect: pygame.Rect, n: int, gap: int) -> list[pygame.Rect]:
    """``rect`` cut into ``n`` equal cells side by side."""
    w = (rect.w - gap * (n - 1)) // n
    return [pygame.Rect(rect.x + i * (w + gap), rect.y, w, rect.h) for i in range(n)]


class BaseScreen(Screen):
    """A screen with the seat ring, touch buttons and a message line."""

    spec: GameSpec

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.ring = SeatRing(app.theme, app.seats, app.catalog)
        px = app.theme.px
        self.inner = self.ring.centre.inflate(-2 * px(10), -2 * px(8))
        self.buttons: list[Button] = []
        self.message: str | None = None  # a refusal or a notice, shown in WARNING colour

    def t(self, key: str, **fmt: object) -> str:
        return self.app.catalog.text(key, **fmt)

    def button_h(self) -> int:
        return max(th.MIN_TARGET, self.app.theme.px(64))

    def next_deadline(self, now_ms: int) -> int | None:
        return self.ring.next_deadline(self.app.backend, now_ms)

    def on_timer(self, now_ms: int) -> None:
        self.app.invalidate()

    def draw_text(
        self, p: Painter, text: str, size: float, colour, box: pygame.Rect, align: str = "left"
    ) -> None:
        """One line of ``size`` units, smaller to fit ``box`` but never below ``SMALLEST``."""
        theme = self.app.theme
        font = theme.fitting_font(text, theme.px(size), box.w, theme.px(SMALLEST))
        p.text(text, font, colour, box, align)

    def name_text(
        self, p: Painter, name: str, size: float, colour, box: pygame.Rect, align: str = "left"
    ) -> None:
        """A player's name: smaller to fit, then cut with an ellipsis."""
        theme = self.app.theme
        font = theme.fitting_font(name, theme.px(size), box.w, theme.px(SMALLEST))
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
        engine = rules_for(self.spec.game).engine
        if isinstance(kind, int):
            family = engine.FAMILIES[kind].to_dict()
            return family[f"{self.app.catalog.language}{'_plural' if plural else ''}"]
        en, fr, en_plural, fr_plural = engine.EVENT_NAMES[kind]
        names = {"en": (en, en_plural), "fr": (fr, fr_plural)}[self.app.catalog.language]
        return names[1] if plural else names[0]

    def button(self, key: str) -> Button | None:
        """The button whose action is ``key`` (tests, demo)."""
        return next((b for b in self.buttons if getattr(b, "key", None) == key), None)


def make_button(rect: pygame.Rect, label: str, on_tap: Callable[[], None], key: str) -> Button:
    button = Button(rect, label, on_tap)
    button.key = key  # type: ignore[attr-defined]
    return button


# ------------------------------------------------------------------------------ new game


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
        self.title_rect = pygame.Rect(r.x, r.y, r.w, px(40))
        self.msg_rect = pygame.Rect(r.x, self.title_rect.bottom, r.w, px(30))
        bh = self.button_h()
        tiles = pygame.Rect(r.x, self.msg_rect.bottom + gap, r.w, max(bh, px(76)))
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

    def lights(self) -> dict[int, Light]:
        """The first player's seat lit, once there are players."""
        return {self.first: Light.FIRST_PLAYER} if self.players() else {}

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
        self.app.replace(GameScreen(self.app, self.spec, game))

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
        felt(p, self.ring, self.app.backend, self.app.clock.now_ms())
        title = f"{self.t(self.spec.game + '.title')} — {self.t('majority.setup.title')}"
        self.draw_text(p, title, 40, th.INK, self.title_rect)
        hint = self.message or self.t(
            "majority.setup.hint", low=self.spec.min_players, high=self.spec.max_players
        )
        self.draw_text(p, hint, 26, th.WARNING if self.message else th.INK_SOFT, self.msg_rect)
        font = self.app.theme.font(self.app.theme.px(SMALLEST))
        help_lines = p.lines(self.t("majority.help"), font, self.help_rect.w)
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
            inner = rect.inflate(-px(12), -px(10))
            top = pygame.Rect(inner.x, inner.y, inner.w, inner.h // 2)
            self.name_text(p, self.app.seats[i].name, 28, ink, top, "center")
            state = self.t("majority.setup.in" if playing else "majority.setup.out")
            self.draw_text(p, state, 24, ink, top.move(0, top.h - px(4)), "center")
            colour = self.app.seats[i].colour if playing else th.INK_DIM
            bar = pygame.Rect(rect.x + px(10), rect.bottom - px(9), rect.w - px(20), px(5))
            pygame.draw.rect(p.surface, colour, bar)
            p.targets.append(rect)


# ------------------------------------------------------------------------------ the game


class GameScreen(BaseScreen):
    """A Koryŏ or Chosŏn game in progress (see the module docstring)."""

    def __init__(self, app: App, spec: GameSpec, game: MajorityController) -> None:
        super().__init__(app)
        self.spec = spec
        self.game = game
        app.follow(game)
        self.mode = "board"
        self.entry: dict[str, int] = {}
        self.selected: str | None = None
        self.power_index = 0
        self.page = 0
        self.picked: dict[str, object] = {}  # choices made towards a power's action
        self.pick_field: str | None = None  # what the power's buttons choose now
        self.info_page = 0  # 0: the board; 1…: the "more" pages of the lines under it
        self.undo_armed = False  # Undo tapped once: the next tap on it undoes
        self.info_pages: list[list[Line]] = [[]]
        self.lang = app.catalog.language
        self.names = {f["value"]: f for f in self.view["families"]}
        self.events = {e["key"]: e for e in self.view["events"]}
        self.kinds = [str(v) for v in sorted(self.names, reverse=True)] + list(self.events)

        self._show()

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"{self.spec.game}-{self.mode}"

    # --- names ------------------------------------------------------------------------

    def kind_name(self, kind: str | int, plural: bool = False) -> str:
        key = str(kind)
        item = self.names[int(key)] if key.isdigit() else self.events[key]
        return item[f"{self.lang}_plural"] if plural else item[self.lang]

    def abbr(self, kind: str) -> str:
        return self.t(f"{self.spec.game}.abbr.{kind}")

    @property
    def view(self) -> dict:
        return self.game.view()

    def lights(self) -> dict[int, Light]:
        return self.game.lights()

    def seat_of(self, player: str) -> int:
        return self.game.seat_of(player)

    # --- the session --------------------------------------------------------------------

    def _show(self) -> None:
        """Take the session's view: mode, recording of a finished game."""
        view = self.view
        if view["final"] is not None:
            self.mode = "final"
            self.game.record(self.app.history)
        elif not {"entry": self.game.can_enter,
                  "powers": self.game.offered}.get(self.mode, bool)():
            self.mode = "board"
        self.info_page = 0
        self._layout()
        self.app.invalidate()

    def dispatch(self, action: dict) -> bool:
        """Send ``action`` to the game; a refusal shows its reason and changes nothing."""
        if not self.game.dispatch(action):
            self.message = self.t("majority.refused", reason=self.refusal(self.game.refusal))
            self.app.invalidate()
            return False
        self.message = None
        self._show()
        return True

    def pointer_down(self, pos: tuple[int, int]) -> None:
        undo = self.button("undo")
        if self.undo_armed and (undo is None or not undo.rect.collidepoint(pos)):
            self.disarm()
        super().pointer_down(pos)

    def undo(self) -> None:
        """Undo takes two taps: the first turns the button into "Sure? Undo"."""
        if not self.undo_armed:
            self.undo_armed = True
            self._show()
            return
        self.undo_armed = False
        self._undone(self.game.undo() is not None)

    def disarm(self) -> bool:
        """Anything but the second tap on Undo cancels it; True if it was armed."""
        if self.undo_armed:
            self.undo_armed = False
            self._show()
            return True
        return False

    def _undone(self, done: bool) -> None:
        self.message = self.t("majority.undone" if done else "majority.nothing_to_undo")
        if done:
            self.mode = "board"
        self._show()

    def acting(self) -> str:
        return self.game.acting()

    def offered(self) -> list[tuple[dict, list[dict]]]:
        return self.game.offered()

    # --- sentences ----------------------------------------------------------------------

    def power_text(self, power: dict) -> str:
        """The engine's sentence for a power, from the catalog of the screen's language."""
        g, code, params = self.spec.game, power["code"], power["params"]
        fmt: dict[str, object] = {"player": power["player"], **params}
        if power["family"] is not None:
            fmt["family"] = self.kind_name(power["family"], plural=True)
        key = f"{g}.power.{code}"
        if g == "choson" and code == "take_vp" and not power["must"]:
            key += "_from"
        elif code == "sword" and params["n"] > 1:
            key += "_left"
        elif code == "riposte":
            turn = self.view["turn"]
            fmt["attacker"] = self.view["current_player"]
            fmt["character"] = self.kind_name(turn["character"])
            fmt["token"] = self.t(f"{g}.token.{TOKENS[turn['riposte'][1]]}")
        return self.t(key, **fmt)

    def protection_text(self, prot: dict) -> str:
        g = self.spec.game
        return self.t(
            f"{g}.protection.{prot['family']}" if g == "koryo" else f"{g}.protection.shield",
            player=prot["player"],
            family=self.kind_name(prot["family"], plural=True),
        )

    def limit_texts(self) -> list[str]:
        """Players over the end-of-round limit (during the round: a warning ahead; at the end:
        those whose discard power does not already say it, Koryŏ's events)."""
        v = self.view
        discarding = {pw["player"] for pw in v["powers"] if pw["code"] == "discard"}
        out = []
        for check in v["limits"]:
            if check["counted"] > check["limit"] and check["player"] not in discarding:
                out.append(self.t(f"{self.spec.game}.over_limit", player=check["player"],
                                  counted=check["counted"], limit=check["limit"]))
        return out

    def breaker_text(self) -> str:
        """Which tie-breaker is in force during the rounds."""
        v, g = self.view, self.spec.game
        if g == "koryo":
            if v["omniscient"]:
                return self.t("koryo.breaker", player=v["omniscient"],
                              family=self.kind_name(1, plural=True))
            return self.t("koryo.no_breaker", family=self.kind_name(1))
        if v["shield"]:
            return self.t("choson.breaker", player=v["shield"]["player"],
                          family=self.kind_name(v["shield"]["family"], plural=True))
        return self.t("choson.no_breaker")

    def token_texts(self) -> list[str]:
        """Chosŏn's tokens that follow majorities, and Yi's Legacy."""
        v = self.view
        if self.spec.game != "choson":
            return []
        out = []
        for key, who in (("return_fire", v["return_fire"]),
                         ("counter_attack", v["counter_attack"]), ("legacy", v["legacy"])):
            if who:
                out.append(self.t(f"choson.holds.{key}", player=who))
        return out

    def status(self) -> str:
        """What the table does now."""
        v = self.view
        phase, who = v["phase"], v["current_player"]
        if self.game.undo_request is not None:
            name = self.app.seats[self.game.undo_request].name
            return self.t("majority.undo_request", name=name)
        if phase == "setup":
            return self.t("majority.status.setup", player=v["first_player"], round=v["round"] + 1)
        if phase == "end":
            return self.t("majority.status.end", player=v["first_player"])
        if phase == "time_travel":
            return self.t("majority.status.time_travel", player=who)
        if not v["turn"]["revealed"]:
            return self.t("majority.status.reveal", player=who, n=v["deals"][who])
        return self.t("majority.status.main", player=who)

    # --- inputs -------------------------------------------------------------------------

    def step(self) -> None:
        action = self.game.next_step()
        if action is not None:
            self.dispatch(action)

    def open_entry(self) -> None:
        if self.game.can_enter():
            self.mode, self.entry, self.selected, self.message = "entry", {}, None, None
            self._layout()
            self.app.invalidate()

    def open_powers(self) -> None:
        if self.offered():
            self.mode, self.power_index, self.page, self.message = "powers", 0, 0, None
            self.picked = {}
            self._layout()
            self.app.invalidate()

    def back(self) -> None:
        self.mode, self.message = "board", None
        self._layout()
        self.app.invalidate()

    def on_button(self, event: ButtonEvent) -> None:
        """What the press did (the controller decides) is shown."""
        acting = self.game.acting()
        self.disarm()
        did = self.game.press(event)
        if did in (UNDONE, NOTHING_TO_UNDO):
            self._undone(did == UNDONE)
        elif did == UNDO_ASKED:
            self.message = None  # the request shows on the status line
            self.app.invalidate()
        elif did == NOT_YOUR_UNDO:
            seat = self.game.undo_seat()
            key = "majority.undo_not_yours" if seat is not None else "majority.undo_on_screen"
            self.message = self.t(key, name=self.app.seats[event.seat].name,
                                  player=self.app.seats[seat].name if seat is not None else "")
            self.app.invalidate()
        elif did == NOT_YOUR_TURN:
            self.message = self.t("majority.not_your_turn", name=self.app.seats[event.seat].name,
                                  player=acting)
            self.app.invalidate()
        elif did == STEPPED:
            self.message = None
            self._show()
        elif did == REFUSED:
            self.message = self.t("majority.refused", reason=self.refusal(self.game.refusal))
            self.app.invalidate()
        elif did == OPEN_ENTRY:
            self.open_entry()
        elif did == OPEN_POWERS:
            self.open_powers()

    # entry
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
            if "deck" in params:
                params["kind"] = self.kind_name(kind)
            self.message = self.t("majority.refused", reason=self.t(refused.key, **params))
            self.app.invalidate()
            return
        self.entry, self.message = counts, None
        self.app.invalidate()

    def reveal(self) -> None:
        if self.dispatch(self.game.reveal_action(self.entry)):
            self.entry = {}

    # powers
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
        for field in ("a_family", "b_family"):  # a swap names four things: abbreviated
            if field in fmt:
                fmt[field] = f"{fmt[field]} {self.abbr(str(fmt[field]))}"
        if "event" in fmt:
            fmt["event"] = self.kind_name(fmt["event"])
        key = f"majority.option.{name}"
        if "source" in fmt:
            key += "_from"
        return self.t(key, **fmt)

    def done(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()
        else:
            self.app.replace(SetupScreen(self.app, self.spec))

    # --- layout -------------------------------------------------------------------------

    def _layout(self) -> None:
        px = self.app.theme.px
        r = self.inner
        gap = px(6)
        bh = self.button_h()
        # Who acts and what, in large type at the top; the round and the bank under it.
        self.status_rect = pygame.Rect(r.x, r.y, r.w, px(29))
        self.banner_rect = pygame.Rect(r.x, self.status_rect.bottom, r.w, px(22))
        self.bar_rect = pygame.Rect(r.x, r.bottom - bh, r.w, bh)
        self.body = pygame.Rect(r.x, self.banner_rect.bottom + gap, r.w,
                                self.bar_rect.top - gap - self.banner_rect.bottom - gap)
        layout = {"board": self._layout_board, "entry": self._layout_entry,
                  "powers": self._layout_powers, "final": self._layout_final}[self.mode]
        layout()

    def _bar(self, items: list[tuple[str, Callable[[], None], str]]) -> None:
        gap = self.app.theme.px(8)
        self.buttons = [
            make_button(rect, label, fn, key)
            for rect, (label, fn, key) in zip(row_of(self.bar_rect, len(items), gap), items,
                                              strict=True)
        ]

    def home(self) -> None:
        """Back to Home; the game stays unfinished in the journal (the menu resumes it)."""
        log.info("%s game %d left unfinished for Home", self.spec.game,
                 self.game.session.game_id)
        if len(self.app.screens) > 1:
            self.app.pop()
        else:
            from companion.ui.home import HomeScreen

            self.app.replace(HomeScreen(self.app))

    def _layout_board(self) -> None:
        items = [(self.t("majority.home"), self.home, "home"),
                 (self.t("majority.undo_sure" if self.undo_armed else "majority.undo"),
                  self.undo, "undo")]
        if self.game.can_enter():
            items.append((self.t("majority.enter", player=self.view["current_player"]),
                          self.open_entry, "entry"))
        if self.offered():
            items.append((self.t("majority.powers"), self.open_powers, "powers"))
        step = self.game.next_step()
        if step is not None:
            items.append((self.t(f"majority.step.{step['action']}"), self.step, "step"))
        self._bar(items)
        px = self.app.theme.px
        head_h, row_h = self.board_metrics()
        top = self.body.y + head_h + row_h * len(self.view["players"]) + px(4)
        self.info_rect = pygame.Rect(self.body.x, top, self.body.w, self.body.bottom - top)
        self.info_pages = self._info_pages()
        self.info_page %= len(self.info_pages)
        if len(self.info_pages) > 1:  # the whole board is the big target of "more"
            self.buttons.append(make_button(self.body, "", self.next_info, "more"))

    def _layout_entry(self) -> None:
        px = self.app.theme.px
        gap = px(6)
        kinds = self.kinds
        cols = math.ceil(len(kinds) / 2)
        h = (self.body.h - gap) // 2
        self.tiles: dict[str, pygame.Rect] = {}
        for row in range(2):
            rect = pygame.Rect(self.body.x, self.body.y + row * (h + gap), self.body.w, h)
            for kind, cell in zip(kinds[row * cols:(row + 1) * cols], row_of(rect, cols, gap),
                                  strict=False):
                self.tiles[kind] = cell
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
        self.power_rect = pygame.Rect(self.body.x, self.body.y, self.body.w, px(22))
        grid = pygame.Rect(self.body.x, self.power_rect.bottom + gap, self.body.w,
                           self.body.bottom - self.power_rect.bottom - gap)
        h = (grid.h - gap) // 2
        page = shown[self.page * per_page:(self.page + 1) * per_page]
        cells = [c for row in range(2) for c in row_of(
            pygame.Rect(grid.x, grid.y + row * (h + gap), grid.w, h), columns, gap)]
        self.option_buttons = []
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

    def _layout_final(self) -> None:
        """The shared winner screen (companion/ui/winner.py) over the whole canvas."""
        final = self.view["final"]
        rows = [("families", self.t("majority.final.families")), *(
            (k, label) for label, k in self.final_rows())]

        def cell(pl: dict, key: str) -> str:
            if key != "families":
                return str(pl["breakdown"][key])
            scored = [str(f["family"]) for f in final["families"] if f["holder"] == pl["name"]]
            total = sum(pl["breakdown"][f"family_{f}"] for f in scored)
            return f"{'+'.join(scored)} = {total}" if len(scored) > 1 else str(total)

        self.winner = WinnerView(
            self.app, self.spec.game,
            [Standing(pl["name"], str(pl["total"]), [cell(pl, k) for k, _ in rows])
             for pl in final["players"]],
            [label for _, label in rows], final["winners"],
            [(self.t("majority.done"), self.done, "done")], self.game.played)
        self.buttons = self.winner.buttons

    # --- drawing ------------------------------------------------------------------------

    def banner(self) -> str:
        v = self.view
        s = v["season"]  # one round number: the prompt's, the banner's, Home's
        return self.t("majority.banner.round", round=s["round"], rounds=v["rounds"],
                      deal=s["deal"], limit=s["limit"])

    def draw(self, p: Painter) -> None:
        if self.mode == "final":
            self.winner.draw(p)
            return
        felt(p, self.ring, self.app.backend, self.app.clock.now_ms())
        font = self.app.theme.font(self.app.theme.px(SMALLEST))
        if self.message and font.size(self.message)[0] > self.status_rect.w:
            self._draw_alert(p, font)  # a long refusal takes the banner's place
        else:
            self._draw_banner(p, font)
        {"board": self._draw_board, "entry": self._draw_entry, "powers": self._draw_powers,
         }[self.mode](p)
        for button in self.buttons:
            if getattr(button, "key", "") == "undo" and self.game.undo_request is not None:
                glow = button.rect.inflate(self.app.theme.px(6), self.app.theme.px(6))
                pygame.draw.rect(p.surface, th.WARNING, glow, border_radius=glow.h // 4)
            key = getattr(button, "key", "")
            if not key.startswith("kind-") and key != "more":
                button.draw(p)

    def _draw_banner(self, p: Painter, font: pygame.font.Font) -> None:
        v = self.view
        left = self.banner_rect.copy()
        left.w = self.banner_rect.w * 3 // 5
        right = pygame.Rect(left.right, left.y, self.banner_rect.w - left.w, left.h)
        self.draw_text(p, self.banner(), 25, th.INK_SOFT, left)
        fmt = {"bank": v["bank"], "tokens": v["vp_tokens"]}
        room = right.w - font.size(self.t("majority.banner.side", player="", **fmt))[0]
        side = self.t("majority.banner.side", player=shorten(v["first_player"], font, room),
                      **fmt)
        self.draw_text(p, side, 24, th.WARNING, right, "right")
        if self.mode == "powers" and self.pick_field is not None:
            status = self.t(f"majority.pick.{self.pick_field}")  # what the buttons choose
        else:
            status = self.status()
        status = self.message or status
        warn = self.message is not None or self.game.undo_request is not None
        # Last resort for long names: the line ends with an ellipsis rather than cut off.
        headline(p, status, self.status_rect, th.WARNING if warn else th.INK)

    def _draw_alert(self, p: Painter, font: pygame.font.Font) -> None:
        """A message too long for the status line, over the banner and status lines."""
        px = self.app.theme.px
        band = self.banner_rect.union(self.status_rect)
        pygame.draw.rect(p.surface, th.WARNING_BG, band, border_radius=px(8))
        inner = band.inflate(-px(16), -px(4))
        line_h = font.get_linesize()
        lines = p.lines(self.message or "", font, inner.w)
        fit = max(1, inner.h // line_h)
        if len(lines) > fit:
            lines = lines[: fit - 1] + [shorten(" ".join(lines[fit - 1:]), font, inner.w)]
        y = inner.centery - line_h * len(lines) // 2
        for line in lines:
            p.text(line, font, th.WARNING, pygame.Rect(inner.x, y, inner.w, line_h), "left")
            y += line_h

    def board_columns(self) -> list[str]:
        g = self.spec.game
        return [str(v) for v in sorted(self.names, reverse=True)] + (
            list(self.events) if g == "koryo" else ["kept"]
        ) + ["vp"]

    def _draw_board(self, p: Painter) -> None:
        if len(self.info_pages) > 1:
            p.targets.append(self.body)  # a tap on the board turns the "more" pages
        if self.info_page:
            self._draw_info(p, self.body, self.info_pages[self.info_page])
            return
        px = self.app.theme.px
        v = self.view
        players = v["players"]
        cols = self.board_columns()
        head_h, row_h = self.board_metrics()
        figure = min(FIGURE, row_h / self.app.theme.unit + 4)  # units, within its row
        name_w = self.body.w * 2 // 15
        col_w = (self.body.w - name_w) // len(cols)
        x0 = self.body.x + name_w
        y = self.body.y
        majorities = {m["family"]: m for m in v["majorities"]}
        for i, col in enumerate(cols):
            cell = pygame.Rect(x0 + i * col_w, y, col_w, head_h // 2)
            if col.isdigit():
                self.draw_text(p, col, 30, th.INK_SOFT, cell, "center")
                label = self.abbr(col)
            else:
                label = self.abbr(col) if col in self.events else self.t(f"majority.col.{col}")
            self.draw_text(p, label, 22, th.INK_SOFT, cell.move(0, head_h // 2), "center")
        y += head_h
        for player in players:
            row = pygame.Rect(self.body.x, y, self.body.w, row_h)
            seat = self.seat_of(player)
            colour = self.app.seats[seat].colour if seat < len(self.app.seats) else th.INK
            pygame.draw.rect(p.surface, colour, pygame.Rect(row.x, row.y + px(4), px(5),
                                                            row_h - px(8)))
            name_box = pygame.Rect(row.x + px(9), row.y, name_w - px(11), row_h)
            is_current = player == v["current_player"]
            self.name_text(p, player, 28, th.WARNING if is_current else th.INK, name_box)
            area = v["areas"][player]
            for i, col in enumerate(cols):
                cell = pygame.Rect(x0 + i * col_w, y, col_w, row_h).inflate(-px(3), -px(2))
                if col == "vp":
                    n, mark = v["tokens"][player], ""
                elif col == "kept":
                    n, mark = v["kept_events"][player], ""
                else:
                    n, mark = area.get(col, 0), ""
                ink = th.INK if n else th.INK_DIM
                m = majorities.get(int(col)) if col.isdigit() else None
                if m is not None and m["holder"] == player:
                    pygame.draw.rect(p.surface, th.FELT_EDGE, cell, border_radius=px(5))
                    ink = th.BUTTON_INK
                    mark = "*" if m["tie_breaker"] else ""
                elif m is not None and player in m["tied"]:
                    pygame.draw.rect(p.surface, th.WARNING, cell, width=max(1, px(2)),
                                     border_radius=px(5))
                    mark = "="
                self.draw_text(p, f"{n}{mark}" if n else "·", figure, ink, cell, "center")
            y += row_h
        self._draw_info(p, self.info_rect, self.info_pages[0])

    def info_lines(self) -> tuple[list[Line], list[Line]]:
        """What is said under the board, as lines of one or two (text, colour) items:
        powers and protections (a line each, two when long), then limit warnings, the
        tie-breaker and Chosŏn's tokens (two a line). When a cell shows ``*`` the
        tie-breaker comes first: it is also returned apart, to head every "more" page."""
        px, v = self.app.theme.px, self.view
        p = Painter(self.app.canvas, self.app.theme)
        font = self.app.theme.font(px(SMALLEST))
        width = self.body.w
        warnings = self.limit_texts()
        wide = [(self.power_text(pw), th.INK) for pw in v["powers"]] + [
            (self.protection_text(pr), th.INK_SOFT) for pr in v["protections"]
        ]
        breaker = [(self.breaker_text(), th.INK_SOFT)]
        broken = any(m["tie_breaker"] for m in v["majorities"])  # a cell shows "*": say why
        narrow = [(w, th.WARNING) for w in warnings] + ([] if broken else breaker) + [
            (line, th.INK_SOFT) for line in self.token_texts()
        ]
        half = (width - px(10)) // 2
        pinned: list[Line] = []
        for text, colour in breaker if broken else []:
            pinned += [[(part, colour)] for part in p.lines(text, font, width)]
        lines = list(pinned)
        for text, colour in wide:  # a sentence too long for one line takes two
            lines += [[(part, colour)] for part in p.lines(text, font, width)]
        pair: Line = []
        for item in narrow:  # short ones two a line
            if font.size(item[0])[0] > half:
                lines += [[(part, item[1])] for part in p.lines(item[0], font, width)]
                continue
            pair.append(item)
            if len(pair) == 2:
                lines.append(pair)
                pair = []
        if pair:
            lines.append(pair)
        return lines, pinned

    def board_metrics(self) -> tuple[int, int]:
        """The board's header and row heights: as large as ROW_H allows, leaving two lines
        under the board (the rest goes on "more" pages)."""
        px = self.app.theme.px
        head_h = px(HEAD_H)
        room = self.body.h - head_h - px(4) - 2 * px(INFO_LINE)
        return head_h, max(px(18), min(px(ROW_H), room // len(self.view["players"])))

    def _info_pages(self) -> list[list[Line]]:
        """The lines under the board, and when they do not all fit there, "more" pages over
        the whole board (the tie-breaker line first on each); every page but the last ends
        with how many more there are, the last with how to get back to the board."""
        lines, pinned = self.info_lines()
        line_h = self.app.theme.px(INFO_LINE)
        fit = max(1, self.info_rect.h // line_h)
        if len(lines) <= fit:
            return [lines]
        chunks = [lines[: fit - 1]]
        rest = lines[max(fit - 1, len(pinned)):]
        per = max(1, self.body.h // line_h - len(pinned) - 1)
        chunks += [pinned + rest[i:i + per] for i in range(0, len(rest), per)]
        pages = []
        for i, chunk in enumerate(chunks):
            if i + 1 < len(chunks):
                hidden = sum(len(line) for line in rest[i * per:])
                footer = self.t("majority.more_lines", n=hidden)
            else:
                footer = self.t("majority.info_back")
            pages.append(chunk + [[(footer, th.INK_SOFT)]])
        return pages

    def next_info(self) -> None:
        """The next "more" page of the lines under the board (after the last: the board)."""
        self.info_page = (self.info_page + 1) % len(self.info_pages)
        self.app.invalidate()

    def _draw_info(self, p: Painter, rect: pygame.Rect, lines: list[Line]) -> None:
        px = self.app.theme.px
        line_h = px(INFO_LINE)
        for i, line in enumerate(lines):
            row = pygame.Rect(rect.x, rect.y + i * line_h, rect.w, line_h)
            for (text, colour), cell in zip(line, row_of(row, len(line), px(10)), strict=True):
                self.draw_text(p, text, 22, colour, cell)

    def _draw_entry(self, p: Painter) -> None:
        px = self.app.theme.px
        for kind, rect in self.tiles.items():
            n = self.entry.get(kind, 0)
            selected = kind == self.selected
            fill = th.BUTTON_PRESSED if selected else (th.BUTTON if n else th.PLATE)
            pygame.draw.rect(p.surface, fill, rect, border_radius=px(10))
            ink = th.BUTTON_INK if (selected or n) else th.INK
            top = pygame.Rect(rect.x + px(4), rect.y + px(2), rect.w - px(8), rect.h * 2 // 5)
            mid = pygame.Rect(rect.x + px(4), top.bottom, rect.w - px(8), rect.h - top.h - px(2))
            label = f"{kind} {self.abbr(kind)}" if kind.isdigit() else self.abbr(kind)
            self.draw_text(p, label, 24, ink, top, "center")
            self.draw_text(p, str(n) if n else "·", 36, ink, mid, "center")
            p.targets.append(rect)

    def _draw_powers(self, p: Painter) -> None:
        chosen = self.power_options()
        if chosen:
            self.draw_text(p, self.power_text(chosen[0]), 22, th.WARNING, self.power_rect)

    def final_headline(self) -> str:
        winners = self.view["final"]["winners"]
        key = "majority.final.winner" if len(winners) == 1 else "majority.final.shared"
        return self.t(key, names=", ".join(winners))

    def final_rows(self) -> list[tuple[str, str]]:
        g = self.spec.game
        keys = ["events", "tokens"] if g == "koryo" else [
            "tokens", "kept_events", "first_player", "yi_legacy"]
        return [(self.t(f"majority.final.{k}"), k) for k in keys]

    def describe(self) -> str:
        v = self.view
        if self.mode == "final":
            totals = ", ".join(f"{pl['name']} {pl['total']}" for pl in v["final"]["players"])
            return f"{self.name} | {self.final_headline()} | {totals}"
        holders = " ".join(
            f"{m['family']}:{m['holder'] or ('=' if m['tied'] else '-')}" for m in v["majorities"]
        )
        parts = [self.name, self.banner(), self.message or self.status(), holders]
        if self.mode == "entry":
            parts.append(str(self.entry))
        parts += [self.power_text(pw) for pw in v["powers"]]
        return " | ".join(parts)


# ------------------------------------------------------------------------------ module API


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
    return None if game is None else GameScreen(app, spec, game)
