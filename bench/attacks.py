"""The attack table: every fault and hostile input the companion must survive, tried many
times with variations, and how many tries held.

    python -m bench.attacks                   # print the table (Markdown)
    python -m bench.attacks --out docs/attacks.md
    python -m bench.attacks --quick           # one try of each (a smoke run)

Each attack is real: SIGKILLs of a process appending to the journal, damaged journal and
-wal files, SQLite's page cap ("database or disk is full"), a file-size limit
(``RLIMIT_FSIZE``) under which the journal is opened, a read-only journal (as ``nobody``
when run as root, whom file modes don't stop), hostile table and configuration files run
through the real ``companion`` command in a process bounded in time and memory, a second
kiosk on the same data directory, ``/dev/full`` under the log; edited, forged and special
kept parsed copies, a pad's sequence number jumping ahead on a pty, FIFOs and
``/dev/zero`` in the data directory, hostile imports, names, dates and integers, imports
at the size limit under a memory measure, forged ``-ack`` counts, a full 2 MB tmpfs
(as root), CSV formula injection, terminal escapes, a reader holding the journal while a
sealed ballot is undone. What "held" means is in the table, per attack. The tests (``tests/storage/test_faults_storage.py``,
``tests/commands/test_hostile_input.py``, ``tests/commands/test_fuzz_cli.py``, ``tests/storage/test_journal*.py``)
prove each case once; this counts them over many tries.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.common import ROOT, load, machine

PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy",
       "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
ENV.pop("GPIOZERO_PIN_FACTORY", None)
LIMIT_S = 60
MEMORY = 1 << 30  # address space of a hostile-file command: 1 GB


@dataclass
class Attack:
    name: str
    tries: int
    survived_means: str
    run: Callable[[int, Path], bool]  # (try number, empty directory) -> survived


def child(code: str, cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-c", textwrap.dedent(code)], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=LIMIT_S, check=False, **kw)


def healthy_journal(path: Path, actions: int = 5) -> int:
    from companion.storage.journal import Journal

    with Journal(path) as j:
        game = j.begin_game("koryo", {"players": ["Ana", "Ben"]})
        for i in range(actions):
            j.append(game, {"n": i})
    return game


# --- the journal under SIGKILL ------------------------------------------------------------

APPENDER = """
    import sys
    from companion.storage.journal import Journal
    j = Journal("journal.sqlite")
    game = j.begin_game("koryo", {"players": ["Ana", "Ben"]})
    print("game", game, flush=True)
    for i in range(10_000):
        j.append(game, {"n": i})
        print("ack", i, flush=True)
"""


def sigkill(n: int, tmp: Path) -> bool:
    """Kill a process appending to the journal after a random number of acknowledgements
    (0-40); every acknowledged action must be there, in order, at the next open."""
    from companion.storage.journal import Journal

    want = random.Random(n).randint(0, 40)
    proc = subprocess.Popen([PY, "-c", textwrap.dedent(APPENDER)], cwd=tmp, env=ENV,
                            stdout=subprocess.PIPE, text=True)
    acked = -1
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("ack"):
            acked = int(line.split()[1])
            if acked + 1 >= want:
                break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with Journal(tmp / "journal.sqlite") as j:
        if j.notice is not None:
            return False
        [game] = j.unfinished()
        got = [a["n"] for a in j.actions(game.id)]
    return got[: acked + 1] == list(range(acked + 1)) and got == list(range(len(got)))


# --- damaged journal files ----------------------------------------------------------------


def _garbage(p: Path, rng: random.Random) -> None:
    p.write_bytes(rng.randbytes(p.stat().st_size))


def _truncate(p: Path, rng: random.Random) -> None:
    p.write_bytes(p.read_bytes()[: rng.randint(1, p.stat().st_size - 1)])


def _zero_header(p: Path, rng: random.Random) -> None:
    data = bytearray(p.read_bytes())
    data[:100] = bytes(100)
    p.write_bytes(bytes(data))


def _flip_bytes(p: Path, rng: random.Random) -> None:
    data = bytearray(p.read_bytes())
    for _ in range(16):
        data[rng.randrange(len(data))] ^= 0xFF
    p.write_bytes(bytes(data))


def _empty(p: Path, rng: random.Random) -> None:
    p.write_bytes(b"")


def _directory(p: Path, rng: random.Random) -> None:
    p.unlink()
    p.mkdir()


def _other_program(p: Path, rng: random.Random) -> None:
    p.unlink()
    conn = sqlite3.connect(p)
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.commit()
    conn.close()


def _newer_format(p: Path, rng: random.Random) -> None:
    conn = sqlite3.connect(p)
    conn.execute("PRAGMA user_version=99")
    conn.close()


def _garbage_wal(p: Path, rng: random.Random) -> None:
    Path(f"{p}-wal").write_bytes(rng.randbytes(rng.randint(1, 20_000)))


def _garbage_shm(p: Path, rng: random.Random) -> None:
    Path(f"{p}-shm").write_bytes(rng.randbytes(32768))


def _appended(p: Path, rng: random.Random) -> None:
    with p.open("ab") as f:
        f.write(rng.randbytes(rng.randint(1, 5000)))


def _page_size_field(p: Path, rng: random.Random) -> None:
    data = bytearray(p.read_bytes())
    data[16:18] = rng.choice([b"\x00\x01", b"\x12\x34", b"\xff\xff"])
    p.write_bytes(bytes(data))


def _text_file(p: Path, rng: random.Random) -> None:
    p.write_text("game: koryo\nplayers: [Ana, Ben]\n")


def _symlink_dev_null(p: Path, rng: random.Random) -> None:
    p.unlink()
    p.symlink_to("/dev/null")


def _only_header(p: Path, rng: random.Random) -> None:
    p.write_bytes(p.read_bytes()[:100])


DAMAGES = [_garbage, _truncate, _zero_header, _flip_bytes, _empty, _directory, _other_program,
           _newer_format, _garbage_wal, _garbage_shm, _appended, _page_size_field,
           _text_file, _symlink_dev_null, _only_header]


def damaged_journal(n: int, tmp: Path) -> bool:
    """Each kind of damage in turn: the journal opens — moved aside with a notice, intact
    with every action, or (an emptied file, which SQLite takes for a new database) with
    the missing actions said — a new game can be journaled, nothing raises."""
    from companion.storage.journal import Journal

    rng = random.Random(n)
    path = tmp / "journal.sqlite"
    game = healthy_journal(path)
    DAMAGES[n % len(DAMAGES)](path, rng)
    with Journal(path) as j:
        moved = list(tmp.glob("journal.sqlite.corrupt-*"))
        if moved:
            ok = j.notice is not None and "could not be used" in j.notice
        elif j.lost:
            ok = j.notice is not None and "missing" in j.notice
        else:
            try:
                ok = [a["n"] for a in j.actions(game)] == [0, 1, 2, 3, 4]
            except Exception:  # noqa: BLE001 - a damaged file left in place and unreadable
                ok = False
        j.append(j.begin_game("koryo", {}), {"n": 0})
    return ok


# --- storage that fails --------------------------------------------------------------------


def full_disk_write(n: int, tmp: Path) -> bool:
    """SQLite's page cap at the journal's size: appends of random sizes until one needs a
    page; it must be refused as "not saved: disk full" with nothing recorded, and the same
    append must go through once the cap is lifted."""
    from companion.storage.journal import Journal, StorageError

    rng = random.Random(n)
    with Journal(tmp / "journal.sqlite") as j:
        game = j.begin_game("koryo", {})
        for i in range(rng.randint(0, 60)):
            j.append(game, {"n": i})
        pages = j._db.execute("PRAGMA page_count").fetchone()[0]
        j._db.execute(f"PRAGMA max_page_count={pages}")
        before = j.actions(game)
        for i in range(10_000):
            action = {"n": i, "pad": "x" * rng.randint(0, 900)}
            try:
                j.append(game, action)
                before.append(action)
            except StorageError as exc:
                refused = exc.cause == "disk_full" and str(exc).startswith("not saved: disk full")
                break
        else:
            return False
        kept = j.actions(game) == before and j.failure is not None
        j._db.execute("PRAGMA max_page_count=1073741823")
        j.append(game, action)
        return refused and kept and j.actions(game) == [*before, action] and j.failure is None


OPEN_UNDER_LIMIT = """
    import json
    from companion.storage.journal import Journal, StorageError
    j = Journal("journal.sqlite")
    try:
        j.append(1, {"n": 5})
        written = True
    except StorageError:
        written = False
    print(json.dumps({"failure": j.failure and j.failure.cause, "written": written}))
