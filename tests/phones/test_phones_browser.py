"""Phones as seat pads in a real browser: headless Chromium (Debian's, driven by
Playwright) opens the seat page at a phone's size against a kiosk in this process, and
plays through it as a person would."""

from __future__ import annotations

import socket

import pytest
from ui_kd import tap_button

from companion.play.seat import ButtonEvent, Light, Press
from companion.play.seatview import SeatFigure, SeatView
from companion.play.turns import Turns
from companion.play.words import Words
from companion.ui.app import Screen
from companion.ui.phones import PhonesScreen
from companion.ui.table_check import TableCheckScreen


def test_a_phone_is_a_seat_pad_on_the_table_check(open_phones, phone):
    rig = open_phones()
    rig.app.push(TableCheckScreen(rig.app))
    ana = phone(rig.backend.url(0))
    ana.wait_paired()
    assert "#" not in ana.page.url  # the secret left the address bar once kept
    rig.pump(lambda: rig.backend.connected(0))
    assert ana.page.locator("#name").inner_text() == "Ana"

    ana.tap("a")
    rig.pump(lambda: 0 in rig.app.screen.last)
    assert "Ana pressed A" in rig.app.screen.describe()
    assert rig.backend.light(0) is Light.YOUR_TURN
    ana.acked_all()
    ana.wait_for("document.getElementById('light').dataset.light === 'your-turn'")

    ana.hold("b")
    rig.pump(lambda: rig.backend.light(0) is Light.ATTENTION)
    assert "Ana pressed B (long)" in rig.app.screen.describe()
    ana.wait_for("document.getElementById('light').dataset.light === 'attention'")


def recorded(rig) -> list:
    """Every press the kiosk takes from the phones, in order."""
    taken: list = []
    handler = rig.backend._on_button

    def record(event) -> None:
        taken.append((event.seat, event.button, event.press.value))
        handler(event)

    rig.backend._on_button = record
    return taken


def ana_on_the_table_check(open_phones, phone):
    """A kiosk on the Table check with Ana's phone paired: (the rig, her page, the presses
    the kiosk takes, in order, and the kiosk's own press handler, for a test to wrap)."""
    rig = open_phones()
    rig.app.push(TableCheckScreen(rig.app))
    ana = phone(rig.backend.url(0))
    ana.wait_paired()
    return rig, ana, recorded(rig), rig.backend._press


@pytest.mark.parametrize("lost", ["before the kiosk took it", "after, before its ack"])
def test_a_dropped_connection_neither_loses_nor_doubles_a_press(open_phones, phone, lost):
    rig, ana, taken, take = ana_on_the_table_check(open_phones, phone)
    dropped = []

    async def drop_once(ws, seat, press):
        """The Wi-Fi goes at the worst moment, once."""
        if not dropped:
            dropped.append(press.seq)
            if lost.startswith("after"):
                rig.backend._on_button(ButtonEvent(seat, press.button, Press(press.kind)))
                rig.backend._seats[seat].last_seq = press.seq
            ws._writer.transport.abort()  # no close frame: the connection just ends
            return
        await take(ws, seat, press)

    rig.backend._press = drop_once
    ana.tap("a")
    ana.tap("b")
    ana.acked_all()  # the page came back by itself and sent what was not acknowledged
    assert dropped == [0]
    assert taken == [(0, "a", "short"), (0, "b", "short")]
    rig.pump(lambda: rig.backend.connected(0))
    assert len(ana.messages("welcome")) >= 2  # it did reconnect (by itself)


def test_a_reloaded_page_sends_its_unacknowledged_press_once(open_phones, phone):
    rig, ana, taken, take = ana_on_the_table_check(open_phones, phone)
    held = []

    async def hold_first(ws, seat, press):
        if not held:  # not taken, not acknowledged: as if the phone slept right then
            held.append(press.seq)
            return
        await take(ws, seat, press)

    rig.backend._press = hold_first
    ana.tap("c")
    ana.wait_for("JSON.parse(localStorage['companion.pad']).queue.length === 1")
    ana.page.reload()  # its storage keeps the seat, the secret and the queued press
    ana.acked_all()
    assert taken == [(0, "c", "short")]
    rig.pump(lambda: 0 in rig.app.screen.last)
    assert "Ana pressed C" in rig.app.screen.describe()


def test_a_phone_away_shows_as_an_unplugged_pad_and_comes_back(open_phones, phone):
    rig = open_phones()
    rig.app.push(TableCheckScreen(rig.app))
    ana = phone(rig.backend.url(0))
    ana.wait_paired()
    rig.pump(lambda: rig.backend.connected(0))
    status: list = []
    screen = rig.app.screen
    on_status = screen.on_status
    screen.on_status = lambda seat, connected: (status.append((seat, connected)),
                                                on_status(seat, connected))
    ws = rig.backend._seats[0].ws
    rig.backend.server.loop.call_soon_threadsafe(ws._writer.transport.abort)
    rig.pump(lambda: (0, False) in status)
    rig.pump(lambda: status[-1] == (0, True))  # the page reconnected by itself
    assert rig.backend.connected(0)


