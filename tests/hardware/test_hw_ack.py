"""The press-edge acknowledgement: the seat's own light answers the first raw edge of a
press at once (GPIO backend and pad firmware), the same for every button, ended by its
time or by the press's result; and it tells nothing about a secret ballot (the light
traces of different presses in a secret King's Dilemma vote are identical)."""

from __future__ import annotations

import pytest
from fakes.firmware import load_firmware
from gpiozero.pins.mock import MockPWMPin
from pins import PinClock

from companion.games.kings_dilemma.adapter import KingsDilemma, SeatPads, turns
from companion.games.kings_dilemma.kingdom import RESOURCES
from companion.hardware.gpio import GpioBackend
from companion.hardware.padproto import ACK_COLOUR, ACK_MS, COLOURS
from companion.hardware.profile import load_profile, profile_path
from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent, Light
from companion.play.session import Session
from companion.play.turns import lights
from companion.storage.journal import Journal

FIVE = load_profile(profile_path("gpio-5-seats"))
PLAYERS = ["Theodore", "Julius", "Armin", "Diana", "Frances"]
SETUP = {"players": PLAYERS, "leader": "Theodore", "moderator": "Julius",
         "momenta": dict.fromkeys(RESOURCES, "up")}


TRACE: list[tuple[int, object, float]] = []  # (clock ms, pin, new state)
CLOCK = PinClock()


class TracedPin(MockPWMPin):
    """A mock pin noting every change of state, with the test clock's time."""

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed:
            TRACE.append((CLOCK.t, self, float(self.state)))
        return changed


PIN_CLASS = TracedPin  # the ``pins`` fixture's (conftest.py)


@pytest.fixture(autouse=True)
def _clock_at_start():
    CLOCK.t = 1_000_000


def led(pins, seat: int):
    return pins.pin(FIVE.seats[seat].led)


def button(pins, seat: int, name: str):
    return pins.pin(dict(FIVE.seats[seat].buttons)[name])


def test_a_press_edge_flips_the_plain_led_at_once_for_ack_ms_whatever_the_button(pins):
    backend = GpioBackend(FIVE, 5, clock=CLOCK, worker=False)
    events: list = []
    backend.start(events.append)
    backend.set_light(2, Light.FIRST_PLAYER)  # steady on: the acknowledgement darkens it
    for name in ("a", "b", "c"):
        assert led(pins, 2).state and not led(pins, 1).state
        button(pins, 2, name).drive_low()
        assert not led(pins, 2).state  # in the edge's own callback, no poll needed
        button(pins, 1, name).drive_low()
        assert led(pins, 1).state  # a dark LED lights
        for bounce in range(3):  # chatter on the press: one acknowledgement only
            button(pins, 2, name).drive_high()
            CLOCK.t += 1
            button(pins, 2, name).drive_low()
        CLOCK.t += ACK_MS - 4
        backend.poll()
        assert not led(pins, 2).state and led(pins, 1).state
        CLOCK.t += 4
        backend.poll()
        assert led(pins, 2).state and not led(pins, 1).state  # ACK_MS after the first edge
        button(pins, 2, name).drive_high()
        button(pins, 1, name).drive_high()
        assert led(pins, 2).state  # a release is not acknowledged
        CLOCK.t += 100
        backend.poll()
    assert [e.button for e in events] == ["a", "a", "b", "b", "c", "c"]
    backend.close()


def test_the_press_result_ends_the_acknowledgement(pins):
    backend = GpioBackend(FIVE, 5, clock=CLOCK, worker=False)
    backend.start(lambda event: backend.set_light(event.seat, Light.FIRST_PLAYER))
    pin = button(pins, 0, "a")
    pin.drive_low()
    assert led(pins, 0).state  # acknowledged
    CLOCK.t += 30
    backend.poll()
    pin.drive_high()  # short press: its result (steady on) shows at the release edge
    assert backend.light(0) is Light.FIRST_PLAYER and led(pins, 0).state
    backend.set_light(0, Light.OFF)
    assert not led(pins, 0).state  # no acknowledgement left to mask the new state
    backend.close()


def test_an_rgb_light_shows_the_acknowledgement_colour(pins, tmp_path):
    path = tmp_path / "rgb.yaml"
    path.write_text("kind: gpio\nseats:\n"
                    "  - {buttons: {a: 5, b: 6, c: 13}, light: {rgb: [17, 27, 22]}}\n")
    backend = GpioBackend(load_profile(path), 1, clock=CLOCK, worker=False)
    backend.start(lambda event: None)
    backend.set_light(0, Light.YOUR_TURN)
    pins.pin(6).drive_low()
    assert tuple(round(pins.pin(p).state * 255) for p in (17, 27, 22)) == ACK_COLOUR
    CLOCK.t += ACK_MS
    backend.poll()
    assert tuple(round(pins.pin(p).state * 255) for p in (17, 27, 22)) == COLOURS["your-turn"]
    backend.close()


def test_the_pad_firmware_acknowledges_on_its_own_pixel():
    fw = load_firmware()
    pad = fw.Pad(bytearray().extend)
    pad.poll(0)
    pad.feed(b"".join(fw.padproto.encode(s, "LIGHT", "moderator") for s in range(5)))
    pad.poll(1)
    before = list(pad.pixels.written)
    gp = dict(fw.board.SEATS[3])["b"]
    fw.machine.PINS[gp].value(0)
    pad.poll(2)
    assert pad.pixels.written[3] == ACK_COLOUR
    assert pad.pixels.written[:3] == before[:3] and pad.pixels.written[4] == before[4]
    pad.poll(2 + ACK_MS)
    assert pad.pixels.written == before
    fw.machine.PINS[gp].value(1)
    pad.poll(200)
    fw.machine.PINS[gp].value(0)
    pad.poll(300)
    assert pad.pixels.written[3] == ACK_COLOUR
    pad.feed(fw.padproto.encode(3, "LIGHT", "ballot-locked"))
    assert pad.pixels.written[3] == fw.padproto.COLOURS["ballot-locked"]


