"""A sealed ballot never reaches SQLite in clear (``companion.storage.seal``): the journal keeps it
masked by a one-time pad kept beside it, and an undo zeroes the pad. So no byte of an undone
ballot is in any file, even when another connection holds a read transaction and the -wal
can't be emptied — the reproduction of the attack run."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from pathlib import Path

import pytest
from held_sync import WAIT_S, returns_while_held
from ui_kd import RULEBOOK

from companion.games.kings_dilemma.vote import PASS_MODERATOR, PASS_POWER, Lock
from companion.storage import seal
from companion.storage.journal import SEALED_END, UNSHREDDED, Journal, StorageError


def _files_hold(directory: Path, secret: bytes) -> list[str]:
    return [p.name for p in directory.iterdir() if p.is_file() and secret in p.read_bytes()]


@pytest.mark.parametrize("reader_from", ["before the lock", "after the lock"])
def test_an_undone_ballot_leaves_no_byte_while_a_reader_holds_a_transaction(tmp_path,
                                                                             reader_from):
    secret = "ballot-5f3a9c0e7d21b846"
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        for i in range(5):
            j.append(game, {"n": i})
        reader = sqlite3.connect(path)
        if reader_from == "before the lock":
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM actions").fetchall()
        j.append(game, {"action": "lock"}, private={"ballot": secret})
        assert not _files_hold(tmp_path, secret.encode())  # not in clear even while sealed
        if reader_from == "after the lock":
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM actions").fetchall()
        j.undo(game)
        # the reader still holds its transaction: the -wal could not be emptied
        assert (tmp_path / "journal.sqlite-wal").stat().st_size > 0
        assert not _files_hold(tmp_path, secret.encode())
        [(masked,)] = reader.execute("SELECT payload FROM private").fetchall() or [(None,)]
        if masked is not None:  # the reader's snapshot still has the row: its pad is gone
            with pytest.raises(seal.SealError):
                seal.SealFile(Path(f"{path}-seal")).unseal(masked)
        reader.rollback()
        reader.close()
        assert [a["n"] for a in j.actions(game)] == [0, 1, 2, 3, 4]


def test_a_sealed_ballot_is_read_back_at_resume(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"}, private={"ballot": "aye 3", "name": "Zoé"})
    with Journal(path) as j:
        assert list(j.replay(game)) == [({"action": "lock"},
                                         {"ballot": "aye 3", "name": "Zoé"})]
        [(payload,)] = j._db.execute("SELECT payload FROM private").fetchall()
        assert payload.startswith(seal.PREFIX) and "aye" not in payload


def test_a_pad_left_by_a_cut_undo_is_zeroed_at_the_next_opening(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite"
    secret = "ballot-0d9e8f7a6b5c4d3e"
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"}, private={"ballot": "kept"})
        j.append(game, {"action": "lock"}, private={"ballot": secret})

        def cut(self, text):
            raise seal.SealError("power cut")

        monkeypatch.setattr(seal.SealFile, "shred", cut)
        j.undo(game)
        monkeypatch.undo()
    pads = Path(f"{path}-seal").read_bytes()
    assert any(pads)
    with Journal(path) as j:
        assert [p for _, p in j.replay(game)] == [{"ballot": "kept"}]  # the other one kept
        # the undo listed its pad for the openings; zeroed, the list is emptied
        assert j._read("SELECT count(*) FROM meta WHERE key LIKE ?", (f"{UNSHREDDED}%",)) \
            == [(0,)]
    [kept] = [seal.parse(p) for (p,) in sqlite3.connect(path).execute(
        "SELECT payload FROM private")]
    pads = Path(f"{path}-seal").read_bytes()
    offset, length, _ = kept
    assert not any(pads[:offset]) and not any(pads[offset + length:])  # the undone one's


def kept_pads(path: Path) -> list[tuple[int, int]]:
    """(offset, length) of every pad the journal at ``path`` refers to."""
    with sqlite3.connect(path) as conn:
        return [seal.parse(p)[:2] for (p,) in conn.execute("SELECT payload FROM private")]


def only_kept_pads_left(path: Path) -> bool:
    """Every byte of the pads' file is zero but the pads of the kept secrets."""
    pads = bytearray(Path(f"{path}-seal").read_bytes())
    for offset, length in kept_pads(path):
        assert any(pads[offset:offset + length])
        pads[offset:offset + length] = bytes(length)
    return not any(pads)


