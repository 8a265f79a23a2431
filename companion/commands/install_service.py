"""`companion install-service`: start the kiosk at boot, as a systemd unit.

Its length: the two units, the checks a Pi must pass before either is written (groups,
SDL's kmsdrm, Mesa, a display) and the uninstall share the same paths and wording.

Two ways to run the kiosk, both with ``Restart=on-failure`` (see systemd/README.md):

- default, Raspberry Pi OS Lite: a system unit that runs ``companion run`` as a non-root
  user on the console (tty1), drawing straight to the screen with SDL's ``kmsdrm`` driver;
  no desktop needed. Supplementary groups give it the GPIO pins (gpio), the seat pads
  (dialout), the display (video, render) and the touchscreen (input).
- ``--desktop``: a user unit, started at login by the desktop session's own autostart
  (``companion.system.autostart``: Pi OS's labwc and wayfire sessions never start
  ``graphical-session.target``, so the unit is wanted by nothing of systemd's).

Both units are sandboxed (``sandbox``): the data directory is the only place the kiosk
may write, no network, no privileges; the console unit reaches only the devices it uses.

The unit names this virtual environment's ``companion`` script (so it runs the installed
code), the account that runs it and that account's home as working directory. Exit 2
(a configuration error) is not restarted: restarting would not fix it.

Before writing, it checks the machine: systemd running, the groups present, and for the
console variant a pygame whose SDL has the ``kmsdrm`` driver. Any problem is a refusal
(exit 2, nothing written). ``--dry-run`` prints the unit, the autostart entries and the
commands instead of writing, and reports the same problems on stderr (exit 2 if any).
``--uninstall`` takes away what the install wrote.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import getpass
import grp
import os
import pwd
import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

from companion.system import autostart, realtime
from companion.system.autostart import Change

SYSTEM_UNIT = "companion-kiosk.service"
DESKTOP_UNIT = "companion-kiosk-desktop.service"
SYSTEM_DIR = Path("/etc/systemd/system")
SYSTEMD_RUNTIME = Path("/run/systemd/system")  # exists iff systemd is the init (sd_booted)
GROUPS = ("gpio", "dialout", "video", "input", "render")
CONFIG_ERROR = 2  # `companion run` exits 2 on a configuration error
KIOSK_NICE = -10  # the console unit's Nice=: ahead of background work
# The console unit's WatchdogSec=: a loop silent this long is ended and restarted. The loop
# says it is alive every half of it; a frame, a commit or a replay takes far less.
WATCHDOG_S = 30
# what each group gives the kiosk
NEEDS = {
    "gpio": "the GPIO seat buttons and lights",
    "dialout": "the serial seat pads",
    "video": "the display",
    "input": "the touchscreen",
    "render": "the display",
}
# The console unit's devices, by their kernel driver name (/proc/devices): the display
# (DRM), the touchscreen (evdev), the GPIO chips (lgpio, gpiozero's default), the Pico
# seat pads (USB CDC ACM) and USB serial adapters, and its console (tty1).
# /dev/gpiomem for the RPi.GPIO pin factory on a Pi 4 or older (its driver is rpi-gpiomem
# in current Pi kernels, bcm2835-gpiomem in older ones; a name the kernel lacks is ignored).
DEVICES = (
    "char-drm",
    "char-input",
    "char-gpiochip",
    "char-rpi-gpiomem",
    "char-bcm2835-gpiomem",
    "char-ttyACM",
    "char-ttyUSB",
    "char-tty",
)
# What SDL's kmsdrm driver opens at run time (GBM, DRM) and its GLES renderer (EGL, GLES),
# by the Debian packages that have them (libgl1-mesa-dri: the GPU's Mesa driver).
DISPLAY_LIBRARIES = ("libgbm.so.1", "libdrm.so.2", "libEGL.so.1", "libGLESv2.so.2")
DISPLAY_PACKAGES = "libgbm1 libdrm2 libegl1 libgles2 libgl1-mesa-dri"
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
        help="a user unit started by the desktop session's autostart instead of the "
        "console (kmsdrm)",
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
        "--uninstall",
        action="store_true",
        help="remove the unit (and with --desktop the autostart entries) written before",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="print what would be written, write nothing"
    )


def quoted(value: str) -> str:
    """``value`` as one word of a systemd setting: ``%`` escaped (specifiers), quoted if it
    holds spaces or quotes."""
    word = value.replace("%", "%%")
    if any(c.isspace() or c in "\"'\\;" for c in word):
        word = '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return word


# With phones as seat pads (the configuration's ``phones: {enabled: yes}``) the kiosk opens
# the local network only: loopback, the private and link-local ranges (IPv4 RFC 1918 and
# 169.254/16, IPv6 fe80::/10 and fc00::/7) and binds the one port (systemd.exec(5)
# RestrictAddressFamilies=, systemd.resource-control(5) IPAddressAllow=, SocketBindAllow=).
LOCAL_NETWORKS = ("localhost 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 169.254.0.0/16 "
                  "fe80::/10 fc00::/7")


def network(phones_port: int | None) -> str:
    """The unit's network lines: none at all, or the local network on the phones' port."""
    if phones_port is None:
        return "RestrictAddressFamilies=AF_UNIX AF_NETLINK\nIPAddressDeny=any\n"
    return f"""\
