"""Five phones as the seat pads of a whole table, in headless Chromium at a phone's size:
paired from the QR codes on the kiosk's screenshot (decoded), they play a King's Dilemma
secret vote and a Koryŏ round; the kiosk's screen and lights follow, every phone shows its
seat's light, and no page ever holds another seat's ballot (its DOM at every step, every
WebSocket frame it received)."""

from __future__ import annotations

import json

from phone_page import pair_by_qr
from ui_kd import NAMES, RULEBOOK, rulebook_night, show, tap_button

from companion.seat import Light
from companion.ui.screens import kings_dilemma as kd_ui

# Each house's ballot, entered on its phone: short presses, then how it locks it (the
# phone's own confirm step, or holding the button as on a pad). The names say it as the
# phone does; each final one is on no other seat at that moment.
BALLOTS = [
    ("Théodore", ["a", "a"], "confirm", "Aye 2"),
    ("Julius", ["b", "b", "b"], "hold b", "Nay 3"),
    ("Armin", ["c"], "confirm", "Pass for power"),
    ("Diana", ["a", "a", "a", "a"], "hold a", "Aye 4"),
    ("Frances", ["b"], "confirm", "Nay 1"),
]


def ballot_shown(phone) -> str:
    return phone.page.locator("#ballot").inner_text()


def test_five_phones_paired_by_qr_play_a_secret_vote_and_only_each_sees_its_ballot(
        open_phones, phone, tmp_path):
    rig = open_phones(seats=RULEBOOK)
    phones = pair_by_qr(rig, phone, tmp_path)
    app = rig.app
    night = rulebook_night(rig.journal)
    show(app, kd_ui.CouncilScreen(app, night))
    tap_button(app, app.catalog.text("kd.council.secret_vote"))
    shown = app.screen.describe()  # what the kiosk says before each seat's presses

    for seat, (name, presses, lock, ballot) in enumerate(BALLOTS):
        mine = phones[seat]
        for button in presses:
            before = rig.presses()
            mine.tap(button)
            rig.pump(lambda before=before: rig.presses() > before)
        mine.wait_for("document.getElementById('ballot').innerText === arg", ballot)
        assert not mine.page.locator("#confirm").is_hidden()
        # The pending ballot is on this phone alone: not on the kiosk, its lights, the others.
        assert app.screen.describe() == shown  # a pending ballot changes nothing there
        for other, page in enumerate(phones):
            if other != seat:
                assert ballot not in page.text(), f"{NAMES[other]}'s phone shows {name}'s"
        before = rig.presses()
        if lock == "confirm":  # the phone's confirm step: tap, then tap "Sure"
            mine.page.locator("#confirm").click()
            assert rig.presses() == before  # the first tap locks nothing
            mine.page.locator("#confirm").click()
        else:
            mine.hold(lock[-1])
        rig.pump(lambda before=before: rig.presses() > before)
        if seat < len(BALLOTS) - 1:
            assert rig.backend.light(seat) is Light.BALLOT_LOCKED
            mine.wait_for("document.getElementById('light').dataset.light === 'ballot-locked'")
            mine.wait_for("document.getElementById('private-title').innerText === arg",
                          app.catalog.text("phones.page.locked"))
            assert ballot_shown(mine) == ballot  # what it locked, on its own phone
            assert f"{name}: locked" in app.screen.describe()
            for text in [b[3] for b in BALLOTS]:
                assert text not in app.screen.describe()
            shown = app.screen.describe()

    # The last lock reveals every ballot at once, on the kiosk; the phones' ballots go.
    revealed = app.screen.describe()
    assert "Théodore: Aye 2" in revealed and "Julius: Nay 3" in revealed
    for p in phones:
        p.wait_for("document.getElementById('private').hidden")

    # Every frame each phone ever received: its own ballot only.
    for seat, p in enumerate(phones):
        privates = [m["private"] for m in p.messages("private") if m["private"]]
        assert privates, f"{NAMES[seat]}'s phone never saw its ballot"
        for private in privates:
            assert private["ballot"] in _states(seat) | {None}, (seat, private)
        others = [b[3] for i, b in enumerate(BALLOTS) if i != seat and b[3] not in
                  _states(seat)]
        received = "\n".join(p.frames)
        for text in others:
            assert json.dumps(text)[1:-1] not in received, f"{text} reached seat {seat}"


def _states(seat: int) -> set[str]:
    """What seat ``seat``'s ballot went through on its buttons (Aye 1, Aye 2 …)."""
    _, presses, _, final = BALLOTS[seat]
    side = {"a": "Aye", "b": "Nay"}
    return {f"{side[presses[0]]} {n}" for n in range(1, len(presses) + 1)} | {final} \
        if presses[0] in side else {final}
