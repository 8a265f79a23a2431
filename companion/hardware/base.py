"""The seat interface shared by every backend."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from companion.hardware import padproto


class Light(enum.Enum):
    """Named states of a seat's light; the games use these names, backends map them to
    colours (RGB LED) or blink patterns (plain LED)."""

    OFF = "off"
    FIRST_PLAYER = "first-player"
    LEADER = "leader"
    MODERATOR = "moderator"
    YOUR_TURN = "your-turn"
    BALLOT_LOCKED = "ballot-locked"
    ATTENTION = "attention"  # blinks


# Colour of each state for RGB LEDs and the on-screen mirror, and the states that blink.
# The table itself lives in the serial-pad codec so the pad firmware shows the same colours.
LIGHT_COLOURS: dict[Light, tuple[int, int, int]] = {
    light: padproto.COLOURS[light.value] for light in Light
}
BLINKING: set[Light] = {Light(name) for name in padproto.BLINKING}


class Press(enum.Enum):
    SHORT = "short"
    LONG = "long"


@dataclass(frozen=True)
class ButtonEvent:
    """One debounced press of one button of one seat (seat index 0-based, seating order)."""

    seat: int
    button: str  # a button name from the wiring profile: "a", "b", "c" (Aye, Nay, Pass …)
    press: Press = Press.SHORT


class NoHardware(RuntimeError):
    """This machine has no such hardware (no GPIO header, no seat pad on USB): the factory
    then falls back to the simulator and shows the message."""


ButtonHandler = Callable[[ButtonEvent], None]
StatusHandler = Callable[[int, bool], None]  # (seat, connected)


class SeatBackend:
    """What the session sees of the seats, whatever the wiring."""

    name = "base"
    seats: int = 0

    def start(self, on_button: ButtonHandler, on_status: StatusHandler | None = None) -> None:
        """Begin delivering debounced button events to ``on_button`` and connection changes
        of a seat's pad to ``on_status(seat, connected)``; both may be called from any
        thread."""
        raise NotImplementedError

    def set_light(self, seat: int, light: Light) -> None:
        raise NotImplementedError

    def light(self, seat: int) -> Light:
        raise NotImplementedError

    def connected(self, seat: int) -> bool:
        """False while a seat's pad is unplugged or silent (serial); always True otherwise."""
        return True

    def close(self) -> None:
        """Release pins / ports; safe to call twice."""
