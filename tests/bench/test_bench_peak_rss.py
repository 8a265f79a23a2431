"""The bench's peak-memory figure is the measured program's own, not its parent's.

Linux carries a forked child's starting peak across ``exec`` into ``ru_maxrss``; a bench
process holding a large buffer made every program it measured look that large.
"""

import subprocess
import sys
from pathlib import Path

import pytest

WRAPPER = Path(__file__).resolve().parents[2] / "bench" / "peak_rss.py"
MIB = 1024 * 1024


def peak_mib(tmp_path: Path, *program: str) -> float:
    out = tmp_path / "peak"
    subprocess.run([sys.executable, str(WRAPPER), str(out), *program], check=True)
    return int(out.read_text(encoding="ascii")) / 1024


@pytest.fixture(scope="module")
def big_parent():
    """This process made large (and its pages touched) while the programs are started."""
    buffer = bytearray(160 * MIB)
    buffer[:: 4096] = b"\1" * len(buffer[:: 4096])
    yield buffer


def test_a_small_program_reads_small_under_a_large_parent(big_parent, tmp_path):
    assert peak_mib(tmp_path, "-c", "pass") < 100


def test_the_programs_own_memory_counts(big_parent, tmp_path):
    assert peak_mib(tmp_path, "-c", "x = bytearray(120 * 2**20); x[::4096] = b'1' * len(x[::4096])") >= 120


def test_a_module_runs_as_main_with_its_arguments(tmp_path):
    marker = tmp_path / "ran"
    code = f"import sys, pathlib; pathlib.Path({str(marker)!r}).write_text(' '.join(sys.argv[1:]))"
    assert peak_mib(tmp_path, "-c", code, "a", "b") > 0
    assert marker.read_text() == "a b"
    subprocess.run([sys.executable, str(WRAPPER), str(tmp_path / "p2"), "-m", "json.tool", "--help"],
                   check=True, stdout=subprocess.DEVNULL)
    assert int((tmp_path / "p2").read_text()) > 0
