"""The King's Dilemma game night through Session + Journal (companion/games/kings_dilemma/adapter.py):
the rulebook's worked vote example, kingdom outcomes, the game's end and scoring, setup from
the campaign ledger, and refusals with the field a player understands."""

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.kings_dilemma import campaign as kc
from companion.games.kings_dilemma.adapter import (
    KingsDilemma,
    SeatPads,
    VoteHistory,
    campaign_record,
    turns,
)
from companion.games.kings_dilemma.data import shipped
from companion.games.kings_dilemma.kingdom import RESOURCES
from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent, Light, Press
from companion.play.session import Session
from companion.play.turns import NOT_YOUR_TURN, NOT_YOUR_UNDO, Reply, lights
from companion.storage.history import History
from companion.storage.journal import Journal

FIVE = ["Theodore", "Julius", "Armin", "Diana", "Frances"]
UP = dict.fromkeys(RESOURCES, "up")
# Worked example of a council: Théodore leads and passes to become moderator, …
WORKED = [("Theodore", "pass-moderator", 0), ("Julius", "aye", 1), ("Armin", "nay", 1),
          ("Diana", "aye", 1), ("Frances", "nay", 4), ("Julius", "add", 3),
          ("Armin", "add", 1), ("Diana", "add", 1)]


def start(journal, **setup):
    base = {"players": FIVE, "leader": "Theodore", "moderator": "Julius", "momenta": UP}
    merged = {k: v for k, v in {**base, **setup}.items() if v is not None}
    return Session.start(journal, KingsDilemma(), merged)


def play(session, player, move, power=0):
    return session.dispatch({"action": "play", "player": player, "move": move, "power": power})


def test_rulebook_worked_vote_example_through_the_session(journal):
    """Worked example of a council: 6–6 after Diana (right of Frances), the moderator
    Théodore breaks the tie for Aye, the Leader token goes to Julius; clean-up as the spec's
    vote output (Balance 3 + 6 winners' power = 9, Théodore's pass coin)."""
    s = start(journal)
    s.dispatch({"action": "dilemma", "mode": "open", "card": "worked example"})
    for player, move, power in WORKED[:-1]:
        view = play(s, player, move, power)
        assert view["vote"]["phase"] == "voting"
    view = play(s, *WORKED[-1])
    assert view["vote"]["phase"] == "tie" and view["vote"]["totals"] == {"aye": 6, "nay": 6}
    assert lights(turns(view))[0] is Light.ATTENTION  # the moderator must decide
    view = s.dispatch({"action": "break-tie", "player": "Theodore", "side": "aye"})
    assert view["phase"] == "outcome"
    assert (view["leader"], view["moderator"], view["balance"]) == ("Julius", "Theodore", 9)
    assert view["power"] == {"Theodore": 8, "Julius": 4, "Armin": 8, "Diana": 6, "Frances": 8}
    assert view["coins"]["Theodore"] == 11 and view["coins"]["Julius"] == 10
    assert view["history"] == ({"round": 1, "card": "worked example", "mode": "open",
                                "outcome": "aye", "totals": {"aye": 6, "nay": 6}},)
    # the new Leader reads the outcome: their turn
    assert lights(turns(view)) == {0: Light.MODERATOR, 1: Light.YOUR_TURN, 2: Light.OFF,
                            3: Light.OFF, 4: Light.OFF}


def test_a_view_holds_the_nights_own_vote_summaries(journal):
    """A view is made at every action, so it costs the same at the ten-thousandth vote as
    at the first: its history is the night's own summaries, not copies, one tuple shared
    by every view until the next vote resolves."""
    s = start(journal)
    s.dispatch({"action": "dilemma", "mode": "open", "card": "worked example"})
    for player, move, power in WORKED:
        play(s, player, move, power)
    after = s.dispatch({"action": "break-tie", "player": "Theodore", "side": "aye"})
    again = s.public_view()
    assert after["history"] is again["history"]
    assert after["history"][0] is s.state.history[0]


def worked_vote_to_tie(session):
    session.dispatch({"action": "dilemma", "mode": "open"})
    for turn in WORKED:
        view = play(session, *turn)
    return view


