"""The test rig of phones as seat pads: a kiosk App in this process (SDL's dummy driver)
whose seats are ``PhoneSeats`` over simulated pads, its phone server on loopback at a port
of the system's choosing, and ``pump`` to run the kiosk's loop until something holds
(awaited, never slept); ``open_phones`` in conftest.py makes one and closes it."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

import pygame

from companion.hardware.sim import SimBackend
from companion.history import History
from companion.i18n import load_catalog
from companion.journal import Journal
from companion.phones.seats import PhoneSeats
from companion.ui.app import App, make_app
from companion.ui.demo import demo_config

LIMIT_S = 30  # a safety net against a hang, not a timing assertion


class PhoneRig:
    def __init__(self, tmp: Path, seats=None, language: str = "en", port: int = 0,
                 secrets_file: Path | None = None) -> None:
        config = demo_config((800, 480), language)
        if seats is not None:
            config = dataclasses.replace(config, seats=seats)
        self.config = config
        self.tmp = tmp
        self.sim = SimBackend(len(config.seats), config.hardware.long_press_ms)
        self.backend = PhoneSeats(self.sim, config.seats, load_catalog(language),
                                  host="127.0.0.1", port=port, address="127.0.0.1",
                                  long_press_ms=config.hardware.long_press_ms,
                                  secrets_file=secrets_file)
        self.journal = Journal(tmp / f"journal-{port}.sqlite")
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
