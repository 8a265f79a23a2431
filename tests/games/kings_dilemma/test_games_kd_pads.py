"""A scripted 5-player King's Dilemma game on mock seat pads, through the real backends and
the headless Table: presses → the Table's queue → the night's controller (the button
grammar, SeatPads) → Session + Journal → the Table's lights on the pads.

Once on the GPIO backend over gpiozero's MockFactory (contact chatter on every edge, the
debounce and long press on an injected clock, lights read back as blink patterns on the
LED pins), once on the serial backend against the pad firmware on a pty (lights read back
from the firmware's own state). The game: the rulebook's worked vote on the buttons (the
moderator breaks the tie by holding Aye), an outcome, a secret vote locked seat by seat
(lights: your turn until a seat locks, then ballot locked), the king's death and the end scoring
(winners' seats lit)."""

from __future__ import annotations

import queue
import random

import pytest
from fakes.pty_pad import WAIT, Host, PtyPad, connect
from pins import ChatteringPads
from table_games import kd_night, open_table, play_night

from companion.hardware.gpio import GpioBackend
from companion.hardware.profile import load_profile, profile_path
from companion.play.seat import Light
from companion.play.table import Table
from companion.storage.journal import Journal

# -- GPIO on gpiozero's MockFactory -----------------------------------------------------------

PROFILE = load_profile(profile_path("gpio-5-seats"))


def test_scripted_game_on_gpio_pads_with_chatter(pins, clock, tmp_path):
    rng = random.Random(4)
    backend = GpioBackend(PROFILE, 5, clock=clock, worker=False, debounce_ms=20,
                          long_press_ms=700)
    table, _ = open_table(tmp_path, backend)
    night = kd_night(table)

    pads = ChatteringPads(pins, clock, backend, PROFILE, rng, table.drain)
    play_night(table, night, pads.press, pads.seen)
    backend.close()


# -- serial pads on a pty ---------------------------------------------------------------------


def test_scripted_game_on_serial_pads(tmp_path):
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"
    pad = PtyPad(link)
    host = Host(link, debounce_ms=25, long_press_ms=400)
    connect(pad, host)
    table = Table(host.backend, 5, journal=Journal(tmp_path / "serial.db"))
    night = kd_night(table)

    def press(seat: int, keys: str) -> None:
        for key in keys.split():
            pad.press(seat, key.lower(), hold_ms=500 if key.isupper() else 100)
            event = host.events.get(timeout=WAIT)
            assert (event.seat, event.button, event.press.value) == (
                seat, key.lower(), "long" if key.isupper() else "short")
            table.post_button(event)  # as the backend's reader thread does (``Table.start``)
            table.drain()

    def seen() -> list[Light]:
        """The pad firmware's own light states, once every light sent has arrived."""
        wanted = [host.backend.light(s).value for s in range(5)]
        pad.pump_until(lambda: pad.pad.lights == wanted, f"lights {wanted}")
        return [Light(name) for name in pad.pad.lights]

    try:
        play_night(table, night, press, seen)
        with pytest.raises(queue.Empty):
            host.events.get_nowait()  # no press lost or invented
    finally:
        host.backend.close()
        pad.unplug()
