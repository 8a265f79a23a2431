"""`companion install-service`: start the kiosk at boot, as a systemd unit.

Two ways to run the kiosk, both with ``Restart=on-failure`` (see systemd/README.md):

- default, Raspberry Pi OS Lite: a system unit that runs ``companion run`` as a non-root
  user on the console (tty1), drawing straight to the screen with SDL's ``kmsdrm`` driver;
  no desktop needed. Supplementary groups give it the GPIO pins (gpio), the seat pads
  (dialout), the display (video, render) and the touchscreen (input).
- ``--desktop``: a user unit started with the user's desktop session
  (``graphical-session.target``); the companion opens on that desktop.

The unit names this virtual environment's ``companion`` script (so it runs the installed
code), the account that runs it and that account's home as working directory. Exit 2
(a configuration error) is not restarted: restarting would not fix it.

Before writing, it checks the machine: systemd running, the groups present, and for the
console variant a pygame whose SDL has the ``kmsdrm`` driver. Any problem is a refusal
(exit 2, nothing written). ``--dry-run`` prints the unit and the commands instead of
writing, and reports the same problems on stderr (exit 2 if any).
"""

from __future__ import annotations

import argparse
import ctypes
import getpass
import grp
import os
import pwd
import shutil
import sys
from pathlib import Path

SYSTEM_UNIT = "companion-kiosk.service"
DESKTOP_UNIT = "companion-kiosk-desktop.service"
SYSTEM_DIR = Path("/etc/systemd/system")
SYSTEMD_RUNTIME = Path("/run/systemd/system")  # exists iff systemd is the init (sd_booted)
GROUPS = ("gpio", "dialout", "video", "input", "render")
CONFIG_ERROR = 2  # `companion run` exits 2 on a configuration error
# what each group gives the kiosk
NEEDS = {
    "gpio": "the GPIO seat buttons and lights",
    "dialout": "the serial seat pads",
    "video": "the display",
    "input": "the touchscreen",
    "render": "the display",
}
HEADER = "# Written by `companion install-service`; see systemd/README.md in the repository.\n"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--user",
        metavar="NAME",
        help="account that runs the kiosk (not root); default: the user who ran sudo, "
        "else the current user",
    )
    p.add_argument(
        "--desktop",
        action="store_true",
        help="a user unit started with the desktop session instead of the console (kmsdrm)",
    )
    p.add_argument(
        "--skip-group",
        action="append",
        default=[],
        choices=GROUPS,
        metavar="GROUP",
        help=f"leave out a group this machine lacks (one of {', '.join(GROUPS)}; "
        "e.g. gpio when the seats are serial pads); repeatable",
    )
    p.add_argument(
        "--unit-dir",
        type=Path,
        metavar="DIR",
        help=f"where to write the unit (default {SYSTEM_DIR}, or ~NAME/.config/systemd/user "
        "with --desktop)",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="print the unit and the commands, write nothing"
    )


def quoted(value: str) -> str:
    """``value`` as one word of a systemd setting: ``%`` escaped (specifiers), quoted if it
    holds spaces or quotes."""
    word = value.replace("%", "%%")
    if any(c.isspace() or c in "\"'\\;" for c in word):
        word = '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return word


def render_unit(
    companion: Path, user: str, home: Path, groups: tuple[str, ...], desktop: bool
) -> str:
    """The unit file text. ``companion`` is the venv's ``companion`` script, ``user`` the
    account (set in the system unit only: a user unit runs as its owner), ``home`` its home
    (the working directory), ``groups`` the supplementary groups (system unit only)."""
    exe = quoted(str(companion))
    workdir = str(home).replace("%", "%%")
    service = f"""\
Type=simple
WorkingDirectory={workdir}
"""
    restart = f"""\
ExecStart={exe} run
Restart=on-failure
RestartSec=3
# exit {CONFIG_ERROR} = a configuration error: restarting won't fix it (see journalctl)
RestartPreventExitStatus={CONFIG_ERROR}
"""
    if desktop:
        return (
            HEADER
            + f"""\
# Desktop variant: a user unit, started with the desktop session of its user.
[Unit]
Description=Table companion kiosk (in the desktop session)
PartOf=graphical-session.target
After=graphical-session.target
StartLimitIntervalSec=120
StartLimitBurst=5

[Service]
{service}Environment=PYTHONUNBUFFERED=1 PYGAME_HIDE_SUPPORT_PROMPT=1
{restart}
[Install]
WantedBy=graphical-session.target
"""
        )
    group_line = f"SupplementaryGroups={' '.join(groups)}\n" if groups else ""
    return (
        HEADER
        + f"""\
# Console variant (Raspberry Pi OS Lite): fullscreen on tty1 through SDL's kmsdrm driver.
[Unit]
Description=Table companion kiosk (console, SDL kmsdrm)
After=systemd-user-sessions.service getty@tty1.service
Conflicts=getty@tty1.service
StartLimitIntervalSec=120
StartLimitBurst=5

[Service]
User={user}
{group_line}{service}Environment=SDL_VIDEODRIVER=kmsdrm PYTHONUNBUFFERED=1 PYGAME_HIDE_SUPPORT_PROMPT=1
TTYPath=/dev/tty1
TTYReset=yes
TTYVHangup=yes
TTYVTDisallocate=yes
StandardInput=tty
StandardOutput=journal
StandardError=journal
{restart}
[Install]
WantedBy=multi-user.target
"""
    )


