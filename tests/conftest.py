"""Shared test setup: pygame always headless (SDL dummy driver), never a real display;
the cache in a temporary directory; Hypothesis without timing limits (see below)."""

import atexit
import gc
import os
import shutil
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The parsed-catalog cache (yamlsrc.shipped_cache_dir) of the tests and of the kiosks they
# start goes to a directory of this run, never the user's ~/.cache.
_TEST_CACHE = tempfile.mkdtemp(prefix="companion-test-cache-")
os.environ["XDG_CACHE_HOME"] = _TEST_CACHE
atexit.register(shutil.rmtree, _TEST_CACHE, True)

import pygame
import pytest
import ui_kd
from gpiozero.pins.mock import MockPWMPin
from held_sync import HeldSync
from hypothesis import HealthCheck, settings
from pins import PinClock, mock_pins
from table_rig import TableRig, open_app

from companion.storage.journal import Journal

# An App's screens and its theme hold each other, so a finished test's fonts (each an open
# file) wait for the cycle collector, which may not run for hundreds of tests; select(),
# which the serial pads' reader uses, cannot watch a descriptor numbered 1024 or more.
FDS_BEFORE_COLLECTING = 256


@pytest.fixture(autouse=True)
def _collect_when_descriptors_pile_up():
    """After a test, collect the cycles when this process holds many descriptors."""
    yield
    if len(os.listdir("/proc/self/fd")) > FDS_BEFORE_COLLECTING:
        gc.collect()

# No per-example time limit (Hypothesis's default deadline is 200 ms) and no "too slow"
# health check: on a loaded CI machine both fail tests on timing, not on what they prove.
# Every @settings(...) in the tests inherits these.
settings.register_profile("companion", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")


@pytest.fixture
def kiosk():
    """Start ``companion run --config FILE`` processes (``kiosk_process.Kiosk``); any still
    running at the end of the test is killed."""
    from kiosk_process import Kiosk

    started: list = []

    def _start(config):
        k = Kiosk(config)
        started.append(k)
        return k

    yield _start
    for k in started:
        k.kill()


@pytest.fixture
def kd(tmp_path):
    """``kd(size=(800, 480), language="en")`` → (app, backend, night): the King's Dilemma
    rulebook's five seats on simulated pads, a journal in ``tmp_path`` (``ui_kd.open_kd``)."""
    yield from ui_kd.open_kd(tmp_path)


@pytest.fixture
def open_table(tmp_path):
    """``open_table(size=…, language=…, journal=True, history=True, seats=None, tmp=None)``
    → a ``TableRig`` in ``tmp`` (default ``tmp_path``); every one is closed at the end."""
    opened: list[TableRig] = []

    def _open(tmp: Path | None = None, **kw) -> TableRig:
        opened.append(TableRig(tmp or tmp_path, **kw))
        return opened[-1]

    yield _open
    for rig in opened:
        rig.close()


@pytest.fixture
def hands(open_phones):
    """``hands(rig)`` → a ``Hands``: phones driven frame by frame (aiohttp) against
    ``rig``, the kiosk's loop run while they wait; closed at the end."""
    from phone_rig import Hands

    made: list[Hands] = []

    def _make(rig) -> Hands:
        made.append(Hands(rig))
        return made[-1]

    yield _make
    for h in made:
        h.close()


@pytest.fixture
def journal(tmp_path):
    """A journal where the kiosk keeps it (``tmp_path/data/journal.sqlite``: a
    ``companion run`` started in ``tmp_path`` reads the same), closed at the end."""
    with Journal(tmp_path / "data" / "journal.sqlite") as j:
        yield j


@pytest.fixture
def clock():
    """The seat backends' hand-moved milliseconds (``PinClock``: ``clock.t += 5``)."""
    return PinClock()


@pytest.fixture
def app(journal):
    """The kiosk's App (800×480, English, four simulated seats) keeping its games in
    ``journal`` (``table_rig.open_app``); its seats and display closed at the end."""
    app = open_app(journal)
    yield app
    app.backend.close()
    pygame.event.clear()
    pygame.display.quit()


@pytest.fixture
def pins(request):
    """gpiozero's MockFactory as the pin factory for the test (``pins.pin(4)`` is GPIO 4);
    a test module picks the pin class by naming it ``PIN_CLASS`` (default MockPWMPin)."""
    with mock_pins(getattr(request.module, "PIN_CLASS", MockPWMPin)) as factory:
        yield factory


@pytest.fixture
def open_phones(tmp_path):
    """``open_phones(seats=None, language="en")`` → a ``PhoneRig``: a kiosk in this process
    whose seats take phones on loopback; every one is closed at the end."""
    from phone_rig import PhoneRig

    opened: list[PhoneRig] = []

    def _open(**kw) -> PhoneRig:
        opened.append(PhoneRig(tmp_path, **kw))
        return opened[-1]

    yield _open
    for rig in opened:
        rig.close()


CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


@pytest.fixture(scope="session")
def chromium_browser():
    """Debian's Chromium driven by Playwright (``executable_path``: Playwright never
    downloads a browser of its own), headless, for the phone pages; skipped where it isn't
    installed unless ``COMPANION_REQUIRE_CHROMIUM`` (CI) says it must be."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        if os.environ.get("COMPANION_REQUIRE_CHROMIUM"):
            pytest.fail("COMPANION_REQUIRE_CHROMIUM is set but no chromium is on PATH")
        pytest.skip("headless Chromium is not installed here (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(chromium_browser):
    """``phone(url)`` → a ``Phone``: a page at a phone's size (390×844, touch), in a
    browser context of its own (its own storage, as a phone of its own), that keeps every
    WebSocket frame it received; all closed at the end."""
    from phone_page import Phone

    opened: list = []

    def _open(url: str, **kw):
        opened.append(Phone(chromium_browser, url, **kw))
        return opened[-1]

    yield _open
    for p in opened:
        p.close()


@pytest.fixture
def held():
    """A ``HeldSync``: give it as a journal's ``sync_wal`` to hold or fail its committer's
    fsync; released at the end, so no committer is left waiting."""
    sync = HeldSync()
    yield sync
    sync.release()
