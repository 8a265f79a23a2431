"""Where the companion keeps its files on this machine."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The directory for the journal and other state: ``$COMPANION_DATA_DIR``, else
    ``$XDG_DATA_HOME/companion``, else ``~/.local/share/companion``. Not created here."""
    explicit = os.environ.get("COMPANION_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "companion"
