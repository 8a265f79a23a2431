"""The seat lights as a view. The App asks the screen on top for ``lights()`` every time
what is shown changes (a game screen answers from its controller, which computes them
from the session's public view), and this is the one place that writes them to the
seats: so a resume, an undo, Home and every screen agree by construction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.play.seat import Light

SeatLightMap = Mapping[int, Light]


def as_map(lights: SeatLightMap | Sequence[Light]) -> SeatLightMap:
    """A light per seat index, from a mapping or a list in seat order."""
    return lights if isinstance(lights, Mapping) else dict(enumerate(lights))


def show(backend, seats: int, lights: SeatLightMap | Sequence[Light]) -> None:
    """A light for each of the first ``seats`` seats of ``backend`` (a seat not named is
    off); a seat already showing its light is not written again."""
    wanted = as_map(lights)
    for seat in range(seats):
        light = wanted.get(seat, Light.OFF)
        if backend.light(seat) is not light:
            backend.set_light(seat, light)


def shown(backend, seats: int) -> str:
    """What the seats show, for the log: ``0=first-player 1=off …``."""
    return " ".join(f"{seat}={backend.light(seat).value}" for seat in range(seats))
