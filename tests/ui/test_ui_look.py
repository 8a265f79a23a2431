"""What the table sees: layouts legible at 800x480 (the official 7"
panel), 1280x720 and 1280x800, and turned 180° for a panel mounted upside down; the seat
lights mirrored on screen in their exact colours, blinking like the pads; large touch
targets; the simulator fallback notice shown.

Each test draws real frames through the App loop under SDL's dummy driver and reads the
window's pixels and the Painter's record of where each text and touch target went."""

from __future__ import annotations

import dataclasses

import pygame
import pytest
from ui_layout import FIVE, check_layout, window_pixel

from companion.hardware.base import LIGHT_COLOURS, light_rgb, next_light_change
from companion.hardware.sim import SimBackend
from companion.i18n import LANGUAGES, load_catalog
from companion.play.seat import Light
from companion.storage.history import result_of
from companion.ui import theme as th
from companion.ui.app import App, ManualClock, make_app
from companion.ui.demo import demo_config
from companion.ui.home import HomeScreen
from companion.ui.playcode import PlayCodeScreen
from companion.ui.screens import MENU
from companion.ui.screens.charts import ChartsScreen
from companion.ui.screens.history import HistoryScreen
from companion.ui.seats import next_change
from companion.ui.table_check import TableCheckScreen
from companion.ui.widgets import split_in_two
from companion.ui.winner import Standing, WinnerScreen, WinnerView

SIZES = [(800, 480), (1280, 720), (1280, 800)]
LAYOUTS = [(size, 0) for size in SIZES] + [((800, 480), 180)]
NOTICE = "No GPIO on this machine (no /dev/gpiomem). Using the keyboard simulator instead."


@pytest.fixture
def open_app():
    """``open_app(size, rotation=0, seats=None, notice=None, language="en")``."""
    backends: list[SimBackend] = []

    def _open(size, rotation=0, seats=None, notice=None, language="en") -> App:
        config = demo_config(size, language)
        config = dataclasses.replace(
            config,
            display=dataclasses.replace(config.display, rotation=rotation),
            seats=seats or config.seats,
        )
        backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
        backends.append(backend)
        app = make_app(config, backend, clock=ManualClock(0), notice=notice)
        app.start_backend()
        pygame.event.clear()
        return app

    yield _open
    for backend in backends:
        backend.close()
    pygame.event.clear()
    pygame.display.quit()


