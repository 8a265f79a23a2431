"""gpiozero's mock pins as the tests use them: a pin factory installed for one test
(``mock_pins``; the ``pins`` fixture in conftest.py) and the gpio backend's clock, moved by
the test by hand (the backend polled with ``worker=False`` at the test's own times)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


class PinClock:
    """The gpio backend's milliseconds: ``clock.t += 5`` moves them."""

    def __init__(self, t: int = 1_000_000) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t


@contextmanager
def mock_pins(pin_class: type = MockPWMPin) -> Iterator[MockFactory]:
    """gpiozero's MockFactory as every device's pin factory while inside (PWM pins by
    default, so a LED may dim), the previous factory back after."""
    old = Device.pin_factory
    factory = MockFactory(pin_class=pin_class)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = old


class ChatteringPads:
    """A gpio backend's seat pads worked by hand on mock pins (``pins``, the MockFactory)
    and ``clock`` (a ``PinClock``): every contact bounces for up to 5 ms (``rng``), and the
    lights are read back off the LED pins as blink patterns. ``handled`` runs after each
    poll that may have fired a press (the loop taking it: ``Table.drain``, ``App.step``)."""

    def __init__(self, pins, clock: PinClock, backend, profile, rng,
                 handled: Callable[[], object]) -> None:
        self.pins, self.clock, self.backend, self.profile = pins, clock, backend, profile
        self.rng, self.handled = rng, handled

    def edge(self, pin, pressed: bool) -> None:
        """Drive the (active low) button pin with up to 5 ms of contact bounce."""
        level = pressed
        for _ in range(self.rng.randrange(0, 4)):
            (pin.drive_low if level else pin.drive_high)()
            self.clock.t += self.rng.randint(0, 2)
            level = not level
        (pin.drive_low if pressed else pin.drive_high)()

    def press(self, seat: int, keys: str) -> None:
        """``keys`` on ``seat``'s pad, space apart: lower case short, upper case held."""
        for key in keys.split():
            pin = self.pins.pin(dict(self.profile.seats[seat].buttons)[key.lower()])
            self.edge(pin, True)
            self.clock.t += 800 if key.isupper() else 120
            self.backend.poll()  # the long press fires at its threshold
            self.edge(pin, False)
            self.clock.t += 40
            self.backend.poll()  # the release: the press reaches the backend's callback
            self.handled()

    def seen(self) -> list:
        """Each LED pin sampled over one 1.6 s cycle, matched to its blink pattern (and
        checked against what the backend says it shows)."""
        from companion.hardware.gpio import PLAIN_PATTERNS
        from companion.hardware.padproto import TICK_MS

        seats = len(self.profile.seats)
        self.clock.t = (self.clock.t // (16 * TICK_MS) + 1) * 16 * TICK_MS
        samples = [""] * seats
        for _ in range(16):
            self.backend.poll()
            for seat in range(seats):
                samples[seat] += "1" if self.pins.pin(self.profile.seats[seat].led).state else "0"
            self.clock.t += TICK_MS
        out = []
        for seat, sample in enumerate(samples):
            [light] = [li for li, p in PLAIN_PATTERNS.items() if (p * 16)[:16] == sample]
            assert self.backend.light(seat) is light
            out.append(light)
        return out
