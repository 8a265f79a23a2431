"""Texts shown to players, one YAML catalog per language (``companion/data/i18n/LANG.yaml``,
shipped parsed beside it too: after editing one, ``python -m companion.files.packaged``).

Catalogs are nested mappings; a text is named by its dotted path (``table_check.title``)
and may hold ``{placeholders}`` filled by :meth:`Catalog.text`. Code never holds the
words themselves, so English and French stay complete and equal (``tests/ui/test_ui_i18n.py``).

A word that agrees with a number is written as a *plural form* of that number's
placeholder: ``{count:seat|seats}`` is "seat" when ``count`` takes the singular in the
catalog's language and "seats" otherwise; a form may hold placeholders of its own
(``{left:only {left} is|only {left} are}``). English takes the singular for 1 only,
French for 0 and 1 ("0 place sur 4 a répondu"). A form for none may come first, for a
sentence that reads wrong with a 0 in it ("only 0 remain"):
``{left:none remains|only {left} remains|only {left} remain}``. ``tests/test_i18n_plurals.py`` renders
every text with counts 0, 1 and 2.

French elides where a placeholder's value begins with a vowel: "Tour de {player}" reads
"Tour d'Ana" but "Tour de Ben"; only at a placeholder, the catalog's own words being
written as they are read. A list of names reads as a sentence ("Ana, Ben and Cleo"):
:meth:`Catalog.names`.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path

from companion.files.yamlsrc import Document, SourceError, load, load_shipped
from companion.play.errors import RuleError, Words, listed

CATALOG_DIR = Path(__file__).resolve().parent / "data" / "i18n"
LANGUAGES = ("en", "fr")


def _flatten(data: object, prefix: str, out: dict[str, str], doc_error) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            _flatten(value, f"{prefix}.{key}" if prefix else str(key), out, doc_error)
    elif isinstance(data, str):
        out[prefix] = data
    else:
        raise doc_error(prefix, f"expected a text or a mapping of texts, got {data!r}")


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a text expects, those inside plural forms included."""
    names: set[str] = set()
    for _, name, spec, _ in string.Formatter().parse(text):
        if name:
            names.add(name)
        if spec:
            names |= placeholders(spec)
    return names


def singular(language: str, n: int) -> bool:
    """Whether the count ``n`` takes the singular in ``language`` (CLDR's "one")."""
    if language == "fr":
        return abs(n) < 2
    return abs(n) == 1


# A French word that drops its vowel before one ("de Ana" → "d'Ana"); "y" is left out for
# names such as Yi, read with a consonant, and so are "oui" and "onze" (« le Oui-da »).
_ELIDABLE = re.compile(r"(?:^|(?<=[\s(«]))(de|que|le|la|ne|se|jusque|lorsque|puisque) $",
                       re.IGNORECASE)
_VOWEL = re.compile(r"(?!oui|onz)[aeiouàâäéèêëîïôöùûüœæ]", re.IGNORECASE)


def elide(before: str, value: str) -> str:
    """``before`` followed by ``value``, an elidable French word at the end of ``before``
    elided when ``value`` begins with a vowel."""
    m = _ELIDABLE.search(before)
    if m and _VOWEL.match(value):
        return before[:m.start(1)] + m.group(1)[:-1] + "'" + value
    return before + value


class _Formatter(string.Formatter):
    """``str.format`` plus plural forms: a format spec ``one|other`` (or ``zero|one|other``)
    on a whole number picks the form its language's rule asks for (the zero form for 0
    when there is one); in French, elision before a placeholder."""

    def __init__(self, language: str) -> None:
        self.language = language

    def vformat(self, format_string: str, args, kwargs) -> str:
        if self.language != "fr":
            return super().vformat(format_string, args, kwargs)
        out = ""
        for literal, name, spec, conversion in self.parse(format_string):
            out += literal
            if name is None:
                continue
            value = self.convert_field(self.get_field(name, args, kwargs)[0], conversion)
            spec = self.vformat(spec, args, kwargs) if spec else ""
            out = elide(out, self.format_field(value, spec))
        return out

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TextError(f"{self.language} catalog: plural form {format_spec!r} needs a "
                                f"whole number, got {value!r}")
            forms = format_spec.split("|")
            if len(forms) == 3 and value == 0:
                return forms[0]
            one, other = forms[-2:]
            return one if singular(self.language, value) else other
        return super().format_field(value, format_spec)


