"""firmware/flash.sh, run by bash in a copy of the repository's layout with stand-ins for
the programs it calls (systemctl, sudo, the venv's python and mpremote) that record their
arguments: it uses the project's own mpremote (installing it into .venv through the
`flash` extra, never a bare pip), and stops a running kiosk while it flashes and starts it
again afterwards, also when the flashing fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def stand_in(path: Path, log: Path, body: str = "") -> None:
    """An executable that appends its name and arguments to ``log``, then runs ``body``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "{path.name} $*" >> "{log}"\n{body}\n', encoding="utf-8"
    )
    path.chmod(0o755)


@pytest.fixture
def rig(tmp_path):
    """A repository copy with flash.sh and the files it copies; ``bin`` first on the PATH
    with systemctl (the kiosk's units active as ``active`` says), sudo (runs its command),
    and pip / pip3 that fail (flash.sh must not call them)."""
    root = tmp_path / "repo"
    for name in ("firmware/flash.sh", "firmware/pad/main.py", "firmware/pad/board.py",
                 "companion/hardware/padproto.py", "companion/hardware/debounce.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, root / name)
    log = tmp_path / "calls.log"
    bin_dir = tmp_path / "bin"
    active = tmp_path / "active-units"
    active.write_text("", encoding="utf-8")
    stand_in(bin_dir / "systemctl", log,
             f'[ "$1" = is-active ] || [ "$2" = is-active ] || exit 0\n'
             f'for unit; do :; done\ngrep -qx "$unit" "{active}"')
    stand_in(bin_dir / "sudo", log, '"$@"')
    for pip in ("pip", "pip3"):
        stand_in(bin_dir / pip, log, "exit 99")
    template = tmp_path / "mpremote"  # what installing mpremote puts into .venv/bin
    # the venv's python: `-m pip install …` installs mpremote there, as pip would
    stand_in(root / ".venv/bin/python", log, f'cp "{template}" "{root}/.venv/bin/mpremote"')

    class Rig:
        def run(self, *args: str, mpremote_fails: bool = False, units: tuple[str, ...] = (),
                installed: bool = True):
            active.write_text("".join(u + "\n" for u in units), encoding="utf-8")
            log.write_text("", encoding="utf-8")
            stand_in(template, log, "exit 1" if mpremote_fails else "")
            mpremote = root / ".venv/bin/mpremote"
            mpremote.unlink(missing_ok=True)
            if installed:
                shutil.copy2(template, mpremote)
            env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}
            result = subprocess.run(
                ["bash", str(root / "firmware/flash.sh"), *args],
                check=False, capture_output=True, text=True, env=env, timeout=60,
            )
            return result, log.read_text(encoding="utf-8").splitlines()

    return Rig()


def test_flashes_with_the_venv_s_mpremote_and_stops_and_restarts_the_kiosk(rig):
    result, calls = rig.run("/dev/ttyACM1", units=("companion-kiosk.service",))
    assert result.returncode == 0, result.stderr
    stop = "systemctl stop companion-kiosk.service"
    start = "systemctl start companion-kiosk.service"
    flash = next(i for i, c in enumerate(calls) if c.startswith("mpremote "))
    assert calls.index(stop) < flash < calls.index(start)
    assert calls[flash].startswith("mpremote connect /dev/ttyACM1 cp companion/hardware/padproto.py")
    assert calls[flash].endswith("cp firmware/pad/main.py :main.py + reset")
    if os.geteuid() != 0:
        assert calls[calls.index(stop) - 1] == "sudo " + stop  # the system unit: as root
    assert "stopping the kiosk (companion-kiosk.service) while flashing" in result.stderr
    assert not any(c.startswith(("pip", "python")) for c in calls)  # mpremote was there


def test_a_failed_flash_still_starts_the_kiosk_again(rig):
    result, calls = rig.run(mpremote_fails=True, units=("companion-kiosk.service",))
    assert result.returncode != 0
    assert calls[-1] == "systemctl start companion-kiosk.service"
    assert "Flashed." not in result.stdout


def test_the_desktop_unit_is_stopped_and_started_as_the_user(rig):
    result, calls = rig.run(units=("companion-kiosk-desktop.service",))
    assert result.returncode == 0, result.stderr
    assert "systemctl --user stop companion-kiosk-desktop.service" in calls
    assert calls[-1] == "systemctl --user start companion-kiosk-desktop.service"
    assert not any("sudo" in c for c in calls)


def test_no_kiosk_running_nothing_is_stopped(rig):
    result, calls = rig.run()
    assert result.returncode == 0, result.stderr
    assert not any(" stop " in c or " start " in c for c in calls)
    assert any(c.startswith("mpremote connect auto ") for c in calls)


def test_mpremote_is_installed_into_the_venv_through_the_flash_extra(rig):
    """No mpremote in .venv yet: the venv's pip installs the project's `flash` extra (a
    bare `pip install mpremote` is refused on Raspberry Pi OS)."""
    result, calls = rig.run(installed=False)
    assert result.returncode == 0, result.stderr
    assert calls[0] == "python -m pip install --quiet -e .[flash]"
    assert any(c.startswith("mpremote connect auto ") for c in calls)
    assert not any(c.startswith(("pip ", "pip3 ")) for c in calls)


def test_the_flash_extra_names_mpremote():
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(r.startswith("mpremote") for r in project["optional-dependencies"]["flash"])
