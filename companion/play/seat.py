"""The seat vocabulary: the states of a seat's light, the kinds of press and the button
event. The rules, the games, the screens and every hardware backend speak it, so it
depends on nothing else in the package (the rules must not import the hardware)."""

from __future__ import annotations

import enum
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