"""


def full_disk_open(n: int, tmp: Path) -> bool:
    """A healthy journal opened under a file-size limit of 0-40 kB: never moved aside, the
    file unchanged, all there when opened without the limit."""
    from companion.storage.journal import Journal

    healthy_journal(tmp / "journal.sqlite")
    before = (tmp / "journal.sqlite").read_bytes()
    limit = random.Random(n).choice([0, 512, 4096, 8192, 16_000, 24_000, 32_000, 40_000])

    def cap() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    out = child(OPEN_UNDER_LIMIT, tmp, preexec_fn=cap)
    if out.returncode != 0 or list(tmp.glob("*corrupt*")):
        return False
    if json.loads(out.stdout)["written"] is False and (tmp / "journal.sqlite").read_bytes() != before:
        return False
    with Journal(tmp / "journal.sqlite") as j:
        return j.notice is None and len(j.actions(1)) in (5, 6)


def read_only_journal(n: int, tmp: Path) -> bool:
    """A read-only journal (as ``nobody`` when root): said read-only, a write refused,
    never moved aside; writable again, the same write goes through."""
    user = 65534 if os.geteuid() == 0 else None
    work = Path(tempfile.mkdtemp(prefix="companion-ro-")) if user is not None else tmp
    try:
        work.chmod(0o755)
        healthy_journal(work / "journal.sqlite")
        if user is not None:
            for p in (work, *work.iterdir()):
                os.chown(p, user, user)
        (work / "journal.sqlite").chmod(0o444)
        code = """
            import json, os
            from companion.storage.journal import Journal, StorageError
            j = Journal("journal.sqlite")
            out = {"cause": j.failure and j.failure.cause}
            try:
                j.append(1, {"n": 5})
            except StorageError as exc:
                out["refused"] = exc.cause
            for name in os.listdir("."):
                os.chmod(name, 0o600)
            out["seq"] = j.append(1, {"n": 5})
            print(json.dumps(out))
        """
        if user is not None:
            code = (f"import companion.storage.journal, json, os\nos.setgid({user})\nos.setuid({user})\n"
                    + textwrap.dedent(code))
        out = child(code, work)
        if out.returncode != 0:
            return False
        got = json.loads(out.stdout)
        return (got == {"cause": "read_only", "refused": "read_only", "seq": 6}
                and not list(work.glob("*corrupt*")))
    finally:
        if work is not tmp:
            shutil.rmtree(work)


# --- a damaged -wal ------------------------------------------------------------------------

FIFTY = """
    import os
    from companion.storage.journal import Journal
    j = Journal("journal.sqlite")
    game = j.begin_game("koryo", {"players": ["Ana", "Ben"]})
    for i in range(50):
        j.append(game, {"n": i})
    os._exit(0)
