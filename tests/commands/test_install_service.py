"""`companion install-service`: the kiosk unit it writes (and its sandbox), the desktop
session's autostart entries, the commands it prints, the uninstall, and its refusals (root,
unknown account, no systemd, a missing group, no kmsdrm on the console).

The machine checks are replaced per test where the test machine can't play the part (it
has no systemd running and no gpio group); each real check is also run once as it is.
"""

from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from unit_file import environment, parse

from companion.cli import main
from companion.commands import install_service as svc
from companion.system import autostart, realtime

REPO = Path(__file__).resolve().parents[2]
HOME = Path("/srv/table homes/ana")  # a home with a space, nothing like /home/pi


@pytest.fixture
def pi(monkeypatch):
    """A machine like Raspberry Pi OS: systemd running, every group, SDL with kmsdrm, and an
    account ``ana`` at ``HOME`` (nothing written there: dry runs, or another --unit-dir
    with the data directory's creation caught). Returns the set of groups, for a test to
    take one away."""
    groups = set(svc.GROUPS)
    monkeypatch.setattr(svc, "systemd_running", lambda: True)
    monkeypatch.setattr(svc, "group_exists", lambda name: name in groups)
    # as pygame-ce's SDL 2.32 names them (SDL matches SDL_VIDEODRIVER=kmsdrm case-blind)
    monkeypatch.setattr(svc, "video_drivers", lambda: ("x11", "wayland", "KMSDRM", "dummy"))
    monkeypatch.setattr(svc, "missing_display_libraries", list)
    monkeypatch.setattr(svc, "home_of", lambda user: {"ana": HOME}[user])
    return groups


@pytest.fixture
def pi_home(pi, monkeypatch, tmp_path):
    """The same machine with ana's home a real directory (with a space in its path)."""
    home = tmp_path / "table homes" / "ana"
    home.mkdir(parents=True)
    monkeypatch.setattr(svc, "home_of", lambda user: {"ana": home}[user])
    monkeypatch.setattr(svc, "account_ids", lambda user: {"ana": (os.getuid(), os.getgid())}[user])
    return home


