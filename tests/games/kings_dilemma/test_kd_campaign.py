"""The King's Dilemma campaign ledger (the King's Dilemma rulebook, "Per game", end of "End of game
scoring", « Trancher les égalités de Prestige », set-up steps, « Points de
Prestige et points de Convoitise ») and the data file behind it."""

import json

import pytest

from companion.files.yamlsrc import SourceError, parse
from companion.games.kings_dilemma import campaign as kc
from companion.games.kings_dilemma import data as kd_data
from companion.games.kings_dilemma import kingdom as kd_kingdom
from companion.play.errors import RuleError

# A complete table for the tests (the shipped one leaves the icons it cannot read empty):
# prestige = 10 × end index + rank index, crave = 100 + the same, so every cell differs.
TABLE = kc.AwardTable(tuple(
    (end, rank, kc.Award(10 * e + r, 100 + 10 * e + r))
    for e, end in enumerate(kc.ENDS)
    for r, rank in enumerate(kc.RANKS)
))
AGENDAS = ("opulence", "extremism", "moderation", "opportunism", "rebellion", "avarice")
SETTINGS = kc.Settings(8, 10, (1, 12), AGENDAS, TABLE)


def ledger(*houses, settings=SETTINGS):
    """``houses``: (name, number, prestige)."""
    c = kc.new_campaign(settings)
    for name, number, _ in houses:
        c = kc.apply(c, kc.AddHouse(name, number))
    return kc.Campaign(
        c.settings,
        tuple(kc.House(h.name, h.number, h.power, h.coins, p) for h, (_, _, p)
              in zip(c.houses, houses, strict=True)),
    )


RULEBOOK = ledger(("Marc", 1, 5), ("Frank", 3, 7), ("Julia", 2, 8), ("Alexandra", 5, 8))
NAMES = ["Marc", "Frank", "Julia", "Alexandra"]


def record(c, totals, end=kc.KING_DIED, by_hand=None):
    agendas = dict(zip(totals, AGENDAS, strict=False))
    return kc.apply(c, kc.RecordGame(end, totals, agendas, by_hand or {}))


# -- set-up: prestige order, leader, moderator -------------------------------------------------


def test_rulebook_agenda_order_lowest_prestige_first_ties_higher_house_number_ranks_higher():
    """Marc 5, Frank 7, Julia 8 (house 2), Alexandra 8 (house 5): Marc picks first, Alexandra
    last."""
    assert RULEBOOK.setup(NAMES).agenda_order == ("Marc", "Frank", "Julia", "Alexandra")


def test_leader_is_the_highest_prestige_and_moderator_the_lowest():
    s = RULEBOOK.setup(NAMES)
    assert (s.leader, s.moderator) == ("Alexandra", "Marc")


def test_on_equal_prestige_the_lower_house_number_moderates():
    c = ledger(("A", 7, 3), ("B", 2, 3), ("C", 4, 3))
    s = c.setup(["A", "B", "C"])
    assert (s.moderator, s.leader) == ("B", "A")


def test_each_house_starts_with_8_power_and_10_coins_unless_changed():
    c = kc.apply(RULEBOOK, kc.SetStart("Frank", 9, 12))
    s = c.setup(NAMES)
    assert s.power == {"Marc": 8, "Frank": 9, "Julia": 8, "Alexandra": 8}
    assert s.coins["Frank"] == 12 and s.coins["Marc"] == 10


def test_shipped_data_gives_8_power_10_coins_3_in_the_balance_and_12_house_numbers():
    data = kd_data.shipped()
    assert (data.start_power, data.start_coins, data.balance) == (8, 10, 3)
    assert data.settings.house_numbers == (1, 12) and len(data.settings.agendas) == 6


@pytest.mark.parametrize("names", [["Marc", "Frank"], [*NAMES, "Zoe"], ["Marc", "Marc", "Frank"]])
def test_a_game_takes_3_to_5_distinct_houses_of_the_campaign(names):
    with pytest.raises(RuleError):
        RULEBOOK.setup(names)


