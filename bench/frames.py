"""Benchmark 8: the frame a blinking light asks for, on a Koryŏ game screen at 800x480.

The acting seat's light blinks ("your turn"), and every step of its rhythm changes what
the seat ring mirrors: the loop draws a frame several times a second, and a press that
arrives meanwhile waits for that frame before the loop handles it. **Ours**: the plates of
the ring drawn alone over the last frame and only they shown (``App.redraw_ring``);
**baseline**: the whole screen drawn and flipped, as every blink step did before. Both at
the same blink steps, alternately, ``COUNT`` steps a round, ``ROUNDS`` rounds; per round
p50 and p99 (SDL's dummy driver: the drawing, not the display's own transfer).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.common import Row, median, percentile, spread, times
from companion.hardware.sim import SimBackend
from companion.ui.app import ManualClock, make_app
from companion.ui.demo import DemoContext, demo_config
from companion.ui.screens.majority import koryo

ROUNDS = 3
COUNT = 200


def _game_screen(tmp: Path):
    """The app on a new Koryŏ game of four seats (seat 0 first): its game screen on top."""
    config = demo_config((800, 480), "en")
    backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
    clock = ManualClock(1000)
    app = make_app(config, backend, clock=clock, checks_texts=False)  # as the kiosk draws
    ctx = DemoContext(app, backend, clock, tmp)
    ctx.show(koryo.new_game(app))
    ctx.tap(app.screen.button("start").rect, "start")
    app.step(block=False)
    if app.screen.next_deadline(clock.now_ms()) is None:
        raise RuntimeError(f"no light blinks on {app.screen.describe()}")
    return app, clock


def _timed(draw) -> float:
    t0 = time.perf_counter()
    draw()
    return (time.perf_counter() - t0) * 1000


def run(rounds: int = ROUNDS, count: int = COUNT) -> list[Row]:
    p50s: dict[str, list[float]] = {"ring": [], "whole": []}
    p99s: dict[str, list[float]] = {"ring": [], "whole": []}
    with tempfile.TemporaryDirectory(prefix="bench-frames-") as tmp:
        app, clock = _game_screen(Path(tmp))
        ring = app.screen.ring

        def ring_only() -> None:
            app.redraw_ring(ring)
            app.render_if_dirty()

        def whole() -> None:
            app.invalidate()
            app.render_if_dirty()

        for r in range(rounds):
            got: dict[str, list[float]] = {"ring": [], "whole": []}
            for i in range(count):
                deadline = app.screen.next_deadline(clock.now_ms())
                clock.advance(deadline - clock.now_ms())  # the next blink step
                order = (("ring", ring_only), ("whole", whole))
                for name, draw in order if (i + r) % 2 == 0 else order[::-1]:
                    got[name].append(_timed(draw))
            for name, values in got.items():
                p50s[name].append(percentile(values, 50))
                p99s[name].append(percentile(values, 99))
        app.backend.close()
    rows = []
    for label, figures in (("p50", p50s), ("p99", p99s)):
        ours, base = figures["ring"], figures["whole"]
        rows.append(Row("8 blink frame", f"a blink step's frame, Koryŏ game screen 800x480, {label} "
                        f"({rounds}×{count} steps)", spread(ours, "ms", 2),
                        spread(base, "ms (the whole screen)", 2),
                        times(median(base), median(ours), "less", "more"), "", ""))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
