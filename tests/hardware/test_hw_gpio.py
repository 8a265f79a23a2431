"""GPIO backend on gpiozero mock pins: our debounce under chatter (MockPin ignores
bounce_time), long presses, light states and blink patterns reaching the pins, the pin
factory choice and the fallback to the simulator when there is no GPIO."""

from __future__ import annotations

import queue
import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from pins import PinClock, mock_pins

from companion.hardware.base import LIGHT_COLOURS, NoHardware, light_rgb
from companion.hardware.factory import open_backend
from companion.hardware.gpio import PLAIN_PATTERNS, GpioBackend, choose_pin_factory
from companion.hardware.profile import load_profile, profile_path
from companion.hardware.sim import SimBackend
from companion.play.seat import ButtonEvent, Light, Press

FIVE = load_profile(profile_path("gpio-5-seats"))


def make(clock: PinClock, profile=FIVE, seats: int = 5, **kw) -> tuple[GpioBackend, list]:
    events: list[ButtonEvent] = []
    backend = GpioBackend(profile, seats, clock=clock, worker=False, **kw)
    backend.start(events.append)
    return backend, events


def chatter(pin, clock: PinClock, pressed: bool, rng: random.Random) -> None:
    """Drive ``pin`` to ``pressed`` (active low) with up to 5 ms of contact bounce."""
    bounces = rng.randrange(0, 8)
    end = clock.t + rng.randint(0, 5)
    times = sorted(rng.randint(clock.t, end) for _ in range(bounces)) + [end]
    level = pressed if len(times) % 2 == 1 else not pressed
    for t in times:
        clock.t = t
        (pin.drive_low if level else pin.drive_high)()
        level = not level


def test_thousand_chattering_presses_give_exactly_a_thousand_events(pins):
    """Each press and release bounces for up to 5 ms (seeded random); debounce 20 ms;
    seat and button of every event match the pin pressed, in order."""
    rng = random.Random(20240611)
    clock = PinClock()
    backend, events = make(clock)
    expected = []
    for _ in range(1000):
        seat = rng.randrange(5)
        name, pin_no = rng.choice(FIVE.seats[seat].buttons)
        pin = pins.pin(pin_no)
        chatter(pin, clock, True, rng)
        clock.t += rng.randint(25, 600)
        chatter(pin, clock, False, rng)
        expected.append(ButtonEvent(seat, name, Press.SHORT))
        clock.t += rng.randint(20, 60)
        backend.poll()  # what the worker does at the debounce deadline
    assert events == expected
    backend.close()


def test_long_press_fires_at_threshold_and_release_adds_nothing(pins):
    rng = random.Random(7)
    clock = PinClock()
    backend, events = make(clock, long_press_ms=700)
    pin = pins.pin(FIVE.seats[3].buttons[1][1])  # seat 3, button b
    chatter(pin, clock, True, rng)
    clock.t += 699
    backend.poll()
    assert events == []
    clock.t += 1
    backend.poll()
    assert events == [ButtonEvent(3, "b", Press.LONG)]
    clock.t += 3000
    chatter(pin, clock, False, rng)
    clock.t += 50
    backend.poll()
    assert events == [ButtonEvent(3, "b", Press.LONG)]
    backend.close()


def test_worker_thread_delivers_long_press_without_further_edges(pins):
    """Real clock and the backend's own thread: the LONG event arrives while held."""
    got: queue.Queue = queue.Queue()
    backend = GpioBackend(FIVE, 2, debounce_ms=5, long_press_ms=60)
    backend.start(got.put)
    pin = pins.pin(FIVE.seats[1].buttons[2][1])
    pin.drive_low()
    assert got.get(timeout=5) == ButtonEvent(1, "c", Press.LONG)
    pin.drive_high()
    backend.close()
    backend.close()  # safe twice


def led_pin(pins, seat: int):
    return pins.pin(FIVE.seats[seat].led)


def test_steady_light_states_reach_the_led_pins(pins):
    clock = PinClock()
    backend, _ = make(clock)
    assert not any(led_pin(pins, s).state for s in range(5))
    backend.set_light(2, Light.FIRST_PLAYER)
    assert led_pin(pins, 2).state and not led_pin(pins, 1).state
    assert backend.light(2) is Light.FIRST_PLAYER
    backend.set_light(2, Light.OFF)
    assert not led_pin(pins, 2).state
    backend.close()


@pytest.mark.parametrize("light", list(Light))
def test_plain_led_shows_each_state_as_its_blink_pattern(pins, light):
    """Sampled at each 100 ms step of the fake clock, the LED pin spells the table."""
    clock = PinClock()
    backend, _ = make(clock)
    backend.set_light(0, light)
    seen = ""
    for step in range(32):
        clock.t = 1_000_000 + step * 100
        backend.poll()
        seen += "1" if led_pin(pins, 0).state else "0"
    pattern = PLAIN_PATTERNS[light]
    assert seen == (pattern * 32)[:32]
    backend.close()


