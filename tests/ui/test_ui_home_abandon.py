"""Home: an unfinished game is shown on its menu entry ("Resume Koryŏ", its start time and
step) and can be abandoned by touch behind a two-tap confirmation ("Sure? Abandon");
any other tap or a seat press cancels. Abandoned, the game no longer resumes — neither
from Home nor at start-up through ``companion run`` — and its actions stay in the journal.

Real App loop under SDL's dummy driver, taps as touch events, the real Koryŏ screens and
session; the start-up check runs the real ``companion run`` in a subprocess."""

from __future__ import annotations

import random
import signal

import pygame
import pytest
from kiosk_process import Kiosk, write_config
from table_rig import open_app
from ui_layout import check_layout

from companion.games.inheritors.adapter import InheritorsSheet
from companion.games.kings_dilemma.kingdom import RESOURCES
from companion.games.majority.autoplay import next_action
from companion.games.registry import rules_for, session_rules
from companion.play.session import Session
from companion.storage.journal import Journal
from companion.ui.app import App
from companion.ui.home import HomeScreen, ResumeButton, resume_unfinished
from companion.ui.screens.majority import game as majority_game
from companion.ui.screens.majority import koryo
from companion.ui.screens.majority import setup as majority_setup

SETUP = {"players": ["Ana", "Ben"], "seats": [0, 1], "first_player": "Ana"}


def tap(app: App, rect: pygame.Rect) -> None:
    w, h = app.window.get_size()
    x, y = rect.center
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(pygame.event.Event(kind, x=x / w, y=y / h, touch_id=1, finger_id=0))
    app.step(block=False)


def koryo_game(journal: Journal, steps: int = 1) -> int:
    """A Koryŏ game for two left unfinished after ``steps`` actions (autoplayed)."""
    session = Session.start(journal, rules_for("koryo"), SETUP)
    rng = random.Random(1)
    for _ in range(steps):
        session.dispatch(next_action(session.rules, session.state, rng))
    return session.game_id


def home_on(app: App) -> HomeScreen:
    home = HomeScreen(app)
    app.push(home)
    app.step(block=False)
    return home


def labels(home: HomeScreen) -> list[str]:
    return [b.label for b in home.buttons]


def test_unfinished_game_shows_resume_with_its_progress_and_an_abandon_target(app, journal):
    game = koryo_game(journal)
    home = home_on(app)
    t = app.catalog.text
    resume = next(b for b in home.buttons if isinstance(b, ResumeButton))
    assert resume.label == t("home.resume", game=t("koryo.menu"))
    record = journal.game(game)
    view = Session(journal, rules_for("koryo"), game).public_view()
    assert view["phase"] == "orders" and view["current_player"] == "Ana"
    assert resume.detail == f"round 1, Ana's turn, started {record.started[11:16]}"
    abandon = home.abandons["koryo"]
    assert abandon.label == t("home.abandon") and t("koryo.menu") not in labels(home)
    for button in home.buttons:  # every target at least the theme's minimum
        assert min(button.rect.size) >= 64
    assert not resume.rect.colliderect(abandon.rect)
    tap(app, resume.rect)
    assert isinstance(app.screen, majority_game.GameScreen)
    assert app.screen.game.session.game_id == game


def unfinished(journal: Journal, game: str) -> Session:
    """A game of ``game`` left after its first step: Ana and Ben at the table, Ben acting
    first (the King's Dilemma: Ben leads, an open vote on the first dilemma)."""
    if game == "kings-dilemma":
        session = Session.start(journal, session_rules(game), {
            "players": ["Ana", "Ben", "Cleo"], "leader": "Ben", "moderator": "Cleo",
            "momenta": dict.fromkeys(RESOURCES, "up")})
        session.dispatch({"action": "dilemma", "mode": "open", "card": "first"})
    elif game == "inheritors":
        session = Session.start(journal, InheritorsSheet(),
                                {"players": ["Ana", "Ben"], "first_player": "Ben"})
    else:
        session = Session.start(journal, rules_for(game), {**SETUP, "first_player": "Ben"})
    return session


@pytest.mark.parametrize(("game", "language", "expected"), [
    ("koryo", "en", "round 1, Ben's turn, started {time}"),
    ("koryo", "fr", "ronde 1, au tour de Ben, début {time}"),
    ("choson", "en", "round 1, Ben's turn, started {time}"),
    ("choson", "fr", "ronde 1, au tour de Ben, début {time}"),
    ("kings-dilemma", "en", "round 1, Ben's turn, started {time}"),
    ("kings-dilemma", "fr", "manche 1, au tour de Ben, début {time}"),
    ("inheritors", "en", "started {time}"),
    ("inheritors", "fr", "début {time}"),
])
def test_every_games_unfinished_game_says_where_it_stands(journal, game, language, expected):
    """Home says, for every game, its round in the game's own word (the French rulebooks:
    « ronde » for Koryŏ and Chosŏn, « manche » for The King's Dilemma), who acts and when
    the game started; never a step number."""
    session = unfinished(journal, game)
    app = open_app(journal, language=language)
    try:
        home = home_on(app)
        resume = next(b for b in home.buttons if isinstance(b, ResumeButton))
        started = journal.game(session.game_id).started[11:16]
        assert resume.detail == expected.format(time=started)
        assert "step" not in resume.detail and "étape" not in resume.detail
    finally:
        app.backend.close()
        pygame.display.quit()


