"""The kiosk units' file-system sandbox, run: `companion run` reaches "ready" and stops
cleanly when everything is read-only but the unit's ``ReadWritePaths=`` (the data
directory) and a private /tmp, with the unit's own environment and working directory.

systemd is not running here, so its mount settings are rebuilt with ``unshare`` (a private
mount namespace, root only) from what the rendered unit says: ``ProtectSystem=strict`` and
``ProtectHome=read-only`` as every mount remounted read-only (the API file systems /proc,
/sys, /dev apart, as systemd leaves them), ``ReadWritePaths=`` bind-mounted writable,
``PrivateTmp=yes`` a fresh tmpfs. The script first proves the sandbox holds (it can't
write to / or the home, it can write to the data directory), else it stops with 99.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from kiosk_process import KioskProcess
from unit_file import environment, parse

from companion.commands import install_service as svc

PROJECT = Path(__file__).resolve().parents[2]  # the checkout whose venv the unit runs

SANDBOX = r"""
set -eu
home=$1 data=$2 workdir=$3 project=$4
shift 4
mount --make-rprivate /
# the home (holding the data directory) and the project (holding the venv) kept across the
# fresh /tmp, where a test or a CI checkout may have them, on /media meanwhile
mount -t tmpfs tmpfs /media
mkdir /media/home /media/project
mount --rbind "$home" /media/home
mount --rbind "$project" /media/project
mount -t tmpfs -o mode=1777 tmpfs /tmp                # PrivateTmp=yes
mkdir -p "$home" "$project"
mount --rbind /media/home "$home"
mount --rbind /media/project "$project"
umount -l /media
mount --bind "$data" "$data"                          # ReadWritePaths=
# ProtectSystem=strict, ProtectHome=read-only
awk '{print $5}' /proc/self/mountinfo | sort -u | while read -r mount_point; do
  case "$mount_point" in
    /proc|/proc/*|/sys|/sys/*|/dev|/dev/*|/tmp|"$data") ;;
    *) mount -o remount,bind,ro "$mount_point" 2>/dev/null || true ;;
  esac
done
for place in / "$home" "$workdir" "$(dirname "$(command -v "$1")")"; do
  if ( : > "$place/.sandbox-probe" ) 2>/dev/null; then
    echo "sandbox: $place is writable" >&2
    exit 99
  fi
done
: > "$data/.sandbox-probe"
rm "$data/.sandbox-probe"
: > /tmp/.sandbox-probe
cd "$workdir"
exec "$@"
"""


def can_unshare_mounts() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    done = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "mount", "-t", "tmpfs", "tmpfs", "/media"],
        capture_output=True,
        check=False,
        timeout=30,
    )
    return done.returncode == 0


def files_under(root: Path) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*")}


@pytest.mark.skipif(not can_unshare_mounts(), reason="needs root and mount namespaces")
@pytest.mark.parametrize("desktop", [False, True], ids=["console", "desktop"])
def test_kiosk_runs_with_the_data_directory_the_only_writable_place(tmp_path, desktop):
    home = tmp_path / "home"
    data = home / ".local" / "share" / "companion"
    data.mkdir(parents=True)  # what install-service makes
    before = files_under(home)
    unit = parse(
        svc.render_unit(svc.companion_script(), "ana", home, svc.GROUPS, desktop, data_dir=data)
    )
    service = unit["Service"]
    writable = [p.strip('"').removeprefix("-") for p in unit.values("Service", "ReadWritePaths")]
    assert writable == [str(data)]
    assert service["ProtectSystem"] == "strict" and service["PrivateTmp"] == "yes"
    env = environment(service)
    env.update(
        SDL_VIDEODRIVER="dummy",  # no display here (the units: kmsdrm, wayland/x11)
        SDL_AUDIODRIVER="dummy",
        HOME=str(home),  # what systemd sets for User=
        PATH=os.environ["PATH"],
    )
    argv = service["ExecStart"].split()  # a path without spaces here
    kiosk = KioskProcess(
        [
            "unshare",
            "-m",
            "--propagation",
            "private",
            "bash",
            "-c",
            SANDBOX,
            "sandbox",
            str(home),
            writable[0],
            service["WorkingDirectory"],
            str(PROJECT),
            *argv,
        ],
        env,
        tmp_path,
    )
    try:
        kiosk.await_line(" ready: ")
        assert kiosk.stop(signal.SIGTERM) == 0
    finally:
        kiosk.kill()
    said = "\n".join(kiosk.lines)
    assert "sandbox:" not in said and "Read-only file system" not in said, said
    assert "closed" in said
    # it wrote its log, journal and history where it may, and nothing anywhere else
    made = files_under(home) - before
    assert {Path(p) for p in ("companion.log", "journal.sqlite", "companion.db")} <= {
        p.relative_to(data.relative_to(home)) for p in made
    }
    assert all(data in (home / p).parents for p in made), made
