"""The kiosk loop (companion.ui.app): it sleeps until an input or a
timer (an idle table draws nothing), seat buttons from backend threads wake it, screens
stack, touch and mouse reach the screen once each, taps on a rotated display land where
the canvas drew, and Esc or closing the window ends it.

Everything runs the real ``App`` under SDL's dummy video driver (tests/conftest.py);
events are posted into pygame's queue as SDL or the backend threads would post them."""

from __future__ import annotations

import dataclasses
import gc
import os
import threading
import time
import weakref

import pygame
import pytest
from fakes.pty_pad import WAIT, PtyPad

from companion.hardware import padproto
from companion.hardware.base import PadEvent, next_light_change
from companion.hardware.serial_pad import SerialBackend
from companion.hardware.sim import SimBackend
from companion.play.seat import ButtonEvent, Light, Press
from companion.play.table import SEAT_QUEUE_MAX
from companion.ui import app as app_module
from companion.ui.app import App, ManualClock, Screen, make_app
from companion.ui.demo import demo_config
from companion.ui.table_check import TableCheckScreen

MARK = (250, 0, 250)  # a colour nothing else on the test screens uses


class Recorder(Screen):
    """A screen that draws a mark at a canvas point and remembers what reached it."""

    name = "recorder"

    def __init__(self, app: App, mark: tuple[int, int] = (0, 0)) -> None:
        super().__init__(app)
        self.mark = mark
        self.downs: list[tuple[int, int]] = []
        self.ups: list[tuple[int, int]] = []
        self.buttons: list[ButtonEvent] = []
        self.draws = 0

    def draw(self, p) -> None:
        self.draws += 1
        p.surface.fill((0, 0, 0))
        pygame.draw.rect(p.surface, MARK, pygame.Rect(self.mark[0] - 2, self.mark[1] - 2, 5, 5))

    def on_button(self, event: ButtonEvent) -> None:
        self.buttons.append(event)
        self.app.invalidate()

    def pointer_down(self, pos: tuple[int, int]) -> None:
        self.downs.append(pos)

    def pointer_up(self, pos: tuple[int, int]) -> None:
        self.ups.append(pos)


@pytest.fixture
def open_app():
    """``open_app(size=(800, 480), rotation=0)`` -> (app, sim backend, manual clock)."""
    backends: list[SimBackend] = []

    def _open(size=(800, 480), rotation=0, language="en"):
        config = demo_config(size, language)
        config = dataclasses.replace(
            config, display=dataclasses.replace(config.display, rotation=rotation)
        )
        backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
        backends.append(backend)
        clock = ManualClock(1000)
        app = make_app(config, backend, clock=clock)
        app.start_backend()
        pygame.event.clear()
        return app, backend, clock

    yield _open
    for backend in backends:
        backend.close()
    pygame.event.clear()
    pygame.display.quit()


def finger(kind: int, app: App, window_pos: tuple[int, int]) -> pygame.event.Event:
    """A touch event as SDL delivers it: coordinates normalised to the window."""
    w, h = app.window.get_size()
    return pygame.event.Event(
        kind,
        x=window_pos[0] / w,
        y=window_pos[1] / h,
        dx=0.0,
        dy=0.0,
        touch_id=1,
        finger_id=0,
        pressure=1.0,
    )


def test_idle_table_draws_nothing(open_app):
    """No input and no blinking light: steps draw no frame (no redraw 60 times a
    second when nothing changes), and the loop may sleep forever (timeout None)."""
    app, _, clock = open_app()
    app.push(TableCheckScreen(app))
    app.step(block=False)
    assert app.frames == 1
    for _ in range(20):
        clock.advance(1000)
        app.step(block=False)
    assert app.frames == 1
    assert app.timeout_ms() is None


def test_blinking_light_sets_the_loops_deadline(open_app):
    """With an ATTENTION light the loop sleeps exactly until the blink next changes, and
    the deadline passing draws the seat ring's plates once (not the whole screen)."""
    app, backend, clock = open_app()
    app.push(TableCheckScreen(app))
    app.step(block=False)
    backend.set_light(1, Light.ATTENTION)
    app.redraw_ring(app.screen.ring)  # its plate drawn as set (a blink step draws what moved)
    app.step(block=False)
    now = clock.now_ms()
    assert app.timeout_ms() == next_light_change(Light.ATTENTION, now) - now
    frames, ring_frames = app.frames, app.ring_frames
    clock.advance(app.timeout_ms() - 1)
    app.step(block=False)
    assert (app.frames, app.ring_frames) == (frames, ring_frames)  # not due yet
    clock.advance(1)
    app.step(block=False)
    assert (app.frames, app.ring_frames) == (frames, ring_frames + 1)
    backend.set_light(1, Light.OFF)
    assert app.timeout_ms() is None


