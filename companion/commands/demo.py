"""`companion demo --out DIR`: play a scripted session headless; screenshots + transcript."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

from companion.play.errors import RuleError

SIZE = re.compile(r"(\d+)[xX×](\d+)")
# The demo's scripts, as companion.ui.demo.DEMOS names them (not imported here: it loads
# pygame, which waits for the SDL variables ``run`` sets; a test keeps the two equal).
SCRIPTS = ("home", "table-check", "koryo", "choson", "inheritors", "kings-dilemma", "history")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, required=True, help="directory for the PNGs and transcript")
    p.add_argument("--size", default="800x480", help="screen size WIDTHxHEIGHT (default 800x480)")
    p.add_argument("--lang", choices=("en", "fr"), default="en", help="language (default en)")
    p.add_argument("--rotation", type=int, choices=(0, 90, 180, 270), default=0,
                   help="the panel turned clockwise, as display.rotation (default 0); "
                   "--size 720x1280 --rotation 90: a portrait panel used landscape")
    p.add_argument("--seats", type=int, choices=(2, 3, 4, 5), default=None,
                   help="the shipped configuration's first seats, a fifth (Eve) added for 5 "
                   "(default: its four)")
    p.add_argument("--names", default=None,
                   help="the seats' names in seating order, comma-separated (default: the "
                   "shipped ones); 'long': five of 8 to 10 letters, accented")
    p.add_argument("--only", action="append", default=None, choices=SCRIPTS,
                   help="play only this script; may be repeated (default: every one)")


def parse_size(text: str) -> tuple[int, int]:
    match = SIZE.fullmatch(text.strip())
    if not match:
        raise RuleError("--size", f"{text!r}: expected WIDTHxHEIGHT, like 800x480",
                        code="size_format", params={"value": repr(text)})
    w, h = int(match.group(1)), int(match.group(2))
    if not (320 <= w <= 4096 and 240 <= h <= 4096):
        raise RuleError("--size", f"{w}x{h}: from 320x240 to 4096x4096",
                        code="size_range", params={"w": w, "h": h})
    return w, h


def run(args: argparse.Namespace) -> int:
    size = parse_size(args.size)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # headless unless told otherwise
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from companion.ui.demo import run_demo  # pygame, after the variables it reads are set

    names = None
    if args.names:
        from companion.files.validate import check_player_name
        from companion.ui.demo import LONG_NAMES

        names = LONG_NAMES if args.names == "long" else tuple(
            check_player_name(n, "--names") for n in args.names.split(","))
    ctx = run_demo(args.out, size, args.lang, args.rotation, seats=args.seats,
                   scripts=tuple(args.only) if args.only else None, names=names)
    print(f"{args.out}: {len(ctx.shots)} screenshots and transcript.txt")
    return 0
