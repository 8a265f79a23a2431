# Seat-pad firmware (MicroPython, RP2040): one board serves every seat of the table.
# Buttons are scanned every millisecond and debounced here (debounce.py, the same code
# as the Pi's GPIO backend); each press is sent once as SHORT or LONG. A raw press edge
# is acknowledged on the seat's own pixel at once (padproto.ACK_COLOUR for ACK_MS, the
# same for every button; a new light state from the host ends it). Seat lights are
# pixels of a WS2812 chain. Protocol: firmware/PROTOCOL.md, codec padproto.py (copied
# from companion/hardware/padproto.py by firmware/flash.sh).
import board
import machine
import neopixel
import padproto
from debounce import Debouncer

FIRMWARE = "pad-1"


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
        self._now = 0
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
                self.lights[seat] = payload
                self._show(self._now)
        elif kind == padproto.TIMING:
            parts = payload.split(",")
            if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
                self.send(None, padproto.ERR, "bad timing")
                return
            for button in self.buttons:
                button[3].debounce_ms = int(parts[0])
                button[3].long_press_ms = int(parts[1])
        else:
            self.send(seat, padproto.ERR, "unexpected " + kind)

    # -- time passes ---------------------------------------------------------------

    def poll(self, now):
        self._now = now
        for button in self.buttons:
            seat, name, pin, deb, last = button
            pressed = pin.value() == 0
            if pressed != last:
                button[4] = pressed
                events = deb.edge(pressed, now)
            else:
                events = deb.poll(now)
            for press in events:
                if press == "down":
                    self._ack_until[seat] = now + padproto.ACK_MS
                    self._show(now)
                    continue
                kind = padproto.LONG if press == "long" else padproto.SHORT
                self.send(seat, kind, name + "," + str(self._seq))
                self._seq = (self._seq + 1) % padproto.SEQ_MOD
        if now >= self._next_beat:
            self.send(None, padproto.BEAT, str(now))
            self._next_beat = now + padproto.BEAT_MS
        self._show(now)

    def _show(self, now):
        step = now // padproto.TICK_MS
        changed = False
        for seat in range(self.seats):
            state = self.lights[seat]
            colour = padproto.COLOURS[state]
            if now < self._ack_until[seat]:
                colour = padproto.ACK_COLOUR
            elif state in padproto.BLINKING:
                pattern = padproto.BLINK_PATTERN
                if pattern[step % len(pattern)] != "1":
                    colour = (0, 0, 0)
            if colour != self._shown[seat]:
                self.pixels[seat] = colour
                self._shown[seat] = colour
                changed = True
        if changed:
            self.pixels.write()


def main():
    import select
    import sys
    import time

    import micropython

    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    pad = Pad(stdout.write)
    if pad.maintenance():
        print("seat pad: maintenance mode, REPL free")
        return
    micropython.kbd_intr(-1)  # a 0x03 in line noise must not stop the firmware
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    pad.hello()
    now = 0
    last = time.ticks_ms()
    while True:
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)  # ticks_ms wraps; ``now`` does not
        last = tick
        while poller.poll(0):
            pad.feed(stdin.read(1))
        pad.poll(now)
        time.sleep_ms(1)


if __name__ == "__main__":
    main()
