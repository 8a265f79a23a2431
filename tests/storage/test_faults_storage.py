"""The journal on storage that fails: a full disk, a read-only file, a damaged -wal, a
second kiosk. Nothing already recorded is lost or set aside, a write that fails refuses
the press and nothing more, and the table is told.

The failures are real, made in ways that work as root (CI runs as root, where chmod stops
nothing): SQLite's own page cap (``PRAGMA max_page_count``: its "database or disk is
full"), a file-size limit (``RLIMIT_FSIZE``) in a child process, a read-only file in a
child that dropped root for ``nobody``, ``/dev/full`` for the log.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from kiosk_process import env, write_config
from table_rig import TableRig
from ui_majority import start

from companion.games.majority.autoplay import next_action
from companion.storage.journal import ACK_SUFFIX, Journal, StorageError
from companion.system.logfile import KioskLogFile
from companion.ui.demo.majority import play
from companion.ui.screens.majority import koryo

SETUP = {"players": ["Ana", "Ben"]}
A_PRESSES = ("start_round", "end_turn", "end_round")  # actions carried out by one A press
ROOT = Path(__file__).resolve().parents[2]


def healthy_journal(path: Path, actions: int = 3) -> int:
    with Journal(path) as j:
        game = j.begin_game("koryo", SETUP)
        for i in range(actions):
            j.append(game, {"n": i})
    return game


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def in_child(code: str, *, fsize: int | None = None, user: int | None = None,
             cwd: Path) -> dict:
    """Run ``code`` (which prints one JSON line) in a fresh interpreter, under a file-size
    limit (SIGXFSZ ignored: writes past it fail with EFBIG) or as another user (root
    only)."""
    def limits() -> None:
        if fsize is not None:
            import resource

            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    if user is not None:  # after the imports: the interpreter's files may be root's only
        code = (f"import companion.storage.journal, json, os, pathlib\nos.setgid({user})\n"
                f"os.setuid({user})\n{textwrap.dedent(code)}")

    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
        timeout=60, check=False, preexec_fn=limits, cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --- opening on failing storage ---------------------------------------------------------


OPEN_AND_WRITE = """
    import json
    from pathlib import Path
    from companion.storage.journal import Journal, StorageError
    j = Journal(Path("journal.sqlite"))
    out = {"notice": j.notice, "cause": j.failure and j.failure.cause,
           "unfinished": [g.id for g in j.unfinished()]}
    try:
        j.append(1, {"n": 99}) if out["unfinished"] else j.begin_game("koryo", {})
        out["written"] = True
    except StorageError as exc:
        out["written"] = False
        out["error"] = str(exc)
    print(json.dumps(out))
