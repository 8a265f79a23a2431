"""Wiring profiles: the shipped ones load; every mistake is a SourceError naming
FILE:LINE: field (pin used twice, unknown key, bad pin number, wrong type)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.files.yamlsrc import SourceError, SourceErrors
from companion.hardware.profile import load_profile, profile_path


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "p.yaml"
    path.write_text(text)
    return path


GOOD = """\
kind: gpio
seats:
  - buttons: {a: 4, b: 17}
    light: {led: 22}
  - buttons: {a: 5}
    light: {rgb: [12, 13, 19]}
    active_high: false
"""


def test_shipped_gpio_profile_fits_five_seats_in_twenty_distinct_header_pins():
    p = load_profile(profile_path("gpio-5-seats"))
    assert p.kind == "gpio" and len(p.seats) == 5
    pins = [pin for s in p.seats for _, pin in s.buttons] + [s.led for s in p.seats]
    assert len(pins) == len(set(pins)) == 20
    assert all(2 <= pin <= 27 for pin in pins) and not {2, 3, 14, 15} & set(pins)
    assert all([n for n, _ in s.buttons] == ["a", "b", "c"] for s in p.seats)


def test_shipped_serial_profile_has_one_pixel_per_seat():
    p = load_profile(profile_path("serial-pads"))
    assert p.kind == "serial" and p.pixel_pin == 16
    assert [s.pixel for s in p.seats] == [0, 1, 2, 3, 4]


def test_valid_profile_with_rgb_and_per_seat_overrides(tmp_path):
    p = load_profile(write(tmp_path, GOOD))
    assert p.seats[0].buttons == (("a", 4), ("b", 17)) and p.seats[0].led == 22
    assert p.seats[1].rgb == (12, 13, 19) and p.seats[1].active_high is False
    assert p.seats[0].active_high is True and p.seats[1].pull_up is True


@pytest.mark.parametrize(
    "text, expected",
    [
        (GOOD.replace("b: 17", "b: 4"), (":3: seats.0.buttons.b: GPIO4 is already used by "
         "seats.0.buttons.a")),
        (GOOD.replace("[12, 13, 19]", "[12, 13, 22]"), (":6: seats.1.light.rgb.2: GPIO22 is "
         "already used")),
        (GOOD.replace("b: 17", "d: 17"), ":3: seats.0.buttons.d: unknown key"),
        (GOOD.replace("a: 5", "a: 28"), ":5: seats.1.buttons.a: GPIO28 is not a usable pin"),
        (GOOD.replace("a: 5", "a: 1"), ":5: seats.1.buttons.a: GPIO1 is not a usable pin"),
        (GOOD.replace("a: 5", "a: five"), ":5: seats.1.buttons.a: expected a whole number"),
        (GOOD.replace("a: 5", "a: true"), ":5: seats.1.buttons.a: expected a whole number"),
        (GOOD.replace("active_high: false", "active_high: 0"), (":7: seats.1.active_high: "
         "expected yes/no")),
        (GOOD.replace("{led: 22}", "{led: 22, rgb: [9, 10, 11]}"), (":4: seats.0.light: give "
         "exactly one")),
        (GOOD.replace("{led: 22}", "{lamp: 22}"), ":4: seats.0.light.lamp: unknown key"),
        (GOOD.replace("[12, 13, 19]", "[12, 13]"), ":6: seats.1.light.rgb: expected three pins"),
        (GOOD.replace("{a: 5}", "{}"), ":5: seats.1.buttons: a seat needs at least one button"),
        (GOOD.replace("kind: gpio", "kind: usb"), ":1: kind: expected gpio or serial"),
        (GOOD + "colour: red\n", ":8: colour: unknown key"),
        ("kind: gpio\nseats: []\n", ":2: seats: expected a list of seats"),
        (GOOD.replace("    light: {led: 22}\n", ""), "seats.0.light: missing"),
        ("kind: serial\nseats:\n  - buttons: {a: 2}\n    light: {pixel: 0}\n",
         "pixel_pin: missing"),
        (("kind: serial\npixel_pin: 16\nseats:\n  - buttons: {a: 2}\n    light: {pixel: 0}\n"
         "  - buttons: {a: 3}\n    light: {pixel: 0}\n"),
         ":7: seats.1.light.pixel: pixel 0 is already used by seats.0.light.pixel"),
        ("kind: serial\npixel_pin: 25\nseats:\n  - buttons: {a: 2}\n    light: {pixel: 0}\n",
         ":2: pixel_pin: GP25 is not a usable pin"),
    ],
)
def test_profile_errors_name_file_line_and_field(tmp_path, text, expected):
    path = write(tmp_path, text)
    with pytest.raises(SourceError) as info:
        load_profile(path)
    message = str(info.value)
    assert message.startswith(str(path))
    assert expected in message, message


def test_missing_profile_file_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        load_profile(tmp_path / "absent.yaml")


MANY_MISTAKES = """\
kind: gpio
pull_up: maybe
seats:
  - buttons: {a: 5, b: 5, c: 99}
    light: {led: 7}
  - buttons: {a: 8, b: 9, c: 10}
    light: {led: x}
  - buttons: {a: 11, b: 12, c: 13}
    light: {led: 14}
    bogus: 1
"""


def test_every_mistake_of_a_profile_comes_in_one_error(tmp_path):
    """One bad flag, pin or key does not hide the next: each is a line of its own, in the
    order of the file, each with its refusal for a screen."""
    path = write(tmp_path, MANY_MISTAKES)
    with pytest.raises(SourceErrors) as info:
        load_profile(path)
    assert [m.split(": ", 2)[:2] for m in info.value.messages] == [
        [f"{path}:2", "pull_up"],
        [f"{path}:4", "seats.0.buttons.b"],
        [f"{path}:4", "seats.0.buttons.c"],
        [f"{path}:7", "seats.1.light.led"],
        [f"{path}:10", "seats.2.bogus"],
    ]
    assert [m.refusal.code for m in info.value.mistakes] == [
        "yes_no", "pin_used", "unusable_pin", "not_a_whole_number", "unknown_key"]
