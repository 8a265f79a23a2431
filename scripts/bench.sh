#!/usr/bin/env bash
# Set up (a local .venv with the project, like scripts/test.sh) and run every benchmark
# against its naive baseline, printing the machine and one table (bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
# A venv from before the move to pygame-ce: both install the `pygame` module, so the old
# one goes first (pip would leave the two mixed in one directory).
if .venv/bin/python -m pip show -q pygame >/dev/null 2>&1; then
  .venv/bin/python -m pip uninstall -q -y pygame pygame-ce
fi
.venv/bin/python -m pip install --quiet -e .
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1
exec .venv/bin/python -m bench "$@"
