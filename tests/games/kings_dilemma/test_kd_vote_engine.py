"""The King's Dilemma vote engine: open vote in rulebook order, resolution, clean-up,
secret ballots (the King's Dilemma rulebook, « Vote du Conseil », « Résolution du
vote », « Nettoyage après le vote »)."""

import pytest

from companion.games.kings_dilemma import vote as kd_vote
from companion.play.errors import RuleError

SEATS = ["Theodore", "Julius", "Armin", "Diana", "Frances"]
ABC = ["Ana", "Ben", "Chloe"]


def vote(players=SEATS, leader=None, moderator=None, power=8, coins=10, balance=3,
         mode=kd_vote.OPEN):
    power = power if isinstance(power, dict) else dict.fromkeys(players, power)
    coins = coins if isinstance(coins, dict) else dict.fromkeys(players, coins)
    return kd_vote.new_vote(players, leader=leader or players[0],
                            moderator=moderator or players[1],
                            power=power, coins=coins, balance=balance, mode=mode)


def play(state, *turns):
    """turns: "Name move [N]" strings."""
    for t in turns:
        name, move, *n = t.split()
        state = kd_vote.apply(state, kd_vote.Play(name, move, int(n[0]) if n else 0))
    return state


def lock(state, ballots):
    for name, text in ballots.items():
        choice, *n = text.split()
        state = kd_vote.apply(state, kd_vote.Lock(name, choice, int(n[0]) if n else 0))
    return state


RULEBOOK_TURNS = ("Theodore pass-moderator", "Julius aye 1", "Armin nay 1", "Diana aye 1",
                  "Frances nay 4", "Julius add 3", "Armin add 1", "Diana add 1")


# -- the rulebook's worked example ----------------------------------------------------------


def test_rulebook_example_step_by_step_leader_and_moderator_tokens():
    """Théodore passes to become moderator (takes the token at once); Julius aye 1 takes the
    Leader; Frances nay 4 takes it; Julius +3 ties Frances (no change); the vote ends after
    Diana, right of Frances."""
    s = vote(moderator="Julius")
    s = play(s, "Theodore pass-moderator")
    assert s.moderator_name == "Theodore" and s.coins == (10,) * 5  # coin on the Pass card
    s = play(s, "Julius aye 1")
    assert s.leader_name == "Julius"
    s = play(s, "Armin nay 1", "Diana aye 1")
    assert s.leader_name == "Julius" and s.totals() == {"aye": 2, "nay": 1}
    s = play(s, "Frances nay 4")
    assert s.leader_name == "Frances" and s.phase == kd_vote.VOTING
    assert s.current_player == "Julius"  # Théodore passed: skipped
    s = play(s, "Julius add 3")
    assert s.leader_name == "Frances"  # 4 ties 4: no change
    s = play(s, "Armin add 1")
    assert s.phase == kd_vote.VOTING and s.current_player == "Diana"
    s = play(s, "Diana add 1")
    assert s.phase == kd_vote.TIE and s.totals() == {"aye": 6, "nay": 6}


def test_rulebook_example_resolution_tie_broken_aye_leader_to_julius():
    """The moderator breaks the tie for Aye; the leader (Frances) is on the losing side, the
    token goes to the winner with most power, Julius (4 against Diana's 2). Clean-up:
    Théodore's coin behind his screen; no pass for power; 6 winning power to the Balance."""
    s = play(vote(moderator="Julius"), *RULEBOOK_TURNS)
    s = kd_vote.apply(s, kd_vote.BreakTie("Theodore", "aye"))
    assert s.phase == kd_vote.DONE
    r = kd_vote.result(s)
    assert (r["outcome"], r["leader"], r["moderator"]) == ("aye", "Julius", "Theodore")
    assert r["totals"] == {"aye": 6, "nay": 6} and r["tie_broken"]
    assert r["balance"] == 3 + 6
    assert r["power"] == {"Theodore": 8, "Julius": 4, "Armin": 8, "Diana": 6, "Frances": 8}
    assert r["coins"] == {"Theodore": 11, "Julius": 10, "Armin": 10, "Diana": 10,
                          "Frances": 10}


# -- open vote: order and end ---------------------------------------------------------------


def test_first_lap_ends_after_the_leaders_right_hand_neighbour():
    """Nobody takes the Leader from the first player: the vote ends after one lap."""
    s = play(vote(ABC, leader="Ben"), "Ben nay 3", "Chloe aye 1")
    assert s.phase == kd_vote.VOTING and s.current_player == "Ana"
    s = play(s, "Ana aye 1")
    assert s.phase == kd_vote.DONE and s.outcome == "nay" and s.ended_after == 0


