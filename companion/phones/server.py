"""The phones' web server: aiohttp on one asyncio loop in a thread of its own, beside the
pygame loop. It serves the page (``page/``, package data read once) and the WebSocket
``/ws``, whose connections the hub (``PhoneSeats``) handles.

Before a WebSocket is taken: its ``Host`` must be an IP address (a phone opens the URL of
its QR code, an address: a name would let a page elsewhere reach the kiosk through DNS
rebinding) and its ``Origin`` that same address and port (a page of another site can't
open it); at most ``MAX_CONNECTIONS`` at once, ``MAX_PER_PEER`` of them from one address
(one host on the Wi-Fi can't take every slot). The access log is off: nothing of a
phone's traffic is logged, and the seat's secret never is in a URL the server sees. A
refused connection (here or in the hub) is logged through one ``BurstLog``: anyone on the
Wi-Fi can knock thousands of times a second, and that is two log lines.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import threading
from collections import Counter
from importlib import resources
from typing import Protocol

from aiohttp import web

from companion.phones import protocol
from companion.system.burstlog import BurstLog

log = logging.getLogger(__name__)

PAGE_FILES = {
    "/": ("index.html", "text/html"),
    "/phone.js": ("phone.js", "text/javascript"),
    "/phone.css": ("phone.css", "text/css"),
}
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'",
}


class Hub(Protocol):
    async def serve(self, ws: web.WebSocketResponse) -> None:
        """Talk to one phone until its connection ends."""


def read_page() -> dict[str, bytes]:
    """The page's files, by name (package data)."""
    folder = resources.files("companion.phones") / "page"
    return {name: (folder / name).read_bytes() for name, _ in PAGE_FILES.values()}


def host_is_address(host: str) -> bool:
    """``host`` (a Host header: address and port) names an IP address, not a name."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]")
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class PhoneServer:
    """The server's thread: ``start`` returns once it listens (or raises OSError: the port
    is taken), ``close`` stops it and waits for the thread."""

    def __init__(self, hub: Hub, host: str, port: int,
                 per_peer: int = protocol.MAX_PER_PEER) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self.per_peer = per_peer
        self.connections = 0
        self._peers: Counter[str] = Counter()  # connections open, by the peer's address
        self._refusals = BurstLog("refused connections", log, "phones")
        self._flush: asyncio.TimerHandle | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._page = read_page()
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._stopped: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    # --- the thread -------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="phones", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._failure is not None:
            self._thread.join()
            raise self._failure

    def close(self) -> None:
        loop, stopped = self.loop, self._stopped
        if loop is not None and stopped is not None and self._thread is not None:
            try:
                loop.call_soon_threadsafe(stopped.set)
            except RuntimeError:  # already closed
                pass
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:
            if not self._ready.is_set():
                self._failure = exc
                self._ready.set()
            else:
                log.exception("phones: the server stopped")

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        app = web.Application(client_max_size=protocol.MAX_MESSAGE)
        for path in PAGE_FILES:
            app.router.add_get(path, self._file)
        app.router.add_get("/ws", self._socket)
        runner = web.AppRunner(app, access_log=None, handle_signals=False,
                               shutdown_timeout=1.0)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
            await site.start()
            self.port = runner.addresses[0][1]  # the one bound (port 0 in tests)
            log.info("phones: listening on %s port %d", self.host, self.port)
            self._ready.set()
            await self._stopped.wait()
        finally:
            await runner.cleanup()
            self._refusals.flush(0, force=True)

    def refused(self, message: str, *args: object) -> None:
        """Log a refused connection (``message`` says why, never what it sent), a burst
        of them as two lines (on the server's loop)."""
        loop = asyncio.get_running_loop()
        self._refusals.note(loop.time(), message, *args)
        if self._flush is None:
            self._flush = loop.call_later(self._refusals.quiet_s, self._end_burst)

    def _end_burst(self) -> None:
        loop = asyncio.get_running_loop()
        self._refusals.flush(loop.time())
        deadline = self._refusals.deadline()
        self._flush = None if deadline is None else loop.call_at(deadline, self._end_burst)

    # --- requests ---------------------------------------------------------------------

    async def _file(self, request: web.Request) -> web.Response:
        name, kind = PAGE_FILES[request.path]
        return web.Response(body=self._page[name], content_type=kind, charset="utf-8",
                            headers=HEADERS)

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        host = request.host
        origin = request.headers.get("Origin")
        if not host_is_address(host) or origin != f"http://{host}":
            self.refused("phones: a connection from another page refused")
            return web.Response(status=403, text="forbidden")
        peer = request.remote or "?"
        if self.connections >= protocol.MAX_CONNECTIONS:
            self.refused("phones: a connection refused: %d open", self.connections)
            return web.Response(status=503, text="too many connections")
        if self._peers[peer] >= self.per_peer:
            self.refused("phones: a connection refused: %d open from its address",
                         self._peers[peer])
            return web.Response(status=503, text="too many connections")
        ws = web.WebSocketResponse(max_msg_size=protocol.MAX_MESSAGE,
                                   heartbeat=protocol.HEARTBEAT_S)
        self.connections += 1
        self._peers[peer] += 1
        try:
            await ws.prepare(request)
            await self.hub.serve(ws)
        finally:
            self.connections -= 1
            self._peers[peer] -= 1
            if not self._peers[peer]:
                del self._peers[peer]
            if not ws.closed:
                await ws.close()
        return ws