"""


def damaged_wal(n: int, tmp: Path) -> bool:
    """50 acknowledged actions in the -wal, then the -wal truncated at a random length,
    overwritten in part with garbage, or removed: either all 50 are there, or the journal
    says some are missing."""
    from companion.storage.journal import Journal

    rng = random.Random(n)
    assert child(FIFTY, tmp).returncode == 0
    wal = tmp / "journal.sqlite-wal"
    data = wal.read_bytes()
    kind = rng.choice(["truncate", "garbage", "remove"])
    if kind == "truncate":
        wal.write_bytes(data[: rng.randrange(len(data))])
    elif kind == "garbage":
        at = rng.randrange(len(data))
        wal.write_bytes(data[:at] + rng.randbytes(rng.randint(1, 8192)) + data[at + 8192:])
    else:
        wal.unlink()
    with Journal(tmp / "journal.sqlite") as j:
        kept = sum(g.actions for g in j.unfinished())
        return kept == 50 or (j.lost > 0 and j.notice is not None and "missing" in j.notice)


# --- hostile files through the real command -----------------------------------------------

SEATS = ("seats:\n  - {name: Ana, colour: red, position: bottom}\n"
         "  - {name: Ben, colour: blue, position: top}\n")


def _bomb(levels: int) -> str:
    return "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, levels)
    ) + f"game: *a{levels - 1}\n"


HOSTILE: list[tuple[str, str]] = [
    ("alias bomb in game", _bomb(9)),
    ("alias bomb, 12 levels", _bomb(12)),
    ("alias of a long text", "a: &a " + "x" * 400_000 + "\ngame: [" + ", ".join(["*a"] * 30) + "]\n"),
    ("deep flow nesting", "[" * 100_000 + "]" * 100_000),
    ("deep block nesting", "- " * 100_000 + "x\n"),
    ("decimal of 5,000 digits", "game: koryo\nplayers: [Ana, Ben]\ncards: {Ana: {9: " + "9" * 5000 + "}}\n"),
    ("hex of 5,000 digits", "game: koryo\nplayers: [Ana, Ben]\ncards: {Ana: {9: 0x" + "f" * 5000 + "}}\n"),
    ("negative of 5,000 digits", "game: koryo\nplayers: [Ana, Ben]\ncards: {Ana: {9: -" + "9" * 5000 + "}}\n"),
    ("20,000 players", "game: koryo\nplayers: [" + ", ".join(f"p{i}" for i in range(19_990)) + "]\n"),
    ("1 MB of comments", ("# " + "c" * 97 + "\n") * 9_999),
    ("terminal escapes in names", 'game: koryo\nplayers: ["A\\e[2J\\e]0;x\\a", Ben, "A\\e[2J\\e]0;x\\a"]\ncards: {}\n'),
    ("python tag", "!!python/object/apply:os.system ['true']\n"),
    ("key given twice", "game: koryo\ngame: choson\n"),
    ("NUL byte", "game: koryo\0\n"),
    ("two documents", "game: koryo\n---\ngame: choson\n"),
    ("unhashable key", "game: koryo\nplayers: [Ana, Ben]\ncards: {[1]: 2}\n"),
    ("recursive alias", "a: &a [*a]\n"),
]
CONFIGS: list[tuple[str, str]] = [
    ("NUL in data_dir", SEATS + 'data_dir: "a\\0b"\n'),
    ("NUL in a seat name", SEATS.replace("name: Ana", 'name: "A\\0na"')),
    ("escape in a seat name", SEATS.replace("name: Ana", 'name: "\\e[2JAna"')),
    ("name the font can't draw", SEATS.replace("name: Ana", 'name: "Ana😀"')),
    ("data_dir is a file", SEATS + "data_dir: /etc/hostname\n"),
    ("profile is /dev/zero", SEATS + "hardware: {backend: gpio, profile: /dev/zero}\n"),
    ("debounce of 5,000 digits", SEATS + "hardware: {debounce_ms: " + "9" * 5000 + "}\n"),
]
SPECIAL = ["FIFO with no writer", "/dev/zero", "file over the size limit", "directory"]


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _refused(argv: list[str], path: str, width: int = 700) -> bool:
    """Exit 2, one short line (under ``width`` characters) naming the file (check-config:
    one such line per mistake), no traceback, within the time and memory bounds."""
    try:
        out = subprocess.run([PY, "-m", "companion", *argv], capture_output=True, text=True,
                             timeout=30, env=ENV, preexec_fn=_bounded, check=False)
    except subprocess.TimeoutExpired:
        return False
    lines = out.stderr.splitlines()
    one_each = len(lines) == 1 or (argv[0] == "check-config" and len(lines) > 1)
    return (out.returncode == 2 and out.stdout == "" and one_each and out.stderr.endswith("\n")
            and all(line.startswith(f"companion {argv[0]}: ") and path in line
                    and len(line) < width and "\x1b" not in line for line in lines))


def hostile_cases() -> list[tuple[str, str, str]]:
    """(command, what, file text): every hostile table file through every command that
    reads one, the hostile configurations through check-config, the special files through
    every command."""
    tables = ("score", "vote", "kingdom", "check-config")
    return ([(cmd, *c) for cmd in tables for c in HOSTILE]
            + [("check-config", *c) for c in CONFIGS]
            + [(cmd, s, "") for s in SPECIAL for cmd in (*tables, "import")])


def hostile_file(n: int, tmp: Path) -> bool:
    cases = hostile_cases()
    command, name, text = cases[n % len(cases)]
    path = tmp / ("t.json" if command == "import" else "t.yaml")
    if name == "FIFO with no writer":
        os.mkfifo(path)
    elif name == "/dev/zero":
        path = Path("/dev/zero")
    elif name == "file over the size limit":
        with path.open("wb") as f:
            f.truncate(60_000_000)
    elif name == "directory":
        path = tmp
    else:
        path.write_text(text, encoding="utf-8")
    argv = [command, str(path)]
    if command == "import":
        argv += ["--db", str(tmp / "h.db")]
    return _refused(argv, str(path))


HOSTILE_TRIES = len(hostile_cases())


# --- two kiosks, ballots at rest, the log --------------------------------------------------

CONFIG = SEATS + 'hardware: {backend: sim}\ndisplay: {fullscreen: "no"}\ndata_dir: data\n'


def second_kiosk(n: int, tmp: Path) -> bool:
    """A second `companion run` on the same data directory exits 2 naming the first's pid;
    once the first is SIGKILLed a third starts."""
    config = tmp / "config.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    argv = [PY, "-m", "companion", "run", "--config", str(config)]
    first = subprocess.Popen(argv, env=ENV, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             text=True, cwd=tmp)
    third = None
    try:
        assert first.stderr is not None
        if not any("ready" in line for line in iter(first.stderr.readline, "")):
            return False
        second = subprocess.run(argv, env=ENV, capture_output=True, text=True,
                                timeout=LIMIT_S, check=False, cwd=tmp)
        refused = second.returncode == 2 and f"pid {first.pid}" in second.stderr
        first.kill()
        first.wait()
        third = subprocess.Popen(argv, env=ENV, stderr=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, text=True, cwd=tmp)
        assert third.stderr is not None
        started = any("ready" in line for line in iter(third.stderr.readline, ""))
        return refused and started
    finally:
        for proc in (first, third):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()


def undone_ballot(n: int, tmp: Path) -> bool:
    """A sealed ballot locked then undone (with 0-30 actions around it): its bytes in no
    file of the data directory, the journal still open."""
    from companion.storage.journal import Journal

    rng = random.Random(n)
    secret = f"ballot-{rng.getrandbits(64):016x}"
    with Journal(tmp / "journal.sqlite") as j:
        game = j.begin_game("kings-dilemma", {})
        for i in range(rng.randint(0, 30)):
            j.append(game, {"n": i})
        j.append(game, {"action": "lock"}, private={"ballot": secret})
        j.undo(game)
        return not any(secret.encode() in p.read_bytes() for p in tmp.iterdir() if p.is_file())


def full_log(n: int, tmp: Path) -> bool:
    """The log file on a full disk: a 2 MB tmpfs filled to the last byte (as root; else
    ``/dev/full``, which is now refused as a device, not a regular file): 200 records, no
    exception, every one dropped."""
    import contextlib
    import io
    import logging

    from companion.system.logfile import KioskLogFile

    mount = _small_disk(tmp)
    try:
        if mount is not None:
            with (mount / "fill").open("ab") as f, contextlib.suppress(OSError):
                while True:
                    f.write(b"x" * 65536)
                    f.flush()
        path = Path("/dev/full") if mount is None else mount / "companion.log"
        handler = KioskLogFile(path)
        logger = logging.getLogger(f"bench.attacks.full{n}")
        logger.addHandler(handler)
        with contextlib.redirect_stderr(io.StringIO()):
            for i in range(200):
                logger.error("record %d", i)
            handler.close()
        logger.removeHandler(handler)
        return handler.dropped == 200
    finally:
        if mount is not None:
            subprocess.run(["umount", str(mount)], check=False)



# --- kept parsed copies ---------------------------------------------------------------------

KEPT_CONFIG = ("seats:\n  - {name: Ana, colour: red, position: bottom}\n"
               "  - {name: Ben, colour: blue, position: top}\n"
               "hardware: {backend: sim, debounce_ms: 30}\ndata_dir: data\n")


def _copy_data(copy: Path, change: Callable[[dict], None], *, reseal: bool = False) -> None:
    from companion.files import yamlsrc

    head, payload = copy.read_bytes().split(b"\n", 1)
    data = json.loads(payload)
    change(data)
    payload = json.dumps(data, ensure_ascii=False).encode()
    header = json.loads(head)
    if reseal:
        header["seal"] = yamlsrc._seal(header["source_sha256"], header["parser"], payload)
    copy.write_bytes(json.dumps(header).encode() + b"\n" + payload)


def special_file(path: Path, kind: str) -> None:
    """``path`` (a file) replaced by what no reader may block or drown on: a FIFO
    (``fifo``), a link to /dev/zero (``dev-zero``), a 300 MB sparse file (``huge``) or a
    directory (``directory``). The tests make theirs with it too."""
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "huge":
        with path.open("wb") as f:
            f.truncate(300_000_000)
    else:
        path.mkdir()


def _special_copy(kind: str) -> Callable[[Path], None]:
    return lambda copy: special_file(copy, kind)


CONFIG_COPY_DAMAGES: list[tuple[str, Callable[[Path], None]]] = [
    ("data_dir edited", lambda c: _copy_data(
        c, lambda d: d["data"].__setitem__("data_dir", "/tmp/elsewhere"))),
    ("a seat added", lambda c: _copy_data(c, lambda d: d["data"]["seats"].append(
        {"name": "Eve", "colour": "green", "position": "left"}))),
    ("a value the YAML doesn't have", lambda c: _copy_data(
        c, lambda d: d["data"]["hardware"].__setitem__("debounce_ms", 900))),
    ("a value the YAML doesn't have, resealed", lambda c: _copy_data(
        c, lambda d: d["data"]["hardware"].__setitem__("debounce_ms", 900), reseal=True)),
    ("cut short", lambda c: c.write_bytes(c.read_bytes()[: len(c.read_bytes()) // 2])),
    ("garbage", lambda c: c.write_bytes(os.urandom(2000))),
    ("another file's hash", lambda c: c.write_bytes(c.read_bytes().replace(
        b'"source_sha256": "', b'"source_sha256": "0', 1))),
    ("a FIFO", _special_copy("fifo")),
    ("a link to /dev/zero", _special_copy("dev-zero")),
    ("300 MB", _special_copy("huge")),
    ("a directory", _special_copy("directory")),
]
CATALOG_COPY_DAMAGES: list[tuple[str, Callable[[Path], None]]] = [
    ("home.choose removed", lambda c: _copy_data(c, lambda d: d["home"].pop("choose"))),
    ("a text edited", lambda c: _copy_data(c, lambda d: d["home"].__setitem__("choose", "X"))),
    ("a FIFO", _special_copy("fifo")),
    ("a link to /dev/zero", _special_copy("dev-zero")),
]


def _in_thread(work: Callable[[], object], limit_s: float = 30) -> object:
    """``work()`` in a thread, so that a hang is a failed try, not a hung bench."""
    import threading

    got: list = []
    failed: list = []

    def run() -> None:
        try:
            got.append(work())
        except Exception as exc:  # noqa: BLE001 - an exception is a failed try
            failed.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(limit_s)
    if failed:
        raise failed[0]
    if not got:
        raise TimeoutError(f"no answer in {limit_s} s")
    return got[0]


def kept_copy(n: int, tmp: Path) -> bool:
    """A kept parsed copy damaged, edited or forged (the configuration's or a catalog's):
    what is read is exactly the YAML's, within 30 s, and the copy kept afterwards is a
    regular file again."""
    from companion.config import load_config
    from companion.files import yamlsrc
    from companion.i18n import catalog_path

    kept = tmp / "kept"
    kept.mkdir()
    if n < len(CONFIG_COPY_DAMAGES):
        source = tmp / "c.yaml"
        source.write_text(KEPT_CONFIG, encoding="utf-8")
        want = load_config(source, kept)
        [copy] = kept.glob("document-c-*.json")
        CONFIG_COPY_DAMAGES[n][1](copy)
        got = _in_thread(lambda: load_config(source, kept))
        prefix = "document-c"
    else:
        source = tmp / "en.yaml"
        source.write_bytes(catalog_path("en").read_bytes())
        want = yamlsrc.load_shipped(source, kept)
        [copy] = kept.glob("parsed-en-*.json")
        CATALOG_COPY_DAMAGES[n - len(CONFIG_COPY_DAMAGES)][1](copy)
        got = _in_thread(lambda: yamlsrc.load_shipped(source, kept))
        prefix = "parsed-en"
    [again] = kept.glob(f"{prefix}-*.json")
    return got == want and again.is_file() and not again.is_symlink()


KEPT_TRIES = len(CONFIG_COPY_DAMAGES) + len(CATALOG_COPY_DAMAGES)


# --- pad sequence numbers ---------------------------------------------------------------------


def pad_jump(n: int, tmp: Path) -> bool:
    """On a pty, a pad connects; one valid press numbered 1-9,999 ahead of the count, then
    5-60 genuine presses numbered from the count on, a replay of the last one, a closing
    press: every genuine press is delivered (none silenced by the jump), the replay alone
    dropped."""
    import pty
    import queue
    import tty

    from companion.hardware import padproto
    from companion.hardware.serial_pad import SerialBackend
    from companion.play.seat import ButtonEvent, Press

    rng = random.Random(n)
    jump, genuine = rng.randint(1, 9_999), rng.randint(5, 60)
    master, slave = pty.openpty()
    tty.setraw(slave)
    events: queue.Queue = queue.Queue()
    status: queue.Queue = queue.Queue()
    backend = SerialBackend(os.ttyname(slave), 3, heartbeat_timeout_ms=60_000)
    try:
        backend.start(events.put, lambda s, c: status.put((s, c)))
        heard, deadline = b"", time.monotonic() + 10
        while b",HOST," not in heard and time.monotonic() < deadline:  # the host asks first
            if select.select([master], [], [], 0.5)[0]:
                heard += os.read(master, 4096)
        os.write(master, padproto.encode(None, padproto.HELLO, f"{padproto.PROTOCOL_VERSION},3,b"))
        for _ in range(3):
            status.get(timeout=10)
        frames = [padproto.encode(0, padproto.SHORT, "a,0"),
                  padproto.encode(1, padproto.SHORT, f"b,{(1 + jump) % padproto.SEQ_MOD}")]
        frames += [padproto.encode(2, padproto.SHORT, f"c,{i}") for i in range(1, genuine + 1)]
        frames.append(frames[-1])  # a replay
        frames.append(padproto.encode(0, padproto.LONG, f"c,{genuine + 1}"))
        os.write(master, b"".join(frames))
        want = [ButtonEvent(0, "a"), ButtonEvent(1, "b"), *[ButtonEvent(2, "c")] * genuine,
                ButtonEvent(0, "c", Press.LONG)]
        got = [events.get(timeout=10) for _ in want]
        return got == want and events.empty() and backend.stats["replayed"] == 1
    finally:
        backend.close()
        os.close(master)
        os.close(slave)


# --- files that hang or eat memory ----------------------------------------------------------


def _run_config(tmp: Path, phones: bool = False) -> Path:
    """The kiosk's configuration; ``phones``: phones as seat pads on, on loopback at a
    free port (its pairing kept in the data directory's ``phones.json``)."""
    import socket

    config = tmp / "config.yaml"
    text = CONFIG
    if phones:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        text += f"phones: {{enabled: yes, port: {port}, listen: 127.0.0.1}}\n"
    config.write_text(text, encoding="utf-8")
    return config


def _catalog_copy_name() -> str:
    import hashlib

    from companion.files import yamlsrc
    from companion.i18n import catalog_path

    raw = catalog_path("en").read_bytes()
    return (f"parsed-en-{len(raw)}-{hashlib.sha256(raw).hexdigest()[:16]}-"
            f"{yamlsrc.parser_stamp()}.json")


DATA_DIR_TRAPS: list[tuple[str, Callable[[Path], None]]] = [
    ("FIFO at journal.sqlite-ack", lambda d: os.mkfifo(d / "journal.sqlite-ack")),
    ("FIFO at companion.log", lambda d: os.mkfifo(d / "companion.log")),
    ("FIFO at journal.sqlite-wal", lambda d: os.mkfifo(d / "journal.sqlite-wal")),
    ("FIFO at companion.db-shm", lambda d: os.mkfifo(d / "companion.db-shm")),
    ("FIFO at a parsed copy", lambda d: os.mkfifo(d / _catalog_copy_name())),
    ("parsed copy linked to /dev/zero", lambda d: (d / _catalog_copy_name()).symlink_to(
        "/dev/zero")),
    ("ledger a FIFO", lambda d: os.mkfifo(d / "kd-campaign.json")),
    ("ledger linked to /dev/zero", lambda d: (d / "kd-campaign.json").symlink_to("/dev/zero")),
    ("phones.json a FIFO (phones on)", lambda d: os.mkfifo(d / "phones.json")),
    ("phones.json linked to /dev/zero (phones on)", lambda d: (d / "phones.json").symlink_to(
        "/dev/zero")),
]


def trapped_data_dir(n: int, tmp: Path) -> bool:
    """A FIFO or a link to ``/dev/zero`` in the data directory: ``companion run`` reaches
    ready and opens (or gives up) its history within 60 s (memory bounded to 1 GB; with phones on, having said that
    ``phones.json`` was not read); ``companion report --ledger`` on the same kinds of file,
    and on a 300 MB one, exits 0 saying the ledger can't be used."""
    data = tmp / "data"
    data.mkdir()
    if n < len(DATA_DIR_TRAPS):
        name, trap = DATA_DIR_TRAPS[n]
        trap(data)
        phones = "phones.json" in name
        config = _run_config(tmp, phones=phones)
        proc = subprocess.Popen([PY, "-m", "companion", "run", "--config", str(config)],
                                env=ENV, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                text=True, cwd=tmp,
                                preexec_fn=_bounded)  # noqa: PLW1509 - only setrlimit
        import threading

        hung = threading.Timer(LIMIT_S, proc.kill)  # a kiosk that never gets ready: killed
        hung.start()
        try:
            assert proc.stderr is not None
            said = ready = False
            for line in proc.stderr:
                said = said or "phones.json not read" in line
                ready = ready or "ready" in line
                # the history is opened after the first frame: the start is over once it is
                if ready and ("history: " in line or "the history can't be opened" in line):
                    return said or not phones
            return False
        finally:
            hung.cancel()
            proc.kill()
            proc.wait()
    ledger = data / "kd-campaign.json"
    _trap_ledger(ledger, n - len(DATA_DIR_TRAPS))
    try:
        out = subprocess.run([PY, "-m", "companion", "report", "--out", str(tmp / "r.html"),
                              "--db", str(tmp / "h.db"), "--ledger", str(ledger)],
                             env=ENV, capture_output=True, text=True, timeout=LIMIT_S,
                             preexec_fn=_bounded, check=False)
    except subprocess.TimeoutExpired:
        return False
    return (out.returncode == 0 and "not a campaign ledger" in out.stderr
            and "Traceback" not in out.stderr and (tmp / "r.html").is_file())


TRAP_TRIES = len(DATA_DIR_TRAPS) + 3
LEDGER_TRAPS = ("a FIFO", "a link to /dev/zero", "300 MB")
LEDGER_WHY = ("a FIFO, not a regular file", "a device, not a regular file",
              "more than 5,000,000 bytes")


def _trap_ledger(ledger: Path, kind: int) -> None:
    """``ledger`` made ``LEDGER_TRAPS[kind]``."""
    if kind == 0:
        os.mkfifo(ledger)
    elif kind == 1:
        ledger.symlink_to("/dev/zero")
    else:
        with ledger.open("wb") as f:
            f.truncate(300_000_000)


def trapped_ledger_export(n: int, tmp: Path) -> bool:
    """``companion export --format bgstats`` with the data directory's ledger a FIFO, a
    link to ``/dev/zero`` or a 300 MB file, with no history yet (even) or one holding a
    game: exits 0 within 60 s (memory bounded to 1 GB) saying why the ledger can't be used,
    and writes the export."""
    data = tmp / "data"
    data.mkdir()
    kind, with_history = n % len(LEDGER_TRAPS), n // len(LEDGER_TRAPS) % 2 == 1
    env = {**ENV, "COMPANION_DATA_DIR": str(data)}
    if with_history:
        subprocess.run([PY, "-m", "companion", "import", str(ROOT / "docs/examples/history.csv")],
                       env=env, capture_output=True, check=True, timeout=LIMIT_S)
    _trap_ledger(data / "kd-campaign.json", kind)
    out = tmp / "plays.bgsplay"
    try:
        proc = subprocess.run([PY, "-m", "companion", "export", "--format", "bgstats", "--out",
                               str(out)], env=env, capture_output=True, text=True,
                              timeout=LIMIT_S, preexec_fn=_bounded,
                              check=False)
    except subprocess.TimeoutExpired:
        return False
    games = json.loads(out.read_text(encoding="utf-8"))["plays"] if out.is_file() else None
    return (proc.returncode == 0 and "Traceback" not in proc.stderr
            and f"not a campaign ledger ({LEDGER_WHY[kind]})" in proc.stderr
            and games is not None and len(games) == (1 if with_history else 0))


# --- hostile imports, names, dates, integers ------------------------------------------------


def _export(games: list[dict]) -> str:
    return json.dumps({"format": "companion-history", "version": 1, "games": games})


def _named(*names: str) -> dict:
    return {"date": "2024-05-01T20:00:00+02:00", "game": "koryo", "winners": [names[0]],
            "players": [{"name": n, "total": 1, "breakdown": {}} for n in names]}


NAMED_GAME = _named("Ana", "Ben")
IMPORTS: list[tuple[str, str, str]] = [
    ("NUL in a name", "e.json", _export([_named("A\x00na", "Ben")])),
    ("ESC and BEL in a name", "e.json", _export([_named("A\x1b[2J\x07", "Ben")])),
    ("5 names of 250 characters", "e.json", _export([_named(*(f"{i}" * 250 for i in range(5)))])),
    ("a name of 1,000 CJK characters", "e.json", _export([_named("名" * 1000, "Ben")])),
    ("a name of 100,000 characters", "e.json", _export([_named("x" * 100_000, "Ben")])),
    ("a lone surrogate name", "e.json", _export([_named("\ud800", "Ben")])),
    ('{"name": "\\ud800"}', "e.json", '{"name": "\\ud800"}'),
    ("year 9999 with an offset", "e.json", _export([{**NAMED_GAME,
                                                     "date": "9999-12-31T23:59:59-23:59"}])),
    ("year 1 with an offset", "e.json", _export([{**NAMED_GAME,
                                                  "date": "0001-01-01T00:00:00+23:59"}])),
    ("a key given twice", "e.json", _export([NAMED_GAME]).replace(
        '"game": "koryo"', '"game": "koryo", "game": "choson"')),
    ("40 MB of [0,0,…]", "e.json", "[" + "0," * 20_000_000 + "0]"),
    ("a game of more than 1 MB", "e.json", _export([_named("Ana", "Ben")]).replace(
        '"breakdown": {}', '"breakdown": {' + ", ".join(f'"k{i}": 1' for i in range(120_000))
        + "}", 1)),
    ("a CSV name with ESC", "e.csv", ("game_no,date,game,seat,player,total,winner,breakdown\r\n"
                                      "1,2024-05-01,koryo,1,\x1b[2JAna,3,yes,\r\n")),
]
CHECK_CONFIG_NAMES = ["x" * 600, "é" * 100, "e\u0301" * 100, "A\x00na", "Ana\u202e"]
NINES = "9" * 5000
VOTE_SECRET = (ROOT / "docs" / "examples" / "vote-secret.yaml").read_text(encoding="utf-8")
VOTE_OPEN = (ROOT / "tests" / "data" / "spec" / "vote-kings-dilemma.yaml").read_text(
    encoding="utf-8")
INTEGERS: list[tuple[str, list[str], str]] = [
    *[(f"open vote 'aye {a[:6]}'", ["vote", "@"], VOTE_OPEN.replace(
        "{Julius: aye 1}", f'{{Julius: "aye {a}"}}')) for a in ("²", "١", "１", NINES)],
    *[(f"secret ballot 'aye {a[:6]}'", ["vote", "@"], VOTE_SECRET.replace(
        "Ana: aye 3", f'Ana: "aye {a}"')) for a in ("²", "١", "１", NINES)],
    ("export --games 5,000 nines", ["export", "--format", "csv", "--games", NINES], ""),
    ("export --last 5,000 digits", ["export", "--format", "csv", "--last", NINES], ""),
    ("export --last １", ["export", "--format", "csv", "--last", "１"], ""),
]


def hostile_names_and_integers(n: int, tmp: Path) -> bool:
    """Hostile imports (names with NUL, ESC, lone surrogates, of 250 to 100,000 characters,
    dates out of 2000-2100, a key given twice, 40 MB of [0,0,…]), names ``check-config``
    once accepted, amounts in non-ASCII digits or of 5,000 digits (open and secret votes),
    ``export --games``/``--last`` of 5,000 digits: exit 2, one escaped line under 300
    characters naming the file or the option, nothing imported; <30 s, <1 GB."""
    if n < len(IMPORTS):
        _, name, text = IMPORTS[n]
        path = tmp / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        db = tmp / "h.db"
        ok = _refused(["import", str(path), "--db", str(db)], str(path), width=300)
        if db.exists():
            from companion.storage.history import History

            with History(db) as h:
                ok = ok and h.games() == []
        return ok
    n -= len(IMPORTS)
    if n < len(CHECK_CONFIG_NAMES):
        path = tmp / "c.yaml"
        path.write_text(SEATS.replace("name: Ana", f"name: {json.dumps(CHECK_CONFIG_NAMES[n])}"),
                        encoding="utf-8")
        return _refused(["check-config", str(path)], str(path), width=300)
    _, argv, text = INTEGERS[n - len(CHECK_CONFIG_NAMES)]
    if text:
        path = tmp / "v.yaml"
        path.write_text(text, encoding="utf-8")
        return _refused([argv[0], str(path)], str(path), width=300)
    return _refused([*argv, "--db", str(tmp / "h.db")], argv[-2], width=300)


NAMES_TRIES = len(IMPORTS) + len(CHECK_CONFIG_NAMES) + len(INTEGERS)


def duplicate_games(n: int, tmp: Path) -> bool:
    """An export holding each of 1-20 games 1-3 times, CSV or JSON: each kept once; the
    same file again adds nothing."""
    from companion.storage import history

    rng = random.Random(n)
    games = [history.GameResult.from_dict({**NAMED_GAME, "date": f"2024-05-{d + 1:02d}"})
             for d in range(rng.randint(1, 20))]
    given = [g for g in games for _ in range(rng.randint(1, 3))]
    rng.shuffle(given)
    fmt = rng.choice(["csv", "json"])
    path = tmp / f"e.{fmt}"
    path.write_text(history.to_csv(given) if fmt == "csv" else history.to_json(given),
                    encoding="utf-8")
    db = tmp / "h.db"
    for _ in range(2):
        out = subprocess.run([PY, "-m", "companion", "import", str(path), "--db", str(db)],
                             env=ENV, capture_output=True, text=True, timeout=LIMIT_S,
                             check=False)
        if out.returncode != 0:
            return False
    with history.History(db) as h:
        kept = h.games()
    return sorted(kept, key=lambda g: g.date) == sorted(games, key=lambda g: g.date)


def import_memory(n: int, tmp: Path) -> bool:
    """An export just under the 50 MB limit (a CSV of about a million games, a JSON of
    some 170,000) imported into a fresh database: peak RSS (the program's own ``VmHWM``)
    at most 100 MB, every game kept (``bench/import_memory.py``)."""
    from bench import import_memory as im

    files = im.write_exports(tmp)
    fmt = ("csv", "json")[n % 2]
    mb, _ = im.measure(files[fmt], tmp, n)
    return mb <= im.GOAL_MB


# --- the journal's -ack, its opening, the export ---------------------------------------------


def forged_ack(n: int, tmp: Path) -> bool:
    """The -ack count replaced by a huge number, digits of other scripts, 5,000 digits or
    garbage: the journal opens with every action, no loss claimed, the log line short."""
    from companion.storage.journal import Journal

    rng = random.Random(n)
    path = tmp / "journal.sqlite"
    game = healthy_journal(path)
    ack = Path(f"{path}-ack")
    journal_id = ack.read_bytes().split()[0]
    count = rng.choice([b"99999999999999999999993", "９９".encode(), b"1" * 5000,
                        rng.randbytes(40).replace(b" ", b"x"), b"-5", str(10**7).encode()])
    ack.write_bytes(journal_id + b" " + count + b"\n")
    with Journal(path) as j:
        return j.lost == 0 and j.notice is None and len(j.actions(game)) == 5


def fill_disk(fill: Path) -> None:
    """Write ``fill`` until its file system has no room left (the tests fill theirs so)."""
    with fill.open("ab") as f:
        try:
            while True:
                f.write(b"x" * 65536)
                f.flush()
        except OSError:
            pass


def _small_disk(tmp: Path) -> Path | None:
    if os.geteuid() != 0:
        return None
    mount = tmp / "small"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], check=True)
    return mount


