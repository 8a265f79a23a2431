"""Seats wired straight to the Raspberry Pi header, through gpiozero.

Buttons are gpiozero ``DigitalInputDevice``s with ``bounce_time=None``: no hold-watch
thread per button (gpiozero's ``Button`` starts one, waking ten times a second), and no
gpiozero debounce (its mock pins ignore it, so it could not be proven); every edge goes,
with its timestamp, to our ``Debouncer``, which also does the long presses. Lights are
``LED`` (one plain LED: the light states become blink patterns, table below) or
``RGBLED`` (the same rhythms in the states' colours, ``padproto.LIGHTS``). One worker
thread serves every seat: it wakes at the next debounce/long-press deadline, blink step
or end of an acknowledgement, and sleeps otherwise.

A raw press edge is acknowledged on the seat's light at once, in the thread that saw the
edge (``padproto.ACK_MS``: an RGB light white, a plain LED flipped), the same for every
button and every light state; the press's result (a new light state) ends it early.

The pin factory is chosen the gpiozero way: ``hardware.pin_factory`` in the configuration
(a gpiozero factory name: lgpio, rpigpio, pigpio, native, mock), else the
``GPIOZERO_PIN_FACTORY`` environment variable, else gpiozero's default search. When no
factory can drive pins here, the backend raises ``NoHardware`` and the factory falls back
to the simulator.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable
from importlib.metadata import entry_points

from gpiozero import LED, RGBLED, Device, DigitalInputDevice
from gpiozero.exc import GPIOZeroError

from companion.hardware import padproto
from companion.hardware.base import (
    ButtonHandler,
    NoHardware,
    PadHandler,
    SeatBackend,
    StatusHandler,
)
from companion.hardware.debounce import DOWN, Debouncer
from companion.hardware.padproto import ACK_COLOUR, ACK_MS, TICK_MS
from companion.hardware.profile import PI_BUSES, SeatWiring, WiringProfile
from companion.play.seat import ButtonEvent, Light, Press

log = logging.getLogger(__name__)

# Plain LED: one character per 100 ms step, "1" lit; the pattern repeats. Every seat
# runs on the same clock, so lights blink in step (a new state is lit for its first step
# at once: padproto.light_level_since). The rhythms are padproto.LIGHTS' (an
# RGB light shows the same rhythm in the state's colour); documented in hardware/WIRING.md.
PLAIN_PATTERNS: dict[Light, str] = {
    light: "".join("0" if c == "0" else "1" for c in padproto.LIGHTS[light.value][1])
    for light in Light
}


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def choose_pin_factory(name: str | None):
    """The gpiozero pin factory named ``name``, or gpiozero's default (which honours
    ``GPIOZERO_PIN_FACTORY``). Raises NoHardware when none can drive pins here."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero's "falling back from …" noise
            if name is None:
                Device.ensure_pin_factory()
                return Device.pin_factory
            group = entry_points(group="gpiozero_pin_factories")
            for ep in group:
                if ep.name in (name, name.lower()):
                    return ep.load()()
    except (GPIOZeroError, ImportError, OSError, RuntimeError) as exc:
        raise NoHardware(str(exc) or type(exc).__name__) from None
    raise NoHardware(f"gpiozero has no pin factory {name!r}")


def _pattern(light: Light) -> str:
    return padproto.LIGHTS[light.value][1]


class _SeatLost(Exception):
    def __init__(self, notice: str) -> None:
        super().__init__(notice)
        self.notice = notice


def seat_lost_notice(seat: int, pin: int | tuple[int, ...] | None, exc: BaseException) -> str:
    """What the table is told when ``seat`` (0-based) cannot have ``pin``."""
    pins = pin if isinstance(pin, tuple) else (pin,)
    buses = sorted({PI_BUSES[p] for p in pins if p in PI_BUSES})
    where = "/".join(f"GPIO {p}" for p in pins if p is not None) or "its pins"
    hint = (f" It is a {', '.join(buses)} pin: is that bus enabled (raspi-config, "
            "/boot/firmware/config.txt)? Turn it off or wire the seat elsewhere."
            if buses else "")
    return (f"Seat {seat + 1} is left out: {where} could not be used "
            f"({str(exc) or type(exc).__name__}).{hint} The other seats work.")


