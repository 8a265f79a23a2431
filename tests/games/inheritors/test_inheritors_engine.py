"""Inheritors final scoring engine (the Inheritors rulebook, "Final scoring",
« V. Décompte final »)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.inheritors import rules as inheritors
from companion.games.inheritors.rules import PlayerEnd
from companion.play.errors import RuleError

COLOURS = ("yellow", "purple", "blue", "red", "green")


def score(*players):
    return inheritors.final_score(players, COLOURS)


def totals(result):
    return {s.name: s.total for s in result.players}


def part(result, name, key):
    return {s.name: s for s in result.players}[name].breakdown()[key]


# -- 1. influence ---------------------------------------------------------------------------


def test_influence_is_the_sum_of_the_top_card_of_each_colour_stack():
    r = score(PlayerEnd("Ana", {"yellow": 4, "purple": 2, "blue": 6}), PlayerEnd("Ben"))
    assert part(r, "Ana", "influence") == 12 and part(r, "Ben", "influence") == 0


# -- 2. tomes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tomes", "points"),
    [
        ((3, 1, 0), (3, 1, 0)),  # most 3, second 1
        ((2, 2, 1), (3, 3, 0)),  # first place tied: no second place
        ((3, 1, 1), (3, 1, 1)),  # second place tied: each scores 1
        ((3, 0, 0), (3, 0, 0)),  # a player with no tome scores nothing (ruling)
        ((0, 0, 0), (0, 0, 0)),  # nobody has a tome: nobody scores
        ((4, 2, 1), (3, 1, 0)),  # third place scores nothing
        ((1, 1, 1), (3, 3, 3)),  # everybody tied first
    ],
)
def test_tomes_most_3_second_1_ties_share_the_rank_first_tie_cancels_second(tomes, points):
    names = ("Ana", "Ben", "Chloe")
    r = score(*(PlayerEnd(n, tomes=t) for n, t in zip(names, tomes, strict=True)))
    assert tuple(part(r, n, "tomes") for n in names) == points


# -- 3. relics ------------------------------------------------------------------------------


def test_relic_scores_1_when_its_holder_played_the_highest_card_of_its_colour():
    r = score(PlayerEnd("Ana", {"red": 5}, relics=("red",)), PlayerEnd("Ben", {"red": 4}))
    assert part(r, "Ana", "relics") == 1


def test_relic_tie_for_the_highest_card_counts_as_highest():
    r = score(PlayerEnd("Ana", {"red": 5}, relics=("red",)), PlayerEnd("Ben", {"red": 5}))
    assert part(r, "Ana", "relics") == 1


def test_relic_costs_1_when_another_player_played_higher():
    r = score(PlayerEnd("Ana", {"red": 3}, relics=("red",)), PlayerEnd("Ben", {"red": 4}))
    assert part(r, "Ana", "relics") == -1


def test_relic_costs_1_when_its_holder_played_no_card_of_its_colour():
    r = score(PlayerEnd("Ana", relics=("red",)), PlayerEnd("Ben"))
    assert part(r, "Ana", "relics") == -1


def test_relics_count_one_by_one():
    r = score(
        PlayerEnd("Ana", {"red": 6, "blue": 1}, relics=("red", "blue", "green")),
        PlayerEnd("Ben", {"blue": 2}),
    )
    assert part(r, "Ana", "relics") == 1 - 1 - 1


# -- 4. quests, 5. honors, clan bonus --------------------------------------------------------


def test_quests_score_2_fulfilled_1_not():
    r = score(PlayerEnd("Ana", quests=(2, 1, 1)), PlayerEnd("Ben", quests=(2,)))
    assert part(r, "Ana", "quests") == 4 and part(r, "Ben", "quests") == 2


def test_honors_score_1_each_and_the_clan_bonus_counts_as_entered():
    r = score(PlayerEnd("Ana", honors=3), PlayerEnd("Ben", bonus=-2))
    assert part(r, "Ana", "honors") == 3 and part(r, "Ben", "bonus") == -2
    assert totals(r) == {"Ana": 3, "Ben": -2}


def test_total_adds_every_part():
    r = score(
        PlayerEnd("Ana", {"yellow": 4, "purple": 2}, tomes=2, relics=("yellow",), quests=(2, 1),
                  honors=2),
        PlayerEnd("Ben", {"yellow": 3, "blue": 6}, tomes=1, bonus=1),
    )
    # Ana: 6 influence + 3 tomes + 1 relic + 3 quests + 2 honors; Ben: 9 + 1 tome + 1 bonus.
    assert totals(r) == {"Ana": 15, "Ben": 11} and r.winners == ("Ana",)


# -- the win and its tie-break --------------------------------------------------------------


def test_highest_total_wins_without_tie_break():
    r = score(PlayerEnd("Ana", {"red": 6}), PlayerEnd("Ben", {"red": 5}, hand=9))
    assert r.winners == ("Ana",) and r.tied == ("Ana",) and r.decided_by is None


def test_tie_break_level_1_most_tomes_in_hand_wins():
    # Ana 6 + 3 (tomes) = 9; Ben 8 + 1 (second in tomes) = 9.
    r = score(PlayerEnd("Ana", {"red": 6}, tomes=2, hand=2),
              PlayerEnd("Ben", {"red": 3, "blue": 5}, tomes=1, hand=9))
    assert totals(r) == {"Ana": 9, "Ben": 9}
    assert r.winners == ("Ana",) and r.decided_by == inheritors.BY_TOMES


def test_tie_break_level_2_same_tomes_most_cards_in_hand_wins():
    r = score(PlayerEnd("Ana", {"red": 4}, tomes=1, hand=3),
              PlayerEnd("Ben", {"blue": 4}, tomes=1, hand=5), PlayerEnd("Chloe"))
    assert totals(r)["Ana"] == totals(r)["Ben"] == 7
    assert r.winners == ("Ben",) and r.decided_by == inheritors.BY_HAND


def test_tie_break_level_2_hand_not_given_counts_as_zero_cards():
    r = score(PlayerEnd("Ana", {"red": 4}), PlayerEnd("Ben", {"blue": 4}, hand=1))
    assert r.winners == ("Ben",) and r.decided_by == inheritors.BY_HAND


def test_tie_break_level_3_same_tomes_and_hand_is_a_shared_victory():
    r = score(PlayerEnd("Ana", {"red": 4}, hand=3), PlayerEnd("Ben", {"blue": 4}, hand=3),
              PlayerEnd("Chloe", {"green": 4}, hand=2))
    assert r.tied == ("Ana", "Ben", "Chloe")
    assert r.winners == ("Ana", "Ben") and r.decided_by == inheritors.SHARED


def test_tie_break_looks_only_at_the_players_tied_on_the_total():
    # Chloe has the most tomes and cards but scores less: she does not take part.
    r = score(PlayerEnd("Ana", {"red": 6}, hand=1), PlayerEnd("Ben", {"blue": 6}, hand=2),
              PlayerEnd("Chloe", tomes=1, hand=8))
    assert r.tied == ("Ana", "Ben") and r.winners == ("Ben",)


# -- validation -----------------------------------------------------------------------------


def refused(*players):
    with pytest.raises(RuleError) as exc:
        score(*players)
    return f"{exc.value.field}: {exc.value.message}"


@pytest.mark.parametrize("value", [0, 7, -1])
def test_refuses_influence_values_outside_1_to_6(value):
    assert refused(PlayerEnd("Ana", {"red": value}), PlayerEnd("Ben")).startswith(
        f"stacks.Ana.red: {value} is not an Influence card (values 1–6)")


def test_refuses_a_colour_not_of_the_game():
    assert refused(PlayerEnd("Ana"), PlayerEnd("Ben", {"orange": 2})).startswith(
        "stacks.Ben.orange: 'orange' is not a colour of the game")


def test_refuses_a_fifth_colour_with_2_players():
    four = {"yellow": 1, "purple": 1, "blue": 1}
    assert refused(PlayerEnd("Ana", four), PlayerEnd("Ben", {"red": 2, "green": 3})) == (
        "stacks.Ben.green: 5 colours (yellow, purple, blue, red, green), "
        "but a 2-player game has 4")


def test_a_relic_counts_as_a_colour_in_the_game():
    four = {"yellow": 1, "purple": 1, "blue": 1, "red": 1}
    assert refused(PlayerEnd("Ana", four), PlayerEnd("Ben", relics=("green",))).startswith(
        "relics.Ben.0: 5 colours")


def test_five_colours_are_allowed_with_3_players():
    five = {c: 1 for c in COLOURS}
    r = score(PlayerEnd("Ana", five), PlayerEnd("Ben"), PlayerEnd("Chloe"))
    assert part(r, "Ana", "influence") == 5


def test_refuses_more_colours_than_the_box_has():
    six = (*COLOURS, "orange")
    with pytest.raises(RuleError, match="'orange' is not a colour"):
        inheritors.final_score(
            [PlayerEnd("Ana", {c: 1 for c in six}), PlayerEnd("Ben"), PlayerEnd("Chloe")],
            COLOURS,
        )


def test_refuses_a_relic_held_twice():
    assert refused(PlayerEnd("Ana", relics=("red",)), PlayerEnd("Ben", relics=("red",))) == (
        "relics.Ben.0: there is one red relic, and Ana already holds it")


@pytest.mark.parametrize("value", [0, 3, True, "2"])
def test_refuses_a_quest_value_other_than_1_or_2(value):
    assert refused(PlayerEnd("Ana", quests=(2, value)), PlayerEnd("Ben")).startswith(
        "quests.Ana.1: a quest is worth 2 (fulfilled) or 1 (not)")


def test_refuses_more_quests_than_laid_out_4_with_2_players():
    assert refused(PlayerEnd("Ana", quests=(2, 2, 1)), PlayerEnd("Ben", quests=(1, 1))) == (
        "quests.Ben: 5 quests, but the game lays out 4")


def test_five_quests_and_honors_with_3_players():
    r = score(PlayerEnd("Ana", quests=(2, 2, 1), honors=3), PlayerEnd("Ben", quests=(1, 1)),
              PlayerEnd("Chloe", honors=2))
    assert totals(r) == {"Ana": 8, "Ben": 2, "Chloe": 2}


def test_refuses_more_honors_than_laid_out():
    assert refused(PlayerEnd("Ana", honors=4), PlayerEnd("Ben", honors=2),
                   PlayerEnd("Chloe")) == "honors.Ben: 6 honors, but the game lays out 5"


def test_refuses_more_tomes_than_the_game_has():
    assert refused(PlayerEnd("Ana", tomes=6), PlayerEnd("Ben", tomes=4)) == (
        "tomes.Ben: 10 Tome and Legend cards, but the game has 9")


def test_refuses_fewer_cards_in_hand_than_tomes_and_relics_held():
    assert refused(PlayerEnd("Ana", {"red": 2}, tomes=2, relics=("red",), hand=2),
                   PlayerEnd("Ben")) == (
        "hand.Ana: 2 cards in hand, but 2 tomes and 1 relic are held in hand")


@pytest.mark.parametrize("n", [1, 5])
def test_refuses_player_counts_outside_2_to_4(n):
    assert refused(*(PlayerEnd(f"P{i}") for i in range(n))) == (
        f"players: {n} {'player' if n == 1 else 'players'}, but Inheritors takes 2–4")


def test_refuses_a_player_seated_twice():
    assert refused(PlayerEnd("Ana"), PlayerEnd("Ana")) == "players: a player is seated twice"


def test_refuses_negative_counts_and_non_numbers():
    assert refused(PlayerEnd("Ana", honors=-1), PlayerEnd("Ben")).startswith("honors.Ana: -1")
    assert refused(PlayerEnd("Ana", tomes=-1), PlayerEnd("Ben")).startswith("tomes.Ana: -1")
    assert refused(PlayerEnd("Ana", bonus=1.5), PlayerEnd("Ben")).startswith("bonus.Ana:")
    assert refused(PlayerEnd("Ana", {"red": "6"}), PlayerEnd("Ben")).startswith("stacks.Ana.red")


# -- properties -----------------------------------------------------------------------------


@st.composite
def tables(draw):
    n = draw(st.integers(2, 4))
    names = [f"P{i}" for i in range(n)]
    game_colours = COLOURS[: inheritors.colours_in_game(n)]
    relic_owner = {c: draw(st.sampled_from([None, *names])) for c in game_colours}
    quests = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from([1, 2])),
                           max_size=inheritors.rows_in_game(n)))
    honors = draw(st.lists(st.sampled_from(names), max_size=inheritors.rows_in_game(n)))
    tomes = draw(st.lists(st.sampled_from(names), max_size=inheritors.TOMES_IN_GAME))
    players = []
    for p in names:
        stacks = draw(st.dictionaries(st.sampled_from(game_colours), st.integers(1, 6)))
        relics = tuple(c for c, o in relic_owner.items() if o == p)
        held = tomes.count(p) + len(relics)
        players.append(PlayerEnd(
            p, stacks, tomes.count(p), draw(st.one_of(st.none(), st.integers(held, held + 5))),
            relics, tuple(v for o, v in quests if o == p), honors.count(p),
            draw(st.integers(-3, 5)),
        ))
    return players


@settings(max_examples=150, deadline=None)
@given(tables())
def test_property_breakdown_adds_up_and_winners_have_the_best_total(players):
    r = inheritors.final_score(players, COLOURS)
    best = max(s.total for s in r.players)
    for s in r.players:
        assert sum(s.breakdown().values()) == s.total
    assert r.winners and set(r.winners) <= set(r.tied)
    assert all(totals(r)[w] == best for w in r.winners)
    assert set(r.tied) == {s.name for s in r.players if s.total == best}


@settings(max_examples=150, deadline=None)
@given(tables())
def test_property_tie_break_winners_lead_on_tomes_then_hand(players):
    r = inheritors.final_score(players, COLOURS)
    by = {p.name: p for p in players}
    top_tomes = max(by[n].tomes for n in r.tied)
    assert all(by[w].tomes == top_tomes for w in r.winners)
    contenders = [n for n in r.tied if by[n].tomes == top_tomes]
    top_hand = max(by[n].hand or 0 for n in contenders)
    assert all((by[w].hand or 0) == top_hand for w in r.winners)
    assert len(r.winners) == len([n for n in contenders if (by[n].hand or 0) == top_hand])


@settings(max_examples=150, deadline=None)
@given(tables())
def test_property_tome_points_3_to_the_most_at_most_one_rank_of_1(players):
    r = inheritors.final_score(players, COLOURS)
    pts = {s.name: s.tomes for s in r.players}
    tomes = {p.name: p.tomes for p in players}
    assert all(pts[n] == 0 for n in tomes if tomes[n] == 0)
    if any(tomes.values()):
        most = max(tomes.values())
        assert {n for n in tomes if pts[n] == 3} == {n for n in tomes if tomes[n] == most}
        ones = {tomes[n] for n in tomes if pts[n] == 1}
        assert len(ones) <= 1
        if list(tomes.values()).count(most) > 1:
            assert not ones


@settings(max_examples=150, deadline=None)
@given(tables())
def test_property_each_relic_is_worth_plus_or_minus_1(players):
    r = inheritors.final_score(players, COLOURS)
    for p, s in zip(players, r.players, strict=True):
        assert abs(s.relics) <= len(p.relics) and (s.relics - len(p.relics)) % 2 == 0


def test_engine_stays_pure():
    """companion.games.inheritors.rules imports no yaml, pygame, gpiozero, serial or sqlite3: the
    colours come in as an argument."""
    import subprocess
    import sys

    code = (
        "import sys, companion.games.inheritors.rules\n"
        "bad = {'yaml', 'pygame', 'gpiozero', 'serial', 'sqlite3'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
