"""Seat-pad serial protocol: frame codec and the light table, shared by host and firmware.

This one file is the single source of the protocol. The host imports it as
``companion.hardware.padproto``; ``firmware/flash.sh`` copies this very file onto the
RP2040 as ``padproto.py`` next to ``main.py``. It must therefore stay MicroPython
compatible: no dataclasses, no typing at runtime, no f-string ``=``, no ``enum``, only
``str``/``bytes`` basics. ``tests/hardware/test_firmware_protocol.py`` checks its imports.

Frame (ASCII, one per line): ``$<seat>,<type>,<payload>*<crc>\\n`` where ``<seat>`` is a
decimal seat index (0-based, ASCII digits ``0``-``9`` without a leading zero, ``-`` for the
whole pad), ``<type>`` one upper-case word,
``<payload>`` printable ASCII without ``$*\\r\\n``, and ``<crc>`` two upper-case hex digits
of CRC-8 (poly 0x07, init 0x00) over the bytes between ``$`` and ``*``. See
``firmware/PROTOCOL.md``.
"""

PROTOCOL_VERSION = 1
MAX_FRAME = 80  # bytes between '$' and '\n'; a longer run without '\n' is garbage

# Light states by their protocol names (the values of companion.play.seat.Light): the one table
# every light reads — the GPIO backend's LEDs, the pads' pixels, the screen's mirror.
# A pattern has one character per TICK_MS step, repeating: "0" dark, "1" to "9" lit at
# that many ninths of the state's colour (a plain LED is on for any of them). Every lit
# state has its own rhythm, so the states are told apart on a plain LED, by a colour-blind
# player and from the seats' colours (which never blink); the colours are a second cue,
# chosen apart from each other and from ACK_COLOUR in every common colour vision
# (tests/play/test_light_palette.py).
LIGHTS = {
    "off": ((0, 0, 0), "0"),
    # gold at 7/9, on with a short dip every 1.6 s: on all round, quietly
    "first-player": ((225, 219, 0), "7777777777777700"),
    "leader": ((122, 0, 255), "9999999900000000"),  # violet, slow blink 0.8 s / 0.8 s
    "moderator": ((112, 174, 255), "9909900000000000"),  # sky blue, double flash / 1.6 s
    "your-turn": ((160, 255, 152), "9900"),  # mint, fast blink 0.2 s / 0.2 s
    "ballot-locked": ((96, 120, 143), "9000000000000000"),  # slate, one flash / 1.6 s
    "attention": ((223, 0, 80), "90"),  # crimson, flicker 0.1 s / 0.1 s
}
COLOURS = {name: LIGHTS[name][0] for name in LIGHTS}  # each state's colour at full strength
BLINKING = tuple(name for name in LIGHTS if len(set(LIGHTS[name][1])) > 1)
TICK_MS = 100  # one step of a pattern


def light_level(state, step):
    """How lit ``state`` is at pattern step ``step`` (``now_ms // TICK_MS``): 0 to 9."""
    pattern = LIGHTS[state][1]
    return int(pattern[step % len(pattern)])


def light_rgb(state, step):
    """The colour ``state`` shows at pattern step ``step``: its colour at that level."""
    return level_rgb(state, light_level(state, step))