class GpioBackend(SeatBackend):
    name = "gpio"

    def __init__(
        self,
        profile: WiringProfile,
        seats: int,
        *,
        pin_factory: str | None = None,
        debounce_ms: int = 20,
        long_press_ms: int = 700,
        clock: Callable[[], int] = monotonic_ms,
        worker: bool = True,
    ) -> None:
        """``clock`` gives monotonic milliseconds (tests inject theirs); with
        ``worker=False`` no thread runs and the caller calls ``poll()`` itself."""
        if profile.kind != "gpio":
            raise ValueError(f"{profile.path}: a {profile.kind} profile, not a gpio one")
        if len(profile.seats) < seats:
            raise ValueError(f"{profile.path}: wires {len(profile.seats)} seats, not {seats}")
        factory = choose_pin_factory(pin_factory)
        self.seats = seats
        self._clock = clock
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._on_button: ButtonHandler | None = None
        self._lights = [Light.OFF] * seats
        self._shown: list[object] = [None] * seats  # last value written to each light
        self._devices: list = []
        self._buttons: list[tuple[int, str, DigitalInputDevice, Debouncer]] = []
        self._ack_until = [0] * seats  # a seat's acknowledgement shows until then (clock ms)
        self._ack_value: list[object] = [None] * seats
        self._since = [0] * seats  # when each seat's light state was set (clock ms)
        self._leds: list[LED | RGBLED | None] = []  # by seat; None: the seat is lost
        self._closed = False
        lost: list[str] = []
        for seat, wiring in enumerate(profile.seats[:seats]):
            try:
                self._open_seat(seat, wiring, factory, debounce_ms, long_press_ms)
            except _SeatLost as exc:
                self._leds.append(None)
                lost.append(exc.notice)
                log.warning("%s", exc.notice, exc_info=exc.__cause__)
        if len(lost) == seats:  # not one pin: no usable GPIO here after all
            self._close_devices()
            raise NoHardware(lost[0])
        self.notice = " ".join(lost) or None
        with self._lock:
            self._show(self._clock())
        self._thread: threading.Thread | None = None
        if worker:
            self._thread = threading.Thread(target=self._run, name="gpio-seats", daemon=True)
            self._thread.start()

    def _open_seat(self, seat: int, wiring: SeatWiring, factory, debounce_ms: int,
                   long_press_ms: int) -> None:
        """Open one seat's buttons and light; on any failure close what it opened and
        raise _SeatLost naming the pin, so only this seat is lost."""
        devices: list = []
        buttons: list[tuple[int, str, DigitalInputDevice, Debouncer]] = []
        pin = None
        try:
            for button_name, pin in wiring.buttons:
                button = DigitalInputDevice(
                    pin, pull_up=wiring.pull_up, bounce_time=None, pin_factory=factory
                )
                devices.append(button)
                deb = Debouncer(debounce_ms, long_press_ms, pressed=button.is_active)
                button.when_activated = self._edge_handler(seat, button_name, deb, True)
                button.when_deactivated = self._edge_handler(seat, button_name, deb, False)
                buttons.append((seat, button_name, button, deb))
            if wiring.rgb is not None:
                pin = wiring.rgb
                led = RGBLED(*wiring.rgb, active_high=wiring.active_high, pin_factory=factory)
            else:
                pin = wiring.led
                led = LED(wiring.led, active_high=wiring.active_high, pin_factory=factory)
        # Any error: each pin library has its own (gpiozero's, lgpio.error, RuntimeError
        # of RPi.GPIO, OSError); it is logged with its traceback by the caller.
        except Exception as exc:
            for device in devices:
                device.close()
            raise _SeatLost(seat_lost_notice(seat, pin, exc)) from exc
        devices.append(led)
        self._devices += devices
        self._buttons += buttons
        self._leds.append(led)

    # -- buttons -----------------------------------------------------------------------

    def start(self, on_button: ButtonHandler, on_status: StatusHandler | None = None,
              on_pad: PadHandler | None = None) -> None:
        self._on_button = on_button

    def _edge_handler(self, seat: int, name: str, deb: Debouncer, pressed: bool):
        def handler() -> None:
            with self._lock:
                now = self._clock()
                events = deb.edge(pressed, now)
                if DOWN in events:
                    self._acknowledge(seat, now)
                self._wake.notify()
            self._deliver(seat, name, events)

        return handler

    def _deliver(self, seat: int, name: str, events: list[str]) -> None:
        handler = self._on_button
        if handler is not None:
            for press in events:
                if press != DOWN:
                    handler(ButtonEvent(seat, name, Press(press)))

    def poll(self) -> None:
        """Settle debounce/long-press deadlines and blink steps due by now."""
        due: list[tuple[int, str, list[str]]] = []
        with self._lock:
            now = self._clock()
            for seat, name, _, deb in self._buttons:
                events = deb.poll(now)
                if events:
                    due.append((seat, name, events))
            self._show(now)
        for seat, name, events in due:
            self._deliver(seat, name, events)

    def _next_wake(self, now: int) -> int | None:
        """Milliseconds until the worker must poll again (None: only an edge can matter)."""
        times = [d for *_, deb in self._buttons if (d := deb.deadline()) is not None]
        blinking = [len(_pattern(light)) > 1 and led is not None
                    for light, led in zip(self._lights, self._leds, strict=True)]
        if any(blinking):
            times.append((now // TICK_MS + 1) * TICK_MS)
        times += [until for until in self._ack_until if until > now]
        times += [since + TICK_MS for since in self._since if since + TICK_MS > now]
        return max(0, min(times) - now) if times else None

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._closed:
                    return
                wait_ms = self._next_wake(self._clock())
                self._wake.wait(None if wait_ms is None else wait_ms / 1000)
                if self._closed:
                    return
            self.poll()

    # -- lights ------------------------------------------------------------------------

    def _acknowledge(self, seat: int, now: int) -> None:
        """Show the press-edge acknowledgement on ``seat``'s light from ``now``; lock held.
        A plain LED flips from what it shows, an RGB light turns ACK_COLOUR."""
        if self._ack_until[seat] <= now:
            shown = self._shown[seat]
            self._ack_value[seat] = (
                tuple(c / 255 for c in ACK_COLOUR) if isinstance(shown, tuple) else not shown
            )
        self._ack_until[seat] = now + ACK_MS
        self._show(now)

    def _show(self, now: int) -> None:
        """Write each light's value for time ``now`` (only where it changed); lock held."""
        for seat, led in enumerate(self._leds):
            if led is None:
                continue
            light = self._lights[seat]
            rgb = isinstance(led, RGBLED)
            if now < self._ack_until[seat]:
                value: object = self._ack_value[seat]
            else:
                level = padproto.light_level_since(light.value, now, self._since[seat])
                if rgb:
                    r, g, b = padproto.level_rgb(light.value, level)
                    value = (r / 255, g / 255, b / 255)
                else:
                    value = level > 0
            if value != self._shown[seat]:
                if rgb:
                    led.color = value
                else:
                    led.value = value
                self._shown[seat] = value

    def set_light(self, seat: int, light: Light) -> None:
        """Show ``light`` on ``seat``; a new state ends the seat's acknowledgement."""
        light = Light(light)
        with self._lock:
            now = self._clock()
            if light != self._lights[seat]:
                self._ack_until[seat] = 0
                self._since[seat] = now
            self._lights[seat] = light
            self._show(now)
            self._wake.notify()

    def light(self, seat: int) -> Light:
        return self._lights[seat]

    def connected(self, seat: int) -> bool:
        """False for a seat whose pins could not be had (a bus took them)."""
        return self._leds[seat] is not None

    # -- shutdown ----------------------------------------------------------------------

    def _close_devices(self) -> None:
        for device in self._devices:
            device.close()
        self._devices.clear()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join()
        self._on_button = None
        self._close_devices()
