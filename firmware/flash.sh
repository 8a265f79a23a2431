#!/usr/bin/env bash
# Copy the seat-pad firmware onto a Raspberry Pi Pico running MicroPython.
# Usage: firmware/flash.sh [PORT]   (PORT: /dev/ttyACM0 …; default: mpremote's auto)
# The codec and the debouncer are the host's own files, copied unchanged (PROTOCOL.md).
#
# mpremote is the project's own, in .venv (the `flash` extra of pyproject.toml), installed
# there on first use: Raspberry Pi OS refuses `pip install` into its own Python (an
# "externally managed environment"). A running kiosk holds the pad's port and writes its
# frames into the board's REPL: its unit is stopped while this flashes and started again
# afterwards, whether the flashing worked or not.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:-auto}"
console_unit=companion-kiosk.service
desktop_unit=companion-kiosk-desktop.service

if [ ! -x .venv/bin/python ]; then
  echo "flash.sh: no .venv in $(pwd): run ./scripts/run.sh --setup first" >&2
  exit 1
fi
if [ ! -x .venv/bin/mpremote ]; then
  echo "flash.sh: installing mpremote into .venv (once: the 'flash' extra)" >&2
  if ! .venv/bin/python -m pip install --quiet -e '.[flash]'; then
    echo "flash.sh: could not install mpremote into .venv (no network?); nothing flashed" >&2
    exit 1
  fi
fi

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

restart_console=no
restart_desktop=no
start_again() {
  if [ "$restart_console" = yes ]; then
    echo "flash.sh: starting the kiosk again ($console_unit)" >&2
    as_root systemctl start "$console_unit" || true
  fi
  if [ "$restart_desktop" = yes ]; then
    echo "flash.sh: starting the kiosk again ($desktop_unit)" >&2
    systemctl --user start "$desktop_unit" || true
  fi
}
trap start_again EXIT
if command -v systemctl >/dev/null 2>&1; then
  if systemctl is-active --quiet "$console_unit" 2>/dev/null; then
    echo "flash.sh: stopping the kiosk ($console_unit) while flashing: it holds the pad's port" >&2
    restart_console=yes
    as_root systemctl stop "$console_unit"
  fi
  if systemctl --user is-active --quiet "$desktop_unit" 2>/dev/null; then
    echo "flash.sh: stopping the kiosk ($desktop_unit) while flashing: it holds the pad's port" >&2
    restart_desktop=yes
    systemctl --user stop "$desktop_unit"
  fi
fi

.venv/bin/mpremote connect "$port" \
    cp companion/hardware/padproto.py :padproto.py + \
    cp companion/hardware/debounce.py :debounce.py + \
    cp firmware/pad/board.py :board.py + \
    cp firmware/pad/main.py :main.py + \
    reset
echo "Flashed. The pad starts on its own; check with: companion (seat lights follow the game)."
