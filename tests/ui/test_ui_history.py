"""The history screen: every finished game kept (date, game, players, scores,
winners), newest first, paged with big targets; filtered by game; the per-player
statistics of ``History.stats_per_game()`` (games, wins, average score, per game). Driven through
the real App loop with touch events (SDL dummy driver), at 800x480 and 1280x720."""

from __future__ import annotations

import itertools

import pygame
import pytest
from table_rig import TableRig
from ui_inheritors import THREE, enter, start
from ui_layout import check_layout
from ui_majority import shown

from companion.hardware.sim import SimBackend
from companion.play.seat import Light
from companion.storage.history import History
from companion.ui.app import ManualClock, make_app
from companion.ui.demo import DemoContext, demo_config
from companion.ui.demo import history as history_demo
from companion.ui.screens import MENU
from companion.ui.screens import history as screens


def result(game, scores, winners=None):
    best = max(scores.values())
    return {"game": game, "winners": winners or [n for n, s in scores.items() if s == best],
            "players": [{"name": n, "total": s, "breakdown": {"points": s}}
                        for n, s in scores.items()]}


FIVE = {"Ana": 14, "Benoît": 17, "Cléo": 9, "Dominique-Alexandre": 17, "Eve": 12}


def lit(t: TableRig, text: str, within: pygame.Rect | None = None) -> bool:
    """Whether ``text`` (the first drawn, ``within`` a rect if given) is in the winners'
    colour."""
    box = next(b for b in t.app.painter.texts
               if b.text == text and (within is None or within.contains(b.rect)))
    return any(tuple(t.app.window.get_at((x, y)))[:3] == screens.WINNER
               for x in range(box.rect.left, box.rect.right)
               for y in range(box.rect.top, box.rect.bottom))


def listed(t: TableRig) -> list[str]:
    """The texts of the last frame on the felt, without the seat ring's plates around it."""
    felt = t.app.screen.ring.centre
    return [box.text for box in t.app.painter.texts if felt.contains(box.rect)]


def show(t: TableRig) -> screens.HistoryScreen:
    screen = screens.new_game(t.app)
    t.app.push(screen)
    t.app.step(block=False)
    return screen


def test_an_inheritors_count_saved_on_the_sheet_shows_in_the_history_and_stats(open_table):
    """End to end: a sheet entered by touch and saved appears in the history screen with its
    date, game, players, scores and winner, and in the players' statistics."""
    t = open_table()
    sheet = start(t)
    enter(t, sheet, THREE)
    t.tap(sheet.finish_rect, "final")
    t.tap(t.app.screen.save_rect, "save")
    (kept,) = t.history.games()
    screen = show(t)
    texts = t.texts()
    when = f"{kept.date[8:10]}/{kept.date[5:7]}/{kept.date[:4]} {kept.date[11:16]}"
    assert {when, "Inheritors"} <= set(texts)  # day/month as the charts write it
    assert "Winner: Ana" in texts
    assert "Ana 17 · Ben 17 · Cleo 16" in shown(t)  # seating order, its figures large
    t.tap(screen.view_rect, "players")
    texts = t.texts()
    for name in ("Ana", "Ben", "Cleo"):
        assert name in texts
    texts = listed(t)
    first = texts.index("Ana")
    assert texts[first:first + 5] == ["Ana", "Inheritors", "1", "1", "17.0"]


