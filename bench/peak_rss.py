"""Run a Python program and write its own peak resident memory (``VmHWM``) to a file as it
exits: ``python bench/peak_rss.py OUT -m MODULE ARGS…`` or ``… OUT -c CODE``.

Why not the child's ``ru_maxrss`` from ``os.wait4``: Linux keeps, across ``exec``, the peak
of the memory the child started with, which after a fork (or ``vfork``) from the bench is
the bench's own: a bench process of 150 MB made every child read at least 150 MB. ``VmHWM``
belongs to the memory map the program itself built after ``exec``. Run as a file, this
wrapper imports only ``atexit``, ``runpy`` and ``sys``, the same for every program timed.
"""

import atexit
import runpy
import sys


def _write_peak(out: str) -> None:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                kib = line.split()[1]
                break
    with open(out, "w", encoding="ascii") as f:
        f.write(kib)


def main() -> None:
    out, how, what, *args = sys.argv[1:]
    atexit.register(_write_peak, out)
    if how == "-m":
        sys.argv = [what, *args]
        runpy.run_module(what, run_name="__main__", alter_sys=True)
    elif how == "-c":
        sys.argv = ["-c", *args]
        # What "python -c CODE" does with CODE: the bench's own program text.
        exec(compile(what, "<string>", "exec"), {"__name__": "__main__"})  # noqa: S102
    else:
        raise SystemExit(f"peak_rss: -m MODULE or -c CODE, not {how!r}")


if __name__ == "__main__":
    main()