@pytest.mark.parametrize(
    ("name", "number", "field"),
    [("Marc", 9, "house"), ("Zoe", 2, "number"), ("Zoe", 13, "number"), ("", 9, "house")],
)
def test_add_house_refuses_a_taken_name_or_number_and_numbers_off_the_box(name, number, field):
    with pytest.raises(RuleError) as exc:
        kc.apply(RULEBOOK, kc.AddHouse(name, number))
    assert exc.value.field == field


# -- ranks and the prestige/crave table ------------------------------------------------------


def test_ranks_use_places_over_distinct_totals_and_the_lowest_is_last():
    assert list(kc.game_ranks({"a": 10, "b": 10, "c": 6, "d": 3}).values()) == [
        "1st", "1st", "2nd", "last"
    ]


def test_rulebook_two_tied_for_fourth_of_five_are_both_last():
    ranks = kc.game_ranks({"a": 12, "b": 11, "c": 10, "d": 7, "e": 7})
    assert ranks == {"a": "1st", "b": "2nd", "c": "3rd", "d": "last", "e": "last"}


def test_everybody_tied_is_first():
    assert set(kc.game_ranks({"a": 5, "b": 5, "c": 5}).values()) == {"1st"}


def test_record_game_adds_the_table_award_by_rank_and_end():
    c = record(RULEBOOK, {"Marc": 12, "Frank": 7, "Julia": 11, "Alexandra": 7},
               end=kc.ABDICATED_BOTTOM)
    assert {h.name: (h.prestige, h.crave) for h in c.houses} == {
        "Marc": (5 + 20, 120), "Julia": (8 + 21, 121),
        "Frank": (7 + 24, 124), "Alexandra": (8 + 24, 124),
    }
    game = c.games[-1]
    assert game.number == 1 and game.winners == ("Marc",) and game.end == kc.ABDICATED_BOTTOM
    assert {r.house: r.rank for r in game.results}["Frank"] == "last"
    assert {r.source for r in game.results} == {kc.TABLE}


def test_record_game_keeps_who_chose_which_agenda_in_picking_order():
    c = record(RULEBOOK, {"Alexandra": 1, "Julia": 2, "Frank": 3, "Marc": 4})
    assert c.games[0].agendas == (
        ("Marc", "opportunism"), ("Frank", "moderation"), ("Julia", "extremism"),
        ("Alexandra", "opulence"),
    )


def test_a_value_entered_by_hand_replaces_the_table():
    c = record(RULEBOOK, {"Marc": 3, "Frank": 2, "Julia": 1}, by_hand={"Marc": {"prestige": 4}})
    marc = next(r for r in c.games[0].results if r.house == "Marc")
    assert (marc.prestige, marc.crave, marc.source) == (4, 100, kc.HAND)


def test_a_value_missing_from_the_table_must_be_entered_by_hand():
    shipped = ledger(("A", 1, 0), ("B", 2, 0), ("C", 3, 0), settings=kc.Settings(
        8, 10, (1, 12), AGENDAS, kd_data.shipped().settings.table))
    with pytest.raises(RuleError) as exc:
        record(shipped, {"A": 9, "B": 5, "C": 1})
    assert exc.value.field == "by_hand.A.prestige" and "by hand" in exc.value.message
    hand = {"A": {"prestige": 3, "crave": 0}, "B": {"prestige": 1, "crave": 0},
            "C": {"prestige": 0}}
    c = record(shipped, {"A": 9, "B": 5, "C": 1}, by_hand=hand)
    assert {h.name: (h.prestige, h.crave) for h in c.houses} == {
        "A": (3, 0), "B": (1, 0), "C": (0, 2)  # last: 2 crave from the shipped table
    }


