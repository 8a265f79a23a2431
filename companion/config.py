"""The companion's settings: one YAML file turned into validated, frozen objects.

Every mistake is a ``SourceError`` naming the file, the line and the field
(``config.yaml:7: seats.1.colour: unknown colour 'purpel' (did you mean 'purple'?)``),
never a traceback. ``companion check-config FILE`` prints it and exits 2.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import paths
from companion.engine.errors import RuleError
from companion.hardware.profile import PROFILES_DIR, load_profile, profile_path
from companion.validate import count, describe, join, mapping
from companion.yamlsrc import Document, SourceError, load

SHIPPED_CONFIG = Path(__file__).resolve().parent / "data" / "default-config.yaml"

COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (220, 40, 40),
    "blue": (40, 90, 220),
    "green": (40, 170, 70),
    "yellow": (240, 200, 30),
    "purple": (140, 60, 190),
    "orange": (245, 130, 30),
    "white": (235, 235, 235),
    "cyan": (30, 200, 210),
    "pink": (240, 110, 170),
}
POSITIONS = (
    "bottom",
    "bottom-left",
    "left",
    "top-left",
    "top",
    "top-right",
    "right",
    "bottom-right",
)
BACKENDS = ("gpio", "serial", "sim")
LANGUAGES = ("en", "fr")
ROTATIONS = (0, 90, 180, 270)
FULLSCREEN = ("auto", "yes", "no")
# gpiozero pin factory names (gpiozero.pins); None lets gpiozero choose.
PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
MIN_SEATS, MAX_SEATS = 2, 5

_HEX = re.compile(r"#([0-9a-fA-F]{6})")

TOP_KEYS = ("seats", "hardware", "display", "language", "data_dir")
SEAT_KEYS = ("name", "colour", "position")
HARDWARE_KEYS = ("backend", "profile", "port", "pin_factory", "debounce_ms", "long_press_ms")
DISPLAY_KEYS = ("width", "height", "rotation", "fullscreen")


@dataclass(frozen=True)
class SeatConfig:
    name: str
    colour: tuple[int, int, int]
    position: str


@dataclass(frozen=True)
class HardwareConfig:
    backend: str
    profile: Path | None = None
    port: str | None = None
    pin_factory: str | None = None
    debounce_ms: int = 20
    long_press_ms: int = 700


@dataclass(frozen=True)
class DisplayConfig:
    width: int = 800
    height: int = 480
    rotation: int = 0
    fullscreen: str = "auto"


@dataclass(frozen=True)
class Config:
    seats: tuple[SeatConfig, ...]
    hardware: HardwareConfig
    display: DisplayConfig
    language: str
    data_dir: Path


def default_config_path() -> Path:
    """``$COMPANION_CONFIG``, else the user's ``companion/config.yaml`` under
    ``$XDG_CONFIG_HOME`` (or ``~/.config``) if it exists, else the shipped default (which
    uses the keyboard simulator)."""
    explicit = os.environ.get("COMPANION_CONFIG")
    if explicit:
        return paths.expand(explicit, "COMPANION_CONFIG")
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = paths.expand(xdg, "XDG_CONFIG_HOME") if xdg else paths.home() / ".config"
    user = base / "companion" / "config.yaml"
    return user if user.is_file() else SHIPPED_CONFIG


def load_config(path: str | Path) -> Config:
    """Read and validate a configuration file; any error is a ``SourceError``."""
    doc = load(path)
    try:
        return _config(doc)
    except RuleError as exc:
        raise doc.error(exc.field, exc.message) from None


# --- validation -------------------------------------------------------------------------


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _check_keys(
    data: dict, path: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()
) -> None:
    for key in data:
        if key not in allowed:
            raise RuleError(
                join(path, key),
                f"unknown key{_suggest(str(key), allowed)}; known keys: {', '.join(allowed)}",
            )
    for key in required:
        if key not in data:
            raise RuleError(join(path, key), "missing")


def _choice(value: Any, path: str, choices: tuple, what: str) -> Any:
    if value in choices and not isinstance(value, bool):
        return value
    hint = _suggest(value, map(str, choices)) if isinstance(value, str) else ""
    listed = ", ".join(map(str, choices))
    raise RuleError(path, f"unknown {what} {describe(value)}{hint}; one of {listed}")


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RuleError(path, f"expected text, got {describe(value)}")
    return value.strip()


def _optional_text(value: Any, path: str) -> str | None:
    return None if value is None else _text(value, path)


def _config(doc: Document) -> Config:
    if doc.data is None:
        raise RuleError("", "the file is empty (it needs at least a seats: list)")
    data = mapping(doc.data, "")
    _check_keys(data, "", TOP_KEYS, required=("seats",))
    base = Path(doc.path).resolve().parent
    seats = _seats(data["seats"])
    hardware = _hardware(mapping(data.get("hardware"), "hardware"), base, len(seats))
    display = _display(mapping(data.get("display"), "display"))
    language = _choice(data.get("language", "en"), "language", LANGUAGES, "language")
    if data.get("data_dir") is None:
        data_dir = paths.data_dir()
    else:
        data_dir = base / _user_path(_text(data["data_dir"], "data_dir"), "data_dir")
    return Config(seats, hardware, display, language, data_dir)


def _user_path(value: str, path: str) -> Path:
    """``value`` as a path, ``~`` and ``~user`` expanded; an unknown user is a RuleError."""
    try:
        return Path(value).expanduser()
    except RuntimeError:
        raise RuleError(path, f"{value}: no such home directory") from None


def _seats(value: Any) -> tuple[SeatConfig, ...]:
    if not isinstance(value, list):
        raise RuleError("seats", f"expected a list of seats, got {describe(value)}")
    if not MIN_SEATS <= len(value) <= MAX_SEATS:
        raise RuleError("seats", f"{len(value)} seats, the table takes {MIN_SEATS}–{MAX_SEATS}")
    seats: list[SeatConfig] = []
    names: dict[str, int] = {}
    positions: dict[str, int] = {}
    for i, item in enumerate(value):
        path = f"seats.{i}"
        if not isinstance(item, dict):
            raise RuleError(path, f"expected a seat (name, colour, position), got {describe(item)}")
        _check_keys(item, path, SEAT_KEYS, required=SEAT_KEYS)
        name = _text(item["name"], join(path, "name"))
        if name.casefold() in names:
            raise RuleError(join(path, "name"), f"{name} is already seat {names[name.casefold()]}")
        names[name.casefold()] = i
        colour = _colour(item["colour"], join(path, "colour"))
        position = _choice(item["position"], join(path, "position"), POSITIONS, "position")
        if position in positions:
            raise RuleError(
                join(path, "position"), f"{position} is already seat {positions[position]}"
            )
        positions[position] = i
        seats.append(SeatConfig(name, colour, position))
    return tuple(seats)


def _colour(value: Any, path: str) -> tuple[int, int, int]:
    if isinstance(value, str):
        word = value.strip().lower()
        if word in COLOURS:
            return COLOURS[word]
        match = _HEX.fullmatch(word)
        if match:
            h = match.group(1)
            return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
        hint = _suggest(word, COLOURS)
    else:
        hint = ""
    listed = ", ".join(COLOURS)
    raise RuleError(path, f"unknown colour {describe(value)}{hint}; one of {listed} or #rrggbb")


def _hardware(data: dict, base: Path, seats: int) -> HardwareConfig:
    _check_keys(data, "hardware", HARDWARE_KEYS)
    backend = _choice(data.get("backend", "sim"), "hardware.backend", BACKENDS, "backend")
    port = _optional_text(data.get("port"), "hardware.port")
    factory = data.get("pin_factory")
    if factory is not None:
        factory = _choice(factory, "hardware.pin_factory", PIN_FACTORIES, "pin factory")
    debounce = count(data.get("debounce_ms", 20), "hardware.debounce_ms", high=500)
    long_press = count(data.get("long_press_ms", 700), "hardware.long_press_ms", low=100, high=5000)
    if long_press <= debounce:
        raise RuleError(
            "hardware.long_press_ms",
            f"{long_press} ms must be longer than debounce_ms ({debounce} ms)",
        )
    profile = None
    if data.get("profile") is not None:
        profile = _profile(_text(data["profile"], "hardware.profile"), base, backend, seats)
    return HardwareConfig(backend, profile, port, factory, debounce, long_press)


def _profile(value: str, base: Path, backend: str, seats: int) -> Path:
    """Resolve ``hardware.profile`` (a path relative to the config file, or the bare name of
    a shipped profile) and check it with the hardware engineer's loader."""
    path = "hardware.profile"
    if "/" in value or value.endswith((".yaml", ".yml")):
        resolved = base / _user_path(value, path)
    else:
        resolved = profile_path(value)
        if not resolved.is_file():
            shipped = sorted(p.stem for p in PROFILES_DIR.glob("*.yaml"))
            raise RuleError(
                path,
                f"no shipped wiring profile {value!r}{_suggest(value, shipped)}; "
                f"one of {', '.join(shipped)} or a path to a .yaml file",
            )
    try:
        profile = load_profile(resolved)
    except SourceError as exc:
        raise RuleError(path, f"wiring profile: {exc}") from None
    if backend in ("gpio", "serial") and profile.kind != backend:
        raise RuleError(path, f"{resolved} is a {profile.kind} profile, the backend is {backend}")
    if len(profile.seats) < seats:
        raise RuleError(
            path, f"{resolved} wires {len(profile.seats)} seats, the configuration has {seats}"
        )
    return resolved


def _display(data: dict) -> DisplayConfig:
    _check_keys(data, "display", DISPLAY_KEYS)
    width = count(data.get("width", 800), "display.width", low=160, high=8192)
    height = count(data.get("height", 480), "display.height", low=120, high=8192)
    rotation = data.get("rotation", 0)
    if isinstance(rotation, bool) or not isinstance(rotation, int):
        raise RuleError("display.rotation", f"expected 0, 90, 180 or 270, got {describe(rotation)}")
    rotation = _choice(rotation, "display.rotation", ROTATIONS, "rotation")
    fullscreen = data.get("fullscreen", "auto")
    # YAML reads a bare yes/no as a boolean.
    if isinstance(fullscreen, bool):
        fullscreen = "yes" if fullscreen else "no"
    fullscreen = _choice(fullscreen, "display.fullscreen", FULLSCREEN, "fullscreen mode")
    return DisplayConfig(width, height, rotation, fullscreen)
