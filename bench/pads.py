"""Benchmark 1: what a player feels at a seat pad, through the kiosk's own loop.

The path, as in ``companion run``: the backend sees the pin → its debouncer → the
backend's callback → ``App.start_backend``'s routing (into the ``Table``'s queue, the loop
woken) → the ``App`` loop running in the main thread → ``Table.drain`` → the top screen's
``on_button`` → a Koryŏ ``Session.dispatch`` ("end round": rules, the journal's commit,
written) → the session's listener → ``lights(KoryoGame.turns(view))`` → once the
journal's committer thread has fsynced the commit (``Journal.when_durable``, as the kiosk)
→ ``backend.set_light`` → the light.
The screen (``PressScreen``) does what a game screen does with a press and draws what the
real Koryŏ game screen draws: that screen, resumed from the journal (``koryo.resume``,
as at a start), sharing its session, so the frame after a press (drawn before the loop
takes the next event) costs what it costs at the table; the light is the first
player's: the press passes the token, so the next seat lights.

Two backends, each on what stands in for its hardware:

- **gpio**: the real ``GpioBackend`` (worker thread, real clock) on gpiozero's
  ``MockFactory`` pins, shipped profile ``gpio-5-seats`` (plain LEDs); the light is the
  mock LED pin's change of state. A pin edge runs the backend's callback in the thread
  that drives the pin (on a Pi: the pin library's callback thread).
- **serial**: the real ``SerialBackend`` on a pty, the pad firmware (``firmware/pad/
  main.py`` with stand-in ``machine``/``neopixel`` modules) on the other end, in a
  process of its own (``bench/pad_process.py``: the board shares no interpreter with the
  kiosk) doing what the firmware's main loop does (every ``SCAN_US``, 250 µs: read what
  the host sent and the pins); the light is the pixel written to the WS2812 chain, timed
  in that process, and a press edge is the moment it changed the pin there. That process
  runs real-time (``BOARD_PRIORITY``) where the bench is granted it, as a Pico runs on a
  core of its own: under the normal policy it waits for a core behind the kiosk's own
  threads (on this 2-core machine, three pairs of 100 presses alternated: release →
  light p99 5.1, 6.7, 5.8 ms that way against 3.4, 4.9, 4.0 ms with the board
  real-time), a delay no Pi with a pad on USB has. Where it is not granted the row says "board: normal policy". USB's own latency
  (a full-speed frame is 1 ms) is not in either.

A press: the pin goes down with 3 ms of chatter (an edge every ms), is held 80 ms from
its first edge, goes up with 3 ms of chatter. A press whose chatter the driver thread
could not keep to (an edge 10 ms late or more: the machine's load) is undone and made
again, and counted ("resampled"). Timed, with ``perf_counter_ns``:

- **release → light**: from the first release edge to the result (the next seat's
  light turning on);
- **press → acknowledgement**: from the first press edge to the first light that
  changes (ours: the acknowledgement on the pressing seat's own light — a press of ours
  whose seat light never changed is counted as "without"; the baseline has none, so
  its first change is the result, after the hold);
- **the commit's share**: how long that press's ``Journal.append`` (its write) and the
  committer's fsync of the -wal that made it durable (on this machine's shared disk)
  took, and release → light without it (the handoff to the loop, the rules, the view
  and the light): the disk's tail and the kiosk's own path, told apart press by press;
- **release → the loop's screen has the press**: from the first release edge to the
  screen's ``on_button`` (the debouncer, the backend's callback, the event queued in the
  Table and the loop's thread woken): the handoff's share of the kiosk's own path.

Baseline: the same rig with the debouncer the companion had before
(``bench/baseline_debounce.py``: trailing, a level counts after 20 ms without an edge,
no acknowledgement), on the pins and in the pad firmware alike. Ours and the baseline
alternate in blocks (``ROUNDS`` rounds of ``PRESSES`` presses each), each press at a
random phase, 30-80 ms after the previous one was undone (``Session.undo``, not timed):
a quick player's pace (a press within the 20 ms after a release is a bounce to both
debouncers). Figures per round: p50 and p99; reported: the median over rounds with min
and max. A p99 stands on 100 presses at least (``bench.common.fewest_for``): with fewer a
round (40), it is taken once over every round's presses pooled (3×40: the p99 of 120),
and the row says so.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pty
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

import pygame
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from bench import baseline_debounce
from bench.common import ROOT, Row, percentiles, spread, times
from companion.config import SHIPPED_CONFIG, load_config
from companion.games.koryo.adapter import KoryoGame
from companion.games.majority.autoplay import next_action
from companion.hardware import debounce, gpio
from companion.hardware.gpio import GpioBackend
from companion.hardware.profile import load_profile, profile_path
from companion.hardware.serial_pad import SerialBackend
from companion.i18n import load_catalog
from companion.play.errors import RuleError
from companion.play.session import Session
from companion.play.turns import lights
from companion.storage.journal import Journal
from companion.system import realtime
from companion.ui.app import App, Screen, open_window
from companion.ui.screens.majority import koryo

PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]
BOARD_PRIORITY = realtime.PRIORITY + 10  # the stand-in Pico: ahead of the kiosk too
HOLD_S = 0.080
CHATTER = 3  # edges after the first, 1 ms apart
MAX_GAP_MS = 10.0  # a chatter edge later than this (the driver overslept): not a sample
WAIT_S = 5.0
LOST_MAX = 5  # presses of a block whose light never came before it stops (then: broken)
VARIANTS = ("ours", "baseline")
# What is reported of the presses of a block: (key, label, percentile, goal in ms).
RELEASE_METRICS = (
    ("release", "release → light", 99, 5.0),
    ("release", "release → light", 50, None),
    ("commit", "the durable commit of those presses (Journal.append)", 99, None),
    ("rest", "release → light but the commit", 99, None),
    ("loop", "release → the loop's screen has the press", 99, None),
)


class Lights:
    """Timestamps of light changes, per seat: ``on(seat)`` — the seat's light went on —
    and ``changed(seat)`` — any change of that seat's light."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.first_change: dict[int, int] = {}
        self.first_on: dict[int, int] = {}

    def arm(self) -> None:
        with self.cond:
            self.first_change.clear()
            self.first_on.clear()

    def saw(self, seat: int, on: bool, t: int | None = None) -> None:
        """``seat``'s light changed (now, or at ``t``: ``perf_counter_ns`` of the pad's
        process)."""
        t = time.perf_counter_ns() if t is None else t
        with self.cond:
            self.first_change.setdefault(seat, t)
            if on:
                self.first_on.setdefault(seat, t)
            self.cond.notify_all()

    def wait(self, ready: Callable[[], bool]) -> None:
        with self.cond:
            if not self.cond.wait_for(ready, WAIT_S):
                raise RuntimeError("the press never reached the light")