def test_the_loop_polls_sdl_less_often_once_left_alone_and_at_once_again_on_input(
        open_app, monkeypatch):
    """Within ACTIVE_S of the last input the sleeping loop looks at SDL's queue every
    POLL_MS, after that every IDLE_POLL_MS; an event found in the queue brings it back."""
    app, _, _ = open_app()
    app.push(Recorder(app))
    app.step(block=False)
    naps: list[float] = []
    wake = app._wake

    class Timed:
        def acquire(self, blocking=True, timeout=-1):
            naps.append(round(timeout * 1000))
            return wake.acquire(blocking, timeout)

        def release(self):
            wake.release()

    app._wake = Timed()
    monkeypatch.setattr(app_module, "ACTIVE_S", 0.05)
    pygame.event.post(pygame.event.Event(pygame.USEREVENT))
    assert app._wait(None)  # an event: input just now
    app._wait(20)  # two naps at most, within ACTIVE_S: POLL_MS
    assert naps and max(naps) <= app_module.POLL_MS
    naps.clear()
    time.sleep(0.06)  # ACTIVE_S without input
    app._wait(app_module.IDLE_POLL_MS + 5)
    assert naps[0] == app_module.IDLE_POLL_MS
    pygame.event.post(pygame.event.Event(pygame.USEREVENT))
    assert app._wait(None)
    assert app.poll_ms(time.monotonic()) == app_module.POLL_MS


def test_seat_button_from_another_thread_wakes_the_loop_and_redraws_once(open_app):
    """A backend thread's press wakes ``step()`` asleep with no deadline (only the event
    can end the sleep) and draws exactly one frame."""
    app, backend, _ = open_app()
    screen = Recorder(app)
    app.push(screen)
    app.step(block=False)
    frames = app.frames
    assert app.timeout_ms() is None
    # A safety net so a broken wake-up fails instead of hanging the suite.
    pygame.time.set_timer(pygame.USEREVENT, 10_000, loops=1)
    thread = threading.Thread(target=backend.press, args=(2, "b", Press.LONG))
    thread.start()
    app.step()
    thread.join()
    pygame.time.set_timer(pygame.USEREVENT, 0)
    assert screen.buttons == [ButtonEvent(2, "b", Press.LONG)]
    assert app.frames == frames + 1
    assert screen.draws == 2


@pytest.mark.parametrize("asked", ["late_lights_written", "invalidate"])
def test_a_frame_asked_from_another_thread_is_drawn_at_once_not_at_the_next_deadline(
        open_app, monkeypatch, asked):
    """The journal's committer writes a press's lights after its frame and asks for the
    ring again; a view may change off the loop too. Either, once the loop is asleep with
    no deadline, wakes it, and the frame is drawn then: left to the next deadline, it came
    at a random time, in the way of a later press (and the screen's mirror of the lights
    lagged behind the pads). With the poll pushed out of reach and a bound on each
    sleep, only that wake-up ends it."""
    monkeypatch.setattr(app_module, "POLL_MS", 10**9)
    app, _, _ = open_app()
    screen = Recorder(app)
    app.push(screen)
    app.step(block=False)
    frames, draws = app.frames, screen.draws
    asleep = threading.Event()
    woken: list[bool] = []
    wake = app._wake

    class Watched:
        """The loop's wake-up lock, telling when the loop goes to sleep on it."""

        def acquire(self, blocking=True, timeout=-1):
            asleep.set()
            woken.append(wake.acquire(blocking, min(timeout, WAIT)))
            if not woken[-1]:  # slept the whole bound: the frame was left waiting
                raise AssertionError(f"the loop slept {WAIT} s through the wake-up")
            return True

        def release(self):
            wake.release()

    app._wake = Watched()

    def once_asleep():
        asleep.wait(WAIT)
        getattr(app, asked)()

    thread = threading.Thread(target=once_asleep)
    thread.start()
    app.step()
    thread.join()
    assert woken  # it slept, and each sleep ended by a wake-up (else it raised)
    assert app.frames == frames + 1 and screen.draws == draws + 1