def level_rgb(state, level):
    """``state``'s colour at ``level`` (0 to 9)."""
    return tuple(c * level // 9 for c in LIGHTS[state][0])


def light_level_since(state, now, since):
    """How lit ``state`` is at ``now`` (ms) when it was set at ``since``: its pattern on
    the common clock, except that a lit state is lit for the whole first step after it is
    set. A new state (a press's result) shows at once instead of waiting, up to 800 ms,
    for its pattern's next lit step; then it keeps the common rhythm."""
    level = light_level(state, now // TICK_MS)
    if level == 0 and now - since < TICK_MS:
        return max(int(c) for c in LIGHTS[state][1])
    return level


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
CRASH = "crash "  # ERR payload prefix: the firmware's guard caught an error and restarted
# Host -> pad:
HOST = "HOST"  # handshake, payload = "<version>"; the pad answers HELLO
LIGHT = "LIGHT"  # payload = light state name (a key of COLOURS)
TIMING = "TIMING"  # payload = "<debounce ms>,<long press ms>"
SEQ_MOD = 10000  # event sequence numbers count 0..9999 then wrap; 0 again after a boot

_TYPES = (HELLO, BEAT, SHORT, LONG, ERR, HOST, LIGHT, TIMING)


_HEX = b"0123456789ABCDEF"  # upper case only: a flipped case bit must not pass


class FrameError(ValueError):
    """A line that is not a valid frame (bad shape, bad checksum, unknown type)."""


def _crc_table():
    table = bytearray(256)
    for i in range(256):
        crc = i
        for _ in range(8):
            if crc & 0x80:
                crc = ((crc << 1) ^ 0x07) & 0xFF
            else:
                crc = (crc << 1) & 0xFF
        table[i] = crc
    return bytes(table)


_CRC_TABLE = _crc_table()  # one lookup per byte instead of eight shifts: a flood costs less


def crc8(data):
    """CRC-8/SMBUS (poly 0x07, init 0) of ``data`` (bytes)."""
    crc = 0
    table = _CRC_TABLE
    for byte in data:
        crc = table[crc ^ byte]
    return crc


def _printable(text):
    for ch in text:
        o = ord(ch)
        if o < 32 or o > 126 or ch in "$*":
            return False
    return True


def number(text, digits):
    """The value of ``text`` if it is 1 to ``digits`` ASCII digits without a leading zero
    ("0" itself is fine), else None. Not ``str.isdigit``: that takes "²" or "٣" too."""
    if not text or len(text) > digits or (len(text) > 1 and text[0] == "0"):
        return None
    for ch in text:
        if ch < "0" or ch > "9":
            return None
    return int(text)


SEQ_DIGITS = 4  # SEQ_MOD - 1 = 9999


def parse_press(payload):
    """``(button, seq)`` of a SHORT/LONG payload ``"<button>,<seq>"``; FrameError for
    anything else, a missing sequence number included (replays are told by it)."""
    button, _, seq_text = payload.partition(",")
    if button not in BUTTONS:
        raise FrameError("bad button")
    seq = number(seq_text, SEQ_DIGITS)
    if seq is None:
        raise FrameError("bad sequence number")
    return button, seq


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
    for byte in raw:  # printable ASCII only: UTF-8 would let "²" or "٣" through
        if byte < 32 or byte > 126:
            raise FrameError("not ASCII")
    text = raw.decode()
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
    seat = number(seat_text, 2)
    if seat is None:
        raise FrameError("bad seat")
    return seat, kind, payload


class LineSplitter:
    """Bytes in, candidate lines out: resynchronises on '$', drops overlong runs.

    Returns whole lines starting with '$' (without the newline), at most MAX_FRAME long;
    what came before the last '$' of a line and longer runs are counted in ``dropped``
    (bytes) and discarded, so memory stays bounded whatever arrives."""

    def __init__(self):
        self._buf = b""
        self.dropped = 0

    def feed(self, data):
        buf = self._buf + data
        lines = []
        pos = 0  # lines are cut by index, not by re-slicing the rest: a big chunk stays linear
        while True:
            nl = buf.find(b"\n", pos)
            if nl < 0:
                break
            start = buf.rfind(b"$", pos, nl)
            if start < 0 or nl - start > MAX_FRAME:
                self.dropped += nl + 1 - pos
            else:
                self.dropped += start - pos
                lines.append(buf[start:nl])
            pos = nl + 1
        buf = buf[pos:]
        if len(buf) > MAX_FRAME:
            start = buf.rfind(b"$")
            if start <= 0 or len(buf) - start > MAX_FRAME:
                self.dropped += len(buf)
                buf = b""
            else:
                self.dropped += start
                buf = buf[start:]
        self._buf = buf
        return lines

    def reset(self):
        self._buf = b""
