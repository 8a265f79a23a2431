"""Hostile files given to the commands: each is refused with exit 2 and one short line,
within bounds of time and memory, never by a traceback (exit 1) or a hang.

What is proved here: only regular files are read (a FIFO with no writer does not block),
a size limit stated in the message, nesting and aliases bounded, integers of any length
refused by their range (not by Python's int parsing), and values from the file shown
short and escaped, in messages and in plain tables.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_run import run_cli, run_process

from companion.files import yamlsrc
from companion.files.safetext import LINE_CHARS, escaped, shown
from companion.storage.history import MAX_IMPORT_BYTES

SEATS = ("seats:\n  - {name: Ana, colour: red, position: bottom}\n"
         "  - {name: Ben, colour: blue, position: top}\n")
SPEC = Path(__file__).parents[1] / "data" / "spec"
# Each command's file with one integer field set to @N@ (filled by ``with_number``).
TABLES = {
    "score": "game: koryo\nplayers: [Ana, Ben]\ncards: {Ana: {9: @N@}}\n",
    "vote": (SPEC / "vote-kings-dilemma.yaml").read_text().replace("balance: 3 ", "balance: @N@ "),
    "kingdom": (SPEC / "kingdom.yaml").read_text().replace("{position: 0, min: -8",
                                                             "{position: @N@, min: -8"),
    "check-config": SEATS + "hardware: {debounce_ms: @N@}\n",
}


def with_number(command: str, number: str) -> str:
    assert TABLES[command].count("@N@") == 1
    return TABLES[command].replace("@N@", number)


def assert_refused(code: int, out: str, err: str, path: Path | str) -> str:
    assert code == 2, err
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), err[:300]
    assert len(err) <= LINE_CHARS + 40
    assert str(path) in err
    return err


@pytest.mark.parametrize("command", sorted(TABLES))
@pytest.mark.parametrize("number", ["9" * 5000, "-" + "9" * 5000, "0x" + "f" * 5000])
def test_integer_of_thousands_of_digits_refused_by_range(tmp_path, command, number):
    """Python refuses int('9' * 5000) (ValueError); a hex one parses and explodes later
    in a message. Both are refused by the field's range, shown in a dozen characters."""
    path = tmp_path / "t.yaml"
    path.write_text(with_number(command, number), encoding="utf-8")
    err = assert_refused(*run_cli([command, str(path)]), path)
    field = {"score": "cards.Ana.9", "vote": "balance", "kingdom": "stability.position",
             "check-config": "hardware.debounce_ms"}[command]
    assert f": {field}: " in err, err
    assert any(word in err for word in ("maximum", "minimum", "range", "deck has", "off the track")), err


def test_alias_bomb_in_game_is_refused_short_and_quickly(tmp_path):
    """343 bytes that expand to a billion strings: refused while composing (the values
    are counted with their aliases), not walked, not printed."""
    bomb = "game: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10))
    path = tmp_path / "bomb.yaml"
    path.write_text(bomb.replace("game: &a0", "a0: &a0") + "game: *a9\n", encoding="utf-8")
    err = assert_refused(*run_cli(["score", str(path)]), path)
    assert "values" in err


def test_alias_of_a_long_text_counted_as_often_as_used(tmp_path):
    long = "x" * 500_000
    path = tmp_path / "t.yaml"
    path.write_text(f"a: &a {long}\ngame: [{', '.join(['*a'] * 20)}]\n", encoding="utf-8")
    err = assert_refused(*run_cli(["score", str(path)]), path)
    assert "characters" in err


def test_game_mapping_quoted_short(tmp_path):
    path = tmp_path / "t.yaml"
    names = ", ".join(f"n{i}: {'y' * 50}" for i in range(2000))
    path.write_text(f"game: {{{names}}}\n", encoding="utf-8")
    err = assert_refused(*run_cli(["score", str(path)]), path)
    assert "is not a game" in err


@pytest.mark.parametrize("command", sorted(TABLES))
def test_deep_nesting_refused_before_the_parser_recurses(tmp_path, command):
    """libyaml's composer recurses in C: 100,000 levels overflowed its stack (a segfault,
    found here). The events are composed without recursion and refused past the depth
    limit — in a real process, where a crash would show."""
    path = tmp_path / "deep.yaml"
    path.write_text("- " * 100_000 + "x\n", encoding="utf-8")
    proc = run_process([command, str(path)])
    assert_refused(proc.returncode, proc.stdout, proc.stderr, path)
    assert f"nested more than {yamlsrc.MAX_DEPTH} deep" in proc.stderr


@pytest.mark.parametrize("command", [*sorted(TABLES), "import"])
def test_fifo_with_no_writer_does_not_block(tmp_path, command):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    proc = run_process([command, str(fifo)], timeout=30)
    assert_refused(proc.returncode, proc.stdout, proc.stderr, fifo)
    assert "not a regular file" in proc.stderr


@pytest.mark.parametrize("command", [*sorted(TABLES), "import"])
def test_device_and_oversized_file_refused_with_the_limit(tmp_path, command):
    err = assert_refused(*run_cli([command, "/dev/zero"]), "/dev/zero")
    assert "not a regular file" in err
    big = tmp_path / "big.yaml"
    limit = MAX_IMPORT_BYTES if command == "import" else yamlsrc.MAX_BYTES
    with big.open("wb") as f:  # sparse: no disk used
        f.truncate(limit + 1)
    err = assert_refused(*run_cli([command, str(big)]), big)
    assert f"more than the {limit // 1_000_000} MB" in err


