"""A scripted 5-player King's Dilemma game on mock seat pads, through the real backends:
presses → button grammar (SeatPads) → Session + Journal → lights on the pads.

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
from collections.abc import Callable

import pytest
from fakes.pty_pad import WAIT, Host, PtyPad, connect
from pins import PinClock

from companion.engine.errors import RuleError
from companion.engine.kd_kingdom import RESOURCES
from companion.games.kings_dilemma import KingsDilemma, SeatPads, turns
from companion.hardware.gpio import PLAIN_PATTERNS, GpioBackend
from companion.hardware.padproto import TICK_MS
from companion.hardware.profile import load_profile, profile_path
from companion.journal import Journal
from companion.seat import ButtonEvent, Light
from companion.session import Session
from companion.turns import lights

FIVE = ["Theodore", "Julius", "Armin", "Diana", "Frances"]
SETUP = {"players": FIVE, "leader": "Theodore", "moderator": "Julius",
         "momenta": dict.fromkeys(RESOURCES, "down")}
L, M, K, T, O, A = (Light.LEADER, Light.MODERATOR, Light.BALLOT_LOCKED, Light.YOUR_TURN,
                    Light.OFF, Light.ATTENTION)


class Table:
    """The companion's side: the session, its seat pads, and the backend's lights kept to
    ``lights(turns(view))`` after every change."""

    def __init__(self, journal: Journal, backend) -> None:
        self.backend = backend
        self.session = Session.start(journal, KingsDilemma(), SETUP)
        self.pads = SeatPads(self.session)
        self.session.subscribe(self.show)
        self.pads.subscribe(self.show)
        self.refused: list[str] = []
        self.show(self.session.public_view())

    def show(self, view: dict) -> None:
        for seat, light in lights(turns(view)).items():
            self.backend.set_light(seat, light)

    def on_button(self, event: ButtonEvent) -> None:
        try:
            self.pads.press(event)
        except RuleError as exc:
            self.refused.append(str(exc))

    def do(self, action: dict) -> None:
        """What the touchscreen sends (a dilemma read, an outcome, the scores)."""
        self.session.dispatch(action)


def play_game(table: Table, press: Callable[[int, str], None],
              seen: Callable[[], list[Light]]) -> None:
    """The scripted game; ``press(seat, keys)`` presses ``keys`` (lower case short, upper
    case long) on the pad, ``seen()`` reads every seat's light off the hardware."""
    view = table.session.public_view
    assert seen() == [T, M, O, O, O]  # the Leader reads the dilemma
    table.do({"action": "dilemma", "mode": "open", "card": "worked example"})
    assert seen() == [T, M, O, O, O]
    press(1, "a")  # not Julius's turn: refused, nothing changes
    assert table.refused[-1] == "button: it is Theodore's turn, not Julius's"
    press(0, "C")  # Théodore passes to become moderator
    assert seen() == [L, T, O, O, O] and view()["moderator"] == "Theodore"
    for seat, keys in ((1, "a A"), (2, "b B"), (3, "a A"), (4, "b b b b B"),
                       (1, "a a a A"), (2, "b B")):
        press(seat, keys)
    press(3, "b")  # Diana voted Aye: can't change side
    assert table.refused[-1] == "button: Diana voted Aye and can't change side"
    assert seen() == [M, O, O, T, L]  # Frances leads (nay 4), Diana's turn
    press(3, "a A")
    assert view()["vote"]["phase"] == "tie" and seen() == [A, O, O, O, L]
    press(2, "A")
    assert table.refused[-1] == "button: the moderator Theodore breaks the tie, not Armin"
    press(0, "A")  # the moderator breaks the tie for Aye
    v = view()
    assert (v["phase"], v["leader"], v["balance"]) == ("outcome", "Julius", 9)
    assert seen() == [M, T, O, O, O]  # Julius, the Leader, reads the outcome
    table.do({"action": "outcome", "changes": [{"resource": "morale", "amount": -1}]})

    table.do({"action": "dilemma", "mode": "secret"})
    assert seen() == [T, T, T, T, T]  # every seat to lock: its turn
    for seat, keys, after in ((3, "b b B", [T, T, T, K, T]), (1, "a A", [T, K, T, K, T]),
                              (4, "a a a", [T, K, T, K, T]),  # pending only
                              (0, "c A", [K, K, T, K, T]), (2, "C", [K, K, K, K, T])):
        press(seat, keys)
        assert seen() == after
        assert all(set(s) == {"locked"} for s in view()["vote"]["seats"].values())
    press(4, "A")  # the last lock: revealed and resolved
    v = view()
    assert v["vote"]["totals"] == {"aye": 4, "nay": 2} and v["vote"]["outcome"] == "aye"
    assert (v["leader"], v["moderator"]) == ("Frances", "Armin")
    assert seen() == [O, O, M, O, T]
    table.do({"action": "outcome", "changes": [{"resource": "welfare", "amount": 2}],
              "king_dies": True})
    # Théodore alone passed for power: he took the Balance's 9 → 17 power, 12 coins.
    assert view()["power"]["Theodore"] == 17 and view()["coins"]["Theodore"] == 12
    agendas = {p: {"resources": 2 * i, "wealth": [3, 2, 1]} for i, p in enumerate(FIVE)}
    table.do({"action": "score", "agendas": agendas})
    totals = {p["name"]: p["total"] for p in view()["final"]["players"]}
    assert totals == {"Theodore": 5, "Julius": 3, "Armin": 7, "Diana": 7, "Frances": 9}
    assert view()["final"]["winners"] == ["Frances"]
    assert seen() == [O, O, O, O, L]


