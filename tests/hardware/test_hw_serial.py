"""Serial seat-pad backend against the real firmware logic on a pty: the backend opens the
pty's slave by path exactly as it would /dev/ttyACM0 (through a by-id style symlink).
Handshake, presses, lights, garbage, partial frames, bad checksums, heartbeat timeout,
unplug and replug: the pad is shown missing then back, no event lost or invented."""

from __future__ import annotations

import logging
import os
import pty
import queue
import random
import select
import threading
import time
import tty
from pathlib import Path
from types import SimpleNamespace

import pytest
from fakes.pty_pad import WAIT, Host, PtyPad, connect

from companion.hardware import padproto, serial_pad
from companion.hardware.base import PadEvent
from companion.hardware.factory import open_backend
from companion.hardware.serial_pad import SerialBackend
from companion.play.seat import ButtonEvent, Light, Press


@pytest.fixture
def link(tmp_path):
    return tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"


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
    os.write(pad.master, padproto.encode(1, padproto.SHORT, "a,1"))  # the next event
    assert host.next_events(1) == [ButtonEvent(1, "a", Press.SHORT)]
    stats = host.backend.stats
    assert stats["bad_frames"] >= 2 and stats["dropped_bytes"] >= 300
    assert stats["refused"] == 2
    host.assert_quiet()
    host.backend.close()
    pad.unplug()


def framed(body: bytes) -> bytes:
    """A frame of any body with its correct checksum, as a hostile or broken pad sends it."""
    return b"$" + body + b"*" + b"%02X" % padproto.crc8(body) + b"\n"


def test_a_superscript_or_arabic_seat_digit_is_refused_and_the_reader_goes_on(link):
    """``str.isdigit`` takes "²" and "٣"; the reader once died on the first (int() raised)
    and took the second as seat 3. Both are bad frames now; the next press arrives."""
    pad = PtyPad(link)
    host = Host(link)
    connect(pad, host)
    os.write(pad.master, b"$\xc2\xb2,SHORT,a,950*FA\n")  # the checksum is right
    os.write(pad.master, framed("\u0663,SHORT,a,1".encode()))
    os.write(pad.master, framed(b"00,SHORT,a,2"))  # seat 00: refused too
    os.write(pad.master, padproto.encode(0, padproto.SHORT, "b,3"))
    assert host.next_events(1) == [ButtonEvent(0, "b", Press.SHORT)]
    assert host.backend.stats["bad_frames"] == 3
    host.assert_quiet()
    host.backend.close()
    pad.unplug()


def test_a_replayed_sequence_number_gives_one_press(link):
    pad = PtyPad(link)
    host = Host(link)
    connect(pad, host)
    frame = padproto.encode(2, padproto.SHORT, "a,7")
    os.write(pad.master, frame * 3)
    os.write(pad.master, padproto.encode(1, padproto.SHORT, "c,8"))
    os.write(pad.master, frame)  # a repeat after a newer press: a replay still
    os.write(pad.master, padproto.encode(1, padproto.SHORT, "c,9"))
    assert host.next_events(3) == [ButtonEvent(2, "a"), ButtonEvent(1, "c"), ButtonEvent(1, "c")]
    assert host.backend.stats["replayed"] == 3 and host.backend.stats["lost_events"] == 0
    host.assert_quiet()
    host.backend.close()
    pad.unplug()


@pytest.mark.parametrize("ahead", [50, 4_999])
def test_one_frame_numbered_ahead_never_silences_the_genuine_presses_after_it(link, ahead):
    """A single valid frame numbered ``next + ahead``: the genuine presses numbered from
    ``next`` on, each acknowledged by the pad, are all delivered (the count resyncs), and
    only a repeat of a frame already seen is dropped."""
    pad = PtyPad(link)
    host = Host(link)
    connect(pad, host)
    os.write(pad.master, padproto.encode(0, padproto.SHORT, "a,0"))
    os.write(pad.master, padproto.encode(0, padproto.SHORT, f"b,{1 + ahead}"))  # the jump
    genuine = 60
    for seq in range(1, 1 + genuine):
        os.write(pad.master, padproto.encode(1, padproto.SHORT, f"c,{seq}"))
    os.write(pad.master, padproto.encode(1, padproto.SHORT, f"c,{genuine}"))  # a replay
    os.write(pad.master, padproto.encode(2, padproto.LONG, f"a,{genuine + 1}"))
    got = host.next_events(2 + genuine + 1)
    assert got == [ButtonEvent(0, "a"), ButtonEvent(0, "b"),
                   *[ButtonEvent(1, "c")] * genuine, ButtonEvent(2, "a", Press.LONG)]
    assert host.backend.stats["replayed"] == 1 and host.backend.stats["resyncs"] == 1
    host.assert_quiet()
    host.backend.close()
    pad.unplug()