def refused(session, action, field, words):
    """The action is refused with ``field`` and ``words``, and nothing is journaled."""
    before = session.journal.actions(session.game_id)
    view = session.public_view()
    with pytest.raises(RuleError, match=words) as err:
        session.dispatch(action)
    assert err.value.field == field
    assert session.journal.actions(session.game_id) == before
    assert session.public_view() == view


# -- refusals a player understands -------------------------------------------------------------


def test_wrong_players_turn_refused(journal):
    s = start(journal)
    s.dispatch({"action": "dilemma", "mode": "open"})
    refused(s, {"action": "play", "player": "Julius", "move": "aye", "power": 1}, "player",
            "it is Theodore's turn, not Julius's")


def test_changing_side_refused(journal):
    s = start(journal)
    s.dispatch({"action": "dilemma", "mode": "open"})
    for turn in WORKED[:5]:
        play(s, *turn)
    refused(s, {"action": "play", "player": "Julius", "move": "nay", "power": 1}, "move",
            "Julius voted Aye and can't change side")


def test_over_committing_refused(journal):
    s = start(journal, power={"Theodore": 3})
    s.dispatch({"action": "dilemma", "mode": "open"})
    refused(s, {"action": "play", "player": "Theodore", "move": "aye", "power": 4}, "power",
            "Theodore commits 4 power but has only 3 behind the screen")


def test_needed_tie_break_missing_refused(journal):
    """On a tie nothing moves on until the moderator decides: not the outcome, not the next
    dilemma, and only the moderator may break it."""
    s = start(journal)
    worked_vote_to_tie(s)
    refused(s, {"action": "outcome", "changes": []}, "action",
            "tied: the moderator Theodore breaks the tie first")
    refused(s, {"action": "dilemma", "mode": "open"}, "action", "breaks the tie first")
    refused(s, {"action": "break-tie", "player": "Julius", "side": "aye"}, "player",
            "the moderator Theodore breaks the tie, not Julius")


def test_turn_after_the_vote_ended_refused(journal):
    s = start(journal)
    worked_vote_to_tie(s)
    refused(s, {"action": "play", "player": "Frances", "move": "add", "power": 1}, "player",
            "the vote has ended")
    s.dispatch({"action": "break-tie", "player": "Theodore", "side": "nay"})
    refused(s, {"action": "play", "player": "Frances", "move": "add", "power": 1}, "player",
            "the vote has ended")


def test_vote_action_without_a_dilemma_and_unknown_action_refused(journal):
    s = start(journal)
    refused(s, {"action": "play", "player": "Theodore", "move": "aye", "power": 1}, "action",
            "no vote in progress")
    refused(s, {"action": "bribe"}, "action", "'bribe' is not an action of this game")
    refused(s, {"action": "dilemma", "mode": "whispered"}, "mode", "not a vote mode")


# -- setup ------------------------------------------------------------------------------------


def ledger():
    """Three houses: Ana prestige 4 (house 2), Ben 4 (house 7), Chloe 1 (house 5)."""
    c = kc.new_campaign(shipped().settings)
    for name, number in (("Ana", 2), ("Ben", 7), ("Chloe", 5)):
        c = kc.apply(c, kc.AddHouse(name, number))
    c = kc.apply(c, kc.SetStart("Chloe", 9, 12))
    houses = tuple(replace(h, prestige={"Ana": 4, "Ben": 4, "Chloe": 1}[h.name])
                   for h in c.houses)
    return replace(c, houses=houses)


def test_setup_from_the_campaign_ledger(journal):
    """Leader = highest prestige (tie Ana/Ben at 4: the higher house number, Ben, ranks
    higher), moderator = lowest (Chloe); starting power and coins per house."""
    s = Session.start(journal, KingsDilemma(), {"players": ["Ana", "Ben", "Chloe"],
                                                "campaign": ledger().to_dict(),
                                                "momenta": UP})
    view = s.public_view()
    assert (view["leader"], view["moderator"]) == ("Ben", "Chloe")
    assert view["power"] == {"Ana": 8, "Ben": 8, "Chloe": 9}
    assert view["coins"] == {"Ana": 10, "Ben": 10, "Chloe": 12}
    assert view["balance"] == 3 and view["phase"] == "council" and view["round"] == 0


