"""Koryŏ and Chosŏn rules adapters (companion/games): set-up, action dicts, public view, seat
lights, power options, and whole 8-round games through a real Session and Journal."""

import json
import random

import pytest

from companion.games.choson import rules as choson
from companion.games.koryo import rules as koryo
from companion.games.majority.adapter import SeatedState
from companion.games.majority.autoplay import next_action
from companion.games.majority.rules import Area, StartRound
from companion.games.registry import rules_for
from companion.play.errors import RuleError
from companion.play.seat import Light
from companion.play.session import Session
from companion.play.turns import lights
from companion.storage.journal import Journal

NAMES = ["Ana", "Ben", "Chloe"]
SEATS = [4, 0, 2]  # players sit on configured seats 4, 0 and 2


def start(game, names=NAMES, seats=SEATS, **extra):
    rules = rules_for(game)
    return rules, rules.initial({"players": list(names), "seats": list(seats), **extra})


def play_game(session: Session, seed: int) -> list[dict]:
    """Drive ``session`` to the end with the seeded player; returns every view seen."""
    rng = random.Random(seed)
    views = [session.public_view()]
    while views[-1]["phase"] != "over":
        views.append(session.dispatch(next_action(session.rules, session.state, rng)))
        assert len(views) < 2000, "the game does not end"
    return views


# -- set-up ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["koryo", "choson"])
def test_setup_keeps_each_players_seat_and_the_first_player(game):
    rules, seated = start(game, first_player="Ben")
    view = rules.public_view(seated)
    assert view["players"] == NAMES and view["seats"] == SEATS
    assert view["first_player"] == "Ben" and view["round"] == 0 and view["phase"] == "setup"


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ({"players": ["Ana"]}, "players"),  # the engines take 2–4 players
        ({"players": ["Ana", "Ben"], "seats": [1, 1]}, "seats"),
        ({"players": ["Ana", "Ben"], "seats": [1]}, "seats"),
        ({"players": ["Ana", "Ben"], "seats": [0, -1]}, "seats.1"),
        ({"players": ["Ana", "Ben"], "colour": "red"}, "colour"),
        ({"players": "Ana, Ben"}, "players"),
        ({"players": ["Ana", "Ben"], "first_player": "Zed"}, "first_player"),
    ],
)
@pytest.mark.parametrize("game", ["koryo", "choson"])
def test_bad_setup_is_refused_naming_the_field(game, setup, field):
    with pytest.raises(RuleError) as exc:
        rules_for(game).initial(setup)
    assert exc.value.field == field


def test_unknown_game_is_refused():
    with pytest.raises(RuleError) as exc:
        rules_for("chess")
    assert exc.value.field == "game"


# -- actions -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"action": "fly"}, "action"),  # unknown action
        ({"action": "reveal", "player": "Ana", "cards": 3}, "action"),  # cards not a mapping
        ({"action": "reveal", "player": "Ana"}, "action"),  # a field missing
        ({"action": "end_turn", "player": "Ana", "hat": 1}, "hat"),  # unknown field
        ({"action": "reveal", "player": "Ben", "cards": {"9": 1}}, "player"),  # not his turn
        ({"action": "reveal", "player": "Ana", "cards": {"9": 10}}, "cards.9"),  # 9 Merchants
        ("end_round", "action"),
    ],
)
def test_bad_action_dict_is_a_rule_error_naming_the_field(action, field):
    rules, seated = start("koryo")
    seated = rules.apply(seated, {"action": "start_round"})
    with pytest.raises(RuleError) as exc:
        rules.apply(seated, action)
    assert exc.value.field == field


def test_action_dicts_are_the_engine_actions_and_keep_the_seats():
    """apply() turns the journaled dict into the engine's action: same state as the engine."""
    rules, seated = start("koryo")
    cards = {"9": 2}
    after = rules.apply(rules.apply(seated, {"action": "start_round"}),
                        {"action": "reveal", "player": "Ana", "cards": cards})
    state = koryo.apply(koryo.apply(seated.state, StartRound()),
                        koryo.action_from_dict({"action": "reveal", "player": "Ana",
                                                "cards": cards}))
    assert after == SeatedState(tuple(SEATS), state)


# -- public view -------------------------------------------------------------------------