def test_comment_only_file_under_the_limit_is_read(tmp_path):
    """A file of comments just under the limit is read (once, by libyaml) and judged on
    what it holds: nothing, so no game. (How long it takes: bench/attacks.py.)"""
    path = tmp_path / "comments.yaml"
    line = "# " + "c" * 97 + "\n"
    path.write_text(line * (yamlsrc.MAX_BYTES // len(line)), encoding="utf-8")
    err = assert_refused(*run_cli(["score", str(path)]), path)
    assert "game: missing" in err


def test_players_list_at_the_node_limit(tmp_path):
    """As many names as the value limit lets through: the seating check is linear."""
    path = tmp_path / "t.yaml"
    names = ", ".join(f"p{i}" for i in range(yamlsrc.MAX_NODES - 10))
    path.write_text(f"game: koryo\nplayers: [{names}]\n", encoding="utf-8")
    err = assert_refused(*run_cli(["score", str(path)]), path)
    assert "players" in err


@pytest.mark.parametrize("command", ["score", "vote"])
def test_terminal_escapes_in_names_escaped_in_messages(tmp_path, command):
    name = "Ana\x1b[2J\x1b]0;pwned\x07\u202e"
    text = (f'game: koryo\nplayers: ["{name}", Ben, "{name}"]\ncards: {{}}\n'
            if command == "score" else with_number("vote", "3").replace(
                "players: [Theodore,", f'players: ["{name}", "{name}",'))
    path = tmp_path / "t.yaml"
    path.write_text(text.replace("\x1b", "\\e").replace("\x07", "\\a")
                    .replace("\u202e", "\\u202e"), encoding="utf-8")
    code, _, err = run_cli([command, str(path)])
    assert code == 2, err
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err
    assert "\\x1b[2J" in err and "\\u202e" in err


def test_terminal_escapes_in_names_are_refused_and_shown_escaped(tmp_path):
    """A name is checked once for every file (``validate.check_player_name``): one with a
    control character is refused, the message showing it escaped."""
    name = "Ana\x1b[31m\x9b2J"
    table = (Path(__file__).parents[1] / "data" / "spec" / "score-koryo.yaml").read_text()
    doc = yamlsrc.parse(table).data
    first = doc["players"][0]
    path = tmp_path / "t.yaml"
    # names go in quoted so the escapes are YAML's
    path.write_text(table.replace(first, '"' + name.replace("\x1b", "\\e")
                                  .replace("\x9b", "\\x9b") + '"'), encoding="utf-8")
    err = assert_refused(*run_cli(["score", str(path)]), path)
    assert "\x1b" not in err and "\x9b" not in err
    assert "Ana\\x1b[31m\\x9b2J" in err and "players.0" in err


def test_shown_is_short_for_anything():
    bomb: list = ["x"] * 10
    for _ in range(8):
        bomb = [bomb] * 10
    assert len(shown(bomb)) < 200
    assert len(shown(10**5000)) < 60
    assert shown("a\x1bb") == "'a\\x1bb'"
    assert escaped("é\tok\n", keep="\n") == "é\\x09ok\n"


@pytest.mark.parametrize("config", [
    SEATS + 'data_dir: "a\\0b"\n',
    SEATS.replace("name: Ana", 'name: "A\\0na"'),
    SEATS.replace("name: Ana", 'name: "\\e[2JAna"'),
])
def test_check_config_refuses_what_run_would_die_on(tmp_path, config):
    path = tmp_path / "c.yaml"
    path.write_text(config, encoding="utf-8")
    err = assert_refused(*run_cli(["check-config", str(path)]), path)
    assert "\x00" not in err and "\x1b" not in err


def test_import_of_a_deep_json_or_huge_numbers_exit_2(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "companion-history", "version": 1, "games": ['
                    + "[" * 100_000 + "]" * 100_000 + "]}", encoding="utf-8")
    err = assert_refused(*run_cli(["import", str(deep), "--db", str(tmp_path / "h.db")]), deep)
    assert "nested too deeply" in err
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    err = assert_refused(*run_cli(["import", str(deep), "--db", str(tmp_path / "h.db")]), deep)
    assert "expected an object" in err
    game = {"date": "2024-05-01", "game": "koryo", "winners": ["Ana"],
            "players": [{"name": "Ana", "total": 1, "breakdown": {}}]}
    for total in ("9" * 5000, "-" + "9" * 5000, "99999999999999999999"):
        huge = tmp_path / "huge.json"
        huge.write_text(json.dumps({"format": "companion-history", "version": 1,
                                    "games": [game]}).replace('"total": 1', f'"total": {total}'))
        err = assert_refused(*run_cli(["import", str(huge), "--db", str(tmp_path / "h.db")]),
                             huge)
        assert "out of range" in err
    csv = tmp_path / "huge.csv"
    csv.write_text("game_no,date,game,seat,player,total,winner,breakdown\r\n"
                   f"1,2024-05-01,koryo,1,Ana,{'9' * 5000},yes,a={'9' * 5000}\r\n")
    err = assert_refused(*run_cli(["import", str(csv), "--db", str(tmp_path / "h.db")]), csv)
    assert "out of range" in err


def test_check_config_refuses_a_name_the_font_cannot_draw(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(SEATS.replace("name: Ana", 'name: "Ana😀"'), encoding="utf-8")
    err = assert_refused(*run_cli(["check-config", str(path)]), path)
    assert "seats.0.name" in err and "U+1F600" in err
    path.write_text(SEATS.replace("name: Ana", "name: Anaïs Ŏ"), encoding="utf-8")
    assert run_cli(["check-config", str(path)])[0] == 0
