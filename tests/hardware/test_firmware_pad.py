"""The RP2040 pad firmware's logic, run on the host with a stand-in ``machine`` module:
its own debounce (one frame per press under chatter), long presses, heartbeat, light
commands on the WS2812 chain, refusals, and its pin map matching the serial profile."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from fakes.firmware import PAD, load_firmware

from companion.hardware import padproto
from companion.hardware.padproto import ACK_COLOUR
from companion.hardware.profile import load_profile, profile_path


class Pad:
    """firmware Pad + what it wrote, decoded."""

    def __init__(self) -> None:
        self.fw = load_firmware()
        self.out = bytearray()
        self.pad = self.fw.Pad(self.out.extend)
        self.t = 0
        self.pad.poll(self.t)  # first heartbeat
        self.out.clear()

    def frames(self) -> list[tuple]:
        frames = [padproto.decode(line) for line in bytes(self.out).splitlines()]
        self.out.clear()
        return frames

    def events(self) -> list[tuple]:
        return [f for f in self.frames() if f[1] in (padproto.SHORT, padproto.LONG)]

    def pin(self, gp: int):
        return self.fw.machine.PINS[gp]

    def at(self, t: int) -> None:
        self.t = t
        self.pad.poll(t)

    def drive(self, gp: int, pressed: bool, rng: random.Random) -> None:
        """Set the pin with up to 5 ms of bounce, scanning every ms as the firmware does."""
        flips = [rng.random() < 0.5 for _ in range(5)]
        for flip in flips:
            self.pin(gp).value(0 if (pressed != flip) else 1)
            self.at(self.t + 1)
        self.pin(gp).value(0 if pressed else 1)
        self.at(self.t + 1)


def test_seat_0_button_c_held_at_power_up_is_maintenance_mode():
    fw = load_firmware()
    assert not fw.Pad(bytearray().extend).maintenance()

    class HeldPin(fw.machine.Pin):  # GP4 = seat 0 button c, held down at power-up
        def __init__(self, gp, mode=-1, pull=-1):
            super().__init__(gp, mode, pull)
            if gp == 4:
                self.value(0)

    fw.machine.Pin = HeldPin
    assert fw.Pad(bytearray().extend).maintenance()


def test_pin_map_matches_the_serial_pads_profile():
    profile = load_profile(profile_path("serial-pads"))
    fw = load_firmware()
    assert fw.board.PIXEL_PIN == profile.pixel_pin
    assert [tuple(s) for s in fw.board.SEATS] == [s.buttons for s in profile.seats]
    assert [s.pixel for s in profile.seats] == list(range(len(profile.seats)))


def test_buttons_are_pulled_up_inputs_and_pixels_start_dark():
    p = Pad()
    pin = p.pin(2)
    assert pin.mode == p.fw.machine.Pin.IN and pin.pull == p.fw.machine.Pin.PULL_UP
    assert p.pad.pixels.written == [(0, 0, 0)] * 5


def test_chattering_presses_give_one_frame_each_with_consecutive_sequence_numbers():
    rng = random.Random(5)
    p = Pad()
    expected = []
    for i in range(200):
        seat = rng.randrange(5)
        name, gp = rng.choice(p.fw.board.SEATS[seat])
        p.drive(gp, True, rng)
        p.at(p.t + rng.randint(25, 500))
        p.drive(gp, False, rng)
        p.at(p.t + 30)
        expected.append((seat, padproto.SHORT, f"{name},{i}"))
    assert p.events() == expected


def test_long_press_is_sent_once_at_the_threshold():
    rng = random.Random(1)
    p = Pad()
    p.drive(11, True, rng)  # seat 3, button a
    start = p.t
    p.at(start + 600)
    assert p.events() == []
    p.at(start + 700)
    assert p.events() == [(3, padproto.LONG, "a,0")]
    p.at(start + 5000)
    p.drive(11, False, rng)
    p.at(p.t + 50)
    assert p.events() == []


def test_timing_command_changes_debounce_and_long_press():
    rng = random.Random(2)
    p = Pad()
    p.pad.feed(padproto.encode(None, padproto.TIMING, "30,300"))
    p.drive(2, True, rng)
    p.at(p.t + 300)
    assert p.events() == [(0, padproto.LONG, "a,0")]
    p.pad.feed(padproto.encode(None, padproto.TIMING, "30"))
    assert p.frames() == [(None, padproto.ERR, "bad timing")]


def test_heartbeat_every_beat_ms_carries_uptime():
    p = Pad()
    for t in range(1, 1600):
        p.at(t)
    beats = [f for f in p.frames() if f[1] == padproto.BEAT]
    assert beats == [(None, padproto.BEAT, str(t)) for t in (500, 1000, 1500)]


def test_host_handshake_is_answered_with_hello_version_seats_firmware():
    p = Pad()
    p.pad.feed(padproto.encode(None, padproto.HOST, "1"))
    assert p.frames() == [(None, padproto.HELLO, f"{padproto.PROTOCOL_VERSION},5,pad-2")]


@pytest.mark.parametrize("state", sorted(padproto.COLOURS))
def test_light_command_shows_the_state_colour_on_the_seat_pixel(state):
    p = Pad()
    p.pad.feed(padproto.encode(2, padproto.LIGHT, state))
    p.at(1600)  # step 16: where every state's rhythm starts, lit (first-player at 7/9)
    assert p.pad.pixels.written[2] == padproto.light_rgb(state, 16)
    assert (p.pad.pixels.written[2] != (0, 0, 0)) == (state != "off")
    assert p.pad.pixels.written[1] == (0, 0, 0)


def test_attention_blinks_and_pixels_are_written_only_on_change():
    p = Pad()
    p.pad.feed(padproto.encode(0, padproto.LIGHT, "attention"))
    seen = []
    for step in range(8):
        p.at(2000 + step * 100)
        seen.append(p.pad.pixels.written[0] != (0, 0, 0))
    assert seen == [c != "0" for c in padproto.LIGHTS["attention"][1] * 4]
    writes = p.pad.pixels.writes
    for t in range(2701, 2800):  # inside one step: nothing changes, nothing written
        p.at(t)
    assert p.pad.pixels.writes == writes


def test_bad_frames_from_the_host_are_refused_and_counted_never_fatal():
    p = Pad()
    good = padproto.encode(1, padproto.LIGHT, "leader")
    crc = int(good[-3:-1], 16) ^ 0x01
    p.pad.feed(b"\x00\xffnoise\n" + good[:-3] + f"{crc:02X}\n".encode())  # bad checksum
    p.pad.feed(padproto.encode(1, padproto.LIGHT, "disco"))
    p.pad.feed(padproto.encode(7, padproto.LIGHT, "leader"))
    p.pad.feed(padproto.encode(1, padproto.BEAT, "1"))
    assert p.frames() == [
        (None, padproto.ERR, "bad checksum"),
        (1, padproto.ERR, "bad light"),
        (7, padproto.ERR, "bad light"),
        (1, padproto.ERR, "unexpected BEAT"),
    ]
    assert p.pad.bad_frames == 1
    p.pad.feed(good[:5])
    p.pad.feed(good[5:])  # a frame in two pieces still counts
    assert p.pad.lights[1] == "leader"


class Guarded:
    """The firmware's Guard over a Pad, as main() runs it, with what it wrote."""

    def __init__(self) -> None:
        self.fw = load_firmware()
        self.out = bytearray()
        self.wdt = self.fw.machine.WDT(timeout=self.fw.WDT_MS)
        self.guard = self.fw.Guard(lambda: self.fw.Pad(self.out.extend), self.out.extend,
                                   self.wdt)

    def frames(self) -> list[tuple]:
        frames = [padproto.decode(line) for line in bytes(self.out).splitlines()]
        self.out.clear()
        return frames


