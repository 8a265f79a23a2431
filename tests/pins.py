"""gpiozero's mock pins as the tests use them: a pin factory installed for one test
(``mock_pins``; the ``pins`` fixture in conftest.py) and the gpio backend's clock, moved by
the test by hand (the backend polled with ``worker=False`` at the test's own times)."""

from __future__ import annotations

from collections.abc import Iterator
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
