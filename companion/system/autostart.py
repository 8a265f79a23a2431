"""The desktop session's own autostart entries that start the desktop kiosk unit.

Raspberry Pi OS Bookworm's desktop sessions (labwc, and wayfire before it) never start
systemd's ``graphical-session.target``, so a user unit wanted by it never runs. Their own
way to start a program at login is an autostart entry:

- an XDG autostart file, ``~/.config/autostart/companion-kiosk.desktop``: Pi OS's labwc and
  wayfire sessions run these through ``lxsession-xdg-autostart`` (so do LXDE, GNOME, KDE,
  Xfce); always written;
- a marked line in ``~/.config/labwc/autostart`` and a ``companion-kiosk`` key in the
  ``[autostart]`` section of ``~/.config/wayfire.ini``, when the account already has that
  file: the account's own file may be the one the session reads instead of the system's,
  and the system's is what runs the XDG entries.

Every entry runs the same command (``launch_command``): hand the session's display
variables to the user's systemd, then start the unit. Starting a unit that already runs
does nothing, so two entries that both fire start one kiosk. The unit keeps what an
autostart line can't: restart on a crash, the sandbox, the journal.

Nothing else in those files is touched: an entry is added or removed as one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.files.safetext import escaped
from companion.files.yamlsrc import SourceError, read_bounded

MARK = "companion-kiosk"  # names every entry, so the uninstall finds exactly ours
DESKTOP_FILE = Path(".config/autostart") / f"{MARK}.desktop"
LABWC_FILE = Path(".config/labwc/autostart")
WAYFIRE_FILE = Path(".config/wayfire.ini")
# the variables a desktop client needs to find the session's display
SESSION_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY")
ENTRY, LABWC, WAYFIRE = "a desktop entry", "labwc's autostart", "a wayfire.ini"
MAX_FILE_BYTES = 1_000_000  # an entry, a unit or a session's configuration is a few kB


@dataclass(frozen=True)
class Change:
    """One file to write (``after``) or delete (``after`` None); ``before`` is what is
    there now (None: no such file)."""

    path: Path
    before: str | None
    after: str | None

    def describe(self) -> str:
        if self.after is None:
            return f"remove {self.path}" if self.before is not None else ""
        if self.before is None:
            return f"create {self.path}"
        return f"change {self.path}"

    def apply(self) -> None:
        if self.after is None:
            self.path.unlink(missing_ok=True)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(self.after, encoding="utf-8")


def launch_command(unit: str) -> str:
    """The shell command every entry runs: the session's display variables to the user's
    systemd (the unit runs there, outside the session), then start the unit."""
    return (
        f"systemctl --user import-environment {' '.join(SESSION_VARIABLES)} "
        f"&& systemctl --user start {unit}"
    )


def desktop_entry(unit: str) -> str:
    """The XDG autostart file (Desktop Entry Specification: ``Exec`` arguments with shell
    characters go in double quotes)."""
    return f"""\
[Desktop Entry]
Type=Application
Name=Table companion kiosk
Comment=Starts {unit} (written by companion install-service --desktop)
Exec=sh -c "{launch_command(unit)}"
Terminal=false
X-GNOME-Autostart-enabled=true
"""


def labwc_line(unit: str) -> str:
    return f"({launch_command(unit)}) &  # {MARK}: added by companion install-service --desktop"


def wayfire_line(unit: str) -> str:
    return f"{MARK} = {launch_command(unit)}"


def with_labwc_entry(text: str, unit: str) -> str:
    """labwc's autostart (a shell script) with our line at its end, once."""
    text = without_labwc_entry(text)
    if text and not text.endswith("\n"):
        text += "\n"
    return text + labwc_line(unit) + "\n"


def without_labwc_entry(text: str) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(line for line in lines if f"# {MARK}:" not in line)


def _is_section(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("[") and stripped.endswith("]")


def _is_our_key(line: str) -> bool:
    return line.split("=", 1)[0].strip() == MARK and "=" in line


def with_wayfire_entry(text: str, unit: str) -> str:
    """wayfire.ini with our key in its ``[autostart]`` section (the section added at the
    end if there is none), once; every other line as it was."""
    lines = without_wayfire_entry(text).splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.strip() == "[autostart]":
            return "".join([*lines[: i + 1], wayfire_line(unit) + "\n", *lines[i + 1 :]])
    head = "".join(lines)
    if head and not head.endswith("\n"):
        head += "\n"
    return head + ("\n" if head else "") + "[autostart]\n" + wayfire_line(unit) + "\n"


def without_wayfire_entry(text: str) -> str:
    """wayfire.ini without our key; an ``[autostart]`` section left empty by that goes too."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    section = ""
    for line in lines:
        if _is_section(line):
            section = line.strip()
        if section == "[autostart]" and _is_our_key(line):
            continue
        out.append(line)
    # an [autostart] header followed by nothing but blank lines up to the next section
    for i, line in enumerate(out):
        if line.strip() != "[autostart]":
            continue
        rest = out[i + 1 :]
        end = next((j for j, r in enumerate(rest) if _is_section(r)), len(rest))
        if all(not r.strip() for r in rest[:end]):
            del out[i : i + 1 + end]
            while out and not out[-1].strip():
                out.pop()
            break
    return "".join(out)


def read_if_there(path: Path, what: str) -> str | None:
    """The text of ``path`` (``what``: the kind of file, for a message), None when there
    is no such file. One that is a FIFO or a device (refused without waiting on it), over
    ``MAX_FILE_BYTES`` or not UTF-8 is a ``SourceError`` saying which: an account's own
    file, never one to hang or exhaust the command on."""
    if not path.exists():  # nor a dangling link, nor under a file
        return None
    try:
        return read_bounded(path, what, MAX_FILE_BYTES).decode("utf-8")
    except UnicodeDecodeError:
        raise SourceError(f"{escaped(str(path))}: not UTF-8 text, expected {what}") from None


def install_changes(home: Path, unit: str) -> list[Change]:
    """What starting ``unit`` at login takes in the account whose home is ``home``."""
    changes = [Change(home / DESKTOP_FILE, read_if_there(home / DESKTOP_FILE, ENTRY),
                      desktop_entry(unit))]
    labwc = read_if_there(home / LABWC_FILE, LABWC)
    if labwc is not None:
        changes.append(Change(home / LABWC_FILE, labwc, with_labwc_entry(labwc, unit)))
    wayfire = read_if_there(home / WAYFIRE_FILE, WAYFIRE)
    if wayfire is not None:
        changes.append(Change(home / WAYFIRE_FILE, wayfire, with_wayfire_entry(wayfire, unit)))
    return changes


def uninstall_changes(home: Path) -> list[Change]:
    """Every entry ``install_changes`` may have made, taken away (files left as they were
    otherwise); nothing for an entry that isn't there."""
    changes = []
    desktop = read_if_there(home / DESKTOP_FILE, ENTRY)
    if desktop is not None:
        changes.append(Change(home / DESKTOP_FILE, desktop, None))
    for name, what, remove in ((LABWC_FILE, LABWC, without_labwc_entry),
                               (WAYFIRE_FILE, WAYFIRE, without_wayfire_entry)):
        text = read_if_there(home / name, what)
        if text is not None and remove(text) != text:
            changes.append(Change(home / name, text, remove(text)))
    return changes
