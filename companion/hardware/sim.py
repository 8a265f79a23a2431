"""Simulated seats: keyboard keys stand for the buttons; lights are only remembered.

The UI draws every backend's lights from ``backend.light(seat)``, so the simulator draws
nothing itself. Keys are pygame key *names* (``pygame.key.name``): seat ``i`` uses the
``i``-th character of ``"12345"`` for button ``a``, of ``"qwert"`` for ``b`` and of
``"asdfg"`` for ``c``. A key held at least ``long_press_ms`` is a LONG press; the event is
delivered when the key is released (the simulator has no clock of its own).
"""

from __future__ import annotations

import threading

from companion.hardware.base import ButtonHandler, PadHandler, SeatBackend, StatusHandler
from companion.seat import ButtonEvent, Light, Press

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
        if self._seat_button(key) is None:
            return False
        with self._lock:
            self._down.setdefault(key, t_ms)
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
        self._lights[seat] = Light(light)

    def light(self, seat: int) -> Light:
        return self._lights[seat]

    def close(self) -> None:
        self._on_button = None
