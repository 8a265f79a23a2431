"""Five phones as the seat pads of a whole table, in headless Chromium at a phone's size:
paired from the QR codes on the kiosk's screenshot (decoded), they play a King's Dilemma
secret vote and a Koryŏ round; the kiosk's screen and lights follow, every phone shows its
seat's light, and no page ever holds another seat's ballot (its DOM at every step, every
WebSocket frame it received)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from phone_page import pair_by_qr
from ui_kd import NAMES, RULEBOOK, rulebook_night, show, tap_button
from ui_layout import FIVE
from ui_majority import expected_lights, play_through, start

from companion.play.seat import Light, Press
from companion.records import bgstats
from companion.ui.demo import DemoContext
from companion.ui.screens.kings_dilemma import start as kd_ui
from companion.ui.screens.majority import koryo

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
            assert ballot not in mine.text()  # only that it is locked: nothing of what
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
            assert private.get("ballot") in _states(seat) | {None}, (seat, private)
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


class PhonesAtTheTable(DemoContext):
    """The demo's and tests' player, whose seat buttons are the phones' (each press a
    finger on the seat's page, the kiosk's loop run until it has taken it)."""

    def __init__(self, rig, phones) -> None:
        super().__init__(rig.app, rig.backend, rig.app.clock, rig.tmp)
        self.rig = rig
        self.phones = phones
        self.pressed: list[tuple[int, str, str]] = []  # (seat, button, press) by phone

    def press(self, seat: int, button: str, press: Press = Press.SHORT) -> None:
        before = self.rig.presses()
        if press is Press.LONG:
            self.phones[seat].hold(button)
        else:
            self.phones[seat].tap(button)
        self.rig.pump(lambda: self.rig.presses() > before)
        self.pressed.append((seat, button, press.value))
        self.record(f"phone {seat} button {button.upper()} {press.value}")


def test_five_phones_play_a_koryo_round_and_show_their_seats_lights(open_phones, phone,
                                                                    tmp_path):
    rig = open_phones(seats=RULEBOOK)
    phones = pair_by_qr(rig, phone, tmp_path)
    rig.ctx = PhonesAtTheTable(rig, phones)
    seats = len(rig.app.seats)
    # Koryŏ takes four players at most: Théodore's phone watches, its light off.
    screen = start(rig, koryo, players=[1, 2, 3, 4], first=2)

    def lights_follow(action, before, after) -> None:
        want = expected_lights(after, seats)
        assert {s: rig.backend.light(s) for s in range(seats)} == want
        for seat, p in enumerate(phones):
            p.wait_for("document.getElementById('light').dataset.light === arg",
                       want[seat].value)

    done = play_through(rig, seed=3, until=lambda view: view["round"] >= 2, check=lights_follow)
    assert screen.view["round"] == 2
    # Every step of the round's turns came from the acting seat's phone.
    steps = [a for a in done if a["action"] in ("start_round", "end_turn", "end_round")]
    assert len(rig.ctx.pressed) == len(steps) >= 4
    assert 0 not in {seat for seat, _, _ in rig.ctx.pressed}
    assert phones[0].light() == "off"
    assert any(a["action"] == "reveal" for a in done)
    for p in phones:
        p.acked_all()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_phone_page_fits_a_phone_in_both_languages(open_phones, phone, tmp_path,
                                                       language):
    """A secret vote's pending ballot on Théodore's phone, at 390×844: the buttons whole
    within the screen, nothing wider than it; the screenshot is kept for the README
    (``COMPANION_PHONE_SHOTS``: a folder to write it in, else the test's own)."""
    rig = open_phones(seats=RULEBOOK, language=language)
    app = rig.app
    theo = phone(rig.backend.url(0))  # paired before the vote: none joins a seat during it
    theo.wait_paired()
    night = rulebook_night(rig.journal)
    show(app, kd_ui.CouncilScreen(app, night))
    tap_button(app, app.catalog.text("kd.council.secret_vote"))
    for _ in range(3):
        before = rig.presses()
        theo.tap("a")
        rig.pump(lambda before=before: rig.presses() > before)
    ballot = app.catalog.text("kd.vote.aye", power=3)
    theo.wait_for("document.getElementById('ballot').innerText === arg", ballot)
    page = theo.page
    # The picture with the light lit (its rhythm's bright half), the press's white
    # acknowledgement over.
    theo.wait_for("!['rgb(255, 255, 255)', 'rgb(0, 0, 0)'].includes("
                  "getComputedStyle(document.getElementById('light')).backgroundColor)")
    assert page.locator("#light-name").inner_text() == app.catalog.text("light.your-turn")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for button in page.locator(".pad").all():
        box = button.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844 and box["height"] >= 96
    assert page.locator("#help").bounding_box()["y"] < page.locator(".pad").first.bounding_box()["y"]
    out = Path(os.environ.get("COMPANION_PHONE_SHOTS") or tmp_path)
    page.screenshot(path=str(out / f"phone-{language}.png"))
    assert (out / f"phone-{language}.png").stat().st_size > 10_000


def test_after_the_game_each_phone_offers_the_plays_bg_stats_link(open_phones, phone,
                                                                  tmp_path):
    rig = open_phones()
    phones = [phone(rig.backend.url(seat)) for seat in (0, 1)]
    for p in phones:
        p.wait_paired()
    rig.ctx = PhonesAtTheTable(rig, phones)
    start(rig, koryo, players=[0, 1], first=0)
    play_through(rig, seed=5, fast=lambda view: True)  # straight through the screen
    rig.app.invalidate()
    rig.app.step(block=False)
    link = bgstats.link(rig.history.games()[-1])
    for p in phones:
        p.wait_for("document.getElementById('bgstats').href === arg", link)
        assert p.page.locator("#bgstats").is_visible()
    assert not any(m["url"] for m in phones[0].messages("bgstats")[:-1])  # only at the end


def test_a_long_name_and_a_long_light_name_stay_within_the_phone(open_phones, phone):
    rig = open_phones(seats=FIVE, language="fr")
    dominique = phone(rig.backend.url(3))  # "Dominique-Alexandre"
    dominique.wait_paired()
    rig.backend.set_light(3, Light.BALLOT_LOCKED)  # "Bulletin verrouillé"
    dominique.wait_for("document.getElementById('light-name').innerText === arg",
                       rig.app.catalog.text("light.ballot-locked"))
    page = dominique.page
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    light = page.locator("#light").bounding_box()
    assert light["x"] + light["width"] <= 390 and light["width"] >= 40
    assert page.locator("header").bounding_box()["height"] < 100
