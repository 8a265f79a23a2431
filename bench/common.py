"""What every benchmark shares: the machine description, percentiles, result rows."""

from __future__ import annotations

import math
import os
import platform
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def machine() -> str:
    """CPU model, cores, Python and OS, as printed above the table."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "Hardware") and value.strip():
                model = value.strip()
                break
    except OSError:
        pass
    os_name = platform.platform()
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                os_name = f"{line.split('=', 1)[1].strip(chr(34))} ({platform.release()})"
    except OSError:
        pass
    return (
        f"CPU {model}, {os.cpu_count()} cores ({platform.machine()}); "
        f"Python {sys.version.split()[0]}; {os_name}"
    )


def load() -> str:
    """The 1, 5 and 15 minute load averages: other work on the machine skews the figures."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" (on {os.cpu_count()} cores)"


def fewest_for(p: float) -> int:
    """The fewest values a ``p``-th percentile stands on: one value above it at least
    (p99: 100, p90: 10, p50: 2). With fewer, a "p99" is only the largest value (of 10
    presses: the slowest one), a figure the goal was never set for."""
    return max(1, math.ceil(round(100 / (100 - p), 6)))


def _quantile(values: list[float], p: float) -> float:
    if len(values) == 1:
        return values[0]
    cuts = statistics.quantiles(values, n=1000, method="inclusive")
    return cuts[min(len(cuts) - 1, max(0, round(p * 10) - 1))]


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0-100), linear interpolation between samples. Raises
    ``ValueError`` on fewer values than it stands on (``fewest_for``): a benchmark
    configured so is a row saying NO (``bench.__main__.guarded``), never a figure."""
    if len(values) < fewest_for(p):
        raise ValueError(f"a p{p:g} of {len(values)} values (it stands on "
                         f"{fewest_for(p)} at least)")
    return _quantile(values, p)


def percentiles(rounds: list[list[float]], p: float) -> tuple[list[float], str, bool]:
    """The ``p``-th percentile of each round's values when every round has the values it
    stands on, else one over every round's values pooled; how it was taken, for the row
    ("" per round, else "p99 of all 120"); and whether even that stands (False: too few
    values in all, the figure is the largest of them and the row's goal is not met)."""
    need = fewest_for(p)
    if all(len(values) >= need for values in rounds):
        return [_quantile(values, p) for values in rounds], "", True
    pooled = [v for values in rounds for v in values]
    if len(pooled) >= need:
        return [_quantile(pooled, p)], f"p{p:g} of all {len(pooled)}", True
    return [max(pooled, default=math.nan)], f"only {len(pooled)}: not a p{p:g}", False


def alternated(rounds: int, runs: dict[str, Callable[[Path], list[float]]]
               ) -> dict[str, list[list[float]]]:
    """Each of ``runs`` once a round, in the order given, ``rounds`` times, each on a new
    file (``NAME-ROUND.db``) of a ``.bench-*`` directory here (this disk, not tmpfs); what
    each returned, by name, one list a round."""
    got: dict[str, list[list[float]]] = {name: [] for name in runs}
    with tempfile.TemporaryDirectory(dir=Path.cwd(), prefix=".bench-") as tmp:
        for i in range(rounds):
            for name, run in runs.items():
                got[name].append(run(Path(tmp) / f"{name}-{i}.db"))
    return got


def median(values: list[float]) -> float:
    return statistics.median(values)


def spread(values: list[float], unit: str, digits: int = 1) -> str:
    """Repeated figures as "median [min–max] unit"."""
    med, low, high = statistics.median(values), min(values), max(values)
    if len(values) == 1:  # one figure (e.g. a percentile of every round's values pooled)
        return f"{med:.{digits}f} {unit}"
    return f"{med:.{digits}f} [{low:.{digits}f}–{high:.{digits}f}] {unit}"


@dataclass(frozen=True)
class Row:
    """One figure: ours against the baseline, their ratio (worded: "5.4x faster"), the
    goal and whether this machine's figure meets it ("yes", "NO", or "" when none)."""

    bench: str
    metric: str
    ours: str
    baseline: str
    ratio: str
    goal: str = ""
    met: str = ""


def times(baseline: float, ours: float, better: str, worse: str) -> str:
    """The ratio of two costs in words: "3.1x faster" or, when ours costs more, "1.4x
    slower" (``better``/``worse`` name the direction)."""
    if ours <= baseline:
        return f"{baseline / ours:.1f}x {better}" if ours else f"∞ {better}"
    return f"{ours / baseline:.1f}x {worse}"


def verdict(ok: bool) -> str:
    return "yes" if ok else "NO"


def env_child() -> dict[str, str]:
    """The environment for a child ``companion`` process: headless, this checkout first."""
    env = dict(os.environ)
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached after a first run
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def without_realtime() -> list[str]:
    """The argv prefix that runs a command granted no real-time priority, as in a desktop
    session: the soft ``RLIMIT_RTPRIO`` at 0 (util-linux's prlimit) and, for root,
    ``CAP_SYS_NICE`` dropped (setpriv). ``companion run`` then keeps the normal policy:
    a comparison with a baseline that never asks for it stays like for like."""
    from companion.system import realtime

    prefix = ["prlimit", "--rtprio=0:"]  # soft 0, the hard limit as it is
    if realtime.holds_cap_sys_nice():
        prefix += ["setpriv", "--bounding-set", "-sys_nice"]
    return prefix
