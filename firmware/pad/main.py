# Seat-pad firmware (MicroPython, RP2040): one board serves every seat of the table.
# Buttons are read every SCAN_US (a press edge is acknowledged within that) and debounced
# here (debounce.py, the same code as the Pi's GPIO backend); each press is sent once as SHORT or LONG. A raw press edge
# is acknowledged on the seat's own pixel at once (padproto.ACK_COLOUR for ACK_MS, the
# same for every button; a new light state from the host ends it). Seat lights are
# pixels of a WS2812 chain. Protocol: firmware/PROTOCOL.md, codec padproto.py (copied
# from companion/hardware/padproto.py by firmware/flash.sh).
#
# It recovers by itself: a Guard runs the loop, and an uncaught error is reported to the
# host as "ERR crash <error>", the pad's state is made anew and it says HELLO (the host
# then sends the timing and the lights again). A hardware watchdog (machine.WDT) resets
# the board when the loop stalls for WDT_MS or keeps failing (more than CRASH_LIMIT
# restarts within CRASH_WINDOW_MS); after such a reset the pad says "ERR crash watchdog
# reset" before its HELLO (after a reset asked for, machine.reset(), it does not).
import board
import machine
import neopixel
import padproto
from debounce import Debouncer

FIRMWARE = "pad-2"
WDT_MS = 2000  # the board resets when the loop has not fed the watchdog for this long
CRASH_LIMIT = 5  # guard restarts allowed within CRASH_WINDOW_MS; one more: board reset
CRASH_WINDOW_MS = 10000
REPORT_CHARS = 60  # an ERR payload's room (a frame is at most padproto.MAX_FRAME bytes)
# The pins are read this often; the debounce deadlines, the heartbeat and the lights'
# rhythm (all in whole ms) once per ms. A press edge is acknowledged within SCAN_US plus
# one read of the pins, well inside 1 ms, instead of waiting up to a 1 ms scan.
SCAN_US = 250


