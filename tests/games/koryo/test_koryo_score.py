"""Koryŏ final scoring (the Koryŏ rulebook, "Final scoring") and
`companion score` on Koryŏ table files (docs/table-files.md)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.koryo import rules as koryo
from companion.games.majority.rules import Area


def score(cards, tokens=None, players=("Ana", "Ben", "Chloe")):
    return koryo.final_score(
        list(players), {p: Area.of(c) for p, c in cards.items()}, tokens or {}
    )


def totals(result):
    return {s.name: s.total for s in result.players}


# -- worked examples of the rulebook ------------------------------------------------------


def test_rulebook_merchants_2_3_4_only_the_4_scores_9():
    r = score({"Ana": {9: 2}, "Ben": {9: 3}, "Chloe": {9: 4}})
    assert totals(r) == {"Ana": 0, "Ben": 0, "Chloe": 9}
    assert r.holders[9] == "Chloe"


def test_rulebook_merchants_2_3_3_nobody_scores():
    r = score({"Ana": {9: 2}, "Ben": {9: 3}, "Chloe": {9: 3}})
    assert totals(r) == {"Ana": 0, "Ben": 0, "Chloe": 0}
    assert r.holders[9] is None


def test_rulebook_merchants_3_3_3_nobody_scores():
    r = score({"Ana": {9: 3}, "Ben": {9: 3}, "Chloe": {9: 3}})
    assert set(totals(r).values()) == {0}


def test_rulebook_3_barbarians_and_1_lobbying_cost_4():
    r = score({"Ana": {"barbarian": 3, "lobbying": 1}})
    assert r.players[0].events == -4 and r.players[0].total == -4


# -- the rest of the rule -------------------------------------------------------------------


def test_omniscient_never_breaks_a_tie_at_final_scoring():
    r = score({"Ana": {9: 3, 1: 1}, "Ben": {9: 3}})
    assert r.holders[9] is None
    assert totals(r)["Ana"] == 1  # only the Omniscient itself (family 1, worth 1)


def test_each_vp_token_is_worth_one():
    r = score({"Ana": {6: 1}}, tokens={"Ana": 3, "Ben": 2})
    assert totals(r) == {"Ana": 9, "Ben": 2, "Chloe": 0}


def test_every_family_scores_its_value_to_its_strict_holder():
    r = score({"Ana": {v: 1 for v in range(1, 10)}})
    assert r.players[0].families == tuple(range(1, 10)) and r.players[0].total == 45


def test_tied_players_share_the_victory():
    r = score({"Ana": {9: 1}, "Ben": {8: 1, 1: 1}})
    assert r.winners == ("Ana", "Ben")


def test_breakdown_adds_up_to_the_total():
    r = score({"Ana": {9: 2, 6: 3, "barbarian": 1}, "Ben": {9: 3, 1: 1}}, {"Ana": 2})
    for s in r.players:
        assert sum(s.breakdown().values()) == s.total


# -- properties -----------------------------------------------------------------------------


@st.composite
def tables(draw):
    """A legal end-of-game table: every card of the deck is either out of play or in front
    of one player; tokens likewise."""
    n = draw(st.integers(2, 4))
    names = [f"P{i}" for i in range(n)]
    counts = {p: {} for p in names}
    for kind, size in koryo.DECK.items():
        owners = draw(st.lists(st.sampled_from([None, *names]), min_size=size, max_size=size))
        for o in owners:
            if o is not None:
                counts[o][kind] = counts[o].get(kind, 0) + 1
    holders = draw(st.lists(st.sampled_from([None, *names]), min_size=8, max_size=8))
    tokens = {p: holders.count(p) for p in names}
    return names, {p: Area.of(c) for p, c in counts.items()}, tokens


@settings(max_examples=60)
@given(tables())
def test_at_most_one_scorer_per_family_and_never_a_tied_one(table):
    names, areas, tokens = table
    r = koryo.final_score(names, areas, tokens)
    for i, v in enumerate(range(1, 10)):
        scorers = [s.name for s in r.players if s.families[i]]
        assert len(scorers) <= 1
        for p in scorers:
            assert all(areas[p][v] > areas[q][v] for q in names if q != p)


@settings(max_examples=60)
@given(tables())
def test_totals_stay_within_the_decks_bounds(table):
    names, areas, tokens = table
    r = koryo.final_score(names, areas, tokens)
    assert sum(sum(s.families) for s in r.players) <= 45
    assert sum(s.tokens for s in r.players) <= koryo.VP_TOKENS
    for s in r.players:
        assert -10 <= s.total <= 45 + koryo.VP_TOKENS
        assert s.events == -areas[s.name].events


@settings(max_examples=60)
@given(tables(), st.integers(1, 3))
def test_rotating_the_seats_changes_no_score(table, shift):
    names, areas, tokens = table
    rotated = names[shift % len(names):] + names[: shift % len(names)]
    a = koryo.final_score(names, areas, tokens)
    b = koryo.final_score(rotated, areas, tokens)
    assert totals(a) == totals(b)
    assert set(a.winners) == set(b.winners)


# -- the command line ---------------------------------------------------------------------

SPEC_EXAMPLE = """\
game: koryo
players: [Ana, Ben, Chloe]      # 2–4
cards:                          # face-up cards in front of each player at the end
  Ana:   {9: 2, 6: 3, barbarian: 1}
  Ben:   {9: 3, 1: 1, lobbying: 2}
  Chloe: {9: 4}
