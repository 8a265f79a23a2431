"""Keyboard simulator: key map, short/long presses, lights, and the shared colour table."""

from __future__ import annotations

import pytest

from companion.hardware.base import BLINKING, LIGHT_COLOURS
from companion.hardware.sim import KEYMAP, SimBackend
from companion.play.seat import ButtonEvent, Light, Press


def started(seats: int = 5, long_press_ms: int = 700) -> tuple[SimBackend, list[ButtonEvent]]:
    events: list[ButtonEvent] = []
    backend = SimBackend(seats, long_press_ms=long_press_ms)
    backend.start(events.append)
    return backend, events


def test_keymap_seat_i_uses_ith_key_of_each_row():
    assert KEYMAP["1"] == (0, "a") and KEYMAP["q"] == (0, "b") and KEYMAP["a"] == (0, "c")
    assert KEYMAP["5"] == (4, "a") and KEYMAP["t"] == (4, "b") and KEYMAP["g"] == (4, "c")
    assert len(KEYMAP) == 15
    assert SimBackend.KEYMAP is KEYMAP


def test_release_before_long_press_time_is_one_short_press():
    backend, events = started()
    assert backend.key_down("w", 1000) is True
    assert events == []  # nothing until the key comes up
    backend.key_up("w", 1699)
    assert events == [ButtonEvent(1, "b", Press.SHORT)]


def test_hold_of_long_press_ms_or_more_is_a_long_press():
    backend, events = started(long_press_ms=500)
    backend.key_down("d", 0)
    backend.key_up("d", 500)
    assert events == [ButtonEvent(2, "c", Press.LONG)]


def test_key_auto_repeat_does_not_restart_the_hold():
    """pygame key repeat sends key_down again while held: the hold counts from the first."""
    backend, events = started()
    backend.key_down("1", 0)
    backend.key_down("1", 400)
    backend.key_down("1", 650)
    backend.key_up("1", 800)
    assert events == [ButtonEvent(0, "a", Press.LONG)]


def test_keys_of_absent_seats_and_other_keys_are_not_consumed():
    backend, events = started(seats=3)
    assert backend.key_down("4", 0) is False  # seat 4 of a 3-seat table
    assert backend.key_up("4", 10) is False
    assert backend.key_down("space", 0) is False
    assert backend.key_up("z", 0) is False
    assert events == []


def test_key_up_without_key_down_is_no_press():
    backend, events = started()
    assert backend.key_up("1", 100) is True
    assert events == []


def test_scripted_press_and_its_validation():
    backend, events = started(seats=2)
    backend.press(1, "c", Press.LONG)
    backend.press(0, "a")
    assert events == [ButtonEvent(1, "c", Press.LONG), ButtonEvent(0, "a", Press.SHORT)]
    with pytest.raises(ValueError, match="no seat 2"):
        backend.press(2, "a")
    with pytest.raises(ValueError, match="no button 'd'"):
        backend.press(0, "d")


def test_lights_are_remembered_per_seat_and_seats_always_connected():
    backend, _ = started(seats=3)
    assert [backend.light(s) for s in range(3)] == [Light.OFF] * 3
    backend.set_light(2, Light.ATTENTION)
    backend.set_light(0, Light.LEADER)
    assert [backend.light(s) for s in range(3)] == [Light.LEADER, Light.OFF, Light.ATTENTION]
    assert all(backend.connected(s) for s in range(3))


def test_seat_count_is_checked():
    with pytest.raises(ValueError):
        SimBackend(6)
    with pytest.raises(ValueError):
        SimBackend(0)


def test_every_light_has_a_distinct_colour_and_every_lit_one_a_rhythm():
    assert set(LIGHT_COLOURS) == set(Light)
    assert LIGHT_COLOURS[Light.OFF] == (0, 0, 0)
    lit = [c for light, c in LIGHT_COLOURS.items() if light is not Light.OFF]
    assert len(set(lit)) == len(lit) and (0, 0, 0) not in lit
    assert all(0 <= v <= 255 for c in LIGHT_COLOURS.values() for v in c)
    assert BLINKING == set(Light) - {Light.OFF}


def test_presses_before_start_and_after_close_are_dropped():
    backend = SimBackend(2)
    backend.press(0, "a")  # no handler yet: nothing to call, no error
    events: list[ButtonEvent] = []
    backend.start(events.append)
    backend.close()
    backend.press(0, "a")
    assert events == []


def test_a_key_going_down_is_acknowledged_on_its_seat_alike_for_every_key():
    """The simulator acknowledges a key going down as a pad does: its seat shows
    ACK_COLOUR for ACK_MS, the same for every key of every seat and whatever the light;
    auto-repeat does not restart it; the press's result (a new light state) ends it."""
    from companion.hardware.base import light_rgb
    from companion.hardware.padproto import ACK_COLOUR, ACK_MS

    traces = []
    for key in ("2", "w", "s"):  # seat 1's a, b, c
        for light in (Light.OFF, Light.FIRST_PLAYER, Light.BALLOT_LOCKED):
            backend, _ = started()
            backend.set_light(1, light)
            backend.key_down(key, 1000)
            backend.key_down(key, 1050)  # auto-repeat
            trace = [backend.shown(1, t) for t in (1000, 1000 + ACK_MS - 1)]
            trace.append(backend.next_shown_change(1, 1000))
            assert backend.shown(1, 1000 + ACK_MS) == light_rgb(light, 1000 + ACK_MS)
            assert backend.shown(0, 1000) == light_rgb(Light.OFF, 1000)  # other seats not
            traces.append(trace)
    assert traces == [[ACK_COLOUR, ACK_COLOUR, 1000 + ACK_MS]] * len(traces)
    backend, _ = started()
    backend.key_down("3", 0)
    backend.set_light(2, Light.YOUR_TURN)  # the press's result
    assert backend.shown(2, 1) == light_rgb(Light.YOUR_TURN, 1)
