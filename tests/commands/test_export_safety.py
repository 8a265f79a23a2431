"""What `companion export` writes is safe where it is read: a CSV cell a spreadsheet would
take for a formula is escaped (OWASP's CSV injection advice) and reads back as written; on
a terminal, control characters of a name kept by an older version are shown escaped. The
reproductions of the attack run, one test each."""

from __future__ import annotations

import csv
import io

import pytest
from cli_run import run_cli

from bench.attacks import export_on_a_terminal
from companion.storage import history
from companion.storage.history import FORMULA_START, GameResult, History, PlayerResult

HOSTILE = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "'=x", "''", "'a"]


def _game(names: list[str]) -> GameResult:
    return GameResult("2024-05-01T20:00:00+02:00", "koryo",
                      tuple(PlayerResult(n, 1, {"influence": 1}) for n in names), (names[0],))


def test_csv_cells_that_start_a_formula_are_escaped_and_read_back(tmp_path):
    game = _game(HOSTILE)
    text = history.to_csv([game])
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert len(rows) == len(HOSTILE)
    for row in rows:
        for column in ("player", "breakdown"):
            assert not row[column].startswith(FORMULA_START), row[column]
    assert [r["player"] for r in rows][:4] == ["'" + n for n in HOSTILE[:4]]
    assert history.parse_csv(text, "x.csv") == [game]


def test_a_breakdown_key_starting_with_a_minus_is_escaped_too():
    game = GameResult("2024-05-01", "koryo", (PlayerResult("Ana", 1, {"-x": 1}),), ("Ana",))
    text = history.to_csv([game])
    assert ",'-x=1" in text
    assert history.parse_csv(text, "x.csv") == [game]


def _db_with_a_raw_name(tmp_path, name: str):
    """A history holding ``name`` as an older version (or another program) could keep it:
    written with SQL, past today's checks."""
    db = tmp_path / "h.db"
    with History(db) as h:
        h._insert(_game([name, "Ben"]))
    return db


def test_export_on_a_terminal_escapes_control_characters(tmp_path):
    db = _db_with_a_raw_name(tmp_path, "Ana\x1b[2J\x07")
    returncode, out = export_on_a_terminal(db)
    assert returncode == 0
    assert b"\x1b" not in out and b"\x07" not in out
    assert b"Ana\\x1b[2J\\x07" in out


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_to_a_pipe_or_a_file_is_the_data_as_it_is(tmp_path, fmt):
    db = _db_with_a_raw_name(tmp_path, "Ana\x1b[2J")
    code, out, err = run_cli(["export", "--format", fmt, "--db", str(db)])
    assert code == 0, err
    assert ("Ana\x1b[2J" if fmt == "csv" else "Ana\\u001b[2J") in out
