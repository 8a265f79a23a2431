"""Wiring drawings (companion/hardware/wiring.py, `companion wiring`): every shipped
profile is drawn, every pin of the profile is in its drawing by name and physical pin,
tagged with its seat; the drawings the README shows are the command's output today; a
hand-written profile with RGB LEDs, pull-downs and common-anode LEDs draws too."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.cli import main
from companion.hardware.profile import PROFILES_DIR, WiringProfile, load_profile
from companion.hardware.wiring import PI, PICO, drawing

ROOT = Path(__file__).resolve().parents[2]
DRAWINGS = ROOT / "hardware" / "drawings"
SHIPPED = sorted(p.stem for p in PROFILES_DIR.glob("*.yaml"))
SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    """Every text the drawing shows (the SVG must parse)."""
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def profile_pins(profile: WiringProfile) -> list[tuple[int, int, str]]:
    """(seat index or -1, pin, role) of every pin the profile uses."""
    pins = [(-1, profile.pixel_pin, "pixel data")] if profile.pixel_pin is not None else []
    for index, seat in enumerate(profile.seats):
        pins += [(index, pin, button.upper()) for button, pin in seat.buttons]
        if seat.led is not None:
            pins.append((index, seat.led, "LED"))
        for colour, pin in zip("RGB", seat.rgb or (), strict=False):
            pins.append((index, pin, f"LED {colour}"))
    return pins


def check_every_pin_is_drawn(profile: WiringProfile, svg: str) -> None:
    board = PI if profile.kind == "gpio" else PICO
    shown = texts(svg)
    assert len(profile_pins(profile)) > 0
    for seat, pin, role in profile_pins(profile):
        physical = board.physical(pin)
        assert f"{board.prefix}{pin}" in shown, (pin, "not on the board drawing")
        assert str(physical) in shown, (pin, "its physical pin number is missing")
        assert f"pin {physical} · {board.prefix}{pin}" in shown, (pin, "no seat-block line")
        tag = role if seat < 0 else f"Seat {seat + 1} {role}"
        assert tag in shown, (pin, tag)
    for index, seat in enumerate(profile.seats):
        assert f"Seat {index + 1}" in shown
        if seat.pixel is not None:
            assert f"light: pixel {seat.pixel} of the WS2812 chain (above)" in shown


@pytest.mark.parametrize("name", SHIPPED)
def test_every_pin_of_a_shipped_profile_is_in_its_drawing(name):
    profile = load_profile(PROFILES_DIR / f"{name}.yaml")
    check_every_pin_is_drawn(profile, drawing(profile, name))


def test_the_shipped_profiles_are_the_two_the_readme_shows():
    assert SHIPPED == ["gpio-5-seats", "serial-pads"]
    readme = (ROOT / "README.md").read_text()
    for name in SHIPPED:
        assert f"(hardware/drawings/{name}.svg)" in readme


@pytest.mark.parametrize("name", SHIPPED)
def test_the_committed_drawings_are_the_commands_output(name, tmp_path, capsys):
    """The README's pictures can't drift from the profiles: regenerate them with
    `companion wiring NAME --out hardware/drawings/NAME.svg` when this fails."""
    out = tmp_path / f"{name}.svg"
    assert main(["wiring", name, "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == (DRAWINGS / f"{name}.svg").read_text(
        encoding="utf-8"), f"hardware/drawings/{name}.svg is out of date"
    assert capsys.readouterr().out.startswith(f"{out}: wiring of {name}")


def test_the_drawing_of_the_direct_gpio_profile_marks_the_buses_and_the_display_pins():
    """The pins a bus takes (SPI0 on seat 5, I2S on seat 3) and the display's power pins
    are marked where the builder looks."""
    shown = texts(drawing(load_profile(PROFILES_DIR / "gpio-5-seats.yaml"), "gpio-5-seats"))
    for note in ("SPI0 CE1", "SPI0 MOSI", "I2S DIN", "I2S DOUT", "I2C SDA", "1-Wire",
                 "display 5V", "display GND"):
        assert note in shown


def test_the_seat_pads_drawing_has_the_level_shifter():
    shown = texts(drawing(load_profile(PROFILES_DIR / "serial-pads.yaml"), "serial-pads"))
    assert "74AHCT125 (level shifter)" in shown
    assert "5 V: pixels, 74AHCT125" in shown  # VBUS tagged on the Pico


def test_a_hand_written_profile_with_rgb_leds_pull_downs_and_common_anode_draws(tmp_path):
    path = tmp_path / "rgb.yaml"
    path.write_text(
        "kind: gpio\n"
        "description: 2 seats & RGB <test>\n"
        "active_high: false\n"
        "seats:\n"
        "  - buttons: {a: 4, b: 17}\n"
        "    light: {rgb: [22, 23, 24]}\n"
        "  - buttons: {c: 5}\n"
        "    pull_up: false\n"
        "    light: {led: 6}\n")
    out = tmp_path / "rgb.svg"
    assert main(["wiring", str(path), "--out", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    check_every_pin_is_drawn(load_profile(path), svg)
    shown = texts(svg)
    assert any("2 seats & RGB <test>" in t for t in shown)  # escaped, and the SVG parses
    assert "LED red" in shown and "3V3 (common anode)" in shown


def test_an_unknown_profile_is_one_line_naming_the_shipped_ones(tmp_path, capsys):
    assert main(["wiring", "gpio-6-seats", "--out", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "gpio-5-seats, serial-pads" in err
    assert not (tmp_path / "x.svg").exists()
