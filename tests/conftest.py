"""Shared test setup: pygame always headless (SDL dummy driver), never a real display;
Hypothesis without timing limits (see below)."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest
from hypothesis import HealthCheck, settings

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
