"""A scripted 5-player King's Dilemma night with mock seat pads runs
through the session AND the screens. The real App loop and KD screens, the backend's
callbacks routed into the App exactly as ``companion run`` does (``App.start_backend``):

- the gpio backend on gpiozero's MockFactory with the shipped 5-seat wiring profile,
  contact chatter on every edge (our debounce in between), lights read back off the LED
  pins as blink patterns;
- the serial backend against the pad firmware on a pty (the events awaited from the
  backend's reader thread, no sleeps), lights read back from the firmware's own state.

The night: the rulebook's worked open vote cast on the pads (a refused press shown with
its reason, the moderator breaking the tie by holding Aye), its outcome on the kingdom
board, then a secret vote locked seat by seat, the reveal, an outcome. Each step checks
the screen's text and every pad's light (leader, moderator, your turn, ballot locked).
Secrecy: before the last lock the frame is identical for two different sealed ballots.
"""

from __future__ import annotations

import dataclasses
import queue
import random
from collections.abc import Callable

import pygame
import pytest
from fakes.pty_pad import WAIT, PtyPad
from pins import ChatteringPads, PinClock
from ui_kd import NAMES, RULEBOOK, frame, show, tap, tap_button, zero_award_table

from companion.games.kings_dilemma import campaign as kd_campaign
from companion.games.kings_dilemma.controller import NightController, ledger_for
from companion.hardware import padproto
from companion.hardware.gpio import GpioBackend
from companion.hardware.profile import load_profile, profile_path
from companion.hardware.serial_pad import SerialBackend
from companion.play.seat import Light
from companion.storage.journal import Journal
from companion.ui.app import App, ManualClock, make_app
from companion.ui.demo import demo_config
from companion.ui.screens.kings_dilemma import start as kd_ui

FIVE = load_profile(profile_path("gpio-5-seats"))
L, M, K, T, O, A = (Light.LEADER, Light.MODERATOR, Light.BALLOT_LOCKED, Light.YOUR_TURN,
                    Light.OFF, Light.ATTENTION)
# Diana's sealed ballot in the secret vote: two different ones, the same screen until the
# last lock.
NAY_2, AYE_1 = "b b B", "a A"


def open_app(backend, tmp_path) -> tuple[App, NightController, Journal]:
    """The App on ``backend`` (callbacks routed by ``start_backend``), the rulebook's five
    seats; Théodore leads (highest house number), Julius moderates (lowest)."""
    config = dataclasses.replace(demo_config((800, 480), "en"), seats=RULEBOOK)
    journal = Journal(tmp_path / "journal.db")
    app = make_app(config, backend, clock=ManualClock(0), journal=journal)
    pygame.event.clear()
    campaign = kd_campaign.new_campaign(kd_campaign.Settings(
        8, 10, (1, 12), ("opulence", "avarice", "rebellion", "moderation", "extremism"),
        zero_award_table()))
    for name, number in zip(NAMES, (9, 1, 2, 3, 4), strict=True):
        campaign = kd_campaign.apply(campaign, kd_campaign.AddHouse(name, number))
    momenta = {"influence": "up", "prosperity": "up", "morale": "down", "welfare": "up",
               "knowledge": "up"}
    table = NightController.new(NAMES, journal, momenta=momenta, campaign=campaign,
                        ledger=ledger_for(journal))
    return app, table, journal


def night(app: App, table: NightController, press: Callable[[int, str], None],
          seen: Callable[[], list[Light]], diana: str) -> bytes:
    """The scripted night; ``press(seat, keys)`` presses ``keys`` on the seat's pad (lower
    case short, upper case long), each handled by the App loop; ``seen()`` reads every
    pad's light off the hardware. Returns the frame just before the secret vote's last
    lock."""
    t = app.catalog.text
    show(app, kd_ui.CouncilScreen(app, table))
    assert seen() == [T, M, O, O, O]  # the Leader reads the dilemma
    tap_button(app, t("kd.council.open_vote"))
    assert isinstance(app.screen, kd_ui.VoteScreen) and seen() == [T, M, O, O, O]
    press(1, "a")  # not Julius's turn: refused, the reason on screen
    assert t("kd.vote.refused", name="Julius", reason="it is Théodore's turn, not Julius's") \
        in app.screen.describe()
    press(0, "C")  # Théodore passes to become moderator
    assert seen() == [L, T, O, O, O]
    for seat, keys in ((1, "a A"), (2, "b B"), (3, "a A"), (4, "b b b b")):
        press(seat, keys)
    assert "Frances: Nay 4?" in app.screen.describe()  # the pending choice on turn is public
    press(4, "B")
    for seat, keys in ((1, "a a a A"), (2, "b B")):
        press(seat, keys)
    assert seen() == [M, O, O, T, L]  # Frances leads (Nay 4), Diana's turn
    press(3, "a A")
    assert isinstance(app.screen, kd_ui.RevealScreen)
    assert t("kd.reveal.tie", name="Théodore", aye=6, nay=6) in app.screen.describe()
    assert seen() == [A, O, O, O, L]
    press(0, "A")  # the moderator holds Aye: the tie is broken
    assert t("kd.reveal.balance", before=3, after=9) in app.screen.describe()
    assert seen() == [M, T, O, O, O]  # Julius leads (reads the outcome), Théodore moderates
    tap_button(app, t("kd.reveal.outcome"))
    tap(app, app.screen.steppers()["morale"][2])
    tap_button(app, t("kd.outcome.apply"))
    assert isinstance(app.screen, kd_ui.KingdomScreen)
    assert "Morale -2 down+marker" in app.screen.describe()
    tap_button(app, t("kd.kingdom.next"))
    assert t("kd.council.title", number=2) in app.screen.describe()
    assert seen() == [M, T, O, O, O]  # Julius reads dilemma 2

    tap_button(app, t("kd.council.secret_vote"))
    assert seen() == [T, T, T, T, T]  # every seat to lock: its turn
    for seat, keys, after in ((3, diana, [T, T, T, K, T]), (1, "a A", [T, K, T, K, T]),
                              (4, "a a a", [T, K, T, K, T]),  # pending only
                              (0, "c A", [K, K, T, K, T]), (2, "C", [K, K, K, K, T])):
        press(seat, keys)
        assert seen() == after
        locked = sum(1 for light in after if light is K)
        assert t("kd.vote.locked_count", count=locked, total=5) in app.screen.describe()
    assert "Diana: " + t("kd.vote.locked") in app.screen.describe()
    before = frame(app)
    press(4, "A")  # the last lock: every ballot revealed at once
    assert isinstance(app.screen, kd_ui.RevealScreen)
    shown = app.screen.describe()
    assert ("Diana: Nay 2" if diana == NAY_2 else "Diana: Aye 1") in shown
    assert "Frances: Aye 3" in shown and "Julius: Aye 1" in shown
    assert seen() == [O, O, M, O, T]  # Frances leads (reads), Armin (first claimant) moderates
    tap_button(app, t("kd.reveal.outcome"))
    tap(app, app.screen.steppers()["welfare"][4])
    tap_button(app, t("kd.outcome.apply"))
    assert isinstance(app.screen, kd_ui.KingdomScreen)
    welfare = table.kingdom.resource("welfare")  # white, no marker, +1: moves 2, marker
    assert (welfare.position, welfare.marker) == (2, True)
    assert "Welfare +2 up+marker" in app.screen.describe()
    assert seen() == [O, O, M, O, T]
    return before


