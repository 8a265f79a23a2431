"""Chosŏn final scoring (the Chosŏn rulebook, "Final scoring") and
`companion score` on Chosŏn table files (docs/table-files.md)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.choson import rules as choson
from companion.games.majority.rules import Area

NAMES = ["Ana", "Ben", "Chloe"]


def score(cards, tokens=None, kept=None, first="Ana", legacy=None, players=NAMES):
    return choson.final_score(
        list(players), {p: Area.of(c) for p, c in cards.items()}, tokens or {}, kept or {},
        first, legacy,
    )


def totals(result):
    return {s.name: s.total for s in result.players}


# -- worked examples of the rulebook ------------------------------------------------------


def test_rulebook_watchers_2_3_4_only_the_4_scores_9():
    r = score({"Ana": {9: 2}, "Ben": {9: 3}, "Chloe": {9: 4}}, first="Ana")
    assert totals(r) == {"Ana": 2, "Ben": 0, "Chloe": 9}


def test_rulebook_watchers_3_3_nobody_scores():
    r = score({"Ana": {9: 2}, "Ben": {9: 3}, "Chloe": {9: 3}}, first="Ana")
    assert r.holders[9] is None and totals(r) == {"Ana": 2, "Ben": 0, "Chloe": 0}


def test_rulebook_scientists_1_1_3_majority_example_counts_for_scoring_too():
    r = score({"Ana": {6: 1}, "Ben": {6: 1}, "Chloe": {6: 3}}, first="Ben")
    assert r.holders[6] == "Chloe"


def test_rulebook_scientists_1_2_2_tie_gives_nobody():
    r = score({"Ana": {6: 1}, "Ben": {6: 2}, "Chloe": {6: 2}}, first="Ben")
    assert r.holders[6] is None


@pytest.mark.parametrize("points", [1, 5, 10])
def test_rulebook_yis_legacy_doubles_1_to_10_points(points):
    r = score({}, tokens={"Ben": points}, first="Ana", legacy="Ben")
    assert totals(r)["Ben"] == 2 * points and r.players[1].yi_legacy == points


@pytest.mark.parametrize(("players", "bonus"), [(4, 3), (3, 4), (2, 5)])
def test_rulebook_yis_legacy_above_10_adds_3_4_5_for_4_3_2_players(players, bonus):
    names = ["Ana", "Ben", "Chloe", "Dan"][:players]
    r = score({"Ben": {9: 1, 2: 1}}, first="Ana", legacy="Ben", players=names)
    assert totals(r)["Ben"] == 11 + bonus


def test_rulebook_yis_legacy_at_0_points_gives_nothing():
    r = score({}, first="Ana", legacy="Ben")
    assert totals(r)["Ben"] == 0 and r.players[1].yi_legacy == 0


def test_legacy_bonus_rule_table():
    assert [choson.legacy_bonus(p, 3) for p in (-2, 0, 1, 10, 11, 40)] == [0, 0, 1, 10, 4, 4]


def test_rulebook_first_player_token_is_worth_two_and_kept_events_one_each():
    r = score({}, tokens={"Ana": 1}, kept={"Ben": 2}, first="Chloe")
    assert totals(r) == {"Ana": 1, "Ben": 2, "Chloe": 2}


def test_yis_legacy_applies_after_the_first_player_bonus():
    r = score({"Ana": {3: 1}}, first="Ana", legacy="Ana")  # 3 + 2 = 5 → doubled
    assert totals(r)["Ana"] == 10


def test_rulebook_win_tie_goes_to_the_player_controlling_the_lowest_family():
    # Ana: Yi (1) + Time Traveller (8) = 9; Ben: Watchers (9) — tie at 9, Ana holds family 1.
    r = score({"Ana": {1: 1, 8: 1}, "Ben": {9: 1}}, first="Chloe")
    assert totals(r)["Ana"] == totals(r)["Ben"] == 9
    assert r.tied == ("Ana", "Ben") and r.winners == ("Ana",) and r.tie_break_family == 1


def test_ruling_win_tie_without_any_family_is_shared():
    r = score({}, tokens={"Ana": 2, "Ben": 2}, first="Chloe")
    assert r.winners == ("Ana", "Ben", "Chloe") and r.tie_break_family is None


def test_tie_break_ignores_families_held_by_players_not_in_the_tie():
    r = score({"Ana": {9: 1}, "Ben": {4: 1, 5: 1}, "Chloe": {1: 1}}, first="Chloe")
    assert r.tied == ("Ana", "Ben") and r.winners == ("Ben",) and r.tie_break_family == 4


def test_breakdown_adds_up_to_the_total():
    r = score({"Ana": {9: 2, 1: 1}, "Ben": {8: 3}}, {"Ben": 3}, {"Ana": 1}, "Ben", "Chloe")
    for s in r.players:
        assert sum(s.breakdown().values()) == s.total


# -- properties -----------------------------------------------------------------------------


@st.composite
def tables(draw):
    n = draw(st.integers(2, 4))
    names = [f"P{i}" for i in range(n)]
    counts = {p: {} for p in names}
    for v in range(1, 10):
        owners = draw(st.lists(st.sampled_from([None, *names]), min_size=v, max_size=v))
        for o in owners:
            if o is not None:
                counts[o][v] = counts[o].get(v, 0) + 1
    tok = draw(st.lists(st.sampled_from([None, *names]), min_size=10, max_size=10))
    ev = draw(st.lists(st.sampled_from([None, *names]), min_size=10, max_size=10))
    first = draw(st.sampled_from(names))
    legacy = draw(st.sampled_from([None, *names]))
    return (names, {p: Area.of(c) for p, c in counts.items()},
            {p: tok.count(p) for p in names}, {p: ev.count(p) for p in names}, first, legacy)


@settings(max_examples=60)
@given(tables())
def test_at_most_one_scorer_per_family_and_never_a_tied_one(table):
    names, areas, *_ = table
    r = choson.final_score(*table)
    for i, v in enumerate(range(1, 10)):
        scorers = [s.name for s in r.players if s.families[i]]
        assert len(scorers) <= 1
        for p in scorers:
            assert all(areas[p][v] > areas[q][v] for q in names if q != p)


@settings(max_examples=60)
@given(tables())
def test_totals_stay_within_the_decks_bounds(table):
    r = choson.final_score(*table)
    assert sum(sum(s.families) for s in r.players) <= 45
    for s in r.players:
        assert 0 <= s.yi_legacy <= max(10, 5)
        assert 0 <= s.total <= 2 * (45 + 10 + 10 + 2)


@settings(max_examples=60)
@given(tables(), st.integers(1, 3))
def test_rotating_the_seats_changes_no_score(table, shift):
    names, *rest = table
    k = shift % len(names)
    a = choson.final_score(*table)
    b = choson.final_score(names[k:] + names[:k], *rest)
    assert totals(a) == totals(b)
    assert set(a.winners) == set(b.winners)


@settings(max_examples=60)
@given(tables())
def test_a_tie_break_winner_controls_the_lowest_family_of_the_tied(table):
    r = choson.final_score(*table)
    if len(r.winners) == 1 and len(r.tied) > 1:
        (w,) = r.winners
        assert r.holders[r.tie_break_family] == w
        assert all(r.holders[v] not in r.tied for v in range(1, r.tie_break_family))


# -- the command line ---------------------------------------------------------------------

SPEC_EXAMPLE = """\
game: choson
players: [Ana, Ben, Chloe]
cards: {Ana: {9: 2, 1: 1}, Ben: {8: 3}, Chloe: {9: 4}}   # characters only
kept_events: {Ana: 1}           # optional: events kept through the Gosu power
tokens: {Ben: 3}                # optional: VP tokens (10 in the game)
first_player: Ben               # holder of the first-player token at the end
yi_legacy: Chloe                # optional: holder of Yi's Legacy
"""


def run(tmp_path, capsys, text, *extra):
    f = tmp_path / "table.yaml"
    f.write_text(text, encoding="utf-8")
    rc = main(["score", str(f), *extra])
    out, err = capsys.readouterr()
    return rc, out, err


def test_cli_json_follows_the_contract(tmp_path, capsys):
    rc, out, err = run(tmp_path, capsys, SPEC_EXAMPLE, "--json")
    assert rc == 0 and err == ""
    result = json.loads(out)
    assert result["game"] == "choson"
    # Ana: Yi 1 + 1 kept event = 2; Ben: 8 + 3 tokens + 2 first player = 13;
    # Chloe: 9 Watchers, doubled by Yi's Legacy = 18.
    assert [(p["name"], p["total"]) for p in result["players"]] == [
        ("Ana", 2), ("Ben", 13), ("Chloe", 18)
    ]
    assert result["winners"] == ["Chloe"]
    assert result["players"][2]["breakdown"]["yi_legacy"] == 9


def test_cli_text_explains_a_tie_break(tmp_path, capsys):
    text = ("game: choson\nplayers: [Ana, Ben]\ncards: {Ana: {1: 1, 8: 1}, Ben: {9: 1}}\n"
            "first_player: Ben\ntokens: {Ana: 2}\n")
    rc, out, _ = run(tmp_path, capsys, text)
    assert rc == 0
    assert "Winner: Ana" in out and "Tie between Ana, Ben" in out and "1 Yi" in out


def test_cli_yi_legacy_may_be_null(tmp_path, capsys):
    text = "game: choson\nplayers: [Ana, Ben]\ncards: {}\nfirst_player: Ben\nyi_legacy: null\n"
    rc, out, _ = run(tmp_path, capsys, text, "--json")
    assert rc == 0 and json.loads(out)["winners"] == ["Ben"]


INVALID = [
    ("deck total", "cards: {Ana: {8: 5}, Ben: {8: 4}}\nfirst_player: Ana",
     "cards.Ben.8: 9 Time Travellers, but the deck has 8"),
    ("two Yi", "cards: {Ana: {1: 2}}\nfirst_player: Ana", "cards.Ana.1: 2 Yi, but the deck has 1"),
    ("event in cards", "cards: {Ana: {event: 1}}\nfirst_player: Ana",
     "cards.Ana.event: not a card of the game"),
    ("family 10", "cards: {Ben: {10: 1}}\nfirst_player: Ana", "cards.Ben.10:"),
    ("missing first player", "cards: {}", "first_player: missing"),
    ("first player not seated", "cards: {}\nfirst_player: Zed", "first_player: 'Zed' is not"),
    ("legacy not seated", "cards: {}\nfirst_player: Ana\nyi_legacy: Zed", "yi_legacy: 'Zed'"),
    ("too many kept events", "cards: {}\nfirst_player: Ana\nkept_events: {Ana: 6, Ben: 5}",
     "kept_events.Ben: 11 events, but the deck has 10"),
    ("too many tokens", "cards: {}\nfirst_player: Ana\ntokens: {Ana: 11}",
     "tokens.Ana: 11 VP tokens, but the game has 10"),
    ("negative tokens", "cards: {}\nfirst_player: Ana\ntokens: {Ana: -1}", "tokens.Ana: -1"),
    ("unknown key", "cards: {}\nfirst_player: Ana\nshield: 3", "shield: unknown key"),
]


@pytest.mark.parametrize(("what", "body", "message"), INVALID, ids=[i[0] for i in INVALID])
def test_cli_invalid_file_exits_2_naming_the_field(tmp_path, capsys, what, body, message):
    text = f"game: choson\nplayers: [Ana, Ben]\n{body}\n"
    rc, out, err = run(tmp_path, capsys, text, "--json")
    assert rc == 2 and out == ""
    assert message in err and "Traceback" not in err
