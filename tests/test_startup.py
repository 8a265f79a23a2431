"""What start-up loads: a sub-command imports only its own module, and `companion run`
has imported only what Home needs when its first frame is drawn (no game screens, no
King's Dilemma tables, no install-service). Counted in a fresh interpreter, not timed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from companion.config import SHIPPED_CONFIG

# Runs `companion run` until the first frame is drawn (App.run is where it would start
# waiting), then prints the companion modules loaded by then.
FIRST_FRAME = """
import json, sys
import companion.ui.app as app
class FirstFrame(Exception):
    pass
def stop(self):
    raise FirstFrame
app.App.run = stop
from companion import cli
try:
    cli.main(["run", "--config", sys.argv[1]])
except FirstFrame:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith("companion"))))
"""

PARSER = """
import json, sys
from companion import cli
cli.build_parser(cli.command_of(sys.argv[1:]))
print(json.dumps(sorted(m for m in sys.modules if m.startswith("companion.commands."))))
"""


def modules(code: str, *args: str, tmp_path) -> list[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1", COMPANION_DATA_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         env=env, timeout=120, check=True).stdout
    return json.loads(out.splitlines()[-1])


def test_a_sub_command_imports_its_own_module_only(tmp_path):
    assert modules(PARSER, "score", "x.yaml", tmp_path=tmp_path) == ["companion.commands.score"]
    assert modules(PARSER, "run", tmp_path=tmp_path) == ["companion.commands.run"]
    assert modules(PARSER, "--help", tmp_path=tmp_path) == []


def test_run_draws_home_before_importing_any_game(tmp_path):
    loaded = modules(FIRST_FRAME, str(SHIPPED_CONFIG), tmp_path=tmp_path)
    assert "companion.ui.home" in loaded and "companion.ui.app" in loaded  # it did start
    for absent in ("companion.ui.screens.kings_dilemma", "companion.ui.screens.koryo",
                   "companion.games.kings_dilemma", "companion.tables.kd_vote",
                   "companion.engine.kd_vote", "companion.commands.install_service",
                   "companion.commands.score"):
        assert absent not in loaded, absent
