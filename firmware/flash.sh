#!/usr/bin/env bash
# Copy the seat-pad firmware onto a Raspberry Pi Pico running MicroPython.
# Usage: firmware/flash.sh [PORT]   (PORT: /dev/ttyACM0 …; default: mpremote's auto)
# The codec and the debouncer are the host's own files, copied unchanged (PROTOCOL.md).
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:-auto}"
mpremote connect "$port" \
    cp companion/hardware/padproto.py :padproto.py + \
    cp companion/hardware/debounce.py :debounce.py + \
    cp firmware/pad/board.py :board.py + \
    cp firmware/pad/main.py :main.py + \
    reset
echo "Flashed. The pad starts on its own; check with: companion (seat lights follow the game)."
