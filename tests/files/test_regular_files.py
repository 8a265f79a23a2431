"""Every file the kiosk or a command opens by name is a regular file, read within a bound
(``companion.files.regularfile``): a FIFO, ``/dev/zero`` or a link to one in the data directory
never hangs the kiosk's start nor eats its memory. With the journal's storage faults that
come with them: a full disk when the journal opens says so, a forged ``-ack`` count is not
believed. The reproductions of the attack run, one test each."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
from pathlib import Path

import pytest
from cli_run import run_process
from kiosk_process import write_config

from bench.attacks import fill_disk, special_file
from companion.files import regularfile, yamlsrc
from companion.files.yamlsrc import SourceError
from companion.games.registry import rules_for
from companion.i18n import catalog_path
from companion.play.session import Session
from companion.storage import runlock
from companion.storage.journal import Journal


def _parsed_copy_name(language: str) -> str:
    raw = catalog_path(language).read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    return f"parsed-{language}-{len(raw)}-{sha[:16]}-{yamlsrc.parser_stamp()}.json"


@pytest.mark.parametrize("kind", ["fifo", "fifo-link", "dev-zero"])
def test_read_regular_refuses_what_is_not_a_regular_file_without_blocking(tmp_path, kind):
    path = tmp_path / "f"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "fifo-link":
        os.mkfifo(tmp_path / "pipe")
        path.symlink_to(tmp_path / "pipe")
    else:
        path.symlink_to("/dev/zero")
    with pytest.raises(regularfile.NotRegular) as refused:
        regularfile.read_regular(path, 1000)
    assert "not a regular file" in refused.value.strerror
    with pytest.raises(regularfile.NotRegular):  # for writing too (a FIFO: no reader)
        os.close(regularfile.open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT))


def test_read_regular_reads_no_more_than_its_bound(tmp_path):
    path = tmp_path / "big"
    with path.open("wb") as f:
        f.truncate(300_000_000)  # sparse
    with pytest.raises(regularfile.TooBig) as refused:
        regularfile.read_regular(path, 1000)
    assert refused.value.size == 300_000_000
    path.write_bytes(b"x" * 1000)
    assert regularfile.read_regular(path, 1000) == b"x" * 1000


def test_fifos_and_dev_zero_in_the_data_directory_do_not_stop_the_kiosk(tmp_path, kiosk):
    """A FIFO at ``journal.sqlite-ack`` and at ``companion.log``, the English catalog's
    parsed copy a FIFO, the French one a link to ``/dev/zero``: the kiosk reaches Home,
    resumes the unfinished game, and stops cleanly."""
    config = write_config(tmp_path, "sim")
    data = tmp_path / "data"
    data.mkdir()
    with Journal(data / "journal.sqlite") as journal:
        setup = {"players": ["Ana", "Ben"], "seats": [0, 1], "first_player": "Ana"}
        game_id = Session.start(journal, rules_for("koryo"), setup).game_id
    (data / "journal.sqlite-ack").unlink()
    os.mkfifo(data / "journal.sqlite-ack")
    os.mkfifo(data / "companion.log")
    os.mkfifo(data / _parsed_copy_name("en"))
    (data / _parsed_copy_name("fr")).symlink_to("/dev/zero")
    k = kiosk(config)
    k.await_line("ready")
    text = "\n".join(k.lines)
    assert f"resumed game {game_id} (koryo)" in text
    assert "a FIFO, not a regular file" in text  # the log and the -ack said so
    assert k.stop(signal.SIGTERM) == 0
    assert not any("Traceback" in line for line in k.lines)
    # the catalogs came from their packaged copies: the FIFO was never even opened
    assert (data / _parsed_copy_name("en")).is_fifo()


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "huge"])
def test_report_with_a_ledger_that_is_a_fifo_dev_zero_or_huge(tmp_path, kind):
    ledger = tmp_path / "kd-campaign.json"
    ledger.touch()
    special_file(ledger, kind)
    try:
        proc = run_process(["report", "--out", str(tmp_path / "r.html"), "--db",
                            str(tmp_path / "h.db"), "--ledger", str(ledger)], timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("companion report hung on the ledger")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "not a campaign ledger" in proc.stderr
    assert len(proc.stderr.splitlines()[0]) < 300
    assert (tmp_path / "r.html").is_file()


@pytest.mark.parametrize(("kind", "why"), [("fifo", "a FIFO, not a regular file"),
                                           ("dev-zero", "a device, not a regular file"),
                                           ("huge", "more than 5,000,000 bytes")])
def test_bgstats_export_with_a_data_directory_ledger_that_is_a_fifo_dev_zero_or_huge(
        tmp_path, kind, why):
    """The ledger the plays' comments name is read as ``companion report`` reads it, even
    with no history yet: refused without blocking, said, and the export written."""
    data = tmp_path / "data"
    data.mkdir()
    ledger = data / "kd-campaign.json"
    ledger.touch()
    special_file(ledger, kind)
    out = tmp_path / "plays.bgsplay"
    try:
        proc = run_process(["export", "--format", "bgstats", "--out", str(out)],
                           env={**os.environ, "COMPANION_DATA_DIR": str(data)}, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("companion export hung on the ledger")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines()[0] == (f"companion export: {ledger}: not a campaign ledger "
                                           f"({why}); no campaign in the plays' comments")
    assert out.is_file() and not (data / "companion.db").exists()


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_the_run_lock_is_a_regular_file_or_refused(tmp_path, kind):
    """A FIFO would open read-write without blocking and take the lock: it is refused, said
    as every file that is not a regular one."""
    if kind == "fifo":
        os.mkfifo(tmp_path / runlock.LOCK_FILE)
    else:
        (tmp_path / runlock.LOCK_FILE).mkdir()
    with pytest.raises(SourceError) as caught:
        runlock.acquire(tmp_path).release()
    what = "a FIFO, not a regular file" if kind == "fifo" else "Is a directory"
    assert str(caught.value) == f"{tmp_path}: cannot open {runlock.LOCK_FILE} ({what})"


def _journal_with_a_game(path: Path) -> int:
    with Journal(path) as j:
        game = j.begin_game("koryo", {"players": ["Ana", "Ben"]})
        for i in range(5):
            j.append(game, {"n": i})
    return game


@pytest.mark.parametrize("count", ["99999999999999999999999", "1" * 5000, "２"])
def test_a_forged_ack_count_is_not_believed_and_the_game_resumes(tmp_path, count, caplog):
    path = tmp_path / "journal.sqlite"
    game = _journal_with_a_game(path)
    ack = Path(f"{path}-ack")
    journal_id = ack.read_bytes().split()[0].decode()
    ack.write_bytes(f"{journal_id} {count}\n".encode())
    with Journal(path) as j:
        assert j.lost == 0 and j.notice is None
        assert [a["n"] for a in j.actions(game)] == [0, 1, 2, 3, 4]
    said = [r.getMessage() for r in caplog.records if "not checked" in r.getMessage()]
    assert said and all(len(line) < 300 for line in said)


def test_a_believable_ack_count_still_says_what_is_missing(tmp_path):
    path = tmp_path / "journal.sqlite"
    _journal_with_a_game(path)
    ack = Path(f"{path}-ack")
    journal_id, commits = ack.read_bytes().split()
    ack.write_bytes(journal_id + b" " + str(int(commits) + 3).encode() + b"\n")
    with Journal(path) as j:
        assert j.lost == 3 and "3 saved action(s) are missing" in j.notice


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MB tmpfs (needs root: CI runs as root in its container)."""
    if os.geteuid() != 0:
        pytest.skip("a tmpfs needs root")
    mount = tmp_path / "small"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                      check=False, capture_output=True).returncode:
        pytest.skip("this container may not mount a tmpfs")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_when_the_journal_opens_says_disk_full(small_disk):
    path = small_disk / "journal.sqlite"
    _journal_with_a_game(path)
    fill_disk(small_disk / "fill")
    said = set()
    for _ in range(8):  # from no room at all to a little
        j = Journal(path)
        if j.failure is not None:
            said.add(j.failure.cause)
            assert "disk full" in str(j.failure) and "I/O" not in str(j.failure)
        j.close()
        size = (small_disk / "fill").stat().st_size
        os.truncate(small_disk / "fill", max(0, size - 4096))
    assert said == {"disk_full"}


@pytest.mark.parametrize("side", ["-wal", "-shm"])
def test_a_fifo_beside_the_journal_is_said_not_an_io_error(tmp_path, side):
    path = tmp_path / "journal.sqlite"
    _journal_with_a_game(path)
    os.mkfifo(f"{path}{side}")
    j = Journal(path)
    try:
        assert j.failure is not None and "a FIFO, not a regular file" in str(j.failure)
        assert f"journal.sqlite{side}" in str(j.failure)
    finally:
        j.close()
    os.unlink(f"{path}{side}")
    with Journal(path) as j:
        assert j.failure is None and len(j.actions(1)) == 5
