"""The kiosk loop: sleep until an input or a timer, redraw only what changed.

Its length (about 500 lines): the loop, the screen stack, input routing and the notice
bands belong to one object every screen talks to.

``App.step()`` sleeps until an event arrives or the top screen's next deadline (a
blinking light) is due, hands the events to the screen, and redraws only if something was
invalidated; ``frames`` counts the redraws, so a test can prove an idle table draws
nothing. The evening itself is the ``Table``'s (``companion.play.table``, no pygame): the
seat backends' presses go into its queue from their threads and wake the loop at once;
the loop drains it, the Table asks the game and writes the lights, and the App, its view,
draws what changed (``pressed``, ``changed``). Touches are the App's: a screen forwards
them to its controller as actions.
The demo drives the very same loop with a manual clock and ``step(block=False)``.

Why not ``pygame.event.wait``: with a video driver that has no blocking wait of its own
SDL polls its queue about every millisecond (the dummy driver: ~880 wake-ups a second
measured with SDL 2.28). The loop sleeps on a lock instead, which the seat backends'
callbacks release (``wake``), and looks at SDL's queue every ``POLL_MS`` (``IDLE_POLL_MS``
once the table has been left alone a while) for what only SDL delivers (touch, keys, the
window, and QUIT, which SDL posts on SIGTERM/SIGINT).

Screens draw on a canvas of the logical size; with a rotated display the canvas is turned
on its way to the window and taps are turned back (``to_canvas``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import pygame

from companion.config import WINDOW_SIZE, DisplayConfig
from companion.hardware.base import PadEvent, SeatBackend
from companion.i18n import Catalog, load_catalog
from companion.play.seat import ButtonEvent
from companion.play.seatview import SeatView
from companion.play.table import Table
from companion.play.turns import NOBODY, Turns
from companion.play.words import Words, words_text
from companion.system.collector import IdleCollector
from companion.system.sdnotify import NO_NOTIFIER, Notifier
from companion.ui.theme import FELT, FELT_EDGE, RIM, WARNING, WARNING_BG, Painter, Theme

log = logging.getLogger(__name__)

POLL_MS = 20  # how often a sleeping loop looks at SDL's queue (touch, keys, window, QUIT)
# ... once nothing has come for ACTIVE_S: a table left alone (Home, a game between turns)
# wakes a third as often. A tap acts on the finger's lift, which comes at least tens of ms
# after the touch that brought the loop back to POLL_MS; a seat's press wakes it at once.
IDLE_POLL_MS = 60
ACTIVE_S = 2.0
# The longest the frame after a press waits for the journal's committer to write the
# press's light (``App._await_receipt``): drawing a frame holds the interpreter's lock for
# milliseconds, which the committer, back from its fsync, needs to write the light.
RECEIPT_WAIT_MS = 10


class Clock:
    """Milliseconds since an arbitrary start."""

    def now_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000


class ManualClock(Clock):
    """A clock that moves only when told (demo, tests)."""

    def __init__(self, start_ms: int = 0) -> None:
        self.t = start_ms

    def now_ms(self) -> int:
        return self.t

    def advance(self, ms: int) -> None:
        self.t += ms


class Screen:
    """One screen of the kiosk. Subclasses draw with ``draw`` and react in the handlers;
    whatever changes what is shown calls ``self.app.invalidate()``."""

    name = "screen"  # used for demo screenshot files

    def __init__(self, app: App) -> None:
        self.app = app

    def draw(self, p: Painter) -> None:
        raise NotImplementedError

    def describe(self) -> str:
        """One line saying what the screen shows (demo transcript)."""
        return self.name

    def on_show(self) -> None:
        """This screen has just come on top of the stack (pushed, or uncovered by a pop)."""

    def on_change(self) -> None:
        """What the Table shows changed (the game moved, a write failed, a game's history
        row reached the disk): a screen that lays out what it says of it does so again."""

    def turns(self) -> Turns:
        """Who acts while this screen is on top (``companion.play.turns``: the seats' lights
        are computed from it): a game screen's comes from its controller; a screen
        without a game lights nothing."""
        return NOBODY

    def seat_views(self) -> Mapping[int, SeatView]:
        """What each seat's own plate (and its phone page) shows while this screen is on
        top (``companion.play.seatview``): a game screen's come from its controller; a
        screen without a game has none."""
        return {}

    def seat_text(self, words: Words) -> str:
        """A sentence of a seat view, in the table's language."""
        return words_text(self.app.catalog, self.app.seats, words)

    # The controller the Table asks for the seats' presses while this screen is on top
    # (None: the screen answers them itself, ``on_button``).
    plays = None

    def on_button(self, event: ButtonEvent) -> None:
        """A seat button was pressed, and the screen answers it (no game: ``plays``)."""

    def claims(self, event: ButtonEvent) -> bool:
        """Whether this press is the screen's own, not its game's (a power's options open
        on screen)."""
        return False

    def pressed(self, event: ButtonEvent, result) -> None:
        """The Table gave a press to ``plays``, which answered ``result``: show it."""
        self.app.invalidate()

    def on_status(self, seat: int, connected: bool) -> None:
        """A seat pad came or went; by default just redraw its mark."""
        self.app.invalidate()

    # The touch widgets a finger goes to (Button, TapArea, PlayCode): what a screen draws.
    buttons: Sequence = ()

    def pointer_down(self, pos: tuple[int, int]) -> None:
        """A finger or the mouse went down at ``pos`` (canvas pixels): every button hears it
        (all of them: a list first, then ``any``)."""
        changed = [b.pointer_down(pos) for b in self.buttons]
        if any(changed):
            self.app.invalidate()

    def pointer_up(self, pos: tuple[int, int]) -> None:
        """... and came up: over a copy of the buttons, since a tap may rebuild them."""
        changed = [b.pointer_up(pos) for b in list(self.buttons)]
        if any(changed):
            self.app.invalidate()

    # The seat ring the screen draws (a ``companion.ui.seats.SeatRing``), if any: its
    # lights' rhythm is the screen's deadline, and a step of it redraws the ring alone.
    ring = None

    def next_deadline(self, now_ms: int) -> int | None:
        """When this screen next changes by itself (ms, the clock's time), or None: by
        default when a light mirrored on its ring next changes."""
        return None if self.ring is None else self.ring.next_deadline(self.app.backend, now_ms)

    def on_timer(self, now_ms: int) -> None:
        """The deadline passed: by default only the ring's lights moved."""
        if self.ring is not None:
            self.app.redraw_ring(self.ring)


