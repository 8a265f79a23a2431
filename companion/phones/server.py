"""The phones' web server: aiohttp on one asyncio loop in a thread of its own, beside the
pygame loop. It serves the page (``page/``, package data read once) and the WebSocket
``/ws``, whose connections the hub (``PhoneSeats``) handles.

Before a WebSocket is taken: its ``Host`` must be an IP address (a phone opens the URL of
its QR code, an address: a name would let a page elsewhere reach the kiosk through DNS
rebinding) and its ``Origin`` that same address and port (a page of another site can't
open it); at most ``MAX_CONNECTIONS`` at once. The access log is off: nothing of a
phone's traffic is logged, and the seat's secret never is in a URL the server sees.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import threading
from importlib import resources
from typing import Protocol

from aiohttp import web

from companion.phones import protocol

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

    def __init__(self, hub: Hub, host: str, port: int) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self.connections = 0
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

    # --- requests ---------------------------------------------------------------------

    async def _file(self, request: web.Request) -> web.Response:
        name, kind = PAGE_FILES[request.path]
        return web.Response(body=self._page[name], content_type=kind, charset="utf-8",
                            headers=HEADERS)

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        host = request.host
        origin = request.headers.get("Origin")
        if not host_is_address(host) or origin != f"http://{host}":
            log.warning("phones: a connection from another page refused")
            return web.Response(status=403, text="forbidden")
        if self.connections >= protocol.MAX_CONNECTIONS:
            return web.Response(status=503, text="too many connections")
        ws = web.WebSocketResponse(max_msg_size=protocol.MAX_MESSAGE,
                                   heartbeat=protocol.HEARTBEAT_S)
        await ws.prepare(request)
        self.connections += 1
        try:
            await self.hub.serve(ws)
        finally:
            self.connections -= 1
            if not ws.closed:
                await ws.close()
        return ws
