"""The kiosk's canvas follows the real screen: fullscreen takes the display's own size
(SDL's desktop mode) unless the configuration gives one, a window is 800x480 unless it
does, and ``display.rotation`` turns a portrait panel's picture (Touch Display 2,
720x1280, used landscape) so the screens lay out on the turned canvas.

Under SDL's dummy driver (tests/conftest.py) the desktop mode is SDL's own (1024x768);
a panel of another size is SDL reporting that size (``get_desktop_sizes`` stood in for).
"""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
from pathlib import Path

import pygame
import pytest
from kiosk_process import KioskProcess

from companion.config import WINDOW_SIZE, DisplayConfig, load_config
from companion.files.yamlsrc import SourceError
from companion.hardware.sim import SimBackend
from companion.ui.app import make_app, window_size
from companion.ui.home import HomeScreen

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "companion" / "data" / "default-config.yaml"


@pytest.fixture
def open_app():
    """``open_app(display, fullscreen)`` -> the app on the shipped configuration's seats,
    Home drawn once."""
    backends: list[SimBackend] = []

    def _open(display: DisplayConfig, fullscreen: bool):
        config = dataclasses.replace(load_config(SHIPPED), display=display)
        backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
        backends.append(backend)
        app = make_app(config, backend, fullscreen=fullscreen)
        app.push(HomeScreen(app))
        assert app.render_if_dirty()
        return app

    yield _open
    for backend in backends:
        backend.close()
    pygame.display.quit()


def desktop_size() -> tuple[int, int]:
    pygame.display.init()
    return pygame.display.get_desktop_sizes()[0]


def test_shipped_configuration_leaves_the_size_to_the_display():
    assert load_config(SHIPPED).display == DisplayConfig(None, None, 0, "auto")


def test_fullscreen_takes_the_displays_own_size(open_app):
    own = desktop_size()
    assert own != WINDOW_SIZE  # else this test could not tell them apart
    app = open_app(DisplayConfig(), fullscreen=True)
    assert app.window.get_size() == own
    assert app.size == own == app.canvas.get_size()


def test_a_window_without_a_size_is_800x480(open_app):
    app = open_app(DisplayConfig(), fullscreen=False)
    assert app.window.get_size() == app.size == WINDOW_SIZE == (800, 480)


def test_the_window_opens_with_the_kiosks_icon_not_pygames_from_its_package(open_app,
                                                                            monkeypatch):
    """pygame loads its own icon at every window opened without one (through
    importlib.resources, ms of each start): the kiosk gives its own first."""
    import pygame.pkgdata

    looked_up: list[str] = []
    real = pygame.pkgdata.getResource
    monkeypatch.setattr(pygame.pkgdata, "getResource",
                        lambda name, *rest: looked_up.append(name) or real(name, *rest))
    app = open_app(DisplayConfig(), fullscreen=False)
    assert app.window.get_size() == WINDOW_SIZE and looked_up == []


def test_a_configured_size_wins_over_the_display(open_app):
    """Asked of SDL in fullscreen too (which picks its nearest display mode: the dummy
    driver has only 1024x768, so the window is checked in a window)."""
    assert window_size(DisplayConfig(1024, 600), fullscreen=True) == (1024, 600)
    app = open_app(DisplayConfig(1024, 600), fullscreen=False)
    assert app.window.get_size() == app.size == (1024, 600)


def test_the_size_asked_is_the_panels_as_sdl_reports_it(monkeypatch):
    """Touch Display 2 reports its native 720x1280 (portrait)."""
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(720, 1280)])
    assert window_size(DisplayConfig(rotation=90), fullscreen=True) == (720, 1280)
    assert window_size(DisplayConfig(rotation=90), fullscreen=False) == WINDOW_SIZE
    pygame.display.quit()


@pytest.mark.parametrize("rotation", [90, 270])
def test_fullscreen_turned_lays_out_on_the_turned_display(open_app, rotation):
    width, height = desktop_size()
    app = open_app(DisplayConfig(rotation=rotation), fullscreen=True)
    assert app.window.get_size() == (width, height)
    assert app.size == app.canvas.get_size() == (height, width)


@pytest.mark.parametrize("rotation", [90, 270])
def test_portrait_panel_turned_lays_out_landscape(open_app, rotation):
    """A 720x1280 panel turned: every screen lays out on 1280x720, the window shows the
    canvas turned, and a tap comes back to where the canvas drew."""
    app = open_app(DisplayConfig(720, 1280, rotation=rotation), fullscreen=False)
    assert app.window.get_size() == (720, 1280)
    assert app.size == app.canvas.get_size() == app.theme.size == (1280, 720)
    turned = pygame.transform.rotate(app.canvas, -rotation)
    assert pygame.image.tobytes(turned, "RGB") == pygame.image.tobytes(app.window, "RGB")
    # the canvas's top-left corner is at the window's top-right (90) or bottom-left (270)
    corner = (719, 0) if rotation == 90 else (0, 1279)
    assert app.to_canvas(corner) == (0, 0)


def test_size_from_sdl_info_when_it_has_no_desktop_sizes(monkeypatch):
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", list)
    pygame.display.init()
    info = pygame.display.Info()
    assert window_size(DisplayConfig(), fullscreen=True) == (info.current_w, info.current_h)
    pygame.display.quit()


@pytest.mark.parametrize("given", ["width", "height"])
def test_width_and_height_come_together(tmp_path, given):
    text = SHIPPED.read_text(encoding="utf-8").replace(
        "  # " + given + ":", "  " + given + ":"
    )
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    other = "height" if given == "width" else "width"
    with pytest.raises(SourceError) as caught:
        load_config(path)
    assert f"display.{other}: missing: give width and height together, or neither" in str(
        caught.value
    )


def test_companion_run_fullscreen_opens_at_the_displays_size(tmp_path):
    """`companion run` as on a Pi: no size configured, fullscreen; its log says the size it
    took, the display's own."""
    config = tmp_path / "config.yaml"
    config.write_text(
        SHIPPED.read_text(encoding="utf-8").replace("fullscreen: auto", "fullscreen: yes")
        + "data_dir: data\n",
        encoding="utf-8",
    )
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    kiosk = KioskProcess(
        [sys.executable, "-m", "companion", "run", "--config", str(config)], env, tmp_path
    )
    try:
        width, height = desktop_size()
        line = kiosk.await_line("display: ")
        assert f"display: {width}x{height} fullscreen (the display's own size)" in line
        kiosk.await_line(" ready: ")
        assert kiosk.stop(signal.SIGTERM) == 0
    finally:
        kiosk.kill()
        pygame.display.quit()