def wants_fullscreen(mode: str) -> bool:
    """``auto``: fullscreen on a Raspberry Pi or without a desktop session."""
    if mode != "auto":
        return mode == "yes"
    model = Path("/proc/device-tree/model")
    try:
        on_pi = "raspberry pi" in model.read_text(errors="replace").lower()
    except OSError:
        on_pi = False
    desktop = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return on_pi or not desktop


def window_size(display: DisplayConfig, fullscreen: bool) -> tuple[int, int]:
    """The window's size: the configured one when given; else, fullscreen, the display's
    own (SDL's desktop mode: the panel's native size, before ``display.rotation`` turns the
    picture), and in a window ``WINDOW_SIZE``."""
    if display.width is not None and display.height is not None:
        return display.width, display.height
    if fullscreen:
        pygame.display.init()
        sizes = pygame.display.get_desktop_sizes()
        if sizes and min(sizes[0]) > 0:
            return sizes[0]
        info = pygame.display.Info()
        if info.current_w > 0 and info.current_h > 0:
            return info.current_w, info.current_h
    return WINDOW_SIZE


def window_icon() -> pygame.Surface:
    """The kiosk's own icon, for a window on a desktop (the console shows none): the felt
    in its walnut rim and brass edge, one seat's light lit. Drawn, not read from a file:
    given before the window opens, it spares pygame loading its own from its package
    (through importlib.resources: 2 to 3 ms of every start)."""
    icon = pygame.Surface((32, 32), pygame.SRCALPHA)
    pygame.draw.circle(icon, FELT_EDGE, (16, 16), 16)
    pygame.draw.circle(icon, RIM, (16, 16), 14)
    pygame.draw.circle(icon, FELT, (16, 16), 10)
    pygame.draw.circle(icon, WARNING, (16, 4), 3)
    return icon


