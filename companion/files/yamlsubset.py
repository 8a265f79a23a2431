"""A reader for the narrow YAML the configuration is written in, so that a start without
its kept copy (a first boot, an edited config.yaml) need not import PyYAML before the
first frame (start-up: about 11 ms of CPU, more on a Pi).

It accepts only what it can read exactly as PyYAML's safe loader does (YAML 1.1), and
answers None for anything else, which ``yamlsrc.parse`` then hands to PyYAML: so every
error message (with its line) and every unusual value still comes from PyYAML.
``tests/files/test_yamlsubset.py`` checks with hypothesis that whatever it accepts gives
PyYAML's data and line index exactly.

Accepted, in printable ASCII only: comment lines and blank lines; block mappings
(``key: value`` or ``key:`` followed by a more indented block) in spaces; block sequences
(``- item``) more indented than their key; one-line flow mappings ``{k: v, k: v}`` as
sequence items; keys and values that are plain words (a letter first, then letters,
digits, ``_`` or ``-``) other than YAML 1.1's booleans and nulls (``yes``, ``Off``,
``null``...), the booleans themselves, and decimal integers without a leading zero; a
comment after a value (``# ...``, after a space). Not accepted (PyYAML reads them):
quotes, anchors, tags, multi-line values, empty values, ``key: value`` without a space
after the colon, a key given twice, floats, dates, paths, addresses.
"""

from __future__ import annotations

import re
from typing import Any

from companion.files.yamldoc import Document

# YAML 1.1's implicit booleans and nulls, as PyYAML (6.0) resolves them: yaml/resolver.py's
# implicit resolvers for tag:yaml.org,2002:bool (yes/no/true/false/on/off, each lower,
# Capitalised or UPPER; not y/n) and tag:yaml.org,2002:null (~, null, Null, NULL, empty).
_BOOLS = {
    word: value
    for value, words in ((True, ("yes", "true", "on")), (False, ("no", "false", "off")))
    for base in words
    for word in (base, base.capitalize(), base.upper())
}
_NULLS = frozenset({"null", "Null", "NULL"})
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_INT = re.compile(r"(?:0|[1-9][0-9]{0,17})\Z")  # far inside MAX_INT_DIGITS, no "0_1" forms
_LINE = re.compile(r"( *)(- )?([^:]*?)(?::(?: (.*)|)|)\Z")
# A configuration is a few dozen lines: a longer or deeper file is PyYAML's to read (and
# to bound: yamldoc's MAX_NODES and MAX_DEPTH are far above these).
_MAX_CHARS = 20_000
_MAX_DEPTH = 16


class _Other(Exception):
    """Not within the subset: PyYAML reads the file."""


def _scalar(text: str) -> Any:
    if text in _BOOLS:
        return _BOOLS[text]
    if _INT.match(text):
        return int(text)
    if _WORD.match(text) and text not in _NULLS:
        return text
    raise _Other


def _key(text: str) -> str:
    if _WORD.match(text) and text not in _BOOLS and text not in _NULLS:
        return text
    raise _Other


def _value(text: str) -> str:
    """A value with its trailing comment removed (``#`` after a space only)."""
    cut = text.find(" #")
    value = (text if cut < 0 else text[:cut]).rstrip(" ")
    if not value or "#" in value:
        raise _Other
    return value


def _flow(text: str, path: str, line: int, lines: dict[str, int]) -> dict:
    """``{k: v, k: v}`` on one line."""
    if not (text.startswith("{") and text.endswith("}")):
        return _scalar(text)
    inner = text[1:-1].strip(" ")
    mapping: dict = {}
    if not inner:
        raise _Other
    for entry in inner.split(","):
        key, sep, value = entry.strip(" ").partition(": ")
        if not sep:
            raise _Other
        key, value = _key(key), value.strip(" ")
        if key in mapping:
            raise _Other
        mapping[key] = _scalar(value)
        lines[_child(path, key)] = line
    return mapping


def read(text: str, path: str = "<string>") -> Document | None:
    """The document of ``text`` exactly as PyYAML gives it, or None when ``text`` is not
    within the subset (then PyYAML reads it)."""
    if not text.isascii() or "\t" in text or "\r" in text or len(text) > _MAX_CHARS:
        return None
    rows: list[tuple[int, int, bool, str, str | None]] = []  # line, indent, dash, key, value
    for number, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.strip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        if not raw.isprintable():
            return None
        match = _LINE.match(raw.rstrip(" "))
        if match is None:
            return None
        indent, dash, key, value = match.groups()
        if dash:  # "- item": the item whole in ``key`` (a flow mapping has colons)
            item = raw.rstrip(" ")[len(indent) + 2:]
            rows.append((number, len(indent), True, "", item))
        elif raw.rstrip(" ").endswith(":") and value is None and ": " not in raw:
            rows.append((number, len(indent), False, key, None))
        elif value is not None:
            rows.append((number, len(indent), False, key, value))
        else:
            return None
    if not rows:
        return None
    lines: dict[str, int] = {"": rows[0][0]}
    try:
        data, end = _block(rows, 0, rows[0][1], "", lines, 1)
    except _Other:
        return None
    if end != len(rows):
        return None
    return Document(path=path, data=data, lines=lines)


def _child(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _block(rows: list, at: int, indent: int, path: str, lines: dict[str, int],
           depth: int) -> tuple[Any, int]:
    """The block mapping or sequence whose rows start at ``at``, all at ``indent``."""
    if depth > _MAX_DEPTH:
        raise _Other
    if rows[at][2]:
        items: list = []
        while at < len(rows) and rows[at][1] == indent:
            number, _, dash, _, item = rows[at]
            if not dash:
                raise _Other
            child = _child(path, len(items))
            lines[child] = number
            items.append(_flow(_value(item), child, number, lines)
                         if item.startswith("{") else _scalar(_value(item)))
            at += 1
        if at < len(rows) and rows[at][1] > indent:
            raise _Other
        return items, at
    mapping: dict = {}
    while at < len(rows) and rows[at][1] == indent:
        number, _, dash, key, value = rows[at]
        if dash:
            raise _Other
        key = _key(key)
        if key in mapping:
            raise _Other
        child = _child(path, key)
        at += 1
        if value is None:  # a block below, more indented
            if at == len(rows) or rows[at][1] <= indent:
                raise _Other
            mapping[key], at = _block(rows, at, rows[at][1], child, lines, depth + 1)
        else:
            if value.startswith("{"):
                raise _Other
            mapping[key] = _scalar(_value(value))
        lines[child] = number
    if at < len(rows) and rows[at][1] > indent:
        raise _Other
    return mapping, at