def test_a_press_without_sequence_number_is_refused(link):
    pad = PtyPad(link)
    host = Host(link)
    connect(pad, host)
    for payload in ("a", "a,", "a,x", "a,10000", "a,01", "a,\u00b3".encode("ascii", "replace").decode()):
        os.write(pad.master, padproto.encode(0, padproto.SHORT, payload))
    os.write(pad.master, padproto.encode(0, padproto.LONG, "b,0"))
    assert host.next_events(1) == [ButtonEvent(0, "b", Press.LONG)]
    assert host.backend.stats["refused"] == 6
    host.assert_quiet()
    host.backend.close()
    pad.unplug()


def test_an_exception_in_the_handler_is_logged_with_its_frame_and_reading_goes_on(
    link, caplog
):
    pad = PtyPad(link)
    events: list[ButtonEvent] = []
    got = threading.Event()

    def on_button(event: ButtonEvent) -> None:
        if event.button == "a":
            raise RuntimeError("a screen bug")
        events.append(event)
        got.set()

    statuses: queue.Queue = queue.Queue()
    backend = SerialBackend(str(link), 5, heartbeat_timeout_ms=60_000)
    backend.start(on_button, lambda s, c: statuses.put((s, c)))
    pad.pump_until(lambda: len(pad.sent(padproto.LIGHT)) >= 5, "the lights")
    os.write(pad.master, padproto.encode(3, padproto.SHORT, "a,0"))
    os.write(pad.master, padproto.encode(3, padproto.SHORT, "b,1"))
    assert got.wait(WAIT)
    assert events == [ButtonEvent(3, "b")]
    assert backend.stats["errors"] == 1
    failure = [r for r in caplog.records if r.exc_info]
    assert len(failure) == 1 and "3,SHORT,a,0" in failure[0].getMessage()
    assert "a screen bug" in caplog.text
    backend.close()
    pad.unplug()


def mixed_stream(
    rng: random.Random, count: int, seats: int
) -> tuple[list[bytes], list[ButtonEvent], int]:
    """``count`` pieces of line traffic of every kind, the presses among them that are
    valid and new (the only ones the host may deliver, in order), and the next event
    number."""
    pieces: list[bytes] = []
    expected: list[ButtonEvent] = []
    sent_valid: list[bytes] = []
    seq = 0
    uptime = 0
    for _ in range(count):
        kind = rng.randrange(14)
        seat = rng.randrange(seats)
        button = rng.choice("abc")
        if kind <= 3:  # a valid new press, sometimes after lost ones
            seq = (seq + (1 if rng.random() < 0.9 else rng.randint(2, 5))) % padproto.SEQ_MOD
            press = rng.choice((padproto.SHORT, padproto.LONG))
            frame = padproto.encode(seat, press, f"{button},{seq}")
            sent_valid.append(frame)
            expected.append(ButtonEvent(seat, button, Press(press.lower())))
        elif kind == 4 and sent_valid:  # a replay of one of the last 50
            frame = rng.choice(sent_valid[-50:])
        elif kind == 5:  # no sequence number, or a bad one
            frame = padproto.encode(seat, padproto.SHORT, rng.choice((button, f"{button},", "z,1")))
        elif kind == 6:  # seats that are no seats
            frame = framed(rng.choice((b"00", b"01", "\u00b2".encode(), "\u0663".encode(),
                                       b"9", b"+1", b" 1")) + f",SHORT,{button},{seq}".encode())
        elif kind == 7:  # a bad checksum
            good = padproto.encode(seat, padproto.SHORT, f"{button},{(seq + 1) % 9999}")
            frame = good[:-3] + b"%02X" % (int(good[-3:-1], 16) ^ rng.randint(1, 255)) + b"\n"
        elif kind == 8:  # garbage, newlines and dollars included
            frame = rng.randbytes(rng.randint(1, 120))
        elif kind == 9:  # a frame cut short
            good = padproto.encode(seat, padproto.SHORT, f"{button},{seq}")
            frame = good[: rng.randint(1, len(good) - 2)]
        elif kind == 10:  # an overlong run
            frame = b"$" + bytes(rng.randint(33, 126) for _ in range(rng.randint(81, 300)))
        elif kind == 11:
            uptime += padproto.BEAT_MS
            frame = padproto.encode(None, padproto.BEAT, str(uptime))
        elif kind == 12:
            frame = padproto.encode(None, padproto.ERR, "bad light")
        else:  # frames the host never takes: a light, a type from the wrong side
            frame = padproto.encode(seat, rng.choice((padproto.LIGHT, padproto.TIMING)), "off")
        pieces.append(frame)
    return pieces, expected, (seq + 1) % padproto.SEQ_MOD