@pytest.mark.parametrize("size,rotation", LAYOUTS)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_table_check_layout_fits(open_app, size, rotation, language):
    """Four seats (the shipped configuration), all answered (the longest texts), with the
    fallback notice: nothing cut, nothing overlapping, targets large enough."""
    app = open_app(size, rotation, notice=NOTICE, language=language)
    screen = TableCheckScreen(app)
    app.push(screen)
    for seat in range(len(app.seats)):
        app.backend.press(seat, "abc"[seat % 3])
    app.step(block=False)
    check_layout(app)
    assert len(app.painter.targets) == 2


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("notice", [None, NOTICE], ids=["plain", "notice"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_table_check_layout_fits_five_seats_with_long_names(open_app, size, notice, language):
    """Five seats, two on one edge, a long name, and the notice: the crowded case."""
    app = open_app(size, seats=FIVE, notice=notice, language=language)
    app.push(TableCheckScreen(app))
    for seat in range(len(FIVE)):
        app.backend.press(seat, "b")
    app.step(block=False)
    check_layout(app)
    names = {box.text for box in app.painter.texts}
    assert {seat.name for seat in FIVE} <= names


@pytest.mark.parametrize("size,rotation", LAYOUTS)
def test_each_seat_light_shows_its_state_colour(open_app, size, rotation):
    """The pixel at each plate's light centre is exactly what that seat's pad shows (every
    state in turn, a different one per seat): the state's colour at its rhythm's level,
    sampled at t=0 where every rhythm is lit, and the socket colour when off."""
    app = open_app(size, rotation, seats=FIVE)
    screen = TableCheckScreen(app)
    app.push(screen)
    states = list(Light)
    assert all(any(light_rgb(light, app.clock.now_ms())) for light in states[1:])
    for shift in range(len(states)):
        lights = {seat: states[(seat + shift) % len(states)] for seat in range(len(FIVE))}
        screen.lit = lights  # what the table check shows
        app.invalidate()
        app.step(block=False)
        for seat, light in lights.items():
            want = th.SOCKET if light is Light.OFF else light_rgb(light, app.clock.now_ms())
            got = window_pixel(app, screen.ring.light_centre(seat))
            assert got == want, (seat, light, got)


@pytest.mark.parametrize("size,rotation", LAYOUTS)
def test_attention_light_blinks_across_its_deadline(open_app, size, rotation):
    """A long press lights the seat ATTENTION: lit now, dark once the loop's deadline has
    passed, lit again at the next one (the pads' rhythm), while another seat's light keeps
    its own rhythm on the same clock."""
    app = open_app(size, rotation)
    screen = TableCheckScreen(app)
    app.push(screen)
    screen.lit = {0: Light.YOUR_TURN, 1: Light.ATTENTION}
    app.invalidate()
    app.step(block=False)
    centre = screen.ring.light_centre(1)
    seen = []
    for _ in range(4):
        seen.append(window_pixel(app, centre))
        now = app.clock.now_ms()
        turn = light_rgb(Light.YOUR_TURN, now)
        assert window_pixel(app, screen.ring.light_centre(0)) == (turn if any(turn) else th.SOCKET)
        assert app.timeout_ms() == next_change([Light.YOUR_TURN, Light.ATTENTION], now) - now
        assert next_light_change(Light.ATTENTION, now) == now + app.timeout_ms()
        app.clock.advance(app.timeout_ms())
        app.step(block=False)
    lit, dark = LIGHT_COLOURS[Light.ATTENTION], th.SOCKET
    assert seen == [lit, dark, lit, dark]


def watching_screens(app: App) -> list:
    """The screens where the seats only watch, each with the slim seat ring."""
    played = result_of({"game": "koryo", "winners": ["Ana"], "players": [
        {"name": n, "total": s, "breakdown": {}} for n, s in (("Ana", 9), ("Ben", 5))]},
        "2026-11-23T23:40:00+01:00")
    view = WinnerView(app, "koryo", [Standing("Ana", "9", []), Standing("Ben", "5", [])], [],
                      ["Ana"], [("Done", lambda: None, "done")], played)
    return [HistoryScreen(app), ChartsScreen(app, [], None), PlayCodeScreen(app, played),
            WinnerScreen(app, view)]


@pytest.mark.parametrize("which", range(5))
def test_a_seat_key_is_acknowledged_on_the_rings_light_then_ends(open_app, which):
    """The simulator's acknowledgement through the loop, on the Table check's full ring and
    on the slim ring of History, the charts, a play's code and the winner screen: a seat's
    key going down redraws the ring with that seat's light white, and the loop wakes when
    it ends."""
    from companion.hardware.padproto import ACK_COLOUR, ACK_MS

    app = open_app((800, 480))
    screen = [TableCheckScreen(app), *watching_screens(app)][which]
    app.push(screen)
    app.step(block=False)
    ring = screen.ring
    assert ring.slim == (which > 0)
    centre = ring.light_centre(1)
    before = window_pixel(app, centre)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2))
    app.step(block=False)
    assert window_pixel(app, centre) == ACK_COLOUR
    assert app.timeout_ms() <= ACK_MS
    app.clock.advance(ACK_MS)
    app.step(block=False)
    assert window_pixel(app, centre) == before


