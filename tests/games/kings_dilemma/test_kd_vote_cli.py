"""`companion vote FILE [--json]` (docs/table-files.md, "vote: The King's Dilemma"):
the rulebook's worked vote, text output, and every invalid file → exit 2 naming the field."""

import json

import pytest

from companion.cli import main

RULEBOOK = """\
game: kings-dilemma
players: [Theodore, Julius, Armin, Diana, Frances]
leader: Theodore
moderator: Julius
power: {Theodore: 8, Julius: 8, Armin: 8, Diana: 8, Frances: 8}
coins: {Theodore: 10, Julius: 10, Armin: 10, Diana: 10, Frances: 10}
balance: 3
mode: open
turns:
  - {Theodore: pass-moderator}
  - {Julius: aye 1}
  - {Armin: nay 1}
  - {Diana: aye 1}
  - {Frances: nay 4}
  - {Julius: add 3}
  - {Armin: add 1}
  - {Diana: add 1}
tie_break: aye
leader_choice: null
"""

SECRET = """\
game: kings-dilemma
players: [Ana, Ben, Chloe, Dan]
leader: Chloe
moderator: Ben
power: {Ana: 8, Ben: 8, Chloe: 8, Dan: 8}
coins: {Ana: 10, Ben: 10, Chloe: 10, Dan: 10}
balance: 3
mode: secret
ballots: {Ana: pass-moderator, Ben: aye 1, Chloe: nay 2, Dan: pass-moderator}
"""


def run(tmp_path, capsys, text, *extra):
    f = tmp_path / "vote.yaml"
    f.write_text(text)
    code = main(["vote", str(f), *extra])
    out, err = capsys.readouterr()
    return code, out, err, str(f)


def test_rulebook_example_json(tmp_path, capsys):
    """Worked example of a council: aye 6–6, tie broken Aye, leader Julius, moderator
    Théodore; Balance 3 + 6; Théodore's coin from the reserve; Julius and Diana's power in
    the Balance."""
    code, out, err, _ = run(tmp_path, capsys, RULEBOOK, "--json")
    assert code == 0 and err == ""
    r = json.loads(out)
    assert r["outcome"] == "aye" and r["totals"] == {"aye": 6, "nay": 6}
    assert (r["leader"], r["moderator"], r["balance"]) == ("Julius", "Theodore", 9)
    assert r["power"] == {"Theodore": 8, "Julius": 4, "Armin": 8, "Diana": 6, "Frances": 8}
    assert r["coins"] == {"Theodore": 11, "Julius": 10, "Armin": 10, "Diana": 10,
                          "Frances": 10}


def test_rulebook_example_text_names_outcome_leader_and_every_player(tmp_path, capsys):
    code, out, _, _ = run(tmp_path, capsys, RULEBOOK)
    assert code == 0
    assert "AYE" in out and "6" in out and "Leader: Julius" in out
    assert "Moderator: Theodore" in out and "Balance: 9" in out
    for name in ("Theodore", "Julius", "Armin", "Diana", "Frances"):
        assert name in out


def test_secret_ballots_json(tmp_path, capsys):
    """First moderator claim from the leader (Chloe → Dan → Ana …) is Dan's; Ana's later
    claim passes for power and takes the Balance's 3."""
    code, out, _, _ = run(tmp_path, capsys, SECRET, "--json")
    assert code == 0
    r = json.loads(out)
    assert (r["outcome"], r["leader"], r["moderator"]) == ("nay", "Chloe", "Dan")
    assert r["late_moderator_claims"] == ["Ana"]
    assert r["power"] == {"Ana": 11, "Ben": 8, "Chloe": 6, "Dan": 8} and r["balance"] == 2
    assert r["coins"] == {"Ana": 11, "Ben": 10, "Chloe": 10, "Dan": 11}


def test_secret_text_marks_the_late_claim(tmp_path, capsys):
    code, out, _, _ = run(tmp_path, capsys, SECRET)
    assert code == 0 and "late moderator claim" in out


def test_mode_defaults_to_open(tmp_path, capsys):
    code, out, _, _ = run(tmp_path, capsys, RULEBOOK.replace("mode: open\n", ""), "--json")
    assert code == 0 and json.loads(out)["leader"] == "Julius"


