#!/usr/bin/env bash
# Set up (a local .venv with the project; on a Raspberry Pi also its GPIO backends) and
# start the companion: fullscreen on the Pi, a window with simulated seats on a desktop.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "run.sh: the companion needs Python 3.11 or newer; python3 is $(python3 -V 2>&1)" >&2
  exit 1
fi
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
case "$(uname -m)" in
  aarch64|armv7l) extra='.[pi]' ;;
  *) extra='.' ;;
esac
if ! .venv/bin/python -m pip install --quiet -e "$extra"; then
  echo "run.sh: installing the companion and its dependencies (pygame, gpiozero, pyserial," \
    "pyyaml) into .venv failed (see pip's message above). Where pip finds no pygame wheel" \
    "for this machine it builds pygame from source: that needs the SDL2 development" \
    "packages (Debian: libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev libsdl2-mixer-dev" \
    "libfreetype-dev pkg-config)." >&2
  exit 1
fi
exec .venv/bin/companion run "$@"
