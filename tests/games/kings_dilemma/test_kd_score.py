"""The King's Dilemma end-of-game scoring (its rulebook, "End of game scoring", and the
ruling on places in docs/house-rules.md; « 1. Calculer les scores ») and `companion score` on
King's Dilemma table files (docs/table-files.md)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import main
from companion.games.kings_dilemma import score as ks
from companion.games.kings_dilemma.kingdom import RESOURCES
from companion.play.places import at_place, places

FLAT = dict.fromkeys(RESOURCES, 0)


def agenda(resources=0, wealth=(0, 0, 0)):
    return ks.SecretAgenda(resources, tuple(wealth))


def tokens(*texts):
    return [ks.OpenAgenda.parse(t, "t") for t in texts]


def score(players, coins=None, power=None, resources=None, agendas=None, open_agendas=None):
    return ks.final_score(
        players, coins or {}, power or {}, resources or FLAT, agendas or {}, open_agendas or {}
    )


def by_name(result):
    return {p.name: p for p in result.players}


# -- the ruling on places ----------------------------------------------------------------------


def test_ruling_places_are_counted_over_distinct_amounts_10_10_6_3_give_1_1_2_3():
    assert list(places({"a": 10, "b": 10, "c": 6, "d": 3}).values()) == [1, 1, 2, 3]


def test_places_from_the_lowest_and_who_is_at_a_place():
    amounts = {"a": 10, "b": 10, "c": 6, "d": 3}
    assert places(amounts, lowest_first=True) == {"a": 3, "b": 3, "c": 2, "d": 1}
    assert at_place(amounts, 1) == ("a", "b") and at_place(amounts, 4) == ()


def test_wealth_podium_uses_the_places_tied_players_each_score_the_shared_place():
    names = ["Ana", "Ben", "Chloe", "Dan"]
    r = score(names, coins={"Ana": 10, "Ben": 10, "Chloe": 6, "Dan": 3},
              agendas={p: agenda(wealth=(5, 3, 1)) for p in names})
    assert {p.name: p.wealth for p in r.players} == {"Ana": 5, "Ben": 5, "Chloe": 3, "Dan": 1}


def test_wealth_beyond_third_place_scores_nothing():
    names = ["Ana", "Ben", "Chloe", "Dan"]
    r = score(names, coins={"Ana": 9, "Ben": 8, "Chloe": 7, "Dan": 6},
              agendas={p: agenda(wealth=(5, 3, 1)) for p in names})
    assert by_name(r)["Dan"].wealth == 0 and by_name(r)["Dan"].coins_place == 4


# -- the rulebook's examples -----------------------------------------------------------------


def test_rulebook_open_agenda_example_welfare_and_prosperity_tied_last_knowledge_second_lowest():
    """Influence highest (+3); Morale and Knowledge tied second (+1 each); Welfare and
    Prosperity tied for last (−3 each); Knowledge is also second lowest (−1)."""
    positions = {"influence": 5, "morale": 2, "knowledge": 2, "welfare": -1, "prosperity": -1}
    names = ["Valentine", "Martina", "Armin", "Charles", "Theodore"]
    held = {
        "Valentine": tokens("+influence", "-knowledge"),
        "Martina": tokens("+morale", "-welfare"),
        "Armin": tokens("+knowledge", "-prosperity"),
        "Charles": tokens("-morale"),
    }
    r = score(names, resources=positions, open_agendas=held)
    points = {p.name: dict(p.tokens) for p in r.players}
    assert points["Valentine"] == {"+influence": 3, "-knowledge": -1}
    assert points["Martina"] == {"+morale": 1, "-welfare": -3}
    assert points["Armin"] == {"+knowledge": 1, "-prosperity": -3}
    assert points["Charles"] == {"-morale": -1}  # Morale ties Knowledge: also second lowest
    assert by_name(r)["Valentine"].open_agendas == 2


def test_rulebook_power_example_most_plus_2_tied_second_plus_1_each():
    names = ["Valentine", "Martina", "Armin", "Charles", "Theodore"]
    r = score(names, power={"Valentine": 7, "Martina": 2, "Armin": 5, "Charles": 1,
                            "Theodore": 5})
    assert {p.name: p.power for p in r.players} == {
        "Valentine": 2, "Martina": 0, "Armin": 1, "Charles": 0, "Theodore": 1
    }


def test_rulebook_valentine_moderation_10_for_resources_and_1_for_third_most_coins():
    names = ["Valentine", "Martina", "Armin"]
    r = score(names, coins={"Valentine": 4, "Martina": 9, "Armin": 6},
              agendas={"Valentine": agenda(10, (5, 3, 1))})
    v = by_name(r)["Valentine"]
    assert (v.resources, v.wealth) == (10, 1)


# -- the rest -----------------------------------------------------------------------------------


def test_open_agenda_on_a_middle_resource_scores_nothing():
    positions = {"influence": 4, "prosperity": 3, "morale": 2, "welfare": 1, "knowledge": 0}
    r = score(["A", "B", "C"], resources=positions,
              open_agendas={"A": tokens("+morale", "-morale")})
    assert by_name(r)["A"].open_agendas == 0


def test_all_resources_level_are_both_highest_and_lowest():
    r = score(["A", "B", "C"], open_agendas={"A": tokens("+welfare"), "B": tokens("-welfare")})
    assert by_name(r)["A"].open_agendas == 3 and by_name(r)["B"].open_agendas == -3


def test_tied_totals_share_the_victory():
    r = score(["A", "B", "C"], agendas={"A": agenda(7), "B": agenda(7), "C": agenda(3)})
    assert r.winners == ("A", "B")


def test_a_token_string_must_name_a_sign_and_a_resource():
    with pytest.raises(ks.RuleError):
        ks.OpenAgenda.parse("influence", "open_agendas.A.0")
    with pytest.raises(ks.RuleError):
        ks.OpenAgenda.parse("+gold", "open_agendas.A.0")


counts = st.integers(0, 30)


@given(
    st.lists(counts, min_size=3, max_size=5), st.lists(counts, min_size=3, max_size=5),
    st.lists(st.integers(-10, 10), min_size=5, max_size=5),
    st.lists(st.tuples(counts, counts, counts, counts), min_size=5, max_size=5),
)
def test_total_is_the_sum_of_the_breakdown_and_the_winners_have_the_top_total(c, pw, pos, cards):
    names = [f"P{i}" for i in range(min(len(c), len(pw)))]
    ags = {p: agenda(cards[i][0], cards[i][1:]) for i, p in enumerate(names)}
    r = score(names, dict(zip(names, c, strict=False)), dict(zip(names, pw, strict=False)),
              dict(zip(RESOURCES, pos, strict=True)), ags, {names[0]: tokens("+influence")})
    for p in r.players:
        assert p.total == sum(p.breakdown().values())
        assert p.power in (0, 1, 2) and p.wealth in (0, *ags[p.name].wealth)
    top = max(p.total for p in r.players)
    assert r.winners == tuple(p.name for p in r.players if p.total == top)


# -- companion score ------------------------------------------------------------------------

SPEC_FILE = """\
game: kings-dilemma
players: [Ana, Ben, Chloe]      # 3–5
coins: {Ana: 12, Ben: 7, Chloe: 7}
power: {Ana: 5, Ben: 9, Chloe: 2}
resources: {influence: 3, prosperity: -1, morale: 0, welfare: 0, knowledge: 2}
agendas:                        # per player: resource-objective points read off the
  Ana:   {resources: 10, wealth: [5, 3, 1]}   # secret agenda card, and the card's
  Ben:   {resources: 4,  wealth: [2, 1, 0]}   # points for 1st/2nd/3rd most coins
  Chloe: {resources: 7,  wealth: [3, 2, 1]}