def test_states_have_distinct_patterns_on_a_plain_led():
    def cycle(p: str) -> str:
        return (p * 16)[:16]

    assert len({cycle(p) for p in PLAIN_PATTERNS.values()}) == len(Light)


def test_active_low_leds_are_inverted(pins, tmp_path):
    prof = tmp_path / "p.yaml"
    prof.write_text("kind: gpio\nactive_high: false\nseats:\n"
                    "  - buttons: {a: 4}\n    light: {led: 22}\n")
    clock = PinClock()
    backend, _ = make(clock, load_profile(prof), seats=1)
    assert pins.pin(22).state  # off = high
    backend.set_light(0, Light.FIRST_PLAYER)
    assert not pins.pin(22).state
    backend.close()


def test_rgb_led_shows_the_state_colour_and_attention_blinks(pins, tmp_path):
    prof = tmp_path / "p.yaml"
    prof.write_text("kind: gpio\nseats:\n  - buttons: {a: 4, b: 5, c: 6}\n"
                    "    light: {rgb: [17, 27, 22]}\n")
    clock = PinClock()
    backend, _ = make(clock, load_profile(prof), seats=1)

    def colour() -> tuple[int, int, int]:
        return tuple(round(pins.pin(p).state * 255) for p in (17, 27, 22))

    assert colour() == (0, 0, 0)
    for light in Light:
        backend.set_light(0, light)
        clock.t = 1_000_000
        backend.poll()
        assert colour() == light_rgb(light, clock.t)
    backend.set_light(0, Light.YOUR_TURN)
    clock.t = 1_000_200  # second half of your-turn's 0.4 s blink: dark
    backend.poll()
    assert colour() == (0, 0, 0)
    backend.set_light(0, Light.LEADER)  # the same rhythm as a plain LED's, in its colour
    assert colour() == LIGHT_COLOURS[Light.LEADER]
    clock.t = 1_000_800  # leader: 0.8 s on, 0.8 s off
    backend.poll()
    assert colour() == (0, 0, 0)
    backend.close()


def test_button_events_need_start_and_stop_after_close(pins):
    clock = PinClock()
    backend = GpioBackend(FIVE, 1, clock=clock, worker=False)
    pin = pins.pin(4)
    pin.drive_low()
    clock.t += 30
    pin.drive_high()  # no handler yet: dropped, no error
    clock.t += 30
    backend.poll()
    backend.close()


def test_profile_must_wire_enough_seats_and_be_a_gpio_one(pins):
    small = load_profile(profile_path("gpio-5-seats"))
    with pytest.raises(ValueError, match="wires 5 seats, not 6"):
        GpioBackend(small, 6, worker=False)
    with pytest.raises(ValueError, match="serial profile"):
        GpioBackend(load_profile(profile_path("serial-pads")), 2, worker=False)


def test_pin_factory_by_gpiozero_name_or_refused():
    assert isinstance(choose_pin_factory("mock"), MockFactory)
    with pytest.raises(NoHardware, match="no pin factory 'nosuch'"):
        choose_pin_factory("nosuch")


def hw_config(**hw) -> SimpleNamespace:
    hardware = SimpleNamespace(backend="gpio", profile=None, port=None, pin_factory=None,
                               debounce_ms=20, long_press_ms=700)
    vars(hardware).update(hw)
    return SimpleNamespace(seats=("A", "B", "C"), hardware=hardware, data_dir=Path("."))


def test_no_gpio_here_falls_back_to_the_simulator_with_a_notice(monkeypatch):
    """GPIOZERO_PIN_FACTORY names a factory this machine cannot provide: sim + notice."""
    old = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    try:
        backend, notice = open_backend(hw_config())
    finally:
        Device.pin_factory = old
    assert isinstance(backend, SimBackend) and backend.seats == 3
    assert notice is not None and "No GPIO on this machine" in notice
    assert "simulator" in notice


def test_factory_opens_gpio_backend_with_the_configured_profile_and_factory(pins, tmp_path):
    prof = tmp_path / "p.yaml"
    prof.write_text("kind: gpio\nseats:\n" + "".join(
        f"  - buttons: {{a: {4 + i}}}\n    light: {{led: {20 + i}}}\n" for i in range(3)))
    backend, notice = open_backend(hw_config(profile=prof))
    try:
        assert isinstance(backend, GpioBackend) and notice is None and backend.seats == 3
    finally:
        backend.close()


class KernelBusy(Exception):
    """What a pin library raises for a pin a kernel driver holds (lgpio: 'GPIO busy'); not
    a gpiozero error class."""


