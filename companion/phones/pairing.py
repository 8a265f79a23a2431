"""Pairing a phone with a seat: each seat has a secret, carried in its QR code's URL
*fragment* (after ``#``), which a browser never sends to a server, so it reaches no log;
the page sends it in its WebSocket's first message.

The secrets are made at the kiosk's start and kept in the data directory
(``phones.json``, readable by the kiosk's account only) with the evening they belong to,
the phone holding each seat and the last of its presses taken: a kiosk restarted the same
evening (a power cut mid-game) keeps them, and each page reconnects by itself with the
secret it kept, its press in flight recognised. The first start of another evening (an
evening runs from 6:00 to 6:00, so a game past midnight stays in it) makes new ones; a
kiosk left running past 6:00 keeps its codes until it starts again.

``phones.json`` is read as a regular file within a bound (``companion.files.regularfile``): a
FIFO, a device or a huge file there costs the pairing (new codes), never the start.
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

from companion.files.regularfile import open_regular, read_regular

log = logging.getLogger(__name__)

SECRET_BYTES = 16  # 128 bits: guessing one over a rate-limited socket is hopeless
EVENING_STARTS_H = 6  # the evening's date changes at 6:00: a night past midnight is the same
MAX_FILE = 64 * 1024  # bytes of phones.json read at most (five seats take ~600)


def new_secrets(seats: int) -> tuple[str, ...]:
    """One secret per seat (URL-safe text)."""
    return tuple(secrets.token_urlsafe(SECRET_BYTES) for _ in range(seats))


def evening(now: datetime) -> str:
    """The evening ``now`` belongs to (its date, ISO)."""
    return (now - timedelta(hours=EVENING_STARTS_H)).date().isoformat()


class Evening:
    """This evening's pairing, kept in ``path`` (mode 0600): each seat's secret, the phone
    (its page's own id) that holds it and the last of that phone's presses taken
    (``seqs``). Read when it is this evening's and has as many seats, else made anew;
    ``path`` None: made anew, kept nowhere. A file that can't be read or written costs
    only the pairing."""

    def __init__(self, path: Path | None, seats: int, now: datetime | None = None) -> None:
        self.path = path
        self.evening = evening(now or datetime.now())
        self.secrets: tuple[str, ...] = ()
        self.devices: list[str | None] = [None] * seats
        self.seqs: list[int | None] = [None] * seats
        kept = self._read(seats)
        if kept is None:
            self.secrets = new_secrets(seats)
            self.save()
        else:
            self.secrets, self.devices, self.seqs = kept

    def _read(self, seats: int
              ) -> tuple[tuple[str, ...], list[str | None], list[int | None]] | None:
        if self.path is None:
            return None
        try:
            kept = json.loads(read_regular(self.path, MAX_FILE))
            found, devices = kept["secrets"], kept.get("devices", [None] * seats)
            seqs = kept.get("seqs", [None] * seats)
            if (kept["evening"] == self.evening and isinstance(found, list)
                    and isinstance(devices, list) and isinstance(seqs, list)
                    and len(found) == seats == len(devices) == len(seqs)
                    and all(isinstance(x, str) and len(x) >= SECRET_BYTES for x in found)
                    and all(d is None or isinstance(d, str) for d in devices)
                    and all(q is None or (type(q) is int and q >= 0) for q in seqs)):
                return tuple(found), list(devices), list(seqs)
        except FileNotFoundError:
            pass
        except OSError as exc:  # a FIFO, a device, a directory, too big, unreadable
            log.warning("phones: %s not read (%s): new codes", self.path.name,
                        exc.strerror or type(exc).__name__)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("phones: %s not read (%s): new codes", self.path.name,
                        type(exc).__name__)
        return None

    def save(self) -> None:
        """Keep the pairing as it stands (a phone paired or handed over, a press taken),
        replacing the file whole (a new one renamed over it, whatever was there)."""
        if self.path is None:
            return
        temp = self.path.with_name(self.path.name + ".new")
        try:
            fd = open_regular(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"evening": self.evening, "secrets": list(self.secrets),
                           "devices": self.devices, "seqs": self.seqs}, f)
            os.replace(temp, self.path)
        except OSError as exc:
            log.warning("phones: %s not written (%s): a restart will make new codes",
                        self.path.name, exc.strerror)


def same_secret(given: object, secret: str) -> bool:
    """``given`` is ``secret``, compared in constant time (a wrong guess tells nothing)."""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), secret.encode())


def lan_address() -> str:
    """The kiosk's address on its local network, as a phone on the same Wi-Fi reaches it
    (``choose_address`` of what this machine has), or 127.0.0.1 when it has none."""
    return choose_address(route_address(), interface_addresses())


def choose_address(routed: str | None, interfaces: list[str]) -> str:
    """The source address of the default route when it is a private one, else the first
    private address of an interface (a Pi that is itself the Wi-Fi hotspot, with no
    default route), else 127.0.0.1."""
    for address in ([routed] if routed else []) + interfaces:
        ip = ipaddress.ip_address(address)
        if ip.is_private and not ip.is_loopback and not ip.is_link_local:
            return address
    return "127.0.0.1"


def route_address() -> str | None:
    """The source address of the default route (a UDP ``connect`` sends no packet), or
    None without one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only the default route leads there
            return probe.getsockname()[0]
        except OSError:
            return None


def interface_addresses() -> list[str]:
    """Each network interface's IPv4 address (Linux: ``SIOCGIFADDR``, netdevice(7)); none
    where that can't be asked."""
    try:
        import fcntl
        import struct
    except ImportError:  # not Linux
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                asked = struct.pack("256s", name[:15].encode())
                found.append(socket.inet_ntoa(fcntl.ioctl(s.fileno(), SIOCGIFADDR, asked)[20:24]))
            except OSError:  # an interface without an IPv4 address
                continue
    return found


SIOCGIFADDR = 0x8915  # linux/sockios.h


def seat_url(address: str, port: int, seat: int, secret: str) -> str:
    """The URL of ``seat``'s QR code: the page on the kiosk, the seat and its secret in the
    fragment (``#s=2&k=…``)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/#s={seat}&k={secret}"
