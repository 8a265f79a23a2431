"""Texts shown to players, one YAML catalog per language (``companion/data/i18n/LANG.yaml``).

Catalogs are nested mappings; a text is named by its dotted path (``table_check.title``)
and may hold ``{placeholders}`` filled by :meth:`Catalog.text`. Code never holds the
words themselves, so English and French stay complete and equal (``tests/test_ui_i18n.py``).
"""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path

from companion.yamlsrc import Document, SourceError, load, load_shipped

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
    """The ``{names}`` a text expects."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class TextError(KeyError):
    """A text asked for that the catalog lacks, or without one of its placeholders: a bug
    the catalog tests catch (``tests/test_ui_i18n.py``). Its message names the language,
    the key and what is missing."""

    def __str__(self) -> str:
        return str(self.args[0])


class Catalog:
    """The texts of one language."""

    def __init__(self, language: str, texts: dict[str, str]) -> None:
        self.language = language
        self.texts = texts

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
        return raw.format(**params)


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
