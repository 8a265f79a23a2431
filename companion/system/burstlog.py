"""A complaint that may come in a flood, logged as one warning when it starts (with its
first example) and one line with how many more came once it has been quiet for
``quiet_s``: bad frames from a seat pad, connections refused by the phones' server. A
flood is two log lines, not a full disk.

The owner calls ``flush`` from time to time (by ``deadline``): the serial reader's loop,
the phones' asyncio loop."""

from __future__ import annotations

import logging

BURST_QUIET_S = 1.0  # a burst of complaints ends after this long without one


class BurstLog:
    """One kind of complaint (``what``, plural: "bad frames"), said on ``logger`` with
    ``where`` before its summary ("seat pads: 12 more bad frames in that burst")."""

    def __init__(self, what: str, logger: logging.Logger, where: str,
                 quiet_s: float = BURST_QUIET_S) -> None:
        self.what = what
        self.log = logger
        self.where = where
        self.quiet_s = quiet_s
        self.more = 0
        self._last: float | None = None  # time of the last complaint of the burst

    def note(self, now: float, message: str, *args: object, exc_info: bool = False) -> None:
        if self._last is None:
            self.log.warning(message, *args, exc_info=exc_info)
        else:
            self.more += 1
        self._last = now

    def deadline(self) -> float | None:
        return None if self._last is None else self._last + self.quiet_s

    def flush(self, now: float, force: bool = False) -> None:
        """End the burst if it has been quiet long enough (or ``force``)."""
        if self._last is None or (not force and now < self._last + self.quiet_s):
            return
        if self.more:
            self.log.warning("%s: %d more %s in that burst", self.where, self.more, self.what)
        self._last = None
        self.more = 0
