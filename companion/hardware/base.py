"""The seat interface shared by every backend."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass


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


class Press(enum.Enum):
    SHORT = "short"
    LONG = "long"


@dataclass(frozen=True)
class ButtonEvent:
    """One debounced press of one button of one seat (seat index 0-based, seating order)."""

    seat: int
    button: str  # a button name from the wiring profile: "a", "b", "c" (Aye, Nay, Pass …)
    press: Press = Press.SHORT


ButtonHandler = Callable[[ButtonEvent], None]


class SeatBackend:
    """What the session sees of the seats, whatever the wiring."""

    name = "base"

    def start(self, on_button: ButtonHandler) -> None:
        """Begin delivering debounced button events (from any thread) to ``on_button``."""
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