def full_disk_journal_open(n: int, tmp: Path) -> bool:
    """A healthy journal on a 2 MB tmpfs filled to within 0-60 kB: opening it says "disk
    full", never "I/O error"; it is never moved aside; all there once space is back.
    (Needs root for the tmpfs: without it, the try counts as not held.)"""
    from companion.storage.journal import Journal

    mount = _small_disk(tmp)
    if mount is None:
        return False
    try:
        path = mount / "journal.sqlite"
        healthy_journal(path)
        fill = mount / "fill"
        fill_disk(fill)
        os.truncate(fill, max(0, fill.stat().st_size - random.Random(n).randint(0, 60) * 1024))
        j = Journal(path)
        said = j.failure is None or (j.failure.cause == "disk_full"
                                     and "I/O" not in str(j.failure))
        j.close()
        fill.unlink()
        with Journal(path) as j:
            whole = j.notice is None and len(j.actions(1)) == 5
        return said and whole and not list(mount.glob("*corrupt*"))
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def csv_injection(n: int, tmp: Path) -> bool:
    """Names and breakdown keys starting with =, +, -, @ (and ' before one of them), through
    ``export --format csv`` then ``import``: no cell of the CSV starts a formula, every
    game reads back as it was."""
    import csv
    import io

    from companion.storage import history

    rng = random.Random(n)
    starts = ["=", "+", "-", "@", "'=", "''", "'"]
    names = list(dict.fromkeys(rng.choice(starts) + rng.choice(["SUM(A1)", "1+1", "cmd", "x"])
                               for _ in range(4)))
    if len(names) < 2:
        names.append("Ben")
    game = history.GameResult("2024-05-01T20:00:00+02:00", "koryo", tuple(
        history.PlayerResult(name, 1, {rng.choice(["-x", "-", "a"]): 1}) for name in names),
        (names[0],))
    db = tmp / "h.db"
    with history.History(db) as h:
        h.keep(game)
    out = subprocess.run([PY, "-m", "companion", "export", "--format", "csv", "--db", str(db)],
                         env=ENV, capture_output=True, text=True, timeout=LIMIT_S, check=False)
    cells = [c for row in csv.reader(io.StringIO(out.stdout, newline="")) for c in row]
    safe = out.returncode == 0 and not any(c.startswith(history.FORMULA_START) for c in cells
                                           if not c.lstrip("-").isdigit())
    return safe and history.parse_csv(out.stdout, "x.csv") == [game]