def test_unplugged_pad_shows_missing_not_its_light(open_app):
    """A seat whose pad is gone (serial) shows the "missing" mark and no light colour."""
    app = open_app((800, 480))

    class Unplugged(SimBackend):
        def connected(self, seat: int) -> bool:
            return seat != 2

    backend = Unplugged(len(app.seats))
    backend.set_light(2, Light.LEADER)
    app.backend = backend
    screen = TableCheckScreen(app)
    app.push(screen)
    app.post_status(2, False)
    app.step(block=False)
    assert window_pixel(app, screen.ring.light_centre(2)) != LIGHT_COLOURS[Light.LEADER]
    missing = app.catalog.text("seat.missing")
    assert [box.text for box in app.painter.texts].count(missing) == 1


@pytest.mark.parametrize("which", range(4))
@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unplugged_pad_shows_missing_on_the_slim_ring(open_app, which, language):
    """On the screens where the seats watch, a seat whose pad is gone shows the "missing"
    mark on its slim plate, beside its name (and, on the winner screen, its place), all
    whole and apart."""
    app = open_app((800, 480), language=language)

    class Unplugged(SimBackend):
        def connected(self, seat: int) -> bool:
            return seat != 0

    app.backend = Unplugged(len(app.seats))
    screen = watching_screens(app)[which]
    app.push(screen)
    app.post_status(0, False)
    app.step(block=False)
    ring = screen.ring
    plate = ring.plates[0].rect
    on_plate = [box.text for box in app.painter.texts if plate.contains(box.rect)]
    assert app.catalog.text("seat.missing") in on_plate and app.seats[0].name in on_plate
    check_layout(app)


