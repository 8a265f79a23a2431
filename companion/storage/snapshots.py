"""A game's state as bytes for the journal's snapshots, and back: what lets a session
resume after its latest snapshot instead of replaying every action (``Session``).

A snapshot is never trusted over the actions: the journal returns one only while the
action it follows is still there, its bytes unchanged and made by these very rules
(``rules_stamp``); the session checks what it reads back is the rules' own kind of state,
and a snapshot that fails any of that, or whose following actions no longer replay from
it, is dropped (a log line) and the game replayed in full.

The bytes are a pickle (protocol 5) of the state: the states are frozen dataclasses,
tuples and dicts of the rules' modules. Read back by an unpickler that builds only those
modules' own classes and Python's plain containers (``_reader``): the journal
is the kiosk's own 0600 file, and a tampered snapshot can build nothing else. Its digest
guards against damage, not against whoever can write the journal (who could rewrite the
actions as well): a snapshot rewritten with a matching digest is believed."""

from __future__ import annotations

import functools
import gc
import io
import sys
from pathlib import Path
from typing import Any

SNAPSHOT_EVERY = 256  # actions between two snapshots of a game: a resume replays < 2x this
_RULES_PACKAGES = ("companion.games",)  # the modules states are made of (every game)
_PLAIN = {("builtins", name) for name in ("set", "frozenset", "tuple", "list", "dict")}


@functools.cache
def rules_stamp() -> str:
    """The rules' code version: size and modification time of every module of the games
    (every folder of companion/games/), and Python's version. A snapshot made by other code (an upgrade) is
    not used: its states may have other fields. Stat calls only, once a process."""
    import zlib

    root = Path(__file__).resolve().parents[1]  # the companion package
    seen = [f"{sys.version_info[0]}.{sys.version_info[1]}"]
    for package in _RULES_PACKAGES:
        folder = root.joinpath(*package.split(".")[1:])
        for module in sorted(folder.rglob("*.py")):
            try:
                st = module.stat()
            except OSError:
                continue
            seen.append(f"{module.relative_to(root).as_posix()}:{st.st_size}:{st.st_mtime_ns}")
    return f"{zlib.crc32(' '.join(seen).encode()):08x}"


def dump(state: Any) -> bytes:
    """``state`` as a snapshot's bytes."""
    import pickle  # here, as in _reader: Home's first frame needs no snapshot (start-up)

    return pickle.dumps(state, protocol=5)


@functools.cache
def _reader() -> type:
    """An unpickler that builds the rules' classes and plain containers, nothing else.
    Made on first use: pickle's import is ~1.5 ms of every start otherwise."""
    import pickle

    class Reader(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if (module, name) in _PLAIN:
                return super().find_class(module, name)
            if (module.startswith(tuple(f"{p}." for p in _RULES_PACKAGES))
                    and module in sys.modules):
                found = getattr(sys.modules[module], name, None)
                # a class the rules module defines itself, never one it imports (a
                # module's type, a typing helper, a library's class)
                if isinstance(found, type) and found.__module__ == module:
                    return found
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a game's state")

    return Reader


def load(data: bytes, kind: type) -> Any:
    """The state a snapshot's bytes hold; ``ValueError`` when they don't hold one of
    ``kind`` (the rules' own state class)."""
    collecting = gc.isenabled()
    gc.disable()  # a long night's state is thousands of dicts: no collection pass meanwhile
    try:
        state = _reader()(io.BytesIO(data)).load()
    except Exception as exc:  # noqa: BLE001 - damaged bytes raise anything: unusable
        raise ValueError(f"unreadable ({type(exc).__name__}: {exc})") from None
    finally:
        if collecting:
            gc.enable()
    if type(state) is not kind:
        raise ValueError(f"it holds a {type(state).__name__}, not a {kind.__name__}")
    return state
