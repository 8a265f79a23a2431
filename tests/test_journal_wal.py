"""The journal's -wal is made ready (``make_wal_ready``: its header written and synced,
which ``companion run`` does after its first frame), so the first action after a start
is one sync of the -wal, not the file's creation, its header and the directory too."""

from __future__ import annotations

from pathlib import Path

from companion.journal import Journal


def wal_of(path: Path) -> Path:
    return Path(f"{path}-wal")


def test_the_wal_made_ready_has_its_header_before_the_first_action(tmp_path):
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        game = journal.begin_game("tally", {})
        journal.append(game, {"n": 1})
    assert not wal_of(path).exists()  # SQLite removes it at the last close
    with Journal(path) as journal:
        assert wal_of(path).stat().st_size == 0  # opened: the file, but nothing in it
        journal.make_wal_ready()
        assert wal_of(path).stat().st_size >= 32  # its 32-byte header (sqlite.org/fileformat2.html#walformat)
        assert journal.actions(game) == [{"n": 1}]  # nothing written but the header's page
        journal.append(game, {"n": 2})
        assert journal.actions(game) == [{"n": 1}, {"n": 2}]
