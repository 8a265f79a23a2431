"""The screens change a game only through the Table (``Table.act`` for a touch, its
``press`` for a seat's button): every action the session journals while the kiosk plays
comes through it, and a touch whose write fails (disk full) changes nothing through it —
no action kept, no refusal said, the screen where it was, the band saying "Not saved"."""

from __future__ import annotations

import pytest
import ui_inheritors
from ui_kd import show, tap_button
from ui_majority import middle_rounds, play_through, start

from companion.games.kings_dilemma import vote as kd_vote
from companion.play.session import Session
from companion.play.table import NOT_SAVED, Table
from companion.ui.screens.kings_dilemma import start as kd_ui
from companion.ui.screens.majority import koryo


@pytest.fixture
def around_the_table(monkeypatch):
    """``watch(table)`` → the session actions (dispatches, undos) made while ``table`` was
    neither acting on a touch nor handling a seat's press: what went around it."""
    around: list = []
    inside: list[Table] = []

    def through(name: str):
        real = getattr(Table, name)

        def wrapper(self, *args, **kw):
            inside.append(self)
            try:
                return real(self, *args, **kw)
            finally:
                inside.pop()

        monkeypatch.setattr(Table, name, wrapper)

    def watched(name: str):
        real = getattr(Session, name)

        def wrapper(self, *args, **kw):
            if not inside:
                around.append((name, args))
            return real(self, *args, **kw)

        monkeypatch.setattr(Session, name, wrapper)

    for name in ("act", "_button", "end_game"):
        through(name)
    for name in ("dispatch", "undo"):
        watched(name)
    return around


def test_a_whole_koryo_game_on_the_screens_changes_only_through_the_table(
        open_table, around_the_table):
    """Seat presses, taps on the card entry and the powers, an undo by two taps, the
    screen's own dispatch: not one action reaches the session around the Table."""
    t = open_table()
    screen = start(t, koryo, players=[0, 1, 2])
    t.ctx.press(0, "a")  # Ana starts round 1
    assert screen.view["round"] == 1
    t.ctx.tap(screen.button("undo").rect, "undo")
    t.ctx.tap(screen.button("undo").rect, "sure? undo")
    assert screen.view["round"] == 0
    done = play_through(t, seed=5, fast=middle_rounds)
    assert screen.view["phase"] == "over" and len(done) > 40
    assert around_the_table == []
    assert t.history.count("koryo") == 1


def test_a_kings_dilemma_vote_started_and_undone_by_touch_goes_through_the_table(
        kd, around_the_table):
    app, _, night = kd()
    show(app, kd_ui.CouncilScreen(app, night))
    tap_button(app, app.catalog.text("kd.council.open_vote"))
    assert night.vote_view()["mode"] == kd_vote.OPEN
    undo = app.catalog.text("kd.undo")
    tap_button(app, undo)
    tap_button(app, app.catalog.text("app.confirm", action=undo))
    assert night.view()["vote"] is None and isinstance(app.screen, kd_ui.CouncilScreen)
    assert around_the_table == []


def full_disk(journal) -> None:
    """The journal's next write fails as on a full disk (read-only: the journal opens its
    database again for the write after, which then succeeds)."""
    journal._db.execute("PRAGMA query_only = ON")


def test_a_tap_whose_write_fails_changes_nothing_and_says_not_saved(open_table):
    """Koryŏ's Start the round tapped on a full disk: the round not started, the journal
    and the lights as before, no refusal on the screen, the band says the write failed;
    the disk freed, the same tap starts it."""
    t = open_table()
    screen = start(t, koryo, players=[0, 1, 2])
    before, lights = screen.game.session.length, t.lights()
    full_disk(t.journal)
    t.ctx.tap(screen.button("step").rect, "start the round")
    assert screen.view["round"] == 0 and screen.game.session.length == before
    assert t.lights() == lights and screen.message is None
    assert t.app.table.save_failure is not None and t.app.bands()
    t.ctx.tap(screen.button("step").rect, "start the round")
    assert screen.view["round"] == 1 and t.app.table.save_failure is None
    before = screen.game.session.length
    full_disk(t.journal)  # what the Table answers the screen then
    assert t.app.table.act(screen.game.undo) is NOT_SAVED
    assert screen.game.session.length == before and screen.view["round"] == 1


def test_a_vote_tapped_on_a_full_disk_is_not_started_and_the_council_stays(kd):
    app, _, night = kd()
    show(app, kd_ui.CouncilScreen(app, night))
    full_disk(app.journal)
    tap_button(app, app.catalog.text("kd.council.open_vote"))
    assert night.view()["vote"] is None and isinstance(app.screen, kd_ui.CouncilScreen)
    assert app.table.save_failure is not None
    tap_button(app, app.catalog.text("kd.council.open_vote"))
    assert isinstance(app.screen, kd_ui.VoteScreen)


def test_an_inheritors_entry_tapped_on_a_full_disk_changes_nothing_and_is_no_refusal(
        open_table):
    t = open_table()
    sheet = ui_inheritors.start(t)
    t.tap(sheet.field_rects["honors"], "honors")
    before = sheet.sheet.end(sheet.name_).honors
    full_disk(t.journal)
    t.tap(sheet.plus_rect, "+")
    assert sheet.sheet.end(sheet.name_).honors == before
    assert sheet.message is None and not sheet.refused and t.app.table.save_failure
    t.tap(sheet.plus_rect, "+")
    assert sheet.sheet.end(sheet.name_).honors != before and sheet.message is None
