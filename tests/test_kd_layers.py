"""The King's Dilemma screens only draw: they import no rules module (``companion.engine``
or the ``companion.games`` adapter); what they show comes through the night's controller
(``companion.play``), where every rule of what a press or a tap means is kept, and no
screen module is over ~500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

from companion import engine
from companion.ui import screens

SCREENS = sorted(Path(screens.__file__).parent.glob("k*_*.py"))  # kings_dilemma, kd_*


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (a function's body included)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return out


def test_the_kd_screens_are_found():
    names = {p.name for p in SCREENS}
    assert {"kings_dilemma.py", "kd_draw.py", "kd_council.py", "kd_entry.py",
            "kd_end.py"} <= names


def test_the_kd_screens_import_no_rules_module():
    rules = {path.name: sorted(m for m in imported(path)
                               if m.startswith(("companion.engine", "companion.games")))
             for path in SCREENS}
    assert {name: found for name, found in rules.items() if found} == {}


def test_no_kd_screen_module_is_over_500_lines():
    lines = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in SCREENS}
    assert {name: n for name, n in lines.items() if n > 500} == {}


def test_no_rules_module_imports_the_seat_vocabulary():
    """The rules know players and actions, not buttons: what a press means (the button
    grammar) is read by the games' seat layer (``companion.games.kd_buttons``)."""
    modules = sorted(Path(engine.__file__).parent.glob("*.py"))
    assert len(modules) > 5
    seats = {path.name: sorted(m for m in imported(path) if m.startswith("companion.seat"))
             for path in modules}
    assert {name: found for name, found in seats.items() if found} == {}