def test_100000_mixed_frames_deliver_exactly_the_valid_new_presses(link, caplog):
    """Presses, replays, frames without sequence number, non-ASCII and zero-padded seats,
    bad checksums, garbage, cut frames, overlong runs, heartbeats, errors and wrong-way
    frames, 100,000 of them as fast as the pty takes them: the reader stays alive and the
    presses it delivers are the valid new ones, in order, nothing else."""
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    pieces, expected, next_seq = mixed_stream(rng, 100_000, 4)  # seat 4 closes the stream
    pad = PtyPad(link)
    host = Host(link)
    connect(pad, host)
    stream = b"".join(pieces)
    last = padproto.encode(4, padproto.SHORT, f"c,{next_seq}")
    # the last piece may be a cut frame: a newline ends it before the closing press
    stream += b"\n" + last
    view = memoryview(stream)
    while view:
        view = view[os.write(pad.master, view[:65536]) :]
    received = []
    while (event := host.events.get(timeout=WAIT)) != ButtonEvent(4, "c"):
        received.append(event)
    assert len(received) == len(expected), seed
    assert received == expected, seed
    host.assert_quiet()
    assert host.backend.stats["replayed"] > 0 and host.backend.stats["bad_frames"] > 0, seed
    # complaints come per burst (its first example, then a count), not per frame
    assert len(caplog.records) < 100, seed
    assert host.backend.connected(0), seed
    host.backend.close()
    pad.unplug()


def test_a_pad_whose_firmware_restarts_its_loop_gets_its_lights_back_and_the_screen_is_told(
    link, caplog
):
    """The firmware's guard catches an error, reports it and says HELLO with a fresh, dark
    pad: the host logs the crash, counts a reset, sends the timing and every light again,
    and tells the screen the pad restarted (no crash report there: it is in the log); the
    seats never show missing, presses go on."""
    pad = PtyPad(link)
    host = Host(link, seats=3)
    connect(pad, host, seats=3)
    host.backend.set_light(0, Light.FIRST_PLAYER)
    host.backend.set_light(2, Light.ATTENTION)
    pad.pump_until(lambda: pad.pad.lights[:3] == ["first-player", "off", "attention"], "lights")
    timings = len(pad.sent(padproto.TIMING))
    pad.fw.machine.PINS[2].fail_reads(OSError("pin fault"))
    old = pad.pad
    pad.at(pad.t + 1)  # the scan hits the fault: the guard restarts the pad
    assert pad.pad is not old and pad.pad.lights[:3] == ["off", "off", "off"]
    pad.pump_until(lambda: pad.pad.lights[:3] == ["first-player", "off", "attention"],
                   "the lights again")
    assert len(pad.sent(padproto.TIMING)) == timings + 1
    assert host.backend.stats["pad_resets"] == 1 and host.backend.stats["pad_errors"] == 1
    assert host.next_pad_event() == PadEvent.RESET and host.pad_events.empty()
    assert host.backend.pad_event.kind == PadEvent.RESET
    assert "restarted its loop: OSError: pin fault" in caplog.text
    assert "seat pads: the pad restarted (" in caplog.text
    pad.press(1, "c")
    assert host.next_events(1) == [ButtonEvent(1, "c")]  # the new pad's event 0
    assert host.status.empty() and all(host.backend.connected(s) for s in range(3))
    host.backend.close()
    pad.unplug()


