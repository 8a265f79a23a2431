"""What a Raspberry Pi set-up relies on outside the units: the kiosk's window keeps the
desktop's screen saver (and its screen blanking) off while it is open."""

from __future__ import annotations

import pygame

from companion.hardware.sim import SimBackend
from companion.ui.app import make_app
from companion.ui.demo import demo_config


def test_the_kiosk_window_keeps_the_screen_saver_off():
    """SDL disables the screen saver while a window is open unless told otherwise
    (SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "By default SDL will disable the screensaver":
    https://wiki.libsdl.org/SDL2/SDL_HINT_VIDEO_ALLOW_SCREENSAVER); pygame-ce keeps that
    default. On a desktop this is what holds the screen on during a long turn."""
    config = demo_config((800, 480), "en")
    backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
    make_app(config, backend)
    assert pygame.display.get_init()
    assert pygame.display.get_allow_screensaver() is False
    backend.close()