def cli(capsys, *argv):
    rc = main(["install-service", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def unit_part(out: str) -> str:
    return out.split("# would ")[0]


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
    data = HOME / ".local/share/companion"
    assert environment(service)["COMPANION_DATA_DIR"] == str(data)
    # exit 2 is a configuration error: systemd must not restart it (only the main process's
    # status counts, so there is no ExecStartPre that could exit 2 instead)
    assert service["RestartPreventExitStatus"] == "2"
    assert "ExecStartPre" not in service
    assert environment(service)["SDL_VIDEODRIVER"] == "kmsdrm"
    assert service["TTYPath"] == "/dev/tty1"
    assert service["Nice"] == "-10"  # woken ahead of background work: the seat lights
    # ... and the press path may take real-time priority (companion/system/realtime.py), no more
    assert service["LimitRTPRIO"] == str(realtime.PRIORITY)
    assert unit["Unit"]["Conflicts"] == "getty@tty1.service"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    # started once the first frame is shown, restarted when the loop stops saying it lives
    # (companion/system/sdnotify.py; tests/ui/test_sdnotify.py)
    assert (service["Type"], service["NotifyAccess"]) == ("notify", "main")
    assert service["WatchdogSec"] == str(svc.WATCHDOG_S) == "30"
    assert environment(service)["PYTHONFAULTHANDLER"] == "1"  # the hang's stacks, logged
    # never given up: a screen that comes late is found by a later start
    assert unit["Unit"]["StartLimitIntervalSec"] == "0" and "StartLimitBurst" not in unit["Unit"]
    assert int(service["RestartSec"]) <= 5
    assert "/home/pi" not in out and "User=pi" not in out
    assert f"# would write {svc.SYSTEM_DIR / svc.SYSTEM_UNIT}, then run:" in out
    assert "#   sudo systemctl daemon-reload" in out
    assert "#   sudo systemctl enable --now companion-kiosk.service" in out
    assert "#   journalctl -u companion-kiosk.service -f" in out
    assert f"#   # to remove: sudo {svc.companion_script()} install-service --uninstall" in out


def test_desktop_unit_is_a_user_unit_started_by_the_session_autostart(pi, capsys):
    """Pi OS's labwc and wayfire sessions never start graphical-session.target: the unit
    is wanted by nothing of systemd's, the session's XDG autostart entry starts it."""
    rc, out, err = cli(capsys, "--dry-run", "--user", "ana", "--desktop")
    assert (rc, err) == (0, "")
    unit = parse(unit_part(out))
    assert unit.sections() == ["Unit", "Service"]  # no [Install]: nothing enables it
    assert "graphical-session" not in out
    assert "User" not in unit["Service"]  # a user unit runs as its owner
    assert "SupplementaryGroups" not in unit["Service"]
    assert "Nice" not in unit["Service"]  # a user manager can't raise it: it would not start
    assert "LimitRTPRIO" not in unit["Service"]  # nor grant real-time priority
    assert unit["Service"]["WorkingDirectory"] == str(HOME)
    assert unit["Service"]["RestartPreventExitStatus"] == "2"
    assert environment(unit["Service"])["SDL_VIDEODRIVER"] == "wayland,x11"
    assert unit["Service"]["Type"] == "simple" and "WatchdogSec" not in unit["Service"]
    entry = HOME / ".config/autostart/companion-kiosk.desktop"
    shown = out.split(f"# would create {entry}:\n")[1].split("\n# would ")[0]
    assert shown == autostart.desktop_entry(svc.DESKTOP_UNIT)
    target = HOME / ".config/systemd/user/companion-kiosk-desktop.service"
    assert f"# would write {target}, then run:" in out
    assert "#   sudo usermod -aG gpio,dialout,video,input,render ana    # then log in again" in out
    assert "#   systemctl --user daemon-reload" in out
    assert "systemctl --user enable" not in out
    remove = f"#   # to remove: {svc.companion_script()} install-service --desktop --uninstall"
    assert remove in out


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


def test_refuses_when_a_group_is_missing_unless_skipped(pi, pi_home, tmp_path, capsys):
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
        "Install the companion's own dependencies into it (./scripts/run.sh: pygame-ce, whose "
        "wheels have kmsdrm) or use --desktop"
    )
    rc, out, err = cli(capsys, "--user", "ana", "--desktop", "--dry-run")
    assert (rc, err) == (0, "")  # the desktop session's SDL driver (x11/wayland) will do


def test_video_drivers_are_read_from_the_loaded_sdl():
    """The real probe: SDL always has its dummy and offscreen drivers compiled in."""
    drivers = svc.video_drivers()
    assert {"dummy", "offscreen"} <= set(drivers)


def test_writes_the_unit_it_shows_and_prints_the_commands(pi_home, tmp_path, capsys):
    os.umask(umask := os.umask(0o022))  # the usual umask, under which mkdir makes 0755
    units = tmp_path / "etc" / "systemd"
    _, shown, _ = cli(capsys, "--user", "ana", "--dry-run", "--unit-dir", str(units))
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", str(units))
    assert (rc, err) == (0, "")
    unit = units / svc.SYSTEM_UNIT
    assert unit.read_text(encoding="utf-8") + "\n" == unit_part(shown)
    assert out.splitlines()[:4] == [
        f"Wrote {unit}.",
        "Now run:",
        "  sudo systemctl daemon-reload",
        "  sudo systemctl enable --now companion-kiosk.service",
    ]
    # the sandbox's one writable place exists: a missing one would be read-only there;
    # the account's alone, as the README says and as `companion run` makes it
    data = pi_home / ".local/share/companion"
    assert data.is_dir() and stat.S_IMODE(data.stat().st_mode) == 0o700
    os.umask(umask)


def test_from_tty1_it_says_enable_and_reboot_not_enable_now(pi, monkeypatch, capsys):
    """Typed on tty1, ``enable --now`` would start the unit that takes tty1 and so hang
    up the very login that typed it: enable, then reboot (or start it from elsewhere)."""
    monkeypatch.setattr(svc, "on_tty1", lambda: True)
    rc, out, err = cli(capsys, "--dry-run", "--user", "ana")
    assert (rc, err) == (0, "")
    assert "enable --now" not in out
    assert "#   sudo systemctl enable companion-kiosk.service" in out
    assert "#   sudo reboot    # not --now from tty1" in out


def test_tty1_is_told_from_the_terminal_of_stdin(monkeypatch):
    """The real check: pytest's stdin is no terminal; a terminal's name is asked."""
    assert svc.on_tty1() is False
    monkeypatch.setattr(os, "ttyname", lambda fd: "/dev/tty1")
    assert svc.on_tty1() is True
    monkeypatch.setattr(os, "ttyname", lambda fd: "/dev/pts/3")  # SSH, a desktop terminal
    assert svc.on_tty1() is False


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
    entry = home / autostart.DESKTOP_FILE
    data = home / ".local/share/companion"
    owner = pwd.getpwnam("nobody").pw_uid if os.geteuid() == 0 else os.geteuid()
    for path in (unit, unit.parent, home / ".config", entry, entry.parent, data, data.parent):
        assert path.stat().st_uid == owner, path
    assert home.stat().st_uid == os.geteuid()  # the home itself is left alone


def test_cannot_write_is_a_clear_refusal(pi, tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", str(blocker / "units"))
    assert rc == 2 and out == ""
    assert err.startswith(f"companion install-service: cannot write {blocker}/units")
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
    data = tmp_path / "table data 100%"
    text = svc.render_unit(companion, "tableuser", home, svc.GROUPS, desktop, data)
    unit = parse(text)
    assert unit.sections() == (["Unit", "Service"] if desktop else ["Unit", "Service", "Install"])
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
    assert err == f"companion run: {bad}:1: seats: 1 seat, the table takes 2–5\n"
    unit = parse(svc.render_unit(Path("/x/companion"), "ana", HOME, svc.GROUPS, False))
    assert unit["Service"]["RestartPreventExitStatus"] == str(rc)


# --- the sandbox ------------------------------------------------------------------------


@pytest.mark.parametrize("desktop", [False, True], ids=["console", "desktop"])
def test_units_are_sandboxed_with_the_data_directory_the_only_writable_place(desktop):
    data = Path("/srv/table data/ana")
    unit = parse(svc.render_unit(Path("/x/companion"), "ana", HOME, svc.GROUPS, desktop, data))
    service = unit["Service"]
    for key, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",  # everything read-only ...
        "ProtectHome": "read-only",  # ... homes too (the configuration is read there)
        "PrivateTmp": "yes",
        "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes",
        "ProtectKernelLogs": "yes",
        "ProtectControlGroups": "yes",
        "RestrictNamespaces": "yes",
        "RestrictSUIDSGID": "yes",
        "LockPersonality": "yes",
        "IPAddressDeny": "any",
        "CapabilityBoundingSet": "",
        "UMask": "0077",
    }.items():
        assert service[key] == value, key
    # ... but the data directory ('-': a missing one is the kiosk's own error, not a
    # failed start)
    assert unit.values("Service", "ReadWritePaths") == [f'"-{data}"']
    assert environment(service)["COMPANION_DATA_DIR"] == str(data)
    assert "ReadOnlyPaths" not in service and "BindPaths" not in service
    # local sockets (Wayland, X11, the journal) and netlink (udev hot plug) only
    assert set(service["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_NETLINK"}
    # lgpio's notification FIFOs go to the unit's private /tmp, not the read-only home
    assert environment(service)["LG_WD"] == "/tmp"
    # system calls: a service's, without privileged ones or resource changes, but for the
    # console unit's sched_setscheduler: the kiosk puts its press path under real-time
    # scheduling itself, within LimitRTPRIO (RestrictRealtime would refuse it)
    filters = unit.values("Service", "SystemCallFilter")
    assert filters[:2] == ["@system-service", "~@privileged @resources"]
    if desktop:
        assert filters[2:] == [] and service["RestrictRealtime"] == "yes"
        assert "DevicePolicy" not in service  # a user manager can't filter devices
        # an X session's sockets, read-only, in the private /tmp
        assert unit.values("Service", "BindReadOnlyPaths") == ["-/tmp/.X11-unix"]
        return
    assert filters[2:] == ["sched_setscheduler"] and "RestrictRealtime" not in service
    assert service["DevicePolicy"] == "closed"
    allowed = dict(v.split() for v in unit.values("Service", "DeviceAllow"))
    # display, touchscreen, GPIO chips, Pico seat pads, the console
    for device in ("char-drm", "char-input", "char-gpiochip", "char-ttyACM", "char-tty"):
        assert allowed[device] == "rw", device
    assert service["SupplementaryGroups"].split() == list(svc.GROUPS)


def systemd_analyze() -> str:
    """systemd-analyze, which CI installs (.ci/run sets COMPANION_REQUIRE_SYSTEMD_ANALYZE);
    elsewhere a machine without it skips the tests that need it, saying so."""
    found = shutil.which("systemd-analyze")
    if found is None:
        if os.environ.get("COMPANION_REQUIRE_SYSTEMD_ANALYZE"):
            pytest.fail("systemd-analyze is missing (apt install systemd)")
        pytest.skip("systemd-analyze is not installed here (apt install systemd)")
    return found


@pytest.mark.parametrize("desktop", [False, True], ids=["console", "desktop"])
def test_systemd_rates_both_units_ok_or_better(tmp_path, desktop):
    """`systemd-analyze security --offline=true` grades the exposure of the shipped units
    (OK is below 5.0 of 10; the units as they were rated 9.2 and 9.8, UNSAFE)."""
    analyze = systemd_analyze()
    name = svc.DESKTOP_UNIT if desktop else svc.SYSTEM_UNIT
    argv, env = [analyze], dict(os.environ)
    if desktop:
        runtime = tmp_path / "runtime"
        runtime.mkdir(mode=0o700)
        env["XDG_RUNTIME_DIR"] = str(runtime)
        argv.append("--user")
    result = subprocess.run(
        [*argv, "security", "--offline=true", "--no-pager", str(REPO / "systemd" / name)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d) (\w+)", result.stdout)
    assert found, result.stdout + result.stderr
    level, rating = float(found[1]), found[2]
    assert rating in ("OK", "SAFE", "PERFECT") and level < 5.0, found[0]
    # systemd's own reading of the filter: of @resources the console unit keeps only
    # sched_setscheduler (the first of the group it lets through, after ioprio_set, mbind…)
    resources = next(line for line in result.stdout.splitlines() if "@resources" in line)
    if desktop:
        assert "SystemCallFilter=~@resources" in resources and "is included" not in resources
    else:
        assert "(e.g. sched_setscheduler is allowed)" in resources, resources


def test_data_directory_of_the_unit_is_the_accounts_configured_one(pi_home, tmp_path, capsys):
    """The configuration's data_dir (relative to its file) is the unit's writable place,
    read as the account sees it; without one, ~/.local/share/companion."""
    config = pi_home / ".config/companion/config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(
        (REPO / "companion/data/default-config.yaml").read_text(encoding="utf-8")
        + "\ndata_dir: ../../table data\n",
        encoding="utf-8",
    )
    rc, out, err = cli(capsys, "--dry-run", "--user", "ana")
    assert (rc, err) == (0, "")
    service = parse(unit_part(out))["Service"]
    assert environment(service)["COMPANION_DATA_DIR"] == str(pi_home / "table data")
    assert service["ReadWritePaths"] == f'"-{pi_home / "table data"}"'
    config.write_text("seats: [\n", encoding="utf-8")  # the kiosk couldn't start with it
    rc, out, err = cli(capsys, "--dry-run", "--user", "ana")
    assert rc == 2 and err.startswith(f"companion install-service: {config}:")


# --- the desktop session's autostart and the uninstall ----------------------------------

# Raspberry Pi OS's labwc autostart as a user may have copied it, and a wayfire.ini with
# settings of the user's own (kept byte for byte around our entries).
LABWC = """\
/usr/bin/lwrespawn /usr/bin/pcmanfm-pi &
/usr/bin/lwrespawn /usr/bin/wf-panel-pi &
/usr/bin/kanshi &
/usr/bin/lxsession-xdg-autostart"""
WAYFIRE = """\
[core]
plugins = autostart
# the user's comment
[autostart]
panel = wfrespawn wf-panel-pi

[output:HDMI-A-1]
mode = 1024x600@60
"""


def run_entry(command: str, tmp_path: Path) -> list[list[str]]:
    """Run an autostart entry's command with sh, as the sessions do, against a stand-in
    ``systemctl`` that records its arguments; returns the calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "systemctl.log"
    log.unlink(missing_ok=True)
    fake = bin_dir / "systemctl"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{log}"\n', encoding="utf-8")
    fake.chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "WAYLAND_DISPLAY": "wayland-0"}
    subprocess.run(["sh", "-c", command], check=True, env=env, timeout=30)
    subprocess.run(["sh", "-c", "wait"], check=True, timeout=30)
    return [line.split() for line in log.read_text(encoding="utf-8").splitlines()]


def test_desktop_install_adds_the_autostart_entries_and_uninstall_takes_them_away(
    pi_home, tmp_path, capsys
):
    labwc = pi_home / autostart.LABWC_FILE
    wayfire = pi_home / autostart.WAYFIRE_FILE
    labwc.parent.mkdir(parents=True)
    labwc.write_text(LABWC, encoding="utf-8")
    wayfire.write_text(WAYFIRE, encoding="utf-8")
    entry = pi_home / autostart.DESKTOP_FILE
    unit = pi_home / ".config/systemd/user" / svc.DESKTOP_UNIT

    rc, out, err = cli(capsys, "--user", "ana", "--desktop", "--dry-run")
    assert (rc, err) == (0, "")
    for path in (entry, labwc, wayfire):
        assert f"# would {'create' if path == entry else 'change'} {path}:" in out
    assert not entry.exists() and labwc.read_text(encoding="utf-8") == LABWC

    for _ in range(2):  # twice: still one entry each
        rc, out, err = cli(capsys, "--user", "ana", "--desktop")
        assert (rc, err) == (0, "")
    assert unit.is_file()
    assert entry.read_text(encoding="utf-8") == autostart.desktop_entry(svc.DESKTOP_UNIT)
    assert labwc.read_text(encoding="utf-8") == (
        LABWC + "\n" + autostart.labwc_line(svc.DESKTOP_UNIT) + "\n"
    )
    lines = wayfire.read_text(encoding="utf-8").splitlines()
    assert lines.count(autostart.wayfire_line(svc.DESKTOP_UNIT)) == 1
    assert lines.index(autostart.wayfire_line(svc.DESKTOP_UNIT)) == lines.index("[autostart]") + 1
    assert [x for x in lines if x != autostart.wayfire_line(svc.DESKTOP_UNIT)] == (
        WAYFIRE.splitlines()
    )

    rc, out, err = cli(capsys, "--user", "ana", "--desktop", "--uninstall", "--dry-run")
    assert (rc, err) == (0, "")
    assert f"Would remove {unit}" in out and unit.exists()

    rc, out, err = cli(capsys, "--user", "ana", "--desktop", "--uninstall")
    assert (rc, err) == (0, "")
    assert not unit.exists() and not entry.exists()
    assert labwc.read_text(encoding="utf-8") == LABWC + "\n"
    assert wayfire.read_text(encoding="utf-8") == WAYFIRE
    assert "  systemctl --user stop companion-kiosk-desktop.service" in out
    rc, out, err = cli(capsys, "--user", "ana", "--desktop", "--uninstall")
    assert (rc, err) == (0, "") and out.startswith("Nothing to remove")


def test_wayfire_without_an_autostart_section_gets_one_and_loses_it_again():
    text = "[core]\nplugins = autostart\n"
    added = autostart.with_wayfire_entry(text, svc.DESKTOP_UNIT)
    assert added == text + "\n[autostart]\n" + autostart.wayfire_line(svc.DESKTOP_UNIT) + "\n"
    assert autostart.without_wayfire_entry(added) == text
    # a key of the same name in another section is not ours
    other = "[elsewhere]\ncompanion-kiosk = mine\n"
    assert autostart.without_wayfire_entry(other) == other


def test_every_autostart_entry_runs_the_same_start_of_the_unit(tmp_path):
    """What each session would run, run by sh against a stand-in systemctl: the session's
    display variables handed to the user's systemd, then the unit started."""
    unit = svc.DESKTOP_UNIT
    expected = [
        ["--user", "import-environment", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY"],
        ["--user", "start", unit],
    ]
    # XDG: Exec= is a command line whose double-quoted words are one argument each
    exec_line = next(
        line.split("=", 1)[1]
        for line in autostart.desktop_entry(unit).splitlines()
        if line.startswith("Exec=")
    )
    argv = shlex.split(exec_line)
    assert argv[:2] == ["sh", "-c"] and len(argv) == 3
    assert run_entry(shlex.join(argv), tmp_path) == expected
    # labwc: a line of its autostart shell script (backgrounded)
    assert run_entry(autostart.labwc_line(unit) + "\nwait", tmp_path) == expected
    # wayfire: the value of an [autostart] key, run with sh -c
    value = autostart.wayfire_line(unit).split(" = ", 1)[1]
    assert run_entry(value, tmp_path) == expected


def test_console_uninstall_removes_the_unit_and_its_enable_link(pi_home, tmp_path, capsys):
    units = tmp_path / "units"
    rc, _, err = cli(capsys, "--user", "ana", "--unit-dir", str(units))
    assert (rc, err) == (0, "")
    unit = units / svc.SYSTEM_UNIT
    link = units / "multi-user.target.wants" / svc.SYSTEM_UNIT  # what `enable` makes
    link.parent.mkdir()
    link.symlink_to(unit)
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", str(units), "--uninstall")
    assert (rc, err) == (0, "")
    assert not unit.exists() and not link.is_symlink()
    assert out.splitlines() == [
        f"Remove {unit}",
        f"Remove {link}",
        "Then run:",
        "  sudo systemctl stop companion-kiosk.service",
        "  sudo systemctl daemon-reload",
        "  sudo systemctl start getty@tty1.service    # the login prompt on tty1",
    ]
    assert (pi_home / ".local/share/companion").is_dir()  # the data stays


def test_a_data_directory_made_outside_the_home_by_root_belongs_to_the_account(
    pi_home, tmp_path, monkeypatch, capsys
):
    nobody = pwd.getpwnam("nobody")
    monkeypatch.setattr(svc, "account_ids", lambda user: (nobody.pw_uid, nobody.pw_gid))
    outside = tmp_path / "srv" / "table data"
    config = pi_home / ".config/companion/config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(
        (REPO / "companion/data/default-config.yaml").read_text(encoding="utf-8")
        + f"\ndata_dir: {outside}\n",
        encoding="utf-8",
    )
    rc, _, err = cli(capsys, "--user", "ana", "--unit-dir", str(tmp_path / "units"))
    assert (rc, err) == (0, "")
    owner = nobody.pw_uid if os.geteuid() == 0 else os.geteuid()
    assert outside.stat().st_uid == owner
    assert outside.parent.stat().st_uid == os.geteuid()  # only the directory it writes to


def test_console_refused_without_the_libraries_kmsdrm_opens(pi, monkeypatch, capsys):
    """SDL's kmsdrm driver loads GBM and DRM, its renderer EGL and GLES, at run time: a
    console unit without them would show nothing."""
    monkeypatch.setattr(svc, "missing_display_libraries", lambda: ["libgbm.so.1"])
    rc, out, err = cli(capsys, "--user", "ana", "--unit-dir", "/nonexistent/units")
    assert rc == 2 and out == ""
    assert err.strip() == (
        "companion install-service: SDL's kmsdrm driver needs libgbm.so.1, not installed "
        "here: sudo apt install libgbm1 libdrm2 libegl1 libgles2 libgl1-mesa-dri"
    )
    rc, out, err = cli(capsys, "--user", "ana", "--desktop", "--dry-run")
    assert (rc, err) == (0, "")  # the desktop session's display is the desktop's business


def test_display_libraries_are_looked_up_by_the_dynamic_loader(monkeypatch):
    """The real check, on a library every Linux has and on a name nothing provides."""
    assert set(svc.missing_display_libraries()) <= set(svc.DISPLAY_LIBRARIES)
    monkeypatch.setattr(svc, "DISPLAY_LIBRARIES", ("libc.so.6", "libno-such-table-lib.so.9"))
    assert svc.missing_display_libraries() == ["libno-such-table-lib.so.9"]


@pytest.mark.parametrize("desktop", [False, True], ids=["console", "desktop"])
def test_with_phones_the_unit_opens_the_local_network_on_one_port_and_still_rates_ok(
        tmp_path, desktop):
    """Phones enabled: IPv4/IPv6 sockets, the private and link-local ranges only, binding
    the phones' port alone; systemd verifies it and still rates it OK."""
    home = tmp_path / "home"
    companion = tmp_path / "venv" / "companion"
    companion.parent.mkdir()
    companion.write_text("#!/bin/sh\n")
    companion.chmod(0o755)
    text = svc.render_unit(companion, "tableuser", home, svc.GROUPS, desktop,
                           tmp_path / "data", phones_port=8470)
    service = parse(text)["Service"]
    assert service["RestrictAddressFamilies"].split() == ["AF_UNIX", "AF_NETLINK", "AF_INET",
                                                          "AF_INET6"]
    assert service["IPAddressDeny"] == "any"
    assert service["IPAddressAllow"].split() == [
        "localhost", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
        "fe80::/10", "fc00::/7"]
    assert (service["SocketBindAllow"], service["SocketBindDeny"]) == ("tcp:8470", "any")
    without = parse(svc.render_unit(companion, "tableuser", home, svc.GROUPS, desktop,
                                    tmp_path / "data"))["Service"]
    assert without["RestrictAddressFamilies"] == "AF_UNIX AF_NETLINK"
    assert "IPAddressAllow" not in without
    # the rest of the sandbox is the same
    assert {k: v for k, v in service.items() if not k.startswith(("Restrict", "IPAddress",
                                                                  "SocketBind"))} == {
        k: v for k, v in without.items() if not k.startswith(("Restrict", "IPAddress",
                                                              "SocketBind"))}
    analyze = systemd_analyze()
    path = tmp_path / (svc.DESKTOP_UNIT if desktop else svc.SYSTEM_UNIT)
    path.write_text(text, encoding="utf-8")
    argv, env = [analyze], dict(os.environ)
    if desktop:
        runtime = tmp_path / "runtime"
        runtime.mkdir(mode=0o700)
        env["XDG_RUNTIME_DIR"] = str(runtime)
        argv.append("--user")
    result = subprocess.run([*argv, "security", "--offline=true", "--no-pager", str(path)],
                            check=False, capture_output=True, text=True, env=env, timeout=60)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d) (\w+)", result.stdout)
    assert found, result.stdout + result.stderr
    assert found[2] in ("OK", "SAFE", "PERFECT") and float(found[1]) < 5.0, found[0]
    verified = subprocess.run([*argv, "verify", str(path)], check=False, capture_output=True,
                              text=True, env=env, timeout=60)
    assert verified.returncode == 0, verified.stderr


def test_the_unit_opens_the_network_when_the_accounts_configuration_turns_phones_on(
        pi_home, capsys):
    config = pi_home / ".config/companion/config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text((REPO / "companion/data/default-config.yaml").read_text(encoding="utf-8")
                      .replace("enabled: no", "enabled: yes").replace("port: 8470", "port: 8471"),
                      encoding="utf-8")
    rc, out, err = cli(capsys, "--dry-run", "--user", "ana")
    assert (rc, err) == (0, "")
    assert parse(unit_part(out))["Service"]["SocketBindAllow"] == "tcp:8471"


