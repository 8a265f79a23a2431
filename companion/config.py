"""The companion's settings: one YAML file turned into validated, frozen objects.

Every mistake is named with the file, the line and the field
(``config.yaml:7: seats.1.colour: unknown colour 'purpel' (did you mean 'purple'?)``),
never a traceback; all the mistakes of a file come together in one ``SourceErrors``, so a
file with four mistakes needs one run of ``companion check-config FILE`` (one line each,
exit 2), not four.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.files.safetext import escaped, shown
from companion.files.validate import Mistakes, check_player_name, count, describe, join, mapping
from companion.files.yamlsrc import Document, SourceError, SourceErrors, load_checked
from companion.hardware.profile import PROFILES_DIR, load_profile, profile_path
from companion.play.errors import RuleError, Words, counted
from companion.system import paths

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
WINDOW_SIZE = (800, 480)  # a window without display.width/height: the official 7" display

_HEX = re.compile(r"#([0-9a-fA-F]{6})")

TOP_KEYS = ("seats", "hardware", "display", "language", "data_dir", "phones")
SEAT_KEYS = ("name", "colour", "position")
HARDWARE_KEYS = ("backend", "profile", "port", "pin_factory", "debounce_ms", "long_press_ms")
DISPLAY_KEYS = ("width", "height", "rotation", "fullscreen")
PHONES_KEYS = ("enabled", "port", "listen", "address")
PHONES_PORT = 8470


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
    """The screen. ``width`` and ``height`` (both or neither) are the display's size before
    rotation; None: fullscreen takes the display's own size, a window is ``WINDOW_SIZE``."""

    width: int | None = None
    height: int | None = None
    rotation: int = 0
    fullscreen: str = "auto"


@dataclass(frozen=True)
class PhonesConfig:
    """Phones as seat pads (companion/phones/): off unless ``enabled``; the kiosk listens
    on ``listen`` (every address by default) at ``port``; ``address``: the kiosk's address
    in the seats' QR codes (None: its address on the local network, found at start)."""

    enabled: bool = False
    port: int = PHONES_PORT
    listen: str = "0.0.0.0"
    address: str | None = None


@dataclass(frozen=True)
class Config:
    seats: tuple[SeatConfig, ...]
    hardware: HardwareConfig
    display: DisplayConfig
    language: str
    data_dir: Path
    phones: PhonesConfig = PhonesConfig()


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


def load_config(path: str | Path, kept_in: Path | None = None) -> Config:
    """Read and validate a configuration file; a file that can't be read is a
    ``SourceError``, the mistakes of one that can are all in one ``SourceErrors`` (in the
    order of their lines). ``kept_in``: an existing directory where its parsed copy is kept
    (``yamlsrc.load_checked``; the kiosk's start): a copy whose configuration would not
    pass ``config_from`` is never used, the file is read and checked instead."""
    return load_checked(path, "a configuration file", kept_in, config_from)


def config_from(doc: Document) -> Config:
    """The configuration of a read document; its mistakes all in one ``SourceErrors``."""
    mistakes = Mistakes()
    try:
        config = _config(doc, mistakes)
    except RuleError as exc:  # nothing further can be checked (not a mapping, no seats list…)
        mistakes.errors.append(exc)
    mistakes.raise_found(doc)
    return config


# --- validation -------------------------------------------------------------------------


def _suggest(word: str, choices: Iterable[str]) -> str:
    """" (did you mean 'purple'?)" for the nearest of ``choices``; nothing when none is near."""
    import difflib  # only for a mistake's suggestion (start-up)

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not close:
        return ""
    return Words(f" (did you mean {close[0]!r}?)", "did_you_mean", value=repr(close[0]))


