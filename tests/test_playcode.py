"""The BG Stats code of a finished game (companion/ui/playcode.py): each game's winner
screen, played by its demo script through the real App at 800×480 under SDL's dummy
driver, shows a QR code that a real decoder (zxing-cpp) reads from the screenshot, and the
play inside it is the history row of that game; the King's Dilemma night's code (on its
winner screen, and one tap from the campaign screen) holds nothing of the ballots or the secret agendas."""

from __future__ import annotations

import importlib
import itertools
import math

import numpy as np
import pygame
import pytest
import zxingcpp
from played import check_bgstats_play
from table_rig import TableRig
from ui_majority import fits

from companion.records import bgstats
from companion.storage.history import GameResult
from companion.ui.demo import DEMOS
from companion.ui.playcode import PlayCode, PlayCodeScreen
from companion.ui.theme import Painter
from companion.ui.winner import WinnerView


@pytest.fixture
def table(open_table, tmp_path):
    """Tables of their own folder each."""
    count = itertools.count()

    def _open(**kw) -> TableRig:
        folder = tmp_path / f"table-{next(count)}"
        folder.mkdir()
        return open_table(tmp=folder, **kw)

    return _open


def decode(t: TableRig, path) -> list[str]:
    """The QR codes a real decoder reads from a screenshot of the window."""
    t.app.step(block=False)
    t.app.screenshot(path)
    return [text for text, _ in read_codes(path)]


def read_codes(path) -> list[tuple[str, float]]:
    """Each QR code a real decoder reads from the PNG at ``path``: its text and its size in
    pixels a module (the symbol's width as the decoder found it, over its modules)."""
    image = pygame.image.load(str(path))
    pixels = np.ascontiguousarray(pygame.surfarray.array3d(image).transpose(1, 0, 2))
    out = []
    for r in zxingcpp.read_barcodes(pixels):
        if r.format != zxingcpp.BarcodeFormat.QRCode:
            continue
        modules = 17 + 4 * int(r.extra["Version"])
        left, right = r.position.top_left, r.position.top_right  # any way up (a turned panel)
        width = math.hypot(right.x - left.x, right.y - left.y)
        out.append((r.text, width / modules))
    return out


def play_demo(t: TableRig, game: str) -> GameResult:
    """``game``'s demo script to its end; returns the history row it left."""
    importlib.import_module(DEMOS[game]).demo(t.ctx)
    t.app.step(block=False)
    return t.history.games()[-1]


def code_of(t: TableRig):
    return code_of_screen(t.screen)


def code_of_screen(screen) -> PlayCode | None:
    return next((b for b in getattr(screen, "buttons", []) if isinstance(b, PlayCode)), None)


def first_winner_screen(t: TableRig, game: str, tmp_path) -> tuple[GameResult, object, list]:
    """``game``'s demo script to its end; returns the history row it left, the first screen
    the demo showed with a play's code (the shared winner screen) and the codes a real
    decoder read from that screen's screenshot."""
    seen: list = []
    shot = t.ctx.shot

    def watching(label: str = ""):
        path = shot(label)
        if not seen and code_of(t) is not None:
            seen.extend([t.screen, decode(t, tmp_path / f"{game}-winner.png")])
        return path

    t.ctx.shot = watching  # type: ignore[method-assign]
    row = play_demo(t, game)
    assert seen, f"the {game} demo showed no screen with a play's code"
    return row, seen[0], seen[1]