@pytest.mark.parametrize(("which", "uninstall"), [
    ("unit", False), (autostart.DESKTOP_FILE, False), (autostart.LABWC_FILE, False),
    (autostart.WAYFIRE_FILE, False), (autostart.DESKTOP_FILE, True),
    (autostart.LABWC_FILE, True), (autostart.WAYFIRE_FILE, True)],
    ids=["unit", "entry", "labwc", "wayfire", "uninstall-entry", "uninstall-labwc",
         "uninstall-wayfire"])
def test_a_fifo_in_place_of_a_file_it_reads_is_refused_not_waited_on(pi_home, capsys, which,
                                                                       uninstall):
    """The unit and the account's session files are read as every file opened by name is
    (``regularfile``): a FIFO put there is said, never waited on."""
    fifo = (pi_home / ".config/systemd/user" / svc.DESKTOP_UNIT if which == "unit"
            else pi_home / which)
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    argv = ["--user", "ana", "--desktop", "--dry-run", *(["--uninstall"] if uninstall else [])]
    done: list[tuple[int, str, str]] = []
    worker = threading.Thread(target=lambda: done.append(cli(capsys, *argv)), daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():  # blocked opening the FIFO: a writer lets it go, then say so
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(30)
        pytest.fail(f"install-service waited on the FIFO at {fifo}")
    [(rc, out, err)] = done
    assert rc == 2 and out == ""
    what = {"unit": "a systemd unit", autostart.DESKTOP_FILE: autostart.ENTRY,
            autostart.LABWC_FILE: autostart.LABWC, autostart.WAYFIRE_FILE: autostart.WAYFIRE}
    assert err == (f"companion install-service: {fifo}: cannot read: a FIFO, not a regular "
                   f"file, expected {what[which]}\n")
