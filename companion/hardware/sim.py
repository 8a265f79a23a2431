"""Simulated seats: keyboard keys stand for the buttons; lights are only remembered.

The UI draws every backend's lights from ``backend.light(seat)``, so the simulator draws
nothing itself. Keys are pygame key *names* (``pygame.key.name``): seat ``i`` uses the
``i``-th character of ``"12345"`` for button ``a``, of ``"qwert"`` for ``b`` and of
``"asdfg"`` for ``c``. A key held at least ``long_press_ms`` is a LONG press; the event is
delivered when the key is released (the simulator has no clock of its own).

A key going down is acknowledged on its seat's light as a pad does (``padproto.ACK_COLOUR``
for ``ACK_MS``, or until the press's result gives the seat a new light state), the same
for every key of every seat: ``shown`` is what the screen's mirror draws.
"""

from __future__ import annotations

import threading

from companion.hardware.base import ButtonHandler, PadHandler, SeatBackend, StatusHandler
from companion.hardware.padproto import ACK_COLOUR, ACK_MS
from companion.play.seat import ButtonEvent, Light, Press

BUTTONS = ("a", "b", "c")
_ROWS = {"a": "12345", "b": "qwert", "c": "asdfg"}
KEYMAP: dict[str, tuple[int, str]] = {
    key: (seat, button) for button, row in _ROWS.items() for seat, key in enumerate(row)
}


class SimBackend(SeatBackend):
    name = "sim"
    KEYMAP = KEYMAP

    def __init__(self, seats: int, long_press_ms: int = 700) -> None:
        if not 1 <= seats <= 5:
            raise ValueError(f"the simulator has 1 to 5 seats, not {seats}")
        self.seats = seats
        self.long_press_ms = long_press_ms
        self._lights = [Light.OFF] * seats
        self._ack_until = [0] * seats  # a seat's acknowledgement shows until then (t_ms)
        self._down: dict[str, int] = {}  # key name -> t_ms of its key_down
        self._on_button: ButtonHandler | None = None
        self._lock = threading.Lock()

    def start(self, on_button: ButtonHandler, on_status: StatusHandler | None = None,
              on_pad: PadHandler | None = None) -> None:
        self._on_button = on_button

    def _seat_button(self, key: str) -> tuple[int, str] | None:
        hit = KEYMAP.get(key)
        if hit is None or hit[0] >= self.seats:
            return None
        return hit

    def key_down(self, key: str, t_ms: int) -> bool:
        """A key went down at ``t_ms``; True if it is a seat key (the UI then ignores it).
        Auto-repeat (a second key_down before key_up) is ignored."""
        hit = self._seat_button(key)
        if hit is None:
            return False
        with self._lock:
            if key not in self._down:
                self._down[key] = t_ms
                self._ack_until[hit[0]] = t_ms + ACK_MS
        return True

    def key_up(self, key: str, t_ms: int) -> bool:
        """A key came up at ``t_ms``: one SHORT or LONG press of its seat's button."""
        hit = self._seat_button(key)
        if hit is None:
            return False
        with self._lock:
            t_down = self._down.pop(key, None)
        if t_down is not None:
            held = t_ms - t_down
            self.press(*hit, press=Press.LONG if held >= self.long_press_ms else Press.SHORT)
        return True

    def press(self, seat: int, button: str, press: Press = Press.SHORT) -> None:
        """Scripted input (demo, tests): one press of ``button`` on ``seat``."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat} (seats 0-{self.seats - 1})")
        if button not in BUTTONS:
            raise ValueError(f"no button {button!r} (buttons {', '.join(BUTTONS)})")
        handler = self._on_button
        if handler is not None:
            handler(ButtonEvent(seat, button, press))

    def set_light(self, seat: int, light: Light) -> None:
        light = Light(light)
        if light != self._lights[seat]:
            self._ack_until[seat] = 0  # the press's result ends its acknowledgement
        self._lights[seat] = light

    def light(self, seat: int) -> Light:
        return self._lights[seat]

    def shown(self, seat: int, now_ms: int) -> tuple[int, int, int]:
        if now_ms < self._ack_until[seat]:
            return ACK_COLOUR
        return super().shown(seat, now_ms)

    def next_shown_change(self, seat: int, now_ms: int) -> int | None:
        if now_ms < self._ack_until[seat]:
            return self._ack_until[seat]
        return super().next_shown_change(seat, now_ms)

    def close(self) -> None:
        self._on_button = None