def test_koryo_view_shows_season_deal_limit_broadcaster_bonus_and_bank():
    """Round r deals 11 − r (+1 to the Broadcaster majority) and keeps at most r + 2."""
    rules, seated = start("koryo")
    state = seated.state.__class__(
        players=tuple(NAMES), areas=(Area.of({8: 2}), Area(), Area()),
        tokens=(2, 1, 0), round=2, phase=koryo.SETUP,
    )
    started = rules.apply(SeatedState(seated.seats, state), {"action": "start_round"})
    view = rules.public_view(started)
    assert (view["round"], view["deal"], view["limit"]) == (3, 8, 5)
    assert view["deals"] == {"Ana": 9, "Ben": 8, "Chloe": 8}
    assert view["bank"] == 5 and view["tokens"] == {"Ana": 2, "Ben": 1, "Chloe": 0}
    assert view["in_play"]["8"] == 2 and view["deck"]["8"] == 8
    power = next(p for p in view["powers"] if p["code"] == "deal_bonus")
    assert power["player"] == "Ana" and power["family"] == 8


def test_koryo_view_names_the_omniscient_tie_breaker():
    rules, seated = start("koryo")
    areas = (Area.of({1: 1, 9: 2}), Area.of({9: 2}), Area.of({7: 1}))
    state = seated.state.__class__(players=tuple(NAMES), areas=areas, tokens=(0, 0, 0))
    view = rules.public_view(SeatedState(seated.seats, state))
    merchants = next(m for m in view["majorities"] if m["family"] == 9)
    assert merchants == {"family": 9, "holder": "Ana", "count": 2, "tied": ["Ana", "Ben"],
                         "tie_breaker": "Omniscient"}
    assert view["omniscient"] == "Ana"


def test_choson_view_counts_only_kept_events_in_play_and_shows_the_shield():
    rules, seated = start("choson")
    state = seated.state.__class__(
        players=tuple(NAMES), areas=(Area.of({1: 2, 4: 1}),) + (Area(),) * 2,
        tokens=(0, 0, 0), kept_events=(0, 2, 1), shield=("Ana", 4), legacy="Ben",
    )
    view = rules.public_view(SeatedState(seated.seats, state))
    assert view["in_play"]["event"] == 3 and view["deck"]["event"] == 10
    assert view["shield"] == {"player": "Ana", "family": 4} and view["legacy"] == "Ben"
    assert view["kept_events"] == {"Ana": 0, "Ben": 2, "Chloe": 1}


def test_discard_power_carries_excess_and_limit_for_translated_texts():
    """End phase: over the limit → a MUST discard power with the numbers its text needs."""
    rules, seated = start("koryo")
    state = seated.state.__class__(
        players=tuple(NAMES), areas=(Area.of({9: 5, 6: 1}),) + (Area(),) * 2,
        tokens=(0, 0, 0), round=1, phase=koryo.END,
    )
    view = rules.public_view(SeatedState(seated.seats, state))
    power = next(p for p in view["powers"] if p["code"] == "discard")
    assert power["must"] and power["player"] == "Ana"
    assert power["params"] == {"excess": 3, "limit": 3}
    assert view["limits"][0] == {"player": "Ana", "counted": 6, "limit": 3, "excess": 3}


# -- options -----------------------------------------------------------------------------


def test_options_are_exactly_the_legal_choices_of_a_power():
    """Barbarian: destroy one character of another player, never the Guardian holder's."""
    rules, seated = start("koryo")
    areas = (Area(), Area.of({7: 1, 3: 2}), Area.of({9: 1, 2: 1}))
    state = seated.state.__class__(players=tuple(NAMES), areas=areas, tokens=(0, 0, 0),
                                   round=1, phase=koryo.SETUP)
    seated = rules.apply(SeatedState(seated.seats, state), {"action": "start_round"})
    seated = rules.apply(seated, {"action": "reveal", "player": "Ana",
                                  "cards": {"barbarian": 1}})
    power = next(p for p in rules.public_view(seated)["powers"] if p["code"] == "destroy")
    options = rules.options(seated, power)
    assert sorted((o["target"], o["family"]) for o in options) == [("Chloe", 2), ("Chloe", 9)]
    for o in options:
        rules.apply(seated, o)


def test_options_of_an_informative_power_are_empty():
    rules, seated = start("koryo")
    assert rules.options(seated, {"code": "limit_plus_2", "player": "Ana"}) == []


# -- lights ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["koryo", "choson"])
def test_the_acting_seat_says_your_turn_and_the_first_player_stays_lit(game):
    """Between turns the first player acts (their seat: YOUR_TURN); once another player's
    turn comes, that seat is YOUR_TURN and the first player's FIRST_PLAYER."""
    rules, seated = start(game, first_player="Chloe")
    lit = lights(rules.turns(rules.public_view(seated)))
    assert lit == {2: Light.YOUR_TURN, 4: Light.OFF, 0: Light.OFF}
    seen = set()
    rng = random.Random(5)
    for _ in range(40):
        view = rules.public_view(seated)
        if view["final"] is not None:
            break
        acting = view["current_player"] or view["first_player"]
        lit = lights(rules.turns(view))
        seat = dict(zip(view["players"], view["seats"], strict=True))
        assert lit[seat[acting]] is Light.YOUR_TURN
        others = [li for s, li in lit.items() if s != seat[acting]]
        assert others.count(Light.OFF) == len(others) - (acting != view["first_player"])
        if acting != view["first_player"]:
            assert lit[seat[view["first_player"]]] is Light.FIRST_PLAYER
            seen.add(acting)
        seated = rules.apply(seated, next_action(rules, seated, rng))
    assert seen, "another player's turn came, with both lights on"


