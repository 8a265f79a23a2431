"""Acceptance audit of the headless contract, docs/table-files.md, to the letter.

Runs the real console script (``companion`` next to this interpreter, else
``python -m companion``) on every example of the spec, copied verbatim into
tests/data/spec/, and on every error case the spec names. Expected figures are worked out
by hand from the rulebooks and docs/house-rules.md in each test's docstring.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

SPEC = Path(__file__).parents[1] / "data" / "spec"
_SCRIPT = Path(sys.executable).with_name("companion")
COMMAND = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "companion"]
ERROR_LINE = re.compile(r"^companion (score|vote|kingdom): (?P<file>[^:]+):(?P<line>\d+): "
                        r"(?P<field>[^:]+): (?P<message>.+)\n$")


def companion(*args: str, cwd: Path | None = None, env: dict | None = None):
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=60,
                          check=False, cwd=cwd, env=env)


def in_process(*args: str) -> subprocess.CompletedProcess:
    """The same command through ``companion.cli.main`` (fast, for the long tables of cases;
    the spec's own cases also go through the console script)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def ok_json(command: str, path: Path, run=companion) -> dict:
    """``--json``: exit 0, one JSON object and nothing else on stdout, nothing on stderr."""
    proc = run(command, str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    result = json.loads(proc.stdout)
    assert isinstance(result, dict)
    return result


def ok_text(command: str, path: Path) -> str:
    proc = companion(command, str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


def refused(command: str, path: Path, field: str, *words: str, line: int | None = None,
            modes: tuple[tuple[str, ...], ...] = ((), ("--json",)), run=companion) -> str:
    """Exit 2, nothing on stdout, one line on stderr: ``companion CMD: FILE:LINE: field: …``
    naming ``field`` and saying what is wrong (``words``), with and without ``--json``."""
    for extra in modes:
        proc = run(command, str(path), *extra)
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert proc.stdout == ""
        assert "Traceback" not in proc.stderr
        match = ERROR_LINE.match(proc.stderr)
        assert match, proc.stderr
        assert match["file"] == str(path)
        assert match["field"] == field, proc.stderr
        if line is not None:
            assert int(match["line"]) == line, proc.stderr
        for w in words:
            assert w in match["message"], proc.stderr
    return match["message"]


def totals(result: dict) -> dict[str, int]:
    return {p["name"]: p["total"] for p in result["players"]}


def check_score_shape(result: dict, game: str, seating: list[str]) -> None:
    """"Output of score (--json), at least": game, players in seating order with name,
    total and breakdown (which adds up to the total), winners."""
    assert result["game"] == game
    assert [p["name"] for p in result["players"]] == seating
    for p in result["players"]:
        assert isinstance(p["total"], int) and not isinstance(p["total"], bool)
        assert sum(p["breakdown"].values()) == p["total"], p
    best = max(p["total"] for p in result["players"])
    assert set(result["winners"]) <= {p["name"] for p in result["players"] if p["total"] == best}


def check_text(text: str, result: dict) -> None:
    """The human table shows every player, every total and the winner(s)."""
    for p in result["players"]:
        assert p["name"] in text
    total_line = next(ln for ln in text.splitlines() if ln.startswith("Total"))
    assert total_line.split()[1:] == [str(p["total"]) for p in result["players"]]
    label = "Winner: " if len(result["winners"]) == 1 else "Shared victory: "
    assert (label + ", ".join(result["winners"])) in text.splitlines()


# ------------------------------------------------------------------ the spec's examples


def test_example_koryo():
    """Koryŏ example. Merchants 2/3/4: Chloe 9. Ana: Bankers 6, 1 Barbarian −1, 2 tokens
    +2 = 7. Ben: Omniscient 1, 2 Lobbying −2 = −1. Chloe 9 wins."""
    path = SPEC / "score-koryo.yaml"
    result = ok_json("score", path)
    check_score_shape(result, "koryo", ["Ana", "Ben", "Chloe"])
    assert totals(result) == {"Ana": 7, "Ben": -1, "Chloe": 9}
    assert result["winners"] == ["Chloe"]
    check_text(ok_text("score", path), result)


def test_example_choson():
    """Chosŏn example. Ana: Yi majority 1 + 1 kept event = 2. Ben: Time Travellers 8 +
    3 tokens + first player 2 = 13. Chloe: Watchers 9, Yi's Legacy doubles 1…10 → 18."""
    path = SPEC / "score-choson.yaml"
    result = ok_json("score", path)
    check_score_shape(result, "choson", ["Ana", "Ben", "Chloe"])
    assert totals(result) == {"Ana": 2, "Ben": 13, "Chloe": 18}
    assert result["winners"] == ["Chloe"]
    check_text(ok_text("score", path), result)


def test_example_inheritors():
    """Inheritors example. Ana: influence 4+2, most tomes 3, yellow relic with the highest
    yellow +1, quests 2+1, honors 2 = 15. Ben: influence 3+6, second in tomes 1, bonus 1
    = 11."""
    path = SPEC / "score-inheritors.yaml"
    result = ok_json("score", path)
    check_score_shape(result, "inheritors", ["Ana", "Ben"])
    assert totals(result) == {"Ana": 15, "Ben": 11}
    assert result["winners"] == ["Ana"]
    check_text(ok_text("score", path), result)


def test_example_kings_dilemma_score():
    """King's Dilemma end-of-game example. Ana: agenda 10, most coins 5, +influence is the
    highest resource +3, second most power +1 = 19. Ben: 4 + coins 2nd (7 tied) 1 + most
    power 2 = 7. Chloe: 7 + coins 2nd 2, −welfare second lowest −1, +knowledge second
    highest +1 = 9 (places over distinct amounts)."""
    path = SPEC / "score-kings-dilemma.yaml"
    result = ok_json("score", path)
    check_score_shape(result, "kings-dilemma", ["Ana", "Ben", "Chloe"])
    assert totals(result) == {"Ana": 19, "Ben": 7, "Chloe": 9}
    assert result["winners"] == ["Ana"]
    check_text(ok_text("score", path), result)


def test_example_vote_is_the_rulebook_worked_example():
    """The spec's vote example is the rulebook's: 6–6 after Diana, the moderator breaks the
    tie for Aye, Julius leads, Théodore (passed to become moderator) gets 1 coin, the
    winners' 4+2 power joins the 3 in the Balance."""
    path = SPEC / "vote-kings-dilemma.yaml"
    result = ok_json("vote", path)
    expected = {
        "outcome": "aye", "totals": {"aye": 6, "nay": 6}, "leader": "Julius",
        "moderator": "Theodore", "balance": 9,
        "power": {"Theodore": 8, "Julius": 4, "Armin": 8, "Diana": 6, "Frances": 8},
        "coins": {"Theodore": 11, "Julius": 10, "Armin": 10, "Diana": 10, "Frances": 10},
    }
    assert {k: result[k] for k in expected} == expected
    assert list(result["power"]) == list(result["coins"]) == [
        "Theodore", "Julius", "Armin", "Diana", "Frances"]
    text = ok_text("vote", path)
    assert "AYE" in text and "aye 6" in text and "nay 6" in text and "Julius" in text


def test_example_kingdom_is_the_rulebook_worked_example():
    """Influence (black side, marker) +1: moves 1, flips to white, loses the marker,
    Stability +1. Morale (black, no marker) −1: moves 2, gains a marker, Stability −2."""
    path = SPEC / "kingdom.yaml"
    result = ok_json("kingdom", path)
    assert result["resources"] == {
        "influence": {"position": 1, "momentum": "up", "marker": False},
        "morale": {"position": -2, "momentum": "down", "marker": True},
        "prosperity": {"position": 0, "momentum": "up", "marker": False},
        "welfare": {"position": 0, "momentum": "up", "marker": False},
        "knowledge": {"position": 0, "momentum": "up", "marker": False},
    } and next(iter(result["resources"])) == "influence"
    assert result["stability"] == {"position": -1, "min": -8, "max": 8}
    assert result["abdicated"] is False
    text = ok_text("kingdom", path)
    assert "Influence" in text and "Stability" in text and "reigns" in text


def test_kingdom_abdication_and_track_end(tmp_path):
    """A resource stops at the track end but Stability moves the full amount (extras
    included); at Stability's end the king abdicates and the remaining changes still
    apply, Stability no longer moving."""
    path = tmp_path / "k.yaml"
    path.write_text(
        "game: kingdom\ntrack: {min: -3, max: 3}\nstability: {position: 6, min: -8, max: 8}\n"
        "resources:\n"
        "  influence: {position: 2, momentum: up, marker: true}\n"
        "  morale: {position: 0, momentum: down, marker: false}\n"
        "  prosperity: {position: 0, momentum: up, marker: false}\n"
        "  welfare: {position: 0, momentum: up, marker: false}\n"
        "  knowledge: {position: 0, momentum: up, marker: false}\n"
        "outcomes:\n  - {influence: +2}\n  - {knowledge: +1}\n"
    )
    result = ok_json("kingdom", path)
    assert result["resources"]["influence"]["position"] == 3
    assert result["resources"]["knowledge"] == {"position": 2, "momentum": "up", "marker": True}
    assert result["stability"]["position"] == 8
    assert result["abdicated"] is True
    text = ok_text("kingdom", path)
    assert "abdicates" in text
    assert re.search(r"Influence \+2\s+4\s+3 \(track end\)", text), text


def test_commands_write_nothing(tmp_path):
    """"Nothing is written anywhere by these commands": a fresh HOME, XDG dirs and working
    directory stay empty, and the inputs untouched, after every example (both modes)."""
    home = tmp_path / "home"
    work = tmp_path / "work"
    home.mkdir()
    work.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"),
           "COMPANION_DATA_DIR": str(home / "companion"), "PYTHONDONTWRITEBYTECODE": "1"}
    inputs = tmp_path / "in"
    shutil.copytree(SPEC, inputs)
    before = {p: p.stat().st_mtime_ns for p in inputs.iterdir()}
    for command, name, extra in [
        ("score", "score-koryo.yaml", []), ("score", "score-choson.yaml", ["--json"]),
        ("score", "score-inheritors.yaml", []), ("score", "score-kings-dilemma.yaml", ["--json"]),
        ("vote", "vote-kings-dilemma.yaml", []), ("kingdom", "kingdom.yaml", ["--json"]),
    ]:
        proc = companion(command, str(inputs / name), *extra, cwd=work, env=env)
        assert proc.returncode == 0, proc.stderr
    assert list(home.iterdir()) == [] and list(work.iterdir()) == []
    assert {p: p.stat().st_mtime_ns for p in inputs.iterdir()} == before


# --------------------------------------------------------------------- the spec's errors


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_error_example_from_the_spec(tmp_path):
    """The spec's own message: ``cards.Ben.9: 10 Merchants, but the deck has 9`` (family n
    has n cards; the field is the last player holding that family)."""
    path = write(tmp_path, "game: koryo\nplayers: [Ana, Ben]\ncards:\n  Ana: {9: 2}\n"
                           "  Ben: {9: 8}\n")
    message = refused("score", path, "cards.Ben.9", line=5)
    assert message == "10 Merchants, but the deck has 9"


KORYO = "game: koryo\nplayers: [Ana, Ben, Chloe]\n"
CHOSON = "game: choson\nplayers: [Ana, Ben]\nfirst_player: Ana\n"
KD = ("game: kings-dilemma\nplayers: [Ana, Ben, Chloe]\ncoins: {Ana: 1, Ben: 2, Chloe: 3}\n"
      "power: {Ana: 1, Ben: 2, Chloe: 3}\n"
      "resources: {influence: 3, prosperity: -1, morale: 0, welfare: 0, knowledge: 2}\n"
      "agendas: {Ana: {resources: 1, wealth: [3, 2, 1]}}\n")
INH = "game: inheritors\nplayers: [Ana, Ben]\n"

SCORE_ERRORS = [
    # (file text, field, words in the message) — each a rule of the spec
    (KORYO + "cards: {}\ncolour: red\n", "colour", ["unknown key"]),
    (KORYO + "cards: {Ana: {9: 1, Barbarian: 1}}\n", "cards.Ana.Barbarian", ["not a card"]),
    (KORYO + "cards: {Ana: {9: -1}}\n", "cards.Ana.9", ["-1"]),
    (KORYO + "cards: {Ana: {9: 1.5}}\n", "cards.Ana.9", ["whole number"]),
    (KORYO + "cards: {Ana: {10: 1}}\n", "cards.Ana.10", ["not a card"]),
    (KORYO + "cards: {Zoe: {9: 1}}\n", "cards.Zoe", ["not one of the players"]),
    (KORYO + "cards: {}\ntokens: {Zoe: 1}\n", "tokens.Zoe", ["not one of the players"]),
    (KORYO + "cards: {Ana: {barbarian: 4}, Ben: {barbarian: 3}}\n", "cards.Ben.barbarian",
     ["7 Barbarians", "deck has 6"]),
    (KORYO + "cards: {Ana: {lobbying: 5}}\n", "cards.Ana.lobbying", ["5", "deck has 4"]),
    (KORYO + "cards: {}\ntokens: {Ana: 5, Chloe: 4}\n", "tokens.Chloe", ["9", "8"]),
    ("game: koryo\nplayers: [Ana]\ncards: {}\n", "players", ["1 player,", "2–4"]),
    ("game: koryo\nplayers: [A, B, C, D, E]\ncards: {}\n", "players", ["5 players", "2–4"]),
    ("game: koryo\nplayers: [Ana, Ana]\ncards: {}\n", "players.1", ["twice"]),
    ("game: chess\nplayers: [Ana, Ben]\n", "game", ["chess"]),
    (CHOSON + "cards: {Ana: {barbarian: 1}}\n", "cards.Ana.barbarian", ["not a card"]),
    (CHOSON + "cards: {}\ntokens: {Ana: 6, Ben: 5}\n", "tokens.Ben", ["11", "10"]),
    (CHOSON + "cards: {Ana: {8: 9}}\n", "cards.Ana.8", ["9", "deck has 8"]),
    (CHOSON + "cards: {}\nyi_legacy: Zoe\n", "yi_legacy", ["not one of the players"]),
    (CHOSON + "cards: {}\nkept_events: {Ben: -1}\n", "kept_events.Ben", ["-1"]),
    ("game: choson\nplayers: [Ana, Ben]\ncards: {}\nfirst_player: Zoe\n", "first_player",
     ["not one of the players"]),
    (INH + "stacks: {Ana: {yellow: 7}}\n", "stacks.Ana.yellow", ["1–6"]),
    (INH + "stacks: {Ana: {yellow: 0}}\n", "stacks.Ana.yellow", ["1–6"]),
    (INH + "stacks: {Ana: {yellow: 1, purple: 1, blue: 1, red: 1, green: 1}}\n",
     "stacks.Ana.green", ["5 colours", "4"]),
    (INH + "stacks: {Ana: {orange: 1}}\n", "stacks.Ana.orange", ["not a colour"]),
    (INH + "stacks: {}\ntomes: {Ana: -2}\n", "tomes.Ana", ["-2"]),
    (INH + "stacks: {}\nquests: {Ana: [3]}\n", "quests.Ana.0", ["3"]),
    (INH + "stacks: {}\nhonors: {Zoe: 1}\n", "honors.Zoe", ["not one of the players"]),
    (KD.replace("[Ana, Ben, Chloe]", "[Ana, Ben]", 1), "players", ["2 players", "3–5"]),
    (KD + "open_agendas: {Ana: [+infuence]}\n", "open_agendas.Ana.0", ["infuence"]),
    (KD.replace("knowledge: 2}", "knowledge: 2.5}"), "resources.knowledge", ["whole number"]),
    (KD.replace("coins: {Ana: 1", "coins: {Ana: -1"), "coins.Ana", ["-1"]),
    (KD.replace("wealth: [3, 2, 1]", "wealth: [3, 2]"), "agendas.Ana.wealth", ["3 numbers"]),
]


@pytest.mark.parametrize(("text", "field", "words"), SCORE_ERRORS,
                         ids=[e[1] for e in SCORE_ERRORS])
def test_score_invalid_files_exit_2_naming_the_field(tmp_path, text, field, words):
    """Unknown keys, names not in ``players``, negative or non-integer counts, the deck's
    totals (family n: n cards; 6 Barbarians, 4 Lobbying; 8 or 10 VP tokens), player counts,
    Inheritors' 1–6 cards and 5 colours (4 with 2 players): exit 2 naming the field."""
    refused("score", write(tmp_path, text), field, *words, modes=(("--json",),), run=in_process)


SPEC_NAMED = [  # (command, file text, field): the rules the spec states in words
    ("score", SCORE_ERRORS[0][0], "colour"),  # unknown keys are errors
    ("score", SCORE_ERRORS[2][0], "cards.Ana.9"),  # counts are non-negative integers
    ("score", SCORE_ERRORS[3][0], "cards.Ana.9"),
    ("score", SCORE_ERRORS[5][0], "cards.Zoe"),  # a name that is not in players
]


def test_spec_named_errors_through_the_console_script(tmp_path):
    """The errors the spec states in words, through the real console script with --json
    (the vote's six are in test_vote_errors_named_by_the_spec_through_the_console_script)."""
    for command, text, field in SPEC_NAMED:
        refused(command, write(tmp_path, text), field, modes=(("--json",),))


def test_missing_optional_blocks_and_players_count_as_zero(tmp_path):
    """"A missing block or player counts as zero / empty": Koryŏ with only Ana's cards and
    no tokens block scores Ben 0; Chosŏn without kept_events, tokens, yi_legacy."""
    result = ok_json("score", write(tmp_path, "game: koryo\nplayers: [Ana, Ben]\n"
                                              "cards: {Ana: {7: 2}}\n"), run=in_process)
    assert totals(result) == {"Ana": 7, "Ben": 0}
    result = ok_json("score", write(tmp_path, CHOSON + "cards: {Ben: {2: 1}}\n"), run=in_process)
    assert totals(result) == {"Ana": 2, "Ben": 2}
    assert result["winners"] == ["Ben"]  # tie: Ben controls the lowest family (Snipers)
    result = ok_json("score", write(tmp_path, INH + "stacks: {Ben: {red: 5}}\n"), run=in_process)
    assert totals(result) == {"Ana": 0, "Ben": 5}


VOTE = ("game: kings-dilemma\nplayers: [Theodore, Julius, Armin, Diana, Frances]\n"
        "leader: Theodore\nmoderator: Julius\n"
        "power: {Theodore: 8, Julius: 8, Armin: 8, Diana: 8, Frances: 8}\n"
        "coins: {Theodore: 10, Julius: 10, Armin: 10, Diana: 10, Frances: 10}\nbalance: 3\n")
RULEBOOK_TURNS = ["Theodore: pass-moderator", "Julius: aye 1", "Armin: nay 1", "Diana: aye 1",
                  "Frances: nay 4", "Julius: add 3", "Armin: add 1", "Diana: add 1"]


def turns(*items: str) -> str:
    return "turns:\n" + "".join(f"  - {{{t}}}\n" for t in items)


VOTE_ERRORS = [
    # the spec's list: wrong player, after the end, not ended, missing tie_break,
    # more power than the player has, changing side
    (turns("Julius: aye 1"), "turns.0", ["Theodore's turn"]),
    (turns(*RULEBOOK_TURNS, "Frances: hold") + "tie_break: aye\n", "turns.8",
     ["already ended"]),
    (turns(*RULEBOOK_TURNS[:5]), "turns", ["not ended"]),
    (turns(*RULEBOOK_TURNS), "tie_break", ["missing", "tie"]),
    (turns("Theodore: aye 9"), "turns.0", ["9", "8"]),
    (turns("Theodore: aye 1", "Julius: nay 1", "Armin: nay 1", "Diana: nay 1",
           "Frances: nay 2", "Theodore: nay 1"), "turns.5", ["change side"]),
    (("mode: secret\nballots: {Theodore: aye 9, Julius: nay 1, Armin: nay 1, Diana: nay 1, "
     "Frances: nay 1}\n"), "ballots.Theodore", ["9", "8"]),
    (("mode: secret\nballots: {Theodore: aye 1, Julius: nay 1, Armin: pass-power, "
     "Diana: pass-power, Frances: pass-power}\n"), "tie_break", ["missing"]),
    ("mode: secret\nballots: {Theodore: aye 1}\n", "ballots.Julius", ["missing"]),
    (("mode: secret\nballots: {Theodore: add 1, Julius: nay 1, Armin: pass-power, "
     "Diana: pass-power, Frances: pass-power}\n"), "ballots.Theodore", ["add"]),
    (turns("Theodore: aye 1") + "colour: red\n", "colour", ["unknown key"]),
    (turns("Zoe: aye 1"), "turns.0", ["not one of the players"]),
    ("mode: public\n" + turns("Theodore: aye 1"), "mode", ["public"]),
]


@pytest.mark.parametrize(("text", "field", "words"), VOTE_ERRORS,
                         ids=[f"{e[1]}-{i}" for i, e in enumerate(VOTE_ERRORS)])
def test_vote_invalid_files_exit_2_naming_the_field(tmp_path, text, field, words):
    """Each invalid vote the spec lists is exit 2 with a message naming the field."""
    refused("vote", write(tmp_path, VOTE + text), field, *words, modes=(("--json",),), run=in_process)


def test_vote_errors_named_by_the_spec_through_the_console_script(tmp_path):
    """"A turn by the wrong player, a turn after the vote has ended, a vote that has not
    ended when the turns run out, a missing needed tie_break, committing more power than
    the player has, or changing side: each is an invalid file (exit 2)" — the console
    script on each."""
    for text, field, words in VOTE_ERRORS[:6]:
        refused("vote", write(tmp_path, VOTE + text), field, *words, modes=(("--json",),))


def test_secret_vote_resolves(tmp_path):
    """Secret mode: ballots revealed together; the first moderator claimant in seating
    order from the leader (Armin) gets the token, the later one (Diana) counts as passing
    for power and alone shares the Balance: 3 power. Aye 3+1 beats nay 2; Théodore, with
    strictly the most committed, leads; the winners' 4 power goes to the Balance."""
    path = write(tmp_path, VOTE + "mode: secret\nballots: {Theodore: aye 3, Julius: nay 2, "
                                  "Armin: pass-moderator, Diana: pass-moderator, "
                                  "Frances: aye 1}\n")
    result = ok_json("vote", path, run=in_process)
    assert result["outcome"] == "aye" and result["totals"] == {"aye": 4, "nay": 2}
    assert result["leader"] == "Theodore" and result["moderator"] == "Armin"
    assert result["balance"] == 4
    assert result["power"] == {"Theodore": 5, "Julius": 8, "Armin": 8, "Diana": 11,
                               "Frances": 7}
    assert result["coins"] == {"Theodore": 10, "Julius": 10, "Armin": 11, "Diana": 11,
                               "Frances": 10}


KINGDOM = ("game: kingdom\nresources:\n"
           "  influence: {position: 0, momentum: down, marker: true}\n"
           "  morale: {position: 0, momentum: down}\n"
           "  prosperity: {position: 0, momentum: up}\n"
           "  welfare: {position: 0, momentum: up}\n"
           "  knowledge: {position: 0, momentum: up}\n")
KINGDOM_ERRORS = [
    (KINGDOM + "outcomes:\n  - {influense: +1}\n", "outcomes.0.influense", ["not a resource"]),
    (KINGDOM + "outcomes:\n  - {influence: 1.5}\n", "outcomes.0.influence", ["whole number"]),
    (KINGDOM.replace("momentum: up}", "momentum: sideways}", 1), "resources.prosperity.momentum",
     ["sideways"]),
    (KINGDOM.replace("morale: {", "moral: {"), "resources.moral", ["unknown key"]),
    (KINGDOM + "track: {min: -10, max: 10, size: 3}\n", "track.size", ["unknown key"]),
    (KINGDOM + "stability: {position: 9, min: -8, max: 8}\n", "stability.position", ["9"]),
    (KINGDOM + "track: {min: 5, max: 2}\n", "track.min", ["5", "below"]),
]


@pytest.mark.parametrize(("text", "field", "words"), KINGDOM_ERRORS,
                         ids=[e[1] for e in KINGDOM_ERRORS])
def test_kingdom_invalid_files_exit_2_naming_the_field(tmp_path, text, field, words):
    """Unknown keys and resources, non-integer changes, bad momentum sides and positions
    off the tracks: exit 2 naming the field."""
    refused("kingdom", write(tmp_path, text), field, *words, modes=(("--json",),), run=in_process)


@pytest.mark.parametrize("command", ["score", "vote", "kingdom"])
def test_unreadable_and_broken_files_exit_2(tmp_path, command):
    """A missing file and broken YAML: exit 2 with one line naming the file, no traceback."""
    for path, text in [(tmp_path / "nope.yaml", None), (tmp_path / "bad.yaml", "a: [1,\n")]:
        if text is not None:
            path.write_text(text)
        proc = in_process(command, str(path))
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.startswith(f"companion {command}: {path}")
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("command", "example", "words"), [
    ("vote", "score-koryo.yaml", ["koryo", "kings-dilemma"]),
    ("kingdom", "score-choson.yaml", ["choson", "kingdom"]),
    ("score", "kingdom.yaml", ["kingdom", "koryo"]),
])
def test_another_commands_file_is_refused_on_its_game(command, example, words):
    """A file for another command is refused on ``game`` (line 1), not on its other keys."""
    refused(command, SPEC / example, "game", *words, line=1, modes=((),), run=in_process)


def test_a_file_without_game_says_game_is_missing(tmp_path):
    """``game`` absent: the score message names it and lists the games."""
    refused("score", write(tmp_path, "players: [Ana, Ben]\n"), "game", "missing", "koryo",
            modes=((),), run=in_process)


def test_reader_leaving_early_is_no_traceback():
    """`companion score FILE | head -1`: the pipe closes before the table is written —
    no BrokenPipeError traceback, the shell's SIGPIPE status 141."""
    proc = subprocess.Popen([*COMMAND, "score", str(SPEC / "score-koryo.yaml")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the command prints
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.parametrize("extra", [[], ["--json"]], ids=["table", "json"])
def test_non_utf8_terminal_gets_escapes_not_a_crash(extra):
    """A Latin-1 terminal can't show ŏ: escaped (``\\u014f``, valid JSON), exit 0."""
    env = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    proc = subprocess.run([*COMMAND, "score", str(SPEC / "score-choson.yaml"), *extra],
                          capture_output=True, encoding="latin-1", env=env, timeout=60,
                          check=False)
    assert proc.returncode == 0 and proc.stderr == ""
    if extra:
        assert json.loads(proc.stdout)["game"] == "choson"
    else:
        assert "Chos\\u014fn" in proc.stdout
