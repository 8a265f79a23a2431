"""A seat takes back its own last action from its pad in The King's Dilemma, through the
real App and its screens on gpio pads (gpiozero's MockFactory, contact chatter on every
edge, the lights read back off the LED pins), in English and French
(docs/button-grammar.md, "Undo"):

- a seat whose presses mean nothing else now (its ballot locked, its vote played, its
  tie break made) and whose action is the night's last holds A: its plate asks ("hold A
  again…"), held again: undone, the same undo as the touchscreen's;
- another seat's hold, or a seat whose vote is not the last, is answered on its own
  plate and never over the instruction line; nothing changes;
- a secret ballot taken back shows nothing of itself: the frame, the lights, what the
  screen says and the journal's public record are the same whatever the ballot was.
"""

from __future__ import annotations

import random

import pygame
import pytest
from pins import ChatteringPads, PinClock
from ui_kd import (
    RULEBOOK,
    close_opened,
    frame,
    on_plate,
    outside,
    rulebook_night,
    show,
    tap_button,
)

from companion.hardware.gpio import GpioBackend
from companion.hardware.profile import load_profile, profile_path
from companion.play.seat import Light
from companion.storage.journal import Journal
from companion.ui.app import ManualClock, make_app
from companion.ui.demo import demo_config
from companion.ui.screens.kings_dilemma import start as kd_ui

FIVE = load_profile(profile_path("gpio-5-seats"))
L, M, K, T, O, A = (Light.LEADER, Light.MODERATOR, Light.BALLOT_LOCKED, Light.YOUR_TURN,
                    Light.OFF, Light.ATTENTION)
THEODORE, JULIUS, ARMIN, DIANA, FRANCES = range(5)  # Théodore leads, Julius moderates


@pytest.fixture
def gpio_kd(pins, tmp_path):
    """``gpio_kd(language)`` → (app, pads, night): the rulebook's five houses on the
    shipped 5-seat gpio wiring, the App's loop taking every press (``App.start_backend``)."""
    opened = []

    def _open(language: str = "en", seed: int = 1):
        import dataclasses

        pins.reset()
        clock = PinClock()
        backend = GpioBackend(FIVE, 5, clock=clock, worker=False, debounce_ms=20,
                              long_press_ms=700)
        config = dataclasses.replace(demo_config((800, 480), language), seats=RULEBOOK)
        journal = Journal(tmp_path / f"journal-{len(opened)}.db")
        opened.append((backend, journal))
        app = make_app(config, backend, clock=ManualClock(0), journal=journal)
        pygame.event.clear()
        app.start_backend()
        night = rulebook_night(journal)
        pads = ChatteringPads(pins, clock, backend, FIVE, random.Random(seed),
                              lambda: app.step(block=False))
        show(app, kd_ui.CouncilScreen(app, night))
        return app, pads, night

    yield _open
    close_opened(opened)


def said(app, key: str, **fmt) -> str:
    return app.catalog.text(key, **fmt)


def plate_says(app, seat: int, key: str, **fmt) -> bool:
    """Whether ``seat``'s plate shows the catalog sentence ``key`` (drawn now)."""
    frame(app)
    return said(app, key, **fmt) in on_plate(app, seat)


