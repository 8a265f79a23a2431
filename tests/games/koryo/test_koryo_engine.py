"""Koryŏ in-game engine (the Koryŏ rulebook): rounds, orders, powers, events, limit; each
refusal is a RuleError naming the field."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.koryo import rules as k
from companion.games.majority.rules import (
    Area,
    Destroy,
    Discard,
    EndRound,
    EndTurn,
    Reveal,
    StartRound,
    Swap,
)
from companion.play.errors import RuleError

NAMES = ("Ana", "Ben", "Chloe")


def table(areas=None, tokens=None, first="Ana", round_no=0, phase=k.SETUP, names=NAMES):
    """A state with the given cards in front of players (as after earlier rounds)."""
    areas = areas or {}
    tokens = tokens or {}
    return k.State(
        players=names,
        areas=tuple(Area.of(areas.get(p, {})) for p in names),
        tokens=tuple(tokens.get(p, 0) for p in names),
        first=names.index(first),
        round=round_no,
        phase=phase,
    )


def start(state):
    return k.apply(state, StartRound())


def refused(state, action, field=None, words=""):
    with pytest.raises(RuleError) as exc:
        k.apply(state, action)
    if field is not None:
        assert exc.value.field == field
    assert words in exc.value.message
    return exc.value


# -- game set-up and rounds ---------------------------------------------------------------


def test_new_game_takes_2_to_4_distinct_players():
    assert k.new_game(["Ana", "Ben"], "Ben").first_player == "Ben"
    with pytest.raises(RuleError):
        k.new_game(["Ana"])
    with pytest.raises(RuleError):
        k.new_game(["A", "B", "C", "D", "E"])
    with pytest.raises(RuleError):
        k.new_game(["Ana", "Ana"])
    with pytest.raises(RuleError):
        k.new_game(["Ana", "Ben"], "Zed")


def test_new_game_has_8_vp_tokens_in_the_bank():
    assert k.new_game(NAMES).bank == 8


@pytest.mark.parametrize("r", range(1, 9))
def test_season_deals_11_minus_r_and_limit_r_plus_2(r):
    s = start(table(round_no=r - 1))
    assert s.round == r and s.deals == (11 - r,) * 3
    assert k.round_limit(s, "Ana") == r + 2


def test_broadcaster_majority_is_dealt_one_more_card():
    s = start(table({"Ben": {8: 2}, "Ana": {8: 1}}))
    assert s.deals == (10, 11, 10)
    assert any(p.text == "Ben: deal 1 more card — Broadcasters" for p in k.powers(s))


def test_omniscient_wins_a_broadcaster_tie_for_the_deal():
    s = start(table({"Ben": {8: 2}, "Chloe": {8: 2, 1: 1}}))
    assert s.deals == (10, 10, 11)


def test_start_round_refused_mid_round():
    s = start(table())
    refused(s, StartRound(), "phase")


def test_turns_go_clockwise_from_the_first_player():
    s = start(table(first="Ben"))
    seen = []
    for _ in NAMES:
        seen.append(s.current_player)
        s = k.apply(s, EndTurn(s.current_player))
    assert seen == ["Ben", "Chloe", "Ana"] and s.phase == k.END


def test_end_round_passes_the_first_player_token_clockwise():
    s = table(first="Chloe", round_no=1, phase=k.END)
    s = k.apply(s, EndRound())
    assert s.first_player == "Ana" and s.phase == k.SETUP


def test_the_game_is_over_after_round_8():
    s = k.apply(table(round_no=8, phase=k.END), EndRound())
    assert s.phase == k.OVER
    refused(s, StartRound(), "phase")


def test_playing_out_of_turn_is_refused():
    s = start(table())
    refused(s, Reveal("Ben", Area.of({9: 1})), "player", "Ana's turn")


# -- orders ---------------------------------------------------------------------------------


def test_an_order_of_identical_cards_of_any_number_is_accepted():
    s = k.apply(start(table()), Reveal("Ana", Area.of({9: 5})))
    assert s.area("Ana")[9] == 5 and s.phase == k.MAIN


def test_an_order_of_one_event_type_is_accepted():
    s = k.apply(start(table()), Reveal("Ana", Area.of({"barbarian": 3})))
    assert s.turn.barbarians == 3


def test_mixed_order_without_ship_owner_majority_is_refused():
    refused(start(table()), Reveal("Ana", Area.of({9: 1, 6: 1})), "cards", "identical")


def test_ship_owner_majority_may_order_exactly_two_different_cards():
    s = start(table({"Ana": {5: 1}}))
    s = k.apply(s, Reveal("Ana", Area.of({6: 1, "barbarian": 1})))
    assert s.area("Ana")[6] == 1 and s.turn.barbarians == 1


def test_ship_owner_majority_may_not_order_three_mixed_cards():
    s = start(table({"Ana": {5: 1}}))
    refused(s, Reveal("Ana", Area.of({6: 2, 9: 1})), "cards", "exactly 2")


def test_ship_owner_majority_is_the_one_at_the_order_phase():
    """A Ship Owner majority won during the main phase does not change orders already given."""
    s = start(table({"Ana": {5: 1}, "Ben": {5: 1}}))  # tie at the order phase: nobody
    s = k.apply(s, Reveal("Ana", Area.of({5: 1})))
    s = k.apply(s, EndTurn("Ana"))
    refused(s, Reveal("Ben", Area.of({9: 1, 8: 1})), "cards")


def test_reveal_cannot_exceed_the_cards_dealt():
    s = start(table(round_no=7))  # round 8: 3 cards
    refused(s, Reveal("Ana", Area.of({9: 4})), "cards", "dealt 3")


def test_reveal_cannot_exceed_the_deck():
    s = start(table({"Ben": {9: 8}}))
    refused(s, Reveal("Ana", Area.of({9: 2})), "cards.9", "only 1 of the 9")


def test_reveal_only_once_per_turn():
    s = k.apply(start(table()), Reveal("Ana", Area.of({9: 1})))
    refused(s, Reveal("Ana", Area.of({9: 1})), "player", "already revealed")


# -- events ---------------------------------------------------------------------------------


def barbarian_turn(areas):
    s = start(table(areas))
    return k.apply(s, Reveal("Ana", Area.of({"barbarian": 1})))


def test_barbarian_destroys_a_character_of_another_player():
    s = k.apply(barbarian_turn({"Ben": {9: 2}}), Destroy("Ana", "Ben", 9))
    assert s.area("Ben")[9] == 1 and s.turn.barbarians == 0
    assert s.area("Ana")["barbarian"] == 1  # the event stays in front of its player


def test_barbarian_cannot_target_the_guardian_majority():
    s = barbarian_turn({"Ben": {9: 2, 7: 1}})
    refused(s, Destroy("Ana", "Ben", 9), "target", "Guardian majority")
    assert any(p.player == "Ben" and "barbarian" in p.against for p in k.protections(s))


def test_omniscient_wins_a_guardian_tie_for_protection():
    s = barbarian_turn({"Ben": {7: 2, 1: 1, 9: 1}, "Chloe": {7: 2, 9: 1}})
    refused(s, Destroy("Ana", "Ben", 9), "target")
    k.apply(s, Destroy("Ana", "Chloe", 9))


def test_barbarian_cannot_target_its_own_player_or_a_missing_card():
    s = barbarian_turn({"Ana": {9: 1}, "Ben": {9: 1}})
    refused(s, Destroy("Ana", "Ana", 9), "target")
    refused(s, Destroy("Ana", "Ben", 8), "family", "no Broadcaster")


def test_one_destruction_per_barbarian():
    s = k.apply(barbarian_turn({"Ben": {9: 3}}), Destroy("Ana", "Ben", 9))
    refused(s, Destroy("Ana", "Ben", 9), "player", "no Barbarian")


def lobbying_turn(areas):
    s = start(table(areas))
    return k.apply(s, Reveal("Ana", Area.of({"lobbying": 1})))


def test_lobbying_swaps_two_characters_between_two_players():
    s = lobbying_turn({"Ben": {9: 1}, "Chloe": {6: 1}})
    s = k.apply(s, Swap("Ana", "Ben", 9, "Chloe", 6))
    assert s.area("Ben").as_dict() == {6: 1} and s.area("Chloe").as_dict() == {9: 1}


def test_lobbying_cannot_target_the_spy_majority_without_guardian():
    s = lobbying_turn({"Ana": {3: 1}, "Ben": {2: 1, 9: 1}, "Chloe": {6: 1}})
    refused(s, Swap("Ana", "Ana", 3, "Ben", 9), "b", "Spy majority")


def test_a_guardian_in_play_cancels_the_spy_protection():
    s = lobbying_turn({"Ana": {3: 1}, "Ben": {2: 1, 7: 1}, "Chloe": {7: 2}})
    s = k.apply(s, Swap("Ana", "Ana", 3, "Ben", 2))
    assert s.area("Ben")[3] == 1


def test_spy_majority_playing_lobbying_must_target_two_opponents():
    s = start(table({"Ana": {2: 1, 3: 1}, "Ben": {9: 1}, "Chloe": {6: 1}}))
    s = k.apply(s, Reveal("Ana", Area.of({"lobbying": 1})))
    refused(s, Swap("Ana", "Ana", 3, "Ben", 9), "a", "Spy majority")
    k.apply(s, Swap("Ana", "Ben", 9, "Chloe", 6))


def test_lobbying_needs_two_different_players_and_characters():
    s = lobbying_turn({"Ben": {9: 2}})
    refused(s, Swap("Ana", "Ben", 9, "Ben", 9), "b", "two different players")
    refused(s, Swap("Ana", "Ben", 9, "Chloe", 6), "b_family")


def test_two_player_lobbying_of_the_spy_majority_offers_no_swap():
    """The Koryŏ rulebook, LOBBYING: « vous pouvez échanger deux cartes personnages …
    entre deux joueurs (vous y compris). Attention cependant, si un joueur a la majorité des
    «Espions» (sans avoir de « Gardiens » dans son jeu), il ne peut être ciblé par cet
    événement » — EN: "even if he is the one playing it". With two players the Spy majority
    who plays Lobbying has nobody to swap with: the power is not offered, no swap is legal."""
    two = ("Ana", "Ben")
    s = start(table({"Ana": {2: 1, 3: 1}, "Ben": {9: 1, 6: 1}}, names=two))
    s = k.apply(s, Reveal("Ana", Area.of({"lobbying": 1})))
    assert s.turn.lobbyings == 1
    assert [p.code for p in k.powers(s)] == []
    for a, b in (("Ana", "Ben"), ("Ben", "Ana")):
        for fa in range(1, 10):
            for fb in range(1, 10):
                assert not k.is_legal(s, Swap("Ana", a, fa, b, fb))
    k.apply(s, EndTurn("Ana"))
    # The opponent's Spy majority leaves the player alone: no swap either.
    s = start(table({"Ana": {3: 1}, "Ben": {9: 1, 2: 2}}, names=two))
    s = k.apply(s, Reveal("Ana", Area.of({"lobbying": 1})))
    assert [p.code for p in k.powers(s)] == []
    # Nobody Spy-proof: the Lobbying swaps between the two players.
    s = start(table({"Ana": {3: 1, 7: 1}, "Ben": {9: 1}}, names=two))
    s = k.apply(s, Reveal("Ana", Area.of({"lobbying": 1})))
    assert [p.code for p in k.powers(s)] == ["swap"]
    assert k.apply(s, Swap("Ana", "Ana", 3, "Ben", 9)).area("Ben")[3] == 1


def test_a_barbarian_with_nobody_to_hit_is_not_offered():
    """The Koryŏ rulebook (FR/EN), BARBARIANS: "the player may destroy a «Character» card of an
    opponent … the player controlling a majority of «Guardians» (#7) may not be targeted"."""
    s = start(table({"Ben": {7: 1, 9: 2}}, names=("Ana", "Ben")))
    s = k.apply(s, Reveal("Ana", Area.of({"barbarian": 1})))
    assert s.turn.barbarians == 1 and [p.code for p in k.powers(s)] == []
    s = start(table({"Ben": {9: 2}, "Chloe": {7: 1}}))
    s = k.apply(s, Reveal("Ana", Area.of({"barbarian": 1})))
    assert [p.code for p in k.powers(s)] == ["destroy"]


# -- majority powers ------------------------------------------------------------------------


def test_banker_majority_takes_one_vp_per_turn():
    s = start(table({"Ana": {6: 1}}))
    s = k.apply(s, k.TakeVP("Ana"))
    assert s.tokens_of("Ana") == 1 and s.bank == 7
    refused(s, k.TakeVP("Ana"), "player", "already used")


def test_banker_cannot_take_from_an_empty_bank():
    s = start(table({"Ana": {6: 1}}, tokens={"Ben": 8}))
    refused(s, k.TakeVP("Ana"), "player", "no VP token left")
    assert not any(p.code == "take_vp" for p in k.powers(s))


def test_banker_power_needs_the_majority_and_its_own_turn():
    s = start(table({"Ben": {6: 1}}))
    refused(s, k.TakeVP("Ana"), "player", "Banker majority")
    refused(s, k.TakeVP("Ben"), "player", "Ana's turn")


def test_spy_majority_steals_a_vp_from_another_player():
    s = start(table({"Ana": {2: 1}}, tokens={"Ben": 2}))
    assert any(p.code == "steal_vp" for p in k.powers(s))
    s = k.apply(s, k.StealVP("Ana", "Ben"))
    assert (s.tokens_of("Ana"), s.tokens_of("Ben")) == (1, 1)
    refused(s, k.StealVP("Ana", "Ben"), "player", "already used")


def test_spy_cannot_steal_when_nobody_holds_a_token():
    s = start(table({"Ana": {2: 1}}))
    refused(s, k.StealVP("Ana", "Ben"), "victim", "no VP token")
    refused(s, k.StealVP("Ana", "Ana"), "victim")


def test_priest_majority_destroys_one_own_event():
    s = start(table({"Ana": {4: 1, "barbarian": 2}}))
    s = k.apply(s, k.DestroyEvent("Ana", "barbarian"))
    assert s.area("Ana")["barbarian"] == 1
    refused(s, k.DestroyEvent("Ana", "barbarian"), "player", "already used")


def test_priest_needs_an_event_of_that_type():
    s = start(table({"Ana": {4: 1, "barbarian": 1}}))
    refused(s, k.DestroyEvent("Ana", "lobbying"), "event", "no Lobbying")
    refused(s, k.DestroyEvent("Ana", "dragon"), "event")


def test_powers_of_the_current_player_are_listed_with_a_sentence():
    s = start(table({"Ana": {6: 1, 2: 1, 4: 1, "lobbying": 1}}, tokens={"Ben": 1}))
    texts = {p.code: p.text for p in k.powers(s)}
    assert texts["take_vp"] == "Ana may take a VP — Bankers"
    assert texts["steal_vp"] == "Ana may steal a VP — Spies"
    assert "destroy_event" in texts


def test_live_majority_reports_the_omniscient_tie_break():
    s = table({"Ana": {7: 2}, "Ben": {7: 2, 1: 1}})
    m = k.majorities(s)[7]
    assert (m.holder, m.tied, m.tie_breaker) == ("Ben", ("Ana", "Ben"), "Omniscient")


# -- end phase ------------------------------------------------------------------------------


def test_events_count_toward_the_limit_but_cannot_be_discarded():
    s = table({"Ana": {9: 3, "barbarian": 2}}, round_no=1, phase=k.END)  # limit 3
    check = {c.player: c for c in k.limit_check(s)}["Ana"]
    assert (check.counted, check.limit, check.excess) == (5, 3, 2)
    refused(s, Discard("Ana", "barbarian"), "family", "never be discarded")
    refused(s, EndRound(), "player", "discard 2")
    s = k.apply(s, Discard("Ana", 9, 2))
    assert k.apply(s, EndRound()).phase == k.SETUP


def test_only_events_left_over_the_limit_do_not_block_the_round():
    s = table({"Ana": {"barbarian": 4}}, round_no=1, phase=k.END)
    assert k.apply(s, EndRound()).phase == k.SETUP


def test_senator_majority_keeps_two_more_cards():
    s = table({"Ana": {3: 1, 9: 4}}, round_no=1, phase=k.END)  # 5 cards, limit 3 + 2
    assert all(c.excess == 0 for c in k.limit_check(s))
    assert any(p.code == "limit_plus_2" and p.player == "Ana" for p in k.powers(s))


def test_discard_no_more_than_needed():
    s = table({"Ana": {9: 5}}, round_no=1, phase=k.END)
    refused(s, Discard("Ana", 9, 3), "count", "2 to discard")
    refused(s, Discard("Ana", 8, 1), "family")
    powers = [p for p in k.powers(s) if p.code == "discard"]
    assert powers[0].must and powers[0].text == "Ana must discard 2 characters — limit 3"


def test_discard_only_in_the_end_phase():
    refused(start(table({"Ana": {9: 5}})), Discard("Ana", 9), "phase")


# -- serialisation and a whole game ---------------------------------------------------------


ALL_ACTIONS = [
    StartRound(), Reveal("Ana", Area.of({9: 2, "lobbying": 1})), Destroy("Ana", "Ben", 9),
    Swap("Ana", "Ben", 9, "Chloe", 6), k.TakeVP("Ana"), k.StealVP("Ana", "Ben"),
    k.DestroyEvent("Ana", "barbarian"), EndTurn("Ana"), Discard("Ana", 9, 2), EndRound(),
]


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: a.name)
def test_actions_round_trip_through_dicts(action):
    assert k.action_from_dict(action.to_dict()) == action


