"""Benchmarks 2, 4 and 5: idle CPU per seat backend, start-up and peak memory of the real
``companion`` command, each beside a baseline, in child processes.

2. **Idle CPU**: ``companion run`` left on Home once its start is over (the "ready" line,
   after its first frame, then the history opened after that frame: ``started``; that
   tail of the start is nobody's idle time), its CPU time (every thread's, ``cpu_seconds``) over ``IDLE_S``
   seconds. Once per seat backend — the keyboard simulator (shipped
   configuration), ``gpio`` on gpiozero's mock pins (``pin_factory: mock``, shipped
   profile), ``serial`` talking to the pad firmware on a pty (run by this process, as in
   ``bench/pads.py``, heartbeats every 500 ms) — beside the baselines: the same app and
   screen redrawn at 60 FPS (``bench/naive_loop.py``) and the floor, a bare pygame window
   blocked in ``pygame.event.wait()``. And the simulator on a Koryŏ game screen, the
   acting seat's light blinking (a game 20 actions in, resumed: ``game_in_progress``).
   All six run at the same time (each in its own
   data directory), ``ROUNDS`` times; the figure is the median with min and max. Quiet,
   then with ``BUSY`` busy processes (the CPU each uses, not what it is left).
4. **Start-up**: from just before the spawn to the moment the "ready" line (written
   after the first flipped frame) is read, ``companion run`` (simulator, the shipped
   configuration on an 800x480 display) and the bare pygame baseline (an 800x480 window),
   both with the same environment (``SDL_AUDIODRIVER=dummy``, ``env_child``), alternately,
   ``PAIRS`` rounds after one untimed start of each (so the bytecode cache exists, as on
   an installed system); the ratio is per pair. Three starts of ours a round (``STARTS``):
   warm (the data directory the untimed one created: its journal, history, log and the
   parsed copies of the configuration and catalogs, as at every boot but the first),
   without the parsed copies (deleted before it), and cold (an empty data directory, as
   at the first boot). Quiet, then with ``BUSY`` busy processes.
5. **Peak RSS**: the peak resident memory (``VmHWM``) of ``companion demo --out``,
   against the bare pygame process of 4, each written by the program itself as it exits
   (``bench/peak_rss.py`` says why not ``ru_maxrss``).
"""

from __future__ import annotations

import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import ROOT, Row, env_child, spread, times, verdict, without_realtime
from companion.config import SHIPPED_CONFIG

IDLE_S = 8.0
ROUNDS = 3
PAIRS = 10
READY = re.compile(r"\bready\b")
# What ``companion run`` logs when its start is over: the history, opened after the first
# frame (with the -wal made ready), is the last of it. The idle rows start there, so the
# start's tail is not counted as a table at rest.
STARTED = re.compile(r"\bhistory: ")
BARE = (
    "import pygame; pygame.init(); pygame.display.set_mode((800, 480)); "
    "pygame.display.flip(); print('ready', flush=True)"
)
# SDL's own idle cost: a window, then nothing but pygame.event.wait().
BARE_WAIT = BARE + "\nwhile True: pygame.event.wait()"


def config_for(backend: str, directory: Path, port: str | None = None) -> Path:
    """The shipped configuration with another seat backend."""
    text = SHIPPED_CONFIG.read_text(encoding="utf-8")
    hardware = {"gpio": "  backend: gpio\n  pin_factory: mock\n",
                "serial": f"  backend: serial\n  port: {port}\n"}[backend]
    text = text.replace("  backend: sim\n", hardware)
    path = directory / f"{backend}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def config_800x480(directory: Path) -> Path:
    """The shipped configuration on the 800x480 panel the kiosk is laid out for: the
    window the bare baseline opens (the dummy video driver's own "display" is 1024x768,
    a frame of 1.6 times the pixels to draw and flip)."""
    text = SHIPPED_CONFIG.read_text(encoding="utf-8")
    text = text.replace("  # width: 800 ", "  width: 800   ").replace("  # height: 480", "  height: 480")
    if "\n  width: 800" not in text or "\n  height: 480" not in text:
        raise RuntimeError("the shipped configuration no longer has the display's size lines")
    path = directory / "800x480.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def companion(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion", *args]


KIOSK = companion("run")  # a command that starts with it logs STARTED once started


def spawn(cmd: list[str], data: Path) -> subprocess.Popen:
    """``cmd`` under the normal policy, as its baseline: the press path's real-time
    scheduling is benchmark 9's."""
    data.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [*without_realtime(), *cmd],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # companion run logs to stderr
        text=True,
        env={**env_child(), "COMPANION_DATA_DIR": str(data)},
    )


def ready(proc: subprocess.Popen) -> float:
    """Wait for the child's "ready" line; the ``time.monotonic()`` it was read at. A child
    that fell back to the keyboard simulator is not measuring its backend: an error."""
    for line in proc.stdout:
        if "keyboard simulator instead" in line:
            raise RuntimeError(f"{proc.args}: fell back to the simulator: {line.strip()}")
        if READY.search(line):
            return time.monotonic()
    raise RuntimeError(f"{proc.args}: exited {proc.wait()} before it was ready")


