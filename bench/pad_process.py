"""The seat-pad firmware in a process of its own, on the master side of a pty: what stands
in for the RP2040, which shares nothing with the kiosk (no interpreter lock, no thread of
the kiosk's process to wait for).

Run by ``bench.pads.PadProcess`` as ``python -m bench.pad_process VARIANT MASTER_FD``.
It runs ``firmware/pad/main.py`` (stand-in pins and pixels) as its main loop runs: every
``SCAN_US``, read what the host sent and the pins. Its stdin takes commands, one a
line, each answered on stdout:

- ``pin SEAT LEVEL``: the contact of SEAT's button "a" closes (1) or opens (0), now;
  answered ``edge T`` (``perf_counter_ns`` when the level changed). The firmware sees it
  at its next read of the pins, as it would a finger;
- ``lights``: answered ``lights STATE,STATE,…`` (the states the host has set);

and every change of a pixel is told as ``pixel SEAT ON T``. ``perf_counter_ns`` is the
system's monotonic clock: the parent compares these times with its own.
"""

from __future__ import annotations

import os
import select
import sys
import time

from bench.common import ROOT
from companion.hardware import debounce

sys.path.insert(0, str(ROOT / "tests"))
from fakes.firmware import load_firmware  # the firmware with stand-in pins


def main(variant: str, master: int) -> None:
    from bench import baseline_debounce

    fw = load_firmware(debouncer=debounce if variant == "ours" else baseline_debounce)
    out = sys.stdout
    shown: list = []

    class TimedPixels(fw.neopixel.NeoPixel):
        def write(self) -> None:
            super().write()
            t = time.perf_counter_ns()
            for seat, colour in enumerate(self.written):
                if seat < len(shown) and colour != shown[seat]:
                    out.write(f"pixel {seat} {int(colour != (0, 0, 0))} {t}\n")
            shown[:] = self.written
            out.flush()

    fw.neopixel.NeoPixel = TimedPixels
    pad = fw.Pad(lambda data: os.write(master, data))
    shown[:] = pad.pixels.written
    commands = sys.stdin.buffer.raw
    pending = b""
    start = time.monotonic_ns()
    scan_ns = fw.SCAN_US * 1000
    next_scan = time.monotonic_ns()
    while True:
        timeout = max(0, next_scan - time.monotonic_ns()) / 1e9
        if select.select([commands], [], [], timeout)[0]:
            data = os.read(commands.fileno(), 4096)
            if not data:
                return  # the bench is done
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                word, *args = line.decode().split()
                if word == "pin":
                    gp = dict(fw.board.SEATS[int(args[0])])["a"]
                    fw.machine.PINS[gp].value(0 if args[1] == "1" else 1)
                    out.write(f"edge {time.perf_counter_ns()}\n")
                elif word == "lights":
                    out.write("lights " + ",".join(pad.lights) + "\n")
                out.flush()
            continue
        # The loop's pass, as on the board: what the host sent, the pins; then SCAN_US.
        while select.select([master], [], [], 0)[0]:
            pad.feed(os.read(master, 4096))
        pad.poll((time.monotonic_ns() - start) // 1_000_000)
        next_scan = time.monotonic_ns() + scan_ns


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
