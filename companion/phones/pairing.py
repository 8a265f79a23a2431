"""Pairing a phone with a seat: each seat has a secret, new every time the kiosk starts
(a new evening makes new codes), carried in its QR code's URL *fragment* (after ``#``),
which a browser never sends to a server, so it reaches no log; the page sends it in its
WebSocket's first message.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket

SECRET_BYTES = 16  # 128 bits: guessing one over a rate-limited socket is hopeless


def new_secrets(seats: int) -> tuple[str, ...]:
    """One secret per seat (URL-safe text)."""
    return tuple(secrets.token_urlsafe(SECRET_BYTES) for _ in range(seats))


def same_secret(given: object, secret: str) -> bool:
    """``given`` is ``secret``, compared in constant time (a wrong guess tells nothing)."""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), secret.encode())


def lan_address() -> str:
    """The kiosk's address on its local network, as a phone on the same Wi-Fi reaches it:
    the source address of the default route (a UDP ``connect`` sends no packet), or
    127.0.0.1 when the machine has no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))  # any private address: no packet is sent
            address = probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address if ipaddress.ip_address(address).is_private else "127.0.0.1"


def seat_url(address: str, port: int, seat: int, secret: str) -> str:
    """The URL of ``seat``'s QR code: the page on the kiosk, the seat and its secret in the
    fragment (``#s=2&k=…``)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/#s={seat}&k={secret}"
