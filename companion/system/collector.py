"""Python's cycle collector, run by the kiosk's loop where nobody waits for it.

Left automatic, a collection runs inside whatever allocation crosses its threshold: a
press's dispatch, the frame after it, the committer's thread on its way to a light. It
holds the interpreter's lock throughout, so every thread waits: a young generation takes
a fraction of a millisecond, but the bench process's 90,000 objects took 8 ms for the
middle generation and 85 ms for a full pass (``gc.callbacks`` on ``python -m bench``;
12 ms for the 60,000 objects of a resumed 100k-action night). So while the loop runs the
automatic collector is off, and the loop calls ``idle`` each time it is about to sleep
(its frame drawn, nothing queued): the young generations are collected there on the
thresholds the automatic collector uses, and the oldest only once the table has been
quiet for ``QUIET_S`` (no touch, no press), on the same thresholds. Nothing is frozen
out of the passes (``gc.freeze``): what the start made and a game later ends would stay
for good if it were in a cycle, and a full pass at a quiet moment costs nobody a wait.
Reference counting still frees everything that is not in a cycle, at once, on or off.
https://docs.python.org/3/library/gc.html
"""

from __future__ import annotations

import gc

QUIET_S = 2.0  # no input for this long: a full pass costs nobody a wait (the loop's ACTIVE_S)


class IdleCollector:
    """``start`` when the loop starts, ``idle(quiet_s)`` before each of its sleeps,
    ``stop`` when it ends (the collector switched back as it was)."""

    def __init__(self) -> None:
        self._was_enabled: bool | None = None  # None: not started
        self.passes = [0, 0, 0]  # collections run, by generation (for tests and logs)

    def start(self) -> None:
        if self._was_enabled is None:
            self._was_enabled = gc.isenabled()
            gc.disable()

    def idle(self, quiet_s: float) -> None:
        """Collect what the automatic collector would have by now, but the oldest
        generation only after ``quiet_s`` ≥ ``QUIET_S``."""
        if self._was_enabled is None:
            return
        young, middle, old = gc.get_count()
        limit0, limit1, limit2 = gc.get_threshold()
        if not limit0:
            return  # a threshold of 0: collection turned off for this process
        if old >= limit2 and quiet_s >= QUIET_S:
            self._collect(2)  # its turn came while the table was in play, or comes now
        elif young >= limit0:
            self._collect(1 if middle >= limit1 else 0)

    def _collect(self, generation: int) -> None:
        gc.collect(generation)
        self.passes[generation] += 1

    def stop(self) -> None:
        if self._was_enabled is None:
            return
        if self._was_enabled:
            gc.enable()
        self._was_enabled = None
