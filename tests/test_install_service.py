"""`companion install-service`: the kiosk unit it writes, the commands it prints, and its
refusals (root, unknown account, no systemd, a missing group, no kmsdrm on the console).

The machine checks are replaced per test where the test machine can't play the part (it
has no systemd running and no gpio group); each real check is also run once as it is.
"""

from __future__ import annotations

import configparser
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands import install_service as svc

REPO = Path(__file__).resolve().parents[1]
HOME = Path("/srv/table homes/ana")  # a home with a space, nothing like /home/pi


@pytest.fixture
def pi(monkeypatch):
    """A machine like Raspberry Pi OS: systemd running, every group, SDL with kmsdrm, and an
    account ``ana``. Returns the set of groups, for a test to take one away."""
    groups = set(svc.GROUPS)
    monkeypatch.setattr(svc, "systemd_running", lambda: True)
    monkeypatch.setattr(svc, "group_exists", lambda name: name in groups)
    # as Debian's SDL 2.26 names them (SDL matches SDL_VIDEODRIVER=kmsdrm case-blind)
    monkeypatch.setattr(svc, "video_drivers", lambda: ("x11", "wayland", "KMSDRM", "dummy"))
    monkeypatch.setattr(svc, "home_of", lambda user: {"ana": HOME}[user])
    return groups