open_agendas: {Ana: [+influence], Chloe: [-welfare, +knowledge]}   # optional
"""


def run(tmp_path, capsys, text, *args):
    path = tmp_path / "kd.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["score", str(path), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_spec_example_json(tmp_path, capsys):
    """Ana: 10 + 5 (most coins) + 3 (+influence highest) + 1 (second most power) = 19.
    Ben and Chloe tie for 2nd most coins; Welfare ties Morale as second lowest (−1)."""
    code, out, err = run(tmp_path, capsys, SPEC_FILE, "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["game"] == "kings-dilemma"
    rows = {p["name"]: p for p in result["players"]}
    assert [p["name"] for p in result["players"]] == ["Ana", "Ben", "Chloe"]
    assert rows["Ana"]["breakdown"] == {"resources": 10, "wealth": 5, "open_agendas": 3,
                                        "power": 1}
    assert rows["Ben"]["total"] == 4 + 1 + 0 + 2
    assert rows["Chloe"]["breakdown"] == {"resources": 7, "wealth": 2, "open_agendas": 0,
                                          "power": 0}
    assert result["winners"] == ["Ana"]


def test_cli_human_table_names_the_winner(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, SPEC_FILE)
    assert code == 0 and "Winner: Ana" in out and "Total" in out


def test_cli_missing_player_and_missing_open_agendas_count_as_zero(tmp_path, capsys):
    text = SPEC_FILE.replace("coins: {Ana: 12, Ben: 7, Chloe: 7}", "coins: {Ana: 12, Ben: 7}")
    text = text.replace("open_agendas: {Ana: [+influence], Chloe: [-welfare, +knowledge]}", "")
    code, out, _ = run(tmp_path, capsys, text, "--json")
    rows = {p["name"]: p for p in json.loads(out)["players"]}
    assert code == 0 and rows["Chloe"]["breakdown"]["wealth"] == 1  # 0 coins: 3rd place
    assert rows["Ana"]["breakdown"]["open_agendas"] == 0


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("players: [Ana, Ben, Chloe]", "players: [Ana, Ben]", "players"),
        ("Ana: 12, Ben", "Ana: -1, Ben", "coins.Ana"),
        ("power: {Ana: 5,", "power: {Zoe: 5,", "power.Zoe"),
        ("wealth: [5, 3, 1]", "wealth: [5, 3]", "agendas.Ana.wealth"),
        ("{resources: 4, ", "{resources: four, ", "agendas.Ben.resources"),
        ("{resources: 4, ", "{resource: 4, ", "agendas.Ben.resource"),
        ("knowledge: 2}", "knowledge: high}", "resources.knowledge"),
        ("knowledge: 2}", "gold: 2}", "resources.gold"),
        ("[+influence]", "[influence]", "open_agendas.Ana.0"),
        ("[-welfare, +knowledge]", "[-welfare, +influence]", "open_agendas.Chloe.1"),
        ("[+influence]", "[+influence, +morale, +welfare]", "open_agendas.Ana.2"),
        ("open_agendas:", "open_agenda:", "open_agenda"),
    ],
)
def test_cli_invalid_file_exits_2_naming_the_field(tmp_path, capsys, old, new, field):
    assert old in SPEC_FILE
    code, out, err = run(tmp_path, capsys, SPEC_FILE.replace(old, new))
    assert code == 2 and out == ""
    assert f": {field}: " in err and "Traceback" not in err
