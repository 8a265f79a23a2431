"""What a Raspberry Pi set-up relies on outside the units: the kiosk's window keeps the
desktop's screen saver (and its screen blanking) off while it is open; a kiosk started
where there is no screen at all says that nothing is visible."""

from __future__ import annotations

import signal
import sys

import pygame
from kiosk_process import KioskProcess, write_config
from kiosk_process import env as kiosk_env

from companion.commands import run as run_command
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


def test_no_display_is_said_plainly_not_reported_ready_as_if_seen(monkeypatch):
    """No desktop session and no console screen: SDL falls back to drawing into memory
    (its offscreen driver) and the kiosk would look ready; it says nothing is visible."""
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    assert "NOTHING IS VISIBLE" in run_command.invisible_display("offscreen")
    assert "$DISPLAY and $WAYLAND_DISPLAY unset" in run_command.invisible_display("dummy")
    assert run_command.invisible_display("KMSDRM") is None
    assert run_command.invisible_display("wayland") is None
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # asked for (tests, screenshots): quiet
    assert run_command.invisible_display("dummy") is None


def test_a_real_kiosk_without_any_display_says_nothing_is_visible(tmp_path):
    """`companion run` as run.sh starts it over SSH: no DISPLAY, no WAYLAND_DISPLAY, no
    SDL_VIDEODRIVER, and no screen SDL may open on this machine either."""
    env = kiosk_env()
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    config = write_config(tmp_path, "sim")
    k = KioskProcess([sys.executable, "-m", "companion", "run", "--config", str(config)],
                     env, tmp_path)
    try:
        k.await_line(" display: ")  # its size, mode and rotation
        shown = k.await_line(" display: ")
        assert "NOTHING IS VISIBLE" in shown and "offscreen driver" in shown
        k.await_line("ready")
        assert k.stop(signal.SIGTERM) == 0
    finally:
        k.kill()
