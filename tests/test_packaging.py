"""Packaging: a non-editable install finds the shipped wiring profiles.

``hardware/profiles/*.yaml`` is the one copy in the repository; the package reaches it
through the symlink ``companion/hardware/profiles`` and pyproject.toml's package-data
ships it. The test builds the wheel from a copy of the sources with setuptools' own
backend (no network, no build output in the checkout), unpacks it as an install would,
and loads every shipped profile by name from that unpacked package in a fresh Python
whose ``companion`` is the wheel's, not the checkout's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(p.stem for p in (ROOT / "hardware" / "profiles").glob("*.yaml"))

LOAD_ALL = """
import json, sys
from companion.hardware import profile
out = {"dir": str(profile.PROFILES_DIR), "loaded": {}}
for name in sys.argv[1:]:
    p = profile.load_profile(profile.profile_path(name))
    out["loaded"][name] = [p.kind, len(p.seats)]
print(json.dumps(out))
"""


def test_repository_profiles_are_the_package_profiles():
    """One copy: the package's profiles directory is the repository's hardware/profiles."""
    from companion.hardware.profile import PROFILES_DIR

    assert PROFILES_DIR.resolve() == (ROOT / "hardware" / "profiles").resolve()
    assert sorted(p.stem for p in PROFILES_DIR.glob("*.yaml")) == SHIPPED != []


def test_built_wheel_ships_every_profile_and_the_installed_package_loads_them(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for tree in ("companion", "hardware"):
        shutil.copytree(ROOT / tree, src / tree, symlinks=True, ignore=ignore)
    build = (
        "import sys; from setuptools import build_meta;"
        " print(build_meta.build_wheel(sys.argv[1]))"
    )
    out = tmp_path / "dist"
    done = subprocess.run(
        [sys.executable, "-c", build, str(out)],
        cwd=src, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    wheel = out / done.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        zf.extractall(tmp_path / "site")
    for name in SHIPPED:
        assert f"companion/hardware/profiles/{name}.yaml" in names
    for name in ("index.html", "phone.js", "phone.css"):  # the phones' page
        assert f"companion/phones/page/{name}" in names
    for game in ("kings_dilemma", "inheritors"):  # each game's data, in its folder
        assert f"companion/games/{game}/{game}.yaml" in names
    for language in ("en", "fr"):  # each catalog, and its parsed copy (files/packaged.py)
        assert {f"companion/data/i18n/{language}.yaml",
                f"companion/data/i18n/{language}.parsed.json"} <= names
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    run = subprocess.run(
        [sys.executable, "-c", LOAD_ALL, *SHIPPED],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout)
    assert Path(result["dir"]) == tmp_path / "site" / "companion" / "hardware" / "profiles"
    assert sorted(result["loaded"]) == SHIPPED
    assert result["loaded"]["gpio-5-seats"] == ["gpio", 5]
