"""Where the companion keeps its files on this machine."""

from __future__ import annotations

import os
from pathlib import Path

from companion.files.yamlsrc import SourceError


def data_dir() -> Path:
    """The directory for the journal and other state: ``$COMPANION_DATA_DIR``, else
    ``$XDG_DATA_HOME/companion``, else ``~/.local/share/companion``. Not created here."""
    explicit = os.environ.get("COMPANION_DATA_DIR")
    if explicit:
        return expand(explicit, "COMPANION_DATA_DIR")
    xdg = os.environ.get("XDG_DATA_HOME")
    base = expand(xdg, "XDG_DATA_HOME") if xdg else home() / ".local" / "share"
    return base / "companion"


def expand(value: str, variable: str) -> Path:
    """``$variable``'s ``value`` as a path, ``~`` expanded; an unknown user's home is a
    ``SourceError`` naming the variable, not a traceback."""
    try:
        return Path(value).expanduser()
    except RuntimeError:
        raise SourceError(f"${variable}: {value}: no such home directory") from None


def home() -> Path:
    try:
        return Path.home()
    except RuntimeError:
        raise SourceError("no home directory: set $HOME") from None
