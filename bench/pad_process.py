"""The seat-pad firmware in a process of its own, on the master side of a pty: what stands
in for the RP2040, which shares nothing with the kiosk (no interpreter lock, no thread of
the kiosk's process to wait for).

Run by ``bench.pads.PadProcess`` as ``python -m bench.pad_process VARIANT MASTER_FD``.
It runs ``firmware/pad/main.py`` (stand-in pins and pixels) as its main loop runs: every
``SCAN_US``, read what the host sent and the pins (a pass with nothing new to read in
the same ms is skipped: it would do nothing, and this process shares the machine's two
cores with the kiosk, which a board does not). Its stdin takes commands, one a
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
    due_pass = False  # a pin changed or the host sent bytes: the next pass has work
    while True:
        # The board's passes fall every SCAN_US; one that finds no new level, no host
        # bytes and no new ms does nothing, so only the others are run here: the next
        # pass after a change, else the first pass of the next ms.
        now = time.monotonic_ns()
        step = scan_ns if due_pass else 1_000_000
        due = start + ((now - start) // step + 1) * step
        watch = [commands] if due_pass else [commands, master]
        ready = select.select(watch, [], [], max(0, due - now) / 1e9)[0]
        if master in ready:
            due_pass = True
            continue
        if commands in ready:
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
                    due_pass = True
                elif word == "lights":
                    out.write("lights " + ",".join(pad.lights) + "\n")
                out.flush()
            continue
        if time.monotonic_ns() < due:
            continue
        # The pass, as on the board: what the host sent, then the pins.
        while select.select([master], [], [], 0)[0]:
            pad.feed(os.read(master, 4096))
        pad.poll((time.monotonic_ns() - start) // 1_000_000)
        due_pass = False

if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