# -- secrecy ----------------------------------------------------------------------------------


def secret_vote_trace(pins, tmp_path, presses: list[tuple[str, int]]) -> list[tuple]:
    """A secret vote on GPIO pads (the session's lights on the LEDs, as the kiosk keeps
    them); Diana (seat 3) makes ``presses`` (button, hold ms). Returns every LED change
    from her first press edge on: (time relative to that edge, seat, level)."""
    CLOCK.t = 1_000_000  # every run on the same clock: the same moments of every pattern
    journal = Journal(tmp_path / "journal.db")
    session = Session.start(journal, KingsDilemma(), SETUP)
    session.dispatch({"action": "dilemma", "mode": "secret"})
    pads = SeatPads(session)
    backend = GpioBackend(FIVE, 5, clock=CLOCK, worker=False)

    def show(view: dict) -> None:
        for seat, light in lights(turns(view)).items():
            backend.set_light(seat, light)

    def on_button(event: ButtonEvent) -> None:
        try:
            pads.press(event)
        except RuleError:
            pass  # a refused press in a secret vote gives no feedback

    session.subscribe(show)
    pads.subscribe(show)
    show(session.public_view())
    backend.start(on_button)
    CLOCK.t = 2_000_000
    backend.poll()
    TRACE.clear()
    for name, hold in presses:
        pin = button(pins, 3, name)
        pin.drive_low()
        for _ in range(hold // 10):
            CLOCK.t += 10
            backend.poll()
        pin.drive_high()
        for _ in range(30):
            CLOCK.t += 10
            backend.poll()
    for _ in range(16):  # a whole cycle of the blink patterns (a lock's flash included)
        CLOCK.t += 100
        backend.poll()
    seat_of = {led(pins, s): s for s in range(5)}
    trace = [(t - 2_000_000, seat_of[pin], state) for t, pin, state in TRACE if pin in seat_of]
    backend.close()
    journal.close()
    return trace


def test_the_acknowledgement_says_nothing_about_a_secret_ballot(pins, tmp_path):
    """Aye, Nay, Pass, one press or several, the same number of presses: the lights show
    the same thing at the same moments, acknowledgements included (and a lock shows
    the same BALLOT_LOCKED whatever was locked)."""
    scripts = {
        "aye 1": [("a", 100), ("a", 800)],
        "nay 1": [("b", 100), ("b", 800)],
        "pass": [("c", 100), ("a", 800)],  # a long Aye on Pass-for-power locks the pass
        "aye 2 unlocked": [("a", 100), ("a", 100)],
        "nay then aye, unlocked": [("b", 100), ("a", 100)],
    }
    traces = {}
    for label, presses in scripts.items():
        traces[label] = secret_vote_trace(pins, tmp_path / label.replace(" ", "-"), presses)
        pins.reset()
    # her LED (YOUR_TURN: her ballot is awaited) flips at the first press edge, and again
    # at the second press's edge
    assert traces["aye 1"][0][:2] == (0, 3)
    assert (100 + 300, 3) in [change[:2] for change in traces["aye 1"]]
    assert (1600, 3, 1.0) in traces["aye 1"]  # BALLOT_LOCKED's flash, 1.6 s cycle
    # a lock shows (BALLOT_LOCKED), an unlocked ballot keeps YOUR_TURN's rhythm
    assert traces["aye 1"] != traces["aye 2 unlocked"]
    locked = traces["aye 1"]
    assert traces["nay 1"] == locked and traces["pass"] == locked
    assert traces["nay then aye, unlocked"] == traces["aye 2 unlocked"]


def test_a_new_light_state_shows_at_once_then_keeps_the_common_rhythm(pins):
    """A press's result must not wait for its pattern's lit steps: LEADER set in the dark
    half of its 1.6 s cycle is lit for one step from that moment, then dark until the
    cycle lights it again, in step with every other seat."""
    backend = GpioBackend(FIVE, 5, clock=CLOCK, worker=False)
    backend.start(lambda event: None)
    CLOCK.t = 1_600_000 + 1_000  # step 10 of the cycle: LEADER's dark half
    backend.set_light(1, Light.LEADER)
    assert led(pins, 1).state
    CLOCK.t += 99
    backend.poll()
    assert led(pins, 1).state
    CLOCK.t += 1
    backend.poll()
    assert not led(pins, 1).state
    CLOCK.t = 1_600_000 + 1_600  # the next cycle: lit with the others
    backend.poll()
    assert led(pins, 1).state
    backend.set_light(1, Light.LEADER)  # the same state again: nothing new to show
    CLOCK.t += 900
    backend.poll()
    assert not led(pins, 1).state
    backend.close()


def test_the_pad_firmware_shows_a_new_state_at_once():
    fw = load_firmware()
    pad = fw.Pad(bytearray().extend)
    pad.poll(1_000)  # step 10: LEADER's dark half
    pad.feed(fw.padproto.encode(2, "LIGHT", "leader"))
    assert pad.pixels.written[2] == COLOURS["leader"]
    pad.poll(1_099)
    assert pad.pixels.written[2] == COLOURS["leader"]
    pad.poll(1_100)
    assert pad.pixels.written[2] == (0, 0, 0)
    pad.poll(1_600)
    assert pad.pixels.written[2] == COLOURS["leader"]
