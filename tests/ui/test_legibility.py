"""Legible from a chair: every figure a player acts on is at least 24 px tall on the 7"
800×480 panel, and grows with the screen.

The whole demo (every screen the table shows) is played at 800×480, 1024×600, 1024×768,
1280×720, 1920×1080 and on a 720×1280 panel turned a quarter (rotation 90), in English and
in French: every frame draws without an error; at every
screenshot each text that is a figure (a count, a score, a position: "4", "-2", "18.5", "19 pts",
"8/8", "1=") is measured — the height the painter drew it at — against 24 px × the theme's unit (the
short side / 480, or the long side / 800 on a squarer screen). The no-overlap / no-cut
checks of tests/ui/test_ui_look.py run on the same frames, and so does the check that every
screen is one product: each seat's name on its plate of the seat ring, at its place at the
screen's edge. A game of each kind left unfinished resumes at each of these sizes, as
``companion run`` resumes it at start.

Screens not yet redrawn to the bound are listed in ``NOT_YET`` with the smallest figure
they draw today: the test fails if one of them gets smaller, and tells when one reaches the
bound (then it leaves the list). Every other screen must meet the bound.
"""

from __future__ import annotations

import itertools
import re
import shutil
from pathlib import Path

import played_kiosk
import pytest
from table_rig import TableRig

from companion.i18n import LANGUAGES, load_catalog
from companion.play.seat import Press
from companion.ui import demo as demo_mod
from companion.ui import screens as menu
from companion.ui.home import HomeScreen, resume_unfinished
from companion.ui.seats import SeatRing
from companion.ui.theme import TextBox, Theme

# A figure, alone or with its unit ("19 pts" on a seat's plate is the figure a player reads).
FIGURE = re.compile(r"[−+\-]?\d+(?:[.,/]\d+)?[=*]?(?: (?:pts?|VP|PV))?")
BOUND = 24  # px at 800×480 (short side 480)

# (width, height, rotation): the panel as mounted; rotation 90 draws a 1280×720 canvas.
SIZES = [(800, 480, 0), (1024, 600, 0), (1024, 768, 0), (1280, 720, 0), (1920, 1080, 0),
         (720, 1280, 90)]

# Screens (demo screenshot labels, without their number) that still draw figures below
# the bound, with the smallest height (per 480 px of screen) they draw today: none now. Work
# to do, not a licence: a screen here may only get better.
NOT_YET: dict[str, int] = {}


def label(path: Path) -> str:
    return path.stem.split("-", 1)[1]


@pytest.fixture(scope="module", params=[(s, lang) for s in SIZES for lang in ("en", "fr")],
                ids=lambda p: f"{p[0][0]}x{p[0][1]}r{p[0][2]}-{p[1]}")
def frames(request, tmp_path_factory):
    """The demo at one size and language: (screenshot, canvas size, text boxes, where the
    seat ring puts each seat: (its name, the full ring's plate, which holds the slim one's))
    per shot."""
    return demo_frames(request.param, tmp_path_factory)


@pytest.fixture(scope="module", params=["en", "fr"])
def panel_frames(request, tmp_path_factory):
    """The demo on the 7" panel (800×480), as ``frames``."""
    return demo_frames(((800, 480, 0), request.param), tmp_path_factory)


def demo_frames(param, tmp_path_factory, seats: int | None = None,
                scripts: tuple[str, ...] | None = None, names: tuple[str, ...] | None = None):
    """The demo (``scripts`` of it, with ``seats`` seats named ``names``: ``run_demo``) at
    one size and language, as ``frames``."""
    (w, h, rotation), language = param
    shots: list[tuple[Path, tuple[int, int], list[TextBox], list[tuple[str, object]]]] = []
    shot = demo_mod.DemoContext.shot

    def recording(self, name: str = "", lit: bool = True) -> Path:
        path = shot(self, name, lit)
        app = self.app
        ring = SeatRing(app.theme, app.seats, app.catalog)
        places = [(seat.name, plate.rect) for seat, plate in zip(app.seats, ring.plates,
                                                                   strict=True)]
        shots.append((path, app.size, list(app.painter.texts), places))
        return path

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(demo_mod.DemoContext, "shot", recording)
        demo_mod.run_demo(tmp_path_factory.mktemp("legible") / "out", (w, h), language,
                          rotation, seats=seats, scripts=scripts, names=names)
    return shots