def cpu_seconds(pid: int) -> float:
    """CPU time of every thread of ``pid`` so far, in seconds, to the nanosecond
    (``/proc/PID/task/*/schedstat``; a thread that ends takes its time with it, and an
    idle kiosk starts none). Without schedstat: utime + stime of ``/proc/PID/stat``, in
    ticks (a tick is 0.125 % of 8 s: one tick can decide a ratio)."""
    try:
        return sum(int((task / "schedstat").read_text().split()[0])
                   for task in Path(f"/proc/{pid}/task").iterdir()) / 1e9
    except (OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def started(proc: subprocess.Popen) -> None:
    """Wait for a ``companion run`` child's STARTED line (its start over, after "ready")."""
    for line in proc.stdout:
        if STARTED.search(line):
            return
    raise RuntimeError(f"{proc.args}: exited {proc.wait()} before its start was over")


def idle_round(cmds: dict[str, list[str]], data: Path) -> dict[str, float]:
    """Percent of one core each command uses over IDLE_S once all are ready and every
    ``companion run`` has finished starting (``started``)."""
    procs = {name: spawn(cmd, data / name) for name, cmd in cmds.items()}
    try:
        for name, proc in procs.items():
            ready(proc)
            if cmds[name][:len(KIOSK)] == KIOSK:
                started(proc)
        start = {name: cpu_seconds(p.pid) for name, p in procs.items()}
        t0 = time.monotonic()
        time.sleep(IDLE_S)
        used = {name: cpu_seconds(p.pid) - start[name] for name, p in procs.items()}
        elapsed = time.monotonic() - t0
    finally:
        for proc in procs.values():
            proc.kill()
            proc.wait()
    return {name: 100 * seconds / elapsed for name, seconds in used.items()}


def game_in_progress(data: Path) -> None:
    """A Koryŏ game 20 actions in, unfinished, in ``data``'s journal: ``companion run``
    resumes it, its acting seat's light blinking."""
    from bench import resume
    from bench.first_frame import write_journal
    from companion.commands.run import JOURNAL_FILE
    from companion.games.koryo.adapter import KoryoGame

    data.mkdir(parents=True, exist_ok=True)
    game = resume.autoplayed(KoryoGame(), 20)
    write_journal(data / JOURNAL_FILE, KoryoGame(), {"players": resume.PLAYERS}, game)


def idle_rows(tmp: Path) -> list[Row]:
    """The idle rows quiet, then again while ``BUSY`` busy processes run."""
    from bench.first_frame import BUSY, busy

    rows = _idle_rows(tmp / "quiet", "")
    with busy(BUSY):
        rows += _idle_rows(tmp / "loaded", f" ({BUSY} busy processes)")
    return rows


def _idle_rows(tmp: Path, tag: str) -> list[Row]:
    from bench.pads import PadOnPty  # the pad firmware on a pty, for the serial backend

    for i in range(ROUNDS):
        game_in_progress(tmp / f"idle-{i}" / "game")
    pad = PadOnPty("ours")
    try:
        cmds = {
            "sim": companion("run", "--config", str(SHIPPED_CONFIG)),
            "game": companion("run", "--config", str(SHIPPED_CONFIG)),
            "gpio": companion("run", "--config", str(config_for("gpio", tmp))),
            "serial": companion("run", "--config", str(config_for("serial", tmp, pad.port))),
            "60fps": [sys.executable, str(ROOT / "bench" / "naive_loop.py")],
            "floor": [sys.executable, "-c", BARE_WAIT],
        }
        rounds = [idle_round(cmds, tmp / f"idle-{i}") for i in range(ROUNDS)]
    finally:
        pad.close()
    got = {name: [r[name] for r in rounds] for name in cmds}
    med = {name: statistics.median(values) for name, values in got.items()}
    rows = [Row(f"2 idle CPU{tag}", f"simulator, {IDLE_S:.0f} s on Home ({ROUNDS} rounds)",
                spread(got["sim"], "%", 2), spread(got["60fps"], "% (60 FPS)", 1),
                times(med["60fps"], med["sim"], "less", "more"), "≥ 20x less",
                verdict(med["60fps"] >= 20 * med["sim"]))]
    for name, label in (("gpio", "gpio backend, mock pins"),
                        ("serial", "serial backend, pad on a pty")):
        rows.append(Row(f"2 idle CPU{tag}", f"{label}, {IDLE_S:.0f} s on Home",
                        spread(got[name], "%", 2), spread(got["sim"], "% (simulator)", 2),
                        times(med["sim"], med[name], "less", "more"),
                        "the simulator's level (≤ 1.5x)", verdict(med[name] <= 1.5 * med["sim"])))
    rows.append(Row(f"2 idle CPU{tag}", f"simulator, {IDLE_S:.0f} s on a Koryŏ game screen, the acting "
                    "seat's light blinking", spread(got["game"], "%", 2),
                    spread(got["60fps"], "% (60 FPS)", 1),
                    times(med["60fps"], med["game"], "less", "more"), "≥ 20x less",
                    verdict(med["60fps"] >= 20 * med["game"])))
    rows.append(Row(f"2 idle CPU{tag}", "floor: bare pygame window in event.wait()",
                    spread(got["floor"], "%", 2), spread(got["60fps"], "% (60 FPS)", 1),
                    times(med["60fps"], med["floor"], "less", "more")))
    return rows


STARTS = {  # how each start of ours finds its data directory
    "warm": "the data directory its untimed first start made (every boot but the first)",
    "no copies": "that directory without the parsed copies (an upgrade, a new catalog)",
    "cold": "an empty data directory (a first boot)",
}


def parsed_copies(data: Path) -> list[Path]:
    """The kept parsed copies of the configuration and the catalogs (``yamlsrc``)."""
    return [f for pattern in ("parsed-*.json", "document-*.json") for f in data.glob(pattern)]


def startup_rows(tmp: Path) -> list[Row]:
    from bench.first_frame import BUSY, busy

    ours_cmd = companion("run", "--config", str(config_800x480(tmp)))
    bare_cmd = [sys.executable, "-c", BARE]

    def start(cmd: list[str], data: Path) -> float:
        t0 = time.monotonic()
        proc = spawn(cmd, data)
        try:
            return ready(proc) - t0
        finally:
            proc.kill()
            proc.wait()

    warm = tmp / "start"
    start(ours_cmd, warm)  # untimed: the bytecode cache, as after the first run on a Pi
    start(bare_cmd, tmp / "bare")
    if not parsed_copies(warm):
        raise RuntimeError(f"no parsed copy kept in {warm}: the 'no copies' row would lie")
    rows = []
    for condition in ("quiet", "loaded"):
        ours: dict[str, list[float]] = {kind: [] for kind in STARTS}
        bare: list[float] = []
        with busy(BUSY) if condition == "loaded" else contextlib.nullcontext():
            for i in range(PAIRS):  # interleaved: the bare start, then each of ours
                bare.append(start(bare_cmd, tmp / "bare") * 1000)
                for kind in STARTS:
                    data = warm
                    if kind == "no copies":
                        for copy in parsed_copies(warm):
                            copy.unlink()
                    elif kind == "cold":
                        data = tmp / f"cold-{condition}-{i}"
                    ours[kind].append(start(ours_cmd, data) * 1000)
        tag = "quiet" if condition == "quiet" else f"{BUSY} busy processes"
        for kind, what in STARTS.items():
            ratios = [o / b for o, b in zip(ours[kind], bare, strict=True)]
            med = statistics.median(ratios)
            rows.append(Row(f"4 start-up ({tag})",
                            f"spawn → first frame, {kind}: {what} ({PAIRS} pairs, alternating)",
                            spread(ours[kind], "ms", 0), spread(bare, "ms (bare pygame)", 0),
                            f"{med:.2f}x [{min(ratios):.2f}–{max(ratios):.2f}] slower", "≤ 2x",
                            verdict(med <= 2)))
    return rows


def peak_rss_mb(cmd: list[str], data: Path) -> float:
    """``cmd`` (``python -m …`` or ``python -c …``) run under ``bench/peak_rss.py``."""
    data.mkdir(parents=True, exist_ok=True)
    out = data / "peak-kib"
    out.unlink(missing_ok=True)
    wrapped = [cmd[0], str(ROOT / "bench" / "peak_rss.py"), str(out), *cmd[1:]]
    proc = subprocess.run(wrapped, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env={**env_child(), "COMPANION_DATA_DIR": str(data)})
    if proc.returncode:
        raise RuntimeError(f"{cmd}: exit {proc.returncode}")
    return int(out.read_text(encoding="ascii")) / 1024  # KiB


def rss_rows(tmp: Path) -> list[Row]:
    ours = peak_rss_mb(companion("demo", "--out", str(tmp / "demo")), tmp / "rss")
    base = peak_rss_mb([sys.executable, "-c", BARE], tmp / "rss")
    return [Row("5 peak RSS", "companion demo --out TMP", f"{ours:.0f} MB", f"{base:.0f} MB",
                times(base, ours, "less", "more"), "≤ 100 MB", verdict(ours <= 100))]


def run(quick: bool = False) -> list[Row]:
    global ROUNDS, PAIRS
    if quick:  # idle over the full run's window: 3 s after a start held its tail's work
        ROUNDS, PAIRS = 1, 3
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        d = Path(tmp)
        return idle_rows(d) + startup_rows(d) + rss_rows(d)


if __name__ == "__main__":
    for row in run():
        print(row)
