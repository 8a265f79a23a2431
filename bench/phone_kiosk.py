"""The kiosk of benchmark 10's idle row, in a process of its own: the shipped configuration
with five seats and phones on (loopback, a port of the system's choosing), Home on top,
the real loop (``App.run``) as ``companion run`` runs it. It prints each seat's URL (the
phones' codes: the bench's own harness, the kiosk never prints them) and ``ready`` once
its first frame is drawn. ``--no-phones``: the same kiosk without them (the baseline of
their own cost)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from companion.config import SHIPPED_CONFIG, PhonesConfig, SeatConfig, load_config
from companion.hardware.factory import open_backend
from companion.ui.app import make_app
from companion.ui.home import HomeScreen

FIFTH = SeatConfig("Eve", (160, 60, 200), "top-left")


def main() -> None:
    config = load_config(SHIPPED_CONFIG)
    phones = "--no-phones" not in sys.argv
    config = dataclasses.replace(
        config, seats=(*config.seats, FIFTH), data_dir=Path.cwd(),  # the bench's own
        phones=PhonesConfig(phones, 0, "127.0.0.1", "127.0.0.1"))
    backend, _ = open_backend(config)
    app = make_app(config, backend, checks_texts=False)  # as ``companion run`` draws
    app.start_backend()
    app.push(HomeScreen(app))
    app.render_if_dirty()
    for seat in range(len(config.seats) if phones else 0):
        print(backend.url(seat), flush=True)
    print("ready", flush=True)
    try:
        app.run()
    finally:
        backend.close()


if __name__ == "__main__":
    main()
