"""The test rig of phones as seat pads: a kiosk App in this process (SDL's dummy driver)
whose seats are ``PhoneSeats`` over simulated pads, its phone server on loopback at a port
of the system's choosing, and ``pump`` to run the kiosk's loop until something holds
(awaited, never slept); ``open_phones`` in conftest.py makes one and closes it."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import socket
import threading
import time
from pathlib import Path

import aiohttp
import pygame

from companion.hardware.sim import SimBackend
from companion.i18n import load_catalog
from companion.phones import protocol
from companion.phones.seats import PhoneSeats
from companion.storage.history import History
from companion.storage.journal import Journal
from companion.ui.app import App, make_app
from companion.ui.demo import demo_config

LIMIT_S = 30  # a safety net against a hang, not a timing assertion


def free_port() -> int:
    """A loopback port free now: for a kiosk and the one restarted after it (its
    configuration's port)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PhoneRig:
    def __init__(self, tmp: Path, seats=None, language: str = "en", port: int = 0,
                 secrets_file: Path | None = None,
                 per_peer: int = protocol.MAX_CONNECTIONS, journal_options=None) -> None:
        """``per_peer``: every phone of a test comes from 127.0.0.1, so by default one
        address may take every connection (``protocol.MAX_PER_PEER``: as on a Wi-Fi);
        ``journal_options``: the journal's keywords (the kiosk's background_sync, a held
        fsync)."""
        config = demo_config((800, 480), language)
        if seats is not None:
            config = dataclasses.replace(config, seats=seats)
        self.config = config
        self.tmp = tmp
        self.sim = SimBackend(len(config.seats), config.hardware.long_press_ms)
        self.backend = PhoneSeats(self.sim, config.seats, load_catalog(language),
                                  host="127.0.0.1", port=port, address="127.0.0.1",
                                  long_press_ms=config.hardware.long_press_ms,
                                  secrets_file=secrets_file, per_peer=per_peer)
        self.journal = Journal(tmp / f"journal-{port}.sqlite", **(journal_options or {}))
        self.history = History(tmp / f"history-{port}.sqlite")
        self.closed = False
        self.app: App = make_app(config, self.backend, journal=self.journal,
                                 history=self.history)
        self.app.start_backend()
        pygame.event.clear()

    @property
    def port(self) -> int:
        return self.backend.server.port

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def pump(self, until, limit_s: float = LIMIT_S) -> None:
        """Run the kiosk's loop (handling what the phones send) until ``until()``."""
        deadline = time.monotonic() + limit_s

        def nudge() -> None:
            pygame.event.post(pygame.event.Event(pygame.USEREVENT))
            self.app.wake()

        timer = threading.Timer(limit_s, nudge)
        timer.start()
        try:
            self.app.step(block=False)
            while not until():
                assert time.monotonic() < deadline, "the kiosk never got there"
                self.app.step(block=True)
            self.app.step(block=False)  # what came with it (a press handed on just now)
        finally:
            timer.cancel()

    @property
    def screen(self):
        return self.app.screen

    def presses(self) -> int:
        """The presses the kiosk has taken from phones so far."""
        return self.backend.stats["presses"]

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.backend.close()
        self.journal.close()
        self.history.close()
        pygame.event.clear()
        pygame.display.quit()


class Hands:
    """Phones as a test drives them by hand, frame by frame: aiohttp WebSockets on an
    asyncio loop of their own thread, so that the kiosk's loop runs in this one while a
    phone waits for what the kiosk sends (``run``)."""

    def __init__(self, rig: PhoneRig) -> None:
        self.rig = rig
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.session: aiohttp.ClientSession = self.run(self._session())

    @staticmethod
    async def _session() -> aiohttp.ClientSession:
        return aiohttp.ClientSession()

    def run(self, coroutine, rig: PhoneRig | None = None):
        """``coroutine`` on the phones' loop, the kiosk's loop (``rig``'s, by default the
        first's) run until it is done; its result."""
        rig = rig or self.rig
        done = asyncio.run_coroutine_threadsafe(coroutine, self.loop)

        def wake(_) -> None:
            pygame.event.post(pygame.event.Event(pygame.USEREVENT))
            rig.app.wake()

        done.add_done_callback(wake)
        rig.pump(done.done)
        return done.result()

    def open(self, seat: int, device: str, rig: PhoneRig | None = None) -> HandPhone:
        """A phone that opened ``seat``'s code (its hello sent)."""
        rig = rig or self.rig
        return self.run(HandPhone.open(self.session, rig, seat, device), rig)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.session.close(), self.loop).result(LIMIT_S)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(LIMIT_S)


class HandPhone:
    """One phone's WebSocket, every message it received kept (``got``)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.got: list[dict] = []
        self.seq = 0

    @classmethod
    async def open(cls, session, rig: PhoneRig, seat: int, device: str) -> HandPhone:
        ws = await session.ws_connect(f"http://127.0.0.1:{rig.port}/ws",
                                      headers={"Origin": rig.origin})
        await ws.send_str(json.dumps({"t": "hello", "seat": seat, "device": device,
                                      "secret": rig.backend._seats[seat].secret}))
        return cls(ws)

    async def until(self, test) -> dict:
        """The next message for which ``test(message)`` holds (None: the socket closed)."""
        while True:
            msg = await self.ws.receive(timeout=LIMIT_S)
            if msg.type != aiohttp.WSMsgType.TEXT:
                return None
            message = json.loads(msg.data)
            self.got.append(message)
            if test(message):
                return message

    async def next(self, kind: str) -> dict:
        """The next message of kind ``kind`` (``welcome``, ``private`` …)."""
        found = await self.until(lambda m: m["t"] == kind)
        assert found is not None, f"closed ({self.ws.close_code}) before a {kind}"
        return found

    async def press(self, button: str, kind: str = "short", seq: int | None = None) -> dict:
        """One press, until its acknowledgement."""
        seq = self.seq if seq is None else seq
        self.seq = max(self.seq, seq + 1)
        await self.ws.send_str(json.dumps({"t": "press", "seq": seq, "button": button,
                                           "kind": kind}))
        return await self.until(lambda m: m["t"] == "ack" and m["seq"] == seq)

    async def closed(self) -> int | None:
        """Until the kiosk closed this socket: its close code."""
        await self.until(lambda m: False)
        return self.ws.close_code
