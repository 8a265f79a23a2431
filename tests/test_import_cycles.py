"""No import circle in companion/: read from the source with ast, not by importing.

Every import counts, a function's lazy one too (a circle imported lazily still ties two
modules together), except those only a type checker sees (``if TYPE_CHECKING:``). A
package's ``__init__`` is not counted as imported by its submodules: that is Python's
own order, not a circle of ours."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).resolve().parent


def module_names(root: Path) -> dict[str, Path]:
    """Every module under the package directory ``root``, by dotted name."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes inside ``if TYPE_CHECKING:`` blocks."""
    hidden = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return hidden


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that module ``name`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    hidden = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up level - 1 packages
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from a import b`: the module a.b if there is one, else a (b is a name in it)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # a.b.name -> a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_circles(root: Path) -> list[list[str]]:
    """The circles of imports among the modules under ``root`` (Tarjan's strongly connected
    components with more than one module), each sorted, for a message."""
    modules = module_names(root)
    graph = {name: sorted(imports_of(name, path, modules)) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []

    def visit(start: str) -> None:
        # iterative, so a deep chain of imports cannot reach the recursion limit
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        circles.append(sorted(component))

    for name in graph:
        if name not in index:
            visit(name)
    return sorted(circles)


def test_companion_has_no_import_circle():
    assert import_circles(PACKAGE) == []


def test_the_finder_reads_real_imports():
    """The graph is not empty by mistake: the command line imports its commands' package."""
    modules = module_names(PACKAGE)
    assert "companion.cli" in modules
    assert imports_of("companion.cli", modules["companion.cli"], modules)


def test_a_circle_made_in_a_copy_is_found(tmp_path):
    copy = tmp_path / "companion"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "profiles"))
    (copy / "circle_a.py").write_text("from companion import circle_b\n")
    (copy / "circle_b.py").write_text(
        "def later():\n    from companion.circle_a import something\n    return something\n")
    assert import_circles(copy) == [["companion.circle_a", "companion.circle_b"]]


def test_a_relative_circle_and_a_type_only_import(tmp_path):
    root = tmp_path / "companion"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "one.py").write_text("from . import two\n")
    (root / "sub" / "two.py").write_text("from .one import x\n")
    (root / "three.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from companion import four\n")
    (root / "four.py").write_text("import companion.three\n")
    assert import_circles(root) == [["companion.sub.one", "companion.sub.two"]]
