"""Seat-pad serial protocol: frame codec and the light table, shared by host and firmware.

This one file is the single source of the protocol. The host imports it as
``companion.hardware.padproto``; ``firmware/flash.sh`` copies this very file onto the
RP2040 as ``padproto.py`` next to ``main.py``. It must therefore stay MicroPython
compatible: no dataclasses, no typing at runtime, no f-string ``=``, no ``enum``, only
``str``/``bytes`` basics. ``tests/test_firmware_protocol.py`` checks its imports.

Frame (ASCII, one per line): ``$<seat>,<type>,<payload>*<crc>\\n`` where ``<seat>`` is a
decimal seat index (0-based, ``-`` for the whole pad), ``<type>`` one upper-case word,
``<payload>`` printable ASCII without ``$*\\r\\n``, and ``<crc>`` two upper-case hex digits
of CRC-8 (poly 0x07, init 0x00) over the bytes between ``$`` and ``*``. See
``firmware/PROTOCOL.md``.
"""

PROTOCOL_VERSION = 1
MAX_FRAME = 80  # bytes between '$' and '\n'; a longer run without '\n' is garbage

# Light states by their protocol names (the values of companion.hardware.base.Light):
# colour for RGB LEDs / WS2812 and whether the state blinks.
COLOURS = {
    "off": (0, 0, 0),
    "first-player": (255, 170, 0),  # amber
    "leader": (170, 0, 255),  # purple
    "moderator": (0, 190, 255),  # cyan
    "your-turn": (0, 255, 40),  # green
    "ballot-locked": (0, 40, 255),  # blue
    "attention": (255, 0, 0),  # red, blinking
}
BLINKING = ("attention",)
TICK_MS = 100  # one step of a blink pattern
BLINK_PATTERN = "1100"  # the BLINKING states: lit 0.2 s, dark 0.2 s ("1" = lit per step)
BEAT_MS = 500  # the pad sends a heartbeat this often
# The acknowledgement of a press edge, shown by the pad (or the GPIO backend) itself the
# moment a button goes down, the same for every button and every light state: an RGB
# light shows ACK_COLOUR, a plain LED flips, for ACK_MS or until the seat's light state
# changes (the press's result), whichever comes first.
ACK_MS = 120
ACK_COLOUR = (255, 255, 255)  # white: no light state uses it
BUTTONS = ("a", "b", "c")

# Frame types. Pad -> host:
HELLO = "HELLO"  # payload "<version>,<seats>,<firmware id>"; sent on boot and on request
BEAT = "BEAT"  # heartbeat, payload = pad uptime in ms (decimal)
SHORT = "SHORT"  # released before the long-press time, payload = "<button>,<seq>"
LONG = "LONG"  # held the long-press time (sent once, at the threshold), "<button>,<seq>"
ERR = "ERR"  # the pad refused a frame, payload = reason
# Host -> pad:
HOST = "HOST"  # handshake, payload = "<version>"; the pad answers HELLO
LIGHT = "LIGHT"  # payload = light state name (a key of COLOURS)
TIMING = "TIMING"  # payload = "<debounce ms>,<long press ms>"
SEQ_MOD = 10000  # event sequence numbers count 0..9999 then wrap; 0 again after a boot

_TYPES = (HELLO, BEAT, SHORT, LONG, ERR, HOST, LIGHT, TIMING)


_HEX = b"0123456789ABCDEF"  # upper case only: a flipped case bit must not pass


class FrameError(ValueError):
    """A line that is not a valid frame (bad shape, bad checksum, unknown type)."""


def crc8(data):
    """CRC-8/SMBUS (poly 0x07, init 0) of ``data`` (bytes)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            if crc & 0x80:
                crc = ((crc << 1) ^ 0x07) & 0xFF
            else:
                crc = (crc << 1) & 0xFF
    return crc


def _printable(text):
    for ch in text:
        o = ord(ch)
        if o < 32 or o > 126 or ch in "$*":
            return False
    return True


def encode(seat, kind, payload=""):
    """One frame as bytes, newline included. ``seat`` is an int or None (whole pad)."""
    if kind not in _TYPES:
        raise FrameError("unknown frame type " + repr(kind))
    payload = str(payload)
    if not _printable(payload):
        raise FrameError("payload not printable: " + repr(payload))
    body = ("-" if seat is None else str(int(seat))) + "," + kind + "," + payload
    raw = body.encode()
    if len(raw) + 4 > MAX_FRAME:
        raise FrameError("frame too long")
    return b"$" + raw + b"*" + f"{crc8(raw):02X}".encode() + b"\n"


def decode(line):
    """``(seat, type, payload)`` from one line (bytes, with or without the newline).

    ``seat`` is an int or None. Raises FrameError on anything else."""
    line = line.strip()
    if len(line) < 8 or line[:1] != b"$" or line[-3:-2] != b"*":
        raise FrameError("not a frame")
    raw = line[1:-3]
    hex_digits = line[-2:]
    if hex_digits[:1] not in _HEX or hex_digits[1:] not in _HEX:  # slices: MicroPython-safe
        raise FrameError("bad checksum digits")
    try:
        text = raw.decode()
    except UnicodeError:
        raise FrameError("not ASCII")
    want = int(hex_digits.decode(), 16)
    if crc8(raw) != want:
        raise FrameError("bad checksum")
    parts = text.split(",", 2)
    if len(parts) != 3:
        raise FrameError("missing fields")
    seat_text, kind, payload = parts
    if kind not in _TYPES:
        raise FrameError("unknown frame type")
    if not _printable(payload):
        raise FrameError("payload not printable")
    if seat_text == "-":
        return None, kind, payload
    if not seat_text.isdigit() or len(seat_text) > 2:
        raise FrameError("bad seat")
    return int(seat_text), kind, payload


class LineSplitter:
    """Bytes in, candidate lines out: resynchronises on '$', drops overlong runs.

    Returns whole lines starting with '$' (without the newline), at most MAX_FRAME long;
    what came before the last '$' of a line and longer runs are counted in ``dropped``
    (bytes) and discarded, so memory stays bounded whatever arrives."""

    def __init__(self):
        self._buf = b""
        self.dropped = 0

    def feed(self, data):
        self._buf += data
        lines = []
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                break
            line = self._buf[:nl]
            self._buf = self._buf[nl + 1 :]
            start = line.rfind(b"$")
            if start < 0 or len(line) - start > MAX_FRAME:
                self.dropped += len(line) + 1
                continue
            self.dropped += start
            lines.append(line[start:])
        if len(self._buf) > MAX_FRAME:
            start = self._buf.rfind(b"$")
            if start <= 0 or len(self._buf) - start > MAX_FRAME:
                self.dropped += len(self._buf)
                self._buf = b""
            else:
                self.dropped += start
                self._buf = self._buf[start:]
        return lines

    def reset(self):
        self._buf = b""