"""


def test_full_disk_at_opening_leaves_a_healthy_journal_where_it_is(tmp_path):
    """A file-size limit below what SQLite needs to open (its -shm is 32 kB): the journal
    is reported, not moved aside as corrupt; once the limit is gone the game resumes."""
    game = healthy_journal(tmp_path / "journal.sqlite")
    before = snapshot(tmp_path)
    out = in_child(OPEN_AND_WRITE, fsize=16_000, cwd=tmp_path)
    assert out["cause"] in ("disk_full", "io") and out["written"] is False
    assert "can't be opened" in out["notice"] and "left as it is" in out["notice"]
    assert "not saved" in out["error"]
    assert not list(tmp_path.glob("*corrupt*"))
    assert snapshot(tmp_path)["journal.sqlite"] == before["journal.sqlite"]
    with Journal(tmp_path / "journal.sqlite") as j:  # the cause gone: all there
        assert j.notice is None and j.failure is None
        assert [g.id for g in j.unfinished()] == [game]
        assert j.actions(game) == [{"n": 0}, {"n": 1}, {"n": 2}]


def test_full_disk_for_a_new_journal_starts_nothing_and_moves_nothing(tmp_path):
    out = in_child(OPEN_AND_WRITE, fsize=0, cwd=tmp_path)
    assert out["written"] is False and out["cause"] in ("disk_full", "io")
    assert not list(tmp_path.glob("*corrupt*"))
    with Journal(tmp_path / "journal.sqlite") as j:
        assert j.notice is None
        j.begin_game("koryo", SETUP)


@pytest.fixture
def nobody_dir(tmp_path):
    """(directory, uid to run as): as root, a directory ``nobody`` can reach (pytest's
    temporary directories are root's only; SQLite opens files by their full path) and
    nobody's uid; as any other user, tmp_path and None."""
    if os.geteuid() != 0:
        yield tmp_path, None
        return
    directory = Path(tempfile.mkdtemp(prefix="companion-ro-"))
    directory.chmod(0o755)
    try:
        yield directory, 65534
    finally:
        shutil.rmtree(directory)


def test_read_only_journal_is_said_and_writable_again_once_it_may_be(nobody_dir):
    """As ``nobody`` (root ignores file modes): a journal file made read-only is said to be
    read-only (a notice, not moved aside), a write is refused as read-only; the file made
    writable again, the same write goes through — on the same Journal object."""
    tmp_path, user = nobody_dir
    game = healthy_journal(tmp_path / "journal.sqlite")
    if user is not None:
        for p in (tmp_path, *tmp_path.iterdir()):
            os.chown(p, user, user)
    (tmp_path / "journal.sqlite").chmod(0o444)
    before = (tmp_path / "journal.sqlite").read_bytes()
    out = in_child("""
        import json, os
        from pathlib import Path
        from companion.storage.journal import Journal, StorageError
        j = Journal(Path("journal.sqlite"))
        out = {"notice": j.notice, "cause": j.failure and j.failure.cause}
        try:
            j.append(GAME, {"n": 3})
        except StorageError as exc:
            out["refused"] = exc.cause
        for name in os.listdir("."):  # as one would: chmod u+w journal.sqlite*
            os.chmod(name, 0o600)
        out["seq"] = j.append(GAME, {"n": 3})
        out["after"] = j.failure
        print(json.dumps(out))
    """.replace("GAME", str(game)), user=user, cwd=tmp_path)
    assert out["cause"] == "read_only" and "read-only" in out["notice"]
    assert out["refused"] == "read_only"
    assert out["seq"] == 4 and out["after"] is None
    assert not list(tmp_path.glob("*corrupt*"))
    assert before
    with Journal(tmp_path / "journal.sqlite") as j:
        assert [a["n"] for a in j.actions(game)] == [0, 1, 2, 3]


def test_corrupt_is_only_what_sqlite_calls_corrupt(tmp_path):
    """Garbage is still moved aside (SQLite: not a database)."""
    (tmp_path / "journal.sqlite").write_bytes(b"not a database at all" * 300)
    with Journal(tmp_path / "journal.sqlite") as j:
        assert j.notice and "could not be used" in j.notice
    assert len(list(tmp_path.glob("journal.sqlite.corrupt-*"))) == 1


UNDER_FSIZE = """
import resource, runpy, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
sys.argv = ["companion", "run", "--config", sys.argv[1]]
runpy.run_module("companion", run_name="__main__")
"""


def test_kiosk_on_a_full_disk_comes_up_says_so_and_resumes_once_freed(tmp_path):
    """The journal's unfinished game, then `companion run` under a file-size limit too
    small for SQLite to open it: the kiosk comes up on Home saying the journal can't be
    opened, the file is kept as it is; run again without the limit, the game is back."""
    from kiosk_process import Kiosk, KioskProcess

    from companion.games.registry import rules_for
    from companion.play.session import Session

    config = write_config(tmp_path, backend="sim")
    (tmp_path / "data").mkdir()
    with Journal(tmp_path / "data" / "journal.sqlite") as journal:
        setup = {"players": ["Ana", "Ben"], "seats": [0, 1], "first_player": "Ana"}
        game = Session.start(journal, rules_for("koryo"), setup).game_id
    before = (tmp_path / "data" / "journal.sqlite").read_bytes()
    full = KioskProcess([sys.executable, "-c", UNDER_FSIZE.format(limit=16_000), str(config)],
                        env(), tmp_path)
    try:
        ready = full.await_line("ready")
        assert "Choose a game" in ready  # Home: nothing could be resumed
        assert any("can't be opened" in line for line in full.lines)
        assert full.stop(signal.SIGTERM) == 0
    finally:
        full.kill()
    assert not list((tmp_path / "data").glob("*corrupt*"))
    assert (tmp_path / "data" / "journal.sqlite").read_bytes() == before
    freed = Kiosk(config)
    try:
        freed.await_line("ready")
        assert f"resumed game {game} (koryo)" in "\n".join(freed.lines)
        assert freed.stop(signal.SIGTERM) == 0
    finally:
        freed.kill()


# --- a write that fails, through the App ------------------------------------------------


@pytest.mark.parametrize(("language", "said", "background_sync"),
                         [("en", "Not saved: disk full", False),
                          ("fr", "Non enregistré : disque plein", False),
                          ("en", "Not saved: disk full", True)])
def test_full_disk_refuses_the_press_and_the_same_press_works_once_space_is_back(
        tmp_path, caplog, language, said, background_sync):
    """A Koryŏ game on the screens; before each A press the journal is capped at its size
    (SQLite's max_page_count: "database or disk is full" once a page is needed). The press
    that can't be saved changes nothing: same view, same journal, the kiosk runs, the band
    says so in the table's language and the log says "not saved: disk full". The cap
    lifted, the same press goes through and the band goes. The same with the kiosk's
    journal, whose fsync is made off the loop's thread (``background_sync``): the commit
    that finds the disk full is still the press's own."""
    table = TableRig(tmp_path, language=language,
                     journal_options={"background_sync": background_sync})
    try:
        screen = start(table, koryo)
        journal, game = table.journal, screen.game.session.game_id
        rng = random.Random(1)
        caplog.set_level(logging.INFO, logger="companion")
        for _ in range(400):
            action = next_action(screen.game.rules, screen.game.session.state, rng)
            if action["action"] not in A_PRESSES:
                play(table.ctx, action)
                continue
            pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
            journal._db.execute(f"PRAGMA max_page_count={pages}")
            view, saved = screen.view, journal.actions(game)
            play(table.ctx, action)
            if journal.failure is None:
                journal._db.execute("PRAGMA max_page_count=1073741823")
                continue
            assert journal.failure.cause == "disk_full"
            assert table.app.running and table.app.screen is screen
            assert screen.view == view and screen.game.session.public_view() == view
            assert journal.actions(game) == saved
            assert said in table.texts()
            assert any("not saved: disk full" in r.getMessage() for r in caplog.records)
            play(table.ctx, action)  # still full: refused again, still running
            assert journal.actions(game) == saved and said in table.texts()
            journal._db.execute("PRAGMA max_page_count=1073741823")
            play(table.ctx, action)
            assert journal.actions(game) == [*saved, action]
            assert journal.failure is None and said not in table.texts()
            assert screen.view != view
            return
        raise AssertionError("no press ever needed a new page")
    finally:
        table.close()


# --- a damaged -wal ---------------------------------------------------------------------


FIFTY_THEN_DIE = """
    import os
    from pathlib import Path
    from companion.storage.journal import Journal
    j = Journal(Path("journal.sqlite"))
    game = j.begin_game("koryo", {"players": ["Ana", "Ben"]})
    for i in range(50):
        j.append(game, {"n": i})
    os._exit(0)  # like a power cut after the last acknowledgement: the -wal stays
"""


def fifty_in_the_wal(tmp_path: Path) -> Path:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(FIFTY_THEN_DIE)],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          check=True, timeout=60)
    assert proc.returncode == 0
    wal = tmp_path / "journal.sqlite-wal"
    assert wal.stat().st_size > 0
    return wal