@pytest.mark.parametrize(("setup", "field", "words"), [
    ({"momenta": None}, "momenta", "which side"),
    ({"leader": None}, "leader", "missing"),
    ({"moderator": "Zoe"}, "moderator", "not one of the players"),
    ({"players": ["Ana", "Ben"]}, "players", "2 players, but the game takes 3–5"),
    ({"seats": [0, 1, 2, 3, 3]}, "seats", "two players on the same seat"),
    ({"colour": "red"}, "colour", "unknown key"),
    ({"power": {"Julius": -1}}, "power.Julius", "whole number"),
    ({"public": {"power": "yes"}}, "public", "true|false"),
])
def test_setup_errors_name_the_field(journal, setup, field, words):
    base = {"players": FIVE, "leader": "Theodore", "moderator": "Julius", "momenta": UP}
    merged = {k: v for k, v in {**base, **setup}.items() if v is not None}
    with pytest.raises(RuleError, match=words) as err:
        Session.start(journal, KingsDilemma(), merged)
    assert err.value.field == field
    assert journal.unfinished() == []


def test_power_and_coins_hidden_when_the_table_does_not_track_them(journal):
    s = start(journal, public={"power": False, "coins": False})
    view = s.dispatch({"action": "dilemma", "mode": "secret"})
    assert view["power"] is None and view["coins"] is None
    assert "power" not in view["vote"] and "coins" not in view["vote"]


# -- kingdom, end, score ----------------------------------------------------------------------


def board(stability=0, **resources):
    res = {r: {"position": 0, "momentum": "up", "marker": False} for r in RESOURCES}
    for name, (momentum, marker) in resources.items():
        res[name] = {"position": 0, "momentum": momentum, "marker": marker}
    return {"track": {"min": -10, "max": 10}, "resources": res,
            "stability": {"position": stability, "min": -8, "max": 8}, "abdicated": False}


def quick_vote(session, winner="aye"):
    """An open vote won by ``winner`` (Theodore 2 on it, the others hold or pass)."""
    session.dispatch({"action": "dilemma", "mode": "open"})
    names = session.public_view()["players"]
    leader = session.public_view()["leader"]
    order = names[names.index(leader):] + names[:names.index(leader)]
    view = play(session, order[0], winner, 2)
    for p in order[1:]:
        view = play(session, p, "pass-power")
    return view


def test_outcome_applies_the_rulebook_momentum_examples(journal):
    """Kingdom tracks: Influence (down, marker) +1 → moves 1, flips up, marker removed,
    Stability +1; Morale (down, no marker) −1 → moves 2, gains a marker, Stability −2."""
    s = start(journal, momenta=None,
              kingdom=board(influence=("down", True), morale=("down", False)))
    quick_vote(s)
    view = s.dispatch({"action": "outcome", "changes": [{"resource": "influence", "amount": 1},
                                                        {"resource": "morale", "amount": -1}]})
    influence, morale = view["moves"]
    assert (influence["spaces"], influence["momentum"], influence["marker"],
            influence["stability_moved"]) == (1, "up", False, 1)
    assert (morale["spaces"], morale["momentum"], morale["marker"],
            morale["stability_moved"]) == (2, "down", True, -2)
    assert view["kingdom"]["stability"]["position"] == -1
    assert view["phase"] == "council" and view["ended"] is None


def test_abdication_ends_the_game_then_scoring(journal):
    """Stability reaching its end makes the king abdicate: the game is over (no further
    dilemma), then the end scoring is the same as companion score's."""
    s = start(journal, momenta=None, kingdom=board(stability=6))
    quick_vote(s)
    view = s.dispatch({"action": "outcome", "changes": [{"resource": "welfare", "amount": 1},
                                                        {"resource": "knowledge", "amount": 1}]})
    assert view["phase"] == "over" and view["ended"] == "abdicated-top"
    assert view["kingdom"]["stability"]["position"] == 8
    assert view["kingdom"]["resources"]["knowledge"]["position"] == 2  # still moved
    refused(s, {"action": "dilemma", "mode": "open"}, "action", "the game is over")
    refused(s, {"action": "score", "agendas": {}}, "agendas.Theodore", "missing")
    agendas = {p: {"resources": 0, "wealth": [5, 3, 1]} for p in FIVE}
    view = s.dispatch({"action": "score", "agendas": agendas})
    final = view["final"]
    assert view["phase"] == "scored" and final["end"] == "abdicated-top"
    # Passers for power each took 1 coin: 11 coins; Theodore (8 - 2 power into the Balance)
    # has the least power; the four passers share the Balance's 3 power: 0 each.
    assert set(final["winners"]) == {"Julius", "Armin", "Diana", "Frances"}
    lit = lights(turns(view))
    assert lit[0] is Light.OFF and all(lit[k] is Light.LEADER for k in range(1, 5))


