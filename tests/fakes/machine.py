"""Stand-in for MicroPython's ``machine`` module: what the pad firmware uses (Pin, WDT,
reset_cause). Tests read and drive pins through ``PINS`` (GP number -> the last Pin made
for it), set ``RESET_CAUSE``, and read a watchdog's ``feeds``."""

PINS: dict = {}
PWRON_RESET = 1
WDT_RESET = 3
RESET_CAUSE = PWRON_RESET


def reset_cause() -> int:
    return RESET_CAUSE


WATCHDOGS: list = []  # every WDT started, in order


class WDT:
    """Counts feeds; a test decides what a missing feed means (the board would reset)."""

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        self.timeout = timeout
        self.feeds = 0
        WATCHDOGS.append(self)

    def feed(self) -> None:
        self.feeds += 1


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, gp: int, mode: int = -1, pull: int = -1) -> None:
        self.gp = gp
        self.mode = mode
        self.pull = pull
        self._value = 1 if pull == Pin.PULL_UP else 0
        self._failures: list[Exception] = []
        PINS[gp] = self

    def fail_reads(self, *errors: Exception) -> None:
        """The next reads raise these, one each (a pin fault, a bug in the firmware)."""
        self._failures.extend(errors)

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            if self._failures:
                raise self._failures.pop(0)
            return self._value
        self._value = 1 if v else 0
        return None