def smallest_figures(frames) -> dict[str, tuple[float, str]]:
    """Per screen label: the smallest figure's height relative to 480 px, and its text."""
    out: dict[str, tuple[float, str]] = {}
    for path, size, texts, _ in frames:
        figures = [b for b in texts if FIGURE.fullmatch(b.text.strip())]
        if not figures:
            continue
        box = min(figures, key=lambda b: b.height)
        scaled = box.height / Theme(size).unit
        key = label(path)
        if key not in out or scaled < out[key][0]:
            out[key] = (scaled, box.text)
    return out


# The goal, as drawn (``TextBox.glyph``: a digit's ink height, or a capital's for a text
# without one), per 480 px of screen: 24 px for a figure, 16 px for any other text.
DIGIT_GOAL, TEXT_GOAL = 24, 16
# Every text of every frame of the demo meets it on the 7" panel, in both languages
# (``test_every_text_of_the_demo_meets_the_goal_on_the_panel``): a screen added or changed
# below it fails, it is not averaged away. The demo shows every screen a player meets.
DEMO_SCREENS = ("home", "table-check", "koryo-setup", "koryo-board", "koryo-entry",
                "koryo-powers", "koryo-final", "choson-setup", "choson-board", "choson-entry",
                "choson-powers", "choson-final", "inheritors-setup", "inheritors-sheet",
                "inheritors-final", "kd-setup", "kd-council", "kd-vote", "kd-reveal",
                "kd-outcome", "kd-kingdom", "kd-agenda", "kd-award", "kd-tokens", "kd-score",
                "kd-campaign", "winner", "playcode", "history", "charts")
# Game screens whose plates show each player's own view: every text there meets the goal.
PLATE_SCREENS = ("koryo-board", "choson-board", "inheritors-sheet", "kd-vote", "kd-reveal",
                 "kd-council")


def under_the_goal(seen: list[tuple[str, str, float]]) -> list[tuple[str, str, float]]:
    """Of ``glyphs``' texts, those drawn under the goal: a text with a digit under
    DIGIT_GOAL, any other under TEXT_GOAL (half a pixel for the rounding)."""
    return [(lab, text, round(g, 1)) for lab, text, g in seen
            if g < (DIGIT_GOAL if any(c.isdigit() for c in text) else TEXT_GOAL) - 0.5]


def glyphs(frames) -> list[tuple[str, str, float]]:
    """Every text of every frame: (screen label, text, its glyph height per 480 px)."""
    return [(label(path), b.text, b.glyph / Theme(size).unit)
            for path, size, texts, _ in frames for b in texts]


def test_every_text_of_the_demo_meets_the_goal_on_the_panel(panel_frames):
    """The height of every text as rendered on the 7" panel, every frame of the demo,
    measured from the font's own glyphs: a figure's digits DIGIT_GOAL high (the vote's
    tally, Home's start time, the Inheritors breakdown line), any text's capitals
    TEXT_GOAL (a column's head, a button, the tie-break note)."""
    seen = glyphs(panel_frames)
    shown = {prefix for prefix in DEMO_SCREENS if any(lab.startswith(prefix)
                                                      for lab, _, _ in seen)}
    assert shown == set(DEMO_SCREENS), f"not in the demo: {set(DEMO_SCREENS) - shown}"
    assert any(any(c.isdigit() for c in text) for _, text, _ in seen)
    assert under_the_goal(seen) == []


def test_every_text_on_a_player_s_own_plate_meets_the_goal(frames):
    """On the game screens each plate is that player's own display: its figures' digits
    24 px high (per 480 px), its words' capitals 16 px, in both languages at every size."""
    small = []
    seen = 0
    for path, size, texts, places in frames:
        if not label(path).startswith(PLATE_SCREENS):
            continue
        unit = Theme(size).unit
        for b in texts:
            if not any(plate.contains(b.rect) for _, plate in places):
                continue
            seen += 1
            digit = any(c.isdigit() for c in b.text)
            if b.glyph / unit < (DIGIT_GOAL if digit else TEXT_GOAL) - 0.5:
                small.append((label(path), b.text, round(b.glyph / unit, 1)))
    assert seen > 100 and small == []


