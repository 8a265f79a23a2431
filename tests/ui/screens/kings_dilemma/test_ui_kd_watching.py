"""A watching seat's press in The King's Dilemma, through the real App and its screens:
answered on that seat's own plate ("you watch this game") in the council, an open vote
and a secret vote; nothing else on the screen moves (the instruction line, the other
plates, the lights), so in a secret vote the answer shows nothing of any ballot."""

from __future__ import annotations

import pytest
from ui_kd import NAMES, lights, on_plate, outside, press, show, tap_button

from companion.games.kings_dilemma.controller import NightController, ledger_for
from companion.ui.screens.kings_dilemma import start as kd_ui

WATCHER = 4  # Frances's seat: four houses play


def answered(app, backend) -> None:
    """The watching seat presses each button: its plate answers, the rest stays as it was."""
    before = (outside(app, WATCHER), lights(backend))
    said = app.catalog.text("seat.reply.watching")
    assert said not in on_plate(app, WATCHER)
    for button in "abc":
        press(app, backend, WATCHER, button)
        assert said in on_plate(app, WATCHER)
        assert (outside(app, WATCHER), lights(backend)) == before


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_watching_seat_is_answered_on_its_plate_through_the_night(kd, language):
    app, backend, _ = kd(language=language, with_table=False)
    night = NightController.new(NAMES[:4], app.journal, ledger=ledger_for(app.journal))
    show(app, kd_ui.CouncilScreen(app, night))
    answered(app, backend)
    tap_button(app, app.catalog.text("kd.council.open_vote"))
    answered(app, backend)


def secret_vote_answer(kd, presses: list[tuple[int, str]]) -> tuple[bytes, list, set]:
    app, backend, _ = kd(with_table=False)
    night = NightController.new(NAMES[:4], app.journal, ledger=ledger_for(app.journal))
    show(app, kd_ui.CouncilScreen(app, night))
    tap_button(app, app.catalog.text("kd.council.secret_vote"))
    for seat, button in presses:
        press(app, backend, seat, button)
    answered(app, backend)
    return outside(app, WATCHER), lights(backend), on_plate(app, WATCHER)


def test_a_watching_seat_s_answer_in_a_secret_vote_is_the_same_whatever_the_ballots(kd):
    """Théodore's pending Aye against his pending Nay: the watcher's answer, the screen
    and the lights are the same."""
    assert secret_vote_answer(kd, [(0, "a")]) == secret_vote_answer(kd, [(0, "b")])
