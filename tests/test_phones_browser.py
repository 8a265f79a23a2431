"""Phones as seat pads in a real browser: headless Chromium (Debian's, driven by
Playwright) opens the seat page at a phone's size against a kiosk in this process, and
plays through it as a person would."""

from __future__ import annotations

from companion.seat import Light
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