def terminal_export(n: int, tmp: Path) -> bool:
    """A name holding ESC, BEL, CSI and a bidi override (kept by an older version) exported
    to a terminal (a pty): none of them reaches it raw."""
    from companion.storage import history

    raw = random.Random(n).choice(["\x1b[2J", "\x07", "\x9b2J", "\u202e", "\x1b]0;x\x07"])
    db = tmp / "h.db"
    with history.History(db) as h:
        h._insert(history.GameResult("2024-05-01", "koryo", (
            history.PlayerResult(f"Ana{raw}", 1, {}), history.PlayerResult("Ben", 0, {})),
            ("Ana" + raw,)))
    returncode, out = export_on_a_terminal(db)
    return returncode == 0 and raw.encode() not in out and b"Ana\\" in out


def export_on_a_terminal(db: Path) -> tuple[int, bytes]:
    """``companion export --format csv`` of ``db`` with its output on a terminal (a pty):
    its exit code and every byte the terminal received (the tests read it so too)."""
    import pty

    main, sub = pty.openpty()
    try:
        proc = subprocess.run([PY, "-m", "companion", "export", "--format", "csv", "--db",
                               str(db)], stdout=sub, stderr=subprocess.DEVNULL, env=ENV,
                              timeout=LIMIT_S, check=False)
        os.close(sub)
        sub = -1
        out = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # EIO: the other side is closed
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(main)
        if sub >= 0:
            os.close(sub)
    return proc.returncode, out


