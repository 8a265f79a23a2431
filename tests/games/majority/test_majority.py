"""The majority rule shared by Koryŏ and Chosŏn (the Koryŏ and Chosŏn rulebooks, "Majority")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.majority.rules import (
    Area,
    best,
    check_deck,
    leaders,
    majority,
    scoring_holders,
)
from companion.play.errors import RuleError

ORDER = ["Ana", "Ben", "Chloe"]


def test_strict_majority_goes_to_the_single_top_count():
    m = majority(9, {"Ana": 2, "Ben": 3, "Chloe": 4}, ORDER)
    assert (m.holder, m.count, m.tied, m.tie_breaker) == ("Chloe", 4, (), None)


def test_tie_gives_the_majority_to_nobody_without_tie_breaker():
    m = majority(9, {"Ana": 2, "Ben": 3, "Chloe": 3}, ORDER)
    assert m.holder is None and m.tied == ("Ben", "Chloe")


def test_tie_breaker_wins_a_tie_it_is_part_of():
    m = majority(7, {"Ana": 2, "Ben": 2, "Chloe": 2}, ORDER, "Chloe", "Omniscient")
    assert (m.holder, m.tie_breaker, m.tied) == ("Chloe", "Omniscient", ("Ana", "Ben", "Chloe"))


def test_tie_breaker_outside_the_tie_changes_nothing():
    m = majority(7, {"Ana": 3, "Ben": 3, "Chloe": 1}, ORDER, "Chloe", "Omniscient")
    assert m.holder is None and m.tie_breaker is None


def test_nobody_holds_a_family_nobody_has():
    assert majority(5, {}, ORDER).holder is None
    assert leaders({"Ana": 0}, ORDER) == ()


def test_scoring_holders_ignore_ties():
    areas = {"Ana": Area.of({1: 1, 9: 3}), "Ben": Area.of({9: 3}), "Chloe": Area()}
    holders = scoring_holders(areas, ORDER)
    assert holders[9] is None and holders[1] == "Ana" and holders[5] is None


def test_best_lists_every_player_on_the_top_total_in_seat_order():
    assert best({"Ana": 5, "Ben": 7, "Chloe": 7}, ORDER) == ("Ben", "Chloe")


def test_deck_bound_names_the_last_holder_and_the_total():
    areas = {"Ana": Area.of({9: 5}), "Ben": Area.of({9: 5}), "Chloe": Area()}
    with pytest.raises(RuleError) as exc:
        check_deck(areas, ORDER, {9: 9}, lambda k, n: "Merchants")
    assert exc.value.field == "cards.Ben.9"
    assert exc.value.message == "10 Merchants, but the deck has 9"


def test_deck_bound_accepts_the_whole_deck_in_play():
    areas = {"Ana": Area.of({9: 4}), "Ben": Area.of({9: 5})}
    check_deck(areas, ["Ana", "Ben"], {9: 9}, lambda k, n: "Merchants")


def test_area_refuses_to_remove_a_card_that_is_not_there():
    with pytest.raises(ValueError):
        Area.of({3: 1}).add(3, -2)


@given(st.dictionaries(st.sampled_from([1, 2, 9, "barbarian", "event"]), st.integers(0, 9)))
def test_area_round_trips_through_its_dict(counts):
    area = Area.of(counts)
    assert Area.from_dict(area.to_dict()) == area
    assert area.total == sum(counts.values())


@given(st.lists(st.integers(0, 5), min_size=2, max_size=4), st.data())
def test_at_most_one_holder_and_it_strictly_beats_everyone(counts, data):
    names = [f"P{i}" for i in range(len(counts))]
    by_name = dict(zip(names, counts, strict=True))
    breaker = data.draw(st.sampled_from([None, *names]))
    m = majority(1, by_name, names, breaker, "X")
    if m.holder is not None and m.tie_breaker is None:
        assert all(by_name[m.holder] > by_name[p] for p in names if p != m.holder)
    if m.tie_breaker is not None:
        assert m.holder == breaker and m.holder in m.tied


def test_engines_stay_pure():
    """The games' rules (companion/games/*/rules.py) import no yaml, pygame, gpiozero, serial
    or sqlite3."""
    import subprocess
    import sys

    code = (
        "import sys, companion.games.koryo.rules, companion.games.choson.rules\n"
        "bad = {'yaml', 'pygame', 'gpiozero', 'serial', 'sqlite3'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
