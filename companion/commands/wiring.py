"""`companion wiring PROFILE --out FILE.svg`: the wiring drawing of a wiring profile."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

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
    svg = drawing(load_profile(path), name)
    if str(args.out) == "-":
        sys.stdout.write(svg)
        return 0
    try:
        args.out.write_text(svg, encoding="utf-8")
    except OSError as exc:
        print(f"companion wiring: cannot write {args.out}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    print(f"{args.out}: wiring of {name} ({path})")
    return 0
