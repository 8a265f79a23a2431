"""Every refusal is translatable: each ``RuleError`` raised anywhere in the package (engines,
session, game adapters, table files, configuration) carries a stable ``code`` whose
``refusal.<code>`` text exists in every catalog and asks only for the ``params`` the raise
site gives. Found by scanning the source with ``ast``, so a new raise without a code or
without a text fails here, naming its file and line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion
from companion.i18n import LANGUAGES, load_catalog, placeholders
from companion.play.errors import RuleError

PACKAGE = Path(companion.__file__).resolve().parent
FORWARDED = "forwarded"  # RuleError(field, exc.message, exc.code, exc.params): already coded


def raise_sites(path: Path) -> list[tuple[int, ast.expr | None, ast.expr | None]]:
    """Every ``RuleError(...)`` call of ``path``: its line, its code and params expressions
    (keyword or third/fourth positional argument)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError":
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            code = kw.get("code", node.args[2] if len(node.args) > 2 else None)
            params = kw.get("params", node.args[3] if len(node.args) > 3 else None)
            out.append((node.lineno, code, params))
    return out


def codes_of(expr: ast.expr) -> list[str]:
    """The codes a ``code`` expression can take: a string, ``"a" if … else "b"``, a literal
    ``{…: "a", …: "b"}[key]``, or ``exc.code`` passing on a caught refusal's code."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, ast.IfExp):
        return codes_of(expr.body) + codes_of(expr.orelse)
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Dict):
        return [c for v in expr.value.values for c in codes_of(v)]
    if isinstance(expr, ast.Attribute) and expr.attr == "code":
        return [FORWARDED]
    raise AssertionError(f"line {expr.lineno}: code is not a string constant")


def param_names(expr: ast.expr | None) -> set[str] | None:
    """The names a ``params`` dict literal gives; None for forwarded ``exc.params``."""
    if expr is None:
        return set()
    if isinstance(expr, ast.Attribute) and expr.attr == "params":
        return None
    assert isinstance(expr, ast.Dict), f"line {expr.lineno}: params is not a dict literal"
    return {k.value for k in expr.keys if isinstance(k, ast.Constant)}


def scan() -> tuple[list[str], list[tuple[str, int, str, set[str] | None]]]:
    """(raise sites without a code, every coded site as (file, line, code, params))."""
    uncoded, sites = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = str(path.relative_to(PACKAGE.parent))
        for line, code, params in raise_sites(path):
            if code is None:
                uncoded.append(f"{name}:{line}")
                continue
            for c in codes_of(code):
                sites.append((name, line, c, param_names(params)))
    return uncoded, sites


UNCODED, SITES = scan()


def test_the_scan_finds_raise_sites_everywhere():
    """The scan is not vacuous: hundreds of sites, in the engines, the session, the game
    adapters and the table files, with the codes the screens meet."""
    assert len(SITES) > 300
    files = {name for name, *_ in SITES}
    assert {"companion/play/session.py", "companion/games/majority/rules.py", "companion/games/kings_dilemma/vote.py",
            "companion/games/koryo/rules.py", "companion/games/choson/rules.py",
            "companion/games/kings_dilemma/adapter.py", "companion/games/majority/adapter.py"} <= files
    codes = {code for _, _, code, _ in SITES}
    assert {"order_identical", "not_a_combination", "deck", "time_travel_first",
            "public_and_private", "ballot_locked", "not_your_turn", "waits_tie_break"} <= codes


def test_every_rule_error_has_a_code():
    assert UNCODED == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_code_has_a_text_with_only_its_params(language):
    texts = load_catalog(language).texts
    coded = [s for s in SITES if s[2] != FORWARDED]
    missing = sorted({f"{code} ({n}:{line})" for n, line, code, _ in coded
                      if f"refusal.{code}" not in texts})
    assert missing == []
    unfilled = [
        f"{n}:{line} {code} needs {sorted(placeholders(texts[f'refusal.{code}']) - params)}"
        for n, line, code, params in coded
        if params is not None and not placeholders(texts[f"refusal.{code}"]) <= params
    ]
    assert unfilled == []


def test_effect_params_have_a_name_in_each_language():
    """Chosŏn's ``effect`` param (lobby, firearm, sword) is named from the catalog."""
    from companion.games.choson import rules as choson

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
