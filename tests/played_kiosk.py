"""A kiosk built as ``companion run`` builds it (configuration, journal and history in its
data directory, simulated seats), played through its screens by a script, then left
waiting to be killed: ``python played_kiosk.py CONFIG GAME``. It prints ``lights: …``
(what every seat shows, as ``companion run`` logs it) once the script is done."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from companion.commands.run import JOURNAL_FILE
from companion.config import load_config
from companion.games.majority.autoplay import next_action
from companion.hardware.sim import SimBackend
from companion.play import lights as seat_lights
from companion.play.seat import Press
from companion.storage.history import History
from companion.storage.history import default_path as history_path
from companion.storage.journal import Journal
from companion.ui.app import ManualClock, make_app
from companion.ui.demo import DemoContext
from companion.ui.home import HomeScreen


def koryo(ctx: DemoContext) -> None:
    """Koryŏ for the four seats, Ben first: into round 2 (the first player token passed)."""
    home = ctx.app.screen
    ctx.tap(home.button(ctx.app.catalog.text("koryo.menu")).rect, "Koryŏ")
    setup = ctx.app.screen
    ctx.tap(setup.button("first").rect, "first player: Ben")
    ctx.tap(setup.button("start").rect, "start")
    screen = ctx.app.screen
    rng = random.Random(1)
    while screen.view["round"] < 2:
        screen.dispatch(next_action(screen.game.rules, screen.game.session.state, rng))
    ctx.press(screen.seat_of(screen.acting()), "a")  # round 2 starts
    screen.dispatch(next_action(screen.game.rules, screen.game.session.state, rng))


def choson(ctx: DemoContext) -> None:
    """Chosŏn for the four seats: a few actions into the first round."""
    home = ctx.app.screen
    ctx.tap(home.button(ctx.app.catalog.text("choson.menu")).rect, "Chosŏn")
    ctx.tap(ctx.app.screen.button("start").rect, "start")
    screen = ctx.app.screen
    rng = random.Random(2)
    for _ in range(3):
        screen.dispatch(next_action(screen.game.rules, screen.game.session.state, rng))


def inheritors(ctx: DemoContext) -> None:
    """An Inheritors score sheet for three seats, a yellow stack entered for the first."""
    home = ctx.app.screen
    ctx.tap(home.button(ctx.app.catalog.text("inheritors.menu")).rect, "Inheritors")
    setup = ctx.app.screen
    for seat in (0, 1, 2):
        ctx.tap(setup.seat_rects[seat], "seat")
    ctx.tap(setup.start_rect, "start")
    sheet = ctx.app.screen
    ctx.tap(sheet.field_rects["stack:yellow"], "yellow")
    ctx.tap(sheet.plus_rect, "+")


def kings_dilemma(ctx: DemoContext) -> None:
    """The King's Dilemma for the four seats: a secret vote with two ballots locked."""
    home = ctx.app.screen
    ctx.tap(home.button(ctx.app.catalog.text("kd.menu")).rect, "The King's Dilemma")
    ctx.tap(ctx.app.screen.buttons[-1].rect, "start")
    ctx.tap(ctx.app.screen.buttons[1].rect, "secret vote")
    for seat in (0, 2):
        ctx.press(seat, "a")
        ctx.press(seat, "a", Press.LONG)


def main(config_path: str, game: str) -> None:
    config = load_config(Path(config_path))
    config.data_dir.mkdir(parents=True, exist_ok=True)
    journal = Journal(config.data_dir / JOURNAL_FILE)
    history = History(config.data_dir / history_path().name)
    backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
    clock = ManualClock()
    app = make_app(config, backend, clock=clock, journal=journal, history=history)
    app.start_backend()
    app.push(HomeScreen(app))
    ctx = DemoContext(app, backend, clock, Path(config_path).parent)
    {"koryo": koryo, "kings-dilemma": kings_dilemma}[game](ctx)
    print("lights:", seat_lights.shown(backend, len(config.seats)), flush=True)
    sys.stdin.read()  # until killed


if __name__ == "__main__":
    main(*sys.argv[1:])
