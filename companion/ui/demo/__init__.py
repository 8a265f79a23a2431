"""Scripted sessions played through the real app loop, for screenshots and a transcript.

A demo script is a function ``script(ctx: DemoContext)`` that shows a screen and then
presses seat buttons, holds keys, taps the touchscreen and waits, taking screenshots as
it goes. Its inputs are injected as events into the same ``App.step`` the kiosk runs,
with a manual clock, so what the demo shows is what the table shows. ``DEMOS`` lists the
scripts in playing order (name -> module of this package with a ``demo(ctx)`` function).
Home comes first and stays at the bottom of the stack: each script's
screen is shown on top of it, so a game's ``app.pop()`` returns there as on the table.

The app has a journal and a history of its own, in a temporary directory next to the
output directory (never in it, never in the user's data directory), removed at the end.
"""

from __future__ import annotations

import dataclasses
import importlib
import tempfile
from pathlib import Path

import pygame

from companion.config import COLOURS, SHIPPED_CONFIG, Config, SeatConfig, load_config
from companion.hardware.base import BLINKING, light_rgb
from companion.hardware.padproto import TICK_MS
from companion.hardware.sim import SimBackend
from companion.play.seat import Press
from companion.play.table import Table
from companion.ui.app import App, ManualClock, Screen, make_app
from companion.ui.home import HomeScreen

DEMOS: dict[str, str] = {
    "home": "companion.ui.demo.home",  # first: the other scripts' screens go on top of Home
    "table-check": "companion.ui.demo.table_check",
    "koryo": "companion.ui.demo.koryo",
    "choson": "companion.ui.demo.choson",
    "inheritors": "companion.ui.demo.inheritors",
    "kings-dilemma": "companion.ui.demo.kings_dilemma",
    "history": "companion.ui.demo.history",  # last: the games the demos above kept
}


class DemoContext:
    """What a demo script drives: the app, its simulated seats and its clock."""

    def __init__(self, app: App, backend: SimBackend, clock: ManualClock, out: Path) -> None:
        self.app = app
        self.backend = backend
        self.clock = clock
        self.out = out
        self.transcript: list[str] = []
        self.shots: list[Path] = []
        self.seen: list[str] = []  # names of the screens passed through, first seen first

    # --- inputs -------------------------------------------------------------------------

    def show(self, screen: Screen) -> None:
        """Put ``screen`` on top: on Home when Home is at the bottom (the previous script's
        screens are closed), else in place of the previous script's screen."""
        screens = self.app.screens
        if screens and isinstance(screens[0], HomeScreen) and screen is not screens[0]:
            del screens[1:]
            self.app.push(screen)
        elif screens:
            self.app.replace(screen)
        else:
            self.app.push(screen)
        self.app.step(block=False)
        self.record(f"show {screen.name}")

    def press(self, seat: int, button: str, press: Press = Press.SHORT) -> None:
        """A seat pad's button, as the hardware backend delivers it."""
        self.backend.press(seat, button, press)
        self.app.step(block=False)
        name = self.app.seats[seat].name
        self.record(f"seat {seat} ({name}) button {button.upper()} {press.value}")

    def key(self, name: str, hold_ms: int = 120) -> None:
        """A keyboard key held ``hold_ms`` (the simulator's seat keys)."""
        key = pygame.key.key_code(name)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=name))
        self.app.step(block=False)
        self.clock.advance(hold_ms)
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=name))
        self.app.step(block=False)
        self.record(f"key {name.upper()} held {hold_ms} ms")

    def tap(self, rect: pygame.Rect, label: str) -> None:
        """A finger down and up in the middle of ``rect`` (canvas pixels), on the glass."""
        w, h = self.app.window.get_size()
        x, y = self.app.to_window(rect.center)
        for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
            event = pygame.event.Event(
                kind, x=x / w, y=y / h, dx=0, dy=0, touch_id=1, finger_id=0, pressure=1.0
            )
            pygame.event.post(event)
            self.app.step(block=False)
        self.record(f"tap {label!r}")

    def wait(self, ms: int) -> None:
        self.clock.advance(ms)
        self.app.step(block=False)
        self.record(f"wait {ms} ms")

    # --- outputs ------------------------------------------------------------------------

    def shot(self, label: str = "", lit: bool = True) -> Path:
        """Save what the window shows as ``NN-SCREEN[-label].png``; ``lit``: first wait
        (a few pattern steps at most) for the instant the blinking lights are lit, so the
        picture shows on the plates the lights that are on, as a player glancing at the pad
        sees them."""
        if lit:
            self.catch_lit()
        name = f"{len(self.shots) + 1:02d}-{self.app.screen.name}"
        path = self.out / (f"{name}-{label}.png" if label else f"{name}.png")
        self.app.screenshot(path)
        self.shots.append(path)
        self.transcript.append(f"{'':>9}  screenshot {path.name}")
        return path

    def catch_lit(self) -> None:
        """Move the clock to the first pattern step (within two seconds) where most of the
        seats whose light is on show it lit, and draw that frame."""
        now = self.clock.now_ms()
        on = [i for i in range(len(self.app.seats)) if self.backend.light(i) in BLINKING]
        if not on:
            return

        def lit_at(t: int) -> int:
            return sum(any(self.backend.shown(i, t)) for i in on)

        if lit_at(now) == len(on):
            return  # (a press's acknowledgement, shown now, stays in the picture)
        best = max(range(now, now + 2000, TICK_MS), key=lambda t: (lit_at(t), -t))
        if best > now:
            self.clock.advance(best - now)
            self.app.step(block=False)

    def shown_lights(self) -> str:
        """Each seat's light, and whether its rhythm has it lit at this instant."""
        now = self.clock.now_ms()
        shown = []
        for i, seat in enumerate(self.app.seats):
            light = self.backend.light(i)
            lit = "on" if any(light_rgb(light, now)) else "off"
            phase = f" ({lit} in its rhythm)" if light in BLINKING else ""
            shown.append(f"{seat.name}={light.value}{phase}")
        return ", ".join(shown)

    def record(self, what: str) -> None:
        if self.app.screen.name not in self.seen:
            self.seen.append(self.app.screen.name)
        t = self.clock.now_ms() / 1000
        self.transcript.append(
            f"{t:8.3f}s  {what}\n{'':>9}  screen: {self.app.screen.describe()}\n"
            f"{'':>9}  lights: {self.shown_lights()}"
        )