def until(ready: Callable[[], bool], what: str) -> None:
    """Wait (untimed) for ``ready()``, looking every 0.5 ms."""
    end = time.monotonic() + WAIT_S
    while not ready():
        if time.monotonic() > end:
            raise RuntimeError(f"never: {what}")
        time.sleep(0.0005)


LIGHTS = Lights()


class TimedPin(MockPin):
    """A mock pin that reports its state changes to ``LIGHTS`` (LED pins only)."""

    seat_of: ClassVar[dict[int, int]] = {}  # id(pin) -> seat, for the LED pins

    def _change_state(self, value):
        changed = super()._change_state(value)
        seat = self.seat_of.get(id(self))
        if changed and seat is not None:
            LIGHTS.saw(seat, bool(self.state))
        return changed


class PressScreen(Screen):
    """What a game screen does with a seat press: the session's dispatch; the lights
    follow the session's published view (the listener set up by the rig)."""

    name = "bench"

    def __init__(self, app: App, session: Session, action: dict, look: Screen) -> None:
        super().__init__(app)
        self.session = session
        self.action = action
        self.look = look  # the real game screen: what is drawn
        self.ring = look.ring
        self.reached_ns: int | None = None  # when the loop handed it the press (first one)

    def on_button(self, event) -> None:
        if self.reached_ns is None:
            self.reached_ns = time.perf_counter_ns()
        try:
            self.session.dispatch(self.action)
        except RuleError:
            return  # refused (a second event from one press): nothing changes
        self.app.invalidate()

    def turns(self):
        """Who acts, as the real screen declares it (a frame's ``invalidate`` writes the
        same lights as the rig's listener, never all off between a press and its result)."""
        return self.look.turns()

    def draw(self, p) -> None:
        self.look.draw(p)


