"""The charts on the kiosk (companion/ui/screens/charts.py), opened from History's players
view: a page per game (scores over the last games, shares of the wins) and one for the
King's Dilemma campaign; every page legible at 800×480 in English and French."""

from __future__ import annotations

import pytest
from played import EVENINGS, campaign_ledger, evenings, scored
from table_rig import TableRig
from ui_majority import fits

from companion.storage.history import History
from companion.ui.screens.charts import RECORDS, ChartsScreen, open_charts
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
    assert screen.pages == [page for game in ("koryo", "choson", "inheritors", "kings-dilemma")
                            for page in (game, f"records-{game}", f"versus-{game}")] + [
        "campaign"]
    seen = [""] * len(screen.pages)  # each page, all its parts
    while True:
        t.app.step(block=False)
        fits(t.app)
        seen[screen.page] += screen.describe()
        t.ctx.tap(screen.next_rect, "next")
        if (screen.page, screen.part) == (0, 0):  # round the pages
            break
    assert "Ana 31 24 35; Ben 27 29 35; Cléo 33 - 20; Dan - 18 -" in seen[0]
    assert "Ben 2/3, Cléo 1/2, Ana 1/3, Dan 0/1" in seen[0]
    # Night by night (tests/played.py): 1st +3 prestige, 2nd +2, 3rd +1, last +2 crave.
    # Koryŏ's records: Ana and Ben at 35 (tests/played.py); then who met whom most.
    high = {"en": "High score: 35 (Ana and Ben)", "fr": "Meilleur score : 35 (Ana et Ben)"}
    assert high[language] in seen[1]
    pair = {"en": "Ana – Ben: 3 games, 1 – 1", "fr": "Ana – Ben : 3 parties, 1 – 1"}  # a tie: neither
    assert pair[language] in seen[2]
    assert seen[2].index(pair[language]) < seen[2].index("Ana – Cléo")  # most met first
    by_count = {"en": "Wins with 3 players: Ben 2/3 · Cléo 1/2 · Ana 1/3 · Dan 0/1",
                "fr": "Victoires à 3 joueurs : Ben 2/3 · Cléo 1/2 · Ana 1/3 · Dan 0/1"}
    assert by_count[language] in seen[1].replace(" | ", " · ")  # on as many lines as it needs
    assert "Ana 2 5 6; Ben 3 3 5; Cléo 1 3 6; Dan 0 2 2" in seen[12]
    assert "Ana 0 0 0; Ben 0 2 2; Cléo 0 0 0; Dan 2 2 4" in seen[12]
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


def records_page(t: TableRig, game: str) -> ChartsScreen:
    """The charts opened as History opens them, turned to ``game``'s records page, drawn
    and checked (texts whole, legible, apart)."""
    open_charts(t.app)
    screen = t.screen
    while screen.pages[screen.page] != RECORDS + game:
        t.ctx.tap(screen.next_rect, "next")
    t.app.step(block=False)
    fits(t.app)
    return screen


def every_part(t: TableRig, screen: ChartsScreen) -> list[str]:
    """What a records page says, part after part (» turns them), each part drawn and
    checked; the screen left on the page's first part."""
    page, said = screen.page, []
    while screen.page == page:
        t.app.step(block=False)
        fits(t.app)
        said += screen.describe().split(" | ")
        t.ctx.tap(screen.next_rect, "next")
    t.ctx.tap(screen.prev_rect, "back to the page")
    return said


@pytest.mark.parametrize(("language", "lines"), [
    ("en", ["Wins with 2 players: Ben 2/2 · Ana 1/2", "Wins with 3 players: Ana 1/1 · Ben 0/1 · Cleo 0/1"]),
    ("fr", ["Victoires à 2 joueurs : Ben 2/2 · Ana 1/2",
            "Victoires à 3 joueurs : Ana 1/1 · Ben 0/1 · Cleo 0/1"]),
])
def test_the_records_page_has_each_players_wins_by_the_number_at_the_table(
        open_table, language, lines):
    """Two games of two (one shared) and one of three: each count on its lines, the most
    wins first, as the history counts them in SQL (``History.records``)."""
    t = open_table(language=language)
    for when, scores in (("2026-11-01T22:00:00+01:00", (("Ana", 9), ("Ben", 4), ("Cleo", 7))),
                         ("2026-11-02T22:00:00+01:00", (("Ana", 3), ("Ben", 8))),
                         ("2026-11-03T22:00:00+01:00", (("Ana", 5), ("Ben", 5)))):
        t.history.record(scored("koryo", scores), when)
    shown = " · ".join(every_part(t, records_page(t, "koryo")))  # a count over two lines
    assert all(line in shown for line in lines)
    assert shown.index(lines[0]) < shown.index(lines[1])


def test_five_long_names_at_one_count_go_on_as_many_lines_as_they_need(open_table):
    """Five players of 24 characters at 800×480: the count's players over two lines or
    more, every one whole, none cut."""
    t = open_table()
    names = [f"{c * 20}{c.lower()}-{i:02d}" for i, c in enumerate("MBCDE")]
    t.history.record(scored("koryo", tuple((n, 10 + i) for i, n in enumerate(names))),
                     "2026-11-01T22:00:00+01:00")
    shown = every_part(t, records_page(t, "koryo"))
    counted = [line for line in shown if any(n in line for n in names) and "/1" in line]
    assert len(counted) >= 2 and counted[0].startswith("Wins with 5 players: ")
    told = " · ".join(counted)
    assert [n for n in names if f"{n} 1/1" in told or f"{n} 0/1" in told] == names


def test_a_records_page_longer_than_the_panel_goes_on_in_parts_that_say_so(open_table):
    """Games at five counts of players at 800×480: more lines than the page holds. Each
    part but the last ends on "N more »" (N: the lines still to come), » shows the next
    part, then the next page; every line is shown once, none dropped."""
    t = open_table()
    day = 0
    for count in range(2, 7):
        for _ in range(2):
            day += 1
            t.history.record(scored("koryo", tuple((f"P{i}", 10 + i) for i in range(count))),
                             f"2026-10-{day:02d}T22:00:00+01:00")
    screen = records_page(t, "koryo")
    lines = [line for line, _ in screen.records("koryo")]
    parts = screen.parts(RECORDS + "koryo")
    assert len(parts) >= 2
    said = every_part(t, screen)
    more = [line for line in said if line.endswith("more »")]
    assert len(more) == len(parts) - 1
    rest = len(lines)
    for part, line in zip(parts, more, strict=False):
        rest -= len(part) - 1
        assert line == f"{rest} more »"
    assert [line for line in said if line in lines] == lines  # each once, in order