# A fifth seat for a demo of five (the King's Dilemma seats 3 to 5): between the shipped
# fourth (right) and first (bottom), in seating order.
FIFTH_SEAT = SeatConfig("Eve", COLOURS["purple"], "bottom-right")


def demo_seats(config: Config, count: int) -> tuple[SeatConfig, ...]:
    """``count`` seats (2 to 5): the shipped configuration's first ones, then Eve."""
    seats = (*config.seats, FIFTH_SEAT)
    if not 2 <= count <= len(seats):
        raise ValueError(f"a demo seats 2 to {len(seats)}, not {count}")
    return tuple(seats[:count])


# Long names for the demo's seats (``--names``): 8 to 10 letters, accented, wide capitals,
# the longest a name's place on the screens is laid out for.
LONG_NAMES = ("Théodore", "Françoise", "Maximilien", "Géraldine", "Wilhelmine")


def demo_config(size: tuple[int, int], language: str, rotation: int = 0,
                seats: int | None = None, names: tuple[str, ...] | None = None) -> Config:
    """The shipped configuration (simulated seats) at ``size`` in ``language``, on a panel
    turned ``rotation`` degrees (90: a 720×1280 panel shows a 1280×720 picture), with
    ``seats`` seats (``demo_seats``) rather than its four when said, named ``names`` in
    seating order (the first ones; the others keep theirs) when said."""
    config = load_config(SHIPPED_CONFIG)
    display = dataclasses.replace(config.display, width=size[0], height=size[1],
                                  rotation=rotation)
    config = dataclasses.replace(config, display=display, language=language)
    if seats is not None:
        config = dataclasses.replace(config, seats=demo_seats(config, seats))
    if names:
        renamed = tuple(dataclasses.replace(seat, name=name) for seat, name
                        in zip(config.seats, names, strict=False))
        config = dataclasses.replace(config, seats=renamed + config.seats[len(renamed):])
    return config


def run_demo(out: Path, size: tuple[int, int], language: str, rotation: int = 0,
             seats: int | None = None, scripts: tuple[str, ...] | None = None,
             names: tuple[str, ...] | None = None) -> DemoContext:
    """Play every script of ``DEMOS`` (or those named in ``scripts``, in ``DEMOS``' order)
    into ``out``, with ``seats`` seats named ``names`` (``demo_config``): screenshots and
    ``transcript.txt``."""
    unknown = set(scripts or ()) - set(DEMOS)
    if unknown:
        raise ValueError(f"no demo named {', '.join(sorted(unknown))}: {', '.join(DEMOS)}")
    out.mkdir(parents=True, exist_ok=True)
    config = demo_config(size, language, rotation, seats, names)
    backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
    clock = ManualClock()
    data = tempfile.TemporaryDirectory(prefix=f".{out.resolve().name}-data-", dir=out.parent)
    journal, history = Table.stores(Path(data.name) / "journal.sqlite",
                                    Path(data.name) / "companion.db")
    try:
        app = make_app(config, backend, clock=clock, journal=journal, history=history)
        app.start_backend()
        ctx = DemoContext(app, backend, clock, out)
        for name, module in DEMOS.items():
            if scripts is not None and name not in scripts:
                continue
            ctx.transcript.append(f"== {name} ({size[0]}x{size[1]}, {language})")
            importlib.import_module(module).demo(ctx)
        (out / "transcript.txt").write_text("\n".join(ctx.transcript) + "\n", encoding="utf-8")
    finally:
        backend.close()
        pygame.display.quit()
        journal.close()
        history.close()
        data.cleanup()
    return ctx
