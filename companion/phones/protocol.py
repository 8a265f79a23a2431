"""What a phone page and the kiosk say on the WebSocket: JSON text frames, one object
each, with its kind in ``t``. Everything a phone sends is checked here; anything else
(not JSON, an unknown kind, a field of the wrong type) is a ``ProtocolError`` and closes
that phone's connection only.

Phone → kiosk:
- ``{"t": "hello", "seat": 2, "secret": "…", "device": "…"}``: first message, within
  ``HELLO_TIMEOUT_S``; ``device`` is the page's own random id (kept in the phone's
  storage, so a reload is the same phone).
- ``{"t": "press", "seq": 17, "button": "a", "kind": "short"}``: one press, timed on the
  phone (``kind``: short, or long once held ``long_press_ms``); ``seq`` counts up on that
  phone from 0 and is never reused, so a press sent again after a reconnect is recognised.
- ``{"t": "handover"}``: the seat's phone gives the seat to the phone waiting for it.

Kiosk → phone: ``welcome`` (the seat, its name and colour, the timing, the light table,
the words of the page, ``last_seq``: the last of this phone's presses the kiosk took),
``ack`` (``seq``: taken), ``light``, ``view`` (the seat's ``SeatView`` in words),
``private`` (what only this seat may see, or null), ``waiting`` (``why``: ``seat``,
another phone holds the seat, confirm on it or on the kiosk; ``vote``, a secret vote is
open, the seat can be taken after the reveal), ``handover`` (a phone asks for this seat),
``bye`` (``why``: ``replaced``, this phone opened the page again; ``superseded``, another
phone asked for the seat after this one; ``gone``, the seat went to another phone) before
the kiosk closes the connection.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

MAX_MESSAGE = 512  # bytes: a hello is ~120; a bigger frame closes the connection (1009)
RATE_PER_S = 20  # messages a second a phone may send on average ...
BURST = 40  # ... and at once: a person presses a few times a second, a flood is refused
HELLO_TIMEOUT_S = 5.0  # a connection that says nothing is closed
MAX_CONNECTIONS = 32  # at once, for the whole kiosk (5 seats, reloads, a waiting phone)
MAX_PER_PEER = 4  # at once from one address: a phone, its reload, a second tab; not 32
HEARTBEAT_S = 5.0  # the kiosk pings; a phone that sleeps or leaves the Wi-Fi: gone within 7.5 s
SEQ_MAX = 2**31 - 1
BUTTONS = ("a", "b", "c")
KINDS = ("short", "long")
_DEVICE = re.compile(r"[A-Za-z0-9_-]{8,64}")

# Close codes (RFC 6455 §7.4.1: 1008 policy violation, 1009 too big; 4000-4999 private)
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_REFUSED = 4001  # wrong seat or secret
CLOSE_REPLACED = 4002  # the same phone opened the page again, or another took the seat
CLOSE_FLOOD = 4003


class ProtocolError(ValueError):
    """A message the kiosk does not take: the connection is closed with ``code``."""

    def __init__(self, why: str, code: int = CLOSE_POLICY) -> None:
        super().__init__(why)
        self.code = code


@dataclass(frozen=True)
class Hello:
    seat: int
    secret: str
    device: str


@dataclass(frozen=True)
class PhonePress:
    seq: int
    button: str
    kind: str


@dataclass(frozen=True)
class Handover:
    pass


def _int(value: object, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ProtocolError("bad number")
    return value


def parse(text: str) -> Hello | PhonePress | Handover:
    """One frame of a phone, checked."""
    if len(text.encode()) > MAX_MESSAGE:
        raise ProtocolError("message too big", CLOSE_TOO_BIG)
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError("not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("not an object")
    kind = data.get("t")
    if kind == "hello" and set(data) == {"t", "seat", "secret", "device"}:
        if not isinstance(data["secret"], str) or not isinstance(data["device"], str):
            raise ProtocolError("bad hello")
        if not _DEVICE.fullmatch(data["device"]):
            raise ProtocolError("bad device id")
        return Hello(_int(data["seat"], 99), data["secret"], data["device"])
    if kind == "press" and set(data) == {"t", "seq", "button", "kind"}:
        if data["button"] not in BUTTONS or data["kind"] not in KINDS:
            raise ProtocolError("bad press")
        return PhonePress(_int(data["seq"], SEQ_MAX), data["button"], data["kind"])
    if kind == "handover" and set(data) == {"t"}:
        return Handover()
    raise ProtocolError("unknown message")


class RateLimit:
    """A token bucket: ``burst`` messages at once, ``rate`` a second on average."""

    def __init__(self, rate: float = RATE_PER_S, burst: int = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._at: float | None = None

    def take(self, now: float) -> bool:
        """One message at ``now`` (s, monotonic); False: over the limit."""
        if self._at is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


def dumps(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
