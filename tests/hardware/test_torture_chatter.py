"""Chatter torture, end to end: 1,000 presses on gpiozero mock pins, every edge bouncing
for up to 5 ms, short and long presses mixed over 5 seats × 3 buttons, through the real
``GpioBackend`` (its debounce, the clock injected, ``poll()`` called at random moments:
in the middle of bounces, while held, between presses) into a ``Session`` journaled on
disk → exactly 1,000 actions, each the press that was made, in order.

``tests/hardware/test_hw_gpio.py`` proves the backend's event count with short presses and a poll
after each release; this adds long presses, polls at any moment and the session and
journal behind the backend.
"""

from __future__ import annotations

import random

from gpiozero.pins.mock import MockPin
from pins import PinClock

from companion.hardware.gpio import GpioBackend
from companion.hardware.profile import load_profile, profile_path
from companion.play.session import Session
from companion.storage.journal import Journal

PROFILE = load_profile(profile_path("gpio-5-seats"))
PRESSES = 1000
DEBOUNCE_MS = 20
LONG_MS = 700

PIN_CLASS = MockPin  # the ``pins`` fixture's (conftest.py): MockFactory()'s own


class Presses:
    """Rules that record every press as an action (the count is what is checked)."""

    name = "presses"

    def initial(self, setup: dict) -> tuple:
        return ()

    def apply(self, state: tuple, action: dict) -> tuple:
        return (*state, (action["seat"], action["button"], action["press"]))

    def public_view(self, state: tuple) -> dict:
        return {"presses": len(state)}


def test_thousand_bouncing_presses_through_backend_and_session_give_exactly_a_thousand_actions(
    pins, tmp_path
):
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    clock = PinClock(5_000_000)
    backend = GpioBackend(PROFILE, 5, clock=clock, worker=False, debounce_ms=DEBOUNCE_MS,
                          long_press_ms=LONG_MS)
    journal = Journal(tmp_path / "journal.db")
    session = Session.start(journal, Presses(), {})
    backend.start(lambda e: session.dispatch(
        {"seat": e.seat, "button": e.button, "press": e.press.value}))

    def advance(ms: int) -> None:
        """Let ``ms`` pass, the backend polled at random moments meanwhile."""
        end = clock.t + ms
        while clock.t < end:
            clock.t = min(end, clock.t + rng.randint(1, 40))
            if rng.random() < 0.5:
                backend.poll()

    def bounce(pin, pressed: bool) -> None:
        """Drive the pin to ``pressed`` (active low) through up to 5 ms of bouncing."""
        end = clock.t + rng.randint(0, 5)
        flips = sorted(rng.randint(clock.t, end) for _ in range(rng.randrange(0, 9)))
        level = pressed if len(flips) % 2 == 0 else not pressed
        for t in [*flips, end]:
            advance(t - clock.t)
            (pin.drive_low if level else pin.drive_high)()
            level = not level
        assert (not pin.state) == pressed

    sent = []
    for _ in range(PRESSES):
        seat = rng.randrange(5)
        button, number = rng.choice(PROFILE.seats[seat].buttons)
        pin = pins.pin(number)
        long = rng.random() < 0.2
        bounce(pin, True)
        advance(rng.randint(LONG_MS + 10, 1500) if long else rng.randint(30, LONG_MS - 30))
        bounce(pin, False)
        advance(rng.randint(DEBOUNCE_MS + 1, 200))
        sent.append((seat, button, "long" if long else "short"))
    backend.poll()
    backend.close()
    assert session.public_view() == {"presses": PRESSES}, seed
    assert list(session.state) == sent, seed
    assert len(journal.actions(session.game_id)) == PRESSES, seed
    journal.close()