def test_unknown_action_dict_is_refused():
    with pytest.raises(RuleError):
        k.action_from_dict({"action": "cheat"})
    with pytest.raises(RuleError):
        k.action_from_dict({"action": "take_vp", "player": "Ana", "extra": 1})


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_random_legal_play_keeps_every_total_within_the_deck(data):
    """Whatever legal actions are taken, cards in play never exceed the deck, tokens never
    exceed 8, and the game ends after round 8 with a final score."""
    s = k.new_game(NAMES, "Ana")
    while s.phase != k.OVER:
        if s.phase == k.SETUP:
            s = k.apply(s, StartRound())
        elif s.phase in (k.ORDERS, k.MAIN):
            p = s.current_player
            if not s.turn.revealed:
                kind = data.draw(st.sampled_from(k.KINDS))
                n = data.draw(st.integers(0, 3))
                action = Reveal(p, Area.of({kind: n}))
                if k.is_legal(s, action):
                    s = k.apply(s, action)
            if k.is_legal(s, k.TakeVP(p)):
                s = k.apply(s, k.TakeVP(p))
            s = k.apply(s, EndTurn(p))
        else:
            # each player's check read afresh: another's discard can hand over the Senator
            # majority (+2), so a check taken before it may ask for one card too many
            for player in s.players:
                while next(x for x in k.limit_check(s) if x.player == player).excess:
                    fam = next(f for f in s.area(player).families())
                    s = k.apply(s, Discard(player, fam, 1))
            s = k.apply(s, EndRound())
        for kind, size in k.DECK.items():
            assert sum(a[kind] for a in s.areas) <= size
        assert 0 <= s.bank <= 8
    assert len(k.score(s).players) == 3
