"""Chosŏn in-game engine (the Chosŏn rulebook): time travel, the four
combinations, 'comes into play' effects, ripostes, Yi's Shield, majority powers, limit."""

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.choson import rules as c
from companion.games.majority.rules import (
    Area,
    Destroy,
    Discard,
    EndRound,
    EndTurn,
    Reveal,
    StartRound,
    Swap,
    deal,
    limit,
)
from companion.play.errors import RuleError

NAMES = ("Ana", "Ben", "Chloe")


def table(areas=None, tokens=None, first="Ana", round_no=0, phase=c.SETUP, shield=None,
          kept=None):
    areas, tokens, kept = areas or {}, tokens or {}, kept or {}
    return c.State(
        players=NAMES,
        areas=tuple(Area.of(areas.get(p, {})) for p in NAMES),
        tokens=tuple(tokens.get(p, 0) for p in NAMES),
        kept_events=tuple(kept.get(p, 0) for p in NAMES),
        first=NAMES.index(first), round=round_no, phase=phase, shield=shield,
    )


def start(state):
    return c.apply(state, StartRound())


def reveal(state, cards, player="Ana"):
    return c.apply(state, Reveal(player, Area.of(cards)))


def refused(state, action, field=None, words=""):
    with pytest.raises(RuleError) as exc:
        c.apply(state, action)
    if field is not None:
        assert exc.value.field == field
    assert words in exc.value.message


def codes(state):
    return {(p.player, p.code, p.family): p for p in c.powers(state)}


# -- rounds and time travel -----------------------------------------------------------------


def test_new_game_has_10_vp_tokens_in_the_bank():
    assert c.new_game(NAMES).bank == 10
    with pytest.raises(RuleError):
        c.new_game(["Ana"])


@pytest.mark.parametrize("r", range(1, 9))
def test_season_deal_and_character_limit(r):
    assert (deal(r), limit(r)) == (11 - r, r + 2)


def test_a_round_opens_with_the_time_travel_phase():
    """The phase waits for the Time Traveller majority; with none, it is over at once."""
    s = start(table({"Ben": {8: 1}}))
    assert (s.phase, s.current_player) == (c.TIME_TRAVEL, "Ben")
    assert start(table()).phase == c.ORDERS


def test_time_travel_phase_is_settled_before_any_turn_power():
    """The Chosŏn rulebook, "Ronde de jeu": « La ronde de jeu se décompose en cinq phases
    successives » — I « Phase de voyage dans le temps » comes before IV « Phase principale »,
    where the Yi and Oracle powers belong ("NOTA : les effets se déclenchant pendant le tour
    d'un joueur … « Yi »(#1), « Oracle »(#3)"). Nothing of phase 4 is offered or accepted
    while the Time Traveller has not decided, and using it cannot shut phase 1."""
    s = start(table({"Ana": {1: 2, 3: 1, 7: 1, 5: 1}, "Ben": {8: 2}}, first="Ana"))
    assert [(p.player, p.code) for p in c.powers(s)] == [("Ben", "time_travel")]
    refused(s, c.MoveShield("Ana", 5), "phase", "Ben decides on time travel first")
    refused(s, c.TakeVP("Ana", c.ORACLE), "phase")
    refused(s, Reveal("Ana", Area.of({9: 1})), "phase")
    refused(s, EndTurn("Ana"), "phase")
    s = c.apply(s, c.TimeTravel("Ben"))
    assert (s.phase, s.first_player, s.current_player) == (c.ORDERS, "Ben", "Ben")


def test_the_time_traveller_may_decline_and_phase_4_begins():
    s = start(table({"Ana": {1: 2}, "Ben": {8: 2}}, first="Ana"))
    refused(s, c.NoTimeTravel("Ana"), "player", "Time Traveller majority")
    s = c.apply(s, c.NoTimeTravel("Ben"))
    assert (s.phase, s.first_player, s.current_player, s.area("Ben")[8]) == (
        c.ORDERS, "Ana", "Ana", 2)
    assert ("Ana", "move_shield", 1) in codes(s)
    refused(s, c.TimeTravel("Ben"), "phase", "once")
    refused(s, c.NoTimeTravel("Ben"), "phase", "once")


def test_time_traveller_majority_takes_the_first_player_token_and_a_vp():
    s = start(table({"Ben": {8: 2}}, first="Ana"))
    assert ("Ben", "time_travel", 8) in codes(s)
    s = c.apply(s, c.TimeTravel("Ben"))
    assert s.first_player == "Ben" and s.tokens_of("Ben") == 1 and s.area("Ben")[8] == 1
    assert s.current_player == "Ben"


