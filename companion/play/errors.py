"""The one refusal every rule and validator raises, and what refusals share: the words
of their messages (``counted``, ``listed``, ``Words``) and the two checks of a number that
engines and adapters make of what they are given (``whole_number``; ``count``, not below 0)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Self


class RuleError(ValueError):
    """An action or input the rules refuse.

    ``field`` is the dotted path of what is wrong (``cards.Ben.9``, ``turns.3``), ``message``
    says why in words a player understands (``10 Merchants, but the deck has 9``): the
    English the commands print.

    ``code`` (optional) names the refusal for a translation (the screens show the catalog's
    ``refusal.<code>`` filled with ``params``, in the table's language); ``params`` holds
    plain values: player names, numbers, card kinds as the engine names them, and
    ``Words`` where the param is words of ours rather than a value.
    """

    def __init__(
        self,
        field: str,
        message: str,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message
        self.code = code
        self.params = dict(params or {})


def counted(n: int, one: str, other: str) -> str:
    """A count and its word for the English messages: "1 player", "0 players", "2 players"."""
    return f"{n} {one if n == 1 else other}"


def listed(names: Iterable[str], last_joined_by: str = "and") -> str:
    """Names as a sentence lists them: "Ana", "Ana and Ben", "Ana, Ben and Cleo" (the
    catalogs give the word for other languages)."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last_joined_by} {names[-1]}"


class Words(str):
    """A refusal's param that is words of ours ("a list", " (did you mean 'red'?)"), not a
    value the file or a player wrote: the English as a string, for the commands' message,
    and the catalog text ``refusal.word.<key>`` (filled with ``params``) a screen shows
    instead, so no English stays inside a French refusal."""

    key: str
    params: dict[str, object]

    def __new__(cls, english: str, key: str, **params: object) -> Self:
        self = super().__new__(cls, english)
        self.key = key
        self.params = params
        return self


def whole_number(value: object, field: str) -> int:
    """``value`` if it is a whole number (not a yes/no), else the refusal naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(field, f"expected a whole number, got {value!r}",
                        code="not_a_whole_number", params={"value": repr(value)})
    return value


def count(value: object, field: str) -> int:
    """A whole number not below 0."""
    n = whole_number(value, field)
    if n < 0:
        raise RuleError(field, f"{n} is below the minimum 0",
                        code="below_minimum", params={"value": n, "low": 0})
    return n
