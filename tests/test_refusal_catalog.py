"""Koryŏ and Chosŏn refusals are translatable (issue #3: EN and FR): every ``RuleError`` the
two engines raise carries a stable ``code`` whose ``refusal.<code>`` text exists in both
catalogs and asks only for the ``params`` the raise site gives (found by scanning the
engines' source with ``ast``, so a new raise without a code or a text fails here)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion.engine
from companion.engine.errors import RuleError
from companion.i18n import LANGUAGES, load_catalog, placeholders

ENGINE_DIR = Path(companion.engine.__file__).resolve().parent
ENGINES = ("koryo.py", "choson.py")


def raise_sites(path: Path) -> list[tuple[int, dict[str, ast.expr]]]:
    """Every ``RuleError(...)`` call of ``path``: its line and keyword arguments."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, {k.arg: k.value for k in node.keywords if k.arg})
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError"
    ]


def codes_of(expr: ast.expr) -> list[str]:
    """The codes a ``code=`` expression can take: a string, or ``"a" if … else "b"``."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, ast.IfExp):
        return codes_of(expr.body) + codes_of(expr.orelse)
    raise AssertionError(f"line {expr.lineno}: code is not a string constant")


def param_names(expr: ast.expr | None) -> set[str]:
    if expr is None:
        return set()
    assert isinstance(expr, ast.Dict), f"line {expr.lineno}: params is not a dict literal"
    return {k.value for k in expr.keys if isinstance(k, ast.Constant)}


def all_sites() -> list[tuple[str, int, str, set[str]]]:
    out = []
    for name in ENGINES:
        for line, kw in raise_sites(ENGINE_DIR / name):
            assert "code" in kw, f"{name}:{line}: RuleError without a code"
            for code in codes_of(kw["code"]):
                out.append((name, line, code, param_names(kw.get("params"))))
    return out


SITES = all_sites()


def test_the_scan_finds_the_raise_sites_of_both_engines():
    """The scan is not vacuous: dozens of sites, both engines, the codes the screens meet."""
    assert len(SITES) > 60
    assert {name for name, *_ in SITES} == set(ENGINES)
    codes = {code for _, _, code, _ in SITES}
    assert {"order_identical", "order_ship_owner", "over_limit", "not_a_combination",
            "over_limit_characters", "deck", "dealt_player", "dealt"} <= codes


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_refusal_code_has_a_text_with_only_its_params(language):
    texts = load_catalog(language).texts
    missing = [f"{n}:{line} {code}" for n, line, code, _ in SITES
               if f"refusal.{code}" not in texts]
    assert missing == []
    unfilled = [
        f"{n}:{line} {code} needs {sorted(placeholders(texts[f'refusal.{code}']) - params)}"
        for n, line, code, params in SITES
        if not placeholders(texts[f"refusal.{code}"]) <= params
    ]
    assert unfilled == []


def test_effect_params_have_a_name_in_each_language():
    """Chosŏn's ``effect`` param (lobby, firearm, sword) is named from the catalog."""
    from companion.engine import choson

    effects = {e for e in choson.EFFECTS.values() if e}
    for language in LANGUAGES:
        texts = load_catalog(language).texts
        assert {e for e in effects if f"refusal.effect.{e}" not in texts} == set()


def test_code_and_params_leave_the_commands_message_as_it_was():
    """``RuleError(field, message)`` still reads ``field: message``; code and params are
    extra, empty by default."""
    plain = RuleError("cards", "an order is identical cards only")
    coded = RuleError("cards", "an order is identical cards only", code="order_identical",
                      params={"n": 2})
    assert str(plain) == str(coded) == "cards: an order is identical cards only"
    assert (plain.code, plain.params) == (None, {})
    assert (coded.code, coded.params, coded.message) == (
        "order_identical", {"n": 2}, "an order is identical cards only")