def test_only_one_time_travel_per_round():
    s = c.apply(start(table({"Ben": {8: 3}})), c.TimeTravel("Ben"))
    refused(s, c.TimeTravel("Ben"), "phase", "once")


def test_time_travel_needs_the_majority():
    s = start(table({"Ben": {8: 1}, "Ana": {8: 1}}))
    refused(s, c.TimeTravel("Ben"), "player", "Time Traveller majority")


def test_time_travel_with_an_empty_bank_may_take_from_another_player_or_none():
    """The Chosŏn rulebook, Voyageur temporel card: « IMPORTANT : Si vous DEVEZ prendre un
    jeton « Point de Victoire » mais qu'il n'y en a plus de disponible au centre de la table,
    alors dans ce cas, et uniquement dans ce cas, vous POUVEZ en prendre un à un autre
    joueur. » — may, so travelling and taking none is legal."""
    s = start(table({"Ben": {8: 1}}, tokens={"Ana": 6, "Chloe": 4}))
    none = c.apply(s, c.TimeTravel("Ben"))
    assert (none.tokens, none.first_player, none.area("Ben")[8]) == ((6, 0, 4), "Ben", 0)
    s = c.apply(s, c.TimeTravel("Ben", source="Ana"))
    assert (s.tokens_of("Ana"), s.tokens_of("Ben")) == (5, 1)


def test_time_travel_source_refused_while_the_bank_has_tokens():
    refused(start(table({"Ben": {8: 1}}, tokens={"Ana": 1})), c.TimeTravel("Ben", "Ana"),
            "source", "still has")


def test_first_player_token_passes_clockwise_and_game_ends_after_round_8():
    s = c.apply(table(first="Chloe", round_no=3, phase=c.END), EndRound())
    assert s.first_player == "Ana" and s.phase == c.SETUP
    assert c.apply(table(round_no=8, phase=c.END), EndRound()).phase == c.OVER


def test_first_player_token_stays_after_round_8():
    """The Chosŏn rulebook, « Phase de fin de ronde »: « le jeton « 1er Joueur » passe au
    joueur suivant dans le sens des aiguilles d'une montre et une nouvelle ronde [commence] »;
    "At the end of the 8th round, the game is over" — no new round, so no pass: a round-8
    time traveller keeps the +2 of the token."""
    s = c.apply(start(table({"Ben": {8: 2}}, first="Ana", round_no=7)), c.TimeTravel("Ben"))
    s = replace(s, phase=c.END)
    s = c.apply(s, EndRound())
    assert (s.phase, s.first_player) == (c.OVER, "Ben")
    assert {p.name: p.first_player for p in c.score(s).players} == {
        "Ana": 0, "Ben": 2, "Chloe": 0}


# -- combinations -----------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "combo"), [
    ({9: 4}, 1), ({3: 1, 7: 1}, 2), ({4: 1, "event": 1}, 3), ({"event": 3}, 4),
])
def test_the_four_combinations(cards, combo):
    s = reveal(start(table()), cards)
    assert s.turn.combination == combo


@pytest.mark.parametrize("cards", [
    {3: 2, 7: 1}, {3: 1, 7: 1, 6: 1}, {9: 1, "event": 1}, {4: 2, "event": 1}, {"event": 2},
    {"event": 4}, {4: 1, "event": 2},
])
def test_other_orders_are_refused(cards):
    refused(start(table()), Reveal("Ana", Area.of(cards)), "cards")


def test_a_watcher_cannot_be_played_with_an_event():
    refused(start(table()), Reveal("Ana", Area.of({9: 1, "event": 1})), "cards", "Watcher")


def test_played_events_are_discarded_not_kept():
    s = reveal(start(table()), {"event": 3})
    assert s.area("Ana").total == 0 and s.kept_events == (0, 0, 0)


def test_combination_4_takes_yis_legacy_even_from_another_player():
    s = reveal(start(replace(table(), legacy="Ben")), {"event": 3})
    assert s.legacy == "Ana"


def test_reveal_cannot_exceed_the_deck_or_the_deal():
    refused(start(table({"Ben": {1: 1}})), Reveal("Ana", Area.of({1: 1})), "cards.1")
    refused(start(table(round_no=7)), Reveal("Ana", Area.of({9: 4})), "cards", "dealt")
    refused(start(table(kept={"Ben": 8})), Reveal("Ana", Area.of({"event": 3})),
            "cards.event")


# -- 'comes into play' effects ----------------------------------------------------------------


