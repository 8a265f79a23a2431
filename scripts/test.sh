#!/usr/bin/env bash
# Set up (a local .venv with the project and its test tools) and run the whole test suite.
#
# The set-up runs once, and again only when pyproject.toml or the Python changed (a stamp
# in .venv records what it was done for, as run.sh does): later runs install nothing and
# need no network. pip itself is left as the venv got it (no upgrade on every run).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv-common.sh
. scripts/venv-common.sh
stamp=.venv/.companion-test-setup
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1) .[test] $(python3 -V 2>&1)"
if [ ! -x .venv/bin/python ] || [ ! -x .venv/bin/pytest ] ||
  [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "test.sh: setting up .venv with the test tools (once; later runs reuse it, offline)" >&2
  [ -x .venv/bin/python ] || python3 -m venv .venv
  remove_old_pygame
  .venv/bin/python -m pip install --quiet -e '.[test]'
  echo "$wanted" >"$stamp"
fi
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
exec .venv/bin/python -m pytest "$@"
