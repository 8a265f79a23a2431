"""`companion score` on Inheritors table files (docs/table-files.md, "score:
Inheritors" and "Output of score") and the colour data (companion/games/inheritors/inheritors.yaml)."""

import json

import pytest

from companion.cli import main
from companion.files.yamlsrc import SourceError
from companion.games.inheritors import data as inheritors_data

SPEC_EXAMPLE = """\
game: inheritors
players: [Ana, Ben]
stacks:                         # top (highest) Influence card of each colour stack
  Ana: {yellow: 4, purple: 2}
  Ben: {yellow: 3, blue: 6}
tomes: {Ana: 2, Ben: 1}         # optional: Tome + Legend cards in hand at the end
hand:  {Ana: 6, Ben: 4}         # optional: cards in hand at the end (tie-break)
relics: {Ana: [yellow]}         # optional: colours of the relics held
quests: {Ana: [2, 1]}           # optional: each quest's value: 2 fulfilled, 1 not
honors: {Ana: 2}                # optional: honors won
bonus: {Ben: 1}                 # optional: clan effects on final scoring (card text)
"""


def run(tmp_path, capsys, text, *extra):
    f = tmp_path / "table.yaml"
    f.write_text(text, encoding="utf-8")
    rc = main(["score", str(f), *extra])
    out, err = capsys.readouterr()
    return rc, out, err


def test_cli_json_follows_the_contract_on_the_spec_example(tmp_path, capsys):
    rc, out, err = run(tmp_path, capsys, SPEC_EXAMPLE, "--json")
    assert rc == 0 and err == ""
    result = json.loads(out)
    assert result["game"] == "inheritors"
    # Ana: 4 + 2 influence, 3 (most tomes), +1 yellow relic (her 4 is the highest yellow),
    # 2 + 1 quests, 2 honors = 15. Ben: 3 + 6 influence, 1 (second in tomes), 1 bonus = 11.
    assert [(p["name"], p["total"]) for p in result["players"]] == [("Ana", 15), ("Ben", 11)]
    assert result["players"][0]["breakdown"] == {
        "influence": 6, "tomes": 3, "relics": 1, "quests": 3, "honors": 2, "bonus": 0,
    }
    assert result["winners"] == ["Ana"] and result["tie_break"] is None


def test_cli_text_table_shows_breakdown_and_winner(tmp_path, capsys):
    rc, out, err = run(tmp_path, capsys, SPEC_EXAMPLE)
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[1].split() == ["Ana", "Ben"]
    assert "Yellow" in out and "4*" in out  # Ana played the highest yellow
    assert next(r for r in lines if r.startswith("Total")).split() == ["Total", "15", "11"]
    assert lines[-1] == "Winner: Ana"


def test_cli_optional_blocks_may_be_left_out(tmp_path, capsys):
    text = "game: inheritors\nplayers: [Ana, Ben, Chloe]\nstacks: {Ben: {red: 2}}\n"
    rc, out, _ = run(tmp_path, capsys, text, "--json")
    assert rc == 0
    result = json.loads(out)
    assert [p["total"] for p in result["players"]] == [0, 2, 0] and result["winners"] == ["Ben"]


def test_cli_text_explains_the_tie_break(tmp_path, capsys):
    text = ("game: inheritors\nplayers: [Ana, Ben]\nstacks: {Ana: {red: 4}, Ben: {blue: 4}}\n"
            "hand: {Ana: 2, Ben: 5}\n")
    rc, out, _ = run(tmp_path, capsys, text)
    assert rc == 0
    assert "Winner: Ben" in out and "Tie between Ana, Ben: same tomes, most cards in hand" in out


def test_cli_json_reports_a_shared_victory(tmp_path, capsys):
    text = "game: inheritors\nplayers: [Ana, Ben]\nstacks: {Ana: {red: 4}, Ben: {blue: 4}}\n"
    rc, out, _ = run(tmp_path, capsys, text, "--json")
    result = json.loads(out)
    assert rc == 0 and result["winners"] == ["Ana", "Ben"]
    assert result["tie_break"] == {"tied": ["Ana", "Ben"], "decided_by": "shared"}