def test_firearm_destroys_any_character_of_another_player():
    s = reveal(start(table({"Ben": {9: 2}})), {8: 1, "event": 1})
    s = c.apply(s, Destroy("Ana", "Ben", 9))
    assert s.area("Ben")[9] == 1
    refused(s, Destroy("Ana", "Ben", 9), "player", "already used")


def test_sword_reaches_only_values_within_one():
    s = reveal(start(table({"Ben": {9: 1, 3: 1, 5: 1}})), {4: 1, "event": 1})
    refused(s, Destroy("Ana", "Ben", 9), "family", "values 3–5")
    s = c.apply(s, Destroy("Ana", "Ben", 5))
    assert s.area("Ben")[5] == 0


def test_reaper_majority_doubles_the_sword():
    s = reveal(start(table({"Ana": {4: 1}, "Ben": {5: 1}, "Chloe": {3: 1}})), {4: 1, "event": 1})
    s = c.apply(s, Destroy("Ana", "Ben", 5))
    s = c.apply(s, Destroy("Ana", "Chloe", 3))
    assert s.area("Ben")[5] == 0 and s.area("Chloe")[3] == 0
    refused(s, Destroy("Ana", "Ben", 4), "player")


def test_sword_without_reaper_majority_destroys_one():
    s = reveal(start(table({"Ben": {6: 2, 4: 3}})), {5: 1, "event": 1})
    s = c.apply(s, Destroy("Ana", "Ben", 6))
    refused(s, Destroy("Ana", "Ben", 6), "player", "already used")


def test_lobby_swaps_two_characters_between_two_players():
    s = reveal(start(table({"Ben": {9: 1}, "Chloe": {7: 1}})), {3: 1, "event": 1})
    s = c.apply(s, Swap("Ana", "Ben", 9, "Chloe", 7))
    assert s.area("Ben").as_dict() == {7: 1} and s.area("Chloe").as_dict() == {9: 1}


def test_the_wrong_effect_is_refused():
    s = reveal(start(table({"Ben": {9: 1}})), {3: 1, "event": 1})  # Oracle: Lobby
    refused(s, Destroy("Ana", "Ben", 9), "player", "Firearm or Sword")
    s = reveal(start(table({"Ben": {9: 1}})), {8: 1, "event": 1})  # Time Traveller: Firearm
    refused(s, Swap("Ana", "Ana", 8, "Ben", 9), "player", "no Lobby")


def test_effects_cannot_target_the_player_themselves():
    s = reveal(start(table({"Ana": {9: 1}})), {8: 1, "event": 1})
    refused(s, Destroy("Ana", "Ana", 9), "target")


# -- Yi's Shield ------------------------------------------------------------------------------


def test_yi_majority_places_the_shield_once_per_turn_on_an_own_family():
    s = start(table({"Ana": {1: 1, 9: 2, 5: 1}}))
    refused(s, c.MoveShield("Ana", 7), "family", "own families")
    s = c.apply(s, c.MoveShield("Ana", 9))
    assert s.shield == ("Ana", 9)
    refused(s, c.MoveShield("Ana", 5), "player", "already placed")


def test_shield_protects_its_family_from_effects():
    s = reveal(start(table({"Ben": {1: 1, 9: 1, 7: 1}}, shield=("Ben", 9))), {8: 1, "event": 1})
    refused(s, Destroy("Ana", "Ben", 9), "family", "Yi's Shield")
    assert any(p.family == 9 and "firearm" in p.against for p in c.protections(s))
    c.apply(s, Destroy("Ana", "Ben", 7))


def test_shield_protects_from_lobby():
    s = reveal(start(table({"Ben": {1: 1, 9: 1}, "Chloe": {7: 1}}, shield=("Ben", 9))),
               {6: 1, "event": 1})
    refused(s, Swap("Ana", "Ben", 9, "Chloe", 7), "a_family", "Yi's Shield")


def test_shield_breaks_a_tie_for_a_majority_power_during_the_round():
    s = table({"Ana": {1: 1, 6: 2}, "Ben": {6: 2}}, shield=("Ana", 6))
    m = c.majorities(s)[6]
    assert (m.holder, m.tied, m.tie_breaker) == ("Ana", ("Ana", "Ben"), "Yi's Shield")


def test_shield_never_breaks_a_tie_at_final_scoring():
    s = table({"Ana": {1: 1, 6: 2}, "Ben": {6: 2}}, shield=("Ana", 6))
    assert c.score(s).holders[6] is None


def test_shield_is_lost_at_once_with_the_yi_majority():
    s = reveal(start(table({"Ana": {9: 1}, "Ben": {1: 1, 7: 1}}, shield=("Ben", 7))),
               {3: 1, "event": 1})
    s = c.apply(s, Swap("Ana", "Ana", 9, "Ben", 1))  # Ana takes Ben's Yi
    assert s.shield is None