def _check_keys(
    data: dict, path: str, allowed: tuple[str, ...], mistakes: Mistakes,
    required: tuple[str, ...] = (),
) -> None:
    """Every unknown key and every missing one, each a mistake of its own."""
    for key in data:
        if key not in allowed:
            mistakes.errors.append(RuleError(
                join(path, key),
                f"unknown key{_suggest(str(key), allowed)}; known keys: {', '.join(allowed)}",
                code="unknown_key_known",
                params={"hint": _suggest(str(key), allowed), "allowed": ", ".join(allowed)},
            ))
    for key in required:
        if key not in data:
            mistakes.errors.append(RuleError(join(path, key), "missing", code="missing"))


def _choice(value: Any, path: str, choices: tuple, what: str) -> Any:
    if value in choices and not isinstance(value, bool):
        return value
    hint = _suggest(value, map(str, choices)) if isinstance(value, str) else ""
    listed = ", ".join(map(str, choices))
    raise RuleError(path, f"unknown {what} {describe(value)}{hint}; one of {listed}",
                    code="unknown_choice",
                    params={"what": what, "value": describe(value), "hint": hint, "allowed": listed})


def _text(value: Any, path: str) -> str:
    """Text with something in it and no control character (a NUL in a path or a name
    stops ``run`` where it is used; an escape sequence in a name would reach the log)."""
    if not isinstance(value, str) or not value.strip():
        raise RuleError(path, f"expected text, got {describe(value)}",
                        code="expected_text", params={"got": describe(value)})
    if escaped(value) != value:
        raise RuleError(path, f"{describe(value)} holds a control character",
                        code="control_character", params={"value": describe(value)})
    return value.strip()


def _optional_text(value: Any, path: str) -> str | None:
    return None if value is None else _text(value, path)


def _config(doc: Document, m: Mistakes) -> Config:
    if doc.data is None:
        raise RuleError("", "the file is empty (it needs at least a seats: list)",
                        code="empty_config")
    data = mapping(doc.data, "")
    _check_keys(data, "", TOP_KEYS, m, required=("seats",))
    base = Path(doc.path).resolve().parent
    seats = m.check(_seats, data["seats"], m, default=()) if "seats" in data else ()
    hardware = _hardware(m.check(mapping, data.get("hardware"), "hardware", default={}),
                         base, len(seats), m)
    display = _display(m.check(mapping, data.get("display"), "display", default={}), m)
    language = m.check(_choice, data.get("language", "en"), "language", LANGUAGES, "language",
                       default="en")
    data_dir = paths.data_dir()
    if data.get("data_dir") is not None:
        text = m.check(_text, data["data_dir"], "data_dir")
        if text is not None:
            data_dir = base / m.check(_user_path, text, "data_dir", default=Path())
    m.check(_check_data_dir, data_dir)
    phones = _phones(m.check(mapping, data.get("phones"), "phones", default={}), m)
    return Config(seats, hardware, display, language, data_dir, phones)


def _check_data_dir(path: Path) -> None:
    """What ``run`` needs of the data directory: a path it can use, a directory (or one it
    can create) that this account may write in."""
    field = "data_dir"
    if "\0" in str(path) or escaped(str(path)) != str(path):
        raise RuleError(field, f"{shown(str(path))} holds a control character",
                        code="control_character", params={"value": shown(str(path))})
    existing = path
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise RuleError(field, f"{existing} is not a directory",
                        code="not_a_directory", params={"path": str(existing)})
    if not os.access(existing, os.W_OK | os.X_OK):
        raise RuleError(field, f"{existing}: this account ({_user()}) may not write there",
                        code="may_not_write", params={"path": str(existing), "user": _user()})


def _user() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError):
        return f"uid {os.getuid()}"