def test_an_error_in_the_loop_is_reported_the_pad_restarts_and_says_hello():
    g = Guarded()
    g.guard.pad.feed(padproto.encode(2, padproto.LIGHT, "leader"))
    assert g.guard.run(0, lambda pad: pad.poll(0))
    g.frames()
    feeds = g.wdt.feeds
    g.fw.machine.PINS[2].fail_reads(OSError("pin \u00e9tat $bad*"))  # odd characters too
    old = g.guard.pad
    assert g.guard.run(1, lambda pad: pad.poll(1))  # caught: the loop goes on
    frames = g.frames()
    assert frames[0][:2] == (None, padproto.ERR)
    assert frames[0][2] == "crash OSError: pin ?tat ?bad?"
    assert frames[1] == (None, padproto.HELLO, f"{padproto.PROTOCOL_VERSION},5,pad-2")
    assert g.guard.pad is not old and g.guard.pad.lights == ["off"] * 5  # the host restores
    assert g.wdt.feeds == feeds + 1 and g.guard.restarts == 1
    # the new pad works: a press of seat 1's button a (GP5) is the new pad's event 0
    pin = g.fw.machine.PINS[5]
    for t, level in ((10, 0), (60, 1), (110, 1)):
        pin.value(level)
        for ms in range(t, t + 50):
            assert g.guard.run(ms, lambda pad, ms=ms: pad.poll(ms))
    assert [f for f in g.frames() if f[1] == padproto.SHORT] == [(1, padproto.SHORT, "a,0")]