def ballot_with_reader(n: int, tmp: Path) -> bool:
    """A sealed ballot locked then undone while another connection holds a read
    transaction (begun before the lock or after it), with 0-30 actions around: no byte of
    the ballot in any file, though the -wal can't be emptied."""
    from companion.storage.journal import Journal

    rng = random.Random(n)
    secret = f"ballot-{rng.getrandbits(64):016x}"
    path = tmp / "journal.sqlite"
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        for i in range(rng.randint(0, 30)):
            j.append(game, {"n": i})
        reader = sqlite3.connect(path)
        early = n % 2 == 0
        if early:
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM actions").fetchall()
        j.append(game, {"action": "lock"}, private={"ballot": secret})
        if not early:
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM actions").fetchall()
        j.undo(game)
        clean = not any(secret.encode() in p.read_bytes() for p in tmp.iterdir() if p.is_file())
        reader.rollback()
        reader.close()
        return clean


ATTACKS = [
    Attack("SIGKILL while journaling", 50, "every acknowledged action there, in order",
           sigkill),
    Attack(f"damaged journal file ({len(DAMAGES)} kinds)", 2 * len(DAMAGES),
           "moved aside and said, or opened with every action; a new game journaled",
           damaged_journal),
    Attack("disk full during a game (SQLite page cap)", 40,
           "'not saved: disk full', nothing recorded; the same action saved once space is back",
           full_disk_write),
    Attack("disk full when the journal opens (file-size limit 0-40 kB)", 16,
           "file left as it is, never moved aside; all there once the limit is gone",
           full_disk_open),
    Attack("read-only journal", 3, "said read-only, write refused; works once writable",
           read_only_journal),
    Attack("-wal truncated, overwritten or removed after 50 actions", 40,
           "all 50 there, or the missing ones said", damaged_wal),
    Attack("hostile table, configuration or import file", HOSTILE_TRIES,
           "exit 2, one escaped line under 700 chars naming the file (check-config: one per "
           "mistake); <30 s, <1 GB",
           hostile_file),
    Attack("second kiosk on the same data directory", 3,
           "exit 2 naming the first's pid; a third starts after SIGKILL", second_kiosk),
    Attack("undone sealed ballot, files read while the kiosk runs", 20,
           "no byte of the ballot in any file", undone_ballot),
    Attack("log file on a full disk (a filled 2 MB tmpfs)", 3,
           "no exception, records dropped", full_log),
    Attack(f"kept parsed copy edited, forged, cut, a FIFO, /dev/zero, huge ({KEPT_TRIES} "
           "kinds)", KEPT_TRIES,
           "exactly the YAML's configuration or catalog, in <30 s; a regular copy again",
           kept_copy),
    Attack("pad: one press numbered 1-9,999 ahead, then 5-60 genuine presses", 20,
           "every genuine press delivered, the one replay dropped", pad_jump),
    Attack("FIFO or /dev/zero in the data directory (-ack, log, parsed copy, ledger, "
           "phones.json)",
           TRAP_TRIES, "run reaches ready in <60 s (with phones on, saying phones.json "
           "was not read); report --ledger exits 0 saying so",
           trapped_data_dir),
    Attack("export --format bgstats with the data directory's ledger a FIFO, /dev/zero or "
           "300 MB (no history, or one game)", 2 * len(LEDGER_TRAPS),
           "exits 0 in <60 s, <1 GB, saying why the ledger can't be used; the plays written",
           trapped_ledger_export),
    Attack("hostile import, name, date or integer (imports, check-config, vote, export)",
           NAMES_TRIES, "exit 2, one escaped line under 300 chars naming the file or option, "
           "nothing imported; <30 s, <1 GB", hostile_names_and_integers),
    Attack("the same game 1-3 times in one import (CSV or JSON), imported twice", 10,
           "each game kept once", duplicate_games),
    Attack("import at the 50 MB limit (CSV ~1M games, JSON ~170k)", 2,
           "peak RSS <= 100 MB, every game kept", import_memory),
    Attack("forged -ack count (huge, 5,000 digits, other digits, garbage)", 12,
           "every action there, no loss claimed", forged_ack),
    Attack("disk full when the journal opens (2 MB tmpfs, 0-60 kB free)", 12,
           "'disk full', never 'I/O error'; never moved aside; all there after",
           full_disk_journal_open),
    Attack("CSV export of names starting =, +, -, @, '", 12,
           "no cell starts a formula; imported back equal", csv_injection),
    Attack("export to a terminal of names with ESC, BEL, CSI, bidi", 5,
           "none reaches the terminal raw", terminal_export),
    Attack("undone sealed ballot while another connection holds a read transaction", 20,
           "no byte of the ballot in any file", ballot_with_reader),
]


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.attacks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one try of each attack")
    parser.add_argument("--out", type=Path, help="write the table (Markdown) to this file")
    parser.add_argument("--only", metavar="WORDS",
                        help="only the attacks whose name holds WORDS (a trial run)")
    args = parser.parse_args()
    import logging

    quiet = logging.getLogger("companion")  # the journal logs each failure it is made to
    quiet.addHandler(logging.NullHandler())  # meet: the table says what survived
    quiet.propagate = False
    start = time.monotonic()
    rows = []
    for attack in ATTACKS:
        if args.only and args.only not in attack.name:
            continue
        tries = 1 if args.quick else attack.tries
        survived, failed = 0, []
        t0 = time.monotonic()
        for n in range(tries):
            tmp = Path(tempfile.mkdtemp(prefix="companion-attack-"))
            try:
                ok = attack.run(n, tmp)
            except Exception as exc:  # noqa: BLE001 - an attack that raises was not survived
                ok = False
                failed.append(f"{n}: {type(exc).__name__}: {exc}"[:200])
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
            survived += ok
            if not ok and len(failed) < 3 and not any(f.startswith(f"{n}:") for f in failed):
                failed.append(f"{n}: not survived")
        rows.append((attack.name, tries, survived, attack.survived_means))
        print(f"{attack.name}: {survived}/{tries} ({time.monotonic() - t0:.0f} s)"
              + (f" FAILED: {failed}" if survived < tries else ""), file=sys.stderr, flush=True)
    command = " ".join(["python -m bench.attacks", *sys.argv[1:]])
    lines = [
        "# Attacks and what held",
        "",
        "Regenerated by `python -m bench.attacks --out docs/attacks.md` (what each attack",
        "does: the docstrings of `bench/attacks.py`). Each try is a fresh directory.",
        "",
        (f"Machine: {machine()}; load average {load()}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"{time.monotonic() - start:.0f} s; command: `{command}`"),
        "",
        "| attack | tries | held | held means |",
        "|--------|------:|-----:|------------|",
        *(f"| {name} | {tries} | {ok} | {means} |" for name, tries, ok, means in rows),
        "",
        f"Total: {sum(r[2] for r in rows)} of {sum(r[1] for r in rows)} tries held"
        + (", every attack held." if all(r[1] == r[2] for r in rows) else
           f"; NOT held: {', '.join(r[0] for r in rows if r[1] != r[2])}."),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0 if all(r[1] == r[2] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