def shown_path(path: Path) -> Path:
    """``path`` as a user at this directory names it: relative when it lies below the
    working directory, else whole."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def _user_path(value: str, path: str) -> Path:
    """``value`` as a path, ``~`` and ``~user`` expanded; an unknown user is a RuleError."""
    try:
        return Path(value).expanduser()
    except RuntimeError:
        raise RuleError(path, f"{value}: no such home directory",
                        code="no_home", params={"value": value}) from None


def _seats(value: Any, m: Mistakes) -> tuple[SeatConfig, ...]:
    """The seats; each seat's name, colour and position checked on their own."""
    if not isinstance(value, list):
        raise RuleError("seats", f"expected a list of seats, got {describe(value)}",
                        code="seats_list", params={"got": describe(value)})
    if not MIN_SEATS <= len(value) <= MAX_SEATS:
        m.errors.append(RuleError(
            "seats",
            f"{counted(len(value), 'seat', 'seats')}, the table takes {MIN_SEATS}–{MAX_SEATS}",
            code="seat_count", params={"n": len(value), "low": MIN_SEATS, "high": MAX_SEATS}))
    seats: list[SeatConfig] = []
    names: dict[str, int] = {}
    positions: dict[str, int] = {}
    for i, item in enumerate(value):
        path = f"seats.{i}"
        if not isinstance(item, dict):
            m.errors.append(RuleError(
                path, f"expected a seat (name, colour, position), got {describe(item)}",
                code="seat_item", params={"got": describe(item)}))
            continue
        _check_keys(item, path, SEAT_KEYS, m, required=SEAT_KEYS)
        name = (m.check(check_player_name, item.get("name"), join(path, "name"))
                if "name" in item else None)
        if name is not None:
            if name.casefold() in names:
                m.errors.append(RuleError(
                    join(path, "name"), f"{name} is already seat {names[name.casefold()]}",
                    code="seat_name_taken", params={"name": name, "seat": names[name.casefold()]}))
            names.setdefault(name.casefold(), i)
        colour = (m.check(_colour, item["colour"], join(path, "colour"))
                  if "colour" in item else None)
        position = (m.check(_choice, item["position"], join(path, "position"), POSITIONS,
                            "position") if "position" in item else None)
        if position is not None:
            if position in positions:
                m.errors.append(RuleError(
                    join(path, "position"), f"seat {positions[position]} already sits at {position}",
                    code="seat_position_taken",
                    params={"position": position, "seat": positions[position]}))
            positions.setdefault(position, i)
        if name is not None and colour is not None and position is not None:
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
    raise RuleError(path, f"unknown colour {describe(value)}{hint}; one of {listed} or #rrggbb",
                    code="unknown_colour",
                    params={"value": describe(value), "hint": hint, "allowed": listed})


def _hardware(data: dict, base: Path, seats: int, m: Mistakes) -> HardwareConfig:
    _check_keys(data, "hardware", HARDWARE_KEYS, m)
    backend = m.check(_choice, data.get("backend", "sim"), "hardware.backend", BACKENDS,
                      "backend")
    port = m.check(_optional_text, data.get("port"), "hardware.port")
    factory = data.get("pin_factory")
    if factory is not None:
        factory = m.check(_choice, factory, "hardware.pin_factory", PIN_FACTORIES, "pin factory")
    debounce = m.check(count, data.get("debounce_ms", 20), "hardware.debounce_ms", high=500)
    long_press = m.check(count, data.get("long_press_ms", 700), "hardware.long_press_ms",
                         low=100, high=5000)
    if debounce is not None and long_press is not None and long_press <= debounce:
        m.errors.append(RuleError(
            "hardware.long_press_ms",
            f"{long_press} ms must be longer than debounce_ms ({debounce} ms)",
            code="long_press_after_debounce", params={"long": long_press, "debounce": debounce},
        ))
    profile = None
    if data.get("profile") is not None:
        name = m.check(_text, data["profile"], "hardware.profile")
        if name is not None:  # with an unknown backend, the profile's kind can't be checked
            profile = m.check(_profile, name, base, backend or "", seats, m)
    return HardwareConfig(backend or "sim", profile, port, factory,
                          20 if debounce is None else debounce,
                          700 if long_press is None else long_press)