def test_a_seat_press_wakes_the_sleep_at_once_not_at_the_next_poll(open_app, monkeypatch):
    """The sleeping loop looks at SDL's queue only every POLL_MS; a seat button's callback
    wakes it directly. With the poll pushed out of reach (and a 60 s bound instead of a
    hang), only that wake-up can return the press."""
    monkeypatch.setattr(app_module, "POLL_MS", 10**9)
    app, backend, _ = open_app()
    app.push(Recorder(app))
    app.step(block=False)
    asleep = threading.Event()
    notified: list[bool] = []
    wake = app._wake

    class Watched:
        """The loop's wake-up lock, telling when the loop goes to sleep on it."""

        def acquire(self, blocking=True, timeout=-1):
            asleep.set()  # the loop is about to sleep: now press
            notified.append(wake.acquire(blocking, timeout))  # False: slept the whole bound
            return notified[-1]

        def release(self):
            wake.release()

    app._wake = Watched()

    def press_once_asleep():
        asleep.wait(60)
        backend.press(0, "c")

    thread = threading.Thread(target=press_once_asleep)
    thread.start()
    app._wait(60_000)
    thread.join()
    assert app.table.pending()  # the press waits in the Table's queue, not in SDL's
    assert notified and all(notified)  # no sleep ran out: a wake-up ended each
    app.step(block=False)
    assert app.screen.buttons == [ButtonEvent(0, "c")]


def test_screen_stack_push_pop_replace(open_app):
    """Events go to the top screen; pop and replace change the top and redraw."""
    app, backend, _ = open_app()
    bottom, top, other = Recorder(app), Recorder(app), Recorder(app)
    app.push(bottom)
    app.push(top)
    app.step(block=False)
    assert app.screen is top and top.draws == 1 and bottom.draws == 0
    backend.press(0, "a")
    app.step(block=False)
    assert len(top.buttons) == 1 and bottom.buttons == []
    app.replace(other)
    app.step(block=False)
    assert app.screens == [bottom, other] and other.draws == 1
    assert app.pop() is other
    frames = app.frames
    app.step(block=False)
    assert app.screen is bottom and app.frames == frames + 1
    backend.press(1, "c")
    app.step(block=False)
    assert bottom.buttons == [ButtonEvent(1, "c")]


def test_touch_and_mouse_reach_the_screen_once_each(open_app):
    """A touch arrives as FINGERDOWN/UP (normalised coordinates) and SDL then synthesises
    mouse events flagged ``touch``: those are not counted a second time. A real mouse click
    (button 1) counts; other mouse buttons don't."""
    app, _, _ = open_app()
    screen = Recorder(app)
    app.push(screen)
    for event in (
        finger(pygame.FINGERDOWN, app, (200, 100)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(200, 100), button=1, touch=True),
        finger(pygame.FINGERUP, app, (200, 100)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(200, 100), button=1, touch=True),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(600, 300), button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(600, 300), button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 10), button=3, touch=False),
    ):
        pygame.event.post(event)
    app.step(block=False)
    assert screen.downs == [(200, 100), (600, 300)]
    assert screen.ups == [(200, 100), (600, 300)]


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_rotated_display_maps_taps_back_to_the_canvas(open_app, rotation):
    """With the display turned, the canvas is rotated onto the 800x480 window: a tap where
    a mark shows on the window reaches the screen at the canvas point where it was drawn."""
    app, _, _ = open_app((800, 480), rotation)
    cw, ch = app.size
    assert (cw, ch) == ((480, 800) if rotation in (90, 270) else (800, 480))
    mark = (cw // 5, ch * 3 // 4)  # off-centre, so every rotation moves it elsewhere
    screen = Recorder(app, mark)
    app.push(screen)
    app.step(block=False)
    window = app.window
    hits = [
        (x, y)
        for x in range(window.get_width())
        for y in range(window.get_height())
        if window.get_at((x, y))[:3] == MARK
    ]
    assert len(hits) == 25  # the 5x5 mark, whole, on the window
    centre = (sum(x for x, _ in hits) // 25, sum(y for _, y in hits) // 25)
    pygame.event.post(finger(pygame.FINGERDOWN, app, centre))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1))
    app.step(block=False)
    for pos in screen.downs + screen.ups:
        assert abs(pos[0] - mark[0]) <= 1 and abs(pos[1] - mark[1]) <= 1, (pos, mark)
    assert len(screen.downs) == 1 and len(screen.ups) == 1