def secret_lock_taken_back(gpio_kd, language: str, ballot: str):
    """Armin and Diana lock, Julius has Aye 2 pending, Théodore locks ``ballot`` (pad keys)
    and takes it back from his pad. Checks the refusals and the plates on the way; returns
    what the table sees after the first hold and after the undo."""
    app, pads, night = gpio_kd(language)
    tap_button(app, said(app, "kd.council.secret_vote"))
    for seat in (ARMIN, DIANA):
        pads.press(seat, "a A")
    pads.press(JULIUS, "a a")
    pads.press(THEODORE, ballot)
    assert pads.seen() == [K, T, K, K, T]
    locked3 = said(app, "kd.vote.locked_count", count=3, total=5)
    assert locked3 in app.screen.describe()
    # Théodore's lock is the night's last action: his plate says a hold takes it back
    assert plate_says(app, THEODORE, "seat.todo.take_back")
    assert not plate_says(app, DIANA, "seat.todo.take_back")
    instruction = app.screen.headline()
    # Diana locked too, but not last: answered on her plate; nothing else moves
    before = (outside(app, DIANA), pads.seen())
    pads.press(DIANA, "A")
    assert plate_says(app, DIANA, "seat.reply.undo_last_vote_only")
    assert (outside(app, DIANA), pads.seen()) == before
    assert app.screen.headline() == instruction and locked3 in app.screen.describe()
    pads.press(THEODORE, "A")  # asked: his plate says so, his ballot still locked
    assert plate_says(app, THEODORE, "seat.todo.undo_vote_again")
    assert locked3 in app.screen.describe() and pads.seen() == [K, T, K, K, T]
    asked = (frame(app), pads.seen(), app.screen.describe())
    pads.press(THEODORE, "A")  # held again: undone
    assert isinstance(app.screen, kd_ui.VoteScreen)
    undone = (frame(app), pads.seen(), app.screen.describe(),
              night.session.journal.actions(night.session.game_id))
    return asked, undone, app, pads, night


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_locked_secret_ballot_is_taken_back_from_its_pad_showing_nothing_of_it(
        gpio_kd, language):
    """Théodore's Aye 1 or Nay 5, locked then taken back by two holds of A: after each
    hold the same frame, lights, text and public journal whatever the ballot; he is "not
    yet" again with his light back to YOUR_TURN; Julius's pending Aye 2 is forgotten (as
    with the touchscreen's Undo); the ballot he locks next is the one revealed."""
    aye_asked, aye, *_ = secret_lock_taken_back(gpio_kd, language, "a A")
    # (the pins now drive the second table)
    nay_asked, nay, app, pads, night = secret_lock_taken_back(gpio_kd, language,
                                                              "b b b b b B")
    assert aye_asked == nay_asked, "a ballot shows while its undo is asked"
    assert aye == nay, "a ballot taken back from its pad shows on screen, lights or journal"
    text = aye[2]
    assert "Théodore: " + said(app, "kd.vote.waiting") in text
    assert said(app, "kd.vote.locked_count", count=2, total=5) in text
    assert aye[1] == [T, T, K, K, T]
    assert not plate_says(app, THEODORE, "seat.todo.undo_vote_again")
    assert plate_says(app, THEODORE, "seat.todo.lock")
    pads.press(JULIUS, "A")  # his Aye 2 was forgotten: nothing to confirm
    assert said(app, "kd.vote.locked_count", count=2, total=5) in app.screen.describe()
    for seat in (JULIUS, THEODORE, FRANCES):
        pads.press(seat, "b B")
    assert isinstance(app.screen, kd_ui.RevealScreen)
    assert night.vote_view()["seats"]["Théodore"]["vote"] == "nay"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_an_open_vote_play_is_taken_back_from_its_pad(gpio_kd, language):
    """Before anyone has played a hold off turn is told to undo on the screen. Théodore
    plays Aye 2: Armin's hold is told only Théodore can undo, Julius's (on turn) is his
    own play (nothing pending: refused as ever); Théodore holds A twice: the turn, and
    its light, are his again with nothing committed."""
    app, pads, night = gpio_kd(language)
    tap_button(app, said(app, "kd.council.open_vote"))
    pads.press(ARMIN, "A")
    assert plate_says(app, ARMIN, "seat.reply.undo_on_screen")
    pads.press(THEODORE, "a a A")
    assert night.vote_view()["turn"] == "Julius" and pads.seen() == [L, T, O, O, O]
    assert plate_says(app, THEODORE, "seat.todo.take_back")
    instruction = app.screen.headline()
    pads.press(ARMIN, "A")
    assert plate_says(app, ARMIN, "seat.reply.undo_not_yours", player="Théodore")
    assert app.screen.headline() == instruction
    pads.press(JULIUS, "A")  # on turn: a hold is his play, never an undo
    assert night.vote_view()["turn"] == "Julius"
    assert not plate_says(app, THEODORE, "seat.todo.undo_vote_again")
    pads.press(THEODORE, "A")
    assert plate_says(app, THEODORE, "seat.todo.undo_vote_again")
    assert night.vote_view()["turn"] == "Julius"
    pads.press(THEODORE, "A")
    vote = night.vote_view()
    assert vote["turn"] == "Théodore" and vote["seats"]["Théodore"]["vote"] is None
    assert pads.seen() == [T, M, O, O, O]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_tie_break_is_taken_back_from_the_moderators_pad(gpio_kd, language):
    """Every house passes for power: a tie. On the tie a hold is about the tie (Frances,
    whose pass came last, is told the moderator decides). Julius breaks it by holding A;
    then Frances's hold is told only Julius can undo; Julius holds A twice: the tie is
    back, his light ATTENTION, and he breaks it the other way."""
    app, pads, night = gpio_kd(language)
    tap_button(app, said(app, "kd.council.open_vote"))
    for seat in range(5):
        pads.press(seat, "c A")
    assert isinstance(app.screen, kd_ui.RevealScreen) and night.waiting_for() == "tie"
    pads.press(FRANCES, "A")
    assert night.waiting_for() == "tie" and night.view()["phase"] == "vote"
    assert night.refused is not None and night.refused[0] == "Frances"
    assert night.refused[1].code == "moderator_breaks_tie"
    assert not plate_says(app, FRANCES, "seat.reply.undo_not_yours", player="Julius")
    pads.press(JULIUS, "A")  # the moderator breaks the tie: Aye
    assert night.vote_view()["outcome"] == "aye" and night.waiting_for() == "outcome"
    assert plate_says(app, JULIUS, "seat.todo.take_back")
    pads.press(FRANCES, "A")
    assert plate_says(app, FRANCES, "seat.reply.undo_not_yours", player="Julius")
    assert night.vote_view()["outcome"] == "aye"
    pads.press(JULIUS, "A")
    assert plate_says(app, JULIUS, "seat.todo.undo_vote_again")
    pads.press(JULIUS, "A")
    assert isinstance(app.screen, kd_ui.RevealScreen) and night.waiting_for() == "tie"
    assert pads.seen()[JULIUS] is A
    pads.press(JULIUS, "B")
    assert night.vote_view()["outcome"] == "nay"
