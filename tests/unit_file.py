"""systemd unit files read as systemd reads them, for the tests of the kiosk units."""

from __future__ import annotations

import shlex


class Unit:
    """A unit file as systemd reads it: sections of ``Key=value`` lines, ``#`` comments;
    a key may repeat (``DeviceAllow=``): ``unit[section][key]`` is its last value (what a
    single-valued setting takes), ``unit.values(section, key)`` all of them in order."""

    def __init__(self, text: str) -> None:
        self._sections: dict[str, list[tuple[str, str]]] = {}
        current = None
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if not stripped or stripped.startswith(("#", ";")):
                continue
            if stripped.startswith("[") and stripped.endswith("]"):
                current = self._sections.setdefault(stripped[1:-1], [])
                continue
            key, sep, value = stripped.partition("=")
            assert sep and current is not None, f"line {number}: {line!r}"
            current.append((key.strip(), value.strip()))

    def sections(self) -> list[str]:
        return list(self._sections)

    def __getitem__(self, section: str) -> dict[str, str]:
        return dict(self._sections[section])

    def values(self, section: str, key: str) -> list[str]:
        return [v for k, v in self._sections[section] if k == key]


def parse(text: str) -> Unit:
    return Unit(text)


def environment(service) -> dict[str, str]:
    """``Environment=`` as systemd reads it: shell-like words, each NAME=value."""
    return dict(word.split("=", 1) for word in shlex.split(service["Environment"]))
