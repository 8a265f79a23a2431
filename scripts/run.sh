#!/usr/bin/env bash
# Start the companion: fullscreen on the Pi, a window with simulated seats on a desktop.
#
# The first start sets up .venv (the package and its dependencies; on a Raspberry Pi also
# its GPIO backend, the `pi` extra). Later starts reuse it without touching the network:
# the set-up is done again only when pyproject.toml, the Python or the machine's kind
# changed (a stamp in .venv records what it was done for). `--setup` does the same and
# stops there, without starting the companion (before install-service, after git pull).
#
# On a Raspberry Pi the venv also sees the system's Python packages
# (--system-site-packages): Raspberry Pi OS's own lgpio (python3-lgpio) is used where
# PyPI has no wheel for its Python (Trixie, 3.13) or is already installed.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv-common.sh
. scripts/venv-common.sh
# lgpio makes its notification files (.lgd-nfy*) in its working directory, which may be
# read-only (a repository in /opt): in the session's runtime directory instead.
export LG_WD="${LG_WD:-${XDG_RUNTIME_DIR:-/tmp}}"
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "run.sh: the companion needs Python 3.11 or newer; python3 is $(python3 -V 2>&1)" >&2
  exit 1
fi

venv_options=()
extra='.'
if grep -qi 'raspberry pi' /proc/device-tree/model 2>/dev/null; then
  venv_options=(--system-site-packages)
  extra='.[pi]'
fi
stamp=.venv/.companion-setup
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1) $extra ${venv_options[*]:-} $(python3 -V 2>&1)"

# Prints why pip's package index doesn't answer, and succeeds; fails if it answers. The
# index as pip uses it: PIP_INDEX_URL, else pip.conf's index-url, else PyPI (proxies from
# the environment, as pip). Not an extra-index-url: Raspberry Pi OS's /etc/pip.conf adds
# piwheels as one, and pip does without an extra index that doesn't answer.
index_unreachable() {
  .venv/bin/python - "$(.venv/bin/python -m pip config list 2>/dev/null)" <<'PY'
import os, re, sys, urllib.request
# `pip config list` says "<section>.<key>='<value>'", the environment as section ":env:"
found = re.findall(r"^([^\s.]*)\.index-url='([^']*)'", sys.argv[1], re.M)
env = [url for scope, url in found if scope.startswith(":env:")]
url = (env or [url for _, url in found] or ["https://pypi.org/simple/"])[0].split()[0]
try:
    if url.startswith("file:"):
        if not os.path.isdir(url[len("file://"):]):
            raise OSError(f"no directory {url}")
    else:
        urllib.request.urlopen(url, timeout=10).close()
except Exception as exc:
    print(f"the package index {url} could not be reached"
          f" ({getattr(exc, 'reason', exc)}; no network?)")
    sys.exit(0)
sys.exit(1)
PY
}

# Why pip failed, in one line: the requirement it could not meet and the reason.
explain_failure() {
  local log=$1 package reason
  package=$(grep -oE "(No matching distribution found for|Failed to build|Failed building wheel for) [^ ]+" "$log" |
    head -1 | awk '{print $NF}')
  if reason=$(index_unreachable); then
    :
  elif grep -qE "Failed to build|Failed building wheel" "$log"; then
    reason="PyPI has no wheel of it for this machine and building it from source failed"
  elif grep -q "No matching distribution found" "$log"; then
    reason="the package index has no version of it for $(python3 -V 2>&1) on $(uname -m)"
  else
    reason=$(grep -E "^ERROR:" "$log" | tail -1)
    [ -n "$reason" ] || reason="see pip's messages above"
  fi
  [ -n "$package" ] || package="the companion's dependencies"
  grep -E "^ *(ERROR|error):" "$log" | sed 's/^ */pip: /' >&2 || true
  echo "run.sh: setting up .venv failed: could not install $package: $reason." >&2
  echo "run.sh: pip's whole output is in $log; nothing started, the next start tries" \
    "the set-up again" >&2
}

setup() {
  echo "run.sh: setting up .venv (once; later starts reuse it, offline)" >&2
  python3 -m venv "${venv_options[@]}" .venv
  remove_old_pygame
  local log
  log=$(mktemp "${TMPDIR:-/tmp}/companion-setup.XXXXXX.log")
  if ! .venv/bin/python -m pip install --quiet -e "$extra" >"$log" 2>&1; then
    explain_failure "$log"
    exit 1
  fi
  rm -f "$log"
  if [ "$extra" = '.[pi]' ] && ! .venv/bin/python -c 'import lgpio' 2>/dev/null; then
    echo "run.sh: no lgpio for $(python3 -V 2>&1) on PyPI: sudo apt install python3-lgpio" \
      "(the venv sees it); until then GPIO seats fall back to the keyboard simulator" >&2
  fi
  echo "$wanted" >"$stamp"
}

if [ ! -x .venv/bin/companion ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  setup
fi
if [ "${1:-}" = "--setup" ]; then
  echo "run.sh: .venv is set up; .venv/bin/companion is there" >&2
  exit 0
fi
exec .venv/bin/companion run "$@"
