#!/usr/bin/env bash
# Set up (a local .venv with the project; on a Raspberry Pi also its GPIO backends) and
# start the companion: fullscreen on the Pi, a window with simulated seats on a desktop.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
case "$(uname -m)" in
  aarch64|armv7l) .venv/bin/python -m pip install --quiet -e '.[pi]' ;;
  *) .venv/bin/python -m pip install --quiet -e . ;;
esac
exec .venv/bin/companion run "$@"
