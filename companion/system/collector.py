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
quiet for ``QUIET_S`` (no touch, no press). At the first such quiet spell, what exists
then (the modules, the fonts, the catalogs, the resumed game) is frozen out of every
later pass (``gc.freeze``): the full passes after it cover only what the night made since.
Reference counting still frees everything that is not in a cycle, at once, on or off.
https://docs.python.org/3/library/gc.html#gc.freeze
"""

from __future__ import annotations

import gc

QUIET_S = 2.0  # no input for this long: a full pass costs nobody a wait (the loop's ACTIVE_S)


class IdleCollector:
    """``start`` when the loop starts, ``idle(quiet_s)`` before each of its sleeps,
    ``stop`` when it ends (the collector as it was, nothing left frozen)."""

    def __init__(self) -> None:
        self._was_enabled: bool | None = None  # None: not started
        self.frozen = False  # the first quiet spell's survivors are out of every pass
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
        quiet = quiet_s >= QUIET_S
        if quiet and not self.frozen:
            self._collect(2)
            gc.freeze()
            self.frozen = True
        elif quiet and middle >= limit1 and old >= limit2:
            self._collect(2)
        elif young >= limit0:
            self._collect(1 if middle >= limit1 else 0)

    def _collect(self, generation: int) -> None:
        gc.collect(generation)
        self.passes[generation] += 1

    def stop(self) -> None:
        if self._was_enabled is None:
            return
        if self.frozen:
            gc.unfreeze()  # back in the oldest generation: collectable again
            self.frozen = False
        if self._was_enabled:
            gc.enable()
        self._was_enabled = None
