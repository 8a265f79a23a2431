"""Digits are ASCII digits wherever an amount or a count is parsed, and every integer is
bounded before it is converted: the reproductions of the attack run, one test each (a
traceback, an amount taken from "²" or "１", a 5,064-character line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import run_cli

ROOT = Path(__file__).resolve().parents[2]
OPEN = (ROOT / "tests" / "data" / "spec" / "vote-kings-dilemma.yaml").read_text(encoding="utf-8")
SECRET = (ROOT / "docs" / "examples" / "vote-secret.yaml").read_text(encoding="utf-8")
NINES = "9" * 5000
AMOUNTS = ["²", "١", "１", "٣", NINES, "1" + "0" * 4400]


def refused(argv: list[str]) -> str:
    code, out, err = run_cli(argv)
    assert code == 2 and out == "", err
    assert "Traceback" not in err
    assert all(len(line) < 300 for line in err.splitlines()), err[:400]
    return err


@pytest.mark.parametrize("amount", AMOUNTS)
def test_an_open_vote_amount_must_be_ascii_digits(tmp_path, amount):
    path = tmp_path / "v.yaml"
    path.write_text(OPEN.replace("{Julius: aye 1}", f'{{Julius: "aye {amount}"}}'),
                    encoding="utf-8")
    err = refused(["vote", str(path)])
    assert "turns.1" in err and "needs an amount of power" in err


@pytest.mark.parametrize("amount", AMOUNTS)
def test_a_secret_ballot_amount_must_be_ascii_digits(tmp_path, amount):
    path = tmp_path / "v.yaml"
    path.write_text(SECRET.replace("Ana: aye 3", f'Ana: "aye {amount}"'), encoding="utf-8")
    err = refused(["vote", str(path)])
    assert "ballots.Ana" in err and "needs an amount of power" in err


def test_plain_amounts_still_work(tmp_path):
    code, _, err = run_cli(["vote", str(ROOT / "docs" / "examples" / "vote-secret.yaml")])
    assert code == 0, err


@pytest.mark.parametrize("games", [NINES, "1-" + NINES, "３", "1-１"])
def test_export_games_range_bounded_and_ascii(tmp_path, games):
    err = refused(["export", "--format", "csv", "--games", games, "--db",
                   str(tmp_path / "none.db")])
    assert "--games: expected a range" in err


@pytest.mark.parametrize("last", [NINES, "１", "٣", "0", "-1"])
def test_export_last_bounded_and_ascii(tmp_path, last):
    err = refused(["export", "--format", "csv", "--last", last, "--db",
                   str(tmp_path / "none.db")])
    assert "companion export: --last: expected a whole number ≥ 1" in err


def test_export_ranges_that_are_fine(tmp_path):
    for argv in (["--games", "3-7"], ["--games", "5-"], ["--last", "2"]):
        code, _, err = run_cli(["export", "--format", "csv", *argv, "--db",
                                str(tmp_path / "none.db")])
        assert code == 0, err
