"""Benchmark 7: the price of acting on the first release edge, counted (not timed).

A contact that opens for a moment while the button is held (a dropout) reads as a
release with our debouncer; the baseline (trailing, ``bench/baseline_debounce.py``) hid
dropouts shorter than its 20 ms window. Each debouncer, driven with the pure clock: a
400 ms hold with one dropout of ``d`` ms in its middle, for several ``d``; the figure is
the number of presses reported (1 is right). And the other side, where both must agree:
a glitch (a press shorter than the window) is never a press.
"""

from __future__ import annotations

from bench import baseline_debounce
from bench.common import Row
from companion.hardware import debounce

DROPOUTS_MS = (1, 2, 5, 10, 19, 25)
GLITCHES_MS = (1, 5, 19)


def presses(module, edges: list[tuple[int, bool]], end: int) -> int:
    deb = module.Debouncer(20, 700)
    events = []
    for t, level in edges:
        events += deb.edge(level, t)
    events += deb.poll(end)
    return sum(1 for e in events if e in (debounce.SHORT, debounce.LONG))


def run() -> list[Row]:
    rows = []
    for module, name in ((debounce, "ours"), (baseline_debounce, "baseline")):
        held = [presses(module, [(0, True), (200, False), (200 + d, True), (400, False)], 500)
                for d in DROPOUTS_MS]
        glitch = [presses(module, [(0, True), (g, False)], 500) for g in GLITCHES_MS]
        rows.append((name, held, glitch))
    (_, ours_held, ours_glitch), (_, base_held, base_glitch) = rows
    ms = "/".join(str(d) for d in DROPOUTS_MS)
    gs = "/".join(str(g) for g in GLITCHES_MS)
    return [
        Row("7 dropout", f"presses read from one 400 ms hold with a {ms} ms dropout",
            "/".join(map(str, ours_held)), "/".join(map(str, base_held)),
            "a dropout reads as a release", "stated in docs/button-grammar.md"),
        Row("7 dropout", f"presses read from a {gs} ms glitch",
            "/".join(map(str, ours_glitch)), "/".join(map(str, base_glitch)), "same",
            "0: never a press", "yes" if not any(ours_glitch) else "NO"),
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