def test_a_pad_whose_uptime_goes_back_is_asked_again_and_gets_its_lights(link):
    """A pad that rebooted without our hearing its HELLO (a plain UART, a lost line):
    its heartbeat's uptime going back makes the host ask, and restore."""
    pad = PtyPad(link, answer=False)
    host = Host(link, seats=2)
    pad.pump_until(lambda: pad.sent(padproto.HOST), "HOST")
    os.write(pad.master, padproto.encode(None, padproto.HELLO, "1,5,pad-2"))
    assert host.statuses(2) == [(0, True), (1, True)]
    host.backend.set_light(1, Light.LEADER)
    os.write(pad.master, padproto.encode(None, padproto.BEAT, "90000"))
    os.write(pad.master, padproto.encode(None, padproto.BEAT, "500"))  # rebooted
    pad.pump_until(lambda: len(pad.sent(padproto.HOST)) == 2, "a second HOST")
    os.write(pad.master, padproto.encode(None, padproto.HELLO, "1,5,pad-2"))
    leader = (1, padproto.LIGHT, "leader")
    pad.pump_until(lambda: pad.from_host.count(leader) == 2, "the lights again")
    assert host.backend.stats["pad_resets"] == 1
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
    assert not host.backend.connected(0) and host.next_pad_event() == PadEvent.LOST
    host.backend.set_light(2, Light.YOUR_TURN)  # while unplugged: remembered

    pad = PtyPad(link)  # plugged back: a rebooted pad, lights dark, seq from 0
    connect(pad, host, seats=3)
    assert pad.pad.lights[:3] == ["first-player", "off", "your-turn"]
    assert host.next_pad_event() == PadEvent.BACK and host.pad_events.empty()
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


def test_auto_port_takes_a_pad_plugged_late_then_moved_to_another_usb_port(tmp_path):
    """Started with no pad on USB; the pad plugged in later is found and gets its lights;
    pulled and plugged into another port (another device path), it is found there and gets
    the lights set meanwhile; presses arrive from both. No restart of the backend."""
    on_usb: list[Path] = []  # the pads plugged in now, as the USB scan would list them
    looked = threading.Event()

    def find_ports() -> list[str]:
        looked.set()
        return [str(on_usb[-1])] if on_usb else []

    host = Host("auto", seats=3, find_ports=find_ports)
    assert looked.wait(WAIT)  # the reader has looked and found nothing: the pad is late
    host.backend.set_light(0, Light.LEADER)
    first = PtyPad(tmp_path / "ttyACM0")
    on_usb.append(first.link)
    connect(first, host, seats=3)
    assert first.pad.lights[:3] == ["leader", "off", "off"]
    assert host.backend.device == str(first.link)
    first.press(1, "a")
    assert host.next_events(1) == [ButtonEvent(1, "a")]

    first.unplug()
    on_usb.clear()
    assert host.statuses(3) == [(s, False) for s in range(3)]
    host.backend.set_light(2, Light.YOUR_TURN)
    second = PtyPad(tmp_path / "ttyACM1")  # another port: another device path
    on_usb.append(second.link)
    connect(second, host, seats=3)
    assert second.pad.lights[:3] == ["leader", "off", "your-turn"]
    assert host.backend.device == str(second.link)
    second.press(2, "b")
    assert host.next_events(1) == [ButtonEvent(2, "b")]
    assert host.backend.stats["connects"] == 2
    host.assert_quiet()
    host.backend.close()
    second.unplug()


def serial_config(port):
    hardware = SimpleNamespace(backend="serial", profile=None, port=port, pin_factory=None,
                               debounce_ms=20, long_press_ms=700)
    return SimpleNamespace(seats=("A", "B"), hardware=hardware, data_dir=Path("."))


def test_factory_without_a_pad_on_usb_keeps_looking_instead_of_the_simulator(
    monkeypatch, caplog
):
    """A pad unplugged at boot must not leave the table on the keyboard all evening: the
    serial backend starts anyway (its seats missing), logs that it waits, and looks again
    while it has no pad (the late pad itself: the auto-port test below)."""
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", list)
    backend, notice = open_backend(serial_config(None))
    assert isinstance(backend, SerialBackend) and notice is None
    assert backend.port == "auto" and not backend.connected(0)
    assert serial_pad.WAITING_FOR_PAD in caplog.text


def usb_port(device, vid, pid, manufacturer=None, product=None):
    """A port as pyserial's list_ports describes a USB device."""
    return SimpleNamespace(device=device, vid=vid, pid=pid, manufacturer=manufacturer,
                           product=product)


