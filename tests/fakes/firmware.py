"""Load the pad firmware on the host: the stand-in ``machine`` and ``neopixel`` modules
and the shared codec/debouncer go into ``sys.modules`` under the names the firmware
imports, exactly as ``firmware/flash.sh`` lays them out on the RP2040."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from companion.hardware import debounce, padproto

ROOT = Path(__file__).resolve().parents[2]
FAKES = Path(__file__).resolve().parent
PAD = ROOT / "firmware" / "pad"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_firmware(debouncer: ModuleType = debounce) -> ModuleType:
    """A fresh copy of firmware/pad/main.py (and fresh fake pins) for one test; the
    benchmarks also load it with their baseline ``debouncer`` module."""
    _load("machine", FAKES / "machine.py")
    _load("neopixel", FAKES / "neopixel.py")
    sys.modules["padproto"] = padproto
    sys.modules["debounce"] = debouncer
    _load("board", PAD / "board.py")
    return _load("pad_main", PAD / "main.py")
