"""Validation helpers for everything read from YAML: the configuration, the wiring
profiles, the King's Dilemma data and the table files. Each raises ``RuleError`` with the
dotted field, which the caller turns into ``FILE:LINE: field: message``."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any, TypeVar

from companion.files.safetext import shown
from companion.files.yamlsrc import Document, OutOfRange, SourceErrors
from companion.play.errors import RuleError, Words, counted

T = TypeVar("T")

# The longest player name, in characters (after NFC): the one bound every screen, the
# report and the BG Stats QR code are drawn and tested at. A seat plate shows about 12.
NAME_MAX = 24
# Unicode categories no name may hold: controls (NUL, ESC, BEL…), surrogates (a lone
# "\ud800" can't even be written as UTF-8), private use, unassigned, format characters
# (bidirectional overrides) and line or paragraph separators. A joiner (U+200C, U+200D)
# is kept: emoji sequences and some scripts need it.
_NOT_IN_NAMES = {"Cc", "Cs", "Co", "Cn", "Cf", "Zl", "Zp"}
_JOINERS = "\u200c\u200d"


def check_player_name(value: Any, path: str) -> str:
    """A player's name, the one check of every name read (configuration seats, table
    files, imports, games recorded): text with something in it, no control or format
    character, at most ``NAME_MAX`` characters once NFC-normalised; returned normalised
    and stripped, so "é" typed as one character or as e + ◌́ is the same player."""
    if not isinstance(value, str) or not value.strip():
        raise RuleError(path, f"expected a player name, got {describe(value)}",
                        code="player_name", params={"got": describe(value)})
    for ch in value:
        if ch not in _JOINERS and unicodedata.category(ch) in _NOT_IN_NAMES:
            raise RuleError(path, f"{shown(value)} holds a control character",
                            code="control_character", params={"value": shown(value)})
    name = unicodedata.normalize("NFC", value).strip()
    if len(name) > NAME_MAX:
        raise RuleError(path, f"{shown(name)} is longer than {NAME_MAX} characters",
                        code="name_too_long", params={"value": shown(name), "max": NAME_MAX})
    return name


def ascii_whole(text: str, max_digits: int) -> int | None:
    """The value of ``text`` if it is 1 to ``max_digits`` ASCII digits (spaces around
    allowed), else None: the one way an amount or a count typed as text is read. Not
    ``str.isdigit`` then ``int``: those take "²", "١" or "１", and ``int`` of 5,000
    digits raises; the length is bounded before any conversion."""
    text = text.strip()
    if not 1 <= len(text) <= max_digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)


NUMBER_DIGITS = 9  # a count typed on the command line (games, seats): under a billion


def count_argument(text: str) -> int:
    """A whole number ≥ 1 given on the command line (``export --last``, ``run --seats``):
    ASCII digits only, bounded before conversion; a refusal quotes the text short (an
    ``argparse`` type: its error is "argument --last: expected …", exit 2)."""
    import argparse

    value = ascii_whole(text, NUMBER_DIGITS)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ 1, got {shown(text)}")
    return value


def same_name(value: Any) -> Any:
    """``value`` as ``check_player_name`` keeps names (NFC), to compare with one: a key
    or a reference to a player written in another normal form is the same player."""
    return unicodedata.normalize("NFC", value).strip() if isinstance(value, str) else value


class Mistakes:
    """The mistakes found so far: each field is checked on its own, so one bad value does
    not hide the next."""

    def __init__(self) -> None:
        self.errors: list[RuleError] = []

    def check(self, check: Callable[..., T], *args: Any, default: Any = None, **kw: Any) -> T:
        """``check(*args, **kw)``, or ``default`` after noting the RuleError it raised."""
        try:
            return check(*args, **kw)
        except RuleError as exc:
            self.errors.append(exc)
            return default

    def raise_found(self, doc: Document) -> None:
        """Every mistake noted, in the order of their lines, as one ``SourceErrors``
        (``FILE:LINE: field: message`` each); nothing when there is none."""
        if self.errors:
            raise SourceErrors(sorted(map(doc.mistake, self.errors), key=lambda m: m.line))


def join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def mapping(value: Any, path: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RuleError(path, f"expected a mapping, got {describe(value)}",
                        code="expected_mapping_got", params={"got": describe(value)})
    return value


def check_keys(data: dict, path: str, required: set[str], optional: set[str] = frozenset(),
               mistakes: Mistakes | None = None) -> None:
    """Unknown keys are errors (a typo must not be ignored); missing required keys too. The
    first is raised; with ``mistakes``, each is noted there instead."""
    found = []
    for key in data:
        if key not in required and key not in optional:
            allowed = ", ".join(sorted(map(str, required | set(optional))))
            found.append(RuleError(join(path, key), f"unknown key (allowed: {allowed})",
                                   code="unknown_key", params={"allowed": allowed}))
    found += [RuleError(join(path, key), "missing", code="missing")
              for key in sorted(required) if key not in data]
    if found and mistakes is None:
        raise found[0]
    if mistakes is not None:
        mistakes.errors += found


def describe(value: Any) -> str:
    """What a file holds where something else was expected: the value as written, or what
    kind of thing it is (words the catalogs translate)."""
    if value is None:
        return Words("nothing", "nothing")
    if isinstance(value, bool):
        return Words(f"{value!r} (a yes/no)", "yes_no", value=repr(value))
    if isinstance(value, dict):
        return Words("a mapping", "mapping")
    if isinstance(value, list):
        return Words("a list", "list")
    return shown(value)


def count(value: Any, path: str, *, low: int = 0, high: int | None = None) -> int:
    """A whole number within bounds (counts are non-negative by default)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(path, f"expected a whole number, got {describe(value)}",
                        code="not_a_whole_number", params={"value": describe(value)})
    if isinstance(value, OutOfRange):
        raise RuleError(path, f"{value} is out of range",
                        code="out_of_range", params={"value": str(value)})
    if value < low:
        raise RuleError(path, f"{value} is below the minimum {low}",
                        code="below_minimum", params={"value": value, "low": low})
    if high is not None and value > high:
        raise RuleError(path, f"{value} is above the maximum {high}",
                        code="above_maximum", params={"value": value, "high": high})
    return value