class Pad:
    """The pad's logic, free of USB and clocks: ``feed`` host bytes, ``poll`` with the
    time in ms; frames go out through ``write(bytes)``."""

    def __init__(self, write, debounce_ms=20, long_press_ms=700):
        self._write = write
        self.buttons = []  # [seat, name, pin, debouncer, last level read]
        for seat, wiring in enumerate(board.SEATS):
            for name, gp in wiring:
                pin = machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP)
                pressed = pin.value() == 0
                deb = Debouncer(debounce_ms, long_press_ms, pressed)
                self.buttons.append([seat, name, pin, deb, pressed])
        self.seats = len(board.SEATS)
        out = machine.Pin(board.PIXEL_PIN, machine.Pin.OUT)
        self.pixels = neopixel.NeoPixel(out, self.seats)
        self.lights = ["off"] * self.seats
        self._ack_until = [0] * self.seats  # a seat's acknowledgement shows until then
        self._since = [0] * self.seats  # when each seat's light state was set
        self._now = 0
        self._polled = None  # the ms of the last poll: the per-ms work is done once per ms
        self._shown = [None] * self.seats
        self._splitter = padproto.LineSplitter()
        self._seq = 0
        self._next_beat = 0
        self.bad_frames = 0

    def maintenance(self):
        """Seat 0's button c held at power-up: leave the REPL free for reflashing (the
        running firmware ignores Ctrl-C, see firmware/README.md)."""
        for seat, name, pin, _, _ in self.buttons:
            if seat == 0 and name == "c":
                return pin.value() == 0
        return False

    def send(self, seat, kind, payload=""):
        self._write(padproto.encode(seat, kind, payload))

    def hello(self):
        version = str(padproto.PROTOCOL_VERSION)
        self.send(None, padproto.HELLO, version + "," + str(self.seats) + "," + FIRMWARE)

    # -- host -> pad ---------------------------------------------------------------

    def feed(self, data):
        for line in self._splitter.feed(data):
            try:
                seat, kind, payload = padproto.decode(line)
            except padproto.FrameError as exc:
                self.bad_frames += 1
                self.send(None, padproto.ERR, str(exc))
                continue
            self._handle(seat, kind, payload)

    def _handle(self, seat, kind, payload):
        if kind == padproto.HOST:
            self.hello()
        elif kind == padproto.LIGHT:
            if seat is None or seat >= self.seats or payload not in padproto.COLOURS:
                self.send(seat, padproto.ERR, "bad light")
            else:
                if payload != self.lights[seat]:
                    self._ack_until[seat] = 0  # the press's result ends its acknowledgement
                    self._since[seat] = self._now
                self.lights[seat] = payload
                self._show(self._now)
        elif kind == padproto.TIMING:
            parts = payload.split(",")
            debounce_ms = padproto.number(parts[0], 4) if len(parts) == 2 else None
            long_press_ms = padproto.number(parts[1], 5) if len(parts) == 2 else None
            if debounce_ms is None or long_press_ms is None:
                self.send(None, padproto.ERR, "bad timing")
                return
            for button in self.buttons:
                button[3].debounce_ms = debounce_ms
                button[3].long_press_ms = long_press_ms
        else:
            self.send(seat, padproto.ERR, "unexpected " + kind)

    # -- time passes ---------------------------------------------------------------

    def poll(self, now):
        """Read the pins (every call); once per ms also settle the debounce deadlines,
        send the heartbeat when due and step the lights' rhythm."""
        self._now = now
        new_ms = now != self._polled
        self._polled = now
        for button in self.buttons:
            seat, name, pin, deb, last = button
            pressed = pin.value() == 0
            if pressed != last:
                button[4] = pressed
                events = deb.edge(pressed, now)
            elif new_ms:
                events = deb.poll(now)
            else:
                continue
            for press in events:
                if press == "down":
                    self._ack_until[seat] = now + padproto.ACK_MS
                    self._show(now)
                    continue
                kind = padproto.LONG if press == "long" else padproto.SHORT
                self.send(seat, kind, name + "," + str(self._seq))
                self._seq = (self._seq + 1) % padproto.SEQ_MOD
        if not new_ms:
            return
        if now >= self._next_beat:
            self.send(None, padproto.BEAT, str(now))
            self._next_beat = now + padproto.BEAT_MS
        self._show(now)

    def _show(self, now):
        changed = False
        for seat in range(self.seats):
            state = self.lights[seat]
            if now < self._ack_until[seat]:
                colour = padproto.ACK_COLOUR
            else:
                level = padproto.light_level_since(state, now, self._since[seat])
                colour = padproto.level_rgb(state, level)
            if colour != self._shown[seat]:
                self.pixels[seat] = colour
                self._shown[seat] = colour
                changed = True
        if changed:
            self.pixels.write()


def crash_report(exc):
    """ERR payload for an error the guard caught: printable ASCII, short enough to frame."""
    text = padproto.CRASH + type(exc).__name__ + ": " + str(exc)
    out = ""
    for ch in text:
        out += ch if 32 <= ord(ch) <= 126 and ch not in "$*" else "?"
    return out[:REPORT_CHARS]


class Guard:
    """Runs the pad under a guard and feeds the watchdog.

    ``make_pad()`` builds a fresh Pad; ``run(now, action)`` calls ``action(pad)`` and, if
    it raises, reports the error over the line, builds the pad anew and says HELLO. It
    returns False once the pad has failed more than CRASH_LIMIT times within
    CRASH_WINDOW_MS (or cannot even be rebuilt): the caller then stops feeding the
    watchdog, which resets the board."""

    def __init__(self, make_pad, write, wdt):
        self._make_pad = make_pad
        self._write = write
        self.wdt = wdt
        self.pad = make_pad()
        self.crashes = []  # times (ms) of the recent restarts
        self.restarts = 0

    def run(self, now, action):
        try:
            action(self.pad)
        except Exception as exc:  # noqa: BLE001 - any error: never drop to the REPL
            return self._recover(exc, now)
        self.wdt.feed()
        return True

    def _recover(self, exc, now):
        self.crashes = [t for t in self.crashes if now - t < CRASH_WINDOW_MS]
        self.crashes.append(now)
        self.restarts += 1
        try:
            self._write(padproto.encode(None, padproto.ERR, crash_report(exc)))
        except Exception:  # noqa: BLE001, S110 - the line itself failed: restart anyway
            pass
        if len(self.crashes) > CRASH_LIMIT:
            return False
        try:
            self.pad = self._make_pad()
            self.pad.hello()
        except Exception:  # noqa: BLE001 - cannot even rebuild: let the watchdog reset
            return False
        self.wdt.feed()
        return True


