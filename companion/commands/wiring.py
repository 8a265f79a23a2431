"""`companion wiring PROFILE --out FILE.svg`: the wiring drawing of a wiring profile;
with ``--part`` one of the seat pads' build drawings (``companion.hardware.build_guide``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.hardware.build_guide import PARTS, part_drawing
from companion.hardware.profile import PROFILES_DIR, load_profile, profile_path
from companion.hardware.wiring import drawing


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "profile",
        help="a shipped profile by its name (gpio-5-seats, serial-pads) or a profile file "
        "(.yaml)",
    )
    p.add_argument("--out", type=Path, required=True,
                   help="the SVG file to write; - writes to standard output")
    p.add_argument("--part", choices=PARTS,
                   help="a build drawing of the seat pads instead of the wiring: the pad, "
                   "its cable's RJ45 pins, the chain or return-to-hub layouts, the hub board "
                   "(hardware/PAD-BUILD.md)")


def resolve(name: str) -> tuple[Path, str]:
    """The profile file for ``name`` and how the drawing calls it."""
    path = Path(name)
    if path.suffix in (".yaml", ".yml") or path.exists():
        return path, path.stem
    return profile_path(name), name


def run(args: argparse.Namespace) -> int:
    path, name = resolve(args.profile)
    if not path.exists():
        shipped = ", ".join(sorted(p.stem for p in PROFILES_DIR.glob("*.yaml")))
        print(f"companion wiring: no profile {args.profile!r}: give a shipped one ({shipped}) "
              "or a profile file", file=sys.stderr)
        return 2
    profile = load_profile(path)
    if args.part is None:
        svg = drawing(profile, name)
    else:
        try:
            svg = part_drawing(profile, name, args.part)
        except ValueError as exc:
            print(f"companion wiring: {exc}", file=sys.stderr)
            return 2
    if str(args.out) == "-":
        sys.stdout.write(svg)
        return 0
    try:
        args.out.write_text(svg, encoding="utf-8")
    except OSError as exc:
        print(f"companion wiring: cannot write {args.out}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    what = f"{args.part} drawing" if args.part else "wiring"
    print(f"{args.out}: {what} of {name} ({path})")
    return 0