class Rig:
    """A Koryŏ game at the end of round 1 on ``backend``, journaled in ``directory``, and
    the App with its screen; ``press(seat)`` is the backend's own way of pressing."""

    def __init__(self, backend, directory: Path, window: pygame.Surface) -> None:
        self.backend = backend
        self.rules = KoryoGame()
        self.sync_ms = 0.0  # how long the committer's last fsync of the -wal took
        # as the kiosk opens it: the commit's fsync in the committer's thread, the lights
        # after it (companion.storage.committer)
        self.journal = Journal(directory / "journal.db", background_sync=True,
                               sync_wal=self._timed_sync)
        self.session = Session.start(self.journal, self.rules, {"players": PLAYERS})
        rng = random.Random(6)
        while True:
            action = next_action(self.rules, self.session.state, rng)
            if action["action"] == "end_round":
                break
            self.session.dispatch(action)
        config = load_config(SHIPPED_CONFIG)
        self.app = App(window, backend=backend, seats=config.seats[:len(PLAYERS)],
                       catalog=load_catalog("en"), journal=self.journal,
                       checks_texts=False)  # as ``companion run`` draws
        look = koryo.resume(self.app, self.session.game_id)  # as the kiosk resumes it
        self.session = look.game.session
        self.session.subscribe(self.show)
        self.show(self.session.public_view())
        self.app.push(PressScreen(self.app, self.session, action, look))
        self.settled: Callable[[], bool] = lambda: True  # the lights have reached the pads
        self.append_ms = 0.0  # how long the last press's journal append (its write) took
        append = self.journal.append

        def timed_append(*args, **kwargs):
            start = time.perf_counter_ns()
            try:
                return append(*args, **kwargs)
            finally:
                self.append_ms = (time.perf_counter_ns() - start) / 1e6

        self.journal.append = timed_append

    def _timed_sync(self, fd: int) -> None:
        start = time.perf_counter_ns()
        try:
            os.fdatasync(fd)
        finally:
            self.sync_ms = (time.perf_counter_ns() - start) / 1e6

    @property
    def commit_ms(self) -> float:
        """The last press's durable commit: its write (on the loop's thread) and the
        committer's fsync of it (read once its light is on: that fsync is done then)."""
        return self.append_ms + self.sync_ms

    def show(self, view: dict) -> None:
        """The game's lights, once the journal holds the action on disk (the receipt)."""
        wanted = lights(self.rules.turns(view))

        def write() -> None:
            for seat, light in wanted.items():
                self.backend.set_light(seat, light)

        self.journal.when_durable(write)

    def actions(self) -> int:
        return len(self.journal.actions(self.session.game_id))

    def first_player(self) -> int:
        return PLAYERS.index(self.session.public_view()["first_player"])

    def undo_to(self, before: int) -> None:
        """Undo what a press made (untimed), from the driver's thread: the loop draws
        the frame of it at once (``App.invalidate`` wakes it)."""
        while self.actions() > before:
            self.session.undo()

    def close(self) -> None:
        self.journal.wait_durable()  # the last undo's lights reach the pins before they close
        self.backend.close()
        self.journal.close()


def drive(set_level: Callable[[bool], int | None], pressed: bool) -> tuple[int, float]:
    """The pin to ``pressed``, through CHATTER bounces 1 ms apart; returns when the first
    edge was made (``perf_counter_ns``: the time ``set_level`` gives, else now) and the
    longest gap between two edges (ms): a loaded machine may oversleep, and a "bounce"
    held 20 ms is a press to any debouncer, so such a press is not a sample."""
    level = pressed
    before = time.perf_counter_ns()
    first = set_level(level) or before
    last, longest = time.perf_counter_ns(), 0
    for _ in range(CHATTER):
        time.sleep(0.001)
        level = not level
        set_level(level)
        now = time.perf_counter_ns()
        last, longest = now, max(longest, now - last)
    if level != pressed:
        time.sleep(0.001)
        set_level(pressed)
        longest = max(longest, time.perf_counter_ns() - last)
    return first, longest / 1e6


