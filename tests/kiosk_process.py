"""A kiosk (``companion run``, or ``scripts/run.sh`` which ends in it) in a subprocess, its
stderr read line by line on a thread: tests await its log lines ("ready"), never sleep."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

LIMIT_S = 60  # only a safety net against a hang: no assertion on time
CONFIG = """\
language: {language}
seats:
  - {{name: Ana, colour: red, position: bottom}}
  - {{name: Ben, colour: blue, position: top}}
hardware:
  backend: {backend}
display: {{width: 800, height: 480, fullscreen: "no"}}
data_dir: data
"""


def env() -> dict[str, str]:
    e = dict(os.environ)
    e.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    # No GPIO pin factory can load on a desktop: gpiozero must not pick a mock one.
    e.pop("GPIOZERO_PIN_FACTORY", None)
    return e


MORE_SEATS = ("  - {name: Cleo, colour: green, position: left}\n"
              "  - {name: Dan, colour: yellow, position: right}\n")


def write_config(tmp_path: Path, backend: str = "gpio", language: str = "en",
                 seats: int = 2) -> Path:
    """``config.yaml`` in ``tmp_path``: Ana and Ben (``seats=4``: Cleo and Dan too)."""
    text = CONFIG.format(backend=backend, language=language)
    if seats == 4:
        text = text.replace("hardware:", MORE_SEATS + "hardware:", 1)
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


class KioskProcess:
    def __init__(
        self, argv: list[str], env: dict[str, str], cwd: Path, limit_s: float = LIMIT_S
    ) -> None:
        self.limit_s = limit_s
        self.proc = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=cwd,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def await_line(self, word: str) -> str:
        """The first stderr line containing ``word`` (fails if stderr ends first)."""
        while True:
            line = self._queue.get(timeout=self.limit_s)
            if line is None:
                raise AssertionError(f"no {word!r} line; stderr: {self.lines}")
            self.lines.append(line)
            if word in line:
                return line

    def stop(self, signum: int) -> int:
        self.proc.send_signal(signum)
        return self.wait()

    def wait(self) -> int:
        """The exit status, once stderr is read to its end."""
        code = self.proc.wait(timeout=self.limit_s)
        while (line := self._queue.get(timeout=self.limit_s)) is not None:
            self.lines.append(line)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Kiosk(KioskProcess):
    """``companion run --config CONFIG`` in a subprocess (the ``kiosk`` fixture starts
    them)."""

    def __init__(self, config: Path) -> None:
        argv = [sys.executable, "-m", "companion", "run", "--config", str(config)]
        super().__init__(argv, env(), config.parent)
