"""The idle CPU baseline: the same app and screen as ``companion run`` (shipped
configuration, Home), but a naive game loop that redraws the whole screen at 60 FPS
whether anything changed or not. Prints ``ready`` after its first frame, like
``companion run`` logs it."""

from __future__ import annotations

import pygame

from companion.config import SHIPPED_CONFIG, load_config
from companion.hardware.sim import SimBackend
from companion.ui.app import make_app
from companion.ui.home import HomeScreen


def main() -> None:
    config = load_config(SHIPPED_CONFIG)
    backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
    app = make_app(config, backend, checks_texts=False)  # drawn as the kiosk draws
    app.push(HomeScreen(app))
    clock = pygame.time.Clock()
    while app.running:
        for event in pygame.event.get():
            app.handle(event)
        app.invalidate()
        app.render_if_dirty()
        if app.frames == 1:
            print("ready", flush=True)
        clock.tick(60)


if __name__ == "__main__":
    main()