def test_every_text_reads_at_4_5_to_1_against_what_it_is_drawn_on(frames):
    """WCAG 2's minimum contrast for text, measured as drawn: each text's colour against
    the colour under it just before it was drawn (``Painter.ground``)."""
    low = {(label(path), b.text, round(b.contrast, 2))
           for path, _, texts, _ in frames for b in texts if b.contrast < 4.5}
    assert low == set()


def test_the_demo_shows_figures_to_measure(frames):
    assert len(smallest_figures(frames)) >= 10


def test_every_figure_a_player_acts_on_is_legible_from_a_chair(frames):
    small = {k: v for k, v in smallest_figures(frames).items() if v[0] < BOUND - 0.5}
    regressed = {k: v for k, v in small.items() if k not in NOT_YET or v[0] < NOT_YET[k] - 1}
    assert regressed == {}, f"figures below {BOUND} px (per 480 px of screen): {regressed}"
    reached = [k for k in NOT_YET if k not in small]
    assert reached == [], f"these screens now meet the bound: take them off NOT_YET: {reached}"


def test_the_simulator_s_keys_show_on_home_and_the_table_check_only(frames):
    """One rule for the whole product: the keyboard's keys for each seat are on the plates
    where the table learns its seats (Home, the Table check), no game screen's."""
    said = {load_catalog(lang).text("seat.keys_label") for lang in LANGUAGES}
    shown = {label(path) for path, _, texts, _ in frames
             if any(b.text in said for b in texts)}
    assert shown and all(name.startswith(("home", "table-check")) for name in shown), shown


def test_every_frame_shows_its_texts_whole_apart_and_on_screen(frames):
    """The layout checks of the look tests, on every screenshot of the demo at this size."""
    assert layout_problems(frames) == []


def layout_problems(frames) -> list[tuple[str, str, str]]:
    """Every text cut by its box, off the screen or overlapping another, per frame."""
    problems = []
    for path, size, texts, _ in frames:
        for box in texts:
            if box.clipped:
                problems.append((label(path), "cut", box.text))
            if not (0 <= box.rect.left and box.rect.right <= size[0] and 0 <= box.rect.top
                    and box.rect.bottom <= size[1]):
                problems.append((label(path), "off screen", box.text))
        for a, b in itertools.combinations(texts, 2):
            if a.rect.colliderect(b.rect):
                problems.append((label(path), "overlap", f"{a.text} / {b.text}"))
    return problems


def test_every_screen_shows_every_seat_on_its_plate_of_the_seat_ring(frames):
    """One product: no screen of the demo (a game's, Home, History, the charts, the winner
    screen, a play's code) is drawn without the seat ring, each seat's name on its plate."""
    bare = []
    for path, _, texts, places in frames:
        for name, plate in places:
            if not any(b.text == name and plate.contains(b.rect) for b in texts):
                bare.append((label(path), name))
    assert bare == []


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory) -> Path:
    """A journal holding one unfinished game of each kind the menu offers, each started
    from Home at 800×480 (the King's Dilemma's: a secret vote, two ballots locked)."""
    tmp = tmp_path_factory.mktemp("unfinished")
    rig = TableRig(tmp)
    try:
        for play in (played_kiosk.koryo, played_kiosk.choson, played_kiosk.inheritors,
                     played_kiosk.kings_dilemma):
            rig.ctx.show(HomeScreen(rig.app))
            play(rig.ctx)
        kinds = {record.game for record in rig.journal.unfinished()}
        assert kinds == {entry.game for entry in menu.MENU} - {"history"}
    finally:
        rig.close()
    return tmp / "journal.sqlite"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}r{s[2]}")
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_game_of_each_kind_resumes_at_every_size(unfinished, tmp_path, size, language):
    """Each unfinished game of the journal, latest first, resumed as ``companion run``
    resumes it at start (``resume_unfinished``), draws on this screen; then it is left
    (abandoned) so the next one is the latest."""
    for part in unfinished.parent.glob("journal.sqlite*"):  # the sealed ballots' pads too
        shutil.copy(part, tmp_path / part.name)
    w, h, rotation = size
    rig = TableRig(tmp_path, size=(w, h), language=language, rotation=rotation)
    try:
        resumed = []
        while rig.journal.unfinished():
            latest = rig.journal.unfinished()[-1]
            screen = resume_unfinished(rig.app)
            assert screen is not None, latest.game
            rig.ctx.show(screen)
            assert rig.app.painter.texts, latest.game
            resumed.append(latest.game)
            rig.journal.abandon(latest.id)
        assert sorted(resumed) == ["choson", "inheritors", "kings-dilemma", "koryo"]
    finally:
        rig.close()


