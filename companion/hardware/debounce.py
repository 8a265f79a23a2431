"""Button debounce and long-press detection, pure: the caller supplies the time.

Used by the GPIO backend on the Pi and, copied by ``firmware/flash.sh``, by the seat-pad
firmware, so it stays MicroPython compatible (no imports, no dataclasses; annotations
only on signatures, which MicroPython ignores).

The two edges of a press are treated differently, because players feel the release:

- **Press**: the pressed level counts once it has stayed unchanged for ``debounce_ms``;
  a shorter pulse (a glitch, a knock on the cable) never makes a press.
- **Release**: the *first* edge away from a settled press ends it at once, and every edge
  in the ``debounce_ms`` after it (the contact bouncing) is ignored. A short press is
  reported on that edge, not ``debounce_ms`` later. The price: a contact that drops out
  for a moment while held reads as a release (and, if the button stays held, as a new
  press after ``debounce_ms``). ``docs/button-grammar.md`` states it with its measurement.

Each settled press yields exactly one event: ``"long"`` as soon as it has been held
``long_press_ms`` (measured from the settled press edge), or ``"short"`` when it is
released earlier. The first raw press edge after a quiet spell also yields ``"down"``:
the acknowledgement a pad shows at once, before the press is even settled. It says only
"something was pressed": a glitch may make one, and it is the same for every button.
Times are integer milliseconds from any monotonic clock that does not wrap.
"""

SHORT = "short"  # the values of companion.hardware.base.Press
LONG = "long"
DOWN = "down"  # a raw press edge: acknowledge it on the seat's light, nothing more


class Debouncer:
    def __init__(self, debounce_ms: int = 20, long_press_ms: int = 700, pressed: bool = False):
        self.debounce_ms = debounce_ms
        self.long_press_ms = long_press_ms
        self._raw = pressed  # last level seen on the pin
        self._raw_since = 0  # time of the last edge
        self._stable = pressed  # debounced level
        self._pressed_at = 0  # time of the settled press edge
        self._released_at = None  # time of the release edge, bounces ignored after it
        # A button already held when we start is not a press of ours.
        self._spent = pressed  # this press has had its event
        self._acked = pressed  # this press has had its "down"

    @property
    def pressed(self) -> bool:
        return self._stable

    def _quiet(self, now: int) -> bool:
        """True once the bounce window after the last release edge is over."""
        return self._released_at is None or now - self._released_at >= self.debounce_ms

    def edge(self, pressed: bool, now: int) -> list:
        """The pin changed to ``pressed`` at ``now``; returns the events due by then."""
        if pressed == self._raw:
            return self.poll(now)
        events = self.poll(now)  # the level that just ended may have settled meanwhile
        self._raw = pressed
        self._raw_since = now
        if pressed:
            if not self._stable and not self._acked and self._quiet(now):
                self._acked = True
                events.append(DOWN)
        elif self._stable:
            # The first edge away from a settled press is the release.
            self._stable = False
            self._released_at = now
            if not self._spent:
                held = now - self._pressed_at
                events.append(LONG if held >= self.long_press_ms else SHORT)
                self._spent = True
        return events

    def poll(self, now: int) -> list:
        """Events due by ``now`` without a new edge (call at ``deadline()``)."""
        events = []
        if self._raw and not self._stable and now - self._raw_since >= self.debounce_ms:
            self._stable = True
            self._pressed_at = self._raw_since
            self._spent = False
        elif (self._acked and not self._raw and not self._stable
              and now - self._raw_since >= self.debounce_ms and self._quiet(now)):
            self._acked = False  # released and quiet: the next press edge is news
        if self._stable and not self._spent and now - self._pressed_at >= self.long_press_ms:
            events.append(LONG)
            self._spent = True
        return events

    def deadline(self):
        """When ``poll`` next has something to decide (ms), or None if only an edge can."""
        if self._raw and not self._stable:
            return self._raw_since + self.debounce_ms
        if self._stable and not self._spent:
            return self._pressed_at + self.long_press_ms
        return None