# -- ripostes -------------------------------------------------------------------------------


def test_return_fire_follows_the_sniper_majority_and_ripostes_a_firearm():
    s = reveal(start(table({"Ben": {2: 2, 9: 1}})), {8: 1, "event": 1})
    assert c.return_fire(s) == "Ben"
    s = c.apply(s, Destroy("Ana", "Ben", 9))
    assert ("Ben", "riposte", None) in codes(s)
    s = c.apply(s, c.Riposte("Ben"))
    assert s.area("Ana")[8] == 0


def test_counter_attack_follows_the_hulk_majority_and_ripostes_a_sword():
    s = reveal(start(table({"Ben": {7: 2, 6: 1}})), {5: 1, "event": 1})
    s = c.apply(s, Destroy("Ana", "Ben", 6))
    s = c.apply(s, c.Riposte("Ben"))
    assert s.area("Ana")[5] == 0


def test_a_riposte_survives_the_loss_of_the_last_sniper_it_came_from():
    """House rule (docs/house-rules.md): the Firearm that destroys the victim's
    last Sniper still meets the Return Fire they held when it was made (a Sword and the
    last Hulk alike: the token's holder is read before the card goes); the token then
    follows the new majorities."""
    s = reveal(start(table({"Ben": {2: 1}})), {8: 1, "event": 1})
    assert c.return_fire(s) == "Ben"
    s = c.apply(s, Destroy("Ana", "Ben", 2))
    assert s.area("Ben")[2] == 0 and c.return_fire(s) is None
    assert ("Ben", "riposte", None) in codes(s)
    assert c.apply(s, c.Riposte("Ben")).area("Ana")[8] == 0


def test_no_riposte_without_the_token_or_after_the_moment_passed():
    s = reveal(start(table({"Ben": {9: 1}, "Chloe": {2: 1}})), {8: 1, "event": 1})
    s2 = c.apply(s, Destroy("Ana", "Ben", 9))
    refused(s2, c.Riposte("Ben"), "player", "no riposte")
    s = reveal(start(table({"Ben": {2: 2, 9: 1}})), {8: 1, "event": 1})
    s = c.apply(c.apply(s, Destroy("Ana", "Ben", 9)), EndTurn("Ana"))
    refused(s, c.Riposte("Ben"), "player")


def test_riposte_cannot_hit_a_shielded_family():
    s = reveal(start(table({"Ana": {1: 1}, "Ben": {2: 2, 9: 1}})), {8: 1, "event": 1})
    s = c.apply(s, c.MoveShield("Ana", 8))
    s = c.apply(s, Destroy("Ana", "Ben", 9))
    refused(s, c.Riposte("Ben"), "player", "Yi's Shield")


# -- Gosu, Scientist, Oracle ------------------------------------------------------------------


def test_scientist_must_take_a_vp_after_an_event():
    s = reveal(start(table({"Ana": {6: 1}})), {"event": 3})
    assert codes(s)[("Ana", "take_vp", 6)].text == "Ana must take a VP — Scientists"
    refused(s, EndTurn("Ana"), "player", "must take a VP")
    s = c.apply(s, c.TakeVP("Ana", 6))
    assert s.tokens_of("Ana") == 1
    refused(s, c.TakeVP("Ana", 6), "family")
    c.apply(s, EndTurn("Ana"))


def test_declined_effect_means_no_scientist_and_no_gosu():
    s = reveal(start(table({"Ana": {6: 1, 5: 1}, "Ben": {9: 1}})), {8: 1, "event": 1})
    refused(s, c.TakeVP("Ana", 6), "family")
    refused(s, c.KeepEvent("Ana"), "player")
    c.apply(s, EndTurn("Ana"))  # no obligation left
    s = c.apply(s, Destroy("Ana", "Ben", 9))
    s = c.apply(c.apply(s, c.TakeVP("Ana", 6)), c.KeepEvent("Ana"))
    assert s.kept_events[0] == 1 and s.tokens_of("Ana") == 1


def test_gosu_keeps_one_event_only():
    s = reveal(start(table({"Ana": {5: 1}})), {"event": 3})
    s = c.apply(s, c.KeepEvent("Ana"))
    refused(s, c.KeepEvent("Ana"), "player")
    assert s.kept_events == (1, 0, 0)


