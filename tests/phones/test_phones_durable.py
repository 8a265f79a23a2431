"""A phone's answer to a press is a receipt, as a wired pad's light is: with the kiosk's
journal (its commits made durable by the committer thread, the fsync held on an Event
here), what a press makes a phone show — its page, its light — reaches the phone only once
the press's commit is on disk, and never when that fsync fails. Frame by frame over
loopback (aiohttp)."""

from __future__ import annotations

import errno

from held_sync import WAIT_S
from ui_kd import RULEBOOK, rulebook_night, show, tap_button

from companion.ui.screens.kings_dilemma import start as kd_ui
from companion.ui.table_check import TableCheckScreen

ARMIN = 2  # the seat with a phone


def locked_ballot(message: dict) -> bool:
    return message["t"] == "private" and bool(message["private"]) \
        and bool(message["private"].get("locked"))


def locked_light(message: dict) -> bool:
    return message["t"] == "light" and message["light"] == "ballot-locked"


def armin_locks_a_ballot_on_his_phone(open_phones, hands, held, fails=False):
    """A King's Dilemma secret vote, Armin's phone at his seat: Aye 1 entered, then held
    to lock it, the lock's fsync held. Returns (rig, phone, hands) once the kiosk has
    journaled the lock and a later press of the phone is acknowledged (so every frame
    the kiosk sent before it has reached the phone). ``fails``: that fsync fails once
    released, as a broken card's does."""
    rig = open_phones(seats=RULEBOOK,
                      journal_options={"background_sync": True, "sync_wal": held})
    rig.app.push(TableCheckScreen(rig.app))
    h = hands(rig)
    armin = h.open(ARMIN, "armin-phone")
    h.run(armin.next("welcome"))
    app = rig.app
    show(app, kd_ui.CouncilScreen(app, rulebook_night(rig.journal)))
    tap_button(app, app.catalog.text("kd.council.secret_vote"))
    h.run(armin.press("a"))
    rig.pump(lambda: rig.presses() >= 1)
    rig.journal.wait_durable()
    held.arm()
    if fails:
        held.fail = OSError(errno.EIO, "Input/output error")
    h.run(armin.press("a", "long"))  # locks Aye 1: a commit, its fsync held
    assert held.entered.wait(WAIT_S)
    h.run(armin.press("c"))  # a probe: acknowledged after every frame sent before it
    return rig, armin, h


def test_a_phones_locked_ballot_and_light_wait_for_the_commit(open_phones, hands, held):
    rig, armin, h = armin_locks_a_ballot_on_his_phone(open_phones, hands, held)
    assert "Armin: locked" in rig.app.screen.describe()  # the kiosk moved on at once
    assert not any(locked_ballot(m) or locked_light(m) for m in armin.got)
    held.release()
    h.run(armin.until(locked_ballot))  # once on disk: the ballot locked, and its light
    if not any(map(locked_light, armin.got)):
        h.run(armin.until(locked_light))


def test_a_failed_fsync_never_tells_the_phone(open_phones, hands, held):
    rig, armin, h = armin_locks_a_ballot_on_his_phone(open_phones, hands, held, fails=True)
    held.release()
    rig.journal.wait_durable()
    assert rig.journal.halted is not None
    h.run(armin.press("b"))  # refused by the journal; acknowledged as received
    rig.pump(lambda: rig.presses() >= 4)
    h.run(armin.press("b", seq=10))
    assert not any(locked_ballot(m) or locked_light(m) for m in armin.got)