def test_abandon_by_two_taps_keeps_the_actions_and_nothing_resumes(app, journal):
    game = koryo_game(journal, steps=3)
    actions = journal.actions(game)
    home = home_on(app)
    t = app.catalog.text
    tap(app, home.abandons["koryo"].rect)
    assert [g.id for g in journal.unfinished()] == [game], "one tap abandons nothing"
    assert home.abandons["koryo"].label == t("home.abandon_sure")
    assert home.status == t("home.abandon_ask", game=t("koryo.menu"))
    tap(app, home.abandons["koryo"].rect)
    assert journal.unfinished() == []
    assert [g.id for g in journal.abandoned()] == [game]
    assert journal.actions(game) == actions  # kept, never deleted
    assert home.status == t("home.abandoned", game=t("koryo.menu"))
    assert t("koryo.menu") in labels(home) and not home.abandons  # a plain menu entry again
    assert resume_unfinished(app) is None
    tap(app, home.button(t("koryo.menu")).rect)  # a new game, not the abandoned one
    assert isinstance(app.screen, majority_setup.SetupScreen)


@pytest.mark.parametrize("how", ["tap elsewhere", "seat press", "other abandon"])
def test_anything_between_the_two_taps_cancels_the_abandon(app, journal, how):
    koryo = koryo_game(journal)
    other = Session.start(journal, rules_for("choson"), SETUP).game_id
    home = home_on(app)
    t = app.catalog.text
    tap(app, home.abandons["koryo"].rect)
    if how == "tap elsewhere":
        tap(app, home.title_rect)
    elif how == "seat press":
        app.backend.press(1, "a")
        app.step(block=False)
    else:
        tap(app, home.abandons["choson"].rect)
    assert home.abandons["koryo"].label == t("home.abandon")
    tap(app, home.abandons["koryo"].rect)  # asks again, does not abandon
    assert {g.id for g in journal.unfinished()} == {koryo, other}
    assert home.abandons["koryo"].label == t("home.abandon_sure")


def test_home_shows_a_game_left_unfinished_when_it_comes_back(app, journal):
    """A game left from its screen (pop) shows as Resume on Home without a restart."""
    home = home_on(app)
    t = app.catalog.text
    assert not home.abandons
    koryo_game(journal)
    app.push(majority_setup.SetupScreen(app, koryo.SPEC))
    app.pop()
    app.step(block=False)
    assert app.screen is home and "koryo" in home.abandons
    assert t("home.resume", game=t("koryo.menu")) in labels(home)


def test_french_texts_from_the_catalog(journal):
    koryo_game(journal)
    app = open_app(journal, language="fr")
    try:
        home = home_on(app)
        assert "Reprendre Koryŏ" in labels(home) and "Abandonner" in labels(home)
        tap(app, home.abandons["koryo"].rect)
        assert "Sûr ? Abandonner" in labels(home)
    finally:
        app.backend.close()
        pygame.display.quit()


def test_abandoned_game_is_not_resumed_by_companion_run(tmp_path, journal):
    """Start-up (``companion run`` → ``resume_unfinished``): an abandoned game leaves Home
    on screen; the same game unabandoned is resumed (the check can fail)."""
    config = write_config(tmp_path, "sim")
    kept = koryo_game(journal)
    dropped = koryo_game(journal)
    journal.abandon(dropped)
    for expect_resume in (True, False):
        k = Kiosk(config)
        try:
            ready = k.await_line("ready")
            log = "\n".join(k.lines)
            if expect_resume:
                assert f"resumed game {kept} (koryo)" in log and "Choose a game" not in ready
                journal.abandon(kept)
            else:
                assert "resumed game" not in log and "Choose a game" in ready
            assert k.stop(signal.SIGTERM) == 0
        finally:
            k.kill()
    assert f"resumed game {dropped}" not in "\n".join(k.lines)
    assert len(journal.actions(dropped)) == journal.game(dropped).actions


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=["800x480", "1280x720"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_resume_and_abandon_layout_fits(journal, size, language):
    """Two unfinished games (the longest French title among them), one asking "Sure?",
    then abandoned: every text whole and legible, nothing overlapping, targets large
    enough."""
    koryo_game(journal, steps=12)
    Session.start(journal, InheritorsSheet(), {"players": ["Ana", "Ben"], "seats": [0, 1],
                                               "first_player": "Ana"})
    app = open_app(journal, size, language)
    try:
        home = home_on(app)
        tap(app, home.abandons["koryo"].rect)
        app.invalidate()
        app.step(block=False)
        check_layout(app)
        assert home.abandons["koryo"].label == app.catalog.text("home.abandon_sure")
        tap(app, home.abandons["koryo"].rect)  # abandoned: the status line says so
        check_layout(app)
        assert home.status in {box.text for box in app.painter.texts}
    finally:
        app.backend.close()
        pygame.display.quit()
