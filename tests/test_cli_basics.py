"""The command line's shared behaviour: unknown game, bad YAML, missing file → exit 2, no traceback."""

from companion.cli import main


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