def test_rotation_must_be_a_quarter_turn():
    """display.rotation is 0, 90, 180 or 270; anything else is refused by name."""
    window = pygame.Surface((800, 480))
    with pytest.raises(ValueError, match="rotation 45"):
        App(window, backend=SimBackend(2), seats=(), catalog=None, rotation=45)


@pytest.mark.parametrize(
    "event",
    [
        pygame.event.Event(pygame.QUIT),
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"),
    ],
    ids=["quit", "escape"],
)
def test_quit_and_escape_end_run(open_app, event):
    """Closing the window (QUIT, also what SIGTERM posts) or Esc ends ``run()``."""
    app, _, _ = open_app()
    app.push(Recorder(app))
    pygame.event.post(event)
    app.run()
    assert app.running is False


def test_simulator_keys_are_seat_buttons(open_app):
    """On the simulator a key held past long_press_ms is a LONG press of its seat's button
    (key 'w' = seat 1, button b); the press reaches the screen through the loop."""
    app, backend, clock = open_app()
    screen = Recorder(app)
    app.push(screen)
    key = pygame.key.key_code("w")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="w"))
    app.step(block=False)
    clock.advance(backend.long_press_ms)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="w"))
    app.step(block=False)
    assert screen.buttons == [ButtonEvent(1, "b", Press.LONG)]


def test_a_press_flood_while_the_loop_stalls_is_bounded_logged_once_and_never_raises(
    open_app, caplog
):
    """70,000 presses from a backend thread while the loop does not run (more than SDL's
    65,535-event queue holds): the thread finishes without an exception, at most
    SEAT_QUEUE_MAX wait, the first ones reach the screen in order, the rest are dropped with
    one line when the drop starts and one with the count when the loop catches up; the
    next press after that gets through."""
    app, backend, _ = open_app()
    screen = Recorder(app)
    app.push(screen)
    app.step(block=False)
    presses = [ButtonEvent(i % 4, "abc"[i % 3]) for i in range(70_000)]
    failures: list[BaseException] = []

    def flood() -> None:
        try:
            for event in presses:
                app.post_button(event)
        except BaseException as exc:  # noqa: BLE001 - the test reports what escaped
            failures.append(exc)

    thread = threading.Thread(target=flood)
    with caplog.at_level("WARNING", logger="companion.ui.app"):
        thread.start()
        thread.join()
        app.step(block=False)
    assert failures == []
    assert screen.buttons == presses[: SEAT_QUEUE_MAX]
    dropped = len(presses) - SEAT_QUEUE_MAX
    assert [r.getMessage() for r in caplog.records] == [
        f"seat events: {SEAT_QUEUE_MAX} waiting for the screen, dropping the next ones",
        f"seat events: {dropped} dropped while the screen was busy",
    ]
    backend.press(3, "c")
    app.step(block=False)
    assert screen.buttons[-1] == ButtonEvent(3, "c")