def test_a_pad_written_for_a_commit_that_never_came_is_zeroed_at_the_next_opening(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"}, private={"ballot": "kept"})
        j._seal.seal(b'{"ballot": "cut"}')  # the power cut, before its commit
        assert not only_kept_pads_left(path)
    with Journal(path) as j:
        assert [p for _, p in j.replay(game)] == [{"ballot": "kept"}]
        assert only_kept_pads_left(path)
        j.append(game, {"action": "lock"}, private={"ballot": "after"})
        assert [p for _, p in j.replay(game)] == [{"ballot": "kept"}, {"ballot": "after"}]
    with Journal(path) as j:  # the pads sealed since are kept: they are past the mark
        assert [p for _, p in j.replay(game)] == [{"ballot": "kept"}, {"ballot": "after"}]
        assert only_kept_pads_left(path)


def test_the_pad_of_a_refused_commit_is_zeroed_at_once(tmp_path):
    """A commit that fails (here refused by a trigger, as a full disk would) leaves its pad
    below the pads sealed after it, where the next opening does not look: zeroed now."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"}, private={"ballot": "kept"})
        j._db.execute("CREATE TEMP TRIGGER refuse BEFORE INSERT ON private"
                      " BEGIN SELECT RAISE(ABORT, 'no room'); END")
        with pytest.raises(StorageError):
            j.append(game, {"action": "lock"}, private={"ballot": "refused"})
        j._db.execute("DROP TRIGGER refuse")
        assert only_kept_pads_left(path)
        j.append(game, {"action": "lock"}, private={"ballot": "after"})
        assert [p for _, p in j.replay(game)] == [{"ballot": "kept"}, {"ballot": "after"}]
        assert only_kept_pads_left(path)


def test_a_lost_pad_file_is_said_not_a_crash(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"}, private={"ballot": "aye 3"})
    Path(f"{path}-seal").unlink()
    with caplog.at_level(logging.ERROR), Journal(path) as j:
        assert list(j.replay(game)) == [({"action": "lock"}, None)]
    assert any("can't be read back" in r.getMessage() for r in caplog.records)


def test_a_secret_kept_in_clear_by_an_older_version_is_still_read(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"})
        j._db.execute("INSERT INTO private VALUES (?, 1, ?)", (game, '{"ballot": "nay 2"}'))
    with Journal(path) as j:
        assert list(j.replay(game)) == [({"action": "lock"}, {"ballot": "nay 2"})]


def test_every_ballot_of_a_vote_seals_to_the_same_length(tmp_path):
    """XOR keeps a length, and a ballot's length says what it is (a pass is longer than
    ``aye 3``, ``aye 12`` than ``aye 3``): every ballot is padded to one size first."""
    path = tmp_path / "journal.sqlite"
    ballots = [Lock("Ann", choice, power).private_dict()
               for choice in ("aye", "nay") for power in range(100)]  # a house starts with 8
    ballots += [Lock("Ann", choice).private_dict() for choice in (PASS_POWER, PASS_MODERATOR)]
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        for ballot in ballots:
            j.append(game, {"action": "lock", "player": "Ann"}, private=ballot)
        payloads = [p for (p,) in j._db.execute("SELECT payload FROM private ORDER BY seq")]
    # the text's length but for its offset's digits (where its pad is: the order of locks)
    assert len({len(p) - len(str(seal.parse(p)[0])) for p in payloads}) == 1
    assert {seal.parse(p)[1] for p in payloads} == {seal.BLOCK}
    with Journal(path) as j:
        assert [p for _, p in j.replay(game)] == ballots


@pytest.mark.parametrize("secret", [b"", b"aye 3", b"x" * 63, b"x" * 64, b"\x80\0", b"\0" * 70])
def test_a_padded_secret_reads_back_exactly(tmp_path, secret):
    seals = seal.SealFile(tmp_path / "j-seal")
    text = seals.seal(secret)
    assert len(seal.parse(text)[2]) % seal.BLOCK == 0
    assert seals.unseal(text) == secret
    seals.close()


def test_a_ballot_sealed_unpadded_by_an_older_version_is_still_read(tmp_path):
    path = tmp_path / "journal.sqlite"
    secret = b'{"choice": "aye", "power": 3}'
    pad = b"\x5a" * 7 + bytes(range(1, len(secret) - 6))  # any bytes, not all zero
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"}, private={"choice": "nay", "power": 1})
        offset = Path(f"{path}-seal").stat().st_size
        with Path(f"{path}-seal").open("ab") as pads:
            pads.write(pad)
        masked = bytes(a ^ b for a, b in zip(secret, pad, strict=True))
        j.append(game, {"action": "lock"})
        j._db.execute("INSERT INTO private VALUES (?, 2, ?)",
                      (game, f"sealed:{offset}:{len(secret)}:{masked.hex()}"))
        j._db.execute("DELETE FROM meta WHERE key = ?", (SEALED_END,))  # as it left it
    with Journal(path) as j:
        assert [p for _, p in j.replay(game)] == [{"choice": "nay", "power": 1},
                                                  {"choice": "aye", "power": 3}]


class SealSyncs:
    """``os.fdatasync`` recorded: the threads that synced the seal file (a real sync)."""

    def __init__(self, monkeypatch, path: Path) -> None:
        self.path = str(path)
        self.threads: list[int] = []
        real = os.fdatasync

        def recorded(fd: int) -> None:
            if os.readlink(f"/proc/self/fd/{fd}") == self.path:
                self.threads.append(threading.get_ident())
            real(fd)

        monkeypatch.setattr(os, "fdatasync", recorded)

    def on_this_thread(self) -> int:
        return self.threads.count(threading.get_ident())


def test_the_kiosk_seals_ballots_with_pads_synced_ahead_off_its_thread(tmp_path, monkeypatch):
    """The kiosk's journal: the first ballot syncs its pad (and a reserve) itself, the
    next ones take pads already on disk and sync nothing on the press's thread; every
    ballot reads back after a restart, and the pads nobody took are cut off then."""
    path = tmp_path / "journal.sqlite"
    syncs = SealSyncs(monkeypatch, Path(f"{path}-seal"))
    ballots = [{"ballot": f"aye {n}"} for n in range(1, 2 * len(RULEBOOK) + 1)]
    with Journal(path, background_sync=True) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"}, private=ballots[0])
        assert syncs.on_this_thread() == 1  # the first: its pad and the reserve, one sync
        for ballot in ballots[1:]:
            j.append(game, {"action": "lock"}, private=ballot)
            j.snapshots_written()  # the errands thread's refill, if one was asked for
        assert syncs.on_this_thread() == 1  # none for the others
        assert len(syncs.threads) > 1  # the refill synced its pads, on its own thread
    with Journal(path) as j:
        assert [p for _, p in j.replay(game)] == ballots
        kept = [seal.parse(p) for (p,) in j._db.execute("SELECT payload FROM private")]
        assert Path(f"{path}-seal").stat().st_size == max(o + n for o, n, _ in kept)


def test_a_kiosk_restarted_on_a_table_that_seals_has_its_pads_ready(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"}, private={"ballot": "nay 2"})
    syncs = SealSyncs(monkeypatch, Path(f"{path}-seal"))
    with Journal(path, background_sync=True) as j:
        j.make_wal_ready()  # the kiosk's first frame is shown
        j.snapshots_written()
        j.append(game, {"action": "lock"}, private={"ballot": "aye 4"})
        assert syncs.on_this_thread() == 0 and syncs.threads
        assert [p for _, p in j.replay(game)] == [{"ballot": "nay 2"}, {"ballot": "aye 4"}]


def test_a_scrub_gives_up_the_pads_ahead_and_a_later_secret_still_seals(tmp_path):
    """A reopening after a failure scrubs the file under the journal in use: the pads
    written ahead are zeroed and cut off, so none of them may mask a later secret."""
    pads = seal.SealFile(tmp_path / "j-seal", ahead=True)
    try:
        first = pads.seal(b"aye 1")
        assert (tmp_path / "j-seal").stat().st_size == seal.BLOCK + seal.RESERVE
        assert pads.scrub([first]) == seal.RESERVE  # the reserve zeroed, then cut off
        assert (tmp_path / "j-seal").stat().st_size == seal.BLOCK
        second = pads.seal(b"nay 2")
        masked = bytes.fromhex(second.rsplit(":", 1)[1])
        assert masked != seal.padded(b"nay 2")  # a real pad, never zeros
        assert pads.unseal(first) == b"aye 1" and pads.unseal(second) == b"nay 2"
    finally:
        pads.close()


def test_the_kiosk_undoes_a_ballot_without_waiting_and_forgets_it_once_on_disk(tmp_path,
                                                                              held):
    """The kiosk's undo of a sealed ballot returns while its commit's fsync is held (the
    loop goes on); the ballot's pad is zeroed, and the -wal emptied, only once the undo
    is on disk: before, a cut would keep the ballot's action with its pad gone."""
    secret = "ballot-0c9e2b7a51f4d368"
    path = tmp_path / "journal.sqlite"
    with Journal(path, background_sync=True, sync_wal=held) as j:
        game = j.begin_game("kings-dilemma", {})
        j.append(game, {"action": "lock"}, private={"ballot": secret})
        j.wait_durable()
        [(payload,)] = j._db.execute("SELECT payload FROM private").fetchall()
        pads = seal.SealFile(Path(f"{path}-seal"))
        held.arm()
        assert returns_while_held(held, j.undo, game)
        assert held.entered.wait(WAIT_S)
        assert pads.unseal(payload) == json.dumps({"ballot": secret}).encode()  # kept yet
        held.release()
        j.wait_durable()
        with pytest.raises(seal.SealError):
            pads.unseal(payload)  # its pad zeroed
        pads.close()
        assert Path(f"{path}-wal").stat().st_size == 0  # emptied
        assert not _files_hold(tmp_path, secret.encode()) and j.actions(game) == []
