"""Serial seat-pad backend against the real firmware logic on a pty: the backend opens the
pty's slave by path exactly as it would /dev/ttyACM0 (through a by-id style symlink).
Handshake, presses, lights, garbage, partial frames, bad checksums, heartbeat timeout,
unplug and replug: the pad is shown missing then back, no event lost or invented."""

from __future__ import annotations

import os
import pty
import queue
import select
import tty
from pathlib import Path
from types import SimpleNamespace

import pytest
from fakes.firmware import load_firmware

from companion.hardware import padproto, serial_pad
from companion.hardware.factory import open_backend
from companion.hardware.serial_pad import SerialBackend
from companion.hardware.sim import SimBackend
from companion.seat import ButtonEvent, Light, Press

WAIT = 10  # seconds: a bound on waiting for an event, never a pause


class PtyPad:
    """The firmware's Pad on the master side of a fresh pty (a freshly plugged pad)."""

    def __init__(self, link: Path, answer: bool = True) -> None:
        """``answer=False``: the firmware does not hear the host (the test speaks)."""
        self.answer = answer
        self.fw = load_firmware()
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        tmp = link.with_suffix(".new")
        tmp.symlink_to(os.ttyname(self.slave))
        tmp.replace(link)  # like udev re-pointing /dev/serial/by-id/...
        self.pad = self.fw.Pad(self._write)
        self.t = 0
        self.from_host: list[tuple] = []
        self._split = padproto.LineSplitter()

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
                    self.pad.feed(data)
        pytest.fail(f"pad never saw {what}; host sent {self.from_host}")

    def sent(self, kind: str) -> list[tuple]:
        return [f for f in self.from_host if f[1] == kind]

    def at(self, t: int) -> None:
        self.t = t
        self.pad.poll(t)

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
    def __init__(self, link: Path, seats: int = 5, **kw) -> None:
        self.events: queue.Queue = queue.Queue()
        self.status: queue.Queue = queue.Queue()
        self.backend = SerialBackend(str(link), seats, heartbeat_timeout_ms=60_000, **kw)
        self.backend.start(self.events.put, lambda s, c: self.status.put((s, c)))

    def statuses(self, n: int) -> list[tuple[int, bool]]:
        return sorted(self.status.get(timeout=WAIT) for _ in range(n))

    def next_events(self, n: int) -> list[ButtonEvent]:
        return [self.events.get(timeout=WAIT) for _ in range(n)]

    def assert_quiet(self) -> None:
        """Nothing more queued (checked after a later event proved the earlier ones)."""
        assert self.events.empty() and self.status.empty()


@pytest.fixture
def link(tmp_path):
    return tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"


def connect(pad: PtyPad, host: Host, seats: int = 5) -> None:
    pad.pump_until(lambda: pad.sent(padproto.HOST), "HOST")
    assert host.statuses(seats) == [(s, True) for s in range(seats)]
    pad.pump_until(lambda: len(pad.sent(padproto.LIGHT)) >= seats, "the lights")


def test_handshake_sends_timing_and_every_light_then_presses_arrive_in_order(link):
    pad = PtyPad(link)
    host = Host(link, debounce_ms=25, long_press_ms=400)
    host.backend.set_light(1, Light.LEADER)  # before the pad answered: remembered
    connect(pad, host)
    assert pad.sent(padproto.TIMING) == [(None, padproto.TIMING, "25,400")]
    assert pad.pad.lights == ["off", "leader", "off", "off", "off"]
    assert all(host.backend.connected(s) for s in range(5))
    pad.press(0, "a")
    pad.press(4, "c", hold_ms=500)
    pad.press(2, "b")
    assert host.next_events(3) == [
        ButtonEvent(0, "a", Press.SHORT), ButtonEvent(4, "c", Press.LONG),
        ButtonEvent(2, "b", Press.SHORT)]
    host.backend.set_light(3, Light.ATTENTION)
    pad.pump_until(lambda: pad.pad.lights[3] == "attention", "LIGHT attention")
    host.assert_quiet()
    host.backend.close()
    pad.unplug()


def test_garbage_partial_frames_and_bad_checksums_are_counted_never_fatal(link):
    pad = PtyPad(link)
    host = Host(link)
    connect(pad, host)
    good = padproto.encode(1, padproto.SHORT, "b,0")
    bad_crc = good[:-3] + f"{int(good[-3:-1], 16) ^ 0x10:02X}\n".encode()
    os.write(pad.master, b"\x00\xff\x03line noise\r\n$$$*\n" + bad_crc)
    os.write(pad.master, b"$3,SHORT,a,0")  # a frame cut short by noise...
    os.write(pad.master, b"\x7f" * 300 + b"\n")  # ...then an overlong run
    os.write(pad.master, padproto.encode(9, padproto.SHORT, "a,0"))  # no such seat
    os.write(pad.master, padproto.encode(0, padproto.SHORT, "z,0"))  # no such button
    frame = padproto.encode(2, padproto.SHORT, "c,0")
    for i in range(len(frame)):  # a valid frame arriving one byte at a time
        os.write(pad.master, frame[i : i + 1])
    assert host.next_events(1) == [ButtonEvent(2, "c", Press.SHORT)]
    pad.press(1, "a")  # the firmware's own first press: seq 0 again, so one lost is not
    assert host.next_events(1) == [ButtonEvent(1, "a", Press.SHORT)]
    stats = host.backend.stats
    assert stats["bad_frames"] >= 2 and stats["dropped_bytes"] >= 300
    assert stats["refused"] == 2
    host.assert_quiet()
    host.backend.close()
    pad.unplug()