def test_a_pad_flooding_valid_presses_while_the_loop_stalls_loses_neither_reader_nor_app(
    tmp_path,
):
    """The issue's attack end to end: 70,000 valid, new presses from a pad on a pty while
    the loop does not run. The serial reader stays alive, pygame's queue never overflows
    (the first SEAT_QUEUE_MAX presses reach the screen in order, the rest are dropped),
    and the next press from the pad gets through."""
    config = demo_config((800, 480), "en")
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"
    pad = PtyPad(link)
    backend = SerialBackend(str(link), len(config.seats), heartbeat_timeout_ms=60_000)
    app = make_app(config, backend, clock=ManualClock(1000))
    try:
        screen = Recorder(app)
        app.push(screen)
        app.step(block=False)
        last = ButtonEvent(len(config.seats) - 1, "c")
        flooded = threading.Event()
        route = app.post_button

        def observed(event: ButtonEvent) -> None:
            route(event)
            if event == last:
                flooded.set()

        app.post_button = observed
        app.start_backend()
        pad.pump_until(lambda: len(pad.sent(padproto.LIGHT)) >= len(config.seats), "lights")
        count = 70_000
        presses = [ButtonEvent(i % (len(config.seats) - 1), "ab"[i % 2]) for i in range(count)]
        stream = b"".join(padproto.encode(e.seat, padproto.SHORT, f"{e.button},{i % 10_000}")
                          for i, e in enumerate(presses))
        stream += padproto.encode(last.seat, padproto.SHORT, f"c,{count % 10_000}")
        view = memoryview(stream)
        while view:
            view = view[os.write(pad.master, view[:65536]):]
        assert flooded.wait(6 * WAIT)  # the reader got through all of it (a bound, not a pause)
        assert backend._thread is not None and backend._thread.is_alive()
        app.step(block=False)
        # the seats' connection events were queued first, by the reader, before the flood
        room = SEAT_QUEUE_MAX - len(config.seats)
        assert screen.buttons == presses[:room]
        os.write(pad.master, padproto.encode(0, padproto.SHORT, f"b,{(count + 1) % 10_000}"))
        pad.pump_until(lambda: app.step(block=False) or len(screen.buttons) > room,
                       "the press after the flood")
        assert screen.buttons[room:] == [ButtonEvent(0, "b")]
        assert backend.stats["frames"] >= count + 1 and backend.stats["errors"] == 0
    finally:
        backend.close()
        pad.unplug()
        pygame.event.clear()
        pygame.display.quit()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_what_the_seat_pad_does_is_said_over_the_game_on_screen_and_goes_on_the_next_press(
    tmp_path, language,
):
    """A secret vote on the screen, a ballot locked on the pad (a pty, the real firmware).
    The pad's firmware fails and restarts (its guard): the band across the top says so in
    the table's language over the same vote, exactly the screen's texts plus the catalog's
    line and hint (nothing of the ballot); the next press through the pad clears it, as a
    write that succeeds clears "Not saved". Unplugged: the band says the pad went silent,
    and a press can't clear that; plugged back: it is back, until the next press."""
    from companion.games.kings_dilemma.controller import NightController
    from companion.ui.screens.kings_dilemma.start import VoteScreen

    config = demo_config((800, 480), language)
    seats = len(config.seats)
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"
    pad = PtyPad(link)
    backend = SerialBackend(str(link), seats, heartbeat_timeout_ms=60_000)
    app = make_app(config, backend, clock=ManualClock(1000))
    night = NightController.new([s.name for s in config.seats])
    t = app.catalog.text

    def texts() -> list[str]:
        return [box.text for box in app.painter.texts]

    def band(kind: str) -> list[str]:
        at = time.strftime("%H:%M", time.localtime(backend.pad_event.at))
        return [t(f"pad_event.{kind}", time=at), t(f"pad_event.hint_{kind}")]

    def until(done, what: str) -> None:
        pad.pump_until(lambda: app.step(block=False) or done(), what)

    try:
        night.start_vote("secret")
        app.push(VoteScreen(app, night))
        app.start_backend()
        until(lambda: all(backend.connected(s) for s in range(seats)), "the pad connected")
        pad.press(0, "a")
        pad.press(0, "a", hold_ms=1000)  # seat 0 locks Aye 1
        until(lambda: night.view()["vote"]["seats"][night.players[0]].get("locked"),
              "the lock")
        app.invalidate()
        app.step(block=False)
        quiet = texts()
        assert app.pad_event is None

        pad.fw.machine.PINS[2].fail_reads(OSError("pin fault"))
        pad.at(pad.t + 1)  # the scan hits the fault: the guard restarts the pad
        until(lambda: app.pad_event is not None, "the restart on screen")
        app.step(block=False)
        assert isinstance(app.screen, VoteScreen) and app.screen.night is night
        assert texts() == quiet + band(PadEvent.RESET)
        assert all(backend.connected(s) for s in range(seats))

        pad.press(1, "b")  # a press through the pad: the band goes
        until(lambda: app.pad_event is None, "the press")
        app.step(block=False)
        assert texts() == quiet

        pad.unplug()
        pad = None
        # no pad to pump: the loop sleeps until the reader's PAD_EVENT wakes it
        nudge = threading.Timer(WAIT, pygame.event.post, [pygame.event.Event(pygame.USEREVENT)])
        nudge.start()
        try:
            while app.pad_event is None:
                assert nudge.is_alive(), "the loss never reached the screen"
                app.step()
        finally:
            nudge.cancel()
        assert app.pad_event.kind == PadEvent.LOST and band(PadEvent.LOST) == texts()[-2:]
        app.post_button(ButtonEvent(2, "a"))  # a press from elsewhere: the loss stays said
        app.step(block=False)
        assert band(PadEvent.LOST) == texts()[-2:]
        pad = PtyPad(link)  # plugged back: a rebooted pad
        until(lambda: app.pad_event.kind == PadEvent.BACK, "the return on screen")
        app.step(block=False)
        assert band(PadEvent.BACK) == texts()[-2:] and isinstance(app.screen, VoteScreen)
        pad.press(3, "a")
        until(lambda: app.pad_event is None, "the press after the return")
        app.step(block=False)
        assert not any(line in texts() for line in band(PadEvent.BACK))
    finally:
        backend.close()
        if pad is not None:
            pad.unplug()
        night.close()
        pygame.event.clear()
        pygame.display.quit()