@pytest.mark.parametrize("size", SIZES)
def test_fallback_notice_is_on_screen(open_app, size):
    """The backend's fallback notice is drawn whole (its words, in order, none cut) on its
    warning band, between the seat list and the buttons."""
    app = open_app(size, notice=NOTICE)
    screen = TableCheckScreen(app)
    app.push(screen)
    app.step(block=False)
    band = screen.notice_rect
    inside = [box for box in app.painter.texts if band.contains(box.rect)]
    shown = " ".join(box.text for box in inside)
    t = app.catalog.text
    assert shown == t("notice.line", title=t("notice.fallback"), detail=NOTICE)
    assert not any(box.clipped for box in inside)
    corner = (band.x + band.w // 2, band.bottom - 2)
    assert window_pixel(app, corner) == th.WARNING_BG
    assert band.bottom <= min(b.top for b in app.painter.targets)
    assert all(not band.colliderect(r) for r in screen.rows)


def test_no_notice_no_band(open_app):
    app = open_app((800, 480))
    app.push(TableCheckScreen(app))
    app.step(block=False)
    assert NOTICE.split()[0] not in " ".join(box.text for box in app.painter.texts)


class MovedAside:
    """A journal whose database was unusable and moved aside (what Journal.notice says)."""

    notice = "/data/journal.sqlite could not be used (not a database); kept as journal.sqlite.bad-1"

    def unfinished(self) -> list:
        return []  # the fresh journal started in its place: no game to resume


@pytest.mark.parametrize("size,rotation", LAYOUTS)
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("seats", [None, FIVE], ids=["four", "five"])
def test_home_layout_fits(open_app, size, rotation, language, seats):
    """Home: one touch target per menu entry plus Table check, labels whole and legible,
    with both notices (no seat hardware, journal moved aside) on screen."""
    app = open_app(size, rotation, seats=seats, notice=NOTICE, language=language)
    app.journal = MovedAside()
    screen = HomeScreen(app)
    app.push(screen)
    app.backend.press(0, "a")
    app.step(block=False)
    check_layout(app)
    assert len(app.painter.targets) == len(MENU) + 1
    shown = {box.text for box in app.painter.texts}
    for entry in MENU:
        label = app.catalog.text(entry.title)
        assert label in shown or all(w in " ".join(shown) for w in label.split())
    band = " ".join(box.text for box in app.painter.texts if screen.notice_rect.contains(box.rect))
    t = app.catalog.text
    assert t("notice.line", title=t("notice.journal"), detail=MovedAside.notice) in band
    assert t("notice.line", title=t("notice.fallback"), detail=NOTICE) in band


def test_every_text_colour_reads_at_4_5_to_1_on_what_it_is_drawn_on():
    """The theme's text colours on the grounds the screens draw them on, and a token's
    pill (Leader, Moderator) in its light's colour with the ink that reads best on it."""
    low = {(ink, ground): round(th.contrast(getattr(th, ink), getattr(th, ground)), 2)
           for ink, ground in th.TEXT_ON
           if th.contrast(getattr(th, ink), getattr(th, ground)) < 4.5}
    assert low == {}
    for light in (Light.LEADER, Light.MODERATOR):
        pill = LIGHT_COLOURS[light]
        assert th.contrast(th.ink_on(pill), pill) >= 4.5, light
    assert round(th.contrast((0, 0, 0), (255, 255, 255)), 1) == 21.0  # WCAG's own bounds
    assert th.contrast(th.INK, th.INK) == 1.0


def test_every_catalog_character_has_a_glyph_in_the_font():
    """pygame's own font (the theme's, nothing to install) draws every character of both
    catalogs (é, è, à, ŏ, …, ·): none comes out as the font's empty box, which the check
    itself recognises for characters the font lacks (→, ★)."""
    pygame.font.init()
    font = th.Theme((800, 480)).font(30)

    def image(char: str):
        surface = font.render(char, True, (255, 255, 255), (0, 0, 0))
        return surface.get_size(), pygame.image.tobytes(surface, "RGB")

    box = image("\ue000")  # a private-use character: no font has it
    assert image("→") == box and image("★") == box
    chars = {
        c
        for language in LANGUAGES
        for text in load_catalog(language).texts.values()
        for c in text
        if not c.isspace()
    }
    assert {"é", "ŏ", "…"} <= chars
    assert sorted(c for c in chars if image(c) == box) == []


@pytest.mark.parametrize("label, halves", [
    ("Sûr ? Abandonner", ("Sûr ?", "Abandonner")),
    ("face blanche : monte", ("face blanche :", "monte")),
    ("Commencer la partie", ("Commencer", "la partie")),
    ("« Oui » pour", ("« Oui »", "pour")),
    ("Abandonner", None),
])
def test_a_button_label_on_two_lines_keeps_french_signs_with_their_word(label, halves):
    """A long label breaks at the space nearest its middle, but never at the space French
    puts before ":;?!»" or after "«"."""
    assert split_in_two(label) == halves


def test_the_kiosk_draws_the_same_pixels_without_the_texts_checks(open_table, tmp_path):
    """``companion run`` draws without measuring each text for the checks (cut, glyph
    height, contrast: the tests' and the demo's); what it draws is the same, pixel for
    pixel, text for text: Home, a Koryŏ round, the Inheritors sheet, turned or not."""
    import ui_inheritors
    from ui_majority import middle_rounds, play_through, start

    from companion.ui.screens.majority import koryo

    def frame(table, checks: bool) -> tuple[bytes, list[str]]:
        table.app.theme.checks_texts = checks
        table.app.invalidate()
        table.app.render_if_dirty()
        return pygame.image.tobytes(table.app.window, "RGB"), table.texts()

    def same_either_way(table) -> None:
        checked, kiosk = frame(table, True), frame(table, False)
        assert kiosk[1] == checked[1] and len(checked[1]) > 5
        assert kiosk[0] == checked[0]

    for rotation in (0, 90):
        table = open_table(tmp_path / f"turned-{rotation}", rotation=rotation,
                           size=(800, 480) if rotation == 0 else (480, 800))
        table.app.push(HomeScreen(table.app))
        same_either_way(table)
        start(table, koryo, players=[0, 1, 2, 3])
        play_through(table, seed=3, until=middle_rounds)
        same_either_way(table)
        table.close()
    table = open_table(tmp_path / "sheet")
    sheet = ui_inheritors.start(table)
    ui_inheritors.enter(table, sheet, ui_inheritors.THREE)
    same_either_way(table)
