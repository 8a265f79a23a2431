"""``scripts/run.sh`` sets up once and later starts offline: on a copy of the repository,
the first start sets up its ``.venv`` (with the package index this machine's pip is
configured for: the one step of the suite that installs from it, as ``scripts/test.sh``
itself does) and reaches "ready"; the second start, with every package index unreachable,
installs nothing and reaches "ready" again. A set-up that can't reach the index names the
requirement and the reason.

Each start runs under SDL's dummy driver with its own configuration and data directories
and is stopped with SIGTERM after "ready", as systemd stops it.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from kiosk_process import KioskProcess

REPO = Path(__file__).resolve().parents[1]
SETUP_LIMIT_S = 900  # a first set-up downloads and installs pygame-ce & co. on a busy machine


def copy_of_the_repository(dest: Path) -> Path:
    """The repository's files as a fresh clone has them (no .venv, no build output)."""
    shutil.copytree(
        REPO,
        dest,
        symlinks=True,  # companion/hardware/profiles -> hardware/profiles
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache"
        ),
    )
    return dest


def closed_port() -> int:
    """A local TCP port nothing listens on: connecting to it is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_env(tmp_path: Path, offline: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        XDG_CONFIG_HOME=str(tmp_path / "config"),  # none there: the shipped default
        COMPANION_DATA_DIR=str(tmp_path / "data"),
        TMPDIR=str(tmp_path),  # where a failed set-up leaves pip's output
    )
    for name in ("COMPANION_CONFIG", "GPIOZERO_PIN_FACTORY"):
        env.pop(name, None)
    if offline:
        unreachable = f"http://127.0.0.1:{closed_port()}"
        for name in [n for n in env if n.startswith("PIP_")]:
            del env[name]  # this machine's local wheel directories and mirrors too
        env.update(
            PIP_CONFIG_FILE=os.devnull,  # no pip.conf: no other index, no find-links
            PIP_INDEX_URL=f"{unreachable}/simple",
            PIP_RETRIES="0",
            PIP_TIMEOUT="5",
            http_proxy=unreachable,
            https_proxy=unreachable,
        )
    return env


def start(repo: Path, tmp_path: Path, offline: bool, limit_s: float) -> KioskProcess:
    return KioskProcess(
        ["bash", str(repo / "scripts" / "run.sh")],
        start_env(tmp_path, offline),
        repo,
        limit_s=limit_s,
    )


@pytest.fixture
def started():
    processes: list[KioskProcess] = []
    yield processes
    for p in processes:
        p.kill()


def test_second_start_reuses_the_venv_without_any_network(tmp_path, started):
    repo = copy_of_the_repository(tmp_path / "companion")
    first = start(repo, tmp_path, offline=False, limit_s=SETUP_LIMIT_S)
    started.append(first)
    first.await_line(" ready: ")
    assert first.stop(signal.SIGTERM) == 0
    assert any("setting up .venv" in line for line in first.lines)
    stamp = repo / ".venv" / ".companion-setup"
    set_up = stamp.stat().st_mtime_ns

    second = start(repo, tmp_path, offline=True, limit_s=120)
    started.append(second)
    second.await_line(" ready: ")
    assert second.stop(signal.SIGTERM) == 0
    assert not any("setting up" in line for line in second.lines), second.lines
    assert stamp.stat().st_mtime_ns == set_up
    assert any("closed" in line for line in second.lines)

    # --setup (before install-service, after a git pull): nothing to do, nothing started
    done = subprocess.run(
        ["bash", str(repo / "scripts" / "run.sh"), "--setup"],
        env=start_env(tmp_path, offline=True),
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (
        0,
        "run.sh: .venv is set up; .venv/bin/companion is there\n",
    )
    assert stamp.stat().st_mtime_ns == set_up

    # a changed pyproject.toml is set up again: offline, that fails, and says why
    with (repo / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    third = start(repo, tmp_path, offline=True, limit_s=300)
    started.append(third)
    assert third.wait() == 1
    assert any("setting up .venv" in line for line in third.lines)
    assert any("setuptools>=68: the package index" in line for line in third.lines), third.lines


def test_failed_setup_names_the_requirement_and_the_reason(tmp_path):
    """No network on the first start: pip can't fetch even the build backend of the
    editable install; the last words name it and the unreachable index, nothing starts."""
    repo = copy_of_the_repository(tmp_path / "companion")
    done = subprocess.run(
        ["bash", str(repo / "scripts" / "run.sh")],
        env=start_env(tmp_path, offline=True),
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1
    said = [line for line in done.stderr.splitlines() if line.startswith("run.sh: ")]
    assert re.fullmatch(
        r"run\.sh: setting up \.venv failed: could not install setuptools>=68: the package "
        r"index http://127\.0\.0\.1:\d+/simple could not be reached \(.*Connection refused; "
        r"no network\?\)\.",
        said[-2],
    ), said
    assert "nothing started" in said[-1]
    assert not (repo / ".venv" / ".companion-setup").exists()
    assert "ready" not in done.stderr
