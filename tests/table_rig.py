"""The test rig of the game screens: an app on the shipped configuration (four simulated
seats, or ``seats``) at ``size`` in ``language``, with a journal and a history in a
temporary folder, its inputs going through a DemoContext as in ``companion demo``. The
``open_table`` fixture of conftest.py makes them and closes them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame

from companion.hardware.sim import SimBackend
from companion.play.seat import Light
from companion.storage.history import History
from companion.storage.journal import Journal
from companion.ui.app import App, ManualClock, make_app
from companion.ui.demo import DemoContext, demo_config


def open_app(journal: Journal | None, size=(800, 480), language="en") -> App:
    """The kiosk's App on the shipped configuration (four simulated seats, started) at
    ``size`` in ``language``, keeping its games in ``journal``, its clock still at 0; the
    caller closes the backend and the display (the ``app`` fixture of conftest.py does)."""
    config = demo_config(size, language)
    backend = SimBackend(len(config.seats))
    app = make_app(config, backend, clock=ManualClock(0), journal=journal)
    app.start_backend()
    pygame.event.clear()
    return app


class TableRig:
    """``journal=False``: a table that keeps no games; ``history=False``: no history;
    ``journal_options``: the journal's keywords (``Journal(path, **journal_options)``);
    ``history_options`` the history's (``History(path, **history_options)``)."""

    def __init__(self, tmp: Path, size=(800, 480), language="en", journal=True, history=True,
                 seats=None, rotation=0, journal_options=None, history_options=None) -> None:
        config = demo_config(size, language, rotation)
        if seats is not None:
            config = dataclasses.replace(config, seats=seats)
        self.backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
        self.clock = ManualClock(1000)
        self.journal_path = tmp / "journal.sqlite"
        # journal_options: Journal's keywords (the kiosk's background_sync, a held fsync)
        self.journal = Journal(self.journal_path, **(journal_options or {})) if journal else None
        self.history = History(tmp / "history.sqlite", **(history_options or {})) \
            if history else None
        self.app: App = make_app(config, self.backend, clock=self.clock, journal=self.journal,
                                 history=self.history)
        self.app.start_backend()
        pygame.event.clear()
        self.ctx = DemoContext(self.app, self.backend, self.clock, tmp)
        self.closed = False

    def close(self) -> None:
        """Everything closed (again: nothing happens)."""
        if self.closed:
            return
        self.closed = True
        self.backend.close()
        if self.journal is not None:
            self.journal.close()
        if self.history is not None:
            self.history.close()
        pygame.event.clear()
        pygame.display.quit()

    @property
    def screen(self):
        return self.app.screen

    def tap(self, rect, label="") -> None:
        self.ctx.tap(rect, label)

    def texts(self) -> list[str]:
        """Every text of the last frame."""
        return [box.text for box in self.app.painter.texts]

    def lights(self) -> dict[int, Light]:
        return {seat: self.backend.light(seat) for seat in range(len(self.app.seats))}