def test_a_crash_report_always_fits_a_frame():
    fw = load_firmware()
    report = fw.crash_report(ValueError("\u00b2$*" + "x" * 500))
    assert report.startswith("crash ValueError: ???x")
    assert padproto.decode(padproto.encode(None, padproto.ERR, report))[2] == report


def test_a_pad_failing_again_and_again_stops_feeding_the_watchdog_so_the_board_resets():
    g = Guarded()
    limit = g.fw.CRASH_LIMIT

    def crash(pad):
        raise RuntimeError("stuck")

    for i in range(limit):
        assert g.guard.run(i * 100, crash)  # restarted: fed
    feeds = g.wdt.feeds
    assert not g.guard.run(limit * 100, crash)  # one too many within the window
    assert g.wdt.feeds == feeds
    kinds = [f[1] for f in g.frames()]
    assert kinds == [padproto.ERR, padproto.HELLO] * limit + [padproto.ERR]


def test_crashes_far_apart_never_add_up_to_a_board_reset():
    g = Guarded()

    def crash(pad):
        raise RuntimeError("rare")

    window = g.fw.CRASH_WINDOW_MS
    assert all(g.guard.run(i * window, crash) for i in range(3 * g.fw.CRASH_LIMIT))
    assert g.guard.restarts == 3 * g.fw.CRASH_LIMIT


def test_an_error_before_the_guard_is_reported_and_the_watchdog_resets_the_board():
    """Building the pad failed at start-up (no guard yet): the error goes out on the line,
    a watchdog is started and the firmware waits for it instead of dropping to the REPL."""
    fw = load_firmware()
    out = bytearray()
    hung: list[bool] = []
    fw.fail_at_start(OSError("no pins"), out.extend, lambda: hung.append(True))
    assert padproto.decode(bytes(out)) == (None, padproto.ERR, "crash OSError: no pins")
    assert hung == [True]


def test_an_error_before_the_guard_with_seat_1_c_held_leaves_the_repl_free():
    fw = load_firmware()

    class HeldPin(fw.machine.Pin):  # GP4 = seat 1 button c, held down
        def __init__(self, gp, mode=-1, pull=-1):
            super().__init__(gp, mode, pull)
            if gp == 4:
                self.value(0)

    fw.machine.Pin = HeldPin
    hung: list[bool] = []
    fw.fail_at_start(RuntimeError("bug"), bytearray().extend, lambda: hung.append(True))
    assert hung == []


