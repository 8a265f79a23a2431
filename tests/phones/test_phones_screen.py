"""The kiosk's side of the phones: the Table check opens the Phones screen, whose cards
show each seat's code and its phone's state, laid out legibly with five seats."""

from __future__ import annotations

import pytest
from ui_kd import RULEBOOK, tap_button
from ui_layout import check_layout

from companion.ui.home import HomeScreen
from companion.ui.phones import PhonesScreen
from companion.ui.table_check import TableCheckScreen


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_table_check_opens_the_phones_screen_and_both_fit(open_phones, language):
    rig = open_phones(seats=RULEBOOK, language=language)
    app = rig.app
    app.push(TableCheckScreen(app, back=True))
    app.step(block=False)
    check_layout(app)
    tap_button(app, app.catalog.text("phones.screen.open"))
    assert isinstance(app.screen, PhonesScreen)
    app.invalidate()
    app.step(block=False)
    check_layout(app)
    assert app.screen.describe().count(app.catalog.text("phones.screen.free")) == 5
    tap_button(app, app.catalog.text("phones.screen.back"))
    assert isinstance(app.screen, TableCheckScreen)


def test_without_phones_the_table_check_has_no_phones_button(open_table):
    t = open_table()
    t.app.push(TableCheckScreen(t.app, back=True))
    t.app.step(block=False)
    labels = [b.label for b in t.app.screen.buttons]
    assert t.app.catalog.text("phones.screen.open") not in labels


@pytest.mark.parametrize("language", ["en", "fr"])
def test_home_offers_the_phones_screen_when_phones_are_on(open_phones, language):
    rig = open_phones(language=language)
    app = rig.app
    app.push(HomeScreen(app))
    app.step(block=False)
    check_layout(app)
    tap_button(app, app.catalog.text("phones.screen.open"))
    assert isinstance(app.screen, PhonesScreen)
    app.pop()
    tap_button(app, app.catalog.text("home.table_check"))
    assert isinstance(app.screen, TableCheckScreen)