def _profile(value: str, base: Path, backend: str, seats: int, m: Mistakes) -> Path | None:
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
                code="no_shipped_profile",
                params={"value": repr(value), "hint": _suggest(value, shipped),
                        "allowed": ", ".join(shipped)},
            )
    try:
        profile = load_profile(shown_path(resolved))  # its messages name it as a user would
    except SourceErrors as exc:  # each of the profile's mistakes, one line each
        m.errors += [RuleError(path, f"wiring profile: {mistake.text}", code="profile_mistake",
                               params={"where": mistake.where, "field": mistake.refusal.field,
                                       "error": mistake.refusal})
                     for mistake in exc.mistakes]
        return None
    except SourceError as exc:  # not a profile that can be read
        raise RuleError(path, f"wiring profile: {exc}",
                        code="profile_error", params={"error": str(exc)}) from None
    if backend in ("gpio", "serial") and profile.kind != backend:
        raise RuleError(path, f"{resolved} is a {profile.kind} profile, the backend is {backend}",
                        code="profile_kind",
                        params={"profile": str(resolved), "kind": profile.kind, "backend": backend})
    if len(profile.seats) < seats:
        raise RuleError(
            path, f"{resolved} wires {counted(len(profile.seats), 'seat', 'seats')}, "
                  f"the configuration has {seats}",
            code="profile_seats",
            params={"profile": str(resolved), "n": len(profile.seats), "seats": seats},
        )
    return resolved


def _rotation(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("display.rotation", f"expected 0, 90, 180 or 270, got {describe(value)}",
                        code="rotation", params={"got": describe(value)})
    return _choice(value, "display.rotation", ROTATIONS, "rotation")


def _display(data: dict, m: Mistakes) -> DisplayConfig:
    _check_keys(data, "display", DISPLAY_KEYS, m)
    limits = {"width": 160, "height": 120}
    size = {
        key: m.check(count, data[key], f"display.{key}", low=low, high=8192)
        for key, low in limits.items()
        if data.get(key) is not None
    }
    if len(size) == 1 and None not in size.values():  # a valid one without the other
        missing = "height" if "width" in size else "width"
        m.errors.append(RuleError(
            f"display.{missing}",
            "missing: give width and height together, or neither (fullscreen then takes the "
            "display's own size)",
            code="width_and_height",
        ))
    width, height = (size["width"], size["height"]) if len(size) == 2 else (None, None)
    if width is None or height is None:
        width = height = None
    rotation = m.check(_rotation, data.get("rotation", 0), default=0)
    fullscreen = data.get("fullscreen", "auto")
    # YAML reads a bare yes/no as a boolean.
    if isinstance(fullscreen, bool):
        fullscreen = "yes" if fullscreen else "no"
    fullscreen = m.check(_choice, fullscreen, "display.fullscreen", FULLSCREEN,
                         "fullscreen mode", default="auto")
    return DisplayConfig(width, height, rotation, fullscreen)


def _yes_no(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(path, f"expected yes or no, got {describe(value)}",
                        code="expected_yes_no", params={"got": describe(value)})
    return value


def _address(value: Any, path: str) -> str:
    import ipaddress  # only when the section names one

    text = _text(value, path)
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise RuleError(path, f"{describe(value)} is not an IP address",
                        code="not_an_address", params={"value": describe(value)}) from None


def _phones(data: dict, m: Mistakes) -> PhonesConfig:
    _check_keys(data, "phones", PHONES_KEYS, m)
    enabled = m.check(_yes_no, data.get("enabled", False), "phones.enabled", default=False)
    port = m.check(count, data.get("port", PHONES_PORT), "phones.port", low=1024, high=65535,
                   default=PHONES_PORT)
    listen = m.check(_address, data.get("listen", "0.0.0.0"), "phones.listen",
                     default="0.0.0.0")
    address = (m.check(_address, data["address"], "phones.address")
               if data.get("address") is not None else None)
    return PhonesConfig(bool(enabled), port, listen, address)