# Phones as seat pads: the local network only, listening on port {phones_port} alone
RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6
IPAddressDeny=any
IPAddressAllow={LOCAL_NETWORKS}
SocketBindAllow=tcp:{phones_port}
SocketBindDeny=any
"""


def sandbox(data_dir: Path, desktop: bool, phones_port: int | None = None) -> str:
    """The unit's hardening. Reads everywhere it may today; writes only to ``data_dir``
    (journal, history, log: ``-``: a missing one is the kiosk's own clear error, not a
    failed mount); talks only over local sockets (Wayland/X11, the journal) and netlink
    (udev: input and serial hot plug); no privilege, capability or kernel tunable.
    /proc stays whole: gpiozero and the Pi detection read /proc/device-tree and cpuinfo.
    The console unit also closes /dev but for ``DEVICES``, and lets the kiosk put its press
    path under real-time scheduling itself (``realtime.request``, bounded by the unit's
    ``LimitRTPRIO``): no ``RestrictRealtime``, and ``sched_setscheduler`` back in the
    allowed calls. The desktop unit runs under the user's manager, which can't filter
    devices or grant real-time priority (and its session owns the display), and sees the
    X11 sockets of the real /tmp in its private one (an X session's display)."""
    devices = (
        "BindReadOnlyPaths=-/tmp/.X11-unix\n"
        if desktop
        else "DevicePolicy=closed\n" + "".join(f"DeviceAllow={d} rw\n" for d in DEVICES)
    )
    no_realtime = "RestrictRealtime=yes\n" if desktop else ""
    own_scheduling = "" if desktop else "SystemCallFilter=sched_setscheduler\n"
    return f"""\
# Sandbox: {quoted(str(data_dir))} is the only place it may write
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=read-only
ReadWritePaths={quoted(f"-{data_dir}")}
PrivateTmp=yes
UMask=0077
{devices}ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
PrivateMounts=yes
KeyringMode=private
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
{network(phones_port)}RestrictNamespaces=yes
{no_realtime}RestrictSUIDSGID=yes
LockPersonality=yes
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallFilter=~@privileged @resources
{own_scheduling}SystemCallErrorNumber=EPERM
CapabilityBoundingSet=
AmbientCapabilities=
"""


def render_unit(
    companion: Path,
    user: str,
    home: Path,
    groups: tuple[str, ...],
    desktop: bool,
    data_dir: Path | None = None,
    phones_port: int | None = None,
) -> str:
    """The unit file text. ``companion`` is the venv's ``companion`` script, ``user`` the
    account (set in the system unit only: a user unit runs as its owner), ``home`` its home
    (the working directory), ``groups`` the supplementary groups (system unit only),
    ``data_dir`` where it keeps its data (default ``~/.local/share/companion``),
    ``phones_port`` the phones' port when they are on (the local network opens)."""
    data_dir = data_dir or home / ".local" / "share" / "companion"
    exe = quoted(str(companion))
    workdir = str(home).replace("%", "%%")
    # LG_WD: lgpio makes its notification FIFOs (.lgd-nfy*) in its working directory,
    # the read-only home under the sandbox; /tmp is the unit's own (PrivateTmp).
    env = (
        f"{quoted(f'COMPANION_DATA_DIR={data_dir}')} LG_WD=/tmp "
        "PYTHONUNBUFFERED=1 PYGAME_HIDE_SUPPORT_PROMPT=1"
    )
    service = f"""\
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
# Desktop variant: a user unit, started at login by the desktop session's autostart entry
# (~/.config/autostart/companion-kiosk.desktop), which passes it the session's display;
# SDL talks Wayland to labwc/wayfire, X11 to an X session.
[Unit]
Description=Table companion kiosk (in the desktop session)
StartLimitIntervalSec=120
StartLimitBurst=5

[Service]
Type=simple
{service}Environment=SDL_VIDEODRIVER=wayland,x11 {env}
{restart}{sandbox(data_dir, desktop=True, phones_port=phones_port)}"""
        )
    group_line = f"SupplementaryGroups={' '.join(groups)}\n" if groups else ""
    return (
        HEADER
        + f"""\
# Console variant (Raspberry Pi OS Lite): fullscreen on tty1 through SDL's kmsdrm driver.
[Unit]
Description=Table companion kiosk (console, SDL kmsdrm)
After=systemd-user-sessions.service getty@tty1.service plymouth-quit-wait.service
Conflicts=getty@tty1.service
# Never given up: a screen that comes late (a display driver still loading, a monitor
# switched on after the Pi) fails the start, and the next try RestartSec later finds it.
StartLimitIntervalSec=0

[Service]
User={user}
{group_line}# Started once its first frame is shown (READY=1); restarted when its loop stops saying
# it is alive (WATCHDOG=1 every {WATCHDOG_S // 2} s, from the loop itself: companion/system/sdnotify.py).
# The watchdog's SIGABRT writes every thread's stack to the journal (PYTHONFAULTHANDLER).
Type=notify
NotifyAccess=main
WatchdogSec={WATCHDOG_S}
{service}Environment=SDL_VIDEODRIVER=kmsdrm {env} PYTHONFAULTHANDLER=1
TTYPath=/dev/tty1
TTYReset=yes
TTYVHangup=yes
TTYVTDisallocate=yes
StandardInput=tty
StandardOutput=journal
StandardError=journal
# Ahead of background work (apt, logs) for the CPU: a press's light waits for the loop's
# thread and the backend's to be woken and run. `companion run` puts them under real-time
# round-robin at the priority LimitRTPRIO grants (and says so in its log; a kernel that
# refuses leaves them as they were); Nice is for its threads that stay normal. It idles
# below 1 %. (System units only: a user manager may not raise a priority.)
Nice={KIOSK_NICE}
LimitRTPRIO={realtime.PRIORITY}
{restart}{sandbox(data_dir, desktop=False, phones_port=phones_port)}
[Install]
WantedBy=multi-user.target
"""
    )


