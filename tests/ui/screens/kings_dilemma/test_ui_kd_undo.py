"""Undo on the King's Dilemma screens, through the real App loop: an Undo
button (two taps, "Sure? Undo"; touch only — on the pads every long press already means
something in a vote, docs/button-grammar.md) takes back the night's last journaled action
through ``Session.undo`` and forgets every seat's pending choice (``SeatPads.undo``).

- Secret vote, before the reveal: a mistaken lock can be taken back. The seat shows "not
  yet" again; the frame, lights, describe() and the journal's public record after the
  undo are the same whatever the undone ballot was, and the ballot is gone (the seat's
  new ballot is the one revealed).
- After the reveal, undo goes back step by step: the last lock (the vote reopens with
  that seat not locked), an outcome (back to the reveal, the kingdom as before), an open
  vote's play (the turn and its light go back).
"""

from __future__ import annotations

import pytest
from ui_kd import LONG, NAMES, frame, lights, press, show, tap, tap_button
from ui_layout import check_layout

from companion.games.kings_dilemma import vote as kd_vote
from companion.play.seat import Light
from companion.ui.screens.kings_dilemma import start as kd_ui


def undo(app) -> None:
    """Two taps on the Undo button: "Sure? Undo", then the undo."""
    t = app.catalog.text
    tap_button(app, t("kd.undo"))
    tap_button(app, t("app.confirm", action=t("kd.undo")))


def secret_then_undo(kd, ballot: tuple[str, int]):
    """Armin and Diana lock, Julius has Aye 2 pending, Théodore locks ``ballot`` (button,
    presses) by mistake and the table undoes it. Returns what the table can see then."""
    app, backend, table = kd()
    show(app, kd_ui.CouncilScreen(app, table))
    tap_button(app, app.catalog.text("kd.council.secret_vote"))
    for seat in (2, 3):
        press(app, backend, seat, "a")
        press(app, backend, seat, "a", LONG)
    press(app, backend, 1, "a", times=2)
    button, n = ballot
    press(app, backend, 0, button, times=n)
    press(app, backend, 0, button, LONG)
    assert "Théodore: " + app.catalog.text("kd.vote.locked") in app.screen.describe()
    undo(app)
    seen = (frame(app), lights(backend), app.screen.describe(),
            table.session.journal.actions(table.session.game_id))
    return seen, app, backend, table


def test_undoing_a_sealed_lock_before_the_reveal_shows_nothing_of_it(kd):
    """Aye 1 or Nay 5 locked then undone: the same pixels, lights, text and public journal;
    Théodore is "not yet" and unlit, two ballots locked; Julius's pending Aye 2 is
    forgotten (a long press then confirms nothing); Théodore's new ballot is the one
    revealed."""
    aye, app, backend, table = secret_then_undo(kd, ("a", 1))
    nay, *_ = secret_then_undo(kd, ("b", 5))
    assert aye == nay, "an undone sealed ballot shows on screen, lights or journal"
    t = app.catalog.text
    text = aye[2]
    assert isinstance(app.screen, kd_ui.VoteScreen)
    assert "Théodore: " + t("kd.vote.waiting") in text
    assert t("kd.vote.locked_count", count=2, total=5) in text
    assert aye[1][0] is not Light.BALLOT_LOCKED and aye[1][2] is Light.BALLOT_LOCKED
    press(app, backend, 1, "a", LONG)  # Julius's Aye 2 was forgotten: nothing to confirm
    assert t("kd.vote.locked_count", count=2, total=5) in app.screen.describe()
    for seat, button in ((1, "b"), (0, "b"), (4, "b")):
        press(app, backend, seat, button)
        press(app, backend, seat, button, LONG)
    assert isinstance(app.screen, kd_ui.RevealScreen)
    assert table.vote_view()["seats"]["Théodore"] == {
        "vote": kd_vote.NAY, "committed": 1, "pass_coin": False}
    assert "Théodore: Nay 1" in app.screen.describe()