tokens: {Ana: 2}                # optional: VP tokens held
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
    assert result["game"] == "koryo"
    assert [(p["name"], p["total"]) for p in result["players"]] == [
        ("Ana", 7), ("Ben", -1), ("Chloe", 9)
    ]
    assert result["winners"] == ["Chloe"]
    ana = result["players"][0]["breakdown"]
    assert ana["family_6"] == 6 and ana["events"] == -1 and ana["tokens"] == 2


def test_cli_text_shows_breakdown_and_winner(tmp_path, capsys):
    rc, out, _ = run(tmp_path, capsys, SPEC_EXAMPLE)
    assert rc == 0
    assert "9 Merchant" in out and "Winner: Chloe" in out
    assert "Total" in out and "Events" in out


def test_cli_shared_victory_is_named(tmp_path, capsys):
    text = "game: koryo\nplayers: [Ana, Ben]\ncards: {Ana: {9: 1}, Ben: {8: 1, 1: 1}}\n"
    rc, out, _ = run(tmp_path, capsys, text, "--json")
    assert rc == 0 and json.loads(out)["winners"] == ["Ana", "Ben"]


def test_cli_missing_blocks_and_players_count_as_zero(tmp_path, capsys):
    text = "game: koryo\nplayers: [Ana, Ben]\ncards: {Ana: {9: 1}}\n"
    rc, out, _ = run(tmp_path, capsys, text, "--json")
    assert rc == 0
    assert [p["total"] for p in json.loads(out)["players"]] == [9, 0]


INVALID = [
    ("deck total over two players",
     "cards: {Ana: {9: 5}, Ben: {9: 5}}", ":3: cards.Ben.9: 10 Merchants, but the deck has 9"),
    ("one player over the deck", "cards: {Ben: {9: 10}}",
     "cards.Ben.9: 10 Merchants, but the deck has 9"),
    ("too many barbarians", "cards: {Ana: {barbarian: 4}, Ben: {barbarian: 3}}",
     "cards.Ben.barbarian: 7 Barbarians, but the deck has 6"),
    ("too many lobbying", "cards: {Ana: {lobbying: 5}}",
     "cards.Ana.lobbying: 5 Lobbying, but the deck has 4"),
    ("family 10", "cards: {Ben: {10: 1}}", "cards.Ben.10: not a card of the game"),
    ("family 0", "cards: {Ben: {0: 1}}", "cards.Ben.0: not a card of the game"),
    ("family as text", "cards: {Ben: {'9': 1}}", "cards.Ben.9: write the family as a number"),
    ("unknown event", "cards: {Ben: {dragon: 1}}", "cards.Ben.dragon: not a card of the game"),
    ("negative count", "cards: {Ben: {9: -1}}", "cards.Ben.9: -1 is below the minimum 0"),
    ("count not a number", "cards: {Ben: {9: two}}", "cards.Ben.9: expected a whole number"),
    ("name not in players", "cards: {Dan: {9: 1}}", "cards.Dan: Dan is not one of the players"),
    ("cards not a mapping", "cards: [9, 9]", "cards: expected a mapping"),
    ("too many tokens", "cards: {}\ntokens: {Ana: 5, Ben: 4}",
     "tokens.Ben: 9 VP tokens, but the game has 8"),
    ("token name not in players", "cards: {}\ntokens: {Zed: 1}", "tokens.Zed: Zed is not one"),
    ("unknown key", "cards: {}\ntoken: {Ana: 1}", "token: unknown key"),
    ("missing cards", "", "cards: missing"),
]


@pytest.mark.parametrize(("what", "body", "message"), INVALID, ids=[i[0] for i in INVALID])
def test_cli_invalid_file_exits_2_naming_the_field(tmp_path, capsys, what, body, message):
    text = f"game: koryo\nplayers: [Ana, Ben]\n{body}\n"
    rc, out, err = run(tmp_path, capsys, text, "--json")
    assert rc == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("seats", ["[Ana]", "[A, B, C, D, E]", "[Ana, Ana]", "Ana"])
def test_cli_refuses_player_counts_outside_2_to_4(tmp_path, capsys, seats):
    rc, _, err = run(tmp_path, capsys, f"game: koryo\nplayers: {seats}\ncards: {{}}\n")
    assert rc == 2 and "players" in err
