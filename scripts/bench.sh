#!/usr/bin/env bash
# Set up (a local .venv with the project, like scripts/test.sh) and run every benchmark
# against its naive baseline, printing the machine and one table (bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1
exec .venv/bin/python -m bench "$@"
