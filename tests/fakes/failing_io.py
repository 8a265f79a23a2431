"""An OSError from the file system at one path, injected where the code reads it: as root
(CI) permissions stop nothing, so a permission or I/O error can't be made for real."""

from __future__ import annotations

from pathlib import Path

import pytest


def failing_reads(monkeypatch: pytest.MonkeyPatch, path: Path, exc: OSError) -> list[OSError]:
    """``Path.read_text`` and ``regularfile.open_regular`` of ``path`` raise ``exc`` while
    the returned list holds it; emptied (the cause gone), the real ones answer again. Other
    files read as usual."""
    from companion.files import regularfile

    real = Path.read_text
    real_open = regularfile.open_regular
    failing = [exc]

    def read_text(self: Path, *args, **kwargs) -> str:
        if self == path and failing:
            raise failing[0]
        return real(self, *args, **kwargs)

    def open_regular(where, *args, **kwargs) -> int:
        if Path(where) == path and failing:
            raise failing[0]
        return real_open(where, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)
    monkeypatch.setattr(regularfile, "open_regular", open_regular)
    return failing
