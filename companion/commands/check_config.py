"""`companion check-config [FILE]`: check a configuration file without starting anything."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.config import config_from, default_config_path, shown_path
from companion.files import yamlsrc
from companion.files.safetext import escaped
from companion.files.yamlsrc import Document, Mistake, SourceErrors
from companion.hardware.profile import PROFILES_DIR
from companion.play.errors import RuleError

EXAMPLES = """\
Every mistake is a line of its own: the file, the line, the field and why (a typo, a
wrong type, an unknown key, a pin used twice in the wiring profile, a seat name the
screen's font can't draw), all of them in one run. Exit status 0 when the file is
right, 2 when it is not."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file",
        nargs="?",
        type=Path,
        help="configuration file (YAML); default: $COMPANION_CONFIG, else "
        "~/.config/companion/config.yaml if it exists, else the shipped default",
    )


def run(args: argparse.Namespace) -> int:
    path = args.file or default_config_path()
    doc = yamlsrc.load(path, "a configuration file")  # read once: the names are checked on it too
    found: list[Mistake] = []
    try:
        config = config_from(doc)
    except SourceErrors as exc:  # the names are still checked, in the same run
        found = exc.mistakes
    refused = {m.refusal.field for m in found if m.refusal is not None}
    found += [m for m in _undrawable_names(doc) if m.refusal.field not in refused]
    if found:
        raise SourceErrors(sorted(found, key=lambda m: m.line))
    hw = config.hardware
    details = f"backend {hw.backend}"
    if hw.profile is not None:  # a shipped profile by its name, as a configuration names it
        shipped = hw.profile.parent.resolve() == PROFILES_DIR.resolve()
        details += f", profile {hw.profile.stem if shipped else shown_path(hw.profile)}"
    if hw.port is not None:
        details += f", port {hw.port}"
    if config.phones.enabled:
        details += f", phones on port {config.phones.port}"
    print(f"{path}: OK — {len(config.seats)} seats, {details}")
    return 0


def _undrawable_names(doc: Document) -> list[Mistake]:
    """Each seat name the screen's font can't draw (it would show as empty boxes at the
    table)."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from companion.ui.theme import missing_glyphs  # pygame, only when the check needs it

    seats = doc.data.get("seats") if isinstance(doc.data, dict) else None
    out = []
    for i, seat in enumerate(seats if isinstance(seats, list) else []):
        name = seat.get("name") if isinstance(seat, dict) else None
        missing = missing_glyphs(name) if isinstance(name, str) else []
        if missing:
            shown = " ".join(f"{escaped(c)} (U+{ord(c):04X})" for c in missing[:5])
            out.append(doc.mistake(RuleError(f"seats.{i}.name",
                                             f"the screen's font can't draw {shown}",
                                             code="font_cant_draw", params={"chars": shown})))
    return out