def presses(rig: Rig, set_pin: Callable[[int, bool], None], count: int, rng: random.Random,
            out: dict) -> None:
    """``count`` presses of the first player's "a" (driver thread); the App loop runs in
    the main thread meanwhile and is stopped at the end (a QUIT event, as SDL posts on
    SIGTERM)."""
    try:
        while len(out["release"]) < count:
            time.sleep(rng.uniform(0.030, 0.080))  # a quick player's next press
            seat = rig.first_player()
            nxt = (seat + 1) % len(PLAYERS)
            before = rig.actions()
            LIGHTS.arm()
            rig.app.screen.reached_ns = None
            pressed, gap = drive(lambda level, s=seat: set_pin(s, level), True)
            gaps = [gap]
            time.sleep(max(0.0, HOLD_S - (time.perf_counter_ns() - pressed) / 1e9))
            released, gap = drive(lambda level, s=seat: set_pin(s, level), False)
            gaps.append(gap)
            try:
                LIGHTS.wait(lambda n=nxt: n in LIGHTS.first_on)
                lit = True
            except RuntimeError:  # no light within WAIT_S: a miss, counted, not the end
                lit = False
                out["lost"] += 1
                if out["lost"] > LOST_MAX:
                    raise
            if not lit:
                time.sleep(0.100)
            elif max(gaps) < MAX_GAP_MS:
                out["release"].append((LIGHTS.first_on[nxt] - released) / 1e6)
                out["commit"].append(rig.commit_ms)
                out["rest"].append(out["release"][-1] - rig.commit_ms)
                out["loop"].append((rig.app.screen.reached_ns - released) / 1e6)
                # The first light to change after the press edge: the acknowledgement on the
                # pressing seat (ours), or the result (the baseline's only answer).
                first = min(LIGHTS.first_change.get(seat, LIGHTS.first_on[nxt]),
                            LIGHTS.first_change.get(nxt, LIGHTS.first_on[nxt]))
                out["ack"].append((first - pressed) / 1e6)
                if seat not in LIGHTS.first_change:
                    out["no_ack"] += 1  # the pressing seat's own light never changed
                time.sleep(0.005)  # the dispatch returns
            else:
                out["skipped"] += 1
                time.sleep(0.100)  # a bounce long enough to be a press has come in
            rig.undo_to(before)
            until(rig.settled, "the undone press's lights on the pads")
    except Exception as exc:  # noqa: BLE001 - raised again in the main thread
        out["error"] = exc
    finally:
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        rig.app.wake()


def run_block(rig: Rig, set_pin, count: int, rng: random.Random) -> dict[str, list[float]]:
    out: dict = {"release": [], "ack": [], "commit": [], "rest": [], "loop": [], "skipped": 0,
                 "no_ack": 0, "lost": 0}
    driver = threading.Thread(target=presses, args=(rig, set_pin, count, rng, out))
    driver.start()
    rig.app.running = True
    rig.app.run()  # the kiosk's loop, in the main thread, until the driver is done
    driver.join()
    if "error" in out:
        raise out["error"]
    if len(out["release"]) != count:
        raise RuntimeError("the bench's presses did not all complete")
    return out


# -- gpio ----------------------------------------------------------------------------------


@contextlib.contextmanager
def debouncer(variant: str) -> Iterator[None]:
    """The GPIO backend built with our debouncer or the baseline's."""
    ours = gpio.Debouncer
    gpio.Debouncer = debounce.Debouncer if variant == "ours" else baseline_debounce.Debouncer
    try:
        yield
    finally:
        gpio.Debouncer = ours


def gpio_block(variant: str, directory: Path, window, count: int, rng) -> dict:
    profile = load_profile(profile_path("gpio-5-seats"))
    factory = MockFactory(pin_class=TimedPin)
    old, Device.pin_factory = Device.pin_factory, factory
    try:
        with debouncer(variant):
            backend = GpioBackend(profile, len(PLAYERS), debounce_ms=20, long_press_ms=700)
        TimedPin.seat_of = {id(factory.pin(s.led)): i for i, s in enumerate(profile.seats)}
        rig = Rig(backend, directory, window)
        buttons = [factory.pin(dict(s.buttons)["a"]) for s in profile.seats]

        def set_pin(seat: int, pressed: bool) -> None:
            (buttons[seat].drive_low if pressed else buttons[seat].drive_high)()

        rig.app.start_backend()
        try:
            return run_block(rig, set_pin, count, rng)
        finally:
            rig.close()
    finally:
        factory.reset()
        Device.pin_factory = old


# -- serial --------------------------------------------------------------------------------


