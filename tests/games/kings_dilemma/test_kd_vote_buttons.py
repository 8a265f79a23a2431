"""Seat-pad button grammar for the King's Dilemma vote (docs/button-grammar.md): a = Aye,
b = Nay, c = Pass; further presses add power (capped, refused beyond); a long press locks
(secret) or ends the turn (open); a long press on Pass passes to become moderator; a locked
ballot can't change; a secret seat's pending choice never reaches the public view."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kings_dilemma import buttons as kd_buttons
from companion.games.kings_dilemma import vote as kd_vote
from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent, Press

ABC = ["Ana", "Ben", "Chloe"]
S, L = Press.SHORT, Press.LONG


def vote(mode, power=3, leader="Ana", moderator="Ben"):
    return kd_vote.new_vote(ABC, leader=leader, moderator=moderator,
                            power=dict.fromkeys(ABC, power), coins=dict.fromkeys(ABC, 0),
                            balance=0, mode=mode)


def presses(state, pads, seat, spec):
    """spec like "a a a A": lower case short, upper case long. Returns (pads, last action)."""
    action = None
    for key in spec.split():
        event = ButtonEvent(seat, key.lower(), L if key.isupper() else S)
        pads, action = kd_buttons.press(state, pads, event)
    return pads, action


# -- secret vote ----------------------------------------------------------------------------


def test_secret_each_further_press_adds_one_power_and_long_press_locks():
    s = vote(kd_vote.SECRET)
    pads, action = presses(s, kd_vote.pads_for(s), 1, "b b b")
    assert action is None and pads[1] == kd_vote.Pad("nay", 3)
    pads, action = presses(s, pads, 1, "B")
    assert action == kd_vote.Lock("Ben", "nay", 3) and pads[1] == kd_vote.Pad()


def test_secret_other_side_switches_the_pending_choice_before_the_lock():
    s = vote(kd_vote.SECRET)
    pads, _ = presses(s, kd_vote.pads_for(s), 0, "a a b")
    assert pads[0] == kd_vote.Pad("nay", 1)


def test_power_cap_refused_with_a_reason():
    s = vote(kd_vote.SECRET, power=2)
    pads, _ = presses(s, kd_vote.pads_for(s), 0, "a a")
    with pytest.raises(RuleError, match="only 2 power"):
        presses(s, pads, 0, "a")


def test_no_power_no_vote_on_a_side():
    s = vote(kd_vote.SECRET, power=0)
    with pytest.raises(RuleError, match="only 0 power"):
        presses(s, kd_vote.pads_for(s), 0, "a")


def test_secret_pass_for_power_then_hold_a_side_button_locks_it():
    s = vote(kd_vote.SECRET)
    _, action = presses(s, kd_vote.pads_for(s), 2, "a c A")
    assert action == kd_vote.Lock("Chloe", "pass-power", 0)


def test_long_pass_passes_to_become_moderator_whatever_is_pending():
    s = vote(kd_vote.SECRET)
    _, action = presses(s, kd_vote.pads_for(s), 2, "a a C")
    assert action == kd_vote.Lock("Chloe", "pass-moderator", 0)


def test_long_press_without_a_choice_refused():
    s = vote(kd_vote.SECRET)
    with pytest.raises(RuleError, match="choose first"):
        presses(s, kd_vote.pads_for(s), 0, "A")


def test_long_press_on_the_other_side_refused_not_locked():
    s = vote(kd_vote.SECRET)
    pads, _ = presses(s, kd_vote.pads_for(s), 0, "b b")
    with pytest.raises(RuleError, match="hold Nay to confirm"):
        presses(s, pads, 0, "A")


def test_locked_ballot_cannot_change_on_the_buttons():
    s = vote(kd_vote.SECRET)
    pads, action = presses(s, kd_vote.pads_for(s), 0, "a A")
    s = kd_vote.apply(s, action)
    for key in ("a", "B", "c"):
        with pytest.raises(RuleError, match="locked and can't change"):
            presses(s, pads, 0, key)


def test_unknown_seat_or_button_refused():
    s = vote(kd_vote.SECRET)
    with pytest.raises(RuleError) as err:
        kd_buttons.press(s, kd_vote.pads_for(s), ButtonEvent(3, "a"))
    assert err.value.field == "seat"
    with pytest.raises(RuleError) as err:
        kd_buttons.press(s, kd_vote.pads_for(s), ButtonEvent(0, "d"))
    assert err.value.field == "button"


def test_secret_pending_choice_never_reaches_the_public_view():
    s = vote(kd_vote.SECRET)
    quiet = kd_vote.pads_for(s)
    busy, _ = presses(s, quiet, 0, "a a")
    busy, _ = presses(s, busy, 1, "c")
    assert kd_vote.public_view(s, busy) == kd_vote.public_view(s, quiet) == kd_vote.public_view(s)


def test_secret_whole_vote_on_the_buttons():
    s = vote(kd_vote.SECRET)
    pads = kd_vote.pads_for(s)
    for seat, spec in ((0, "a a A"), (1, "C"), (2, "b B")):
        pads, action = presses(s, pads, seat, spec)
        s = kd_vote.apply(s, action)
    assert s.phase == kd_vote.DONE and s.outcome == "aye" and s.moderator_name == "Ben"
    with pytest.raises(RuleError, match="vote has ended"):
        presses(s, pads, 0, "a")


# -- open vote ------------------------------------------------------------------------------


def test_open_first_turn_long_press_plays_the_choice():
    s = vote(kd_vote.OPEN)
    _, action = presses(s, kd_vote.pads_for(s), 0, "a a A")
    assert action == kd_vote.Play("Ana", "aye", 2)


def test_open_later_turn_presses_add_and_bare_long_press_holds():
    s = vote(kd_vote.OPEN, power=5)
    for seat, spec in ((0, "a A"), (1, "b b B"), (2, "a a A")):
        _, action = presses(s, kd_vote.pads_for(s), seat, spec)
        s = kd_vote.apply(s, action)
    assert s.current_player == "Ana"  # Ben leads: the vote ends after Ana
    _, action = presses(s, kd_vote.pads_for(s), 0, "a a A")
    assert action == kd_vote.Play("Ana", "add", 2)
    _, action = presses(s, kd_vote.pads_for(s), 0, "A")
    assert action == kd_vote.Play("Ana", "hold", 0)


@pytest.mark.parametrize(("spec", "words"), [("b", "can't change side"),
                                               ("B", "can't change side"),
                                               ("c", "can't pass now"),
                                               ("C", "can't pass now")])
def test_open_later_turn_refuses_other_side_and_pass(spec, words):
    s = vote(kd_vote.OPEN)
    for seat, keys in ((0, "a A"), (1, "b b B"), (2, "a a A")):
        s = kd_vote.apply(s, presses(s, kd_vote.pads_for(s), seat, keys)[1])
    with pytest.raises(RuleError, match=words):
        presses(s, kd_vote.pads_for(s), 0, spec)


def test_open_second_moderator_claim_refused_and_passed_seat_refused():
    s = vote(kd_vote.OPEN)
    s = kd_vote.apply(s, presses(s, kd_vote.pads_for(s), 0, "C")[1])
    with pytest.raises(RuleError, match="Ana already passed to become moderator"):
        presses(s, kd_vote.pads_for(s), 1, "C")
    with pytest.raises(RuleError, match="Ana passed"):
        presses(s, kd_vote.pads_for(s), 0, "a")


def test_open_pending_choice_of_the_seat_on_turn_is_public():
    s = vote(kd_vote.OPEN)
    pads, _ = presses(s, kd_vote.pads_for(s), 0, "b b")
    assert kd_vote.public_view(s, pads)["pending"] == "nay 2"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(kd_vote.MODES), st.integers(0, 3),
       st.lists(st.tuples(st.integers(0, 2), st.sampled_from("abc"), st.sampled_from(Press)),
                max_size=40))
def test_any_press_sequence_yields_only_actions_the_engine_accepts(mode, power, events):
    """The grammar either refuses a press (RuleError, nothing changes) or produces an action
    the vote accepts: the pads can't drive the engine into a refusal. In an open vote the
    grammar reads only the presses the shared layer lets through (``turns``' ``hears``:
    the seat on turn, a seat that passed); through it, test_games_kd's any-presses test."""
    s = vote(mode, power=power)
    pads = kd_vote.pads_for(s)
    for seat, button, how in events:
        if (s.mode == kd_vote.OPEN and s.phase == kd_vote.VOTING and seat != s.turn
                and not s.passed(seat)):
            continue  # refused "not your turn" before the grammar
        try:
            new_pads, action = kd_buttons.press(s, pads, ButtonEvent(seat, button, how))
        except RuleError:
            continue
        pads = new_pads
        if action is not None:
            s = kd_vote.apply(s, action)
            if s.phase == kd_vote.TIE:
                s = kd_vote.apply(s, kd_vote.BreakTie(s.moderator_name, kd_vote.AYE))
            if s.phase == kd_vote.LEADER_CHOICE:
                s = kd_vote.apply(s, kd_vote.ChooseLeader(s.moderator_name,
                                                          s.players[s.candidates[0]]))