def integer(value: Any, path: str) -> int:
    """A whole number; one written with too many digits for any game (``OutOfRange``) is
    refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(path, f"expected a whole number, got {describe(value)}",
                        code="not_a_whole_number", params={"value": describe(value)})
    if isinstance(value, OutOfRange):
        raise RuleError(path, f"{value} is out of range",
                        code="out_of_range", params={"value": str(value)})
    return value


def players(value: Any, path: str, low: int, high: int) -> list[str]:
    """The seating order: distinct names, between ``low`` and ``high`` of them."""
    if not isinstance(value, list):
        raise RuleError(path, f"expected a list of player names, got {describe(value)}",
                        code="player_names_got", params={"got": describe(value)})
    names: list[str] = []
    seated: set[str] = set()
    for i, written in enumerate(value):
        name = check_player_name(written, join(path, i))
        if name in seated:
            raise RuleError(join(path, i), f"{name} is seated twice",
                            code="name_seated_twice", params={"player": name})
        names.append(name)
        seated.add(name)
    if not low <= len(names) <= high:
        raise RuleError(path,
                        f"{counted(len(names), 'player', 'players')}, but the game takes {low}–{high}",
                        code="player_count", params={"n": len(names), "low": low, "high": high})
    return names


def per_player(value: Any, path: str, names: list[str]) -> dict[str, Any]:
    """An optional block keyed by player (keys as ``players`` keeps names, NFC): a name
    not in ``players`` is an error."""
    block = mapping(value, path)
    out = {}
    for key, item in block.items():
        if same_name(key) in out:
            raise RuleError(join(path, key), f"{shown(key)} is given twice",
                            code="given_twice", params={"name": shown(key)})
        if same_name(key) not in names:
            raise RuleError(join(path, key), f"{key} is not one of the players "
                            f"({', '.join(names)})",
                            code="not_one_of_players",
                            params={"player": key, "names": ", ".join(names)})
        out[same_name(key)] = item
    return out


def player_name(value: Any, path: str, names: list[str]) -> str:
    value = same_name(value)
    if value not in names:
        raise RuleError(path, f"{describe(value)} is not one of the players ({', '.join(names)})",
                        code="not_one_of_players",
                        params={"player": describe(value), "names": ", ".join(names)})
    return value
