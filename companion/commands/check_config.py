"""`companion check-config [FILE]`: validate a configuration file without starting anything."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.config import Config, default_config_path, load_config
from companion.hardware.profile import PROFILES_DIR
from companion.safetext import escaped
from companion.yamlsrc import SourceError


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
    config = load_config(path)
    _check_names_drawable(config, path)
    hw = config.hardware
    details = f"backend {hw.backend}"
    if hw.profile is not None:  # a shipped profile by its name, as a configuration names it
        shipped = hw.profile.parent.resolve() == PROFILES_DIR.resolve()
        details += f", profile {hw.profile.stem if shipped else hw.profile}"
    if hw.port is not None:
        details += f", port {hw.port}"
    print(f"{path}: OK — {len(config.seats)} seats, {details}")
    return 0


def _check_names_drawable(config: Config, path: Path) -> None:
    """A seat name the screen's font can't draw would show as empty boxes at the table."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from companion.ui.theme import missing_glyphs

    for i, seat in enumerate(config.seats):
        missing = missing_glyphs(seat.name)
        if missing:
            shown = " ".join(f"{escaped(c)} (U+{ord(c):04X})" for c in missing[:5])
            raise SourceError(f"{escaped(str(path))}: seats.{i}.name: the screen's font can't "
                              f"draw {shown}")