class Board:
    """MicroPython's time, select and micropython for ``serve``, on a clock that moves by
    its sleeps; ``at[t]`` runs when the clock reaches t ms; ``Stop`` at ``end``."""

    class Stop(BaseException):  # not an Exception: the guard must not catch it
        pass

    def __init__(self, end: int) -> None:
        self.t = 0
        self.us = 0  # pauses below a ms, not yet on the clock
        self.end = end
        self.at: dict = {}
        self.host = bytearray()  # bytes the host sent, not read yet
        self.out = bytearray()
        self.buffer = self  # stdin.buffer
        self.kbd_intr_calls: list[int] = []

    # time
    def ticks_ms(self) -> int:
        return self.t

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def sleep_us(self, us: int) -> None:
        """The loop's pause between two reads of the pins: the clock moves a whole ms once
        the pauses add up to one."""
        self.us += us
        if self.us >= 1000:
            self.us -= 1000
            self.sleep_ms(1)

    def sleep_ms(self, ms: int) -> None:
        for t in range(self.t + 1, self.t + ms + 1):
            if t in self.at:
                self.at.pop(t)()
        self.t += ms
        if self.t >= self.end:
            raise Board.Stop

    # select
    POLLIN = 1

    def poll(self, timeout: int | None = None):
        return self if timeout is None else ([(0, 1)] if self.host else [])

    def register(self, stream, events) -> None:
        pass

    # micropython
    def kbd_intr(self, char: int) -> None:
        self.kbd_intr_calls.append(char)

    # stdin
    def read(self, n: int) -> bytes:
        data = bytes(self.host[:n])
        del self.host[:n]
        return data

    def frames(self) -> list[tuple]:
        return [padproto.decode(line) for line in bytes(self.out).splitlines()]

    def run(self, fw) -> None:
        class Out:
            write = self.out.extend

        with pytest.raises(Board.Stop):
            fw.serve(self, Out, (self, self, self))


def test_the_real_loop_says_hello_answers_the_host_and_survives_an_error_under_the_watchdog():
    """``serve``, the loop main() runs on the board: Ctrl-C off, a watchdog started and fed
    every pass, HELLO at boot; a pin fault in the scan is reported, the pad rebuilt (its
    lights dark, HELLO again) and the loop goes on, still answering the host."""
    fw = load_firmware()
    fw.machine.WATCHDOGS.clear()
    board = Board(end=300)
    board.at[10] = lambda: board.host.extend(padproto.encode(None, padproto.HOST, "1")
                                             + padproto.encode(1, padproto.LIGHT, "leader"))
    board.at[100] = lambda: fw.machine.PINS[5].fail_reads(OSError("pin fault"))
    board.at[200] = lambda: board.host.extend(padproto.encode(None, padproto.HOST, "1"))
    board.run(fw)
    assert board.kbd_intr_calls == [-1]
    [wdt] = fw.machine.WATCHDOGS
    assert wdt.timeout == fw.WDT_MS
    assert wdt.feeds >= 290  # fed on every pass but the one that failed
    kinds = [(f[1], f[2].split(",")[0]) for f in board.frames() if f[1] != padproto.BEAT]
    assert kinds == [(padproto.HELLO, "1"), (padproto.HELLO, "1"),
                     (padproto.ERR, "crash OSError: pin fault"), (padproto.HELLO, "1"),
                     (padproto.HELLO, "1")]


def test_the_real_loop_reads_the_pins_every_scan_and_acknowledges_at_the_read():
    """A press edge waits at most one pause of the loop (SCAN_US, under a ms) before it is
    read and acknowledged on the seat's pixel: the loop reads every pin 1000 / SCAN_US
    times per ms of its clock, while the per-ms work (the heartbeat) stays once per ms."""
    fw = load_firmware()
    gp = dict(fw.board.SEATS[2])["b"]
    reads: list[tuple[int, int]] = []  # (board ms, µs within it) of each read of that pin

    class CountedPin(fw.machine.Pin):
        def value(self, *level):
            if self.gp == gp and not level:
                reads.append((board.t, board.us))
            return super().value(*level)

    fw.machine.Pin = CountedPin
    board = Board(end=1000)
    acked: list[tuple[int, int]] = []
    board.at[400] = lambda: fw.machine.PINS[gp].value(0)
    pixels = fw.neopixel.NeoPixel

    class Watched(pixels):
        def write(self):
            super().write()
            if self.written[2] == ACK_COLOUR and not acked:
                acked.append((board.t, board.us))

    fw.neopixel.NeoPixel = Watched
    board.run(fw)
    per_ms = [sum(1 for t, _ in reads if t == ms) for ms in range(100, 200)]
    assert fw.SCAN_US < 1000 and min(per_ms) == 1000 // fw.SCAN_US
    assert acked and acked[0][0] == 400  # in the ms the edge came, not at the next one
    beats = [f for f in board.frames() if f[1] == padproto.BEAT]
    assert len(beats) == 1000 // padproto.BEAT_MS