def test_sequence_gap_counts_lost_events(link):
    pad = PtyPad(link)
    host = Host(link)
    connect(pad, host)
    for seq in (0, 1, 4):
        os.write(pad.master, padproto.encode(0, padproto.SHORT, f"a,{seq}"))
    assert len(host.next_events(3)) == 3
    assert host.backend.stats["lost_events"] == 2
    host.backend.close()
    pad.unplug()


def test_unplug_shows_seats_missing_and_replug_brings_them_back_with_current_lights(link):
    pad = PtyPad(link)
    host = Host(link, seats=3)
    connect(pad, host, seats=3)
    host.backend.set_light(0, Light.FIRST_PLAYER)
    pad.pump_until(lambda: pad.pad.lights[0] == "first-player", "first-player")
    pad.press(0, "b")
    assert host.next_events(1) == [ButtonEvent(0, "b", Press.SHORT)]

    pad.unplug()
    assert host.statuses(3) == [(0, False), (1, False), (2, False)]
    assert not host.backend.connected(0)
    host.backend.set_light(2, Light.YOUR_TURN)  # while unplugged: remembered

    pad = PtyPad(link)  # plugged back: a rebooted pad, lights dark, seq from 0
    connect(pad, host, seats=3)
    assert pad.pad.lights[:3] == ["first-player", "off", "your-turn"]
    pad.press(1, "c")
    pad.press(2, "a")
    assert host.next_events(2) == [ButtonEvent(1, "c", Press.SHORT),
                                   ButtonEvent(2, "a", Press.SHORT)]
    assert host.backend.stats["lost_events"] == 0 and host.backend.stats["connects"] == 2
    host.assert_quiet()
    host.backend.close()
    pad.unplug()


def test_silent_pad_is_marked_missing_after_heartbeat_timeout_then_back(link):
    pad = PtyPad(link)
    host = Host(link, seats=2)
    host.backend.heartbeat_timeout_ms = 300
    connect(pad, host, seats=2)
    # the pad stops talking (no poll, no heartbeat): the host gives up on it...
    assert host.statuses(2) == [(0, False), (1, False)]
    # ...and asks again; the pad answers, the seats come back
    asked = len(pad.sent(padproto.HOST))
    pad.pump_until(lambda: len(pad.sent(padproto.HOST)) > asked, "a second HOST")
    assert host.statuses(2) == [(0, True), (1, True)]
    host.backend.close()
    pad.unplug()


def test_pad_speaking_another_protocol_version_stays_missing(link):
    pad = PtyPad(link, answer=False)
    host = Host(link, seats=2)
    pad.pump_until(lambda: pad.sent(padproto.HOST), "HOST")
    os.write(pad.master, padproto.encode(None, padproto.HELLO, "2,5,pad-9"))
    os.write(pad.master, padproto.encode(0, padproto.SHORT, "a,0"))
    os.write(pad.master, padproto.encode(None, padproto.HELLO, "1,5,pad-1"))
    assert host.statuses(2) == [(0, True), (1, True)]  # only the compatible HELLO counts
    assert host.events.empty()  # the press before it was refused
    assert host.backend.stats["refused"] == 1
    host.backend.close()
    pad.unplug()


def test_backend_waits_for_a_port_that_does_not_exist_yet(link):
    host = Host(link, seats=2)
    assert not host.backend.connected(0)
    pad = PtyPad(link)  # plugged in after the program started
    connect(pad, host, seats=2)
    host.backend.close()
    host.backend.close()
    pad.unplug()


def serial_config(port):
    hardware = SimpleNamespace(backend="serial", profile=None, port=port, pin_factory=None,
                               debounce_ms=20, long_press_ms=700)
    return SimpleNamespace(seats=("A", "B"), hardware=hardware, data_dir=Path("."))


def test_factory_without_port_and_no_pad_on_usb_falls_back_to_sim(monkeypatch):
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", list)
    backend, notice = open_backend(serial_config(None))
    assert isinstance(backend, SimBackend) and "No seat pad found" in notice


def test_factory_finds_the_rp2040_by_usb_vendor_or_uses_the_given_port(monkeypatch):
    from serial.tools import list_ports

    ports = [SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403),
             SimpleNamespace(device="/dev/ttyACM1", vid=serial_pad.RP2040_USB_VID)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    backend, notice = open_backend(serial_config("auto"))
    assert isinstance(backend, SerialBackend) and notice is None
    assert backend.port == "/dev/ttyACM1"
    backend, notice = open_backend(serial_config("/dev/ttyACM7"))
    assert backend.port == "/dev/ttyACM7" and notice is None
