"""Benchmarks 2, 4 and 5: idle CPU and start-up of ``companion run``, peak memory of
``companion demo``, each against a naive baseline, in child processes.

2. Idle CPU: ``companion run`` (shipped simulator configuration, SDL dummy driver, data
   directory in a temporary directory) is left alone for 20 s once it has logged
   "ready" (logged after its first frame: Home); its CPU time is utime + stime of
   ``/proc/PID/stat`` (all threads) over those 20 s. Baseline: ``bench/naive_loop.py``,
   the same screen redrawn at 60 FPS, measured the same way.
   A third figure, the floor: a bare pygame window blocked in ``pygame.event.wait()``.
4. Start-up: from just before the process is spawned to the moment its "ready" line
   (written after the first flipped frame) is read, median of 5; baseline:
   ``python -c "import pygame; pygame.init(); set_mode(800x480); flip(); print('ready')"``.
5. Peak RSS (``ru_maxrss`` of the child, from ``os.wait4``) of ``companion demo --out``
   against the same bare pygame process as in 4.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import ROOT, Row, env_child, times, verdict
from companion.config import SHIPPED_CONFIG

IDLE_S = 20.0
STARTS = 5
READY = re.compile(r"\bready\b")
BARE = (
    "import pygame; pygame.init(); pygame.display.set_mode((800, 480)); "
    "pygame.display.flip(); print('ready', flush=True)"
)
# SDL's own idle cost: a window, then nothing but pygame.event.wait() (what App.step does
# when no deadline is due), for the idle CPU figure's floor.
BARE_WAIT = BARE + "\nwhile True: pygame.event.wait()"


def ours_cmd() -> list[str]:
    return [sys.executable, "-m", "companion", "run", "--config", str(SHIPPED_CONFIG)]


def naive_cmd() -> list[str]:
    return [sys.executable, str(ROOT / "bench" / "naive_loop.py")]


def spawn(cmd: list[str], data: Path) -> subprocess.Popen:
    return subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # companion run logs to stderr
        text=True,
        env={**env_child(), "COMPANION_DATA_DIR": str(data)},
    )


def ready(proc: subprocess.Popen) -> float:
    """Wait for the child's "ready" line; the ``time.monotonic()`` it was read at."""
    for line in proc.stdout:
        if READY.search(line):
            return time.monotonic()
    raise RuntimeError(f"{proc.args}: exited {proc.wait()} before it was ready")


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)


def idle_cpu(cmd: list[str], data: Path) -> float:
    """Percent of one core used over IDLE_S seconds once the child is ready."""
    proc = spawn(cmd, data)
    try:
        ready(proc)
        start, t0 = cpu_ticks(proc.pid), time.monotonic()
        time.sleep(IDLE_S)
        used, elapsed = cpu_ticks(proc.pid) - start, time.monotonic() - t0
    finally:
        proc.kill()
        proc.wait()
    return 100 * used / os.sysconf("SC_CLK_TCK") / elapsed


def startup(cmd: list[str], data: Path) -> float:
    """Median seconds from spawn to "ready" over STARTS runs."""
    times = []
    for _ in range(STARTS):
        t0 = time.monotonic()
        proc = spawn(cmd, data)
        times.append(ready(proc) - t0)
        proc.kill()
        proc.wait()
    return statistics.median(times)


def peak_rss_mb(cmd: list[str], data: Path) -> float:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**env_child(), "COMPANION_DATA_DIR": str(data)})
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{cmd}: exit {proc.returncode}")
    return usage.ru_maxrss / 1024  # KiB on Linux


def run() -> list[Row]:
    rows = []
    bare = [sys.executable, "-c", BARE]
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        data = Path(tmp) / "data"
        ours = idle_cpu(ours_cmd(), data)
        naive = idle_cpu(naive_cmd(), data)
        rows.append(Row("2 idle CPU", f"{IDLE_S:.0f} s after ready (Home)", f"{ours:.2f} %",
                        f"{naive:.1f} %", times(naive, ours, "less", "more"),
                        "≤ 2 % and ≥ 20x less", verdict(ours <= 2 and naive >= 20 * ours)))
        floor = idle_cpu([sys.executable, "-c", BARE_WAIT], data)
        rows.append(Row("2 idle CPU", "floor: bare pygame.event.wait() loop", f"{floor:.2f} %",
                        f"{naive:.1f} %", times(naive, floor, "less", "more")))
        ours = startup(ours_cmd(), data)
        base = startup(bare, data)
        rows.append(Row("4 start-up", f"spawn → ready (median of {STARTS})",
                        f"{ours * 1000:.0f} ms", f"{base * 1000:.0f} ms",
                        times(base, ours, "faster", "slower"), "≤ 3x", verdict(ours <= 3 * base)))
        out = Path(tmp) / "demo"
        ours = peak_rss_mb([sys.executable, "-m", "companion", "demo", "--out", str(out)], data)
        base = peak_rss_mb(bare, data)
        rows.append(Row("5 peak RSS", "companion demo --out TMP", f"{ours:.0f} MB",
                        f"{base:.0f} MB", times(base, ours, "less", "more"), "≤ 100 MB",
                        verdict(ours <= 100)))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