def test_after_the_reveal_undo_steps_back_lock_then_outcome(kd):
    """Every seat locks: revealed. Undo reopens the vote with the last seat (Frances) not
    locked and the others still locked; she locks Nay 2 instead: revealed. The outcome applied,
    the next council's Undo brings back the reveal with the kingdom as before."""
    app, backend, table = kd()
    t = app.catalog.text
    show(app, kd_ui.CouncilScreen(app, table))
    assert t("kd.undo") not in [b.label for b in app.screen.buttons]  # nothing to undo
    tap_button(app, t("kd.council.secret_vote"))
    for seat, button in enumerate("aabba"):
        press(app, backend, seat, button)
        press(app, backend, seat, button, LONG)
    assert isinstance(app.screen, kd_ui.RevealScreen)
    tap_button(app, t("kd.undo"))
    assert t("app.confirm", action=t("kd.undo")) in [b.label for b in app.screen.buttons]
    press(app, backend, 0, "a")  # a seat's press on the reveal changes nothing: still asked
    tap_button(app, t("app.confirm", action=t("kd.undo")))
    assert isinstance(app.screen, kd_ui.VoteScreen)
    assert "Frances: " + t("kd.vote.waiting") in app.screen.describe()
    assert lights(backend) == [Light.BALLOT_LOCKED] * 4 + [Light.YOUR_TURN]
    press(app, backend, 4, "b", times=2)
    press(app, backend, 4, "b", LONG)
    assert isinstance(app.screen, kd_ui.RevealScreen)
    assert table.vote_view()["totals"] == {"aye": 2, "nay": 4}
    tap_button(app, t("kd.reveal.outcome"))
    tap(app, app.screen.steppers()["knowledge"][4])
    tap_button(app, t("kd.outcome.apply"))
    assert table.kingdom.resource("knowledge").position == 2
    tap_button(app, t("kd.kingdom.next"))
    assert isinstance(app.screen, kd_ui.CouncilScreen)
    undo(app)
    assert isinstance(app.screen, kd_ui.RevealScreen)
    assert table.kingdom.resource("knowledge").position == 0
    assert table.vote_view()["outcome"] == kd_vote.NAY


def test_undo_in_an_open_vote_gives_the_turn_back(kd):
    """Théodore plays Aye 2 by mistake: Undo gives him the turn (and the YOUR_TURN light)
    back with nothing committed; undoing again ends the vote that had just started."""
    app, backend, table = kd()
    t = app.catalog.text
    show(app, kd_ui.CouncilScreen(app, table))
    tap_button(app, t("kd.council.open_vote"))
    press(app, backend, 0, "a", times=2)
    press(app, backend, 0, "a", LONG)
    assert table.vote_view()["turn"] == "Julius" and lights(backend)[1] is Light.YOUR_TURN
    undo(app)
    vote = table.vote_view()
    assert vote["turn"] == "Théodore" and vote["seats"]["Théodore"]["vote"] is None
    assert lights(backend)[0] is Light.YOUR_TURN
    undo(app)
    assert isinstance(app.screen, kd_ui.CouncilScreen)
    assert table.view()["phase"] == "council"
    assert t("kd.undo") not in [b.label for b in app.screen.buttons]


@pytest.mark.parametrize(("size", "language"), [((800, 480), "en"), ((1280, 720), "en"),
                                                ((800, 480), "fr")])
def test_undo_buttons_fit_beside_the_others(kd, size, language):
    """The council's six buttons (Undo and its "Sure?"), the open vote's, the tie's three:
    nothing cut, overlapping or smaller than MIN_TARGET."""
    app, _, table = kd(size, language)
    t = app.catalog.text
    show(app, kd_ui.CouncilScreen(app, table))
    tap_button(app, t("kd.council.open_vote"))
    check_layout(app)
    tap_button(app, t("kd.undo"))
    check_layout(app)
    for seat in range(5):
        table.session.dispatch({"action": "play", "player": NAMES[seat],
                                "move": "pass-power"})
    app.replace(kd_ui.screen_for(app, table))
    app.step(block=False)
    check_layout(app)  # the tie: Aye wins, Nay wins, Undo
    tap_button(app, t("kd.reveal.decide", side=t("kd.side.aye")))
    tap_button(app, t("kd.reveal.outcome"))
    tap_button(app, t("kd.outcome.apply"))
    tap_button(app, t("kd.kingdom.next"))
    assert len(app.screen.buttons) == 6
    check_layout(app)
    tap_button(app, t("kd.undo"))
    check_layout(app)
