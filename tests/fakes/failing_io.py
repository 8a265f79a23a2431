"""An OSError from the file system at one path, injected where the code reads it: as root
(CI) permissions stop nothing, so a permission or I/O error can't be made for real."""

from __future__ import annotations

from pathlib import Path

import pytest


def failing_reads(monkeypatch: pytest.MonkeyPatch, path: Path, exc: OSError) -> list[OSError]:
    """``Path.read_text`` of ``path`` raises ``exc`` while the returned list holds it;
    emptied (the cause gone), the real ``Path.read_text`` answers again. Other files read
    as usual."""
    real = Path.read_text
    failing = [exc]

    def read_text(self: Path, *args, **kwargs) -> str:
        if self == path and failing:
            raise failing[0]
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)
    return failing
