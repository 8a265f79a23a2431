"""`companion check-config [FILE]`: check a configuration file without starting anything."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion import yamlsrc
from companion.config import Config, default_config_path, load_config, shown_path
from companion.hardware.profile import PROFILES_DIR
from companion.safetext import escaped
from companion.yamlsrc import Document, SourceErrors

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
    config: Config | None = None
    mistakes: list[tuple[int, str]] = []  # (line, message)
    refused: set[str] = set()  # the fields already said wrong
    try:
        config = load_config(path)
    except SourceErrors as exc:  # the file reads: its names are checked too, in the same run
        doc = yamlsrc.load(path)
        mistakes = [(doc.line_of(refusal.field) or 0, message)
                    for message, (_, refusal) in zip(exc.messages, exc.refusals, strict=True)]
        refused = {refusal.field for _, refusal in exc.refusals}
    else:
        doc = yamlsrc.load(path)
    mistakes += [m for field, m in _undrawable_names(doc) if field not in refused]
    if mistakes:
        raise SourceErrors([m for _, m in sorted(mistakes, key=lambda lm: lm[0])])
    hw = config.hardware
    details = f"backend {hw.backend}"
    if hw.profile is not None:  # a shipped profile by its name, as a configuration names it
        shipped = hw.profile.parent.resolve() == PROFILES_DIR.resolve()
        details += f", profile {hw.profile.stem if shipped else shown_path(hw.profile)}"
    if hw.port is not None:
        details += f", port {hw.port}"
    print(f"{path}: OK — {len(config.seats)} seats, {details}")
    return 0


def _undrawable_names(doc: Document) -> list[tuple[str, tuple[int, str]]]:
    """Each seat name the screen's font can't draw (it would show as empty boxes at the
    table), as (field, (line, message))."""
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
            field = f"seats.{i}.name"
            out.append((field, (doc.line_of(field) or 0,
                                str(doc.error(field, f"the screen's font can't draw {shown}")))))
    return out