# -- GPIO on gpiozero's MockFactory -----------------------------------------------------------

PROFILE = load_profile(profile_path("gpio-5-seats"))


def test_scripted_game_on_gpio_pads_with_chatter(pins, tmp_path):
    rng = random.Random(4)
    clock = PinClock()
    backend = GpioBackend(PROFILE, 5, clock=clock, worker=False, debounce_ms=20,
                          long_press_ms=700)
    table = Table(Journal(tmp_path / "gpio.db"), backend)
    backend.start(table.on_button)

    def edge(pin, pressed: bool) -> None:
        """Drive the (active low) button pin with up to 5 ms of contact bounce."""
        level = pressed
        for _ in range(rng.randrange(0, 4)):
            (pin.drive_low if level else pin.drive_high)()
            clock.t += rng.randint(0, 2)
            level = not level
        (pin.drive_low if pressed else pin.drive_high)()

    def press(seat: int, keys: str) -> None:
        for key in keys.split():
            pin = pins.pin(dict(PROFILE.seats[seat].buttons)[key.lower()])
            edge(pin, True)
            clock.t += 800 if key.isupper() else 120
            backend.poll()  # the long press fires at its threshold
            edge(pin, False)
            clock.t += 40
            backend.poll()

    def seen() -> list[Light]:
        """Each LED pin sampled over one 1.6 s cycle, matched to its blink pattern."""
        clock.t = (clock.t // (16 * TICK_MS) + 1) * 16 * TICK_MS
        samples = [""] * 5
        for _ in range(16):
            backend.poll()
            for seat in range(5):
                samples[seat] += "1" if pins.pin(PROFILE.seats[seat].led).state else "0"
            clock.t += TICK_MS
        out = []
        for seat, sample in enumerate(samples):
            [light] = [li for li, p in PLAIN_PATTERNS.items() if (p * 16)[:16] == sample]
            assert backend.light(seat) is light
            out.append(light)
        return out

    play_game(table, press, seen)
    backend.close()


# -- serial pads on a pty ---------------------------------------------------------------------


def test_scripted_game_on_serial_pads(tmp_path):
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"
    pad = PtyPad(link)
    host = Host(link, debounce_ms=25, long_press_ms=400)
    connect(pad, host)
    table = Table(Journal(tmp_path / "serial.db"), host.backend)

    def press(seat: int, keys: str) -> None:
        for key in keys.split():
            pad.press(seat, key.lower(), hold_ms=500 if key.isupper() else 100)
            event = host.events.get(timeout=WAIT)
            assert (event.seat, event.button, event.press.value) == (
                seat, key.lower(), "long" if key.isupper() else "short")
            table.on_button(event)

    def seen() -> list[Light]:
        """The pad firmware's own light states, once every light sent has arrived."""
        wanted = [host.backend.light(s).value for s in range(5)]
        pad.pump_until(lambda: pad.pad.lights == wanted, f"lights {wanted}")
        return [Light(name) for name in pad.pad.lights]

    try:
        play_game(table, press, seen)
        with pytest.raises(queue.Empty):
            host.events.get_nowait()  # no press lost or invented
    finally:
        host.backend.close()
        pad.unplug()