# -- whole games -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_koryo_full_game_through_session_rounds_first_player_lights_final(tmp_path, seed):
    """8 rounds: round r deals 11 − r and keeps r + 2; the first-player token (and its seat
    light) passes clockwise each round; the final score is the engine's, journaled."""
    rules = rules_for("koryo")
    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session.start(journal, rules, {"players": NAMES, "seats": SEATS})
        views = play_game(session, seed)
        actions = journal.actions(session.game_id)
        starts = [v for a, v in zip(actions, views[1:], strict=True)
                  if a["action"] == "start_round"]
        rounds = {v["round"]: v for v in starts}
        assert sorted(rounds) == list(range(1, 9))
        for r, v in rounds.items():
            assert (v["deal"], v["limit"]) == (11 - r, r + 2)
            assert v["first_player"] == NAMES[(r - 1) % 3]
            assert lights(rules.turns(v))[SEATS[(r - 1) % 3]] == Light.YOUR_TURN  # starts it
        final = views[-1]["final"]
        score = koryo.score(session.state.state)
        assert [p["total"] for p in final["players"]] == [s.total for s in score.players]
        assert final["winners"] == list(score.winners)
        assert {lights(rules.turns(views[-1]))[SEATS[NAMES.index(w)]] for w in final["winners"]} \
            == {Light.LEADER}
        json.dumps(views[-1])  # the view is JSON data
        resumed = Session(journal, rules_for("koryo"), session.game_id)
        assert resumed.public_view() == views[-1]
        session.undo()
        assert session.public_view() == views[-2] and session.public_view()["final"] is None
        session.finish(views[-1]["final"])


@pytest.mark.parametrize("seed", [3, 4])
def test_choson_full_game_through_session_time_travel_takes_first_player(tmp_path, seed):
    """8 rounds; the first-player token passes clockwise at the end of rounds 1–7 (it stays
    after round 8), and a time travel takes it (and the light) for its player; final score
    is the engine's."""
    rules = rules_for("choson")
    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session.start(journal, rules, {"players": NAMES, "seats": SEATS})
        views = play_game(session, seed)
        actions = journal.actions(session.game_id)
        assert sum(a["action"] == "start_round" for a in actions) == 8
        travels = 0
        for before, action, after in zip(views[:-1], actions, views[1:], strict=True):
            if action["action"] == "end_round" and before["round"] == 8:
                assert after["first_player"] == before["first_player"]
            elif action["action"] == "end_round":
                i = NAMES.index(before["first_player"])
                assert after["first_player"] == NAMES[(i + 1) % 3]
            elif action["action"] == "time_travel":
                travels += 1
                assert after["first_player"] == action["player"]
                assert lights(rules.turns(after))[SEATS[NAMES.index(action["player"])]] \
                    in (Light.FIRST_PLAYER, Light.YOUR_TURN)
            elif action["action"] == "start_round":
                assert (after["deal"], after["limit"]) == (11 - after["round"], after["round"] + 2)
            else:
                assert after["first_player"] == before["first_player"]
        assert travels > 0
        score = choson.score(session.state.state)
        final = views[-1]["final"]
        assert [p["total"] for p in final["players"]] == [s.total for s in score.players]
        assert final["winners"] == list(score.winners)
        assert Session(journal, rules_for("choson"), session.game_id).public_view() == views[-1]


@pytest.mark.parametrize("game", ["koryo", "choson"])
def test_one_round_number_everywhere_the_season_of_the_round_the_table_is_in(game):
    """Between rounds the view's season is the round about to start (as the prompt "Cleo
    starts round 6" says), during a round that round; its deal and limit are its card's."""
    rules, seated = start(game)
    rng = random.Random(7)
    seen = set()
    while rules.public_view(seated)["final"] is None:
        view = rules.public_view(seated)
        season = view["season"]
        expected = view["round"] + 1 if view["phase"] == "setup" else view["round"]
        assert season["round"] == expected
        assert (season["deal"], season["limit"]) == (11 - expected, expected + 2)
        seen.add(season["round"])
        seated = rules.apply(seated, next_action(rules, seated, rng))
    assert seen == set(range(1, 9))
