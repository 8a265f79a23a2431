"""The YAML document model and the bounds every read keeps: a ``Document`` (plain data
plus the line of every value), the errors that name file, line and field, and the limits.

A module of its own so that the parser (``yamlparse``) and the reader (``yamlsrc``) both
build on it without importing each other: ``yamlsrc`` imports ``yamlparse`` on the first
parse (PyYAML's import cost), and ``yamlparse`` needs only what is here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from companion.files.safetext import escaped

MAX_BYTES = 1_000_000  # table, configuration and data files are a few kB
MAX_DEPTH = 64  # lists and mappings inside each other
MAX_NODES = 20_000  # values, aliases expanded
MAX_CHARS = 4_000_000  # characters of all scalars, aliases expanded
MAX_INT_DIGITS = 30  # longer integers are not parsed: out of any range a file allows


class SourceError(Exception):
    """A file that can't be used: carries a message ready to print (file, line, field)."""

    @property
    def messages(self) -> list[str]:
        """The mistakes, one line each."""
        return [str(self)]


@dataclass(frozen=True)
class Mistake:
    """One mistake of a file: ``text`` ready to print (``FILE:LINE: field: why``), the
    ``line`` it is on (0: the file as a whole), ``where`` (``FILE:LINE``) and the
    ``refusal`` (a ``RuleError``) it came from when it did, for a screen to say it in its
    language."""

    text: str
    line: int = 0
    where: str = ""
    refusal: Any = None


class SourceErrors(SourceError):
    """Every mistake found in one file, in the order given (a caller sorts them by line)."""

    def __init__(self, mistakes: list[Mistake]) -> None:
        self.mistakes = list(mistakes)
        super().__init__("\n".join(m.text for m in self.mistakes))

    @property
    def messages(self) -> list[str]:
        return [m.text for m in self.mistakes]


class OutOfRange(int):
    """An integer written with more than ``MAX_INT_DIGITS`` digits: its value is a number
    larger than any range allows (with the sign written), its text a short form of what was
    written, so a range check refuses it with a readable message."""

    written: str

    def __new__(cls, written: str) -> Self:
        sign = -1 if written.lstrip().startswith("-") else 1
        self = super().__new__(cls, sign * 10**MAX_INT_DIGITS)
        self.written = written
        return self

    def __repr__(self) -> str:
        return f"{escaped(self.written[:12])}…({digits(self.written)} digits)"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)


def digits(written: str) -> int:
    """How many digits an integer as YAML writes it has (sign, base prefix and _ apart)."""
    text = written.strip().lstrip("+-").lower()
    if text[:2] in ("0x", "0o", "0b"):
        text = text[2:]
    return sum(c.isalnum() for c in text)


@dataclass
class Document:
    """Plain data from one YAML file plus the line of every node, keyed by dotted path."""

    path: str
    data: Any
    lines: dict[str, int] = field(default_factory=dict)

    def line_of(self, dotted: str) -> int | None:
        """The line of ``dotted`` or of its nearest ancestor that has one (1-based)."""
        key = dotted
        while True:
            if key in self.lines:
                return self.lines[key]
            if "." not in key:
                return self.lines.get("")
            key = key.rsplit(".", 1)[0]

    def where(self, dotted: str) -> str:
        line = self.line_of(dotted)
        return f"{self.path}:{line}" if line else self.path

    def error(self, dotted: str, message: str) -> SourceError:
        prefix = f"{escaped(dotted)}: " if dotted else ""
        return SourceError(f"{self.where(dotted)}: {prefix}{message}")

    def mistake(self, refusal: Any) -> Mistake:
        """A ``RuleError`` of this document (its dotted ``field``, its ``message``)."""
        return Mistake(str(self.error(refusal.field, refusal.message)),
                       self.line_of(refusal.field) or 0, self.where(refusal.field), refusal)
