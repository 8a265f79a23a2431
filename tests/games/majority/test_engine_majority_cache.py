"""The live majorities and end-of-round limits of Koryŏ and Chosŏn are computed once per
distinct table (a cache keyed on the players, the areas and, in Chosŏn, Yi's Shield): the
cached answers must be those of the rules as written, state after state of whole games."""

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.choson import rules as choson
from companion.games.choson.adapter import ChosonGame
from companion.games.koryo import rules as koryo
from companion.games.koryo.adapter import KoryoGame
from companion.games.majority.autoplay import next_action
from companion.games.majority.rules import FAMILY_VALUES, Area, limit, majority

PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]


def states(rules, seed: int, players: list[str]):
    """Every state of one autoplayed game, in order."""
    table = rules.initial({"players": players})
    rng = random.Random(seed)
    while rules.public_view(table)["final"] is None:
        table = rules.apply(table, next_action(rules, table, rng))
        yield table.state


def counts(state, family: int) -> dict[str, int]:
    return {p: state.area(p)[family] for p in state.players}


def koryo_rule(state: koryo.State, family: int):
    """The Koryŏ rulebook: strict majority; during the rounds the Omniscient holder wins ties."""
    omni = next((p for p in state.players if state.area(p)[koryo.OMNISCIENT]), None)
    return majority(family, counts(state, family), state.players, omni, "Omniscient")


def choson_rule(state: choson.State, family: int):
    """The Chosŏn rulebook: strict majority; Yi's Shield wins the tie of the family it is on."""
    shield = state.shield
    breaker = shield[0] if shield is not None and shield[1] == family else None
    return majority(family, counts(state, family), state.players, breaker, choson.SHIELD)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 4))
def test_koryo_cached_majorities_and_limits_equal_the_rules_in_every_state(seed, n):
    """Omniscient tie-break and the Senator's +2 limit, through whole autoplayed games."""
    for state in states(KoryoGame(), seed, PLAYERS[:n]):
        assert koryo.majorities(state) == {v: koryo_rule(state, v) for v in FAMILY_VALUES}
        for check in koryo.limit_check(state):
            area = state.area(check.player)
            senator = koryo_rule(state, koryo.SENATOR).holder == check.player
            assert check.limit == limit(state.round) + (2 if senator else 0)
            assert check.limit == koryo.round_limit(state, check.player)
            assert check.counted == area.total
            assert check.excess == min(area.characters, max(0, area.total - check.limit))


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 4))
def test_choson_cached_majorities_equal_the_rules_in_every_state(seed, n):
    """Yi's Shield tie-break, through whole autoplayed games."""
    for state in states(ChosonGame(), seed, PLAYERS[:n]):
        assert choson.majorities(state) == {v: choson_rule(state, v) for v in FAMILY_VALUES}


def test_koryo_same_areas_other_round_gives_the_round_limit():
    """The limit cache is keyed on the round too: same cards, round 2 then round 5."""
    areas = (Area.of({9: 4, 3: 2}), Area.of({9: 3, 8: 2}))
    state = replace(koryo.new_game(["Ana", "Ben"]), areas=areas, round=2)
    assert [c.limit for c in koryo.limit_check(state)] == [4 + 2, 4]
    later = replace(state, round=5)
    assert [c.limit for c in koryo.limit_check(later)] == [7 + 2, 7]


def test_choson_same_areas_shield_moved_changes_the_tie():
    """The cache is keyed on Yi's Shield: the same tied cards, the shield on, then off."""
    areas = (Area.of({5: 2, 9: 1}), Area.of({5: 2, 9: 1}))
    bare = replace(choson.new_game(["Ana", "Ben"]), areas=areas)
    assert choson.holder(bare, 5) is None
    shielded = replace(bare, shield=("Ben", 5))
    assert choson.holder(shielded, 5) == "Ben"
    assert choson.holder(replace(bare, shield=("Ana", 5)), 5) == "Ana"
    assert choson.holder(replace(bare, shield=("Ana", 9)), 5) is None