SPI0 = {7, 8, 9, 10, 11}


class SpiEnabledPin(MockPWMPin):
    """A mock pin that, like BCM 7-11 with SPI enabled, cannot be claimed."""

    def _set_function(self, value):
        if self.info.name in {f"GPIO{n}" for n in SPI0}:
            if getattr(self, "_refused", False):
                return  # gpiozero closing the half-made device: nothing was claimed
            self._refused = True
            raise KernelBusy("GPIO busy")
        super()._set_function(value)


@pytest.fixture
def spi_enabled():
    with mock_pins(SpiEnabledPin) as factory:
        yield factory


def test_spi_taking_seat_5s_pins_loses_that_seat_only_with_a_notice(spi_enabled, caplog):
    """The shipped profile wires seat 5 on BCM 7-10 (SPI0): with SPI on, seat 5 is left
    out (missing, light not driven, a notice naming the pin and the bus, in the log too);
    seats 1-4 press and light as ever."""
    clock = PinClock()
    backend, events = make(clock)
    try:
        assert [backend.connected(s) for s in range(5)] == [True] * 4 + [False]
        assert backend.notice is not None
        assert backend.notice.startswith("Seat 5 is left out: GPIO 7 could not be used")
        assert "SPI0 CE1" in backend.notice and "The other seats work." in backend.notice
        assert "Seat 5 is left out" in caplog.text and "GPIO busy" in caplog.text
        for seat in range(4):
            _, pin_no = FIVE.seats[seat].buttons[0]
            spi_enabled.pin(pin_no).drive_low()
            clock.t += 30
            spi_enabled.pin(pin_no).drive_high()
            clock.t += 30
            backend.poll()
        assert events == [ButtonEvent(s, "a") for s in range(4)]
        backend.set_light(4, Light.FIRST_PLAYER)  # remembered, drives nothing
        backend.set_light(3, Light.FIRST_PLAYER)
        assert backend.light(4) is Light.FIRST_PLAYER
        assert spi_enabled.pin(FIVE.seats[3].led).state
    finally:
        backend.close()


def test_a_seat_lost_half_way_closes_the_pins_it_had_opened(spi_enabled, tmp_path):
    """A seat whose button A opened and whose button B is busy frees A again: another
    seat (or the next start) can have it."""
    prof = tmp_path / "half.yaml"
    prof.write_text("kind: gpio\nseats:\n"
                    "  - buttons: {a: 4, b: 8}\n    light: {led: 22}\n"
                    "  - buttons: {a: 5}\n    light: {led: 6}\n")
    backend = GpioBackend(load_profile(prof), 2, clock=PinClock(), worker=False)
    try:
        assert not backend.connected(0) and backend.connected(1)
        assert "GPIO 8" in backend.notice and "SPI0 CE0" in backend.notice
        from gpiozero import DigitalInputDevice

        DigitalInputDevice(4).close()  # free again: no GPIOPinInUse
    finally:
        backend.close()


def test_every_seat_lost_is_no_gpio_at_all(spi_enabled, tmp_path):
    prof = tmp_path / "spi.yaml"
    prof.write_text("kind: gpio\nseats:\n  - buttons: {a: 9}\n    light: {led: 10}\n")
    with pytest.raises(NoHardware, match="Seat 1 is left out"):
        GpioBackend(load_profile(prof), 1, clock=PinClock(), worker=False)


def test_the_table_check_screen_shows_the_lost_seat_notice_and_the_seat_missing(
    spi_enabled, tmp_path
):
    """On screen: the notice under the catalog's title for the seats, and the lost seat
    marked missing like an unplugged pad."""
    import pygame

    from companion.ui.app import ManualClock, make_app
    from companion.ui.demo import demo_config
    from companion.ui.table_check import TableCheckScreen

    config = demo_config((800, 480), "en")
    prof = tmp_path / "spi.yaml"
    prof.write_text("kind: gpio\nseats:\n" + "".join(
        f"  - buttons: {{a: {a}}}\n    light: {{led: {led}}}\n"
        for a, led in ((4, 22), (9, 10), (5, 6), (13, 19), (26, 21))[: len(config.seats)]))
    backend = GpioBackend(load_profile(prof), len(config.seats), clock=PinClock(), worker=False)
    try:
        app = make_app(config, backend, clock=ManualClock(0))
        app.push(TableCheckScreen(app))
        app.step(block=False)
        shown = " ".join(box.text for box in app.painter.texts)
        t = app.catalog.text
        assert t("notice.seats") + ": Seat 2 is left out: GPIO 9 could not be used" in shown
        assert t("seat.missing") in shown
    finally:
        backend.close()
        pygame.display.quit()