INVALID = [
    ("value 7", "stacks: {Ana: {red: 7}}", "stacks.Ana.red: 7 is not an Influence card"),
    ("value 0", "stacks: {Ana: {red: 0}}", "stacks.Ana.red: 0 is not an Influence card"),
    ("unknown colour", "stacks: {Ana: {orange: 2}}",
     "stacks.Ana.orange: 'orange' is not a colour of the game (yellow, purple, blue, red, green)"),
    ("French colour", "stacks: {Ana: {jaune: 2}}",
     "stacks.Ana.jaune: write the colour in English: yellow"),
    ("5 colours with 2 players",
     "stacks: {Ana: {yellow: 1, purple: 1, blue: 1}, Ben: {red: 1, green: 1}}",
     "stacks.Ben.green: 5 colours (yellow, purple, blue, red, green), but a 2-player game has 4"),
    ("relic colour", "stacks: {}\nrelics: {Ben: [pink]}", "relics.Ben.0: 'pink' is not a colour"),
    ("relic not a list", "stacks: {}\nrelics: {Ben: red}", "relics.Ben: expected a list"),
    ("quest 3", "stacks: {}\nquests: {Ana: [2, 3]}", "quests.Ana.1: a quest is worth 2"),
    ("quest not a list", "stacks: {}\nquests: {Ana: 2}", "quests.Ana: expected a list"),
    ("negative honors", "stacks: {}\nhonors: {Ana: -1}", "honors.Ana: -1 is below the minimum 0"),
    ("tomes not a number", "stacks: {}\ntomes: {Ana: two}", "tomes.Ana: expected a whole number"),
    ("bonus not a number", "stacks: {}\nbonus: {Ana: 1.5}", "bonus.Ana: expected a whole number"),
    ("hand below tomes", "stacks: {}\ntomes: {Ana: 3}\nhand: {Ana: 1}",
     "hand.Ana: 1 card in hand, but 3 tomes"),
    ("name not in players", "stacks: {}\nhonors: {Zed: 1}", "honors.Zed: Zed is not one of the players"),
    ("stacks of a stranger", "stacks: {Zed: {red: 1}}", "stacks.Zed: Zed is not one of the players"),
    ("unknown key", "stacks: {}\nhonours: {Ana: 1}", "honours: unknown key"),
    ("missing stacks", "tomes: {Ana: 1}", "stacks: missing"),
]


@pytest.mark.parametrize(("what", "body", "message"), INVALID, ids=[i[0] for i in INVALID])
def test_cli_invalid_file_exits_2_naming_the_field(tmp_path, capsys, what, body, message):
    text = f"game: inheritors\nplayers: [Ana, Ben]\n{body}\n"
    rc, out, err = run(tmp_path, capsys, text, "--json")
    assert rc == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("players", ["[Ana]", "[Ana, Ben, Chloe, Dan, Eve]"])
def test_cli_refuses_player_counts_outside_2_to_4(tmp_path, capsys, players):
    rc, _, err = run(tmp_path, capsys, f"game: inheritors\nplayers: {players}\nstacks: {{}}\n")
    assert rc == 2 and "players:" in err and "2–4" in err


def test_cli_error_names_the_line_of_the_field(tmp_path, capsys):
    text = "game: inheritors\nplayers: [Ana, Ben]\nstacks:\n  Ana: {red: 2}\n  Ben: {red: 9}\n"
    rc, _, err = run(tmp_path, capsys, text)
    assert rc == 2 and ":5: stacks.Ben.red:" in err


# -- colour data ----------------------------------------------------------------------------


def test_shipped_data_has_the_five_colours_with_english_and_french_names():
    colours = inheritors_data.load_colours()
    assert list(colours) == ["yellow", "purple", "blue", "red", "green"]
    assert (colours["yellow"].fr, colours["purple"].fr, colours["blue"].fr) == (
        "Jaune", "Violet", "Bleu")  # the three the rulebook names
    assert all(c.en and c.fr for c in colours.values())


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("colours:\n  yellow: {en: Yellow, fr: Jaune}\n", "colours: 1 colours, but the game has 5"),
        ("colours:\n" + "".join(f"  c{i}: {{en: A, fr: B}}\n" for i in range(4))
         + "  c4: {en: A}\n", ":6: colours.c4.fr: missing"),
        ("colour: {}\n", "colour: unknown key"),
    ],
)
def test_a_broken_colour_data_file_names_file_line_and_field(tmp_path, body, message):
    f = tmp_path / "inheritors.yaml"
    f.write_text(body, encoding="utf-8")
    with pytest.raises(SourceError, match=message):
        inheritors_data.load_colours(f)
