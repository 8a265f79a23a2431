"""Koryŏ at the table with the gpio backend instead of the simulator: one full round played
with seat buttons pressed through gpiozero's MockFactory pins (with contact chatter, our
debounce in between) and taps on the screen, and the first-player light read back off the
LED pins (a plain LED: steady on, hardware/WIRING.md). The real GpioBackend, App loop and
Koryŏ screens run; only the pins are mocks."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pygame
import pytest

from companion.hardware.gpio import PLAIN_PATTERNS, GpioBackend
from companion.hardware.profile import load_profile, profile_path
from companion.play.seat import Light
from companion.play.words import Words
from companion.storage.journal import Journal
from companion.ui.app import ManualClock, make_app
from companion.ui.demo import DemoContext, demo_config
from companion.ui.screens.majority import koryo
from companion.ui.screens.majority.game import GameScreen
from companion.ui.screens.majority.setup import SetupScreen

FIVE = load_profile(profile_path("gpio-5-seats"))
STEPS = 16  # 100 ms samples of each LED pin: 1.6 s, a whole cycle of every pattern


@pytest.fixture
def rig(tmp_path, pins, clock):
    config = demo_config((800, 480), "en")  # the shipped four seats: Ana, Ben, Cleo, Dan
    backend = GpioBackend(FIVE, len(config.seats), clock=clock, worker=False,
                          long_press_ms=config.hardware.long_press_ms)
    journal = Journal(tmp_path / "journal.sqlite")
    app = make_app(config, backend, clock=ManualClock(1000), journal=journal)
    app.start_backend()
    pygame.event.clear()
    rng = random.Random(3)

    def level(pin, pressed: bool) -> None:
        """Drive a button pin (active low) to ``pressed`` through up to 5 ms of bounce."""
        for _ in range(rng.randrange(0, 4)):
            (pin.drive_high if pressed else pin.drive_low)()
            clock.t += rng.randint(0, 1)
            (pin.drive_low if pressed else pin.drive_high)()
            clock.t += rng.randint(0, 1)
        (pin.drive_low if pressed else pin.drive_high)()

    def press(seat: int, button: str, hold_ms: int = 150) -> None:
        """Seat ``seat``'s ``button`` pin pressed for ``hold_ms`` (700 or more: a long
        press, delivered at the threshold while held), then the app runs one step."""
        pin = pins.pin(dict(FIVE.seats[seat].buttons)[button])
        level(pin, True)
        clock.t += hold_ms
        backend.poll()
        level(pin, False)
        clock.t += 40
        backend.poll()
        app.step(block=False)

    def leds() -> dict[int, str]:
        """Each seat's LED pin sampled every 100 ms for ``STEPS`` steps ("1" lit), from
        the start of a 1.6 s period (where every light's pattern starts)."""
        seen = {seat: "" for seat in range(len(config.seats))}
        start = (clock.t // 1600 + 1) * 1600
        for step in range(STEPS):
            clock.t = start + step * 100
            backend.poll()
            for seat in seen:
                seen[seat] += "1" if pins.pin(FIVE.seats[seat].led).state else "0"
        return seen

    ctx = DemoContext(app, backend, app.clock, tmp_path)
    yield SimpleNamespace(app=app, ctx=ctx, press=press, leds=leds, journal=journal)
    backend.close()
    journal.close()
    pins.reset()
    pygame.event.clear()
    pygame.display.quit()


def only_first_player(seat: int, seats: int = 4) -> dict[int, str]:
    """The LED pins when ``seat`` holds the first-player token: its plain LED steady on
    (FIRST_PLAYER's pattern), every other seat's dark."""
    lit = (PLAIN_PATTERNS[Light.FIRST_PLAYER] * STEPS)[:STEPS]
    return {s: lit if s == seat else "0" * STEPS for s in range(seats)}


def in_game(first: int, acting: int | None = None, seats: int = 4) -> dict[int, str]:
    """The LED pins during a game: the acting seat (the first player's between turns)
    blinks YOUR_TURN, the first player's seat, when another acts, shows FIRST_PLAYER."""
    acting = first if acting is None else acting
    out = {s: "0" * STEPS for s in range(seats)}
    out[first] = (PLAIN_PATTERNS[Light.FIRST_PLAYER] * STEPS)[:STEPS]
    out[acting] = (PLAIN_PATTERNS[Light.YOUR_TURN] * STEPS)[:STEPS]
    return out


def test_a_koryo_round_by_gpio_pins_and_the_first_player_led(rig):
    """Set-up from the pads (A takes Dan out, B makes Ben first), then round 1 for Ana, Ben
    and Cleo: Ben starts it with A; each player opens their card entry with B, taps the
    cards, reveals, ends the turn with A; a press from the wrong seat is refused; a long
    press asks for an undo and a second long press of that seat confirms it; Ben closes
    the round with A and the token passes clockwise to Cleo. The LED pins show, at each
    step, the acting seat's fast blink and the first player's light, every other dark."""
    app, ctx, press = rig.app, rig.ctx, rig.press
    ctx.show(koryo.new_game(app))
    setup = app.screen
    assert isinstance(setup, SetupScreen)
    press(3, "a")  # Dan watches
    press(1, "b")  # Ben starts
    assert setup.players() == [0, 1, 2] and setup.first == 1
    assert rig.leds() == only_first_player(1)
    ctx.tap(setup.button("start").rect, "start")
    screen = app.screen
    assert isinstance(screen, GameScreen)
    assert screen.view["first_player"] == "Ben" and rig.leds() == in_game(first=1)

    press(2, "a")  # Cleo is not the one to start the round: refused, nothing happens
    assert screen.view["phase"] == "setup"
    assert screen.message is None  # answered on Cleo's own plate, the table's line kept
    assert screen.seat_views()[2].reply == Words("seat.reply.not_your_turn", {"player": "Ben"})
    press(1, "a")
    assert (screen.view["round"], screen.view["current_player"]) == (1, "Ben")
    orders = {"Ben": {"9": 3}, "Cleo": {"7": 2}, "Ana": {"8": 1}}
    seat = {"Ana": 0, "Ben": 1, "Cleo": 2}
    for player, cards in orders.items():
        assert screen.view["current_player"] == player
        press(seat[player], "b")
        assert screen.mode == "entry"
        for kind, n in cards.items():
            for _ in range(n):
                ctx.tap(screen.tiles[kind], kind)
        ctx.tap(screen.button("reveal").rect, "reveal")
        assert screen.view["areas"][player] == cards
        if player == "Ana":  # a long press asks, a second one from the same seat undoes
            press(0, "a", hold_ms=800)
            assert screen.game.undo_request == 0 and screen.view["areas"]["Ana"] == cards
            press(0, "a", hold_ms=800)
            assert screen.view["areas"]["Ana"] == {} and not screen.view["turn"]["revealed"]
            press(0, "b")
            ctx.tap(screen.tiles["8"], "8")
            ctx.tap(screen.button("reveal").rect, "reveal")
        press(seat[player], "a")  # end of the turn: the next player acts (then Ben closes)
        after = {"Ben": "Cleo", "Cleo": "Ana", "Ana": "Ben"}[player]
        assert rig.leds() == in_game(first=1, acting=seat[after])
    assert screen.view["phase"] == "end"
    press(1, "a")  # Ben, the first player, closes the round
    view = screen.view
    assert (view["phase"], view["round"], view["first_player"]) == ("setup", 1, "Cleo")
    assert rig.leds() == in_game(first=2)
    assert [a["action"] for a in rig.journal.actions(screen.game.session.game_id)] == [
        "start_round", "reveal", "end_turn", "reveal", "end_turn", "reveal", "end_turn",
        "end_round"]
