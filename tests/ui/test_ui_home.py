"""Home (companion.ui.home): a button per menu game plus Table check; a tap opens the
game's first screen (``new_game(app)``), the game comes back with ``app.pop()`` and finds
every light off; a table the game refuses is said, not crashed on; seat buttons only light
their seat; at start the latest unfinished journaled game on the menu is resumed through
its module's ``resume(app, game_id)``.

Real App loop under SDL's dummy driver, taps as touch events; the menu is replaced by fake
game modules (``sys.modules``) so the contract itself is what is tested."""

from __future__ import annotations

import sys
import types

import pygame
import pytest

from companion.play.errors import RuleError
from companion.play.seat import Light, Press
from companion.play.turns import Turns
from companion.ui import screens
from companion.ui.app import App, Screen
from companion.ui.home import HomeScreen, resume_unfinished
from companion.ui.table_check import TableCheckScreen


class GameScreen(Screen):
    name = "fake-game"

    def __init__(self, app: App, game_id: int | None = None) -> None:
        super().__init__(app)
        self.game_id = game_id

    def turns(self) -> Turns:
        return Turns(marks={0: Light.FIRST_PLAYER})

    def draw(self, p) -> None:
        p.surface.fill((0, 0, 0))


def fake_module(name: str, refuse: str | None = None) -> types.ModuleType:
    module = types.ModuleType(name)
    module.resumed = []

    def new_game(app):
        if refuse:
            raise RuleError("seats", refuse)
        return GameScreen(app)

    def resume(app, game_id):
        module.resumed.append(game_id)
        return GameScreen(app, game_id)

    module.new_game, module.resume = new_game, resume
    return module


@pytest.fixture
def menu(monkeypatch):
    """Two fake games on the menu: 'alpha' opens, 'beta' refuses a table of four."""
    alpha = fake_module("fake_alpha")
    beta = fake_module("fake_beta", refuse="4 seats, this game takes 5")
    monkeypatch.setitem(sys.modules, "fake_alpha", alpha)
    monkeypatch.setitem(sys.modules, "fake_beta", beta)
    entries = (
        screens.Entry("alpha", "koryo.menu", "fake_alpha"),
        screens.Entry("beta", "kd.menu", "fake_beta"),
    )
    monkeypatch.setattr(screens, "MENU", entries)
    return alpha, beta


def tap(app: App, rect: pygame.Rect) -> None:
    w, h = app.window.get_size()
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        x, y = rect.center
        pygame.event.post(
            pygame.event.Event(kind, x=x / w, y=y / h, dx=0, dy=0, touch_id=1, finger_id=0)
        )
    app.step(block=False)


def test_one_button_per_menu_entry_and_table_check(app, menu):
    home = HomeScreen(app)
    app.push(home)
    app.step(block=False)
    t = app.catalog.text
    assert [b.label for b in home.buttons] == [t("koryo.menu"), t("kd.menu"), t("home.table_check")]


def test_tap_opens_the_game_and_pop_returns_home_with_lights_off(app, menu):
    home = HomeScreen(app)
    app.push(home)
    app.step(block=False)
    tap(app, home.buttons[0].rect)
    assert isinstance(app.screen, GameScreen) and app.screens[0] is home
    assert app.backend.light(0) is Light.FIRST_PLAYER  # the game's own light
    app.pop()
    app.step(block=False)
    assert app.screen is home
    assert [app.backend.light(s) for s in range(len(app.seats))] == [Light.OFF] * len(app.seats)


def test_a_refused_table_is_said_on_home(app, menu):
    """new_game raising RuleError leaves Home on screen with the reason on its status line."""
    home = HomeScreen(app)
    app.push(home)
    tap(app, home.buttons[1].rect)
    assert app.screens == [home]
    assert "4 seats, this game takes 5" in home.status
    assert home.status in {box.text for box in app.painter.texts}


def test_a_slide_across_a_button_opens_nothing(app, menu):
    """A finger that goes down on one button and lifts on another triggers neither."""
    home = HomeScreen(app)
    app.push(home)
    w, h = app.window.get_size()
    for kind, rect in (
        (pygame.FINGERDOWN, home.buttons[0].rect),
        (pygame.FINGERUP, home.buttons[2].rect),
    ):
        x, y = rect.center
        pygame.event.post(pygame.event.Event(kind, x=x / w, y=y / h, touch_id=1, finger_id=0))
    app.step(block=False)
    assert app.screens == [home]


def test_seat_button_on_home_lights_only_that_seat(app, menu):
    home = HomeScreen(app)
    app.push(home)
    app.backend.press(2, "c", Press.LONG)
    app.step(block=False)
    assert [app.backend.light(s) for s in range(4)] == [
        Light.OFF,
        Light.OFF,
        Light.YOUR_TURN,
        Light.OFF,
    ]
    assert home.status == app.catalog.text("home.seat_here", name=app.seats[2].name)
    assert app.screens == [home]


def test_table_check_from_home_and_back(app, menu):
    home = HomeScreen(app)
    app.push(home)
    tap(app, home.buttons[-1].rect)
    check = app.screen
    assert isinstance(check, TableCheckScreen) and check.back_rect is not None
    app.backend.press(1, "a")
    app.step(block=False)
    assert app.backend.light(1) is Light.YOUR_TURN
    tap(app, check.back_rect)
    assert app.screens == [home]
    assert app.backend.light(1) is Light.OFF


def test_table_check_lights_off_keeps_the_answers(app, menu):
    """'Lights off' turns the lights off; which seat answered with which button stays."""
    check = TableCheckScreen(app)
    app.push(check)
    app.backend.press(1, "b")
    app.step(block=False)
    assert app.backend.light(1) is Light.YOUR_TURN
    tap(app, check.off_rect)
    assert app.backend.light(1) is Light.OFF
    assert check.row_text(1) == "B" and check.row_text(0) == "waiting…"
    assert check.progress() == "1 of 4 seats answered"


def test_resume_picks_the_latest_unfinished_game_on_the_menu(app, menu):
    """Unfinished: alpha (older), an off-menu game (newest), alpha (newer); finished: alpha.
    The newer unfinished alpha is resumed by id; the off-menu game is left alone."""
    alpha, _ = menu
    journal = app.journal
    done = journal.begin_game("alpha", {})
    journal.finish(done, {"winner": "Ana"})
    journal.begin_game("alpha", {})
    newer = journal.begin_game("alpha", {"n": 2})
    journal.begin_game("not-on-menu", {})
    screen = resume_unfinished(app)
    assert isinstance(screen, GameScreen) and screen.game_id == newer
    assert alpha.resumed == [newer]


def test_nothing_to_resume(app, menu):
    app.journal.begin_game("not-on-menu", {})
    assert resume_unfinished(app) is None
    app.journal = None
    assert resume_unfinished(app) is None
