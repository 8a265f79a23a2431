"""Telling systemd the kiosk is up and still alive (``sd_notify``), in plain Python.

The console unit is ``Type=notify`` with ``WatchdogSec=``: systemd counts the kiosk
started once it says ``READY=1`` (its first frame is on the screen) and restarts it when
no ``WATCHDOG=1`` has come for that long. The keep-alives are sent by the loop itself
(``App._wait``, every pass), so a loop stuck in a handler, a draw or a commit stops them
and systemd ends the process (SIGABRT, then a restart: ``Restart=on-failure``).

The protocol, from systemd's manual pages sd_notify(3) and sd_watchdog_enabled(3)
(https://www.freedesktop.org/software/systemd/man/latest/sd_notify.html):

- ``$NOTIFY_SOCKET`` names an ``AF_UNIX`` datagram socket: a path, or a name in the
  abstract namespace when it starts with ``@`` (the ``@`` stands for a leading NUL byte);
  each message is one datagram of ``VARIABLE=value`` lines;
- ``$WATCHDOG_USEC`` is the watchdog's period in µs, meant for the process in
  ``$WATCHDOG_PID`` when that is set; a keep-alive is due every half period.

Without ``$NOTIFY_SOCKET`` (a terminal, ``run.sh``, the desktop unit, the tests) every
call does nothing. A failing send is logged once and never stops the kiosk: systemd then
restarts it as it would a hung one, which is the safe side.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import socket

log = logging.getLogger(__name__)


class Notifier:
    """``READY=1`` once, ``WATCHDOG=1`` at most every half watchdog period."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        """``address``: ``$NOTIFY_SOCKET`` as systemd sets it (None: do nothing);
        ``watchdog_usec``: the watchdog's period (None: no keep-alives)."""
        self.address = address
        self.period_s = watchdog_usec / 1e6 if watchdog_usec else None
        self.ready_sent = False
        self.kept_alive = 0  # keep-alives sent
        self._next_keepalive = 0.0  # monotonic time the next one is due
        self._sock: socket.socket | None = None
        self._failed = False

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Notifier:
        """The notifier systemd asked for through the environment (``os.environ``)."""
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET") or None
        usec = _positive(env.get("WATCHDOG_USEC"))
        pid = _positive(env.get("WATCHDOG_PID"))
        if pid is not None and pid != os.getpid():
            usec = None  # the watchdog is another process's
        return cls(address, usec)

    @property
    def active(self) -> bool:
        return self.address is not None

    def ready(self) -> None:
        """The kiosk is up (its first frame is shown): once."""
        if self.ready_sent or not self.active:
            return
        self.ready_sent = True
        self.send("READY=1\nSTATUS=showing the table")
        self._next_keepalive = 0.0  # and the first keep-alive with the next pass

    def keepalive(self) -> None:
        """A pass of the loop: ``WATCHDOG=1`` if half the period has gone by since the
        last one (cheap otherwise: one clock read)."""
        if self.period_s is None or not self.active:
            return
        now = time.monotonic()
        if now < self._next_keepalive:
            return
        self._next_keepalive = now + self.period_s / 2
        self.kept_alive += 1
        self.send("WATCHDOG=1")

    def send(self, message: str) -> bool:
        """One datagram to ``$NOTIFY_SOCKET``; False (logged once) if it can't go."""
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            if self._sock is None:
                import socket  # here: its import is ms of the start-up, before the frame

                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message.encode("utf-8"), target)
        except OSError as exc:
            if not self._failed:
                self._failed = True
                log.warning("systemd notification to %s failed: %s", self.address, exc)
            return False
        return True

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _positive(value: str | None) -> int | None:
    """A positive decimal integer from the environment, else None."""
    if value is None or not value.isdigit() or not value.isascii():
        return None
    number = int(value)
    return number if number > 0 else None


NO_NOTIFIER = Notifier(None)  # what the loop calls when nothing asked for notifications
