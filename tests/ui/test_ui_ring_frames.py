"""A blinking light redraws only the seat ring's plates, and the picture is the one a whole
frame would draw: on a game screen the acting seat's light asks for a frame several times
a second, and a press waits for a frame being drawn."""

from __future__ import annotations

import pygame
import pytest
from ui_majority import start

from companion.hardware.base import PadEvent
from companion.ui.screens.majority import koryo


def shown(app) -> bytes:
    return pygame.image.tobytes(app.window, "RGB")


def to_next_blink(rig) -> None:
    """The clock to the ring's next change, and one pass of the loop."""
    app = rig.app
    deadline = app.screen.next_deadline(rig.clock.now_ms())
    assert deadline is not None, "the acting seat's light blinks"
    rig.clock.advance(deadline - rig.clock.now_ms())
    app.step(block=False)


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_blink_step_redraws_the_plates_alone_as_a_whole_frame_would(open_table, rotation):
    size = (480, 800) if rotation == 90 else (800, 480)
    rig = open_table(size=size, rotation=rotation)
    start(rig, koryo)
    app = rig.app
    app.step(block=False)
    frames, ring_frames = app.frames, app.ring_frames
    changed = 0
    for _ in range(6):
        before = shown(app)
        to_next_blink(rig)
        partial = shown(app)
        changed += partial != before
        app.invalidate()
        app.render_if_dirty()  # the whole screen, drawn at the same moment
        assert shown(app) == partial
    assert changed >= 3  # the light did change what the window shows
    assert app.ring_frames == ring_frames + 6
    assert app.frames == frames + 6  # only the comparison frames were whole


def test_a_blink_step_draws_only_the_plates_whose_light_moved(open_table):
    """The acting seat's light blinks, the others are steady: each step draws the plates
    whose light shows another colour than in the last frame, and no other."""
    rig = open_table()
    start(rig, koryo)
    app, ring = rig.app, rig.app.screen.ring
    app.step(block=False)
    drawn: list[list[pygame.Rect]] = []
    real = ring.draw_blinked

    def spy(*args):
        drawn.append(real(*args))
        return drawn[-1]

    ring.draw_blinked = spy
    for step in range(8):
        now = rig.clock.now_ms()
        before = {plate.seat: app.backend.shown(plate.seat, now) for plate in ring.plates}
        to_next_blink(rig)
        now = rig.clock.now_ms()
        moved = [plate.rect for plate in ring.plates
                 if app.backend.shown(plate.seat, now) != before[plate.seat]]
        assert len(drawn) == step + 1 and drawn[-1] == moved
        assert 0 < len(moved) < len(ring.plates)
    partial = shown(app)
    app.invalidate()
    app.render_if_dirty()  # the whole screen, at the same moment
    assert shown(app) == partial


def test_blink_steps_blit_a_plate_drawn_with_that_look_since_the_last_whole_frame(open_table):
    """A blinking light has two looks: after one step of each, the next steps draw no
    plate again (the kept picture of it is blitted), and show what a whole frame would."""
    rig = open_table()
    start(rig, koryo)
    app, ring = rig.app, rig.app.screen.ring
    app.invalidate()
    app.step(block=False)
    plates = []
    real = ring._draw_plate

    def counted(p, plate, *args):
        plates.append(plate.seat)
        return real(p, plate, *args)

    ring._draw_plate = counted
    for _ in range(2):
        to_next_blink(rig)
    first = len(plates)
    assert first >= 1
    for _ in range(6):
        to_next_blink(rig)
    assert len(plates) == first  # every look seen already: blitted, not drawn
    partial = shown(app)
    app.invalidate()
    app.render_if_dirty()
    assert shown(app) == partial


def test_with_a_band_across_the_top_a_blink_step_draws_the_whole_frame(open_table):
    rig = open_table()
    start(rig, koryo)
    app = rig.app
    app.pad_event = PadEvent(PadEvent.RESET, 0.0)  # "the seat pad restarted", across the top
    app.invalidate()
    app.step(block=False)
    frames, ring_frames = app.frames, app.ring_frames
    to_next_blink(rig)
    assert (app.frames, app.ring_frames) == (frames + 1, ring_frames)


def test_with_a_finger_held_on_a_button_a_blink_step_draws_the_whole_frame(open_table):
    """A held button shows its pressed look, which may lie on a plate (the Inheritors
    sheet's tap areas are the plates): a frame of the plates alone would wipe it."""
    rig = open_table()
    start(rig, koryo)
    app = rig.app
    app.step(block=False)
    button = app.screen.buttons[0]
    app.screen.pointer_down(button.rect.center)
    assert button.pressed
    app.step(block=False)
    frames, ring_frames = app.frames, app.ring_frames
    to_next_blink(rig)
    assert (app.frames, app.ring_frames) == (frames + 1, ring_frames)


def test_a_change_of_the_game_still_draws_the_whole_frame(open_table):
    rig = open_table()
    start(rig, koryo)
    app = rig.app
    app.step(block=False)
    frames = app.frames
    app.redraw_ring(app.screen.ring)
    app.invalidate()  # the game changed too: the whole screen, once
    app.step(block=False)
    assert app.frames == frames + 1


@pytest.mark.parametrize("rotation", [0, 90])
def test_on_every_screen_of_the_demo_the_plates_alone_draw_what_the_whole_frame_does(
        tmp_path, rotation):
    """Every screen with a seat ring (a game, Home, History, the charts, a winner screen
    over a game's final or a King's Dilemma night's end): its plates drawn alone over its
    whole frame change nothing. A screen whose ``ring`` is not the ring it draws (a full
    ring's plates over a winner screen's slim ones) would cover its own picture."""
    from companion.ui import demo as demo_mod

    size = (720, 1280) if rotation == 90 else (800, 480)
    shot = demo_mod.DemoContext.shot
    checked, differ = [], []

    def compared(self, name: str = "", lit: bool = True):
        app = self.app
        if app.screen.ring is not None and not app.bands():
            app.invalidate()
            app.render_if_dirty()
            whole = shown(app)
            app.screen.ring.drawn_lights.clear()  # every plate drawn, as if each light moved
            app.redraw_ring(app.screen.ring)
            assert app.render_if_dirty()
            checked.append(app.screen.name)
            if shown(app) != whole:
                differ.append(app.screen.name)
        return shot(self, name, lit)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(demo_mod.DemoContext, "shot", compared)
        demo_mod.run_demo(tmp_path / "out", size, "en", rotation)
    assert {"home", "koryo-board", "koryo-final", "choson-final", "inheritors-sheet",
            "inheritors-final", "kd-vote", "kd-score", "winner", "history", "charts",
            "playcode"} <= set(checked), checked
    assert differ == []
