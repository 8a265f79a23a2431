"""The command line's shared behaviour: unknown game, bad YAML, missing file → exit 2, no
traceback; help that speaks to a user."""

import re
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.yaml")]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and "Traceback" not in err


def test_bad_yaml_names_the_line(tmp_path, capsys):
    f = tmp_path / "t.yaml"
    f.write_text("game: koryo\nplayers: [Ana, Ben\n")
    assert main(["score", str(f)]) == 2
    err = capsys.readouterr().err
    assert "not valid YAML" in err and f"{f}:" in err


def test_duplicate_key_refused(tmp_path, capsys):
    f = tmp_path / "t.yaml"
    f.write_text("game: koryo\ngame: choson\n")
    assert main(["score", str(f)]) == 2
    assert "given twice" in capsys.readouterr().err


def test_unknown_game_names_the_field(tmp_path, capsys):
    f = tmp_path / "t.yaml"
    f.write_text("players: [Ana, Ben]\ngame: chess\n")
    assert main(["score", str(f)]) == 2
    err = capsys.readouterr().err
    assert f"{f}:2: game:" in err and "chess" in err



def test_every_help_speaks_to_a_user(capsys):
    """`companion --help` and each `companion COMMAND --help` open with what the command
    does for its user, in a sentence: no module docstring, no code markup; the commands on
    table files show an example whose file the repository has."""
    from companion.cli import COMMANDS

    with pytest.raises(SystemExit):
        main(["--help"])
    top = capsys.readouterr().out
    assert top.splitlines()[2].startswith("The table companion: the bookkeeping of Koryŏ")
    for name, (_, summary) in COMMANDS.items():
        assert f"    {name}" in top and "``" not in summary and summary[0].islower()
        with pytest.raises(SystemExit):
            main([name, "--help"])
        shown = capsys.readouterr().out
        assert " ".join(summary.split()) in " ".join(shown.split()), name
        assert "companion.commands" not in shown and "``" not in shown, name
    for name in ("score", "vote", "kingdom"):
        with pytest.raises(SystemExit):
            main([name, "--help"])
        examples = re.findall(r"companion \S+ (docs/examples/\S+)", capsys.readouterr().out)
        assert examples and all((ROOT / e).is_file() for e in examples), name


@pytest.mark.parametrize(("text", "said"), [
    ("game: koryo\nplayers: [Ana]\ncards: {}\ntokens: {}\n",
     "players: 1 player, but the game takes 2–4"),
    (("game: inheritors\nplayers: [Ana, Ben]\nstacks: {}\ntomes: {Ana: 1}\nhand: {Ana: 1}\n"
     "relics: {Ana: [yellow]}\nquests: {}\nhonors: {}\nbonus: {}\n"),
     "hand.Ana: 1 card in hand, but 1 tome and 1 relic are held in hand"),
])
def test_a_count_of_one_takes_the_singular_in_the_commands_messages(tmp_path, capsys, text,
                                                                     said):
    f = tmp_path / "table.yaml"
    f.write_text(text)
    assert main(["score", str(f)]) == 2
    assert said in capsys.readouterr().err


def test_counted_says_one_and_the_others():
    from companion.play.errors import counted

    assert [counted(n, "game", "games") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]


def test_a_shared_victory_lists_its_winners_as_a_sentence(tmp_path, capsys):
    f = tmp_path / "table.yaml"
    f.write_text("game: koryo\nplayers: [Ana, Ben, Cleo]\ncards: {}\n")
    assert main(["score", str(f)]) == 0
    assert "Shared victory: Ana, Ben and Cleo" in capsys.readouterr().out