@pytest.mark.parametrize("confirmed_on", ["the kiosk", "the seat's phone"])
def test_a_second_phone_takes_the_seat_only_once_the_seat_confirms(open_phones, phone,
                                                                    confirmed_on):
    rig = open_phones()
    first = phone(rig.backend.url(1))
    first.wait_paired()
    rig.app.push(PhonesScreen(rig.app))
    second = phone(rig.backend.url(1))  # another phone scans Ben's code
    second.wait_for("document.getElementById('state').innerText === arg",
                    rig.app.catalog.text("phones.page.waiting"))
    assert second.page.locator(".pad").first.is_disabled()
    first.wait_for("!document.getElementById('handover').hidden")
    rig.pump(lambda: rig.backend.waiting(1))
    give = rig.app.catalog.text("phones.screen.give", name="Ben")
    rig.pump(lambda: any(b.label == give for b in rig.app.screen.buttons))
    assert rig.app.catalog.text("phones.screen.waiting") in rig.app.screen.describe()
    first.tap("a")  # the first phone is still the seat's pad meanwhile
    first.acked_all()

    if confirmed_on == "the kiosk":
        tap_button(rig.app, give)
    else:
        first.page.locator("#give").click()
    second.wait_paired()
    first.wait_for("document.getElementById('state').innerText === arg",
                   rig.app.catalog.text("phones.page.gone"))
    assert first.page.locator(".pad").first.is_disabled()
    rig.pump(lambda: not rig.backend.waiting(1) and rig.backend.connected(1))
    before = rig.presses()
    second.tap("b")
    rig.pump(lambda: rig.presses() > before)
    second.acked_all()
    assert rig.app.catalog.text("phones.screen.paired") in rig.app.screen.describe()


def test_the_phone_shows_its_seats_view_in_the_tables_language(open_phones, phone):
    """What the screen on top says a seat is shown (``seat_views``): your turn, what to do,
    the help line and the seat's own figures, said in the table's language."""
    rig = open_phones(language="fr")
    rig.app.push(ViewsScreen(rig.app))
    cleo = phone(rig.backend.url(2))
    cleo.wait_paired()
    rig.pump(lambda: rig.backend.connected(2))
    cleo.wait_for("document.getElementById('todo').innerText === arg",
                  rig.app.catalog.text("history.title"))
    text = cleo.text()
    assert rig.app.catalog.text("phones.page.your_turn") in text
    assert rig.app.catalog.text("table_check.prompt") in text  # the help line
    assert "Cleo" in text and "12" in text and "3/5" in text
    assert cleo.page.locator("#figures dt").all_inner_texts() == [
        rig.app.catalog.text("table_check.title"), rig.app.catalog.text("app.name")]
    assert cleo.page.evaluate("document.documentElement.lang") == "fr"


class ViewsScreen(Screen):
    """A screen whose seats have their own displays: Cleo acts."""

    name = "views"

    def draw(self, p) -> None:
        p.surface.fill((0, 0, 0))

    def turns(self):
        return Turns(acting=frozenset({2}))

    def seat_views(self):
        return {seat: SeatView(seat, your_turn=seat == 2,
                               todo=Words("history.title") if seat == 2 else None,
                               help=Words("table_check.prompt"),
                               figures=(SeatFigure(Words("table_check.title"), "12"),
                                        SeatFigure(Words("app.name"), "3/5")))
                for seat in range(len(self.app.seats))}


def test_a_kiosk_restarted_the_same_evening_gets_its_phones_back_by_themselves(
        open_phones, phone, tmp_path):
    with socket.socket() as s:  # a port for both kiosks, as the configuration's
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    kept = tmp_path / "phones.json"
    rig = open_phones(port=port, secrets_file=kept)
    ana = phone(rig.backend.url(0))
    ana.wait_paired()
    rig.close()  # the power goes
    ana.wait_for("document.querySelector('.pad').disabled")
    rig = open_phones(port=port, secrets_file=kept)
    rig.app.push(TableCheckScreen(rig.app))
    assert rig.backend.paired(0) and not rig.backend.connected(0)  # away, not free
    ana.wait_paired()  # the page reconnected with the secret it kept
    rig.pump(lambda: rig.backend.connected(0))
    ana.tap("a")
    rig.pump(lambda: 0 in rig.app.screen.last)
    assert len(ana.messages("welcome")) >= 2
    # The seat is still Ana's phone's: another phone with the same code waits.
    other = phone(rig.backend.url(0))
    other.wait_for("document.getElementById('state').innerText === arg",
                   rig.app.catalog.text("phones.page.waiting"))


def test_the_page_opened_without_a_code_says_to_scan_one(open_phones, phone):
    rig = open_phones()
    bare = phone(f"{rig.origin}/")
    assert "Scan your seat's code" in bare.page.locator("#state").inner_text()
    assert bare.page.locator(".pad").first.is_disabled()
    assert not bare.frames  # it opened no socket
