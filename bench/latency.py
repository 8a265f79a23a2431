"""Benchmark 1: button-to-light latency through the real path.

A gpiozero ``MockFactory`` pin edge → the real ``GpioBackend`` (its debounce, its worker
thread, the real clock) → the backend callback → ``Session.dispatch`` of the Koryŏ rules
adapter with a ``Journal`` on disk (fsync'd commit) → the session listener → the seat
lights of ``KoryoGame.lights`` → ``backend.set_light`` → the mock LED pin changes state.

The press: the first player's seat presses "a" to end round 1 (the first-player token
passes on, so the first-player light moves to the next seat: one LED goes off, another
on). After each press the bench undoes that action (``Session.undo``, not measured) so
every press moves the light. Shipped wiring profile ``gpio-5-seats`` (plain LEDs).

What is counted: from the release edge of the press (a short press is complete, and is
only accepted, once the button is released and stable) to the first LED pin change,
``perf_counter_ns`` on both sides. That includes the debounce window (20 ms, shipped
configuration) by design: an edge counts once the level has stayed stable that long.
The second figure, "accepted → light", starts when the backend delivers the debounced
event (the callback is entered) and is the processing: rules, fsync'd journal, lights.

Baseline: the same path, but buttons read by a naive loop polling the pin levels every
100 ms (no debounce, no edge callback): a press counts when a poll sees the button
released after a poll saw it pressed. Same presses (held 120 ms, so the 100 ms poller
sees them), random phase against the poll tick, latency computed the same way.
"""

from __future__ import annotations

import random
import tempfile
import threading
import time
from pathlib import Path

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from bench.common import Row, percentile, times, verdict
from companion.games.autoplay import next_action
from companion.games.koryo import KoryoGame
from companion.hardware.gpio import GpioBackend
from companion.hardware.profile import load_profile, profile_path
from companion.journal import Journal
from companion.session import Session

PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]
HOLD_S = 0.120
POLL_S = 0.100
WAIT_S = 5.0


class LedWatch:
    """Timestamps (``perf_counter_ns``) of state changes of the watched output pins."""

    def __init__(self) -> None:
        self.pins: set[MockPin] = set()
        self.changed = threading.Event()
        self.at: int | None = None

    def arm(self) -> None:
        self.at = None
        self.changed.clear()

    def saw(self, pin: MockPin) -> None:
        if pin in self.pins and self.at is None:
            self.at = time.perf_counter_ns()
            self.changed.set()


WATCH = LedWatch()


class TimedPin(MockPin):
    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed:
            WATCH.saw(self)
        return changed


class Rig:
    """A Koryŏ game at the end of round 1, its journal on disk, the GPIO seats."""

    def __init__(self, directory: Path, seed: int) -> None:
        self.profile = load_profile(profile_path("gpio-5-seats"))
        self.factory = MockFactory(pin_class=TimedPin)
        Device.pin_factory = self.factory
        self.backend = GpioBackend(self.profile, len(PLAYERS), debounce_ms=20, long_press_ms=700)
        WATCH.pins = {self.factory.pin(s.led) for s in self.profile.seats}
        self.rules = KoryoGame()
        self.journal = Journal(directory / "journal.db")
        self.session = Session.start(self.journal, self.rules, {"players": PLAYERS})
        rng = random.Random(seed)
        while True:
            action = next_action(self.rules, self.session.state, rng)
            if action["action"] == "end_round":
                break
            self.session.dispatch(action)
        self.action = action
        self.session.subscribe(self.show)
        self.show(self.session.public_view())
        self.accepted: int | None = None

    def show(self, view: dict) -> None:
        for seat, light in self.rules.lights(view).items():
            self.backend.set_light(seat, light)

    def on_press(self, event) -> None:
        """The press handler of both runs: end the round."""
        self.accepted = time.perf_counter_ns()
        self.session.dispatch(self.action)

    def button_pin(self):
        seat = self.session.public_view()["first_player"]
        number = dict(self.profile.seats[PLAYERS.index(seat)].buttons)["a"]
        return self.factory.pin(number)

    def close(self) -> None:
        self.backend.close()
        self.journal.close()
        self.factory.reset()


class NaivePoller:
    """Every 100 ms, read every button level; a press is a release seen after a press."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.pins = [
            (seat, rig.factory.pin(n))
            for seat, wiring in enumerate(rig.profile.seats[: len(PLAYERS)])
            for _, n in wiring.buttons
        ]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self) -> None:
        held = {id(pin): False for _, pin in self.pins}
        while not self.stop.wait(POLL_S):
            for _, pin in self.pins:
                down = not pin.state  # pull-up: pressed reads low
                if held[id(pin)] and not down:
                    self.rig.on_press(None)
                held[id(pin)] = down

    def close(self) -> None:
        self.stop.set()
        self.thread.join()


def measure(rig: Rig, presses: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """Edge → light and accepted → light latencies (ms) of ``presses`` presses."""
    total: list[float] = []
    processing: list[float] = []
    for _ in range(presses):
        time.sleep(rng.uniform(0, POLL_S))  # random phase against any poll tick
        pin = rig.button_pin()
        rig.accepted = None
        pin.drive_low()
        time.sleep(HOLD_S)
        WATCH.arm()
        released = time.perf_counter_ns()
        pin.drive_high()
        if not WATCH.changed.wait(WAIT_S):
            raise RuntimeError("the press never reached the light")
        total.append((WATCH.at - released) / 1e6)
        processing.append((WATCH.at - rig.accepted) / 1e6)
        time.sleep(0.005)  # let the dispatch return before taking it back
        rig.session.undo()
    return total, processing


def run(presses: int = 200, seed: int = 6) -> list[Row]:
    rng = random.Random(seed)
    old = Device.pin_factory
    with tempfile.TemporaryDirectory(dir=Path.cwd(), prefix=".bench-") as tmp:
        try:
            rig = Rig(Path(tmp) / "ours", seed)
            rig.backend.start(rig.on_press)
            ours, ours_proc = measure(rig, presses, rng)
            rig.close()
            rig = Rig(Path(tmp) / "naive", seed)
            poller = NaivePoller(rig)
            naive, naive_proc = measure(rig, presses, rng)
            poller.close()
            rig.close()
        finally:
            Device.pin_factory = old
    rows = []
    for name, a_ms, b_ms in (
        (f"edge→light ({presses} presses)", ours, naive),
        ("accepted→light (processing)", ours_proc, naive_proc),
    ):
        for p in (50, 99):
            a, b = percentile(a_ms, p), percentile(b_ms, p)
            goal = "≤ 5 ms" if p == 99 else ""
            rows.append(Row("1 button→light", f"{name} p{p}", f"{a:.1f} ms", f"{b:.1f} ms",
                            times(b, a, "faster", "slower"), goal, verdict(a <= 5) if goal else ""))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
