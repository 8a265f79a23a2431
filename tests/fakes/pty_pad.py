"""A seat pad on a pty for the serial backend's tests: the real firmware logic
(``firmware/pad/main.py`` with stand-in MicroPython modules) on the master side of a fresh
pty, the backend opening the slave by path exactly as it would /dev/ttyACM0 (through a
by-id style symlink). Each ``PtyPad`` is a freshly plugged (rebooted) pad; ``unplug``
closes the pty, which the backend sees as a pulled cable."""

from __future__ import annotations

import os
import pty
import queue
import select
import tty
from pathlib import Path

import pytest
from fakes.firmware import load_firmware

from companion.hardware import padproto
from companion.hardware.serial_pad import SerialBackend
from companion.play.seat import ButtonEvent

WAIT = 10  # seconds: a bound on waiting for an event, never a pause


class PtyPad:
    """The firmware's Pad, run by its Guard as on the board, on the master side of a fresh
    pty (a freshly plugged pad). ``pad`` is the Pad running now (a new one after the guard
    restarted it); ``guard.wdt.feeds`` counts the watchdog's feeds."""

    def __init__(self, link: Path, answer: bool = True) -> None:
        """``answer=False``: the firmware does not hear the host (the test speaks)."""
        self.answer = answer
        self.link = link
        self.fw = load_firmware()
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        tmp = link.with_suffix(".new")
        tmp.symlink_to(os.ttyname(self.slave))
        tmp.replace(link)  # like udev re-pointing /dev/serial/by-id/...
        self.guard = self.fw.Guard(lambda: self.fw.Pad(self._write), self._write,
                                   self.fw.machine.WDT(timeout=self.fw.WDT_MS))
        self.t = 0
        self.from_host: list[tuple] = []
        self._split = padproto.LineSplitter()

    @property
    def pad(self):
        return self.guard.pad

    def _write(self, data: bytes) -> None:
        os.write(self.master, data)

    def pump_until(self, done, what: str) -> None:
        """Feed the host's bytes to the pad until ``done()``; fails after WAIT seconds."""
        for _ in range(WAIT * 20):
            if done():
                return
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                data = os.read(self.master, 4096)
                self.from_host += [padproto.decode(line) for line in self._split.feed(data)]
                if self.answer:
                    self.guard.run(self.t, lambda pad, data=data: pad.feed(data))
        pytest.fail(f"pad never saw {what}; host sent {self.from_host}")

    def sent(self, kind: str) -> list[tuple]:
        return [f for f in self.from_host if f[1] == kind]

    def at(self, t: int) -> None:
        self.t = t
        self.guard.run(t, lambda pad: pad.poll(t))

    def press(self, seat: int, button: str, hold_ms: int = 100) -> None:
        """A press with contact bounce, scanned by the firmware every ms."""
        gp = dict(self.fw.board.SEATS[seat])[button]
        pin = self.fw.machine.PINS[gp]
        for level in (0, 1, 0, 1, 0):
            pin.value(level)
            self.at(self.t + 1)
        self.at(self.t + hold_ms)
        for level in (1, 0, 1, 0, 1):
            pin.value(level)
            self.at(self.t + 1)
        self.at(self.t + 50)

    def unplug(self) -> None:
        os.close(self.master)
        os.close(self.slave)


class Host:
    def __init__(self, port: Path | str, seats: int = 5, **kw) -> None:
        """``port``: the pad's path, or "auto" with ``find_ports=`` in ``kw``."""
        self.events: queue.Queue = queue.Queue()
        self.status: queue.Queue = queue.Queue()
        self.pad_events: queue.Queue = queue.Queue()  # PadEvent: restarted, lost, back
        self.backend = SerialBackend(str(port), seats, heartbeat_timeout_ms=60_000, **kw)
        self.backend.start(self.events.put, lambda s, c: self.status.put((s, c)),
                           self.pad_events.put)

    def next_pad_event(self) -> str:
        """The kind of the pad's next event (RESET, LOST, BACK)."""
        return self.pad_events.get(timeout=WAIT).kind

    def statuses(self, n: int) -> list[tuple[int, bool]]:
        return sorted(self.status.get(timeout=WAIT) for _ in range(n))

    def next_events(self, n: int) -> list[ButtonEvent]:
        return [self.events.get(timeout=WAIT) for _ in range(n)]

    def assert_quiet(self) -> None:
        """Nothing more queued (checked after a later event proved the earlier ones)."""
        assert self.events.empty() and self.status.empty()



def connect(pad: PtyPad, host: Host, seats: int = 5) -> None:
    pad.pump_until(lambda: pad.sent(padproto.HOST), "HOST")
    assert host.statuses(seats) == [(s, True) for s in range(seats)]
    pad.pump_until(lambda: len(pad.sent(padproto.LIGHT)) >= seats, "the lights")