def test_leader_choice_used_when_winners_tie(tmp_path, capsys):
    text = SECRET.replace(
        "ballots: {Ana: pass-moderator, Ben: aye 1, Chloe: nay 2, Dan: pass-moderator}",
        "ballots: {Ana: aye 2, Ben: aye 2, Chloe: nay 3, Dan: pass-power}\n"
        "leader_choice: Ben")
    code, out, _, _ = run(tmp_path, capsys, text, "--json")
    assert code == 0 and json.loads(out)["leader"] == "Ben"


# -- invalid files: exit 2, one line naming FILE:LINE: field --------------------------------

BAD = [
    # wrong player's turn
    (RULEBOOK.replace("{Armin: add 1}", "{Diana: add 1}"), "turns.6", "it is Armin's turn"),
    # passed players are skipped: Théodore has no later turn
    (RULEBOOK.replace("  - {Julius: add 3}", "  - {Theodore: hold}"), "turns.5",
     "it is Julius's turn"),
    # a turn after the vote ended
    (RULEBOOK.replace("  - {Diana: add 1}\n", "  - {Diana: add 1}\n  - {Frances: hold}\n"),
     "turns.8", "already ended"),
    # turns run out before the end
    (RULEBOOK.replace("  - {Diana: add 1}\n", ""), "turns", "has not ended"),
    # tie without the moderator's decision
    (RULEBOOK.replace("tie_break: aye", "tie_break: null"), "tie_break", "tie"),
    (RULEBOOK.replace("tie_break: aye\n", ""), "tie_break", "moderator Theodore"),
    (RULEBOOK.replace("tie_break: aye", "tie_break: maybe"), "tie_break", "aye or nay"),
    # over-committing
    (RULEBOOK.replace("{Julius: add 3}", "{Julius: add 8}"), "turns.5", "has only 7"),
    (RULEBOOK.replace("{Frances: nay 4}", "{Frances: nay 9}"), "turns.4", "has only 8"),
    # changing side
    (RULEBOOK.replace("{Julius: add 3}", "{Julius: nay 3}"), "turns.5", "can't change side"),
    (RULEBOOK.replace("{Julius: add 3}", "{Julius: pass-power}"), "turns.5",
     "can't change side"),
    # a second moderator claim
    (RULEBOOK.replace("{Julius: aye 1}", "{Julius: pass-moderator}"), "turns.1",
     "already passed to become moderator"),
    # notation
    (RULEBOOK.replace("{Julius: aye 1}", "{Julius: aye}"), "turns.1", "needs an amount"),
    (RULEBOOK.replace("{Julius: aye 1}", "{Julius: aye 0}"), "turns.1", "at least 1"),
    (RULEBOOK.replace("{Julius: aye 1}", "{Julius: yes 1}"), "turns.1", "'yes' is not one of"),
    (RULEBOOK.replace("{Julius: aye 1}", "{Julius: hold 1}"), "turns.1", "takes no amount"),
    (RULEBOOK.replace("{Julius: aye 1}", "{Julius: aye 1, Armin: nay 1}"), "turns.1",
     "one turn"),
    (RULEBOOK.replace("{Julius: add 3}", "{Julius: add 3}\n  - {Julius: }"), "turns.6",
     "expected one of"),
    # unknown keys and names
    (RULEBOOK.replace("tie_break:", "tiebreak:"), "tiebreak", "unknown key"),
    (RULEBOOK.replace("{Julius: aye 1}", "{Julian: aye 1}"), "turns.1", "not one of the players"),
    (RULEBOOK.replace("leader: Theodore", "leader: Theo"), "leader", "not one of the players"),
    (RULEBOOK.replace("moderator: Julius", "moderator: Jules"), "moderator",
     "not one of the players"),
    (RULEBOOK.replace("leader_choice: null", "leader_choice: Zoe"), "leader_choice",
     "not one of the players"),
    (RULEBOOK.replace("Frances: 8}", "Frances: 8, Zoe: 3}", 1), "power.Zoe",
     "not one of the players"),
    # counts and blocks
    (RULEBOOK.replace("Diana: 8, Frances: 8}", "Diana: 8}", 1), "power.Frances", "missing"),
    (RULEBOOK.replace("Armin: 10,", "Armin: -1,"), "coins.Armin", "below the minimum"),
    (RULEBOOK.replace("balance: 3", "balance: three"), "balance", "whole number"),
    (RULEBOOK.replace("game: kings-dilemma", "game: koryo"), "game", "kings-dilemma"),
    (RULEBOOK.replace("mode: open", "mode: loud"), "mode", "not a vote mode"),
    (RULEBOOK.replace("players: [Theodore, Julius, Armin, Diana, Frances]",
                      "players: [Theodore, Julius]"), "players", "3–5"),
    (RULEBOOK.replace("mode: open", "mode: secret"), "turns", "not used in a secret vote"),
    (SECRET.replace("ballots:", "#"), "ballots", "missing"),
    (RULEBOOK.replace("turns:", "ballots: {}\nturns:"), "ballots", "not used in a open vote"),
    (RULEBOOK[:RULEBOOK.index("turns:")] + "turns: 3\n", "turns", "expected a list"),
    # secret ballots
    (SECRET.replace("Dan: pass-moderator}", "Dan: add 1}"), "ballots.Dan", "'add' is not one"),
    (SECRET.replace(", Dan: pass-moderator}", "}"), "ballots.Dan", "missing"),
    (SECRET.replace("Ben: aye 1", "Ben: aye 9"), "ballots.Ben", "has only 8"),
    (SECRET.replace("Dan: pass-moderator}", "Dan: pass-moderator, Eve: aye 1}"), "ballots.Eve",
     "not one of the players"),
    (SECRET.replace("Ben: aye 1", "Ben: nay 1").replace("Chloe: nay 2", "Chloe: aye 1"),
     "tie_break", "tie"),
    (SECRET.replace("ballots:", "turns: []\nballots:"), "turns", "not used in a secret vote"),
    (SECRET.replace("Ana: pass-moderator, Ben: aye 1, Chloe: nay 2, Dan: pass-moderator",
                    "Ana: aye 2, Ben: aye 2, Chloe: nay 3, Dan: pass-power"),
     "leader_choice", "tie for most power"),
    (SECRET.replace("Ana: pass-moderator, Ben: aye 1, Chloe: nay 2, Dan: pass-moderator",
                    "Ana: aye 2, Ben: aye 2, Chloe: nay 3, Dan: pass-power")
     + "leader_choice: Dan\n", "leader_choice", "not one of the winners"),
    # a decision the vote never asks for is refused, naming the field (null stands for none)
    (RULEBOOK.replace("{Diana: add 1}", "{Diana: add 2}"), "tie_break",
     "not used: aye 7 – nay 6 is no tie"),
    (SECRET + "tie_break: nay\n", "tie_break", "not used: aye 1 – nay 2 is no tie"),
    (RULEBOOK.replace("leader_choice: null", "leader_choice: Diana"), "leader_choice",
     "not used"),
    (SECRET + "leader_choice: Chloe\n", "leader_choice", "not used"),
]


def test_a_null_decision_stands_for_none(tmp_path, capsys):
    """The spec's own example gives ``leader_choice: null`` on a vote with no leader choice:
    accepted, as is ``tie_break: null`` when there is no tie."""
    code, out, _, _ = run(tmp_path, capsys, SECRET + "tie_break: null\nleader_choice: null\n",
                          "--json")
    assert code == 0 and json.loads(out)["outcome"] == "nay"
    assert run(tmp_path, capsys, RULEBOOK, "--json")[0] == 0


@pytest.mark.parametrize(("text", "field", "words"), BAD)
def test_invalid_file_exits_2_naming_the_field(tmp_path, capsys, text, field, words):
    code, out, err, path = run(tmp_path, capsys, text, "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{path}:" in err and f": {field}: " in err and words in err, err


def test_error_line_points_at_the_bad_turn(tmp_path, capsys):
    text = RULEBOOK.replace("{Julius: add 3}", "{Julius: add 8}")
    _, _, err, path = run(tmp_path, capsys, text)
    line = text.splitlines().index("  - {Julius: add 8}") + 1
    assert err.startswith(f"companion vote: {path}:{line}: turns.5:")
