"""A sentence a controller hands its screen as data: the catalog key and its values,
said in the table's language only by the screen: every game's controller (the King's
Dilemma's through ``kd_say``), the seats' plates and phones, the winner plates.

A refusal stays a ``RuleError`` (``companion.play.errors``): an exception that carries the
English the headless commands print beside its catalog code; a ``Words`` may hold one as a
param, said as the screen says a refusal."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Seat:
    """A seat named in a sentence (one that may not play, such as a watching seat that
    pressed): the screen names it as the table's configuration does."""

    seat: int


@dataclass(frozen=True)
class Names:
    """Players named in a sentence as its language lists them ("Ana, Ben and Cleo")."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class Words:
    """A sentence as data: its catalog key and params; a param that is a ``majority.Kind`` is named
    in the screen's language, a ``Seat`` by its configured name, ``Names`` as the language
    lists names, a ``RuleError`` as the screen says a refusal, one that is ``Words`` is
    said first, a tuple as its items said one after the other."""

    key: str
    params: dict = field(default_factory=dict)


def words_text(catalog, seats, words: Words, value=lambda v: v) -> str:
    """``words`` in ``catalog``'s language: a ``Seat`` named as ``seats`` (the
    configuration's) name it, ``Names`` as the catalog lists names, a ``Words`` param said
    first, a tuple of them said one after the other (" · " between), any other param
    through ``value`` (a screen's own kinds)."""

    def said(v: object) -> object:
        if isinstance(v, Words):
            return words_text(catalog, seats, v, value)
        if isinstance(v, tuple):
            return " · ".join(str(said(x)) for x in v)
        if isinstance(v, Seat):
            return seats[v.seat].name
        if isinstance(v, Names):
            return catalog.names(v.names)
        return value(v)

    return catalog.text(words.key, **{k: said(v) for k, v in words.params.items()})
