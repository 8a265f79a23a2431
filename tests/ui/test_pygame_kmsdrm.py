"""The installed pygame's SDL can draw on a console: its ``kmsdrm`` video driver is
compiled in (the console kiosk unit depends on it; the PyPI ``pygame`` wheels had none).

Asked for a driver, SDL 2.32 ends with the same message whether the driver is missing or
found no device ("kmsdrm not available"). What differs is what happens before: a driver
that is there probes for its device (``/dev/dri``) and says why it found none. With
``SDL_LOGGING=error=debug`` SDL logs every error it sets, so the test reads that probe.
A driver name that is not compiled in is the control: no probe, only "not available".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from companion.commands import install_service as svc

PROBE = """
import json, pygame
try:
    pygame.display.init()
except pygame.error as exc:
    print(json.dumps({"driver": None, "error": str(exc)}))
else:
    print(json.dumps({"driver": pygame.display.get_driver(), "error": None}))
"""


def ask_sdl_for(driver: str) -> tuple[dict, list[str]]:
    """Start SDL's video with ``driver`` in a fresh interpreter; its result, and the errors
    SDL set on the way (its debug log), in order."""
    env = dict(os.environ, SDL_VIDEODRIVER=driver, SDL_LOGGING="error=debug")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    logged = [
        line.split(": ", 1)[1]
        for line in result.stderr.splitlines()
        if line.startswith(("DEBUG: ", "ERROR: "))
    ]
    return json.loads(result.stdout), logged


def test_kmsdrm_is_compiled_in_and_fails_only_for_want_of_a_device():
    outcome, logged = ask_sdl_for("kmsdrm")
    if outcome["driver"] is not None:  # a console with a display: it draws
        assert outcome["driver"].lower() == "kmsdrm"
        return
    assert outcome["error"] == "kmsdrm not available"
    probe = [e for e in logged if e != "kmsdrm not available"]
    # here: "Failed to open directory '/dev/dri/'" (no GPU); on a machine with one, what
    # its device said
    assert probe, f"SDL set no error before giving up: kmsdrm is not compiled in ({logged})"
    assert any(word in " ".join(probe).lower() for word in ("/dev/dri", "drm", "device")), probe


def test_a_driver_that_is_not_compiled_in_gives_up_without_a_probe():
    """The control: what the test above would see with an SDL lacking kmsdrm."""
    outcome, logged = ask_sdl_for("nosuchdriver")
    assert outcome == {"driver": None, "error": "nosuchdriver not available"}
    assert logged == ["nosuchdriver not available"]


def test_install_service_finds_kmsdrm_in_the_loaded_sdl():
    """The check `install-service` makes before writing the console unit, run for real."""
    assert "kmsdrm" in (d.lower() for d in svc.video_drivers())
    # so the console unit is not refused for its display (only, here, for no systemd)
    found = svc.problems(desktop=False, skipped=svc.GROUPS)
    assert not any("has no kmsdrm video driver" in p for p in found), found


def test_companion_run_on_a_console_without_a_screen_says_where_to_look(tmp_path):
    """The console unit's `companion run` (SDL_VIDEODRIVER=kmsdrm) with no DRM device, as
    here or on a Pi whose screen's driver is not up yet: one line that says where to look,
    no traceback, and exit 1, which the unit restarts (only 2 is not restarted)."""
    config = tmp_path / "config.yaml"
    config.write_text(
        "seats:\n  - {name: Ana, colour: red, position: bottom}\n"
        "  - {name: Ben, colour: blue, position: top}\ndata_dir: data\n",
        encoding="utf-8",
    )
    env = dict(os.environ, SDL_VIDEODRIVER="kmsdrm", PYGAME_HIDE_SUPPORT_PROMPT="1")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--config", str(config)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert (
        "ERROR companion: the display can't be opened: kmsdrm not available: SDL draws on "
        "the console through /dev/dri; it needs a screen connected and on, the KMS driver"
    ) in done.stderr