class PadOnPty:
    """The pad firmware in a process of its own (``bench/pad_process.py``: a board shares
    no interpreter with the kiosk) on the master side of a pty; ``port`` is the slave for
    the ``SerialBackend``. Its pixel changes reach ``LIGHTS`` with the pad's timestamps.
    ``board_priority``: run it real-time, at that priority (benchmark 9)."""

    def __init__(self, variant: str, board_priority: int = 0) -> None:
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        # util-linux's chrt: real-time from the start, so that the cores the kiosk shares
        # with other work don't delay the pad either (a Pico has a core of its own)
        board = ["chrt", "--rr", str(board_priority)] if board_priority else []
        self.proc = subprocess.Popen(
            [*board, sys.executable, "-m", "bench.pad_process", variant, str(self.master)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=(self.master,),
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.answers: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self.read, name="pad-process", daemon=True)
        self.reader.start()

    def read(self) -> None:
        for line in self.proc.stdout:
            word, _, rest = line.decode().strip().partition(" ")
            if word == "pixel":
                seat, on, t = rest.split()
                LIGHTS.saw(int(seat), on == "1", int(t))
            else:
                self.answers.put(rest)

    def ask(self, command: str) -> str:
        self.proc.stdin.write(f"{command}\n".encode())
        self.proc.stdin.flush()
        return self.answers.get(timeout=WAIT_S)

    def set_pin(self, seat: int, pressed: bool) -> int:
        """Close or open seat's button "a"; returns when the contact changed."""
        return int(self.ask(f"pin {seat} {int(pressed)}"))

    def lights(self) -> list[str]:
        """The light states the host has set on the pad, by seat."""
        return self.ask("lights").split(",")

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join()
        os.close(self.master)
        os.close(self.slave)


def serial_block(variant: str, directory: Path, window, count: int, rng,
                 board_priority: int = 0) -> dict:
    pad = PadOnPty(variant, board_priority)
    connected = threading.Event()
    backend = SerialBackend(pad.port, len(PLAYERS), debounce_ms=20, long_press_ms=700)
    rig = None
    try:
        rig = Rig(backend, directory, window)
        route = rig.app.post_status

        def status(seat: int, up: bool) -> None:
            route(seat, up)
            if up and seat == len(PLAYERS) - 1:
                connected.set()

        rig.app.post_status = status
        rig.settled = lambda: pad.lights()[:len(PLAYERS)] == [
            rig.backend.light(s).value for s in range(len(PLAYERS))]
        rig.app.start_backend()
        if not connected.wait(WAIT_S):
            raise RuntimeError("the pad on the pty never answered")
        until(rig.settled, "the first lights on the pad")
        return run_block(rig, pad.set_pin, count, rng)
    finally:
        if rig is not None:
            rig.close()
        else:
            backend.close()
        pad.close()


# -- the run -------------------------------------------------------------------------------


def run(rounds: int = 3, count: int = 40, seed: int = 16, baseline: bool = True) -> list[Row]:
    """``rounds`` blocks of ``count`` presses per backend and variant. A p99 stands on 100
    presses (``fewest_for``): fewer a round, it is taken over every round's presses.
    Without ``baseline`` (``--quick``: its presses go to ours) the rows have none."""
    rng = random.Random(seed)
    variants = VARIANTS if baseline else ("ours",)
    board = BOARD_PRIORITY if realtime.granted_priority() >= BOARD_PRIORITY else 0
    blocks = {"gpio": gpio_block,
              "serial": functools.partial(serial_block, board_priority=board)}
    pygame.display.init()
    window = open_window(800, 480, False, "bench")
    results: dict[tuple[str, str], list[dict]] = {}
    with tempfile.TemporaryDirectory(dir=Path.cwd(), prefix=".bench-") as tmp:
        n = 0
        for _ in range(rounds):
            for backend, block in blocks.items():
                for variant in variants:
                    n += 1
                    d = Path(tmp) / f"{n}"
                    d.mkdir()
                    got = block(variant, d, window, count, rng)
                    results.setdefault((backend, variant), []).append(got)
    pygame.display.quit()
    rows = []
    for backend in ("gpio", "serial"):
        skipped = sum(r["skipped"] for v in variants for r in results[(backend, v)])
        no_ack = sum(r["no_ack"] for r in results[(backend, "ours")])  # should be 0
        lost = sum(r["lost"] for r in results[(backend, "ours")])  # lit never: a miss
        for key, label, p, goal in (*RELEASE_METRICS, ("ack", "press → acknowledgement", 99, 1.0)):
            ours, how, stands = percentiles([r[key] for r in results[(backend, "ours")]], p)
            med = sorted(ours)[len(ours) // 2]
            base_cell = ratio = ""
            if baseline:
                base, _, _ = percentiles([r[key] for r in results[(backend, "baseline")]], p)
                base_cell = spread(base, "ms")
                ratio = times(sorted(base)[len(base) // 2], med, "faster", "slower")
            met = ""
            if goal is not None:
                met = "yes" if med <= goal and not lost and stands else "NO"
            missing = f", {no_ack} without" if key == "ack" and no_ack else ""
            missing += f", {lost} never lit in {WAIT_S:g} s" if lost else ""
            missing += f", {how}" if how else ""
            missing += "" if baseline else ", no baseline run"
            missing += ", board: normal policy" if backend == "serial" and not board else ""
            rows.append(Row(
                f"1 {backend} pad",
                f"{label} p{p} ({rounds}×{count} presses, {skipped} resampled{missing})",
                spread(ours, "ms"), base_cell, ratio,
                f"≤ {goal:g} ms" if goal is not None else "", met))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