def test_leader_token_only_for_strictly_more_power_than_every_other():
    s = play(vote(ABC), "Ana aye 2", "Ben nay 2")
    assert s.leader_name == "Ana"
    s = play(s, "Chloe nay 3")
    assert s.leader_name == "Chloe"


def test_passed_player_who_ends_the_vote_ends_it_with_an_empty_turn():
    """Ben leads; Ana (right of Ben) passed for power: her turn is empty and ends the vote."""
    s = play(vote(ABC, leader="Ana"), "Ana pass-power", "Ben aye 2")
    assert s.leader_name == "Ben" and s.current_player == "Chloe"
    s = play(s, "Chloe nay 1")
    assert s.phase == kd_vote.DONE  # Ana's empty turn came next and ended the vote


def test_hold_keeps_the_side_and_adds_nothing():
    s = play(vote(["Ana", "Ben", "Chloe", "Dan"]), "Ana aye 1", "Ben nay 1", "Chloe nay 1",
             "Dan aye 2", "Ana hold")
    assert s.committed == (1, 1, 1, 2) and s.power[0] == 7 and s.current_player == "Ben"


def test_same_side_again_counts_as_adding():
    s = play(vote(ABC), "Ana aye 1", "Ben nay 2", "Chloe aye 1", "Ana aye 2")
    assert s.committed[0] == 3 and s.choices[0] == "aye"


def test_committed_power_leaves_the_screen_at_once():
    s = play(vote(ABC, power=5), "Ana aye 3")
    assert s.power == (2, 5, 5) and s.committed == (3, 0, 0) and s.in_play == 15 + 3


# -- open vote: refusals --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("turns", "bad", "field", "words"),
    [
        ((), "Ben aye 1", "player", "it is Ana's turn"),
        ((), "Ana aye 9", "power", "has only 8"),
        ((), "Ana aye 0", "power", "at least 1"),
        ((), "Ana add 1", "move", "has not voted yet"),
        ((), "Ana hold", "move", "has not voted yet"),
        ((), "Ana pass-power 2", "power", "commits no power"),
        ((), "Ana shout", "move", "not a move"),
        ((), "Zoe aye 1", "player", "not one of the players"),
        (("Ana aye 1", "Ben nay 2", "Chloe aye 1"), "Ana nay 1", "move", "can't change side"),
        (("Ana aye 1", "Ben nay 2", "Chloe aye 1"), "Ana pass-power", "move",
         "can't change side"),
        (("Ana aye 1", "Ben nay 2", "Chloe aye 1"), "Ana add 8", "power", "has only 7"),
        (("Ana pass-moderator",), "Ben pass-moderator", "move", "Ana already passed"),
        (("Ana aye 1", "Ben nay 1", "Chloe nay 1"), "Ana aye 1", "player", "vote has ended"),
    ],
)
def test_open_vote_refusals_name_the_field(turns, bad, field, words):
    s = play(vote(ABC), *turns)
    with pytest.raises(RuleError) as err:
        play(s, bad)
    assert err.value.field == field and words in err.value.message


def test_refused_turn_changes_nothing():
    s = play(vote(ABC), "Ana aye 1")
    assert not kd_vote.is_legal(s, kd_vote.Play("Ben", "aye", 9))
    assert s == play(vote(ABC), "Ana aye 1")


def test_lock_refused_in_an_open_vote_and_play_in_a_secret_one():
    with pytest.raises(RuleError, match="open vote"):
        kd_vote.apply(vote(ABC), kd_vote.Lock("Ana", "aye", 1))
    with pytest.raises(RuleError, match="secret vote"):
        kd_vote.apply(vote(ABC, mode=kd_vote.SECRET), kd_vote.Play("Ana", "aye", 1))


# -- resolution -----------------------------------------------------------------------------


def test_more_power_wins_without_the_moderator():
    s = play(vote(ABC), "Ana aye 1", "Ben nay 2", "Chloe aye 2")
    # Ben leads (2 > 1, 2 = 2 for Chloe is not more): ends after Ana's second turn
    s = play(s, "Ana hold")
    assert s.phase == kd_vote.DONE and s.outcome == "aye" and not s.tie_broken


def test_all_pass_moderator_decides_and_takes_the_leader_token():
    s = play(vote(ABC, moderator="Chloe"), "Ana pass-power", "Ben pass-power",
             "Chloe pass-power")
    assert s.phase == kd_vote.TIE
    with pytest.raises(RuleError, match="moderator Chloe"):
        kd_vote.apply(s, kd_vote.BreakTie("Ana", "nay"))
    s = kd_vote.apply(s, kd_vote.BreakTie("Chloe", "nay"))
    assert s.outcome == "nay" and s.leader_name == "Chloe"


