"""EN/FR texts from catalogs, never from code.

The two catalogs hold the same keys with the same ``{placeholders}``; asking for a text
that is missing, or without one of its placeholders, is a clear error; every key the UI
code asks for exists in both; and the UI code hands no word of its own to anything that
draws text (scanned with ``ast`` over ``companion/ui/**/*.py``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import companion.ui
from companion.files.yamlsrc import SourceError
from companion.hardware.sim import BUTTONS
from companion.i18n import (
    LANGUAGES,
    Catalog,
    TextError,
    catalog_path,
    load_catalog,
    placeholders,
)
from companion.play.seat import Light

UI_DIR = Path(companion.ui.__file__).resolve().parent
UI_FILES = sorted(UI_DIR.rglob("*.py"))
LETTERS = re.compile(r"[^\W\d_]{2,}")  # a word: two letters or more


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Catalog]:
    return {language: load_catalog(language) for language in LANGUAGES}


def test_catalogs_have_the_same_keys(catalogs):
    en, fr = catalogs["en"].texts, catalogs["fr"].texts
    assert sorted(en.keys() - fr.keys()) == [], "in en.yaml only"
    assert sorted(fr.keys() - en.keys()) == [], "in fr.yaml only"


def test_catalogs_have_the_same_placeholders(catalogs):
    en, fr = catalogs["en"].texts, catalogs["fr"].texts
    differ = {
        key: (placeholders(en[key]), placeholders(fr[key]))
        for key in en.keys() & fr.keys()
        if placeholders(en[key]) != placeholders(fr[key])
    }
    assert differ == {}


def test_no_catalog_text_is_empty(catalogs):
    empty = [(lang, k) for lang, c in catalogs.items() for k, v in c.texts.items() if not v.strip()]
    assert empty == []


def test_missing_key_is_a_clear_error(catalogs):
    """A key no catalog has: the error names the language and the key."""
    with pytest.raises(TextError, match=r"fr catalog .*no text 'table_check\.nope'"):
        catalogs["fr"].text("table_check.nope")


def test_missing_placeholder_is_a_clear_error(catalogs):
    """A text asked for without one of its placeholders names the key and the placeholder
    (instead of showing "{count} of {total}" to the table)."""
    with pytest.raises(TextError, match=r"'table_check\.answered' needs \{count\}"):
        catalogs["en"].text("table_check.answered", total=4)
    assert catalogs["en"].text("table_check.answered", count=1, total=4) == "1 of 4 seats answered"


def test_unknown_language_and_malformed_catalog_are_source_errors(tmp_path):
    with pytest.raises(SourceError, match="language 'de'"):
        load_catalog("de")
    bad = tmp_path / "xx.yaml"
    bad.write_text("app:\n  name: Fine\n  seats: 4\n", encoding="utf-8")
    with pytest.raises(SourceError, match=r"xx\.yaml:3: app\.seats: expected a text"):
        load_catalog("xx", bad)


def test_shipped_catalogs_read_fast_equal_the_strict_reading(catalogs):
    """The kiosk reads its catalogs in one pass of libyaml (no line index, no check for a
    key given twice); the strict reading, which names the line of any mistake, must find
    the very same texts."""
    for language in LANGUAGES:
        assert catalogs[language].texts == load_catalog(language, catalog_path(language)).texts


def test_every_light_state_and_pad_button_has_a_text(catalogs):
    """Screens name lights and buttons through ``light.<state>`` and ``pad_button.<b>``."""
    for catalog in catalogs.values():
        for light in Light:
            assert catalog.text(f"light.{light.value}")
        for button in BUTTONS:
            assert catalog.text(f"pad_button.{button}")


# --- the UI code --------------------------------------------------------------------------


def _calls(tree: ast.AST):
    return (node for node in ast.walk(tree) if isinstance(node, ast.Call))


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _is_catalog_lookup(call: ast.Call) -> bool:
    """``catalog.text("key", ...)`` or its local alias ``t("key", ...)``: one positional."""
    return _name(call.func) in ("text", "t") and len(call.args) == 1


def catalog_keys_used() -> dict[str, list[str]]:
    """Every literal key the UI code looks up -> where."""
    used: dict[str, list[str]] = {}
    for path in UI_FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _calls(tree):
            if _is_catalog_lookup(call):
                arg = call.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    where = f"{path.relative_to(UI_DIR)}:{call.lineno}"
                    used.setdefault(arg.value, []).append(where)
    return used


def test_the_scan_finds_the_table_check_keys():
    """The scan below proves something only if it sees the keys in use."""
    used = catalog_keys_used()
    assert {"table_check.title", "table_check.prompt", "seat.missing"} <= used.keys()


def test_every_key_the_ui_uses_exists_in_both_catalogs(catalogs):
    used = catalog_keys_used()
    missing = {
        (lang, key, tuple(where))
        for key, where in used.items()
        for lang, catalog in catalogs.items()
        if key not in catalog.texts
    }
    assert missing == set()


def _words(node: ast.expr) -> str | None:
    """The literal words in an expression handed to a text-drawing call, if any."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if LETTERS.search(node.value) else None
    if isinstance(node, ast.JoinedStr):
        parts = "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
        return parts if LETTERS.search(parts) else None
    if isinstance(node, ast.BinOp):
        return _words(node.left) or _words(node.right)
    return None


def literal_texts_drawn(source: str) -> list[tuple[int, str]]:
    """(line, words) for each string literal the code hands to something that shows text:
    ``painter.text(TEXT, font, colour, box)``, ``font.render(TEXT, ...)``,
    ``Button(rect, LABEL, on_tap)`` and ``painter.lines(WORDS, ...)``."""
    found = []
    for call in _calls(ast.parse(source)):
        name = _name(call.func)
        shown: ast.expr | None = None
        painter_text = name == "text" and len(call.args) >= 3  # not a catalog lookup
        if painter_text or (name in ("render", "lines") and call.args):
            shown = call.args[0]
        elif name == "Button" and len(call.args) >= 2:
            shown = call.args[1]
        words = _words(shown) if shown is not None else None
        if words:
            found.append((call.lineno, words))
    return found


def test_the_literal_scan_catches_words_in_code():
    """The detector itself: words drawn straight from code are found, catalog texts are not."""
    source = (
        "p.text('Game over', font, INK, box)\n"
        "font.render(f'{n} players left', True, INK)\n"
        "Button(rect, 'Undo', undo)\n"
        "p.text(t('kd.title'), font, INK, box)\n"
        "p.text(f\"{t('notice.fallback')}: {notice}\", font, INK, box)\n"
    )
    assert literal_texts_drawn(source) == [
        (1, "Game over"),
        (2, " players left"),
        (3, "Undo"),
    ]


def test_ui_code_draws_no_words_of_its_own():
    """No string literal with words reaches the screen from ``companion/ui``: all words come
    from the catalogs, so English and French stay complete."""
    found = {
        str(path.relative_to(UI_DIR)): hits
        for path in UI_FILES
        if (hits := literal_texts_drawn(path.read_text(encoding="utf-8")))
    }
    assert found == {}