def test_the_real_loop_with_seat_1_c_held_at_power_up_starts_no_watchdog():
    fw = load_firmware()
    fw.machine.WATCHDOGS.clear()

    class HeldPin(fw.machine.Pin):
        def __init__(self, gp, mode=-1, pull=-1):
            super().__init__(gp, mode, pull)
            if gp == 4:
                self.value(0)

    fw.machine.Pin = HeldPin
    board = Board(end=100)

    class Out:
        write = board.out.extend

    fw.serve(board, Out, (board, board, board))  # returns: the REPL is free
    assert fw.machine.WATCHDOGS == [] and board.kbd_intr_calls == []


def test_after_a_watchdog_reset_the_pad_says_so_before_hello():
    fw = load_firmware()
    out = bytearray()
    fw.boot_report(out.extend)
    assert out == b""  # a normal power-up says nothing
    fw.machine.rebooted_by("watchdog")
    fw.boot_report(out.extend)
    assert padproto.decode(bytes(out)) == (None, padproto.ERR, "crash watchdog reset")


def test_a_reset_asked_for_is_no_crash():
    """`mpremote reset` (after flash.sh) calls machine.reset(): on rp2 a watchdog reboot
    too (reset_cause() says WDT_RESET), but forced, not run out: no crash report."""
    fw = load_firmware()
    out = bytearray()
    fw.machine.rebooted_by("reset")
    assert fw.machine.reset_cause() == fw.machine.WDT_RESET
    fw.boot_report(out.extend)
    assert out == b""
    fw.machine.rebooted_by("power")
    fw.boot_report(out.extend)
    assert out == b""


def test_the_reset_reason_is_read_where_the_chip_keeps_it(monkeypatch):
    """A Pico 2 (RP2350) keeps its watchdog elsewhere: its REASON register is read."""
    fw = load_firmware()
    monkeypatch.setattr(fw, "machine_name", lambda: "Raspberry Pi Pico 2 with RP2350")
    fw.machine.rebooted_by("reset")  # the RP2040's register says FORCE ...
    fw.machine.mem32[0x400D8008] = fw.machine.REASON_TIMER  # ... the RP2350's ran out
    assert fw.watchdog_ran_out()
    fw.machine.mem32[0x400D8008] = fw.machine.REASON_FORCE
    assert not fw.watchdog_ran_out()


def test_timing_needs_ascii_numbers():
    p = Pad()
    p.pad.feed(padproto.encode(None, padproto.TIMING, "\u00b2\u00b2,700".encode("ascii", "replace").decode()))
    p.pad.feed(padproto.encode(None, padproto.TIMING, "020,700"))
    assert p.frames() == [(None, padproto.ERR, "bad timing")] * 2


# What MicroPython provides that the firmware files may import.
MICROPYTHON_MODULES = {"machine", "neopixel", "select", "sys", "time", "micropython"}
FIRMWARE_MODULES = {"board", "padproto", "debounce"}


@pytest.mark.parametrize(
    "path",
    [PAD / "main.py", PAD / "board.py",
     Path(padproto.__file__), Path(padproto.__file__).with_name("debounce.py")],
    ids=lambda p: p.name,
)
def test_firmware_files_only_use_what_micropython_has(path):
    """No dataclasses, typing, enum, __future__ or other CPython-only imports."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, ast.AnnAssign), f"{path.name}:{node.lineno}: annotation"
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module]
        else:
            continue
        for name in names:
            assert name in MICROPYTHON_MODULES | FIRMWARE_MODULES, f"{path.name}: {name}"