@pytest.mark.parametrize(
    ("action", "field"),
    [
        (kc.RecordGame("king-fled", {"Marc": 1, "Frank": 2, "Julia": 3},
                       {"Marc": "avarice", "Frank": "rebellion", "Julia": "opulence"}), "end"),
        (kc.RecordGame(kc.KING_DIED, {"Marc": 1, "Frank": 2, "Julia": 3},
                       {"Marc": "avarice", "Frank": "avarice", "Julia": "opulence"}),
         "agendas.Frank"),
        (kc.RecordGame(kc.KING_DIED, {"Marc": 1, "Frank": 2, "Julia": 3},
                       {"Marc": "greed", "Frank": "avarice", "Julia": "opulence"}),
         "agendas.Marc"),
        (kc.RecordGame(kc.KING_DIED, {"Marc": 1, "Frank": 2, "Julia": 3},
                       {"Marc": "avarice", "Frank": "rebellion"}), "agendas.Julia"),
        (kc.RecordGame(kc.KING_DIED, {"Marc": 1, "Frank": 2, "Julia": 3},
                       {"Marc": "avarice", "Frank": "rebellion", "Julia": "opulence"},
                       {"Alexandra": {"crave": 1}}), "by_hand.Alexandra"),
        (kc.RecordGame(kc.KING_DIED, {"Marc": 1, "Frank": 2, "Julia": 3},
                       {"Marc": "avarice", "Frank": "rebellion", "Julia": "opulence"},
                       {"Marc": {"crave": -1}}), "by_hand.Marc.crave"),
    ],
)
def test_record_game_refuses_bad_input_naming_the_field(action, field):
    with pytest.raises(RuleError) as exc:
        kc.apply(RULEBOOK, action)
    assert exc.value.field == field


def test_end_of_game_from_the_kingdom():
    res = {n: kd_kingdom.Resource(n, 0, kd_kingdom.UP) for n in kd_kingdom.RESOURCES}
    track = kd_kingdom.Track(-10, 10)
    assert kc.end_of_game(kd_kingdom.Kingdom.of(track, res, kd_kingdom.Stability(0, -8, 8))) == kc.KING_DIED
    assert kc.end_of_game(kd_kingdom.Kingdom.of(track, res, kd_kingdom.Stability(8, -8, 8))) == kc.ABDICATED_TOP
    assert kc.end_of_game(kd_kingdom.Kingdom.of(track, res, kd_kingdom.Stability(-8, -8, 8))) == (
        kc.ABDICATED_BOTTOM
    )


# -- serialisable -----------------------------------------------------------------------------


def test_campaign_round_trips_through_json():
    c = record(kc.apply(RULEBOOK, kc.SetStart("Julia", 7, 11)),
               {"Marc": 12, "Frank": 7, "Julia": 11}, by_hand={"Julia": {"crave": 9}})
    again = kc.Campaign.from_dict(json.loads(json.dumps(c.to_dict())))
    assert again == c


@pytest.mark.parametrize(
    "action",
    [
        kc.AddHouse("Zoe", 9),
        kc.SetStart("Marc", 9, 12),
        kc.RecordGame(kc.ABDICATED_TOP, {"Marc": 1, "Frank": 2, "Julia": 3},
                      {"Marc": "avarice", "Frank": "rebellion", "Julia": "opulence"},
                      {"Marc": {"prestige": 2}}),
    ],
)
def test_actions_round_trip_through_json(action):
    again = kc.action_from_dict(json.loads(json.dumps(action.to_dict())))
    assert again == action
    assert kc.apply(RULEBOOK, again) == kc.apply(RULEBOOK, action)


# -- the data file ----------------------------------------------------------------------------


def test_shipped_table_marks_unreadable_cells_as_unknown_and_last_gets_2_crave():
    table = kd_data.shipped().settings.table
    assert table.award(kc.KING_DIED, "last").crave == 2
    assert "king-died.1st.prestige" in table.unknown()


def test_a_bad_data_file_names_file_line_and_field():
    text = kd_data.SHIPPED.read_text(encoding="utf-8").replace("power: 8", "power: eight")
    with pytest.raises(SourceError, match=r"kd\.yaml:\d+: start\.power: "):
        kd_data.parse(parse(text, "kd.yaml"))


def test_a_data_file_missing_a_table_cell_is_refused():
    text = kd_data.SHIPPED.read_text(encoding="utf-8").replace(
        "    4th:  {prestige: null, crave: null}\n    last: {prestige: null, crave: 2}\n",
        "    last: {prestige: null, crave: 2}\n")
    with pytest.raises(SourceError, match=r"prestige_table\.king-died\.4th: missing"):
        kd_data.parse(parse(text, "kd.yaml"))