# -- gpio on gpiozero's MockFactory -----------------------------------------------------------


@pytest.fixture
def pins(pins):
    """conftest's mock pins, and pygame's queue and display closed after."""
    yield pins
    pygame.event.clear()
    pygame.display.quit()


def gpio_night(pins, tmp_path, diana: str, seed: int) -> bytes:
    tmp_path.mkdir()
    rng = random.Random(seed)
    clock = PinClock()
    backend = GpioBackend(FIVE, 5, clock=clock, worker=False, debounce_ms=20,
                          long_press_ms=700)
    app, table, journal = open_app(backend, tmp_path)
    app.start_backend()

    pads = ChatteringPads(pins, clock, backend, FIVE, rng, lambda: app.step(block=False))

    try:
        return night(app, table, pads.press, pads.seen, diana)
    finally:
        backend.close()
        journal.close()


def test_kd_night_on_gpio_pads_through_the_screens(pins, tmp_path):
    """Open vote, tie, outcome, secret vote, reveal, outcome — by chattering gpio pins;
    the frame before the last lock is the same for Diana's sealed Nay 2 and Aye 1."""
    nay = gpio_night(pins, tmp_path / "nay", NAY_2, seed=4)
    pins.reset()
    aye = gpio_night(pins, tmp_path / "aye", AYE_1, seed=5)
    assert nay == aye, "a sealed ballot shows on screen before the last lock"


# -- serial pads on a pty ---------------------------------------------------------------------


def serial_night(tmp_path, diana: str) -> bytes:
    tmp_path.mkdir()
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"
    pad = PtyPad(link)
    backend = SerialBackend(str(link), 5, heartbeat_timeout_ms=60_000, debounce_ms=25,
                            long_press_ms=400)
    app, table, journal = open_app(backend, tmp_path)
    posted: queue.Queue = queue.Queue()
    route = app.post_button

    def observed(event) -> None:  # the App's own routing, and a note that it happened
        route(event)
        posted.put(event)

    app.post_button = observed
    app.start_backend()
    pad.pump_until(lambda: len(pad.sent(padproto.LIGHT)) >= 5, "the lights")

    def press(seat: int, keys: str) -> None:
        for key in keys.split():
            pad.press(seat, key.lower(), hold_ms=500 if key.isupper() else 100)
            event = posted.get(timeout=WAIT)  # from the backend's reader thread
            assert (event.seat, event.button, event.press.value) == (
                seat, key.lower(), "long" if key.isupper() else "short")
            app.step(block=False)

    def seen() -> list[Light]:
        """The pad firmware's own light states, once every light sent has arrived."""
        wanted = [backend.light(s).value for s in range(5)]
        pad.pump_until(lambda: pad.pad.lights == wanted, f"lights {wanted}")
        return [Light(name) for name in pad.pad.lights]

    try:
        before = night(app, table, press, seen, diana)
        with pytest.raises(queue.Empty):
            posted.get_nowait()  # no press lost or invented
        return before
    finally:
        backend.close()
        pad.unplug()
        journal.close()
        pygame.event.clear()
        pygame.display.quit()


def test_kd_night_on_serial_pads_through_the_screens(tmp_path):
    """The same night on the serial pads (firmware on a pty); the frame before the last
    lock is the same for Diana's sealed Nay 2 and Aye 1."""
    nay = serial_night(tmp_path / "nay", NAY_2)
    aye = serial_night(tmp_path / "aye", AYE_1)
    assert nay == aye, "a sealed ballot shows on screen before the last lock"