@pytest.mark.parametrize("damage", ["truncated", "garbage", "removed"])
def test_lost_wal_frames_are_noticed_not_resumed_silently(tmp_path, damage):
    wal = fifty_in_the_wal(tmp_path)
    data = wal.read_bytes()
    if damage == "truncated":
        wal.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        cut = len(data) // 3
        wal.write_bytes(data[:cut] + os.urandom(4096) + data[cut + 4096:])
    else:
        wal.unlink()
    with Journal(tmp_path / "journal.sqlite") as j:
        kept = sum(g.actions for g in j.unfinished())
        assert kept < 50
        assert j.lost > 0
        assert j.notice and "missing" in j.notice
    with Journal(tmp_path / "journal.sqlite") as j:  # told once; counts agree again
        assert j.lost == 0


def test_an_emptied_journal_file_is_noticed_too(tmp_path):
    """SQLite takes an empty file for a new database; the count beside it says the
    actions it held are gone."""
    healthy_journal(tmp_path / "journal.sqlite", actions=3)
    (tmp_path / "journal.sqlite").write_bytes(b"")
    with Journal(tmp_path / "journal.sqlite") as j:
        assert j.lost == 4  # the game and its 3 actions
        assert j.notice and "missing" in j.notice


def test_an_intact_wal_after_a_kill_is_no_loss(tmp_path):
    fifty_in_the_wal(tmp_path)
    with Journal(tmp_path / "journal.sqlite") as j:
        assert j.lost == 0 and j.notice is None
        assert [g.actions for g in j.unfinished()] == [50]


def test_kiosk_says_missing_actions_and_does_not_resume(tmp_path, kiosk):
    data = tmp_path / "data"
    data.mkdir()
    fifty_in_the_wal(data)
    wal = data / "journal.sqlite-wal"
    wal.write_bytes(wal.read_bytes()[:20_000])
    k = kiosk(write_config(tmp_path, backend="sim"))
    ready = k.await_line("ready")
    assert "Choose a game" in ready  # Home, not the game resumed on less
    assert any("saved action(s) are missing" in line for line in k.lines)
    assert k.stop(signal.SIGTERM) == 0


# --- ballots at rest ----------------------------------------------------------------------