def test_scored_night_goes_to_the_history_and_back_to_the_campaign_ledger(journal, tmp_path):
    """The final result is what History keeps (as companion score's), and campaign_record
    gives the ledger its record_game: prestige/crave by rank and end (by hand where the
    shipped table has no value), so the next game's setup reads the new prestige order."""
    houses = ["Ana", "Ben", "Chloe"]
    s = Session.start(journal, KingsDilemma(), {"players": houses, "momenta": UP,
                                                "campaign": ledger().to_dict()})
    s.dispatch({"action": "king-dies"})
    agendas = {"Ana": {"resources": 9, "wealth": [0, 0, 0]},
               "Ben": {"resources": 1, "wealth": [0, 0, 0]},
               "Chloe": {"resources": 4, "wealth": [0, 0, 0]}}
    view = s.dispatch({"action": "score", "agendas": agendas})
    s.finish(view["final"])
    assert History(tmp_path / "history.db").record(view["final"]) == 1
    hand = {"Ana": {"prestige": 5, "crave": 0}, "Chloe": {"prestige": 2, "crave": 0},
            "Ben": {"prestige": 0}}
    action = campaign_record(view, {"Ana": "opulence", "Ben": "avarice", "Chloe": "rebellion"},
                             hand)
    after = kc.apply(ledger(), kc.action_from_dict(action))
    assert after.games[-1].end == "king-died"
    assert {h.name: (h.prestige, h.crave) for h in after.houses} == {
        "Ana": (9, 0), "Ben": (4, 2), "Chloe": (3, 0)}  # Ben last: 2 crave from the table
    assert after.setup(houses).leader == "Ana" and after.setup(houses).moderator == "Chloe"


def test_king_dies_on_an_outcome_or_between_dilemmas(journal):
    s = start(journal)
    quick_vote(s)
    view = s.dispatch({"action": "outcome", "changes": [], "king_dies": True})
    assert (view["phase"], view["ended"]) == ("over", "king-died")
    t = start(journal)
    refused(t, {"action": "score", "agendas": {}}, "action", "the king reigns")
    assert t.dispatch({"action": "king-dies"})["ended"] == "king-died"


def test_deals_and_card_effects_move_coins_and_power(journal):
    s = start(journal)
    s.dispatch({"action": "deal", "from": "Armin", "to": "Diana", "coins": 4})
    view = s.dispatch({"action": "adjust", "player": "Frances", "power": -2, "coins": 1})
    assert view["coins"]["Armin"] == 6 and view["coins"]["Diana"] == 14
    assert view["power"]["Frances"] == 6 and view["coins"]["Frances"] == 11
    refused(s, {"action": "deal", "from": "Armin", "to": "Diana", "coins": 7}, "coins",
            "Armin has only 6 coins")
    refused(s, {"action": "adjust", "player": "Frances", "power": -7}, "power",
            "Frances has only 6 power")
    s.dispatch({"action": "dilemma", "mode": "secret"})
    refused(s, {"action": "adjust", "player": "Frances", "power": 1}, "power",
            "power can't change during a vote")
    view = s.dispatch({"action": "deal", "from": "Diana", "to": "Julius", "coins": 2})
    assert view["vote"]["coins"]["Julius"] == 12 == view["coins"]["Julius"]


def test_undo_through_the_pads_forgets_pending_choices(journal):
    """A pending Aye 2 pressed in a vote taken back by undo does not carry over into the
    next vote: a bare long press there is refused (choose first)."""
    s = start(journal)
    s.dispatch({"action": "dilemma", "mode": "open"})
    pads = SeatPads(s)
    for key in ("a", "a"):
        pads.press(ButtonEvent(0, key))
    assert pads.view()["vote"]["pending"] == "aye 2"
    assert pads.undo() == {"action": "dilemma", "mode": "open"}
    s.dispatch({"action": "dilemma", "mode": "open"})
    assert pads.view()["vote"]["pending"] is None
    with pytest.raises(RuleError, match="choose first"):
        pads.press(ButtonEvent(0, "a", Press.LONG))


