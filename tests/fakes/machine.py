"""Stand-in for MicroPython's ``machine`` module: just the Pin the pad firmware uses.
Tests read and drive pins through ``PINS`` (GP number -> the last Pin made for it)."""

PINS: dict = {}


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, gp: int, mode: int = -1, pull: int = -1) -> None:
        self.gp = gp
        self.mode = mode
        self.pull = pull
        self._value = 1 if pull == Pin.PULL_UP else 0
        PINS[gp] = self

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self._value
        self._value = 1 if v else 0
        return None
