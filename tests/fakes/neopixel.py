"""Stand-in for MicroPython's ``neopixel``: records what was last written to the chain."""


class NeoPixel:
    def __init__(self, pin, n: int) -> None:
        self.pin = pin
        self.buf = [(0, 0, 0)] * n
        self.written: list[tuple[int, int, int]] = list(self.buf)
        self.writes = 0

    def __setitem__(self, i: int, colour: tuple[int, int, int]) -> None:
        self.buf[i] = tuple(colour)

    def __getitem__(self, i: int) -> tuple[int, int, int]:
        return self.buf[i]

    def write(self) -> None:
        self.written = list(self.buf)
        self.writes += 1
