"""The baseline debouncer: the trailing debounce the companion used before (kept here, unchanged in
its logic, for the benchmarks to compare against): a level counts only once it has stayed
unchanged for ``debounce_ms``, each bounce restarting the wait, and a short press is reported
once its release has settled. No press-edge acknowledgement. MicroPython compatible, like
the debouncer it is compared with (the bench loads it into the pad firmware too)."""
SHORT = "short"  # the values of companion.hardware.base.Press
LONG = "long"


class Debouncer:
    def __init__(self, debounce_ms: int = 20, long_press_ms: int = 700, pressed: bool = False):
        self.debounce_ms = debounce_ms
        self.long_press_ms = long_press_ms
        self._raw = pressed  # last level seen on the pin
        self._raw_since = 0  # time of the last edge
        self._stable = pressed  # debounced level
        self._pressed_at = 0  # time of the settled press edge
        # A button already held when we start is not a press of ours.
        self._spent = pressed  # this press has had its event

    @property
    def pressed(self) -> bool:
        return self._stable

    def edge(self, pressed: bool, now: int) -> list:
        """The pin changed to ``pressed`` at ``now``; returns the events due by then."""
        if pressed == self._raw:
            return self.poll(now)
        events = self.poll(now)  # the level that just ended may have settled meanwhile
        self._raw = pressed
        self._raw_since = now
        return events

    def poll(self, now: int) -> list:
        """Events due by ``now`` without a new edge (call at ``deadline()``)."""
        events = []
        if self._raw != self._stable and now - self._raw_since >= self.debounce_ms:
            self._stable = self._raw
            if self._stable:
                self._pressed_at = self._raw_since
                self._spent = False
            elif not self._spent:
                held = self._raw_since - self._pressed_at
                events.append(LONG if held >= self.long_press_ms else SHORT)
                self._spent = True
        if self._stable and not self._spent:
            end = now if self._raw else self._raw_since
            if end - self._pressed_at >= self.long_press_ms:
                events.append(LONG)
                self._spent = True
        return events

    def deadline(self):
        """When ``poll`` next has something to decide (ms), or None if only an edge can."""
        if self._raw != self._stable:
            return self._raw_since + self.debounce_ms
        if self._stable and not self._spent:
            return self._pressed_at + self.long_press_ms
        return None
