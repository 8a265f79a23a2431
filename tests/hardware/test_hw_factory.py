"""open_backend: the configured backend, or the simulator plus a notice when the hardware
is missing (no GPIO header, no serial pad, library not installed)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.hardware.factory import open_backend
from companion.hardware.sim import SimBackend


def config(backend: str, seats: int = 3, **hw) -> SimpleNamespace:
    hardware = SimpleNamespace(
        backend=backend, profile=None, port=None, pin_factory=None, debounce_ms=20,
        long_press_ms=700,
    )
    vars(hardware).update(hw)
    return SimpleNamespace(
        seats=tuple(f"seat{i}" for i in range(seats)),
        hardware=hardware,
        data_dir=Path("."),
    )


def test_sim_backend_has_the_configured_seats_and_long_press_and_no_notice():
    backend, notice = open_backend(config("sim", seats=4, long_press_ms=900))
    assert isinstance(backend, SimBackend) and notice is None
    assert backend.seats == 4 and backend.long_press_ms == 900


def test_unknown_backend_is_refused_by_name():
    with pytest.raises(ValueError, match="'usb'"):
        open_backend(config("usb"))


def real_config(tmp_path: Path, hardware: str):
    from companion.config import load_config

    path = tmp_path / "config.yaml"
    path.write_text(
        "seats:\n"
        "  - {name: Ana, colour: red, position: bottom}\n"
        "  - {name: Ben, colour: blue, position: top}\n"
        f"hardware: {hardware}\n"
    )
    return load_config(path)


def test_loaded_sim_config_opens_the_simulator(tmp_path):
    backend, notice = open_backend(real_config(tmp_path, "{backend: sim, long_press_ms: 500}"))
    assert isinstance(backend, SimBackend) and notice is None
    assert backend.seats == 2 and backend.long_press_ms == 500


def test_loaded_gpio_config_with_mock_pins_opens_the_gpio_backend(tmp_path):
    """Profile by shipped name, pin factory by gpiozero name, as a user would write them."""
    from companion.hardware.gpio import GpioBackend

    cfg = real_config(tmp_path, "{backend: gpio, profile: gpio-5-seats, pin_factory: mock}")
    backend, notice = open_backend(cfg)
    try:
        assert isinstance(backend, GpioBackend) and notice is None and backend.seats == 2
    finally:
        backend.close()
