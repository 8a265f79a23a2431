"""The King's Dilemma screens only draw: they import no rules module (a game's rules
or adapter under ``companion.games``); what they show comes through the night's controller
(``companion.games.kings_dilemma.controller``), where every rule of what a press or a tap means is kept, and no
screen module is over ~500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

from companion.games import registry
from companion.ui import screens

SCREENS = sorted((Path(screens.__file__).parent / "kings_dilemma").glob("*.py"))

# the rules and the adapters (not the controller, nor what the screens say)
RULES = tuple(f"companion.games.{game}.{part}"
              for game in ("kings_dilemma", "majority", "koryo", "choson", "inheritors")
              for part in ("rules", "adapter", "vote", "kingdom", "campaign", "score"))


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
    assert {"start.py", "draw.py", "council.py", "entry.py", "end.py"} <= names


def test_the_kd_screens_import_no_rules_module():
    rules = {path.name: sorted(m for m in imported(path)
                               if m.startswith(RULES))
             for path in SCREENS}
    assert {name: found for name, found in rules.items() if found} == {}


def test_no_kd_screen_module_is_over_500_lines():
    lines = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in SCREENS}
    assert {name: n for name, n in lines.items() if n > 500} == {}


def test_no_rules_module_imports_the_seat_vocabulary():
    """The rules know players and actions, not buttons: what a press means (the button
    grammar) is read by the games' seat layer (``companion.games.kings_dilemma.buttons``)."""
    modules = sorted(p for p in Path(registry.__file__).parent.glob("*/*.py")  # the rules
                     if p.stem in ("rules", "vote", "kingdom", "campaign", "score"))
    assert len(modules) > 5
    seats = {path.name: sorted(m for m in imported(path) if m.startswith("companion.play.seat"))
             for path in modules}
    assert {name: found for name, found in seats.items() if found} == {}
