"""The seat pads' build guide (hardware/PAD-BUILD.md) and its drawings
(companion/hardware/build_guide.py, `companion wiring PROFILE --part …`): the committed
drawings are the command's output today, they carry the profile's pins, the guide's RJ45
table is the drawing's, and the guide, WIRING.md and BOM.md agree on the wires a pad's
cable carries."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.cli import main
from companion.hardware import build_guide
from companion.hardware.profile import PROFILES_DIR, load_profile
from companion.hardware.wiring import PICO

ROOT = Path(__file__).resolve().parents[2]
DRAWINGS = ROOT / "hardware" / "drawings"
GUIDE = ROOT / "hardware" / "PAD-BUILD.md"
SVG = "{http://www.w3.org/2000/svg}"
COMMITTED = [("serial-pads", part) for part in build_guide.PARTS] + [("gpio-5-seats", "pad")]


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def drawn(name: str, part: str) -> str:
    return build_guide.part_drawing(load_profile(PROFILES_DIR / f"{name}.yaml"), name, part)


@pytest.mark.parametrize(("name", "part"), COMMITTED, ids=[f"{n}-{p}" for n, p in COMMITTED])
def test_the_committed_build_drawings_are_the_commands_output(name, part, tmp_path, capsys):
    """Regenerate with `companion wiring NAME --part PART --out
    hardware/drawings/NAME-PART.svg` when this fails; the guide shows each one."""
    out = tmp_path / f"{name}-{part}.svg"
    assert main(["wiring", name, "--part", part, "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"{out}: {part} drawing of {name}")
    committed = DRAWINGS / f"{name}-{part}.svg"
    assert out.read_text(encoding="utf-8") == committed.read_text(encoding="utf-8"), (
        f"{committed.relative_to(ROOT)} is out of date")
    assert f"(drawings/{name}-{part}.svg)" in GUIDE.read_text(encoding="utf-8")


def test_the_hub_board_carries_every_seat_s_pins_from_the_profile():
    profile = load_profile(PROFILES_DIR / "serial-pads.yaml")
    shown = texts(drawn("serial-pads", "hub"))
    for index, seat in enumerate(profile.seats):
        assert f"Seat {index + 1}" in shown and f"jack {index + 1}" in shown
        for _button, pin in seat.buttons:
            assert f"GP{pin}" in shown and f"pin {PICO.physical(pin)}" in shown
    pixel = profile.pixel_pin
    assert f"data: GP{pixel} (pin {PICO.physical(pixel)}) → pin 2; pin 3 → 330 Ω → jack 1 " \
           f"pin {build_guide.rj45_pin('DIN')}" in shown
    assert "notch up, pin 1 by the dot;" in shown and "pin 1 (GP0)" in shown  # orientation


def test_a_profile_s_own_pins_reach_the_hub_drawing(tmp_path):
    """A profile of one's own draws its own GP pins, not the shipped ones."""
    text = (PROFILES_DIR / "serial-pads.yaml").read_text(encoding="utf-8")
    mine = tmp_path / "mine.yaml"
    mine.write_text(text.replace("{a: 2, b: 3, c: 4}", "{a: 21, b: 22, c: 26}"),
                    encoding="utf-8")
    shown = texts(build_guide.part_drawing(load_profile(mine), "mine", "hub"))
    assert {"GP21", "GP22", "GP26"} <= set(shown) and "GP2" not in shown


def test_the_guide_s_rj45_table_is_the_drawing_s():
    rows = re.findall(r"^\| (\d) \| ([a-z/]+) \| (\w+)", GUIDE.read_text(encoding="utf-8"),
                      re.MULTILINE)
    assert [(int(p), c, s) for p, c, s in rows] == [
        (pin, colour, signal) for pin, (colour, signal, _) in build_guide.RJ45.items()]
    shown = texts(drawn("serial-pads", "cable"))
    for pin, (colour, signal, _) in build_guide.RJ45.items():
        assert str(pin) in shown and colour in shown and signal in shown
    # every pair is a pair of the cable, and each data line rides with a ground or a button
    assert sorted(p for pins in build_guide.PAIRS.values() for p in pins) == list(range(1, 9))


def test_the_docs_agree_on_the_wires_of_a_pad_s_cable():
    """7 of 8 in return to hub (Ethernet), 6 on the first pad's cable and 5 on the others
    in the chain (a 6-core cable): WIRING.md once said 7 where BOM.md said 6."""
    assert len(build_guide.wires("return")) == 7
    assert len(build_guide.wires("chain", first=True)) == 6
    assert len(build_guide.wires("chain")) == 5
    wiring = (ROOT / "hardware" / "WIRING.md").read_text(encoding="utf-8")
    bom = (ROOT / "hardware" / "BOM.md").read_text(encoding="utf-8")
    guide = GUIDE.read_text(encoding="utf-8")
    assert "7 wires used" in wiring and "7 of the 8 wires used" in bom
    assert "uses 7 of the 8" in guide
    for doc in (wiring, bom, guide):
        assert "6-core cable" in doc
        assert "PAD-BUILD.md" in doc or doc is guide


def test_the_pad_drawings_say_which_way_round():
    serial = texts(drawn("serial-pads", "pad"))
    assert "arrow: DIN → DOUT" in serial and "▼ the player's edge (faces the player) ▼" in serial
    assert f"A: pin {build_guide.rj45_pin('A')}" in serial
    gpio = texts(drawn("gpio-5-seats", "pad"))
    assert "long leg: anode (+)" in gpio and "short leg: cathode (−)" in gpio
    assert not any("RJ45" in t for t in gpio)  # a 5-core cable to the Pi, no jack


def test_hub_cable_and_layouts_are_for_the_serial_pads_only(capsys, tmp_path):
    rc = main(["wiring", "gpio-5-seats", "--part", "hub", "--out", str(tmp_path / "x.svg")])
    assert rc == 2 and not (tmp_path / "x.svg").exists()
    assert capsys.readouterr().err.strip() == (
        "companion wiring: the hub drawing is of the serial seat pads; gpio-5-seats is a "
        "gpio profile")