def watchdog_ran_out():
    """The board was reset by the watchdog running out (a hang, crashes that kept
    coming), not by ``machine.reset()``. On rp2 ``machine.reset()`` (what ``mpremote
    reset`` calls) is the SDK's ``watchdog_reboot``, so ``reset_cause()`` says WDT_RESET
    for both; the watchdog's REASON register tells them apart: bit 0 TIMER (it ran out),
    bit 1 FORCE (a reset asked for). RP2040 datasheet, section 4.7 "Watchdog":
    WATCHDOG_BASE 0x40058000, REASON at offset 0x08 (the RP2350's watchdog, on a Pico 2,
    is at 0x400d8000, same layout; not tried on one)."""
    import machine

    if machine.reset_cause() != machine.WDT_RESET:
        return False
    base = 0x400D8000 if "RP2350" in machine_name() else 0x40058000
    return (machine.mem32[base + 0x08] & 1) != 0


def machine_name():
    """MicroPython's name of the board and its chip ("Raspberry Pi Pico with RP2040")."""
    import sys

    return getattr(sys.implementation, "_machine", "")


def boot_report(write):
    """After a watchdog reset, say so before the first HELLO (not after a reset someone
    asked for: ``mpremote reset`` after flashing is no crash)."""
    if watchdog_ran_out():
        write(padproto.encode(None, padproto.ERR, padproto.CRASH + "watchdog reset"))


def maintenance_held():
    """Seat 1's button C held, read straight from its pin (no Pad needed)."""
    import machine

    for name, gp in board.SEATS[0]:
        if name == "c":
            return machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0
    return False


def fail_at_start(exc, write, hang):
    """An error before the guard runs (building the pad, the USB line): report it, then
    let the watchdog reset the board (``hang`` waits for it), unless seat 1's C is held
    for maintenance (then return: the REPL stays free for reflashing)."""
    import machine

    try:
        write(padproto.encode(None, padproto.ERR, crash_report(exc)))
    except Exception:  # noqa: BLE001, S110 - the line itself failed: reset anyway
        pass
    try:
        if maintenance_held():
            return
    except Exception:  # noqa: BLE001, S110 - cannot even read the pin: reset
        pass
    machine.WDT(timeout=WDT_MS)
    hang()


def main():
    import sys
    import time

    stdout = sys.stdout.buffer
    try:
        serve(sys.stdin, stdout)
    except Exception as exc:  # noqa: BLE001 - reported; the watchdog resets the board
        def hang():
            while True:
                time.sleep_ms(100)

        fail_at_start(exc, stdout.write, hang)


def serve(stdin_stream, stdout, modules=None):
    """Run the pad for ever under the guard and the watchdog. ``modules``: stand-ins for
    MicroPython's (time, select, micropython), for the tests on a PC."""
    import machine

    if modules is None:
        import select
        import time

        import micropython
    else:
        time, select, micropython = modules

    stdin = stdin_stream.buffer
    first = Pad(stdout.write)
    if first.maintenance():  # before the watchdog: once started it cannot be stopped
        print("seat pad: maintenance mode, REPL free")
        return
    micropython.kbd_intr(-1)  # a 0x03 in line noise must not stop the firmware
    wdt = machine.WDT(timeout=WDT_MS)
    pads = [first]  # the first Pad is used as is; a restart makes a new one

    def make_pad():
        return pads.pop() if pads else Pad(stdout.write)

    guard = Guard(make_pad, stdout.write, wdt)
    poller = select.poll()
    poller.register(stdin_stream, select.POLLIN)
    boot_report(stdout.write)
    guard.pad.hello()
    now = 0
    last = time.ticks_ms()

    def step(pad):
        while poller.poll(0):
            pad.feed(stdin.read(1))
        pad.poll(now)

    while True:
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)  # ticks_ms wraps; ``now`` does not
        last = tick
        if not guard.run(now, step):
            while True:  # the watchdog resets the board within WDT_MS
                time.sleep_ms(100)
        time.sleep_us(SCAN_US)


if __name__ == "__main__":
    main()
