"""Stand-in for MicroPython's ``machine`` module: what the pad firmware uses (Pin, WDT,
reset_cause, mem32). Tests read and drive pins through ``PINS`` (GP number -> the last Pin
made for it), set ``RESET_CAUSE``, and read a watchdog's ``feeds``; ``rebooted_by`` leaves
the RP2040 as each kind of reset leaves it, for the next boot to tell them apart."""

PINS: dict = {}
PWRON_RESET = 1
WDT_RESET = 3
RESET_CAUSE = PWRON_RESET
# The RP2040's watchdog REASON register (datasheet, section 4.7: WATCHDOG_BASE 0x40058000,
# REASON at 0x08; bit 0 TIMER: it ran out, bit 1 FORCE: a reset was asked for)
RP2040_WATCHDOG_REASON = 0x40058008
REASON_TIMER = 1
REASON_FORCE = 2


class _Memory(dict):
    """``machine.mem32``: words by address; what no test wrote reads 0."""

    def __missing__(self, address: int) -> int:
        return 0


mem32 = _Memory()


def reset_cause() -> int:
    return RESET_CAUSE


def rebooted_by(kind: str) -> None:
    """The board as it boots after ``kind``: "power" (plugged in), "watchdog" (the loop
    stopped feeding it) or "reset" (machine.reset(), which mpremote's ``reset`` calls; on
    rp2 it is the SDK's watchdog_reboot, so reset_cause() says WDT_RESET for it too)."""
    global RESET_CAUSE
    RESET_CAUSE = PWRON_RESET if kind == "power" else WDT_RESET
    mem32[RP2040_WATCHDOG_REASON] = {
        "power": 0, "watchdog": REASON_TIMER, "reset": REASON_FORCE
    }[kind]


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
