"""A secret vote and the phones, frame by frame (aiohttp over loopback): a phone learns a
ballot only if it entered it itself, a locked ballot is only "locked", no phone joins a
seat or takes one over while the vote is open, and the wired pad's presses all go to the
game (a held C is the King's Dilemma's, never a hand-over)."""

from __future__ import annotations

import json

from ui_kd import RULEBOOK, press, rulebook_night, show, tap_button

from companion.play.seat import Press
from companion.ui.phones import PhonesScreen
from companion.ui.screens.kings_dilemma import start as kd_ui
from companion.ui.table_check import TableCheckScreen

ARMIN = 2  # Armin's seat: wired, or with a phone of its own, as each test says


def kiosk(open_phones, hands, **kw):
    """A kiosk on its Table check, and hands for its phones."""
    rig = open_phones(**kw)
    rig.app.push(TableCheckScreen(rig.app))
    return rig, hands(rig)


def secret_vote(rig) -> None:
    app = rig.app
    show(app, kd_ui.CouncilScreen(app, rulebook_night(rig.journal)))
    tap_button(app, app.catalog.text("kd.council.secret_vote"))


def wired(rig, seat: int, button: str, *kinds: Press) -> None:
    """Presses on ``seat``'s wired pad, each handled by the kiosk."""
    for kind in kinds:
        press(rig.app, rig.sim, seat, button, kind)


def nay_two_locked_on_the_wire(rig) -> None:
    wired(rig, ARMIN, "b", Press.SHORT, Press.SHORT, Press.LONG)
    assert "Armin: locked" in rig.app.screen.describe()


def reveal(rig) -> None:
    """Every other house locks a pass on its wired pad: the last lock reveals."""
    for seat in range(len(RULEBOOK)):
        if seat != ARMIN:
            wired(rig, seat, "c", Press.SHORT, Press.LONG)
    assert "Armin: locked" not in rig.app.screen.describe()  # revealed


def frames(phone) -> str:
    return "\n".join(json.dumps(m, ensure_ascii=False) for m in phone.got)


def test_a_stranger_cannot_pair_a_wired_seat_during_a_secret_vote(open_phones, hands):
    rig, h = kiosk(open_phones, hands, seats=RULEBOOK)
    secret_vote(rig)
    nay_two_locked_on_the_wire(rig)
    stranger = h.open(ARMIN, "stranger-1")
    waiting = h.run(stranger.next("waiting"))
    assert waiting["why"] == "vote" and not rig.backend.paired(ARMIN)
    assert rig.app.catalog.text("phones.page.vote") == waiting["words"]["vote"]
    reveal(rig)
    h.run(stranger.next("welcome"))  # after the reveal, the free seat is its own
    assert rig.backend.paired(ARMIN)
    assert not any(m["t"] == "private" and m["private"] for m in stranger.got)
    assert "Nay" not in frames(stranger) and '"nay"' not in frames(stranger)


def test_a_ballot_entered_on_the_wired_pad_stays_off_the_seats_phone(open_phones, hands):
    rig, h = kiosk(open_phones, hands, seats=RULEBOOK)
    armin = h.open(ARMIN, "armin-phone")
    h.run(armin.next("welcome"))
    secret_vote(rig)
    wired(rig, ARMIN, "b", Press.SHORT, Press.SHORT)  # Nay 2 pending, on the wire
    pending = h.run(armin.until(lambda m: m["t"] == "private" and m["private"]
                                and m["private"].get("elsewhere")))["private"]
    assert pending["ballot"] is None and pending["choice"] is None and not pending["locked"]
    wired(rig, ARMIN, "b", Press.LONG)
    locked = h.run(armin.until(lambda m: m["t"] == "private" and m["private"]
                               and m["private"]["locked"]))
    assert locked["private"] == {"locked": True}  # that it is locked, nothing of what
    # the seat's help line names the buttons (public: "B Nay +1"), never the ballot itself
    ballot = rig.app.catalog.text("kd.vote.nay", power=2)
    assert ballot not in frames(armin) and '"nay"' not in frames(armin)