def commands(
    unit: Path,
    user: str,
    desktop: bool,
    groups: tuple[str, ...],
    companion: Path,
    from_tty1: bool = False,
) -> list[str]:
    """What to run after the unit is written, and how to remove it again (``companion``:
    this venv's script; root's PATH doesn't have it; ``from_tty1``: typed on the console
    the kiosk takes over)."""
    if desktop:
        # A user unit runs with the account's own groups; a system unit gets them from the
        # unit. The session's autostart entry starts it at the next login.
        out = (
            [f"sudo usermod -aG {','.join(groups)} {user}    # then log in again"] if groups else []
        )
        return [
            *out,
            "systemctl --user daemon-reload",
            f"# log out and in again (or reboot): the session's autostart starts {unit.name}",
            f"journalctl --user -u {unit.name} -f    # its log",
            f"# to remove: {shlex.quote(str(companion))} install-service --desktop --uninstall",
        ]
    if from_tty1:
        # The unit takes tty1 (Conflicts=getty@tty1, TTYVHangup): started from a login
        # there, it would hang up that very login, and the commands after it with it.
        start = [
            f"sudo systemctl enable {unit.name}",
            (
                "sudo reboot    # not --now from tty1: the kiosk takes tty1 and would end "
                "this login (or start it from SSH or tty2, Ctrl+Alt+F2)"
            ),
        ]
    else:
        start = [f"sudo systemctl enable --now {unit.name}"]
    return [
        "sudo systemctl daemon-reload",
        *start,
        f"journalctl -u {unit.name} -f    # its log",
        f"# to remove: sudo {shlex.quote(str(companion))} install-service --uninstall",
    ]


