"""Wiring profiles: which pin each seat's buttons and light use.

A profile is a YAML file (the shipped ones: ``hardware/profiles/*.yaml``, packaged as
``companion/hardware/profiles/``)::

    kind: gpio                 # gpio: Raspberry Pi header (BCM numbers)
    pull_up: true              # buttons wired to ground (default); per seat override
    active_high: true          # LED lit when the pin is high (default); per seat override
    seats:
      - buttons: {a: 4, b: 17, c: 27}
        light: {led: 22}       # or {rgb: [R, G, B]} for a common-cathode RGB LED

    kind: serial               # serial: the seat-pad RP2040 (GP numbers), see firmware/
    pixel_pin: 16              # WS2812 data pin; seat lights are pixels of that chain
    seats:
      - buttons: {a: 2, b: 3, c: 4}
        light: {pixel: 0}

Every mistake is a line ``FILE:LINE: field: why`` (unknown key, wrong type, a pin number
the board doesn't have, a pin used twice), all of a file's mistakes together in one
``SourceErrors``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.files.validate import Mistakes, check_keys, count, describe, join, mapping
from companion.files.yamlsrc import Document, kept_dir, load_checked
from companion.play.errors import RuleError

# The repository's hardware/profiles/, seen through the symlink companion/hardware/profiles:
# the wheel and the sdist carry the files as package data, so an installed (non-editable)
# package finds them beside this module as a checkout does.
PROFILES_DIR = Path(__file__).parent / "profiles"
BUTTON_NAMES = ("a", "b", "c")
MAX_SEATS = 8
# Raspberry Pi: BCM 2-27 are on the header; 0 and 1 are reserved for the HAT ID EEPROM.
GPIO_PINS = frozenset(range(2, 28))
# What takes a Raspberry Pi pin when it is enabled (raspi-config, config.txt, a HAT): a
# seat wired there loses the pin then. The wiring drawing marks them; the GPIO backend
# names them when a seat cannot have its pins.
PI_BUSES: dict[int, str] = {
    0: "HAT EEPROM", 1: "HAT EEPROM", 2: "I2C SDA", 3: "I2C SCL", 4: "1-Wire",
    7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK",
    14: "UART TX", 15: "UART RX", 18: "I2S BCLK", 19: "I2S LRCLK", 20: "I2S DIN",
    21: "I2S DOUT",
}
# RP2040 (Pico): GP23 (SMPS mode), GP24 (VBUS sense), GP25 (on-board LED) are not on pins.
PICO_PINS = frozenset(set(range(23)) | {26, 27, 28})


@dataclass(frozen=True)
class SeatWiring:
    buttons: tuple[tuple[str, int], ...]  # (button name, pin) in the order a, b, c
    led: int | None = None  # plain LED pin (gpio)
    rgb: tuple[int, int, int] | None = None  # RGB LED pins (gpio)
    pixel: int | None = None  # index in the WS2812 chain (serial pad)
    pull_up: bool = True
    active_high: bool = True


@dataclass(frozen=True)
class WiringProfile:
    path: str
    kind: str  # "gpio" | "serial"
    seats: tuple[SeatWiring, ...]
    pixel_pin: int | None = None
    description: str | None = None


def profile_path(name: str) -> Path:
    """The shipped profile ``name`` (``hardware/profiles/NAME.yaml``)."""
    return PROFILES_DIR / f"{name}.yaml"


def load_profile(path: str | Path) -> WiringProfile:
    """Read and validate a wiring profile; its mistakes are all in one ``SourceErrors``
    (``file:line: field`` each): one bad seat or pin does not hide the next. In the kiosk
    (``yamlsrc.kept_dir``), read from its checked parsed copy while the file's bytes are
    the same, as its configuration is: a start of a wired kiosk imports no PyYAML."""
    return load_checked(path, "a wiring profile", kept_dir(), profile_from)


def profile_from(doc: Document) -> WiringProfile:
    """The wiring profile of a read document; its mistakes all in one ``SourceErrors``."""
    mistakes = Mistakes()
    profile = mistakes.check(_profile, doc, mistakes)
    mistakes.raise_found(doc)
    return profile


def _flag(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(path, f"expected yes/no (true/false), got {describe(value)}",
                        code="yes_no", params={"got": describe(value)})
    return value


class _Pins:
    """Pin numbers of one board, each used once."""

    def __init__(self, kind: str) -> None:
        self.valid = GPIO_PINS if kind == "gpio" else PICO_PINS
        self.label = "GPIO" if kind == "gpio" else "GP"
        self.used: dict[int, str] = {}

    def take(self, value: Any, path: str) -> int:
        pin = count(value, path)
        if pin not in self.valid:
            lo, hi = min(self.valid), max(self.valid)
            raise RuleError(path, f"{self.label}{pin} is not a usable pin ({lo}-{hi})",
                            code="unusable_pin",
                            params={"pin": f"{self.label}{pin}", "low": lo, "high": hi})
        if pin in self.used:
            raise RuleError(path, f"{self.label}{pin} is already used by {self.used[pin]}",
                            code="pin_used",
                            params={"pin": f"{self.label}{pin}", "by": self.used[pin]})
        self.used[pin] = path
        return pin


def _profile(doc: Document, m: Mistakes) -> WiringProfile | None:
    """The profile, each field checked on its own (its mistakes noted in ``m``); RuleError
    when nothing further can be checked (no kind, no list of seats)."""
    data = mapping(doc.data, "")
    kind = data.get("kind")
    if kind not in ("gpio", "serial"):
        raise RuleError("kind", f"expected gpio or serial, got {describe(kind)}",
                        code="profile_kind_value", params={"got": describe(kind)})
    optional = {"description", "pull_up", "active_high"}
    required = {"kind", "seats", "pixel_pin"} if kind == "serial" else {"kind", "seats"}
    check_keys(data, "", required, optional, m)
    pins = _Pins(kind)
    pixel_pin = None
    if kind == "serial" and "pixel_pin" in data:
        pixel_pin = m.check(pins.take, data["pixel_pin"], "pixel_pin")
    pull_up = m.check(_flag, data.get("pull_up", True), "pull_up", default=True)
    active_high = m.check(_flag, data.get("active_high", True), "active_high", default=True)
    if "description" in data and not isinstance(data["description"], str):
        m.errors.append(RuleError(
            "description", f"expected text, got {describe(data['description'])}",
            code="expected_text", params={"got": describe(data["description"])}))
    if "seats" not in data:
        return None  # said missing above
    seats_data = data["seats"]
    if not isinstance(seats_data, list) or not seats_data:
        raise RuleError("seats", f"expected a list of seats, got {describe(seats_data)}",
                        code="seats_list", params={"got": describe(seats_data)})
    if len(seats_data) > MAX_SEATS:
        m.errors.append(RuleError(
            "seats", f"{len(seats_data)} seats, at most {MAX_SEATS}",
            code="profile_seat_count", params={"n": len(seats_data), "most": MAX_SEATS}))
    pixels: dict[int, str] = {}
    seats = tuple(
        m.check(_seat, s, f"seats.{i}", kind, pins, pixels, pull_up, active_high, m)
        for i, s in enumerate(seats_data)
    )
    return WiringProfile(path=doc.path, kind=kind, seats=seats, pixel_pin=pixel_pin,
                         description=data.get("description"))


def _seat(
    value: Any,
    path: str,
    kind: str,
    pins: _Pins,
    pixels: dict[int, str],
    pull_up: bool,
    active_high: bool,
    m: Mistakes,
) -> SeatWiring:
    """One seat: its keys, flags, buttons and light each checked on their own."""
    data = mapping(value, path)
    check_keys(data, path, {"buttons", "light"}, {"pull_up", "active_high"}, m)
    pull_up = m.check(_flag, data.get("pull_up", pull_up), join(path, "pull_up"), default=pull_up)
    active_high = m.check(_flag, data.get("active_high", active_high), join(path, "active_high"),
                          default=active_high)
    buttons: tuple = ()
    if "buttons" in data:
        buttons = m.check(_buttons, data["buttons"], join(path, "buttons"), pins, m, default=())
    light = m.check(_light, data["light"], join(path, "light"), kind, pins, pixels,
                    default={}) if "light" in data else {}
    return SeatWiring(buttons, **light, pull_up=pull_up, active_high=active_high)


def _buttons(value: Any, path: str, pins: _Pins, m: Mistakes) -> tuple[tuple[str, int], ...]:
    data = mapping(value, path)
    check_keys(data, path, set(), set(BUTTON_NAMES), m)
    if not data:
        raise RuleError(path, "a seat needs at least one button (a, b, c)",
                        code="seat_needs_button")
    return tuple((name, m.check(pins.take, data[name], join(path, name)))
                 for name in BUTTON_NAMES if name in data)


def _light(value: Any, lpath: str, kind: str, pins: _Pins, pixels: dict[int, str]) -> dict:
    """The light's fields of a ``SeatWiring``: a pixel (serial), an LED or an RGB LED."""
    ldata = mapping(value, lpath)
    if kind == "serial":
        check_keys(ldata, lpath, {"pixel"})
        pixel = count(ldata["pixel"], join(lpath, "pixel"), high=MAX_SEATS - 1)
        if pixel in pixels:
            raise RuleError(join(lpath, "pixel"), f"pixel {pixel} is already used by {pixels[pixel]}",
                            code="pixel_used", params={"pixel": pixel, "by": pixels[pixel]})
        pixels[pixel] = join(lpath, "pixel")
        return {"pixel": pixel}
    if len(ldata) != 1 or next(iter(ldata)) not in ("led", "rgb"):
        check_keys(ldata, lpath, set(), {"led", "rgb"})
        raise RuleError(lpath, "give exactly one of led: PIN or rgb: [R, G, B]", code="led_or_rgb")
    if "led" in ldata:
        return {"led": pins.take(ldata["led"], join(lpath, "led"))}
    rgb = ldata["rgb"]
    rpath = join(lpath, "rgb")
    if not isinstance(rgb, list) or len(rgb) != 3:
        raise RuleError(rpath, f"expected three pins [R, G, B], got {describe(rgb)}",
                        code="rgb_pins", params={"got": describe(rgb)})
    return {"rgb": tuple(pins.take(p, join(rpath, i)) for i, p in enumerate(rgb))}