# What a Pi with a pad and other boards plugged in lists (ids from the boards' firmware:
# MicroPython's rp2 port 2E8A:0005 "MicroPython" / "Board in FS mode"; the Debug Probe
# 2E8A:000C; a Pico running a C program on the SDK's stdio 2E8A:000A).
PLUGGED = [
    usb_port("/dev/ttyUSB0", 0x0403, 0x6001, "FTDI", "FT232R USB UART"),
    usb_port("/dev/ttyACM0", serial_pad.RPI_USB_VID, 0x000C, "Raspberry Pi",
             "Debug Probe (CMSIS-DAP)"),
    usb_port("/dev/ttyACM1", serial_pad.RPI_USB_VID, 0x000A, "Raspberry Pi", "Pico"),
    usb_port("/dev/ttyACM10", serial_pad.RPI_USB_VID, 0x0005, "MicroPython",
             "Board in FS mode"),
    usb_port("/dev/ttyACM2", serial_pad.RPI_USB_VID, 0x0005, "MicroPython",
             "Board in FS mode"),
    usb_port("/dev/ttyACM3", 0x239A, 0x80F4, "MicroPython", "Board in FS mode"),  # own VID
]


def test_pad_ports_are_found_by_usb_ids_micropython_first_never_a_probe(monkeypatch):
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda: list(PLUGGED))
    assert serial_pad.pad_ports() == [
        "/dev/ttyACM2", "/dev/ttyACM3", "/dev/ttyACM10",  # MicroPython, in number order
        "/dev/ttyACM1",  # another Raspberry Pi board: tried last
    ]  # no Debug Probe, no FTDI adapter


def test_factory_looks_for_the_pad_by_usb_ids_or_uses_the_given_port(monkeypatch):
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda: list(PLUGGED[:2]))
    backend, notice = open_backend(serial_config("auto"))
    assert isinstance(backend, SerialBackend) and notice is None and backend.notice is None
    assert backend.port == "auto" and backend.find_ports() == []  # a probe is no pad
    monkeypatch.setattr(list_ports, "comports", lambda: list(PLUGGED))
    assert backend.find_ports()[0] == "/dev/ttyACM2"
    backend, notice = open_backend(serial_config("/dev/ttyACM7"))
    assert backend.port == "/dev/ttyACM7" and notice is None


class SilentBoard:
    """A serial device on a pty that is not the pad (a Debug Probe's UART bridge, another
    board's REPL): it takes what the host writes and never answers with a frame."""

    def __init__(self, link: Path) -> None:
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        link.symlink_to(os.ttyname(self.slave))
        self.link = link

    def heard(self) -> bytes:
        ready, _, _ = select.select([self.master], [], [], 0)
        return os.read(self.master, 4096) if ready else b""

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


def test_a_silent_board_on_a_lower_port_does_not_hold_the_pads_up(tmp_path, caplog):
    """Two candidates on USB, the first one silent (a second RP2040, a probe that got
    through): the host asks it, gets no HELLO within the handshake time, and takes the
    next, which is the pad; lights and presses then work. The silent one is asked again
    only when the pad is gone."""
    caplog.set_level(logging.INFO, logger="companion.hardware.serial_pad")
    other = SilentBoard(tmp_path / "ttyACM0")
    pad = PtyPad(tmp_path / "ttyACM1")
    host = Host("auto", seats=3, handshake_timeout_ms=200,
                find_ports=lambda: [str(other.link), str(pad.link)])
    try:
        host.backend.set_light(1, Light.YOUR_TURN)
        connect(pad, host, seats=3)
        assert host.backend.device == str(pad.link)
        assert pad.pad.lights[:3] == ["off", "your-turn", "off"]
        pad.press(2, "c")
        assert host.next_events(1) == [ButtonEvent(2, "c")]
        assert f"{other.link} did not answer the handshake" in caplog.text
        heard = other.heard()
        assert padproto.decode(heard.splitlines()[0]) == (None, padproto.HOST, "1")
    finally:
        host.backend.close()
        pad.unplug()
        other.close()


def test_one_candidate_is_asked_until_it_answers(tmp_path):
    """Alone on USB, a pad slow to answer (booting) is not given up: the host keeps
    asking on that port, however long the handshake time is exceeded."""
    pad = PtyPad(tmp_path / "ttyACM0", answer=False)
    host = Host("auto", seats=2, handshake_timeout_ms=1, find_ports=lambda: [str(pad.link)])
    try:
        pad.pump_until(lambda: pad.sent(padproto.HOST), "HOST")
        end = time.monotonic() + 0.3  # 300 times the handshake time, and nothing to await
        pad.pump_until(lambda: time.monotonic() > end, "the time pass")
        assert len(pad.sent(padproto.HOST)) == 1  # the same session: no reopening, no re-ask
        pad.answer = True
        pad.guard.run(pad.t, lambda p: p.feed(padproto.encode(None, padproto.HOST, "1")))
        assert host.statuses(2) == [(0, True), (1, True)]
        assert host.backend.stats["connects"] == 1
    finally:
        host.backend.close()
        pad.unplug()