def test_all_pass_with_a_moderator_claim_new_moderator_decides_and_leads():
    s = play(vote(ABC, moderator="Chloe"), "Ana pass-power", "Ben pass-moderator",
             "Chloe pass-power")
    s = kd_vote.apply(s, kd_vote.BreakTie("Ben", "aye"))
    assert s.leader_name == "Ben" and s.moderator_name == "Ben"


def test_break_tie_refused_when_there_is_no_tie_or_not_aye_nay():
    s = play(vote(ABC), "Ana aye 1", "Ben nay 1", "Chloe nay 1")
    with pytest.raises(RuleError, match="no tie"):
        kd_vote.apply(s, kd_vote.BreakTie("Ben", "aye"))
    t = play(vote(ABC), "Ana aye 1", "Ben nay 1", "Chloe pass-power")
    with pytest.raises(RuleError, match="aye or nay"):
        kd_vote.apply(t, kd_vote.BreakTie("Ben", "maybe"))


def test_leader_on_losing_side_token_to_the_strongest_winner():
    s = play(vote(["Ana", "Ben", "Chloe", "Dan"]), "Ana aye 4", "Ben nay 2", "Chloe nay 3",
             "Dan nay 1")
    # Ana leads with 4; nay wins 6–4: the strongest winner is Chloe (3)
    assert s.phase == kd_vote.DONE and s.outcome == "nay" and s.leader_name == "Chloe"


def test_leader_on_losing_side_winners_tied_moderator_chooses():
    s = play(vote(["Ana", "Ben", "Chloe", "Dan"], moderator="Dan"), "Ana aye 4", "Ben nay 3",
             "Chloe nay 3", "Dan pass-power")
    assert s.phase == kd_vote.LEADER_CHOICE
    assert [s.players[c] for c in s.candidates] == ["Ben", "Chloe"]
    with pytest.raises(RuleError, match="not one of the winners"):
        kd_vote.apply(s, kd_vote.ChooseLeader("Dan", "Ana"))
    with pytest.raises(RuleError, match="moderator Dan chooses"):
        kd_vote.apply(s, kd_vote.ChooseLeader("Ben", "Ben"))
    s = kd_vote.apply(s, kd_vote.ChooseLeader("Dan", "Chloe"))
    assert s.phase == kd_vote.DONE and s.leader_name == "Chloe"


def test_leader_on_winning_side_keeps_the_token():
    s = play(vote(ABC), "Ana aye 3", "Ben nay 2", "Chloe aye 1")
    assert s.outcome == "aye" and s.leader_name == "Ana"


# -- clean-up -------------------------------------------------------------------------------


def test_clean_up_order_balance_split_then_winners_power_in():
    """Balance 5, two pass for power: 2 each, 1 stays; then the winners' 4 go in (not
    shared this vote); the loser takes his 3 back; each passer's coin goes behind the
    screen (rulebook: Rita and David take 2 each, 1 stays)."""
    players = ["Rita", "David", "Ana", "Ben", "Chloe"]
    s = play(vote(players, balance=5), "Rita pass-power", "David pass-power", "Ana aye 4",
             "Ben nay 3", "Chloe pass-moderator")
    assert s.phase == kd_vote.DONE and s.outcome == "aye"
    assert s.shares == (2, 2, 0, 0, 0)
    assert s.balance == 1 + 4
    assert s.power == (10, 10, 4, 8, 8)
    assert s.coins == (11, 11, 10, 10, 11)


def test_pass_moderator_does_not_share_the_balance():
    s = play(vote(ABC, balance=4), "Ana pass-moderator", "Ben pass-power", "Chloe aye 1")
    assert s.shares == (0, 4, 0) and s.balance == 0 + 1


def test_no_pass_for_power_balance_stays():
    s = play(vote(ABC, balance=7), "Ana aye 2", "Ben nay 1", "Chloe nay 1")
    s = kd_vote.apply(s, kd_vote.BreakTie("Ben", "nay"))
    s = kd_vote.apply(s, kd_vote.ChooseLeader("Ben", "Ben"))
    assert s.shares == (0, 0, 0) and s.balance == 7 + 2 and s.power[0] == 8 - 2 + 2


# -- secret ballots -------------------------------------------------------------------------