def commands(unit: Path, user: str, desktop: bool, groups: tuple[str, ...]) -> list[str]:
    """What to run after the unit is written, and how to remove it again."""
    ctl = "systemctl --user" if desktop else "sudo systemctl"
    # A user unit runs with the account's own groups; a system unit gets them from the unit.
    out = (
        [f"sudo usermod -aG {','.join(groups)} {user}    # then log in again"]
        if (desktop and groups)
        else []
    )
    out += [
        f"{ctl} daemon-reload",
        f"{ctl} enable --now {unit.name}",
        f"journalctl {'--user ' if desktop else ''}-u {unit.name} -f    # its log",
        (
            f"# to remove: {ctl} disable --now {unit.name} && "
            f"{'' if desktop else 'sudo '}rm {unit} && {ctl} daemon-reload"
        ),
    ]
    return out


def companion_script() -> Path:
    """This environment's ``companion`` script (beside the running interpreter; the
    interpreter path is kept as is: a venv's python is a symlink out of the venv)."""
    return Path(sys.executable).absolute().parent / "companion"


def home_of(user: str) -> Path:
    """The account's home; KeyError if there is no such account."""
    return Path(pwd.getpwnam(user).pw_dir)


def group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def systemd_running() -> bool:
    """systemd is this machine's init and ``systemctl`` is on the PATH."""
    return SYSTEMD_RUNTIME.is_dir() and shutil.which("systemctl") is not None


def video_drivers() -> tuple[str, ...]:
    """The video drivers compiled into the SDL that this environment's pygame loads."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame  # noqa: F401  (loads its SDL library into this process)

    with open("/proc/self/maps", encoding="utf-8") as maps:
        paths = [line.split(maxsplit=5)[-1].strip() for line in maps]
    path = next((p for p in paths if p.rsplit("/", 1)[-1].startswith("libSDL2-2")), None)
    if path is None:
        return ()
    sdl = ctypes.CDLL(path)
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    return tuple(sdl.SDL_GetVideoDriver(i).decode() for i in range(sdl.SDL_GetNumVideoDrivers()))


def problems(desktop: bool, skipped: tuple[str, ...]) -> list[str]:
    """What on this machine stops the kiosk unit from working; empty when all is well."""
    found = []
    if not systemd_running():
        found.append(
            f"systemd is not running on this machine (no {SYSTEMD_RUNTIME}) or systemctl is "
            "missing: nothing here could start the unit"
        )
    missing = [g for g in GROUPS if g not in skipped and not group_exists(g)]
    if missing:
        uses = ", ".join(dict.fromkeys(NEEDS[g] for g in missing))
        found.append(
            f"group{'s' if len(missing) > 1 else ''} missing on this machine: "
            f"{', '.join(missing)} (Raspberry Pi OS has them all; the kiosk needs them for "
            f"{uses}). Create {'them' if len(missing) > 1 else 'it'} or, if the kiosk can do "
            f"without, pass {' '.join('--skip-group ' + g for g in missing)}"
        )
    if not desktop:
        drivers = video_drivers()
        if "kmsdrm" not in (d.lower() for d in drivers):  # SDL names it KMSDRM
            found.append(
                "this environment's pygame has no kmsdrm video driver (its SDL has: "
                f"{', '.join(drivers) or 'none found'}): on the console the kiosk would show nothing. Build "
                "pygame against the system's SDL (systemd/README.md) or use --desktop"
            )
    return found


def _fail(message: str) -> int:
    print(f"companion install-service: {message}", file=sys.stderr)
    return CONFIG_ERROR


def run(args: argparse.Namespace) -> int:
    user = args.user or os.environ.get("SUDO_USER") or getpass.getuser()
    if user == "root":
        return _fail("--user: the kiosk must not run as root; give --user NAME (e.g. --user pi)")
    try:
        home = home_of(user)
    except KeyError:
        return _fail(f"--user: no account {user!r} on this machine")
    companion = companion_script()
    if not os.access(companion, os.X_OK):
        return _fail(
            f"{companion} not found: run this from the companion's venv "
            "(e.g. .venv/bin/companion install-service)"
        )
    skipped = tuple(args.skip_group)
    groups = tuple(g for g in GROUPS if g not in skipped)
    name = DESKTOP_UNIT if args.desktop else SYSTEM_UNIT
    default_dir = home / ".config" / "systemd" / "user" if args.desktop else SYSTEM_DIR
    unit = (args.unit_dir or default_dir) / name
    text = render_unit(companion, user, home, groups, args.desktop)
    todo = commands(unit, user, args.desktop, groups)
    found = problems(args.desktop, skipped)
    if args.dry_run:
        print(text)
        print(f"# would write {unit}, then run:")
        print("\n".join(f"#   {c}" for c in todo))
        for problem in found:
            _fail(f"would refuse: {problem}")
        return CONFIG_ERROR if found else 0
    if found:
        for problem in found:
            _fail(problem)
        return CONFIG_ERROR
    try:
        unit.parent.mkdir(parents=True, exist_ok=True)
        unit.write_text(text, encoding="utf-8")
    except OSError as exc:
        hint = "" if args.desktop else " (run it with sudo, or --dry-run to see the unit)"
        return _fail(f"cannot write {unit}: {exc.strerror}{hint}")
    if args.desktop and os.geteuid() == 0:
        _give_to(unit, home, user)
    print(f"Wrote {unit}. Now run:")
    print("\n".join(f"  {c}" for c in todo))
    return 0


def _give_to(unit: Path, home: Path, user: str) -> None:
    """Written by root into a user's home: hand the unit and the directories made for it
    over to the user, or their systemd can't manage it."""
    entry = pwd.getpwnam(user)
    path = unit
    while path != home and home in path.parents:
        os.chown(path, entry.pw_uid, entry.pw_gid)
        path = path.parent