def test_an_undone_sealed_ballot_leaves_no_bytes_in_any_file(tmp_path):
    secret = "BALLOT-aye-7-7f3a9c"
    with Journal(tmp_path / "journal.sqlite") as j:
        game = j.begin_game("kings-dilemma", SETUP)
        j.append(game, {"n": 1})
        j.append(game, {"action": "lock", "player": "Ana"}, private={"ballot": secret})
        # kept (read back for a resume), but in no file in clear, even while sealed
        assert [p for _, p in j.replay(game)][-1] == {"ballot": secret}
        assert not any(secret.encode() in b for b in snapshot(tmp_path).values())
        j.undo(game)
        for name, content in snapshot(tmp_path).items():  # the kiosk still open
            assert secret.encode() not in content, name
        assert j._read("PRAGMA secure_delete")[0][0] == 1


def test_data_files_are_private_to_the_account(tmp_path, kiosk):
    k = kiosk(write_config(tmp_path, backend="sim"))
    k.await_line("ready")
    k.await_line("history: ")  # opened once the first frame is shown
    data = tmp_path / "data"
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    names = {p.name for p in data.iterdir()}
    assert {"journal.sqlite", "companion.db", "companion.log", "companion.lock",
            f"journal.sqlite{ACK_SUFFIX}"} <= names
    for p in data.iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p.name
    assert k.stop(signal.SIGTERM) == 0


# --- one kiosk per data directory -------------------------------------------------------


def test_a_second_kiosk_on_the_same_data_exits_2_naming_the_first(tmp_path, kiosk):
    config = write_config(tmp_path, backend="sim")
    first = kiosk(config)
    first.await_line("ready")
    second = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(config)],
                            capture_output=True, text=True, env=env(), timeout=60,
                            check=False)
    assert second.returncode == 2, second.stderr
    assert f"pid {first.proc.pid}" in second.stderr and "already running" in second.stderr
    assert second.stderr.count("\n") == 1
    export = subprocess.run([sys.executable, "-m", "companion", "export", "--format", "json",
                             "--db",
                             str(tmp_path / "data" / "companion.db")],
                            capture_output=True, text=True, env=env(), timeout=60, check=False)
    assert export.returncode == 0, export.stderr  # reading is not blocked
    first.kill()  # SIGKILL: the kernel drops the lock with the process
    third = kiosk(config)
    assert "ready" in third.await_line("ready")
    assert third.stop(signal.SIGTERM) == 0


# --- the log on a full disk ---------------------------------------------------------------


def test_log_file_on_a_full_disk_never_raises(tmp_path, capsys):
    """/dev/full answers every write with ENOSPC, as a full disk does."""
    handler = KioskLogFile(Path("/dev/full"))
    logger = logging.getLogger("companion.test.full")
    logger.addHandler(handler)
    try:
        for i in range(5):
            logger.error("record %d", i)
        assert handler.dropped == 5
    finally:
        logger.removeHandler(handler)
        handler.close()
    err = capsys.readouterr().err
    assert err.count("cannot write") == 1 and "Traceback" not in err


def test_kiosk_with_its_log_on_a_full_disk_runs_and_stops_cleanly(tmp_path, kiosk):
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / "companion.log").symlink_to("/dev/full")
    k = kiosk(write_config(tmp_path, backend="sim"))
    k.await_line("ready")
    assert k.stop(signal.SIGTERM) == 0
    assert not any("Traceback" in line for line in k.lines)


def test_storage_error_says_what_failed():
    exc = StorageError("disk_full", "journal.sqlite: database or disk is full")
    assert str(exc).startswith("not saved: disk full")
    assert isinstance(exc, Exception) and not isinstance(exc, sqlite3.Error)


def test_history_on_a_full_disk_refuses_the_record_and_keeps_what_it_had(tmp_path):
    from companion.storage.history import History

    result = {"game": "koryo", "winners": ["Ana"],
              "players": [{"name": "Ana", "total": 9, "breakdown": {"x": 9}},
                          {"name": "Ben", "total": 3, "breakdown": {"x": 3}}]}
    with History(tmp_path / "companion.db") as h:
        pages = h._db.execute("PRAGMA page_count").fetchone()[0]
        h._db.execute(f"PRAGMA max_page_count={pages}")
        for _ in range(500):
            kept = len(h.games())
            try:
                h.record(result)
            except StorageError as exc:
                assert exc.cause == "disk_full" and h.failure is exc
                break
        else:
            raise AssertionError("the capped history never filled")
        assert len(h.games()) == kept
        h._db.execute("PRAGMA max_page_count=1073741823")
        h.record(result)
        assert len(h.games()) == kept + 1 and h.failure is None
