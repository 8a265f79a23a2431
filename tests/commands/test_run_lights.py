"""The seat lights are a view of the game: a kiosk killed mid game (SIGKILL, as a power
cut) and started again with ``companion run`` shows on every seat the light it showed
before the kill: mid Koryŏ round (the first player token passed to another seat) and mid
King's Dilemma council (a secret vote with two ballots locked)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from kiosk_process import LIMIT_S, env, write_config

PLAYED = Path(__file__).parents[1] / "played_kiosk.py"


def lights_before_the_kill(config: Path, game: str) -> str:
    """The lights a kiosk showed after playing ``game`` into the middle of a round, read
    from its output; then it is SIGKILLed."""
    roots = [str(Path(__file__).resolve().parents[2]), str(PLAYED.parent)]
    child = subprocess.Popen(
        [sys.executable, str(PLAYED), str(config), game],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**env(), "PYTHONPATH": os.pathsep.join(roots)}, cwd=config.parent,
    )
    try:
        line = child.stdout.readline()
        assert line.startswith("lights: "), (line, child.stderr.read() if not line else "")
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=LIMIT_S)
        child.stdout.close()
        child.stderr.close()
        child.stdin.close()
    return line.removeprefix("lights: ").strip()


@pytest.mark.parametrize("game", ["koryo", "kings-dilemma"])
def test_lights_after_companion_run_equal_those_before_the_kill(tmp_path, kiosk, game):
    config = write_config(tmp_path, "sim", seats=4)
    before = lights_before_the_kill(config, game)
    assert set(before.split()) != {f"{seat}=off" for seat in range(4)}  # a lit game
    k = kiosk(config)
    after = k.await_line("lights: ").split("lights: ", 1)[1]
    k.await_line("ready")
    assert f"({game})" in "\n".join(k.lines)  # the game was resumed, not Home
    assert after == before
    assert k.stop(signal.SIGTERM) == 0
