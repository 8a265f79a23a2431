"""A watching seat's press, at a headless Table (``companion.play.table``): the shared
layer (``companion.play.turns.press``) answers it ``WATCHED`` in every game and at every
moment, on that seat's own plate (its ``SeatView.reply``); it never replaces what the
table is told to do, changes nothing of the game, and in a secret vote says nothing of
any ballot."""

from __future__ import annotations

import table_games
from table_games import KD_SETUP

from companion.games.kings_dilemma.adapter import KingsDilemma
from companion.games.kings_dilemma.controller import NightController
from companion.play.seat import ButtonEvent, Press
from companion.play.session import Session
from companion.play.turns import IGNORED, WATCHED, WATCHING, Reply, Turns, press
from companion.play.words import Words

WATCHES = Words("seat.reply.watching")


def four_houses(table) -> NightController:
    """The worked example's night with four houses at five seats: seat 4 watches."""
    setup = {**KD_SETUP, "players": KD_SETUP["players"][:4]}
    night = NightController(Session.start(table.journal, KingsDilemma(), setup))
    table.play(night)
    return night


def watched(table, view, night: NightController) -> None:
    """Seat 4 presses every button: each answered ``WATCHING`` on its own plate, the
    lights, the night and every seated house's plate as they were."""
    before = (table_games.lights_of(table), night.view(),
              {s: v for s, v in night.seat_views().items() if s != 4})
    for button in "abc":
        table_games.press(table, 4, button)
        assert view.answers[-1][1].did == WATCHING
        assert night.seat_views()[4].reply == WATCHES
        assert (table_games.lights_of(table), night.view(),
                {s: v for s, v in night.seat_views().items() if s != 4}) == before


def test_a_watching_seat_is_answered_on_its_plate_in_council_and_an_open_vote(tmp_path):
    table, view = table_games.open_table(tmp_path)
    night = four_houses(table)
    assert 4 not in night.view()["seats"]
    watched(table, view, night)  # the council: the Leader reads the dilemma
    night.start_vote("open")
    assert 4 not in night.seat_views()  # a new vote: the answer is past
    watched(table, view, night)
    turn = night.vote_view()["turn"]
    seat = night.view()["seats"][night.players.index(turn)]
    table_games.press(table, seat, "c")  # the seat on turn passes: the night moves
    assert 4 not in night.seat_views()
    table.close()


def test_a_watching_seat_s_answer_in_a_secret_vote_says_nothing_of_any_ballot(tmp_path):
    """The same answer, and the same everything else, whether no house has touched its
    ballot, one has a choice pending, or one has locked."""
    seen = []
    for presses in ([], [("a", "short")], [("b", "short"), ("b", "long")]):
        table, view = table_games.open_table(tmp_path / str(len(seen)))
        night = four_houses(table)
        night.start_vote("secret")
        for button, kind in presses:
            table_games.press(table, 0, button, table_games.Press(kind))
        watched(table, view, night)
        seen.append((view.answers[-1][1], night.seat_views()[4]))
        table.close()
    assert seen[0] == seen[1] == seen[2]


def test_the_shared_layer_answers_a_seat_outside_the_game_before_anything_else():
    """``turns.press``: a seat not in ``seats`` is ``WATCHED`` whatever the game declares
    (a secret vote, an undo by a hold, a seat it does not hear), never read by the game; a
    closed game still ignores it; a declaration naming no seats (a set-up) reads every
    press."""
    read: list[ButtonEvent] = []

    def game(event: ButtonEvent) -> Reply:
        read.append(event)
        return Reply("read")

    for turns in (Turns((0, 1), secret=True), Turns((0, 1), holds_undo=True, undoer=4),
                  Turns((0, 1), hears=frozenset({4})), Turns((0, 1))):
        for kind in Press:
            assert press(turns, ButtonEvent(4, "a", kind), game) is WATCHED
    assert read == []
    assert press(Turns((0, 1), closed=True), ButtonEvent(4, "a"), game).did == IGNORED
    assert press(Turns(), ButtonEvent(4, "a"), game).did == "read"
    assert WATCHED.public and WATCHED.answer == WATCHES
