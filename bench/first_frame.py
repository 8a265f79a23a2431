"""``companion run`` (the real command, same arguments) that also prints
``first-frame <time.monotonic()>`` on stdout once its first frame is flipped; with
``BENCH_EXIT_AT_FIRST_FRAME=1`` it then exits at once (start-up benchmark), else it keeps
running (idle CPU benchmark). The marker is the readiness signal the benchmarks wait for."""

from __future__ import annotations

import os
import sys
import time

from companion import cli
from companion.ui.app import App

_render = App.render_if_dirty


def render_if_dirty(self: App) -> bool:
    drawn = _render(self)
    if drawn and self.frames == 1:
        print(f"first-frame {time.monotonic():.6f}", flush=True)
        if os.environ.get("BENCH_EXIT_AT_FIRST_FRAME") == "1":
            os._exit(0)
    return drawn


App.render_if_dirty = render_if_dirty

if __name__ == "__main__":
    sys.exit(cli.main(["run", *sys.argv[1:]]))
