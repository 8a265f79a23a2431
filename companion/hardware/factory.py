"""Choose and open the seat backend named by the configuration.

Backends are imported only when chosen, so a desktop without gpiozero or pyserial (or
without a GPIO header) still runs: the factory then falls back to the keyboard simulator
and returns a notice sentence for the screen and the log.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.hardware.base import NoHardware, SeatBackend
from companion.hardware.profile import load_profile, profile_path
from companion.hardware.sim import SimBackend

log = logging.getLogger(__name__)

BACKENDS = ("gpio", "serial", "sim")
PHONES_FILE = "phones.json"  # the evening's pairing secrets, in the data directory


def _fallback(config: Any, why: str) -> tuple[SeatBackend, str]:
    notice = f"{why} Using the keyboard simulator instead (keys 1-5, Q-T, A-G)."
    log.warning("%s", notice)
    return SimBackend(len(config.seats), config.hardware.long_press_ms), notice


def open_backend(config: Any) -> tuple[SeatBackend, str | None]:
    """The backend for ``config`` (a ``companion.config.Config``) and, when it had to
    fall back to the simulator, the notice saying why (else None). With phones enabled,
    the phones serve the same seats beside it (``companion.phones.seats.PhoneSeats``)."""
    backend, notice = _open_wired(config)
    phones = getattr(config, "phones", None)
    if phones is None or not phones.enabled:
        return backend, notice
    from companion.i18n import load_catalog  # aiohttp and the page: only when phones are on
    from companion.phones.seats import PhoneSeats

    return PhoneSeats(backend, config.seats, load_catalog(config.language),
                      host=phones.listen, port=phones.port, address=phones.address,
                      long_press_ms=config.hardware.long_press_ms,
                      secrets_file=config.data_dir / PHONES_FILE), notice


def _open_wired(config: Any) -> tuple[SeatBackend, str | None]:
    hw = config.hardware
    seats = len(config.seats)
    if hw.backend == "sim":
        return SimBackend(seats, hw.long_press_ms), None
    if hw.backend == "gpio":
        return _open_gpio(config)
    if hw.backend == "serial":
        return _open_serial(config)
    raise ValueError(f"unknown hardware backend {hw.backend!r} (one of {', '.join(BACKENDS)})")


def _open_gpio(config: Any) -> tuple[SeatBackend, str | None]:
    hw = config.hardware
    profile = load_profile(hw.profile or profile_path("gpio-5-seats"))
    try:  # gpiozero, a Pi-only library: imported only when chosen
        from companion.hardware.gpio import GpioBackend
    except ModuleNotFoundError as exc:
        if exc.name != "gpiozero":
            raise
        return _fallback(config, "The gpiozero library is not installed.")
    try:
        backend = GpioBackend(
            profile,
            len(config.seats),
            pin_factory=hw.pin_factory,
            debounce_ms=hw.debounce_ms,
            long_press_ms=hw.long_press_ms,
        )
    except NoHardware as exc:
        return _fallback(config, f"No GPIO on this machine ({exc}).")
    return backend, None


def _open_serial(config: Any) -> tuple[SeatBackend, str | None]:
    hw = config.hardware
    try:  # pyserial, an optional library: imported only when chosen
        from companion.hardware.serial_pad import WAITING_FOR_PAD, SerialBackend, pad_ports
    except ModuleNotFoundError as exc:
        if exc.name != "serial":
            raise
        return _fallback(config, "The pyserial library is not installed.")
    backend = SerialBackend(
        hw.port, len(config.seats), debounce_ms=hw.debounce_ms, long_press_ms=hw.long_press_ms
    )
    if backend.port == "auto" and not pad_ports():
        # Not a fallback: the reader keeps looking and takes the pad when it is plugged in;
        # meanwhile the screen marks every seat missing.
        log.warning("seat pads: %s", WAITING_FOR_PAD)
    return backend, None