def test_games_newest_first_paged_with_the_stats_of_history(open_table):
    """Newest first by date (not by when kept); « » turn pages; the players' view is
    History.stats(game) of each game: most wins, then best average, with games, wins and
    average, each within its own game."""
    t = open_table()
    for day in range(1, 10):
        t.history.record(result("koryo", {"Ana": day, "Ben": 10 - day}),
                         date=f"2024-03-{10 - day:02d}T20:00:00")
    t.history.record(result("choson", {"Ana": 3, "Cleo": 3}), date="2024-04-01")
    screen = show(t)
    per = screen.per_page
    assert 3 <= per < 10 and screen.pages == -(-10 // per)
    dates = [g.date for g in screen.shown()]
    assert dates[0] == "2024-04-01" and dates == sorted(dates, reverse=True)
    assert "Shared victory" in t.texts()  # the winners lit in the scores line
    assert "Ana 3, Cleo 3 (Shared victory: Ana and Cleo)" in screen.describe()
    assert "Ana 3 · Cleo 3" in shown(t) and "Ana 1 · Ben 9" in shown(t)
    first, second = screen.row_rect(0), screen.row_rect(1)
    assert lit(t, "Ana ", first) and lit(t, "3", first) and lit(t, "Cleo ", first)
    assert not lit(t, "Ana ", second) and lit(t, "Ben ", second)
    seen = list(dates)
    for page in range(2, screen.pages + 1):
        t.tap(screen.next_rect, "next")
        assert f"{page} / {screen.pages}" in t.texts()
        seen += [g.date for g in screen.shown()]
    t.tap(screen.next_rect, "next")  # the last page stays
    assert len(seen) == 10 and seen == sorted(seen, reverse=True)
    t.tap(screen.prev_rect, "prev")
    assert screen.page == screen.pages - 2
    t.tap(screen.view_rect, "players")
    # All games: one row per player and game, each average within its own game.
    rows = [(n, name, str(s.games), str(s.wins), f"{s.average:.1f}")
            for game, name in (("choson", "Chosŏn"), ("koryo", "Koryŏ"))
            for n, s in t.history.stats(game).items()]
    paged = []
    for _ in range(screen.pages):  # the rows page by page
        texts = listed(t)
        starts = [i for i, text in enumerate(texts) if text in ("Ana", "Ben", "Cleo")]
        paged += [tuple(texts[i:i + 5]) for i in starts]
        t.tap(screen.next_rect, "next page")
    assert paged == rows
    assert rows[0] == ("Ana", "Chosŏn", "1", "1", "3.0")  # the shared choson
    assert ("Ana", "Koryŏ", "9", "5", "5.0") in rows  # days 5–9, never with the choson


def test_filter_by_game_cycles_through_the_games_kept(open_table):
    t = open_table()
    t.history.record(result("koryo", {"Ana": 5, "Ben": 9}), date="2024-01-01")
    t.history.record(result("inheritors", {"Ana": 20, "Cleo": 18}), date="2024-01-02")
    t.history.record(result("kings-dilemma", FIVE), date="2024-01-03")
    screen = show(t)
    assert len(screen.shown()) == 3 and "All games" in t.texts()
    seen = []
    for _ in range(4):
        t.tap(screen.filter_rect, "filter")
        seen.append(screen.game)
        assert all(g.game == screen.game for g in screen.shown()) or screen.game is None
    assert seen == ["inheritors", "kings-dilemma", "koryo", None]
    t.tap(screen.filter_rect, "filter")
    t.tap(screen.view_rect, "players")
    assert [(g, n, s) for g, n, s in screen.stats] == [
        ("inheritors", n, s) for n, s in t.history.stats("inheritors").items()]
    assert "Inheritors" in listed(t) and "Ben" not in listed(t)


def test_a_game_key_from_elsewhere_shows_as_written_and_back_returns(open_table):
    t = open_table()
    t.history.record(result("azul", {"Ana": 60, "Ben": 71}), date="2024-05-05T21:00:00")
    t.ctx.show(screens.new_game(t.app))  # the bottom screen: Back stays
    screen = show(t)
    assert {"05/05/2024 21:00", "azul"} <= set(t.texts())
    t.tap(screen.back_rect, "back")
    assert t.app.screen is not screen and len(t.app.screens) == 1
    t.tap(t.app.screen.back_rect, "back")
    assert len(t.app.screens) == 1


def test_lights_off_and_games_read_again_when_shown(open_table):
    """The history is no game: its screen puts every seat's light out, and coming back to
    it shows a game kept meanwhile."""
    t = open_table()
    t.backend.set_light(2, Light.LEADER)
    screen = show(t)
    assert all(t.backend.light(s) is Light.OFF for s in range(4))
    t.app.push(screens.new_game(t.app))
    t.history.record(result("koryo", {"Ana": 5, "Ben": 9}), date="2024-01-01")
    t.tap(t.app.screen.back_rect, "back")
    assert t.app.screen is screen and len(screen.shown()) == 1


def test_empty_and_not_kept(open_table):
    t = open_table()
    show(t)
    assert "No finished game yet" in t.texts()
    t.app.history = None
    show(t)
    assert "This table keeps no history" in t.texts()


def test_menu_has_the_history_and_it_resumes_nothing():
    entry = next(e for e in MENU if e.game == "history")
    assert entry.module == screens.__name__ and entry.title == "history.menu"
    assert screens.resume(None, 1) is None


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_five_player_games_and_stats_fit(open_table, size, language):
    """A page of 5-player games with long names, and the stats: texts whole, legible and
    apart; targets at least MIN_TARGET and apart; no text's capitals under 16 px per 480 px
    of screen (a long name or game's name cut with an ellipsis rather than shrunk)."""
    t = open_table(size=size, language=language)
    for day in range(1, 8):
        t.history.record(result("kings-dilemma", FIVE, ["Benoît", "Dominique-Alexandre"]),
                         date=f"2024-02-{day:02d}T22:10:00+01:00")
    screen = show(t)

    def small() -> list[str]:
        return [b.text for b in t.app.painter.texts if b.glyph / t.app.theme.unit < 15.5]

    check_layout(t.app)
    assert small() == []
    t.tap(screen.view_rect, "players")
    check_layout(t.app)
    assert small() == []
    assert any(b.text.startswith("Dominique") for b in t.app.painter.texts)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_on_the_7_inch_panel_a_page_holds_three_games_and_the_headings_stay_apart(
        open_table, language):
    """Inside the seat ring at 800×480: at least three games a page, four players' rows,
    and the players' headings (Games, Wins, Average…) kept apart by a gap, not touching."""
    t = open_table(size=(800, 480), language=language)
    for day in range(1, 8):
        t.history.record(result("kings-dilemma", FIVE, ["Benoît", "Dominique-Alexandre"]),
                         date=f"2024-02-{day:02d}T22:10:00+01:00")
    screen = show(t)
    assert len(screen.shown()) >= 3
    t.tap(screen.view_rect, "players")
    assert len(screen.shown()) >= 4
    catalog = t.app.catalog
    headings = [catalog.text(f"history.{k}")
                for k in ("player", "game_column", "games", "wins", "average")]
    row = next(b.rect for b in t.app.painter.texts if b.text == headings[0])
    boxes = sorted((b.rect for b in t.app.painter.texts
                    if b.text in headings and abs(b.rect.centery - row.centery) < row.h),
                   key=lambda r: r.x)
    assert len(boxes) == len(headings)
    gaps = [b.left - a.right for a, b in itertools.pairwise(boxes)]
    assert min(gaps) >= t.app.theme.px(12), gaps


def test_demo_script(tmp_path):
    config = demo_config((800, 480), "en")
    backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
    try:
        app = make_app(config, backend, clock=ManualClock())
        app.start_backend()
        ctx = DemoContext(app, backend, app.clock, tmp_path)
        history_demo.demo(ctx)
        assert isinstance(app.history, History) and len(app.history.games()) == 5
        assert app.screen.view == screens.PLAYERS and app.screen.game is None
        # the list, a game's BG Stats code, filters, players, the charts, the records and
        # the head to head of the four games
        assert len(ctx.shots) == 6 + 4 + 4 + 4
        app.history.close()
    finally:
        backend.close()
        pygame.display.quit()



def test_french_statistics_write_the_average_with_a_decimal_comma(open_table):
    """A French table reads « 18,3 » where an English one reads "18.3" (the catalogs'
    decimal point)."""
    t = open_table(language="fr")
    for total in (15, 18, 22):
        t.history.record(result("inheritors", {"Ana": total, "Ben": 10}), date="2024-01-01")
    screen = show(t)
    t.tap(screen.view_rect, "players")
    texts = t.texts()
    assert "18,3" in texts and "10,0" in texts and "18.3" not in texts


def test_history_and_the_charts_never_read_every_game(open_table, monkeypatch):
    """History, its filter, its pages, the players' figures, the charts and Back read a
    page or a count at a time, never the whole history (ten thousand games would take a
    second): the calls that load every game fail here, and everything is still shown."""
    from companion.ui.screens.charts import ChartsScreen

    t = open_table()
    for day in range(1, 13):
        t.history.record(result("koryo" if day % 3 else "choson", {"Ana": day, "Ben": 6}),
                         f"2026-11-{day:02d}T21:00:00+01:00")

    def refused(*_a, **_k):
        raise AssertionError("every game read")

    monkeypatch.setattr(History, "games", refused)
    monkeypatch.setattr(History, "numbered", refused)
    screen = show(t)
    assert "2026-11-12" in screen.describe() and screen.pages > 1
    screen.turn(+1)
    t.app.step(block=False)
    assert "2026-11-12" not in screen.describe()
    screen.next_filter()
    t.app.step(block=False)
    assert screen.game == "choson" and "koryo" not in screen.describe().split(" | ", 3)[-1]
    screen.switch_view()
    t.app.step(block=False)
    assert "Ana" in screen.describe()
    screen.open_charts()
    t.app.step(block=False)
    charts = t.app.screen
    assert isinstance(charts, ChartsScreen) and "Ana" in charts.describe()
    t.app.pop()
    t.app.step(block=False)
    assert t.app.screen is screen
