"""Pairing a phone with a seat: each seat has a secret, new each evening, carried in its QR
code's URL *fragment* (after ``#``), which a browser never sends to a server, so it
reaches no log; the page sends it in its WebSocket's first message.

The evening's secrets are kept in the data directory (``phones.json``, readable by the
kiosk's account only), so a kiosk restarted mid-game (a power cut) keeps its phones: each
page reconnects by itself with the secret it kept. The next evening (from 6:00 on, so a
game past midnight stays the same evening) makes new ones.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import os
import secrets
import socket
from datetime import datetime, timedelta
from pathlib import Path

log = logging.getLogger(__name__)

SECRET_BYTES = 16  # 128 bits: guessing one over a rate-limited socket is hopeless
EVENING_STARTS_H = 6  # the evening's date changes at 6:00: a night past midnight is the same


def new_secrets(seats: int) -> tuple[str, ...]:
    """One secret per seat (URL-safe text)."""
    return tuple(secrets.token_urlsafe(SECRET_BYTES) for _ in range(seats))


def evening(now: datetime) -> str:
    """The evening ``now`` belongs to (its date, ISO)."""
    return (now - timedelta(hours=EVENING_STARTS_H)).date().isoformat()


def evening_secrets(path: Path | None, seats: int, now: datetime | None = None
                    ) -> tuple[str, ...]:
    """This evening's secrets: those kept in ``path`` when they are this evening's (and as
    many as the seats), else new ones, kept there (mode 0600); ``path`` None: new ones,
    kept nowhere. A file that can't be read or written costs only the pairing."""
    if path is None:
        return new_secrets(seats)
    today = evening(now or datetime.now())
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        found = kept["secrets"]
        if (kept["evening"] == today and isinstance(found, list) and len(found) == seats
                and all(isinstance(x, str) and len(x) >= SECRET_BYTES for x in found)):
            return tuple(found)
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("phones: %s not read (%s): new codes", path.name, type(exc).__name__)
    made = new_secrets(seats)
    temp = path.with_name(path.name + ".new")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"evening": today, "secrets": list(made)}, f)
        os.replace(temp, path)
    except OSError as exc:
        log.warning("phones: %s not written (%s): a restart will make new codes",
                    path.name, exc.strerror)
    return made


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