def cli(capsys, *argv):
    rc = main(["install-service", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def parse(text: str) -> configparser.ConfigParser:
    """The unit as an INI file (what systemd reads: sections, Key=value, # comments)."""
    ini = configparser.ConfigParser(interpolation=None, strict=True, delimiters=("=",))
    ini.optionxform = str  # systemd keys are case-sensitive
    ini.read_string(text)
    return ini


def unit_part(out: str) -> str:
    return out.split("# would write ")[0]


def test_console_unit_names_the_user_the_venv_and_the_home_and_restarts_on_failure(pi, capsys):
    rc, out, err = cli(capsys, "--dry-run", "--user", "ana")
    assert (rc, err) == (0, "")
    unit = parse(unit_part(out))
    service = unit["Service"]
    assert service["User"] == "ana"
    assert service["SupplementaryGroups"].split() == list(svc.GROUPS)
    assert service["WorkingDirectory"] == str(HOME)
    assert service["ExecStart"] == f"{svc.companion_script()} run"
    assert Path(service["ExecStart"].split()[0]).parent == Path(sys.executable).parent
    assert service["Restart"] == "on-failure"
    # exit 2 is a configuration error: systemd must not restart it (only the main process's
    # status counts, so there is no ExecStartPre that could exit 2 instead)
    assert service["RestartPreventExitStatus"] == "2"
    assert "ExecStartPre" not in service
    assert "SDL_VIDEODRIVER=kmsdrm" in service["Environment"].split()
    assert service["TTYPath"] == "/dev/tty1"
    assert unit["Unit"]["Conflicts"] == "getty@tty1.service"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert "/home/pi" not in out and "User=pi" not in out
    assert f"# would write {svc.SYSTEM_DIR / svc.SYSTEM_UNIT}, then run:" in out
    assert "#   sudo systemctl daemon-reload" in out
    assert "#   sudo systemctl enable --now companion-kiosk.service" in out
    assert "#   journalctl -u companion-kiosk.service -f" in out
    assert (
        "# to remove: sudo systemctl disable --now companion-kiosk.service && "
        "sudo rm /etc/systemd/system/companion-kiosk.service && sudo systemctl daemon-reload"
    ) in out


def test_desktop_unit_is_a_user_unit_and_the_groups_go_to_the_account(pi, capsys):
    rc, out, err = cli(capsys, "--dry-run", "--user", "ana", "--desktop")
    assert (rc, err) == (0, "")
    unit = parse(unit_part(out))
    assert "User" not in unit["Service"]  # a user unit runs as its owner
    assert "SupplementaryGroups" not in unit["Service"]
    assert unit["Service"]["WorkingDirectory"] == str(HOME)
    assert unit["Service"]["RestartPreventExitStatus"] == "2"
    assert unit["Install"]["WantedBy"] == "graphical-session.target"
    target = HOME / ".config/systemd/user/companion-kiosk-desktop.service"
    assert f"# would write {target}, then run:" in out
    assert "#   sudo usermod -aG gpio,dialout,video,input,render ana" in out
    assert "#   systemctl --user enable --now companion-kiosk-desktop.service" in out


def test_refuses_root_and_unknown_accounts(capsys):
    """The kiosk never runs as root; an account that doesn't exist is named (real pwd)."""
    rc, out, err = cli(capsys, "--dry-run", "--user", "root")
    assert rc == 2 and out == ""
    assert err.strip() == (
        "companion install-service: --user: the kiosk must not run as root; "
        "give --user NAME (e.g. --user pi)"
    )
    rc, out, err = cli(capsys, "--dry-run", "--user", "no-such-table-user")
    assert rc == 2 and out == ""
    assert err.strip() == (
        "companion install-service: --user: no account 'no-such-table-user' on this machine"
    )


def test_refuses_without_systemd_and_writes_nothing(monkeypatch, tmp_path, capsys):
    """The real check: no /run/systemd/system means systemd is not the init."""
    monkeypatch.setattr(svc, "SYSTEMD_RUNTIME", tmp_path / "run-systemd-system")
    monkeypatch.setattr(svc, "group_exists", lambda name: True)
    monkeypatch.setattr(svc, "video_drivers", lambda: ("kmsdrm",))
    monkeypatch.setattr(svc, "home_of", lambda user: HOME)
    units = tmp_path / "units"
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", str(units))
    assert rc == 2 and out == ""
    assert err.startswith(
        "companion install-service: systemd is not running on this machine (no "
        f"{tmp_path / 'run-systemd-system'}) or systemctl is missing"
    )
    assert not units.exists()
    # --dry-run still shows the unit, and says it would refuse
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", str(units), "--dry-run")
    assert rc == 2 and "[Service]" in out
    assert err.startswith("companion install-service: would refuse: systemd is not running")
    assert not units.exists()
    # and with the directory there (and systemctl on the PATH) the check passes
    (tmp_path / "run-systemd-system").mkdir()
    assert svc.systemd_running() == (shutil.which("systemctl") is not None)


def test_refuses_when_a_group_is_missing_unless_skipped(pi, tmp_path, capsys):
    pi.discard("gpio")
    units = tmp_path / "units"
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", str(units))
    assert rc == 2 and out == ""
    assert err.strip() == (
        "companion install-service: group missing on this machine: gpio (Raspberry Pi OS "
        "has them all; the kiosk needs them for the GPIO seat buttons and lights). Create it "
        "or, if the kiosk can do without, pass --skip-group gpio"
    )
    assert not units.exists()
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", str(units), "--skip-group", "gpio")
    assert (rc, err) == (0, "")
    written = parse((units / svc.SYSTEM_UNIT).read_text(encoding="utf-8"))
    assert written["Service"]["SupplementaryGroups"] == "dialout video input render"


def test_group_check_reads_the_group_database():
    assert svc.group_exists("root")
    assert not svc.group_exists("no-such-table-group")


def test_console_refused_when_pygame_has_no_kmsdrm(pi, monkeypatch, capsys):
    """The PyPI pygame wheels' SDL has no kmsdrm driver: a console unit would show nothing."""
    monkeypatch.setattr(svc, "video_drivers", lambda: ("x11", "wayland", "dummy"))
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", "/nonexistent/units")
    assert rc == 2 and out == ""
    assert err.strip() == (
        "companion install-service: this environment's pygame has no kmsdrm video driver "
        "(its SDL has: x11, wayland, dummy): on the console the kiosk would show nothing. "
        "Build pygame against the system's SDL (systemd/README.md) or use --desktop"
    )
    rc, out, err = cli(capsys, "--user", "ana", "--desktop", "--dry-run")
    assert (rc, err) == (0, "")  # the desktop session's SDL driver (x11/wayland) will do


def test_video_drivers_are_read_from_the_loaded_sdl():
    """The real probe: SDL always has its dummy and offscreen drivers compiled in."""
    drivers = svc.video_drivers()
    assert {"dummy", "offscreen"} <= set(drivers)


def test_writes_the_unit_it_shows_and_prints_the_commands(pi, tmp_path, capsys):
    units = tmp_path / "etc" / "systemd"
    _, shown, _ = cli(capsys, "--user", "ana", "--dry-run", "--unit-dir", str(units))
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", str(units))
    assert (rc, err) == (0, "")
    unit = units / svc.SYSTEM_UNIT
    assert unit.read_text(encoding="utf-8") + "\n" == unit_part(shown)
    assert out.splitlines()[:3] == [
        f"Wrote {unit}. Now run:",
        "  sudo systemctl daemon-reload",
        "  sudo systemctl enable --now companion-kiosk.service",
    ]


def test_desktop_unit_written_by_root_belongs_to_the_account(monkeypatch, tmp_path, capsys):
    """Written by sudo into the user's home, the unit and its new directories are handed
    over (else the user's systemd can't manage them). Uses the real account ``nobody``."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setattr(svc, "systemd_running", lambda: True)
    monkeypatch.setattr(svc, "group_exists", lambda name: True)
    monkeypatch.setattr(svc, "home_of", lambda user: home)
    rc, _, err = cli(capsys, "--user", "nobody", "--desktop")
    assert (rc, err) == (0, "")
    unit = home / ".config/systemd/user" / svc.DESKTOP_UNIT
    assert unit.is_file()
    owner = pwd.getpwnam("nobody").pw_uid if os.geteuid() == 0 else os.geteuid()
    for path in (unit, unit.parent, home / ".config"):
        assert path.stat().st_uid == owner
    assert home.stat().st_uid == os.geteuid()  # the home itself is left alone


def test_cannot_write_is_a_clear_refusal(pi, tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", str(blocker / "units"))
    assert rc == 2 and out == ""
    assert err.startswith(f"companion install-service: cannot write {blocker}/units/")
    assert "(run it with sudo, or --dry-run to see the unit)" in err


def test_odd_paths_are_quoted_and_percent_escaped():
    text = svc.render_unit(Path("/opt/my 100% venv/bin/companion"), "ana", HOME, (), False)
    service = parse(text)["Service"]
    assert service["ExecStart"] == '"/opt/my 100%% venv/bin/companion" run'
    assert service["WorkingDirectory"] == "/srv/table homes/ana"
    assert "SupplementaryGroups" not in service


@pytest.mark.parametrize("desktop", [False, True], ids=["console", "desktop"])
def test_generated_unit_is_valid_for_systemd(tmp_path, desktop):
    """Parsed as INI (always) and, where systemd-analyze exists, verified by systemd itself
    with no warning at all (an unknown key or a bad value is a warning there)."""
    venv = tmp_path / "my 100% venv" / "bin"
    venv.mkdir(parents=True)
    companion = venv / "companion"
    companion.write_text("#!/bin/sh\n")
    companion.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    text = svc.render_unit(companion, "tableuser", home, svc.GROUPS, desktop)
    unit = parse(text)
    assert unit.sections() == ["Unit", "Service", "Install"]
    assert unit["Service"]["ExecStart"].startswith('"') and "%%" in unit["Service"]["ExecStart"]
    path = tmp_path / (svc.DESKTOP_UNIT if desktop else svc.SYSTEM_UNIT)
    path.write_text(text, encoding="utf-8")
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return
    env = dict(os.environ)
    argv = [analyze]
    if desktop:
        runtime = tmp_path / "runtime"
        runtime.mkdir(mode=0o700)
        env["XDG_RUNTIME_DIR"] = str(runtime)
        argv.append("--user")
    result = subprocess.run(
        [*argv, "verify", str(path)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.parametrize("desktop", [False, True], ids=["console", "desktop"])
def test_example_units_in_the_repository_are_what_the_command_writes(desktop):
    """systemd/*.service (for manual installs) are the command's output for the account
    ``pi`` with the repository cloned to ~/companion; they can't drift from it."""
    name = svc.DESKTOP_UNIT if desktop else svc.SYSTEM_UNIT
    shipped = (REPO / "systemd" / name).read_text(encoding="utf-8")
    expected = svc.render_unit(
        Path("/home/pi/companion/.venv/bin/companion"),
        "pi",
        Path("/home/pi"),
        svc.GROUPS,
        desktop,
    )
    assert shipped == expected


def test_run_exits_with_the_status_the_unit_does_not_restart(tmp_path, capsys):
    """A configuration error makes `companion run` exit 2 (one line, no traceback): the
    status the unit names in RestartPreventExitStatus, so a bad file isn't restarted."""
    bad = tmp_path / "config.yaml"
    bad.write_text("seats:\n  - {name: Ana, colour: red, position: bottom}\n", encoding="utf-8")
    rc = main(["run", "--config", str(bad)])
    _, err = capsys.readouterr()
    assert rc == svc.CONFIG_ERROR == 2
    assert err == f"companion run: {bad}:1: seats: 1 seats, the table takes 2–5\n"
    unit = parse(svc.render_unit(Path("/x/companion"), "ana", HOME, svc.GROUPS, False))
    assert unit["Service"]["RestartPreventExitStatus"] == str(rc)
