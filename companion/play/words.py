"""A sentence a controller hands its screen as data: the catalog key and its values,
said in the table's language only by the screen: Koryŏ's and Chosŏn's controller and the
winner plates of every game (the King's Dilemma's are ``kd_say.Say`` pairs)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Seat:
    """A seat named in a sentence (one that may not play, such as a watching seat that
    pressed): the screen names it as the table's configuration does."""

    seat: int


@dataclass(frozen=True)
class Words:
    """A sentence as data: its catalog key and params; a param that is a ``majority.Kind`` is named
    in the screen's language, a ``Seat`` by its configured name, a ``RuleError`` as the
    screen says a refusal, one that is ``Words`` is said first."""

    key: str
    params: dict = field(default_factory=dict)
