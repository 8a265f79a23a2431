"""Fuzz torture test: hypothesis-generated table files and configurations.

Contract (docs/table-files.md): `companion score|vote|kingdom FILE [--json]` and
`companion check-config FILE` either exit 0 with a result, or exit 2 with exactly one line on
stderr that names the file (check-config: one such line per mistake) — never a traceback,
never exit code 1.

The files start from the spec's own examples (tests/data/spec/) and the shipped
configuration, then get mutated: values replaced by random types (huge numbers, unicode,
floats, nested lists/maps), keys added or removed, and the YAML text itself broken
(truncated, lines duplicated so keys repeat, random characters spliced in).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli_run import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.config import SHIPPED_CONFIG

SPEC = Path(__file__).parents[1] / "data" / "spec"

# command -> the files it is fuzzed from
BASES: dict[str, list[str]] = {
    "score": [
        (SPEC / f"score-{g}.yaml").read_text(encoding="utf-8")
        for g in ("koryo", "choson", "inheritors", "kings-dilemma")
    ],
    "vote": [(SPEC / "vote-kings-dilemma.yaml").read_text(encoding="utf-8")],
    "kingdom": [(SPEC / "kingdom.yaml").read_text(encoding="utf-8")],
    "check-config": [SHIPPED_CONFIG.read_text(encoding="utf-8")],
}

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

WORKDIR = Path()  # the module's own temporary directory, set by the fixture below


@pytest.fixture(scope="module", autouse=True)
def _workdir(tmp_path_factory):
    """Hypothesis reruns a test many times, so files go to one directory per module (pytest
    removes it like any tmp_path) rather than to a fresh tmp_path per call."""
    global WORKDIR
    WORKDIR = tmp_path_factory.mktemp("fuzz")


keys = st.one_of(
    st.text(max_size=10),
    st.sampled_from(["game", "players", "cards", "tokens", "Ana", "Ben", "9", "barbarian",
                     "position", "momentum", "marker", "seats", "hardware", "profile",
                     "aye", "turns", "ballots", "min", "max", "mode"]),
    st.integers(-3, 12),
    st.booleans(),
    st.none(),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-12, 12),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["aye 3", "nay 99999999999999999999", "add 0", "hold", "pass-power",
                     "pass-moderator", "+influence", "-welfare", "up", "down", "koryo",
                     "choson", "inheritors", "kings-dilemma", "kingdom", "Ana", "Ben",
                     "Julius", "yellow", "jaune", "sim", "gpio", "serial", "gpio-5-seats",
                     "../nope.yaml", "a\0b", "a\0b.yaml", "~nosuchuser/p.yaml", "/dev/zero",
                     "2020-01-01", "#ff00ff", "Ω名前"]),
)
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=10,
)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (tuple of keys/indices) into a parsed document, the root included."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _mutate(doc: Any, data: st.DataObject) -> Any:
    """One structural change at a random place: replace, delete, or add a key/item."""
    path = data.draw(st.sampled_from(_paths(doc)))
    if not path:
        return data.draw(junk) if data.draw(st.booleans()) else doc
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    op = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if op == "replace":
        parent[last] = data.draw(junk)
    elif op == "delete":
        del parent[last]
    elif isinstance(parent, dict):
        parent[data.draw(keys)] = data.draw(junk)
    else:
        parent.insert(data.draw(st.integers(0, len(parent))), data.draw(junk))
    return doc


def _break_text(text: str, data: st.DataObject) -> str:
    """Damage the YAML text itself: truncate, duplicate a line, splice characters in."""
    op = data.draw(st.sampled_from(["none", "truncate", "duplicate", "splice", "huge"]))
    lines = text.splitlines(keepends=True)
    if op == "truncate":
        return text[: data.draw(st.integers(0, len(text)))]
    if op == "duplicate" and lines:
        i = data.draw(st.integers(0, len(lines) - 1))
        return "".join(lines[: i + 1] + [lines[i]] + lines[i + 1:])
    if op == "splice":
        i = data.draw(st.integers(0, len(text)))
        bit = data.draw(st.text(min_size=1, max_size=6) | st.sampled_from(
            ["{", "]", ": ", "&a ", "*a", "!!python/object:os.system", "\t", "- ", "? ", "%"]))
        return text[:i] + bit + text[i:]
    if op == "huge":
        return text.replace("1", "9" * data.draw(st.integers(20, 400)), 1)
    return text


def check_contract(command: str, path: Path, as_json: bool) -> None:
    argv = [command, str(path)] + (["--json"] if as_json and command != "check-config" else [])
    code, out, err = run_cli(argv)
    assert "Traceback (most recent call last)" not in out + err
    assert code in (0, 2), (code, err)
    if code == 0:
        assert out.strip(), "exit 0 must print a result"
        assert not err
        if as_json and command != "check-config":
            assert isinstance(json.loads(out), dict)
    else:
        assert not out, "nothing on stdout when the file is refused"
        assert err.endswith("\n"), err
        lines = err.splitlines()
        if command != "check-config":  # check-config: one line per mistake, all of them
            assert len(lines) == 1, f"one line on stderr: {err!r}"
        for line in lines:
            assert line.startswith(f"companion {command}: {path}"), err


def _write(text: str, name: str) -> Path:
    path = WORKDIR / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@pytest.mark.parametrize("command", sorted(BASES))
@FUZZ
@given(data=st.data())
def test_mutated_files_exit_0_or_2_with_one_line(command, data):
    """Random structural changes to a valid file, then random damage to its text."""
    base = data.draw(st.sampled_from(BASES[command]))
    doc = yaml.safe_load(base)
    for _ in range(data.draw(st.integers(0, 3))):
        doc = _mutate(doc, data)
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
    text = _break_text(text, data)
    check_contract(command, _write(text, f"{command}.yaml"), data.draw(st.booleans()))


@pytest.mark.parametrize("command", sorted(BASES))
@FUZZ
@given(text=st.text(max_size=200), as_json=st.booleans())
def test_arbitrary_text_exit_0_or_2_with_one_line(command, text, as_json):
    """Any text at all (mostly not YAML, or YAML of the wrong shape)."""
    check_contract(command, _write(text, f"{command}-text.yaml"), as_json)


HOSTILE = {
    "unhashable key": "game: koryo\nplayers: [Ana, Ben]\ncards: {[1]: 2}\n",
    "unhashable game": "game: [1]\nplayers: [Ana, Ben]\n",
    "mapping as game": "game: {a: 1}\n",
    "deep nesting": "[" * 600 + "]" * 600 + "\n",
    "alias bomb": "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 10)
    ),
    "python tag": "!!python/object/apply:os.system ['true']\n",
    "binary": "\udcff\udcfe game: koryo\n",
    "nul byte": "game: koryo\0\n",
    "huge count": "game: koryo\nplayers: [Ana, Ben]\ncards: {Ana: {9: " + "9" * 5000 + "}}\n",
    "float count": "game: koryo\nplayers: [Ana, Ben]\ncards: {Ana: {9: .inf}}\n",
    "date key": "game: koryo\nplayers: [Ana, Ben]\ncards: {Ana: {2020-01-01: 1}}\n",
    "two documents": "game: koryo\n---\ngame: choson\n",
}


@pytest.mark.parametrize("command", sorted(BASES))
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_exit_2_with_one_line(command, name):
    """Crashes found by the fuzzer, kept as fixed cases: unhashable keys, nesting beyond
    the recursion limit, YAML alias bombs (exponential if walked naively), unsafe tags."""
    path = _write(HOSTILE[name], f"hostile-{command}.yaml")
    check_contract(command, path, as_json=True)


SEATS = ("seats:\n  - {name: A, colour: red, position: bottom}\n"
         "  - {name: B, colour: blue, position: top}\n")
HOSTILE_CONFIGS = {
    "NUL in the profile's name": SEATS + 'hardware: {backend: gpio, profile: "a\\0b.yaml"}\n',
    "unknown user's home in profile": SEATS + "hardware: {backend: gpio, profile: ~nouser/p.yaml}\n",
    "unknown user's home in data_dir": SEATS + "data_dir: ~nouser/data\n",
    "endless profile": SEATS + "hardware: {backend: gpio, profile: /dev/zero}\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_CONFIGS))
def test_hostile_configurations_exit_2_with_one_line(name):
    """Crashes found in check-config: a NUL byte in a path (ValueError), ``~user`` of an
    unknown user (RuntimeError), a profile that never ends."""
    check_contract("check-config", _write(HOSTILE_CONFIGS[name], "hostile-config.yaml"), False)


@pytest.mark.parametrize("command", sorted(BASES))
def test_endless_file_is_refused_not_read_forever(command):
    """/dev/zero (Linux, Raspberry Pi OS) never ends: reading stops past the size bound,
    exit 2 with one line."""
    check_contract(command, Path("/dev/zero"), as_json=False)


@pytest.mark.parametrize(
    ("command", "name"),
    [("score", "unhashable game"), ("vote", "deep nesting"), ("kingdom", "alias bomb"),
     ("check-config", "unhashable key"), ("score", "binary")],
)
def test_real_console_script_never_prints_a_traceback(command, name):
    """The same through a real process (`python -m companion`): exit 2, one line."""
    path = _write(HOSTILE[name], f"proc-{command}.yaml")
    proc = subprocess.run(
        [sys.executable, "-m", "companion", command, str(path)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and str(path) in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("variable", ["COMPANION_CONFIG", "XDG_CONFIG_HOME", "COMPANION_DATA_DIR"])
def test_check_config_environment_naming_an_unknown_home(monkeypatch, variable):
    """`companion check-config` with no file reads the environment: ``~nouser/…`` in it is
    exit 2 naming the variable, not a RuntimeError traceback."""
    for name in ("COMPANION_CONFIG", "XDG_CONFIG_HOME", "COMPANION_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, "~nouser/companion")
    code, out, err = run_cli(["check-config"])
    assert (code, out) == (2, "")
    assert err == f"companion check-config: ${variable}: ~nouser/companion: no such home " \
                  "directory\n"
