"""The seat interface shared by every backend."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.hardware import padproto
from companion.play.seat import ButtonEvent, Light

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


@dataclass(frozen=True, eq=False)
class PadEvent:
    """What the seat pad did that the table must see at once, over whatever screen is on
    top (the App's band, like "Not saved"): it restarted and got its lights back (RESET),
    it went silent or was unplugged (LOST), it answered again (BACK). It names the pad and
    the time only, never a seat's buttons or lights: nothing of a secret ballot."""

    kind: str  # RESET, LOST or BACK
    at: float  # when (time.time())

    RESET = "reset"
    LOST = "lost"
    BACK = "back"


ButtonHandler = Callable[[ButtonEvent], None]
StatusHandler = Callable[[int, bool], None]  # (seat, connected)
PadHandler = Callable[[PadEvent], None]


class SeatBackend:
    """What the session sees of the seats, whatever the wiring."""

    name = "base"
    seats: int = 0
    # What the table must be told about the seats now (a pad restarted, a seat whose pins
    # a bus took), shown on screen under the catalog title ``notice.seats``; None: nothing.
    notice: str | None = None
    # The pad's latest event (restarted, lost, back), also given to ``on_pad``; None: none.
    pad_event: PadEvent | None = None

    def start(self, on_button: ButtonHandler, on_status: StatusHandler | None = None,
              on_pad: PadHandler | None = None) -> None:
        """Begin delivering debounced button events to ``on_button``, connection changes
        of a seat's pad to ``on_status(seat, connected)`` and what the pad did to
        ``on_pad(event)`` (backends with a pad that can restart or go); all may be called
        from any thread."""
        raise NotImplementedError

    def set_light(self, seat: int, light: Light) -> None:
        raise NotImplementedError

    def light(self, seat: int) -> Light:
        raise NotImplementedError

    def shown(self, seat: int, now_ms: int) -> tuple[int, int, int]:
        """What the seat's light shows at ``now_ms``: the screen's mirror of it (the
        simulator's only light, with its acknowledgement)."""
        return light_rgb(self.light(seat), now_ms)

    def next_shown_change(self, seat: int, now_ms: int) -> int | None:
        """The first time after ``now_ms`` when ``shown`` changes (None: never)."""
        return next_light_change(self.light(seat), now_ms)

    def connected(self, seat: int) -> bool:
        """False while a seat's pad is unplugged or silent (serial); always True otherwise."""
        return True

    def close(self) -> None:
        """Release pins / ports; safe to call twice."""