@pytest.mark.parametrize("game", ["koryo", "choson", "inheritors", "kings-dilemma"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_winner_screen_shows_the_plays_code_and_it_decodes_to_the_history_row(
        table, tmp_path, game, language):
    t = table(language=language)
    row, screen, codes = first_winner_screen(t, game, tmp_path)
    assert row.game == game and row.started
    if game != "kings-dilemma":  # a night has a leader, not a first player
        assert row.first_player in [p.name for p in row.players]
    assert isinstance(getattr(screen, "winner", None) or getattr(screen, "view", None),
                      WinnerView), screen.describe()  # the one winner screen of every game
    (url,) = codes
    assert url == bgstats.link(row)
    # a phone reads it across the table: at least 150 px wide on the 7" panel, whole modules
    code = code_of_screen(screen)
    assert code.drawn.w >= 150 and code.drawn.w % code.image.get_width() == 0
    play = bgstats.data_of(url)
    assert play == bgstats.play(row)
    check_bgstats_play(play)
    assert [(p["name"], p["score"], p["winner"], p["startPlayer"]) for p in play["players"]] \
        == [(p.name, p.total, p.name in row.winners, p.name == row.first_player)
            for p in row.players]


def test_a_tap_on_the_code_opens_it_full_screen_and_back_returns(table, tmp_path):
    t = table()
    row = play_demo(t, "koryo")
    winner_screen = t.screen
    t.ctx.tap(code_of(t).rect, "code")
    assert isinstance(t.screen, PlayCodeScreen)
    (url,) = decode(t, tmp_path / "full.png")
    assert bgstats.data_of(url) == bgstats.play(row)
    fits(t.app)
    t.ctx.tap(t.screen.back.rect, "back")
    assert t.screen is winner_screen


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_kings_dilemma_night_has_its_code_one_tap_from_the_campaign_and_nothing_secret(
        table, tmp_path, language):
    t = table(language=language)
    row = play_demo(t, "kings-dilemma")
    assert row.game == "kings-dilemma"
    campaign = t.screen
    assert campaign.name == "kd-campaign", campaign.describe()
    opened = next(b for b in campaign.buttons if b.label == "BG Stats")
    t.ctx.tap(opened.rect, "BG Stats")
    assert isinstance(t.screen, PlayCodeScreen)
    (url,) = decode(t, tmp_path / f"kd-{language}.png")
    fits(t.app)
    play = bgstats.data_of(url)
    assert play == bgstats.play(row)
    # Only what a BG Stats play has, and every value is the history row's.
    check_bgstats_play(play)
    assert not any(p["startPlayer"] for p in play["players"])  # a night has no first player
    # Nothing the night kept secret: no sealed ballot, no agenda card, in any form.
    names = {p.name for p in row.players}
    night = t.journal.finished()[-1]
    secret: set[str] = set()
    for action, private in t.journal.actions_with_secrets(night.id):
        secret |= leaves(private or {}) | leaves({k: v for k, v in action.items()
                                                  if k in ("cards", "agendas")})
    secret -= names
    assert secret, "the demo night kept no secret: this test would prove nothing"
    shown = leaves(play)
    assert not shown & secret, shown & secret
    assert not [v for v in shown if "agenda" in v.lower() or "ballot" in v.lower()]


def leaves(data) -> set[str]:
    """Every text in ``data`` (keys of mappings apart)."""
    if isinstance(data, dict):
        return set().union(*(leaves(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(leaves(v) for v in data)) if data else set()
    return {data} if isinstance(data, str) else set()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_history_shows_the_code_of_any_finished_game(table, tmp_path, language):
    """The History list: a tap on a game (here the third of the page) opens its code, which
    decodes to that game's row; Back returns to the list."""
    from companion.ui.screens.history import HistoryScreen

    t = table(language=language)
    for day, scores in enumerate(({"Ana": 3, "Ben": 5}, {"Ana": 9, "Cleo": 2},
                                  {"Ben": 4, "Cleo": 4, "Dan": 1}), start=1):
        best = max(scores.values())
        t.history.record({"game": "koryo", "winners": [n for n, s in scores.items() if s == best],
                          "players": [{"name": n, "total": s, "breakdown": {}}
                                      for n, s in scores.items()]},
                         f"2026-11-0{day}T21:00:00+01:00", started=f"2026-11-0{day}T20:00:00+01:00")
    history = HistoryScreen(t.app)
    t.ctx.show(history)
    t.app.step(block=False)
    fits(t.app)
    t.ctx.tap(history.rows[2].rect, "third game")  # newest first: the first game kept
    assert isinstance(t.screen, PlayCodeScreen)
    (url,) = decode(t, tmp_path / "history.png")
    assert bgstats.data_of(url) == bgstats.play(t.history.games()[0])
    t.ctx.tap(t.screen.back.rect, "back")
    assert t.screen is history


NIGHT_OF_LONG_NAMES = (("Maximilienne-Alexandrine", 31), ("Bartholomew Fitzgerald-H", 27),
                       ("Cléopâtre de Montmorency", 30), ("Dan-Ole Kristoffersson", 5),
                       ("Évangéline Saint-Exupéry", 12))  # 22 to 24 characters each


def long_night(players=NIGHT_OF_LONG_NAMES) -> GameResult:
    from companion.storage.history import result_of

    best = max(s for _, s in players)
    return result_of({"game": "kings-dilemma", "players": [
        {"name": n, "total": s, "breakdown": {}} for n, s in players],
        "winners": [n for n, s in players if s == best]},
        "2026-11-23T23:40:00+01:00", started="2026-11-23T20:05:00+01:00")


LONG_ASCII = tuple((f"{c}" * 20 + f"{c.lower()}-{i:02d}", 10 + i)
                   for i, c in enumerate("MBCDE"))  # 24 characters each


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("players", [LONG_ASCII, NIGHT_OF_LONG_NAMES])
def test_a_tapped_code_of_five_long_names_is_4_px_a_module_at_800x480(table, tmp_path,
                                                                        language, players):
    """A five-player night, every name 22-24 characters, at 4 px a module or more,
    measured on the screenshot by the decoder, inside the seat ring. 24 plain letters each:
    the whole link; accents and spaces (three to nine characters each in the link): the
    longest names shortened in the code, as its help says."""
    t = table(language=language)
    row = long_night(players)
    assert t.app.canvas.get_size() == (800, 480)
    screen = PlayCodeScreen(t.app, row)
    t.ctx.show(screen)
    t.app.step(block=False)
    fits(t.app)
    t.app.screenshot(tmp_path / "five.png")
    ((url, module),) = read_codes(tmp_path / "five.png")
    assert module >= 4, module
    play = bgstats.data_of(url)
    check_bgstats_play(play)
    assert [p["score"] for p in play["players"]] == [s for _, s in players]
    shortened = t.app.catalog.text("playcode.shortened")
    if players is LONG_ASCII:
        assert url == bgstats.link(row)  # whole: nothing shortened
        assert shortened not in screen.describe()
    else:
        assert url == bgstats.fitting_link(row) != bgstats.link(row)
        assert shortened in screen.describe()
    plates = [plate.rect for plate in screen.ring.plates]
    assert not any(screen.code_rect.colliderect(r) for r in plates)


@pytest.mark.parametrize("players", [4, 60])
def test_a_play_of_many_long_cjk_names_never_breaks_the_code_and_is_kept(table, tmp_path,
                                                                         players):
    """24-character CJK names (nine bytes each in the link): four players' code has the
    names shortened and still decodes; sixty players' code is too long for any QR code,
    and the screens say so instead. The game is kept either way."""
    t = table()
    names = [f"{'龍之介の冒険者たち' * 3}"[:22] + f"{i:02d}" for i in range(players)]
    assert all(len(n) == 24 for n in names)
    row = long_night(tuple((n, i) for i, n in enumerate(names)))
    t.history.keep(row)
    assert t.history.games()[-1] == row
    screen = PlayCodeScreen(t.app, row)
    t.ctx.show(screen)
    t.app.step(block=False)
    t.app.screenshot(tmp_path / "many.png")
    codes = read_codes(tmp_path / "many.png")
    if players == 4:
        ((url, _),) = codes
        play = bgstats.data_of(url)
        check_bgstats_play(play)
        assert len({p["name"] for p in play["players"]}) == players  # still told apart
        assert [p["score"] for p in play["players"]] == list(range(players))
        assert "shortened" in screen.describe() or "raccourcis" in screen.describe()
    else:
        assert codes == [] and screen.image is None
        assert t.app.catalog.text("playcode.too_long") in screen.describe()
        code = PlayCode(t.app, row, pygame.Rect(0, 0, 300, 300))
        code.draw(Painter(t.app.canvas, t.app.theme))  # says so; nothing raised


def test_every_code_the_demo_shows_is_a_documented_bg_stats_play(tmp_path):
    """``companion demo``'s screenshots, every QR code in them decoded: each is a play with
    every field BG Stats documents on every player; every one, on the winner screens as
    tapped, at 4 px a module or more."""
    from companion.ui.demo import run_demo

    run_demo(tmp_path, (800, 480), "en", 0)
    seen = 0
    for shot in sorted(tmp_path.glob("*.png")):
        for url, module in read_codes(shot):
            seen += 1
            play = bgstats.data_of(url)
            check_bgstats_play(play)
            assert module >= 4, (shot.name, module)
    assert seen >= 6, seen  # each game's winner screen, the night's, History's


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("players", [LONG_ASCII, NIGHT_OF_LONG_NAMES])
@pytest.mark.parametrize(("size", "rotation"), [((800, 480), 0), ((1024, 600), 0),
                                                ((1280, 720), 0), ((720, 1280), 90)])
def test_the_winner_screen_of_a_five_player_night_of_long_names_draws_4_px_a_module(
        table, tmp_path, language, players, size, rotation):
    """The King's Dilemma's winner screen of a five-player night, every name 22-24
    characters, seated round the panel (the 7" 800×480 one, larger ones, a portrait panel
    turned): the code on the winner screen itself at 4 px a module or more (measured by the
    decoder on the screenshot, its quiet zone inside the room between the plates), each
    player's place and total beside it, none of it cut; Details shows the breakdown, whose
    Code button comes back to the code."""
    from companion.config import SeatConfig
    from companion.ui.winner import Standing, WinnerScreen

    seats = [SeatConfig(name, colour, where) for (name, _), colour, where in zip(
        players, ((200, 40, 40), (40, 90, 200), (40, 170, 70), (220, 190, 40), (150, 60, 170)),
        ("bottom-left", "bottom-right", "left", "top", "right"), strict=True)]
    t = table(language=language, seats=seats, size=size, rotation=rotation)
    row = long_night(players)
    labels = ["Agenda", "Wealth", "Tokens", "Power", "Rank"]
    standings = [Standing(p.name, str(p.total), ["1", "2", "+0", "3", "x"])
                 for p in row.players]
    screen = WinnerScreen(t.app, WinnerView(t.app, "kings-dilemma", standings, labels,
                                            row.winners, [("Campaign", lambda: None, "campaign")],
                                            row))
    t.ctx.show(screen)
    t.app.step(block=False)
    beside = screen.winner.column  # the seat plates' long names are the seat ring's
    assert not [b.text for b in t.app.painter.texts if beside.contains(b.rect) and b.clipped]
    t.app.screenshot(tmp_path / "winner.png")
    ((url, module),) = read_codes(tmp_path / "winner.png")
    assert module >= 4, module
    assert url == bgstats.fitting_link(row)
    assert bgstats.data_of(url)["players"][0]["score"] == players[0][1]
    code = code_of(t)
    assert not any(code.drawn.colliderect(plate.rect) for plate in screen.ring.plates)
    texts = t.texts()
    for p in row.players:  # each player's total beside the code, the winner's with its place
        assert any(text.endswith(str(p.total)) for text in texts), (p.total, texts)
    details = next(b for b in screen.buttons if getattr(b, "key", "") == "details")
    t.ctx.tap(details.rect, "details")
    assert code_of(t) is None and "Agenda" in t.texts()
    back = next(b for b in screen.buttons if getattr(b, "key", "") == "code")
    t.ctx.tap(back.rect, "code")
    t.app.screenshot(tmp_path / "again.png")
    ((_, again),) = read_codes(tmp_path / "again.png")
    assert again == module