def open_window(width: int, height: int, fullscreen: bool, caption: str) -> pygame.Surface:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_caption(caption)
    pygame.display.set_icon(window_icon())
    flags = pygame.FULLSCREEN if fullscreen else 0
    window = pygame.display.set_mode((width, height), flags)
    pygame.mouse.set_visible(not fullscreen)
    return window


class App:
    """The screen stack, the event loop and the drawing of frames."""

    def __init__(
        self,
        window: pygame.Surface,
        *,
        backend: SeatBackend,
        seats: Sequence,
        catalog: Catalog,
        rotation: int = 0,
        clock: Clock | None = None,
        notice: str | None = None,
        journal=None,
        history=None,
        table: Table | None = None,
        checks_texts: bool = True,
    ) -> None:
        """``journal`` and ``history`` (a ``companion.storage.journal.Journal``, a
        ``companion.storage.history.History``; None: not kept) are the Table's, made here unless
        ``table`` is given. ``checks_texts``: ``Theme``'s (the kiosk draws without)."""
        if rotation not in (0, 90, 180, 270):
            raise ValueError(f"rotation {rotation}: one of 0, 90, 180, 270")
        self.window = window
        self.rotation = rotation
        w, h = window.get_size()
        size = (h, w) if rotation in (90, 270) else (w, h)
        self.canvas = window if rotation == 0 else pygame.Surface(size)
        self.size = size
        self.theme = Theme(size, checks_texts=checks_texts)
        self._seats = tuple(seats)
        self.catalog = catalog
        self.clock = clock or Clock()
        self.notice = notice
        self.table = table or Table(backend, len(self._seats), journal=journal,
                                    history=history)
        self.table.view = self
        self.table.wake_with(self.wake)  # a game's history row on disk (``Table.end_game``)
        self.warnings: list[tuple[str, str]] = []  # more notices: (catalog key, detail)
        self.pad_event: PadEvent | None = None  # what the pad did, in the band until cleared
        self._pad_taken: PadEvent | None = None  # the backend's pad_event last taken
        self.screens: list[Screen] = []
        self.running = True
        self.frames = 0
        self.painter: Painter | None = None  # the last frame's, for tests
        self._dirty = True
        self._ring_due = None  # a seat ring whose lights alone changed (``redraw_ring``)
        self.ring_frames = 0  # frames that redrew only a ring's plates
        self._looked_ms = self.clock.now_ms()  # when the loop last checked for a deadline
        # Held while no wake-up is pending: ``wake`` releases it, the sleeping loop's
        # ``acquire(timeout=…)`` returns at once then and takes it back. One lock, not a
        # Condition: the loop sleeps 50 times a second, and each of a Condition's waits
        # costs several times a bare lock's in CPU (idle on a game screen).
        self._wake = threading.Lock()
        self._wake.acquire()
        self._input_at = time.monotonic()  # when the loop last found an event (``poll_ms``)
        self._handled_at = self._input_at  # ... or a seat's press, status or pad event
        self.collector = IdleCollector()  # the cycle collector, run only where none waits
        self._late_lights = False  # the seats' lights written by the journal's committer
        self.notifier: Notifier = NO_NOTIFIER  # systemd's watchdog, kept alive in ``_wait``

    # --- screens ------------------------------------------------------------------------

    @property
    def screen(self) -> Screen:
        return self.screens[-1]

    def push(self, screen: Screen) -> None:
        self.screens.append(screen)
        self._shown()

    def pop(self) -> Screen:
        """Back to the screen below (a game's screens return to Home this way)."""
        screen = self.screens.pop()
        self._shown()
        return screen

    def replace(self, screen: Screen) -> None:
        self.screens[-1] = screen
        self._shown()

    def _shown(self) -> None:
        if self.screens:
            self.table.game = self.screen.plays  # its lights are the screen's (``lights``)
        self.invalidate()
        if self.screens:
            self.screen.on_show()

    @property
    def backend(self) -> SeatBackend:
        """The seats' hardware: the Table's."""
        return self.table.backend

    @backend.setter
    def backend(self, backend: SeatBackend) -> None:
        self.table.backend = backend

    @property
    def seats(self) -> tuple:
        """The configured seats (``companion.config``), the Table lights as many."""
        return self._seats

    @seats.setter
    def seats(self, seats: Sequence) -> None:
        self._seats = tuple(seats)
        self.table.seats = len(self._seats)

    @property
    def journal(self):
        """The games in progress (``companion.storage.journal.Journal``; None: not kept): the
        Table's."""
        return self.table.journal

    @journal.setter
    def journal(self, journal) -> None:
        self.table.journal = journal

    @property
    def history(self):
        """The finished games (``companion.storage.history.History``; None: not kept): the
        Table's."""
        return self.table.history

    @history.setter
    def history(self, history) -> None:
        self.table.history = history

    @property
    def save_failure(self):
        """Why the last write of the journal or the history failed, until one succeeds."""
        return self.table.save_failure

    def _take_pad_event(self) -> None:
        """The backend's latest pad event into the band, if the loop has not taken it yet
        (a restart or a return stays until the next press, a loss until the return)."""
        latest = getattr(self.backend, "pad_event", None)
        if latest is not self._pad_taken:
            self._pad_taken = self.pad_event = latest
            self.invalidate()

    def _pad_heard(self) -> None:
        """A press came through: the pad works, the band of its restart or return goes
        (as "Not saved" goes once a write succeeds); a loss stays until the pad is back."""
        if self.pad_event is not None and self.pad_event.kind != PadEvent.LOST:
            self.pad_event = None
            self.invalidate()

    def bands(self) -> list[tuple[str, str]]:
        """What is said across the top of any screen, most urgent first, in the table's
        language: (line, hint). A write that failed ("Not saved: disk full") until one
        succeeds; what the seat pad did (restarted, lost, back: its name and the time,
        nothing of any seat's buttons or lights)."""
        t = self.catalog.text
        out = []
        failure = self.save_failure
        if failure is not None:
            key = f"storage.cause.{failure.cause}"
            cause = t(key if key in self.catalog.texts else "storage.cause.other")
            hint = f"storage.hint_{failure.cause}"  # what to do, where it is not "press again"
            out.append((t("storage.not_saved", reason=cause),
                        t(hint if hint in self.catalog.texts else "storage.hint")))
        pad = self.pad_event
        if pad is not None:
            at = time.strftime("%H:%M", time.localtime(pad.at))
            out.append((t(f"pad_event.{pad.kind}", time=at), t(f"pad_event.hint_{pad.kind}")))
        return out

    @property
    def notices(self) -> list[tuple[str, str]]:
        """What the table must be told (catalog key of the title, detail): the seat
        hardware fallback, the seat backend's own (a seat lost to a bus), a journal or history database moved aside, ``warnings``."""
        found = [("notice.fallback", self.notice)]
        found += [("notice.seats", getattr(self.backend, "notice", None))]
        found += self.table.store_notices()
        return [(key, detail) for key, detail in found + self.warnings if detail]

    def follow(self, game) -> None:
        """Redraw, and show the seats' lights again, whenever the game (a controller of
        ``companion.play``) changes, however it changed; once per game."""
        self.table.follow(game)

    def redraw_ring(self, ring) -> None:
        """Only the lights mirrored on ``ring`` (a ``companion.ui.seats.SeatRing`` of the
        screen on top) moved: a blink step, an acknowledgement ending. The next frame draws
        its plates alone, not the whole screen: the acting seat's blinking light asks for a
        frame several times a second, and a press handled while a frame is drawn waits for
        it (a whole 800x480 frame costs several times its plates, more so on a Pi)."""
        self._ring_due = ring

    def invalidate(self) -> None:
        """What is shown changed: a frame is due (the loop woken, should it be asleep:
        this may be another thread), and the seats show the lights of the screen on
        top."""
        self._dirty = True
        if self.screens:
            self.table.show_lights()
            self._show_seats()
        self.wake()

    def _show_seats(self) -> None:
        """Each seat's own display beyond its light (a phone's page), from the screen on
        top: the Table's ``show_seats``."""
        self.table.show_seats()

    def shown(self) -> Screen | None:
        """What the seats' own displays show: the screen on top."""
        return self.screen if self.screens else None

    # --- seats: the Table's view ---------------------------------------------------------

    def start_backend(self) -> None:
        """Start the backend: its callbacks (any thread) queue into the Table and wake the
        loop."""

        def on_button(event: ButtonEvent) -> None:
            self.post_button(event)

        def on_status(seat: int, connected: bool) -> None:
            self.post_status(seat, connected)

        def on_pad(event: PadEvent) -> None:
            self.table.post_pad(event)
            self.wake()

        self.backend.start(on_button, on_status, on_pad)

    def wake(self) -> None:
        """End the loop's sleep now (any thread), after posting an event."""
        try:
            self._wake.release()
        except RuntimeError:
            pass  # a wake-up is pending already

    def post_button(self, event: ButtonEvent) -> None:
        """A press into the Table's queue (any thread; never raises)."""
        self.table.post_button(event)
        self.wake()

    def post_status(self, seat: int, connected: bool) -> None:
        self.table.post_status(seat, connected)
        self.wake()

    def turns(self) -> Turns | None:
        """Who acts on the screen on top (a game screen answers from its controller), for
        the Table's lights; None: no screen."""
        return self.screen.turns() if self.screens else None

    def claims(self, event: ButtonEvent) -> bool:
        return self.screen.claims(event)

    def on_button(self, event: ButtonEvent) -> None:
        self._pad_heard()
        self.screen.on_button(event)

    def pressed(self, event: ButtonEvent, result) -> None:
        self._pad_heard()
        self.screen.pressed(event, result)

    def on_status(self, seat: int, connected: bool) -> None:
        self.screen.on_status(seat, connected)

    def on_pad(self) -> None:
        self._take_pad_event()

    def changed(self) -> None:
        if self.screens:
            self.screen.on_change()
        self.invalidate()

    def late_lights_written(self) -> None:
        """The journal's committer wrote the seats' lights after the frame that showed the
        press (any thread): the ring, which shows the backend's lights, is drawn again."""
        self._late_lights = True
        self.wake()

    # --- the loop -----------------------------------------------------------------------

    def run(self) -> None:
        """Until Esc or the window closes. Meanwhile the cycle collector runs only when
        the loop is about to sleep (``companion.system.collector``)."""
        self.collector.start()
        try:
            while self.running:
                self.step()
        finally:
            self.collector.stop()

    def timeout_ms(self) -> int | None:
        """How long the loop may sleep: until the screen's next deadline, or forever."""
        now = self.clock.now_ms()
        deadline = self.screen.next_deadline(now)
        return None if deadline is None else max(1, deadline - now)

    def step(self, block: bool = True) -> None:
        """Wait for input or the next deadline (``block``), or take only what is already
        queued; handle it; fire a due timer; draw a frame if anything changed."""
        events: list[pygame.event.Event] = []
        if block:
            self._fire_timer()
            self.render_if_dirty()
            events.extend(self._wait(self.timeout_ms()))
        while True:
            events.extend(pygame.event.get())
            seat_events = self.table.drain()
            for event in events:
                with self.table.handling():  # the lights once per touch
                    self.handle(event)
            if not (events or seat_events) or not self.running:
                break
            self._handled_at = time.monotonic()
            events = []  # a handler may have posted more (a simulated press)
        self._fire_timer()
        self._await_receipt()
        self.render_if_dirty()

    def _await_receipt(self) -> None:
        """Before drawing the frame of a press: let the journal's committer write the
        press's light first, up to RECEIPT_WAIT_MS (the loop then holds no lock the light
        needs); a seat's press coming meanwhile ends the wait at once."""
        pending = getattr(self.journal, "receipt_pending", None)
        if pending is None or not self._dirty:
            return
        end = time.monotonic() + RECEIPT_WAIT_MS / 1000
        while pending() and not self.table.pending():
            left = end - time.monotonic()
            if left <= 0:
                return
            self._wake.acquire(timeout=min(left, 0.002))  # the committer's wake ends it

    def _wait(self, timeout_ms: int | None) -> list[pygame.event.Event]:
        """Sleep until SDL's queue holds something (seen within ``poll_ms``, or at once after
        ``wake``) or ``timeout_ms`` has passed (None: no limit); what was queued."""
        end = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000
        while True:
            self.notifier.keepalive()  # from the loop itself: a hung loop stops them
            events = pygame.event.get()
            now = time.monotonic()
            if events:
                self._input_at = now
            if events or self.table.pending() or self._frame_due():
                return events
            poll = self.poll_ms(now) / 1000
            nap = poll if end is None else min(poll, end - now)
            if nap <= 0:
                return []
            self.collector.idle(now - self._handled_at)  # nothing waits: the frame is drawn
            self._wake.acquire(timeout=nap)  # a pending wake-up ends it at once

    def _frame_due(self) -> bool:
        """Something to draw that another thread asked for and woke the loop about (the
        lights the journal's committer wrote, a view changed off the loop): drawn now,
        not at the screen's next deadline, which may be a blink step away or none."""
        return bool(self.screens) and (self._dirty or self._late_lights)

    def poll_ms(self, now: float) -> int:
        """How long the sleeping loop leaves SDL's queue unread at ``now`` (monotonic s):
        POLL_MS within ACTIVE_S of the last input, IDLE_POLL_MS after."""
        return POLL_MS if now - self._input_at < ACTIVE_S else IDLE_POLL_MS

    def _fire_timer(self) -> None:
        """Tell the screen if its deadline, as seen at the loop's previous look, has passed
        (asked at ``now`` a deadline is always still ahead)."""
        now = self.clock.now_ms()
        since, self._looked_ms = self._looked_ms, now
        if not self.screens:
            return
        deadline = self.screen.next_deadline(since)
        if deadline is not None and now >= deadline:
            with self.table.handling():
                self.screen.on_timer(now)

    def handle(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.QUIT:
            self.running = False
        elif kind == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.running = False
            elif hasattr(self.backend, "key_down") and self.backend.key_down(
                    pygame.key.name(event.key), self.clock.now_ms()):
                self._dirty = True  # a seat key: its light's acknowledgement shows
        elif kind == pygame.KEYUP and hasattr(self.backend, "key_up"):
            self.backend.key_up(pygame.key.name(event.key), self.clock.now_ms())
        elif kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            # SDL also turns touches into mouse events: those are handled as FINGER*.
            if event.button == 1 and not getattr(event, "touch", False):
                self._pointer(kind == pygame.MOUSEBUTTONDOWN, self.to_canvas(event.pos))
        elif kind in (pygame.FINGERDOWN, pygame.FINGERUP):
            w, h = self.window.get_size()
            pos = self.to_canvas((int(event.x * w), int(event.y * h)))
            self._pointer(kind == pygame.FINGERDOWN, pos)
        elif kind in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self.invalidate()

    def _pointer(self, down: bool, pos: tuple[int, int]) -> None:
        if down:
            self.screen.pointer_down(pos)
        else:
            self.screen.pointer_up(pos)

    def to_canvas(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A window pixel as a canvas pixel (undoing the display rotation, clockwise)."""
        x, y = pos
        cw, ch = self.size
        if self.rotation == 90:
            return y, ch - 1 - x
        if self.rotation == 180:
            return cw - 1 - x, ch - 1 - y
        if self.rotation == 270:
            return cw - 1 - y, x
        return x, y

    def to_window(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A canvas pixel as a window pixel (``to_canvas`` undone): where a finger touches
        the glass to tap that point of the picture."""
        x, y = pos
        cw, ch = self.size
        if self.rotation == 90:
            return ch - 1 - y, x
        if self.rotation == 180:
            return cw - 1 - x, ch - 1 - y
        if self.rotation == 270:
            return y, cw - 1 - x
        return x, y

    # --- drawing ------------------------------------------------------------------------

    def render_if_dirty(self) -> bool:
        if not self.screens:
            return False
        if self._late_lights:  # written after the frame that showed the press
            self._late_lights = False
            self._dirty = True
        ring, self._ring_due = self._ring_due, None
        if not self._dirty and ring is not None:
            # A band across the top may cover a plate, a finger held on a button (a tap
            # area on a plate) shows its outline over it: the whole frame then.
            if not self.bands() and not any(b.pressed for b in self.screen.buttons):
                return self._render_ring(ring)
            self._dirty = True
        if not self._dirty:
            return False
        self._dirty = False
        painter = Painter(self.canvas, self.theme)
        self.screen.draw(painter)
        self._draw_bands(painter, self.bands())
        if self.rotation:
            self.window.blit(pygame.transform.rotate(self.canvas, -self.rotation), (0, 0))
        pygame.display.flip()
        self.painter = painter
        self.frames += 1
        return True

    def _render_ring(self, ring) -> bool:
        """The plates of ``ring`` whose light moved drawn again over the last frame, and
        only they shown (a blink step: one plate, most often, of four to six)."""
        rects = ring.draw_blinked(Painter(self.canvas, self.theme), self.backend,
                                  self.clock.now_ms())
        if not rects:
            return False
        rects = [rect.clip(self.canvas.get_rect()) for rect in rects]  # an outline's edge
        if self.rotation:  # each plate's patch turned alone, not the whole canvas
            turned = [self._window_rect(r) for r in rects]
            for canvas_rect, window_rect in zip(rects, turned, strict=True):
                patch = pygame.transform.rotate(self.canvas.subsurface(canvas_rect),
                                                -self.rotation)
                self.window.blit(patch, window_rect)
            rects = turned
        pygame.display.update(rects)
        self.ring_frames += 1
        return True

    def _window_rect(self, rect: pygame.Rect) -> pygame.Rect:
        """A canvas rectangle as the window shows it (``to_window`` of its corners)."""
        (x0, y0), (x1, y1) = self.to_window(rect.topleft), self.to_window(
            (rect.right - 1, rect.bottom - 1))
        return pygame.Rect(min(x0, x1), min(y0, y1), abs(x1 - x0) + 1, abs(y1 - y0) + 1)

    def _draw_bands(self, p: Painter, bands: list[tuple[str, str]]) -> None:
        """Amber bands across the top of any screen, one under the other: a line
        ("Not saved: disk full", "The seat pad restarted at 20:14") and its hint."""
        font = self.theme.font(self.theme.px(30))
        hint_font = self.theme.font(self.theme.px(22))
        pad = self.theme.px(10)
        w = self.size[0]
        height = font.get_linesize() + hint_font.get_linesize() + 2 * pad
        top = 0
        for lines in bands:
            band = pygame.Rect(0, top, w, height)
            pygame.draw.rect(p.surface, WARNING_BG, band)
            pygame.draw.rect(p.surface, WARNING, band, width=max(1, self.theme.px(3)))
            y = top + pad
            for text, f in zip(lines, (font, hint_font), strict=True):
                box = pygame.Rect(pad, y, w - 2 * pad, f.get_linesize())
                p.text(text, self.theme.fitting_font(text, f.get_height(), box.w), WARNING, box)
                y += f.get_linesize()
            top += height

    def screenshot(self, path: Path) -> None:
        """What the window shows now, as a PNG."""
        pygame.image.save(self.window, str(path))


def make_app(
    config,
    backend: SeatBackend,
    *,
    notice: str | None = None,
    clock: Clock | None = None,
    fullscreen: bool = False,
    journal=None,
    history=None,
    checks_texts: bool = True,
) -> App:
    """Open the window for ``config`` (a ``companion.config.Config``) and the app on it
    (``checks_texts``: ``Theme``'s; the kiosk's is False)."""
    catalog = load_catalog(config.language)
    d = config.display
    size = window_size(d, fullscreen)
    window = open_window(*size, fullscreen, catalog.text("app.name"))
    return App(
        window,
        backend=backend,
        seats=config.seats,
        catalog=catalog,
        rotation=d.rotation,
        clock=clock,
        notice=notice,
        journal=journal,
        history=history,
        checks_texts=checks_texts,
    )
