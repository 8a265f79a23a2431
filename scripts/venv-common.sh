# Shared by scripts/run.sh and scripts/test.sh (sourced, run from the repository root).

# A venv from before the move to pygame-ce: both install the `pygame` module into one
# directory, so the old one goes first (pip would leave the two mixed). Only what is
# installed in .venv itself counts: on Raspberry Pi OS with desktop the venv also sees the
# system's own pygame (python3-pygame, through --system-site-packages), which is neither
# pip's to remove nor in the way (the venv's pygame-ce comes first on the path).
remove_old_pygame() {
  local installed
  installed=$(.venv/bin/python - <<'PY'
import sys
from importlib import metadata
from pathlib import Path

venv = Path(sys.prefix).resolve()
names = []
for dist in metadata.distributions():
    name = (dist.metadata["Name"] or "").lower()
    if name in ("pygame", "pygame-ce") and venv in Path(dist.locate_file("")).resolve().parents:
        names.append(name)
if "pygame" in names:  # the old one is there: take both away, pip puts pygame-ce back
    print(" ".join(sorted(set(names))))
PY
)
  if [ -n "$installed" ]; then
    # shellcheck disable=SC2086  # the names, one word each
    .venv/bin/python -m pip uninstall -q -y $installed >&2
  fi
}
