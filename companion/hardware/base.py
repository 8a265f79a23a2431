"""The seat interface shared by every backend."""

from __future__ import annotations

from collections.abc import Callable

from companion.hardware import padproto
from companion.seat import ButtonEvent, Light

# How each light state shows (padproto.LIGHTS, shared with the pad firmware): its colour at
# full strength, and the states with a rhythm (every lit one).
LIGHT_COLOURS: dict[Light, tuple[int, int, int]] = {
    light: padproto.COLOURS[light.value] for light in Light
}
BLINKING: set[Light] = {Light(name) for name in padproto.BLINKING}


def light_rgb(light: Light, now_ms: int) -> tuple[int, int, int]:
    """The colour ``light`` shows at ``now_ms`` (black while its pattern is dark): what a
    pad's pixel shows, and the screen's mirror of it. Every seat runs on the same clock."""
    return padproto.light_rgb(light.value, now_ms // padproto.TICK_MS)


def next_light_change(light: Light, now_ms: int) -> int | None:
    """The first time after ``now_ms`` when ``light`` shows something else (None: never)."""
    if light not in BLINKING:
        return None
    shown = light_rgb(light, now_ms)
    t = (now_ms // padproto.TICK_MS + 1) * padproto.TICK_MS
    while light_rgb(light, t) == shown:
        t += padproto.TICK_MS
    return t


class NoHardware(RuntimeError):
    """This machine has no such hardware (no GPIO header, no seat pad on USB): the factory
    then falls back to the simulator and shows the message."""


ButtonHandler = Callable[[ButtonEvent], None]
StatusHandler = Callable[[int, bool], None]  # (seat, connected)


class SeatBackend:
    """What the session sees of the seats, whatever the wiring."""

    name = "base"
    seats: int = 0
    # What the table must be told about the seats now (a pad restarted, a seat whose pins
    # a bus took), shown on screen under the catalog title ``notice.seats``; None: nothing.
    notice: str | None = None

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