def test_a_ballot_entered_on_the_phone_is_shown_on_it(open_phones, hands):
    rig, h = kiosk(open_phones, hands, seats=RULEBOOK)
    armin = h.open(ARMIN, "armin-phone")
    h.run(armin.next("welcome"))
    secret_vote(rig)
    h.run(armin.press("a"))
    h.run(armin.press("a"))
    shown = h.run(armin.until(lambda m: m["t"] == "private" and m["private"]
                              and m["private"]["power"] == 2))["private"]
    assert shown["ballot"] == rig.app.catalog.text("kd.vote.aye", power=2)
    assert shown["button"] == "a" and "elsewhere" not in shown


def test_a_seat_is_not_handed_over_during_a_secret_vote(open_phones, hands):
    rig, h = kiosk(open_phones, hands, seats=RULEBOOK)
    armin = h.open(ARMIN, "armin-phone")
    h.run(armin.next("welcome"))
    secret_vote(rig)
    other = h.open(ARMIN, "other-phone")
    assert h.run(other.next("waiting"))["why"] == "vote"
    assert not rig.backend.waiting(ARMIN)  # the kiosk offers no "Give" meanwhile
    h.run(armin.ws.send_str(json.dumps({"t": "handover"})))  # refused
    h.run(armin.press("c"))  # the seat's phone is still its pad
    rig.backend.hand_over(ARMIN)  # the kiosk's confirmation too
    h.run(armin.press("c", "long"))  # its pass, locked
    rig.pump(lambda: "Armin: locked" in rig.app.screen.describe())
    assert rig.backend._seats[ARMIN].device == "armin-phone"
    assert not any(m["t"] == "handover" for m in armin.got)
    reveal(rig)
    assert h.run(other.next("waiting"))["why"] == "seat"  # now the seat may confirm it
    h.run(armin.next("handover"))
    rig.backend.hand_over(ARMIN)
    h.run(other.next("welcome"))
    assert rig.backend._seats[ARMIN].device == "other-phone"


def test_a_held_c_on_the_wired_pad_goes_to_the_game_while_a_phone_waits(open_phones, hands):
    rig, h = kiosk(open_phones, hands)
    ben = h.open(1, "ben-phone-1")
    h.run(ben.next("welcome"))
    other = h.open(1, "other-phone")
    h.run(other.next("waiting"))
    rig.pump(lambda: rig.backend.waiting(1))
    wired(rig, 1, "c", Press.LONG)
    assert "Ben pressed C (long)" in rig.app.screen.describe()
    assert rig.backend.waiting(1) and rig.backend._seats[1].device == "ben-phone-1"


def test_a_second_phone_waits_while_the_seats_phone_is_away(open_phones, hands):
    rig, h = kiosk(open_phones, hands)
    ben = h.open(1, "ben-phone-1")
    h.run(ben.next("welcome"))
    h.run(ben.ws.close())
    rig.pump(lambda: not rig.backend.connected(1))
    other = h.open(1, "other-phone")
    assert h.run(other.next("waiting"))["why"] == "seat"
    assert rig.backend.waiting(1) and rig.backend._seats[1].device == "ben-phone-1"
    # Ben's phone comes back: still its seat's pad, and asked to give it
    back = h.open(1, "ben-phone-1")
    h.run(back.next("welcome"))
    h.run(back.next("handover"))
    h.run(back.press("a"))


def test_a_waiting_phone_replaced_by_another_is_told_so(open_phones, hands):
    _, h = kiosk(open_phones, hands)
    ben = h.open(1, "ben-phone-1")
    h.run(ben.next("welcome"))
    first = h.open(1, "first-phone")
    h.run(first.next("waiting"))
    second = h.open(1, "second-phone")
    h.run(second.next("waiting"))
    assert h.run(first.next("bye"))["why"] == "superseded"
    again = h.open(1, "second-phone")  # the same phone's page opened again
    h.run(again.next("waiting"))
    assert h.run(second.next("bye"))["why"] == "replaced"


def test_the_phones_screen_over_a_vote_does_not_open_the_seats(open_phones, hands):
    rig, h = kiosk(open_phones, hands, seats=RULEBOOK)
    secret_vote(rig)
    rig.app.push(PhonesScreen(rig.app))  # the codes shown on the kiosk mid-vote
    rig.app.step(block=False)
    stranger = h.open(ARMIN, "stranger-1")
    assert h.run(stranger.next("waiting"))["why"] == "vote"
    assert not rig.backend.paired(ARMIN)