def test_oracle_must_take_a_vp_while_holding_a_riposte_token():
    s = start(table({"Ana": {3: 1, 7: 1}}))
    assert codes(s)[("Ana", "take_vp", 3)].must
    refused(s, EndTurn("Ana"), "player", "Oracles")
    s = c.apply(s, c.TakeVP("Ana", 3))
    refused(s, c.TakeVP("Ana", 3), "family")


def test_oracle_without_a_token_takes_nothing():
    refused(start(table({"Ana": {3: 1}})), c.TakeVP("Ana", 3), "family")


def test_must_take_with_an_empty_bank_may_take_from_another_player():
    s = reveal(start(table({"Ana": {6: 1}}, tokens={"Ben": 10})), {"event": 3})
    p = codes(s)[("Ana", "take_vp", 6)]
    assert not p.must and "bank is empty" in p.text
    c.apply(s, EndTurn("Ana"))  # a MAY now
    s = c.apply(s, c.TakeVP("Ana", 6, source="Ben"))
    assert (s.tokens_of("Ana"), s.tokens_of("Ben")) == (1, 9)


def test_only_oracles_and_scientists_take_vp():
    refused(start(table({"Ana": {9: 1}})), c.TakeVP("Ana", 9), "family")


# -- end phase ------------------------------------------------------------------------------


def test_limit_counts_characters_only_not_kept_events():
    s = table({"Ana": {9: 3}}, kept={"Ana": 4}, round_no=1, phase=c.END)
    assert {x.player: x.excess for x in c.limit_check(s)}["Ana"] == 0
    s = table({"Ana": {9: 5}}, round_no=1, phase=c.END)
    refused(s, EndRound(), "player", "discard 2")
    refused(s, Discard("Ana", 9, 3), "count")
    s = c.apply(s, Discard("Ana", 9, 2))
    assert c.apply(s, EndRound()).phase == c.SETUP


# -- serialisation and a whole game ---------------------------------------------------------

ALL_ACTIONS = [
    StartRound(), c.TimeTravel("Ana", "Ben"), Reveal("Ana", Area.of({4: 1, "event": 1})),
    Destroy("Ana", "Ben", 5), Swap("Ana", "Ana", 1, "Ben", 9), c.Riposte("Ben"),
    c.TakeVP("Ana", 6), c.KeepEvent("Ana"), c.MoveShield("Ana", 9), EndTurn("Ana"),
    Discard("Ana", 9, 2), EndRound(),
]


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: a.name)
def test_actions_round_trip_through_dicts(action):
    assert c.action_from_dict(action.to_dict()) == action


def test_state_is_json_ready():
    s = reveal(start(table({"Ana": {1: 1}}, shield=("Ana", 1))), {"event": 3})
    assert json.loads(json.dumps(s.to_dict()))["legacy"] == "Ana"


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_random_legal_play_respects_the_deck_and_the_tokens(data):
    s = c.new_game(NAMES, "Ana")
    kinds = [*range(1, 10), c.EVENT]
    while s.phase != c.OVER:
        if s.phase == c.SETUP:
            s = c.apply(s, StartRound())
        elif s.phase == c.TIME_TRAVEL:
            travel = c.TimeTravel(s.current_player)
            s = c.apply(s, travel if data.draw(st.booleans()) else c.NoTimeTravel(travel.player))
        elif s.phase in (c.ORDERS, c.MAIN):
            p = s.current_player
            if not s.turn.revealed:
                cards = data.draw(st.dictionaries(st.sampled_from(kinds), st.integers(1, 3),
                                                  max_size=2))
                if c.is_legal(s, Reveal(p, Area.of(cards))):
                    s = c.apply(s, Reveal(p, Area.of(cards)))
            for action in (c.TakeVP(p, 3), c.TakeVP(p, 6), c.KeepEvent(p)):
                if c.is_legal(s, action):
                    s = c.apply(s, action)
            s = c.apply(s, EndTurn(p))
        else:
            for chk in c.limit_check(s):
                if chk.excess:
                    fam = s.area(chk.player).families()[0]
                    while c.is_legal(s, Discard(chk.player, fam, 1)):
                        s = c.apply(s, Discard(chk.player, fam, 1))
            if c.is_legal(s, EndRound()):
                s = c.apply(s, EndRound())
            else:
                for chk in c.limit_check(s):
                    for fam in s.area(chk.player).families():
                        while c.is_legal(s, Discard(chk.player, fam, 1)):
                            s = c.apply(s, Discard(chk.player, fam, 1))
                s = c.apply(s, EndRound())
        for v in range(1, 10):
            assert sum(a[v] for a in s.areas) <= v
        assert 0 <= s.bank <= 10 and sum(s.kept_events) <= 10
    assert len(c.score(s).players) == 3