@pytest.mark.parametrize("houses", [3, 4, 5])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_king_s_dilemma_meets_the_goal_with_three_to_five_houses(
        tmp_path_factory, houses, language):
    """The King's Dilemma seats 3 to 5: its demo with that many houses on the 7" panel (the
    council, a secret vote pending and locked, the reveal, an open vote, the end's screens),
    every text with a digit at DIGIT_GOAL, every text at TEXT_GOAL, each whole, apart and
    on screen (five houses' rows in two columns where one would put them too close), the
    score's plates (each house's place and total) too."""
    shots = demo_frames(((800, 480, 0), language), tmp_path_factory, seats=houses,
                        scripts=("kings-dilemma",))
    seen = [entry for entry in glyphs(shots) if entry[0].startswith("kd-")]
    assert {lab.split("-")[1] for lab, _, _ in seen} >= {"council", "vote", "reveal", "score"}
    assert under_the_goal(seen) == []
    assert layout_problems(shots) == []


# The screens a game's end shows: the King's Dilemma's, and the shared winner screen of
# every game (companion/ui/winner.py: a night's, Koryŏ's, Chosŏn's and Inheritors' finals).
END_SCREENS = ("kd-", "winner", "koryo-final", "choson-final", "inheritors-final", "playcode")


@pytest.mark.parametrize(("houses", "scripts"), [
    (3, ("kings-dilemma",)), (5, ("kings-dilemma",)),
    (5, ("koryo", "choson", "inheritors"))], ids=["kd-3", "kd-5", "finals-5"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_long_names_meet_the_goal_on_the_king_s_dilemma_and_every_winner_screen(
        tmp_path_factory, houses, scripts, language):
    """Seats named with 8 to 10 letters, accented (``demo.LONG_NAMES``), on the 7" panel:
    the King's Dilemma's screens (the reveal's rows, the score's plates and table) and
    every game's winner screen keep figures at DIGIT_GOAL and words at TEXT_GOAL, a name
    too long for its place cut with an ellipsis (whole on its plate), nothing cut by its
    box or overlapping."""
    shots = demo_frames(((800, 480, 0), language), tmp_path_factory, seats=houses,
                        scripts=scripts, names=demo_mod.LONG_NAMES)
    ends = [shot for shot in shots if label(shot[0]).startswith(END_SCREENS)]
    seen = glyphs(ends)
    assert {name for name in demo_mod.LONG_NAMES[:houses]} <= {text for _, text, _ in seen}
    assert under_the_goal(seen) == []
    assert layout_problems(ends) == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_an_all_tie_of_five_long_names_meets_the_goal_on_the_winner_screen(
        open_table, language):
    """Five houses of long names all tied first (the King's Dilemma's all-first rule said
    under the table): the headline, the names, every total and the note at the goal,
    nothing cut by its box or overlapping."""
    from companion.ui.winner import Standing, WinnerScreen, WinnerView

    config = demo_mod.demo_config((800, 480), language, seats=5, names=demo_mod.LONG_NAMES)
    rig = open_table(language=language, seats=config.seats)
    t = rig.app.catalog.text
    names = [seat.name for seat in config.seats]
    labels = [t(f"kd.score.{k}") for k in ("agenda", "wealth", "open", "power")]
    standings = [Standing(name, "7", ["3", "2", "+1", "1"], t("kd.rank.1st"))
                 for name in names]
    view = WinnerView(rig.app, "kings-dilemma", standings, labels, names,
                      [(t("kd.council.campaign"), lambda: None, "campaign")], None,
                      [t("kd.score.all_first")])
    rig.ctx.show(WinnerScreen(rig.app, view))
    rig.app.step(block=False)
    frame = [(Path("00-winner-all-tie.png"), rig.app.size, list(rig.app.painter.texts), [])]
    seen = glyphs(frame)
    assert any(t("kd.score.all_first").startswith(text) for _, text, _ in seen)
    headline = " ".join(b.text for b in frame[0][2] if view.headline_rect.collidepoint(b.rect.center))
    assert all(name in headline for name in names), headline  # whole, on two lines
    assert under_the_goal(seen) == []
    assert layout_problems(frame) == []


@pytest.mark.parametrize("size", SIZES[1:], ids=lambda s: f"{s[0]}x{s[1]}r{s[2]}")
def test_five_houses_show_every_text_whole_and_apart_at_every_size(tmp_path_factory, size):
    """The King's Dilemma's demo with five houses, in French (the longer words), at every
    other supported size: nothing cut, overlapping or off screen."""
    shots = demo_frames((size, "fr"), tmp_path_factory, seats=5, scripts=("kings-dilemma",))
    assert len(shots) > 10 and layout_problems(shots) == []


@pytest.mark.parametrize("houses", [3, 4, 5])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_king_s_dilemma_tie_meets_the_goal_with_three_to_five_houses(
        tmp_path, houses, language):
    """A secret vote ending in a tie (the demo has none), played on the pads from Home
    with that many houses on the 7" panel: the tie's headline and every house's status,
    figures at DIGIT_GOAL and words at TEXT_GOAL, whole and apart."""
    seats = demo_mod.demo_seats(demo_mod.demo_config((800, 480), language), houses)
    rig = TableRig(tmp_path, language=language, seats=seats)
    try:
        rig.ctx.show(HomeScreen(rig.app))
        rig.tap(rig.screen.button(rig.app.catalog.text("kd.menu")).rect)
        rig.tap(rig.screen.buttons[-1].rect)  # start
        rig.tap(rig.screen.buttons[1].rect)  # a secret vote
        for seat in range(houses):  # Aye 1 and Nay 1 in turn; an odd one out moderates
            button = "c" if houses % 2 and seat == houses - 1 else "ab"[seat % 2]
            rig.ctx.press(seat, button)
            rig.ctx.press(seat, button, Press.LONG)
        assert rig.app.catalog.text("kd.reveal.decide", side=rig.app.catalog.text(
            "kd.side.aye")) in [b.label for b in rig.screen.buttons], rig.screen.describe()
        rig.app.invalidate()
        rig.app.step(block=False)
        texts = list(rig.app.painter.texts)
        frame = [(Path("00-kd-reveal-tie.png"), rig.app.size, texts, [])]
        seen = glyphs(frame)
        assert {text for _, text, _ in seen} >= {seat.name for seat in seats}
        assert under_the_goal(seen) == []
        assert layout_problems(frame) == []
    finally:
        rig.close()


@pytest.mark.parametrize("size", SIZES[1:], ids=lambda s: f"{s[0]}x{s[1]}r{s[2]}")
def test_long_names_show_every_text_whole_and_apart_at_every_size(tmp_path_factory, size):
    """Five houses of long names (``demo.LONG_NAMES``), in French, at every other supported
    size: the King's Dilemma's screens and every game's winner screen, nothing cut,
    overlapping or off screen."""
    shots = demo_frames((size, "fr"), tmp_path_factory, seats=5, names=demo_mod.LONG_NAMES,
                        scripts=("koryo", "choson", "inheritors", "kings-dilemma"))
    ends = [shot for shot in shots if label(shot[0]).startswith(END_SCREENS)]
    assert len(ends) > 10 and layout_problems(ends) == []
