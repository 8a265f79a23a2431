"""The attack table: every fault and hostile input the companion must survive, tried many
times with variations, and how many tries it survived.

    python -m bench.attacks                   # print the table (Markdown)
    python -m bench.attacks --out docs/attacks.md
    python -m bench.attacks --quick           # one try of each (a smoke run)

Each attack is real: SIGKILLs of a process appending to the journal, damaged journal and
-wal files, SQLite's page cap ("database or disk is full"), a file-size limit
(``RLIMIT_FSIZE``) under which the journal is opened, a read-only journal (as ``nobody``
when run as root, whom file modes don't stop), hostile table and configuration files run
through the real ``companion`` command in a process bounded in time and memory, a second
kiosk on the same data directory, ``/dev/full`` under the log. What "survived" means is
in the table, per attack. The tests (``tests/test_faults_storage.py``,
``tests/test_hostile_input.py``, ``tests/test_fuzz_cli.py``, ``tests/test_journal*.py``)
prove each case once; this counts them over many tries.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
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
    from companion.journal import Journal

    with Journal(path) as j:
        game = j.begin_game("koryo", {"players": ["Ana", "Ben"]})
        for i in range(actions):
            j.append(game, {"n": i})
    return game


# --- the journal under SIGKILL ------------------------------------------------------------

APPENDER = """
    import sys
    from companion.journal import Journal
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
    from companion.journal import Journal

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
    from companion.journal import Journal

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
    from companion.journal import Journal, StorageError

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
    from companion.journal import Journal, StorageError
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
    from companion.journal import Journal

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
            from companion.journal import Journal, StorageError
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
            code = (f"import companion.journal, json, os\nos.setgid({user})\nos.setuid({user})\n"
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
    from companion.journal import Journal
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
    from companion.journal import Journal

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


def _refused(argv: list[str], path: str) -> bool:
    """Exit 2, one short line naming the file (check-config: one such line per mistake),
    no traceback, within the time and memory bounds."""
    try:
        out = subprocess.run([PY, "-m", "companion", *argv], capture_output=True, text=True,
                             timeout=30, env=ENV, preexec_fn=_bounded, check=False)
    except subprocess.TimeoutExpired:
        return False
    lines = out.stderr.splitlines()
    one_each = len(lines) == 1 or (argv[0] == "check-config" and len(lines) > 1)
    return (out.returncode == 2 and out.stdout == "" and one_each and out.stderr.endswith("\n")
            and all(line.startswith(f"companion {argv[0]}: ") and path in line
                    and len(line) < 700 and "\x1b" not in line for line in lines))


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
    from companion.journal import Journal

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
    """The log file on ``/dev/full`` (ENOSPC on every write): 200 records, no exception."""
    import contextlib
    import io
    import logging

    from companion.logfile import KioskLogFile

    handler = KioskLogFile(Path("/dev/full"))
    logger = logging.getLogger(f"bench.attacks.full{n}")
    logger.addHandler(handler)
    with contextlib.redirect_stderr(io.StringIO()):
        for i in range(200):
            logger.error("record %d", i)
        handler.close()
    logger.removeHandler(handler)
    return handler.dropped == 200


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
    Attack("log file on a full disk (/dev/full)", 3, "no exception, records dropped",
           full_log),
]


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.attacks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one try of each attack")
    parser.add_argument("--out", type=Path, help="write the table (Markdown) to this file")
    args = parser.parse_args()
    import logging

    quiet = logging.getLogger("companion")  # the journal logs each failure it is made to
    quiet.addHandler(logging.NullHandler())  # meet: the table says what survived
    quiet.propagate = False
    start = time.monotonic()
    rows = []
    for attack in ATTACKS:
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
        "# Attacks and what survived them",
        "",
        "Regenerated by `python -m bench.attacks --out docs/attacks.md` (what each attack",
        "does: the docstrings of `bench/attacks.py`). Each try is a fresh directory.",
        "",
        (f"Machine: {machine()}; load average {load()}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"{time.monotonic() - start:.0f} s; command: `{command}`"),
        "",
        "| attack | tries | survived | survived means |",
        "|--------|------:|---------:|----------------|",
        *(f"| {name} | {tries} | {ok} | {means} |" for name, tries, ok, means in rows),
        "",
        f"Total: {sum(r[2] for r in rows)} of {sum(r[1] for r in rows)} tries survived.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0 if all(r[1] == r[2] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
