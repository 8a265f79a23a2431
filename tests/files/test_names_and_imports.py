"""One validation of a player's name everywhere (``validate.check_player_name``: NFC, no
control character, at most ``NAME_MAX`` characters), dates within ``history.YEARS``, and
imports that stream: the reproductions of the attack run, one test each."""

from __future__ import annotations

import json
import unicodedata

import pygame
import pytest
from cli_run import run_cli

from companion.files.validate import NAME_MAX, check_player_name
from companion.play.errors import RuleError
from companion.storage import history
from companion.ui import widgets

GAME = {"date": "2024-05-01T20:00:00+02:00", "game": "koryo", "winners": ["Ana"],
        "players": [{"name": "Ana", "total": 9, "breakdown": {}},
                    {"name": "Ben", "total": 3, "breakdown": {}}]}


def export(tmp_path, games, name="e.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"format": "companion-history", "version": 1, "games": games},
                               ensure_ascii=True), encoding="utf-8")
    return path


def with_names(*names):
    return {**GAME, "winners": [names[0]],
            "players": [{"name": n, "total": 1, "breakdown": {}} for n in names]}


def import_(tmp_path, path):
    return run_cli(["import", str(path), "--db", str(tmp_path / "h.db")])


def refused(tmp_path, path) -> str:
    code, out, err = import_(tmp_path, path)
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and len(err) < 400 and "Traceback" not in err
    assert "\x00" not in err and "\x1b" not in err and "\x07" not in err
    assert not (tmp_path / "h.db").exists() or history.History(tmp_path / "h.db").games() == []
    return err


@pytest.mark.parametrize("name", ["A\x00na", "A\x1b[2Jna", "Ana\x07", "\ud800", "Ana\u202e",
                                  "Line\nbreak"])
def test_a_name_with_a_control_character_or_a_lone_surrogate_is_refused(tmp_path, name):
    err = refused(tmp_path, export(tmp_path, [with_names(name, "Ben")]))
    assert "games.0.players.0.name" in err and "control character" in err


@pytest.mark.parametrize("name", ["x" * 250, "名" * 1000, "x" * 100_000])
def test_a_long_name_is_refused_by_the_one_bound(tmp_path, name):
    err = refused(tmp_path, export(tmp_path, [with_names(name, "Ben")]))
    assert f"longer than {NAME_MAX} characters" in err


def test_the_bound_is_24_characters_after_nfc():
    assert NAME_MAX == 24
    assert check_player_name("é" * 24, "n") == "é" * 24
    decomposed = unicodedata.normalize("NFD", "é" * 24)  # 48 code points, 24 characters
    assert check_player_name(decomposed, "n") == "é" * 24
    with pytest.raises(RuleError, match="longer than 24"):
        check_player_name("é" * 25, "n")


@pytest.mark.parametrize("name", ["x" * 600, "é" * 100, "e\u0301" * 100, "A\x00na"])
def test_check_config_refuses_the_names_that_crashed_the_winner_screen(tmp_path, name):
    config = tmp_path / "c.yaml"
    config.write_text("seats:\n"
                      f"  - {{name: {json.dumps(name)}, colour: red, position: bottom}}\n"
                      "  - {name: Ben, colour: blue, position: top}\n", encoding="utf-8")
    code, _out, err = run_cli(["check-config", str(config)])
    assert code == 2 and "seats.0.name" in err and "\x00" not in err


@pytest.mark.parametrize("name", ["x" * 600, "Ana\x1b[31m"])
def test_table_files_refuse_the_same_names(tmp_path, name):
    table = tmp_path / "t.yaml"
    table.write_text(f"game: koryo\nplayers: [{json.dumps(name)}, Ben]\ncards: {{}}\n",
                     encoding="utf-8")
    code, _out, err = run_cli(["score", str(table)])
    assert code == 2 and "players.0" in err and "\x1b" not in err


@pytest.mark.parametrize("date", ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59",
                                  "1999-12-31", "2101-01-01T00:00:00+00:00"])
def test_a_date_out_of_range_is_refused(tmp_path, date):
    err = refused(tmp_path, export(tmp_path, [{**GAME, "date": date}]))
    assert "games.0.date" in err and "between 2000 and 2100" in err
    csv = tmp_path / "e.csv"
    csv.write_text(history.to_csv([history.GameResult.from_dict(GAME)]).replace(
        GAME["date"], date), encoding="utf-8")
    assert "between 2000 and 2100" in refused(tmp_path, csv)


def test_the_same_game_twice_in_one_file_is_kept_once(tmp_path):
    path = export(tmp_path, [GAME, GAME, {**GAME, "date": "2024-05-02"}])
    code, out, err = import_(tmp_path, path)
    assert code == 0, err
    assert "2 games imported (1 already in the history or given twice)" in out
    assert len(history.History(tmp_path / "h.db").games()) == 2


def test_a_json_key_given_twice_is_refused(tmp_path):
    path = tmp_path / "e.json"
    path.write_text('{"format": "companion-history", "version": 1, "games": [{"date": '
                    '"2024-05-01", "date": "2024-05-02", "game": "koryo", "winners": ["Ana"],'
                    ' "players": [{"name": "Ana", "total": 1, "breakdown": {}}]}]}',
                    encoding="utf-8")
    err = refused(tmp_path, path)
    assert "'date' is given twice" in err and "games.0" in err
    path.write_text('{"format": "companion-history", "format": "x", "version": 1, '
                    '"games": []}', encoding="utf-8")
    assert "given twice" in refused(tmp_path, path)


def test_a_lone_surrogate_anywhere_is_a_message_not_a_traceback(tmp_path):
    path = tmp_path / "e.json"
    path.write_text('{"name": "\\ud800"}', encoding="utf-8")
    refused(tmp_path, path)
    path.write_text(json.dumps({"format": "\ud800", "version": 1, "games": []}),
                    encoding="utf-8")
    refused(tmp_path, path)


def test_a_mistake_late_in_a_streamed_import_keeps_nothing(tmp_path):
    games = [{**GAME, "date": f"2024-05-01T20:{i // 60:02d}:{i % 60:02d}+02:00"}
             for i in range(3000)]
    games.append({**GAME, "date": "not a date"})
    err = refused(tmp_path, export(tmp_path, games))
    assert "games.3000.date" in err


class _CountingFont:
    def __init__(self, font: pygame.font.Font) -> None:
        self.font, self.calls = font, 0

    def size(self, text: str) -> tuple[int, int]:
        self.calls += 1
        return self.font.size(text)


def test_a_long_name_is_cut_in_a_few_measures_not_one_per_character():
    """History showed a 20,000-character name in 14.9 s: ``shorten`` measured the text once
    per character cut. Now a bisection: the number of measures grows with the log of the
    width, not with the name."""
    pygame.font.init()
    font = _CountingFont(pygame.font.Font(None, 24))
    for length in (100, 20_000, 100_000):
        font.calls = 0
        cut = widgets.shorten("W" * length, font, 200)
        assert cut.endswith("…") and font.font.size(cut)[0] <= 200
        assert font.calls <= 12, (length, font.calls)
    assert widgets.shorten("Ana", font, 200) == "Ana"
