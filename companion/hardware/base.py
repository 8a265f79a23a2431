"""The seat interface shared by every backend."""

from __future__ import annotations

from collections.abc import Callable

from companion.hardware import padproto
from companion.seat import ButtonEvent, Light

# Colour of each state for RGB LEDs and the on-screen mirror, and the states that blink.
# The table itself lives in the serial-pad codec so the pad firmware shows the same colours.
LIGHT_COLOURS: dict[Light, tuple[int, int, int]] = {
    light: padproto.COLOURS[light.value] for light in Light
}
BLINKING: set[Light] = {Light(name) for name in padproto.BLINKING}


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
