"""The user's documentation is true and self-contained: every command shown in a
``console`` block of docs/*.md is run in a shell (from a copy of the repository's docs, so
nothing is written in the tree) and must print exactly what the page shows; every file
of docs/examples/ is used by such a command; no document a user has points outside the
repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
CONSOLE = re.compile(r"^```console\n(.*?)^```", re.DOTALL | re.MULTILINE)


def console_blocks(page: Path) -> list[list[tuple[str, str]]]:
    """Each ``console`` block as (command, expected output) pairs: a line starting with
    ``$ `` is a command, the lines up to the next command are its output."""
    blocks = []
    for text in CONSOLE.findall(page.read_text(encoding="utf-8")):
        steps: list[tuple[str, list[str]]] = []
        for line in text.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
        blocks.append([(cmd, "\n".join(out)) for cmd, out in steps])
    return blocks


PAGES = sorted(DOCS.glob("*.md"))
CASES = [
    pytest.param(page, i, block, id=f"{page.name}:{i}")
    for page in PAGES
    for i, block in enumerate(console_blocks(page))
    if any(cmd.startswith("companion ") for cmd, _ in block)
]


def run_shell(command: str, cwd: Path) -> str:
    """``command`` in bash, with the venv's ``companion`` first on PATH; stdout and stderr
    together, as a terminal shows them; CRLF rows (CSV) read as lines."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["COMPANION_DATA_DIR"] = str(cwd / "data")
    proc = subprocess.run(
        ["bash", "-c", command], check=False, cwd=cwd, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=120,
    )
    return proc.stdout.replace("\r\n", "\n").rstrip("\n")


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A directory holding a copy of docs/ (commands run from there, as from the
    repository's top directory)."""
    shutil.copytree(DOCS, tmp_path / "docs")
    return tmp_path


@pytest.mark.parametrize(("page", "index", "block"), CASES)
def test_every_command_of_the_docs_prints_what_the_page_shows(page, index, block, scratch):
    for command, expected in block:
        got = run_shell(command, scratch)
        assert [line.rstrip() for line in got.splitlines()] == [
            line.rstrip() for line in expected.splitlines()
        ], f"{page.name}: $ {command}"


def test_every_example_file_is_run_by_a_documented_command():
    commands = " ".join(cmd for page in PAGES for block in console_blocks(page) for cmd, _ in block)
    unused = [p.name for p in sorted(EXAMPLES.iterdir())
              if f"docs/examples/{p.name}" not in commands]
    assert not unused, f"examples no documented command runs: {unused}"


def test_an_example_for_every_game_and_every_table_command():
    commands = [cmd for page in PAGES for block in console_blocks(page) for cmd, _ in block]
    for game in ("koryo", "choson", "inheritors", "kings-dilemma"):
        assert any(c.startswith(f"companion score docs/examples/{game}.yaml") for c in commands)
    for name in ("vote", "kingdom", "import", "export", "check-config", "report", "wiring"):
        assert any(c.startswith(f"companion {name} ") or f"&& companion {name} " in c
                   for c in commands), name


USER_DOCS = [ROOT / "README.md", *PAGES, *sorted((ROOT / "hardware").glob("*.md")),
             *sorted((ROOT / "firmware").glob("*.md")), *sorted((ROOT / "systemd").glob("*.md"))]
# The developers' notes a user of the repository does not have, by the names they go by
# (spelt in pieces so that this file does not name them itself).
NOTES = re.compile("|".join((
    r"\b" + "RULES" + r"\.md", r"\b" + "DESIGN" + r"\.md", "shared" + "/",
    "spec" + "/table-files", "seeds" + "/", r"\b[Ss]eeds? " + r"\d{3}",
)))
OUTSIDE = re.compile(NOTES.pattern + r"|/work/|\.\./")


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_user_docs_point_at_nothing_outside_the_repository(doc):
    hits = [line for line in doc.read_text(encoding="utf-8").splitlines() if OUTSIDE.search(line)]
    assert not hits, hits


def test_command_help_points_at_nothing_outside_the_repository():
    from companion.cli import build_parser

    parser = build_parser()
    texts = [parser.format_help()]
    sub = next(a for a in parser._actions if a.dest == "command")
    texts += [p.format_help() for p in sub.choices.values()]
    for text in texts:
        assert not OUTSIDE.search(text), text
        assert "companion.commands" not in text and "``" not in text, text


TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".toml", ".sh", ".service", ".txt", ".csv",
                 ".cfg", ".ini", ".desktop"}
SKIPPED_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis"}


def repository_texts() -> list[Path]:
    """Every text file of the repository: code, docstrings, comments, data, docs."""
    return [p for p in sorted(ROOT.rglob("*"))
            if p.is_file() and p.suffix in TEXT_SUFFIXES
            and not SKIPPED_DIRS.intersection(p.relative_to(ROOT).parts)]


def lines_matching(pattern: re.Pattern) -> list[str]:
    """``FILE:LINE: text`` of every line of the repository's texts ``pattern`` finds."""
    return [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
            for path in repository_texts()
            for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace")
                                     .splitlines(), 1)
            if pattern.search(line)]


def test_nothing_in_the_repository_names_the_developers_notes():
    """Code, docstrings, comments, tests and data name the rulebooks, docs/ and the
    repository's own files, never notes that live outside it."""
    hits = lines_matching(NOTES)
    assert not hits, "\n".join(hits)


def test_no_code_docstring_or_comment_names_an_issue_number():
    """What a piece of code is for is said in words; the tracker's numbers mean nothing to
    the next reader (spelt in pieces here too)."""
    hits = lines_matching(re.compile(r"\b[Ii]ssue" + r" #?\d+"))
    assert not hits, "\n".join(hits)