class TextError(KeyError):
    """A text asked for that the catalog lacks, or without one of its placeholders: a bug
    the catalog tests catch (``tests/ui/test_ui_i18n.py``). Its message names the language,
    the key and what is missing."""

    def __str__(self) -> str:
        return str(self.args[0])


class Catalog:
    """The texts of one language."""

    def __init__(self, language: str, texts: dict[str, str]) -> None:
        self.language = language
        self.texts = texts
        self._formatter = _Formatter(language)

    def text(self, key: str, **params: object) -> str:
        """The text named ``key`` with its placeholders filled; a missing key or a missing
        placeholder raises ``TextError`` (a KeyError) saying which."""
        try:
            raw = self.texts[key]
        except KeyError:
            raise TextError(
                f"{self.language} catalog ({catalog_path(self.language).name}): no text {key!r}"
            ) from None
        missing = placeholders(raw) - params.keys()
        if missing:
            names = ", ".join("{" + name + "}" for name in sorted(missing))
            raise TextError(f"{self.language} catalog: text {key!r} needs {names}")
        return self._formatter.vformat(raw, (), params)

    def decimal(self, value: float, digits: int = 1) -> str:
        """A number with ``digits`` decimals as the language writes it ("18.3", "18,3")."""
        return f"{value:.{digits}f}".replace(".", self.text("number.decimal_point"))

    def names(self, names: Iterable[str]) -> str:
        """Names as a sentence of this language lists them: "Ana, Ben and Cleo", « Ana, Ben
        et Cleo » (the last joined by the catalog's ``list.and``)."""
        return listed(names, self.text("list.and"))

    def refusal(
        self, exc: RuleError, words: Mapping[str, Callable[[object], str]] | None = None
    ) -> str:
        """A refusal of the rules in this language: the text ``refusal.<code>`` filled with
        the refusal's params, a param named in ``words`` first put into words by its function
        (a card kind, a vote side), a tuple of names listed as a sentence lists them; the
        English message only for a refusal without a text."""
        key = f"refusal.{exc.code}"
        if exc.code is None or key not in self.texts:
            return exc.message
        words = words or {}
        params = {k: words[k](v) if k in words else self._param(v)
                  for k, v in exc.params.items()}
        return self.text(key, **params)

    def _param(self, value: object) -> object:
        """A refusal's param as this language says it: ``Words`` from the catalog, a refusal
        in its own text, a tuple of names as a sentence lists them."""
        if isinstance(value, Words):
            return self.text(f"refusal.word.{value.key}", **value.params)
        if isinstance(value, RuleError):  # a refusal inside another (a profile's, in the config)
            return self.refusal(value)
        if isinstance(value, tuple):
            return self.names(value)
        return value


def catalog_path(language: str) -> Path:
    return CATALOG_DIR / f"{language}.yaml"


def _texts(doc: Document) -> dict[str, str]:
    texts: dict[str, str] = {}
    if not isinstance(doc.data, dict):
        raise doc.error("", "expected a mapping of texts")
    _flatten(doc.data, "", texts, doc.error)
    return texts


@cache
def _shipped_texts(language: str) -> dict[str, str]:
    """A shipped catalog, read once per process with the fastest YAML loader present."""
    path = catalog_path(language)
    try:
        return _texts(Document(str(path), load_shipped(path)))
    except SourceError:
        return _texts(load(path))  # the same mistake again, now with its line


def load_catalog(language: str, path: Path | None = None) -> Catalog:
    """Read the catalog of ``language`` (the shipped one, or the file ``path``); a
    malformed file is a ``SourceError``."""
    if path is not None:
        return Catalog(language, _texts(load(path)))
    if language not in LANGUAGES:
        raise SourceError(f"language {language!r}: one of {', '.join(LANGUAGES)}")
    return Catalog(language, dict(_shipped_texts(language)))