def test_open_vote_other_seats_are_refused_by_the_shared_layer_a_passed_one_by_the_grammar(
        journal):
    """In an open vote only the seat on turn is heard: another seat's press is refused "not
    your turn" by the shared layer before the grammar reads it, and changes nothing, not
    even a pending choice; a seat that passed is still read by the grammar, which tells it
    it has nothing more to do."""
    s = start(journal)
    s.dispatch({"action": "dilemma", "mode": "open"})
    pads = SeatPads(s)
    seat = dict(zip(FIVE, pads.view()["seats"], strict=True))
    assert turns(pads.view()).hears == {seat["Theodore"]}
    play(s, "Theodore", "pass-moderator")
    assert turns(pads.view()).hears == {seat["Theodore"], seat["Julius"]}
    before, view = s.length, pads.view()
    for button in "ac":
        assert pads.press(ButtonEvent(seat["Armin"], button)) == Reply(NOT_YOUR_TURN)
    # a hold from a seat not on turn asks for an undo: only Theodore made the last action
    assert pads.press(ButtonEvent(seat["Armin"], "b", Press.LONG)) == Reply(NOT_YOUR_UNDO)
    assert s.length == before and pads.view() == view
    with pytest.raises(RuleError, match="Theodore passed: nothing more to do"):
        pads.press(ButtonEvent(seat["Theodore"], "a"))
    assert pads.press(ButtonEvent(seat["Julius"], "a")).did == "pending"
    assert pads.view()["vote"]["pending"] == "aye 1"


def test_resume_mid_vote_and_undo(journal):
    s = start(journal)
    s.dispatch({"action": "dilemma", "mode": "open"})
    for turn in WORKED[:4]:
        play(s, *turn)
    again = Session.resume(journal, KingsDilemma())
    assert again.public_view() == s.public_view()
    assert again.public_view()["vote"]["turn"] == "Frances"
    again.undo()
    assert again.public_view()["vote"]["turn"] == "Diana"


# -- any presses -------------------------------------------------------------------------------

PRESSES = st.lists(st.tuples(st.integers(0, 4), st.sampled_from("abc"),
                             st.sampled_from(list(Press))), max_size=60)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mode=st.sampled_from(["open", "secret"]), events=PRESSES)
def test_any_presses_keep_power_and_replay_to_the_same_night(tmp_path_factory, mode, events):
    """Whatever the seats press, a press is either refused (RuleError in an open vote,
    silently ignored in a secret one) or journaled as an action the rules accept; power is
    conserved (behind screens + on vote cards + Balance); the journal replays to the very
    same state (Session.resume)."""
    with Journal(tmp_path_factory.mktemp("night") / "j.db") as j:
        s = start(j)
        s.dispatch({"action": "dilemma", "mode": mode})
        pads = SeatPads(s)
        total = 5 * 8 + 3
        for seat, button, how in events:
            try:
                pads.press(ButtonEvent(seat, button, how))
            except RuleError:
                assert mode == "open" or s.state.vote.phase != "voting"
            vote = s.state.vote
            on_cards = sum(vote.committed) if vote.phase != "done" else 0
            assert sum(vote.power) + vote.balance + on_cards == total
        again = Session.resume(j, KingsDilemma())
        assert again.state == s.state


def test_vote_history_adds_in_place_unless_branched_from():
    """A night's history grows by sharing its list (linear replay); a state branched from
    (an older night added to again) copies, so neither sees the other's votes."""
    root = VoteHistory()
    one = root.add({"round": 1})
    two = one.add({"round": 2})
    assert two._items is one._items  # no copy on the straight line
    other = one.add({"round": 9})
    assert list(two) == [{"round": 1}, {"round": 2}] and len(two) == 2
    assert list(other) == [{"round": 1}, {"round": 9}] and other[-1] == {"round": 9}
    assert list(one) == [{"round": 1}] and list(root) == [] and root == ()
    assert two == ({"round": 1}, {"round": 2}) and two != other
