"""Shared test setup: pygame always headless (SDL dummy driver), never a real display;
Hypothesis without timing limits (see below)."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from hypothesis import HealthCheck, settings

# No per-example time limit (Hypothesis's default deadline is 200 ms) and no "too slow"
# health check: on a loaded CI machine both fail tests on timing, not on what they prove.
# Every @settings(...) in the tests inherits these.
settings.register_profile("companion", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")