def test_secret_ballots_revealed_together_most_power_takes_leader():
    s = vote(ABC, leader="Ana", moderator="Ben", mode=kd_vote.SECRET)
    s = lock(s, {"Ana": "aye 2", "Ben": "nay 4"})
    assert s.phase == kd_vote.VOTING and s.committed == (0, 0, 0) and s.power == (8, 8, 8)
    s = lock(s, {"Chloe": "aye 2"})
    assert s.phase == kd_vote.TIE and s.leader_name == "Ben"
    s = kd_vote.apply(s, kd_vote.BreakTie("Ben", "aye"))
    # Ben (4, the leader) lost: Ana and Chloe tie with 2 → the moderator chooses
    assert s.phase == kd_vote.LEADER_CHOICE
    s = kd_vote.apply(s, kd_vote.ChooseLeader("Ben", "Ana"))
    assert s.leader_name == "Ana" and s.balance == 3 + 4


def test_secret_first_moderator_claim_from_the_leader_wins_later_claims_pass_for_power():
    """Seating order from the leader (Chloe): Chloe, Dan, Ana, Ben. Dan claims first; Ana's
    claim counts as passing for power (shares the Balance)."""
    players = ["Ana", "Ben", "Chloe", "Dan"]
    s = vote(players, leader="Chloe", moderator="Ben", balance=3, mode=kd_vote.SECRET)
    s = lock(s, {"Ana": "pass-moderator", "Ben": "aye 1", "Chloe": "nay 2",
                 "Dan": "pass-moderator"})
    assert s.phase == kd_vote.DONE and s.moderator_name == "Dan"
    assert s.choices == ("pass-power", "aye", "nay", "pass-moderator")
    assert [s.players[x] for x in s.late_claims] == ["Ana"]
    assert s.shares == (3, 0, 0, 0) and s.coins == (11, 10, 10, 11)


def test_secret_no_strict_most_power_leader_stays():
    s = vote(ABC, leader="Chloe", mode=kd_vote.SECRET)
    s = lock(s, {"Ana": "aye 2", "Ben": "aye 2", "Chloe": "pass-power"})
    assert s.outcome == "aye" and s.leader_name == "Chloe"


def test_secret_locked_ballot_cannot_change_and_overcommit_refused():
    s = lock(vote(ABC, power=3, mode=kd_vote.SECRET), {"Ana": "aye 1"})
    with pytest.raises(RuleError, match="locked and can't change"):
        lock(s, {"Ana": "nay 1"})
    with pytest.raises(RuleError, match="has only 3"):
        lock(s, {"Ben": "nay 4"})
    with pytest.raises(RuleError, match="not a ballot"):
        lock(s, {"Ben": "add 1"})


def test_secret_vote_refuses_a_lock_after_the_reveal():
    s = lock(vote(ABC, mode=kd_vote.SECRET), {"Ana": "aye 1", "Ben": "nay 2", "Chloe": "aye 2"})
    with pytest.raises(RuleError, match="vote has ended"):
        lock(s, {"Ana": "aye 1"})


# -- serialisation (journal) ----------------------------------------------------------------


def test_actions_round_trip_through_dicts():
    for action in (kd_vote.Play("Ana", "aye", 2), kd_vote.Lock("Ana", "nay", 1),
                   kd_vote.BreakTie("Ben", "aye"), kd_vote.ChooseLeader("Ben", "Ana")):
        assert kd_vote.action_from_dict(action.to_dict()) == action


def test_lock_public_record_names_only_the_player_and_merges_back():
    a = kd_vote.Lock("Ana", "nay", 5)
    assert a.public_dict() == {"action": "lock", "player": "Ana"}
    assert {**a.public_dict(), **a.private_dict()} == a.to_dict()
    assert "nay" not in repr(a) and "5" not in repr(a)


def test_states_round_trip_through_dicts_at_every_step():
    s = vote(moderator="Julius")
    for t in RULEBOOK_TURNS:
        assert kd_vote.from_dict(kd_vote.to_dict(s)) == s
        s = play(s, t)
    s = lock(vote(ABC, mode=kd_vote.SECRET), {"Ana": "aye 1"})
    assert kd_vote.from_dict(kd_vote.to_dict(s)) == s
    with pytest.raises(RuleError):
        kd_vote.from_dict({**kd_vote.to_dict(s), "ballot": 1})


def test_sealed_ballots_stay_out_of_repr():
    s = lock(vote(ABC, mode=kd_vote.SECRET), {"Ana": "nay 7"})
    assert "nay" not in repr(s) and "7" not in repr(s)


def test_new_vote_refuses_bad_setups():
    with pytest.raises(RuleError, match="3–5"):
        vote(["Ana", "Ben"])
    with pytest.raises(RuleError) as err:
        vote(ABC, leader="Zoe")
    assert err.value.field == "leader"
    with pytest.raises(RuleError) as err:
        vote(ABC, mode="shouting")
    assert err.value.field == "mode"