def on_tty1() -> bool:
    """This command was typed on the first virtual console, the one the kiosk takes."""
    try:
        return os.ttyname(0) == "/dev/tty1"  # stdin, as sudo passes it on
    except OSError:  # not a terminal, or no stdin at all
        return False


def companion_script() -> Path:
    """This environment's ``companion`` script (beside the running interpreter; the
    interpreter path is kept as is: a venv's python is a symlink out of the venv)."""
    return Path(sys.executable).absolute().parent / "companion"


def home_of(user: str) -> Path:
    """The account's home; KeyError if there is no such account."""
    return Path(pwd.getpwnam(user).pw_dir)


@contextlib.contextmanager
def _as_seen_from(home: Path) -> Iterator[None]:
    """The environment as ``companion run`` sees it in the unit: HOME the account's, none
    of the caller's data directory variables (sudo keeps some of them)."""
    saved = dict(os.environ)
    os.environ["HOME"] = str(home)
    for name in ("COMPANION_CONFIG", "COMPANION_DATA_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        os.environ.pop(name, None)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def data_dir_of(home: Path) -> Path:
    """Where the kiosk of the account at ``home`` keeps its data: its configuration's
    ``data_dir`` when it names one, else ``~/.local/share/companion``. A configuration
    that doesn't load is a ``SourceError`` (the kiosk could not start with it either)."""
    from companion.config import load_config  # loaded on use (start-up of the command)

    with _as_seen_from(home):
        config = home / ".config" / "companion" / "config.yaml"
        default = home / ".local" / "share" / "companion"
        if not config.is_file():
            return default
        return load_config(config).data_dir.resolve()  # systemd wants it without '..'


def phones_port_of(home: Path) -> int | None:
    """The phones' port when the configuration of the account at ``home`` turns them on."""
    from companion.config import load_config

    with _as_seen_from(home):
        config = home / ".config" / "companion" / "config.yaml"
        if not config.is_file():
            return None
        phones = load_config(config).phones
        return phones.port if phones.enabled else None


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


def missing_display_libraries() -> list[str]:
    """Those of ``DISPLAY_LIBRARIES`` the dynamic loader can't open here."""
    missing = []
    for name in DISPLAY_LIBRARIES:
        try:
            ctypes.CDLL(name)
        except OSError:
            missing.append(name)
    return missing


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
                f"{', '.join(drivers) or 'none found'}): on the console the kiosk would show "
                "nothing. Install the companion's own dependencies into it (./scripts/run.sh: "
                "pygame-ce, whose wheels have kmsdrm) or use --desktop"
            )
        missing_libraries = missing_display_libraries()
        if missing_libraries:
            found.append(
                f"SDL's kmsdrm driver needs {', '.join(missing_libraries)}, not installed "
                f"here: sudo apt install {DISPLAY_PACKAGES}"
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
    name = DESKTOP_UNIT if args.desktop else SYSTEM_UNIT
    default_dir = home / ".config" / "systemd" / "user" if args.desktop else SYSTEM_DIR
    unit = (args.unit_dir or default_dir) / name
    if args.uninstall:
        return _uninstall(args, unit, home, user)
    companion = companion_script()
    if not os.access(companion, os.X_OK):
        return _fail(
            f"{companion} not found: run this from the companion's venv "
            "(e.g. .venv/bin/companion install-service)"
        )
    skipped = tuple(args.skip_group)
    groups = tuple(g for g in GROUPS if g not in skipped)
    data_dir = data_dir_of(home)
    text = render_unit(companion, user, home, groups, args.desktop, data_dir,
                       phones_port_of(home))
    changes = [Change(unit, autostart.read_if_there(unit, "a systemd unit"), text)]
    if args.desktop:
        changes += autostart.install_changes(home, name)
    todo = commands(unit, user, args.desktop, groups, companion, on_tty1())
    found = problems(args.desktop, skipped)
    if args.dry_run:
        print(text)
        for change in changes[1:]:
            print(f"# would {change.describe()}:")
            print(change.after)
        print(f"# would write {unit}, then run:")
        print("\n".join(f"#   {c}" for c in todo))
        for problem in found:
            _fail(f"would refuse: {problem}")
        return CONFIG_ERROR if found else 0
    if found:
        for problem in found:
            _fail(problem)
        return CONFIG_ERROR
    new_data_dir = not data_dir.exists()
    try:
        for change in changes:
            change.apply()
        data_dir.mkdir(parents=True, exist_ok=True)  # the sandbox's one writable place
        if new_data_dir:
            data_dir.chmod(0o700)  # the account's alone, as the kiosk makes it (any umask)
    except OSError as exc:
        hint = "" if args.desktop else " (run it with sudo, or --dry-run to see the unit)"
        return _fail(f"cannot write {exc.filename or unit}: {exc.strerror}{hint}")
    if os.geteuid() == 0:  # written by root into the account's home: theirs
        for path in [*(c.path for c in changes), data_dir]:
            _give_to(path, home, user)
        if new_data_dir and home not in data_dir.parents:  # made elsewhere: the kiosk's too
            os.chown(data_dir, *account_ids(user))
    print(f"Wrote {unit}.")
    for change in changes[1:]:
        print(f"{change.describe().capitalize()} (starts the kiosk at login).")
    print("Now run:")
    print("\n".join(f"  {c}" for c in todo))
    return 0


def _uninstall(args: argparse.Namespace, unit: Path, home: Path, user: str) -> int:
    """Remove the unit, the links ``systemctl enable`` made to it, and the autostart
    entries; print what stops the running kiosk."""
    wants = sorted(unit.parent.glob(f"*.wants/{unit.name}")) if unit.parent.is_dir() else []
    changes = [Change(p, "", None) for p in (unit, *wants) if p.exists() or p.is_symlink()]
    if args.desktop:
        changes += autostart.uninstall_changes(home)
    ctl = "systemctl --user" if args.desktop else "sudo systemctl"
    todo = [f"{ctl} stop {unit.name}", f"{ctl} daemon-reload"]
    if not args.desktop:
        todo.append("sudo systemctl start getty@tty1.service    # the login prompt on tty1")
    verb = "would " if args.dry_run else ""
    if not changes:
        print(f"Nothing to remove: no {unit}" + (" nor autostart entry" if args.desktop else ""))
        return 0
    for change in changes:
        if not args.dry_run:
            try:
                change.apply()
            except OSError as exc:
                hint = "" if args.desktop else " (run it with sudo)"
                return _fail(f"cannot remove {change.path}: {exc.strerror}{hint}")
            if change.after is not None and os.geteuid() == 0:
                _give_to(change.path, home, user)
        print(f"{verb}{change.describe()}".capitalize())
    print("# then run:" if args.dry_run else "Then run:")
    print("\n".join(f"  {c}" for c in todo))
    return 0


def _give_to(path: Path, home: Path, user: str) -> None:
    """Written by root into a user's home: hand the file and the directories made for it
    over to the user, or their systemd and session can't manage them. Outside the home
    (/etc/systemd/system) nothing changes hands."""
    uid, gid = account_ids(user)
    while path != home and home in path.parents:
        os.chown(path, uid, gid)
        path = path.parent


def account_ids(user: str) -> tuple[int, int]:
    """The account's user and group ids."""
    entry = pwd.getpwnam(user)
    return entry.pw_uid, entry.pw_gid