class Allocating(Recorder):
    """A screen whose press handling makes many objects in cycles, as a long night's
    dispatch and frame do: far past the threshold at which Python would collect."""

    CYCLES = 20_000

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.handling = False  # inside ``on_button``
        self.handled = threading.Semaphore(0)  # released once per press handled
        self.freed = threading.Event()  # set when a cycle of the last press is collected

    def on_button(self, event: ButtonEvent) -> None:
        self.handling = True
        try:
            made = []
            for _ in range(self.CYCLES):
                node = Node()
                node.me = node
                made.append(node)
            self.freed.clear()
            weakref.finalize(made[-1], self.freed.set)
            del made, node
            super().on_button(event)
        finally:
            self.handling = False
            self.handled.release()


class Node:
    """An object in a cycle with itself: only the cycle collector frees it."""


def test_the_loop_collects_cycles_only_while_it_sleeps(open_app):
    """The cycle collector never runs inside a press's handling (a pass holds every
    thread, the light's too): the loop collects as it is about to sleep, what a press
    left in cycles is freed there, and the collector is as it was once ``run`` ends."""
    app, backend, _ = open_app()
    screen = Allocating(app)
    app.push(screen)
    passes: list[tuple[int, bool]] = []  # (generation, during a press's handling)

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            passes.append((info["generation"], screen.handling))

    freed = []

    def play() -> None:
        try:
            for _ in range(3):
                backend.press(0, "a")
                screen.handled.acquire(timeout=WAIT)
            freed.append(screen.freed.wait(WAIT))
        finally:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
            app.wake()

    enabled = gc.isenabled()
    gc.callbacks.append(watch)
    player = threading.Thread(target=play)
    try:
        player.start()
        app.run()
        player.join()
    finally:
        gc.callbacks.remove(watch)
    assert len(screen.buttons) == 3
    assert not [p for p in passes if p[1]], f"collected inside a press: {passes}"
    assert freed == [True], "a press's cycles were never collected"
    assert gc.isenabled() == enabled and gc.get_freeze_count() == 0


def test_the_oldest_generation_waits_for_a_quiet_table():
    """In play only the young generations are collected; the oldest once the table is
    quiet; ``stop`` gives the collector back as it was."""
    from companion.system.collector import QUIET_S, IdleCollector

    enabled = gc.isenabled()
    collector = IdleCollector()
    collector.start()
    try:
        assert not gc.isenabled()
        held = []  # alive: the young generation's count stays past its threshold
        limit0, limit1, limit2 = gc.get_threshold()
        for _ in range(2 * limit1 * limit2):  # far past the oldest generation's turn
            held += [[] for _ in range(limit0)]
            collector.idle(0.0)  # a table in play
        assert collector.passes[1] >= limit2 and collector.passes[2] == 0
        held += [[] for _ in range(limit0)]
        collector.idle(QUIET_S)
        assert collector.passes[2] == 1
    finally:
        collector.stop()
    assert gc.isenabled() == enabled
