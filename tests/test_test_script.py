"""``scripts/test.sh`` and what it shares with ``run.sh`` (``scripts/venv-common.sh``): the
first run sets up ``.venv`` with the test tools, a second run with every package index
unreachable installs nothing (no pip upgrade, no install) and runs the tests; an old
``pygame`` is taken out of the venv, but a system one the venv merely sees is left alone
(Raspberry Pi OS with desktop has python3-pygame) without pip's "Skipping" complaint; a
set-up that fails blames the index pip uses, not Raspberry Pi OS's extra index (piwheels,
in /etc/pip.conf)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from test_run_script import (
    SETUP_LIMIT_S,
    closed_port,
    copy_of_the_repository,
    start_env,
)

REPO = Path(__file__).resolve().parents[1]
ONE_TEST = "tests/ui/test_sdnotify.py::test_notifier_without_socket_does_nothing"


def run_test_sh(repo: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(repo / "scripts" / "test.sh"), "-p", "no:cacheprovider", ONE_TEST],
        env=env, cwd=repo, capture_output=True, text=True, timeout=timeout, check=False,
    )


def test_second_run_of_test_sh_needs_no_package_index(tmp_path):
    repo = copy_of_the_repository(tmp_path / "companion")
    first = run_test_sh(repo, start_env(tmp_path, offline=False), SETUP_LIMIT_S)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "test.sh: setting up .venv" in first.stderr
    assert "1 passed" in first.stdout
    stamp = repo / ".venv" / ".companion-test-setup"
    set_up = stamp.stat().st_mtime_ns

    second = run_test_sh(repo, start_env(tmp_path, offline=True), 300)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "setting up" not in second.stderr and "pip" not in second.stderr, second.stderr
    assert "1 passed" in second.stdout
    assert stamp.stat().st_mtime_ns == set_up


def fake_venv(tmp_path: Path) -> tuple[Path, Path]:
    """A repository directory with a pip-less ``.venv`` whose ``pip`` is a stand-in
    module recording its arguments; returns (the directory, the record)."""
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    (root / "scripts" / "venv-common.sh").write_text(
        (REPO / "scripts" / "venv-common.sh").read_text(encoding="utf-8"), encoding="utf-8"
    )
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")],
                   check=True, timeout=120)
    site = next((root / ".venv" / "lib").glob("python3*/site-packages"))
    record = tmp_path / "pip.log"
    (site / "pip").mkdir()
    (site / "pip" / "__init__.py").write_text("", encoding="utf-8")
    (site / "pip" / "__main__.py").write_text(
        f"import sys\nopen({str(record)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n",
        encoding="utf-8",
    )
    return root, record


def dist_info(where: Path, name: str) -> None:
    """An installed distribution's metadata, as pip leaves it."""
    info = where / f"{name.replace('-', '_')}-2.5.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 2.5.0\n",
                                   encoding="utf-8")


def remove_old_pygame(root: Path, system_site: Path | None) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin"}
    if system_site is not None:  # what --system-site-packages shows the venv
        env["PYTHONPATH"] = str(system_site)
    return subprocess.run(["bash", "-c", ". scripts/venv-common.sh && remove_old_pygame"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120,
                          check=False)


def test_a_system_pygame_the_venv_sees_is_left_alone(tmp_path):
    root, record = fake_venv(tmp_path)
    system = tmp_path / "usr-lib-python3-dist-packages"
    dist_info(system, "pygame")  # Raspberry Pi OS desktop's python3-pygame
    site = next((root / ".venv" / "lib").glob("python3*/site-packages"))
    dist_info(site, "pygame-ce")  # the venv's own, as set up
    done = remove_old_pygame(root, system)
    assert (done.returncode, done.stderr) == (0, "")
    assert not record.exists()  # pip not even asked: no "Skipping pygame-ce"


def test_an_old_pygame_in_the_venv_is_taken_out_with_what_is_there(tmp_path):
    root, record = fake_venv(tmp_path)
    site = next((root / ".venv" / "lib").glob("python3*/site-packages"))
    dist_info(site, "pygame")
    done = remove_old_pygame(root, None)
    assert done.returncode == 0, done.stderr
    assert record.read_text(encoding="utf-8") == "uninstall -q -y pygame\n"  # not pygame-ce
    dist_info(site, "pygame-ce")  # both in one directory: both go, pip puts pygame-ce back
    record.unlink()
    remove_old_pygame(root, None)
    assert record.read_text(encoding="utf-8") == "uninstall -q -y pygame pygame-ce\n"


def test_a_failed_setup_blames_the_index_pip_uses_not_an_extra_one(tmp_path):
    """Raspberry Pi OS's /etc/pip.conf adds piwheels as an extra-index-url; with the
    network gone, the reason named is the main index (PyPI here, reached through the
    environment's proxy, an unreachable port on this machine), not the extra one."""
    repo = copy_of_the_repository(tmp_path / "companion")
    env = start_env(tmp_path, offline=True)
    extra = f"http://127.0.0.1:{closed_port()}/piwheels"
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\nextra-index-url={extra}\n", encoding="utf-8")
    env["PIP_CONFIG_FILE"] = str(conf)
    del env["PIP_INDEX_URL"]  # pip's own default: PyPI (only ever through the proxy)
    done = subprocess.run(["bash", str(repo / "scripts" / "run.sh"), "--setup"], env=env,
                          cwd=repo, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1
    said = [line for line in done.stderr.splitlines() if line.startswith("run.sh: ")]
    assert re.search(r"the package index https://pypi\.org/simple/ could not be reached",
                     said[-2]), said
    assert extra not in said[-2]
