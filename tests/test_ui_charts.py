"""The charts on the kiosk (companion/ui/screens/charts.py), opened from History's players
view: a page per game (scores over the last games, shares of the wins) and one for the
King's Dilemma campaign; every page legible at 800×480 in English and French."""

from __future__ import annotations

import pytest
from played import EVENINGS, campaign_ledger, evenings
from table_rig import TableRig
from ui_majority import fits

from companion.history import History
from companion.ui.screens.charts import ChartsScreen
from companion.ui.screens.history import HistoryScreen


@pytest.fixture
def table(open_table, tmp_path):
    """Tables whose history holds the played evenings."""

    def _open(**kw) -> TableRig:
        t = open_table(**kw)
        t.history.close()
        t.app.history = t.history = History(evenings(tmp_path / "evenings.db"))
        return t

    return _open


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_history_opens_the_charts_every_page_fits_and_back_returns(
        table, tmp_path, language, size):
    campaign_ledger(tmp_path / "kd-campaign.json")  # beside the journal, where KD saves it
    t = table(language=language, size=size)
    history = HistoryScreen(t.app)
    t.ctx.show(history)
    t.ctx.tap(history.view_rect, "players")
    fits(t.app)
    t.ctx.tap(history.charts_rect, "charts")
    screen = t.screen
    assert isinstance(screen, ChartsScreen)
    assert screen.pages == ["koryo", "records-koryo", "choson", "records-choson", "inheritors",
                            "records-inheritors", "kings-dilemma", "records-kings-dilemma",
                            "campaign"]
    seen = []
    for _ in screen.pages:
        t.app.step(block=False)
        fits(t.app)
        seen.append(screen.describe())
        t.ctx.tap(screen.next_rect, "next")
    assert screen.page == 0  # round the pages
    assert "Ana 31 24 35; Ben 27 29 35; Cléo 33 - 20; Dan - 18 -" in seen[0]
    assert "Ben 2/3, Cléo 1/2, Ana 1/3, Dan 0/1" in seen[0]
    # Night by night (tests/played.py): 1st +3 prestige, 2nd +2, 3rd +1, last +2 crave.
    # Koryŏ's records: Ana and Ben at 35 (tests/played.py), and who met whom most.
    high = {"en": "High score: 35 (Ana and Ben)", "fr": "Meilleur score : 35 (Ana et Ben)"}
    assert high[language] in seen[1]
    pair = {"en": "Ana – Ben: 3 games, 1 – 1", "fr": "Ana – Ben : 3 parties, 1 – 1"}  # a tie: neither
    assert pair[language] in seen[1]
    assert "Ana 2 5 6; Ben 3 3 5; Cléo 1 3 6; Dan 0 2 2" in seen[8]
    assert "Ana 0 0 0; Ben 0 2 2; Cléo 0 0 0; Dan 2 2 4" in seen[8]
    t.ctx.tap(screen.back_rect, "back")
    assert t.screen is history


def test_a_seated_player_has_their_seats_colour(table):
    t = table()
    screen = ChartsScreen(t.app, t.history.games(), None)
    seat = t.app.seats[0]
    assert screen.colours[seat.name] == seat.colour
    others = {n: c for n, c in screen.colours.items() if n not in {s.name for s in t.app.seats}}
    assert len(set(others.values())) == len(others)  # Cléo gets a colour of her own
    assert {p for _, _, scores in EVENINGS for p, _ in scores} <= set(screen.colours)


def test_without_games_the_charts_say_so(table):
    t = table()
    t.ctx.show(ChartsScreen(t.app, [], None))
    t.app.step(block=False)
    fits(t.app)
    assert "No finished game yet" in t.screen.describe()
