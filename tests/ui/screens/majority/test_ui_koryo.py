"""Koryŏ at the table through its screens (the Koryŏ rulebook): a whole 8-round
game entered with seat buttons and touch events scores as ``companion score`` does and is
recorded; refusals change nothing; undo restores the view; the first-player light follows
the token; a reopened journal resumes the same screen; every sentence is the engine's;
the layouts fit 800x480 and 1280x720.

Everything runs the real App loop under SDL's dummy driver (tests/conftest.py); inputs are
SimBackend presses and posted FINGERDOWN/UP events on the widgets' rects."""

from __future__ import annotations

import itertools
import random

import pygame
import pytest
from ui_layout import FIVE
from ui_majority import (
    companion_score,
    expected_lights,
    fits,
    middle_rounds,
    play_through,
    shown,
    start,
    table_file,
)

from companion.games.koryo import rules as engine
from companion.games.majority.autoplay import next_action
from companion.play.errors import RuleError
from companion.play.seat import Light, Press
from companion.storage.journal import Journal
from companion.ui.screens.majority import choson, koryo
from companion.ui.screens.majority.choice import cells_by_width, tile_split
from companion.ui.screens.majority.game import GameScreen
from companion.ui.screens.majority.setup import SetupScreen
from companion.ui.theme import MIN_TARGET


@pytest.fixture
def table(open_table):
    return open_table


def test_full_game_through_the_screens_scores_as_companion_score(table, tmp_path, capsys):
    """Three players, 8 rounds: every order, power, discard and step entered on screen or
    with seat button A. The final screen's result is ``companion score --json`` of the same
    cards and tokens; it is in the history and the journal's game is finished."""
    t = table()
    screen = start(t, koryo, players=[0, 1, 2], first=1)
    seen_powers: set[str] = set()
    acting_elsewhere: list[bool] = []

    def check(action, before, after):
        # The acting seat says "your turn", the token holder's (when another) "first
        # player", every other seat is dark.
        if after["final"] is None:
            assert t.lights() == expected_lights(after, len(t.app.seats))
            acting_elsewhere.append(after["current_player"] not in (None, after["first_player"]))
        # The token passes clockwise when a round ends.
        if action["action"] == "end_round" and after["final"] is None:
            players = before["players"]
            nxt = players[(players.index(before["first_player"]) + 1) % len(players)]
            assert after["first_player"] == nxt
        # EN sentences are the engine's own.
        for power in after["powers"]:
            seen_powers.add(power["code"])
            assert screen.power_text(power) == power["text"]
        for prot in after["protections"]:
            assert screen.protection_text(prot) == prot["text"]

    actions = play_through(t, seed=11, check=check)
    assert sum(a["action"] == "start_round" for a in actions) == engine.ROUNDS
    assert {"discard", "deal_bonus"} <= seen_powers
    assert any(acting_elsewhere)  # both lights were seen at once: a turn not the first's
    assert {a["action"] for a in actions} >= {"reveal", "discard", "end_turn", "end_round"}
    view = screen.view
    assert screen.mode == "final"
    expected = companion_score(table_file(tmp_path / "table.yaml", view), capsys)
    assert view["final"] == expected
    drawn = t.texts()
    for player in expected["players"]:
        assert str(player["total"]) in drawn
    assert any(", ".join(expected["winners"]) in text for text in drawn)
    recorded = t.history.games()
    assert len(recorded) == 1 and recorded[0].game == "koryo"
    assert [p.total for p in recorded[0].players] == [p["total"] for p in expected["players"]]
    assert t.journal.unfinished() == [] and len(t.journal.finished()) == 1
    winners = {view["seats"][view["players"].index(w)] for w in expected["winners"]}
    assert {s for s, li in t.lights().items() if li is Light.LEADER} == winners


def test_impossible_count_is_refused_with_the_reason_and_changes_nothing(table):
    """The deck has 1 Omniscient: a second one is refused at once, with the engine's reason
    on screen; an order of more cards than dealt is refused at Reveal; nothing reaches the
    journal."""
    t = table()
    screen = start(t, koryo, players=[0, 1])
    t.ctx.press(0, "a")  # Ana starts round 1
    game = screen.game.session.game_id
    journaled = t.journal.actions(game)
    view = screen.view
    t.ctx.tap(screen.button("entry").rect, "cards")
    t.ctx.tap(screen.tiles["1"], "Omniscient")
    t.ctx.tap(screen.tiles["1"], "Omniscient again")
    assert screen.entry == {"1": 1}
    refusal = "Refused: 2 × Omniscients, but the game has 1"
    assert refusal in shown(t)
    # More cards than dealt: the 11th is refused (round 1 deals 10).
    t.ctx.tap(screen.button("cancel").rect, "cancel")
    t.ctx.tap(screen.button("entry").rect, "cards")
    for _ in range(11):
        t.ctx.tap(screen.tiles["9"], "Merchant")
    assert screen.entry == {"9": 9}  # the deck has 9 Merchants: the 10th was refused
    assert "Refused: 10 × Merchants, but the game has 9" in shown(t)  # none in play
    t.ctx.tap(screen.tiles["8"], "Broadcaster")
    t.ctx.tap(screen.tiles["8"], "Broadcaster")
    assert screen.entry == {"9": 9, "8": 1}
    assert "Refused: 11 cards, but Ana was dealt 10" in shown(t)
    t.ctx.tap(screen.button("cancel").rect, "cancel")
    t.ctx.tap(screen.button("entry").rect, "cards")
    for _ in range(6):
        t.ctx.tap(screen.tiles["barbarian"], "Barbarian")
    t.ctx.tap(screen.tiles["lobbying"], "Lobbying")  # a mixed order: hinted, not refused
    assert screen.entry == {"barbarian": 6, "lobbying": 1} and screen.message is None
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    assert screen.mode == "entry"
    assert "Refused: an order is identical cards only: one family or one event type" in shown(t)
    assert t.journal.actions(game) == journaled and screen.view == view


def test_undo_restores_the_previous_view(table):
    """Undo by touch, and by a long press (a request shown on screen) confirmed by a second
    long press of the same seat."""
    t = table()
    screen = start(t, koryo, players=[0, 1, 2, 3])
    before = screen.view
    t.ctx.press(0, "a")
    assert screen.view["round"] == 1
    t.ctx.tap(screen.button("undo").rect, "undo")  # a first tap only asks
    assert screen.view["round"] == 1 and screen.button("undo").label == "Sure? Undo"
    t.ctx.tap(screen.button("undo").rect, "undo, sure")
    assert screen.view == before and t.journal.actions(screen.game.session.game_id) == []
    t.ctx.press(0, "a")
    t.ctx.tap(screen.button("entry").rect, "cards")
    for _ in range(3):
        t.ctx.tap(screen.tiles["9"], "Merchant")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    assert screen.view["areas"]["Ana"] == {"9": 3}
    t.ctx.press(2, "b", Press.LONG)  # Cleo only watches: she can't undo Ana's reveal
    assert "only Ana can undo" in shown(t)  # on Cleo's plate, the table's line kept
    assert "Ana's turn: use powers, then end the turn" in shown(t)
    assert screen.game.undo_request is None and screen.view["areas"]["Ana"] == {"9": 3}
    t.ctx.press(0, "b", Press.LONG)
    assert "Ana asks to undo: tap Undo twice, or hold again" in shown(t)
    assert screen.view["areas"]["Ana"] == {"9": 3}
    t.ctx.press(0, "c", Press.LONG)
    assert screen.view["areas"]["Ana"] == {} and screen.view["round"] == 1
    assert screen.view["current_player"] == "Ana" and not screen.view["turn"]["revealed"]


def test_seat_buttons_only_from_the_seat_whose_turn_it_is(table):
    """Button A of a seat that is not acting says whose turn it is on that seat's own
    plate, and does nothing; a seat that does not play is answered on its plate too; the
    table's line keeps saying what to do."""
    t = table()
    screen = start(t, koryo, players=[0, 1, 2], first=2)
    status = "Cleo starts round 1: press A or tap Start the round"
    t.ctx.press(0, "a")
    assert screen.view["round"] == 0
    assert "Cleo's turn" in shown(t) and status in shown(t)
    ring = screen.ring
    assert any(b.text == "Cleo's turn" and ring.plates[0].rect.contains(b.rect)
               for b in t.app.painter.texts)
    t.ctx.press(3, "a")  # Dan watches: told so on his plate, whoever's turn it is
    assert any(b.text == "you watch this game" and ring.plates[3].rect.contains(b.rect)
               for b in t.app.painter.texts)
    assert status in shown(t)
    t.ctx.press(2, "a")
    assert screen.view["round"] == 1
    t.ctx.press(2, "b")
    assert screen.mode == "entry"


def test_setup_refuses_a_player_count_koryo_does_not_take(table):
    t = table()
    t.ctx.show(koryo.new_game(t.app))
    setup = t.screen
    for seat in (1, 2, 3):
        t.ctx.tap(setup.button(f"seat-{seat}").rect, "out")
    t.ctx.tap(setup.button("start").rect, "start")
    assert isinstance(t.screen, SetupScreen)
    assert "1 player: this game takes 2 to 4" in shown(t)
    assert t.journal.unfinished() == []


def test_resume_after_reopening_the_journal_shows_the_same_screen(table, tmp_path):
    t = table()
    screen = start(t, koryo, players=[0, 1, 3], first=3)
    play_through(t, seed=4, until=lambda v: v["round"] == 3 and v["phase"] == "main")
    described, texts, lights = screen.describe(), t.texts(), t.lights()
    game = screen.game.session.game_id
    t.journal.close()
    t.journal = t.app.journal = Journal(t.journal_path)
    for seat in range(len(t.app.seats)):
        t.backend.set_light(seat, Light.OFF)
    resumed = koryo.resume(t.app, game)
    assert isinstance(resumed, GameScreen)
    t.ctx.show(resumed)
    assert resumed.describe() == described and t.texts() == texts and t.lights() == lights
    assert koryo.resume(t.app).describe() == described  # the latest unfinished Koryŏ game


@pytest.mark.parametrize("language", ["en", "fr"])
def test_from_home_back_returns_and_without_a_journal_the_game_still_plays(table, language):
    """Opened over Home, the new-game screen has Back (and still fits), which pops to Home.
    With no journal kept the game runs on a journal of this process only, and there is
    nothing to resume."""
    from ui_majority import Recorder

    t = table(language=language)
    t.app.journal = None
    t.ctx.show(Recorder(t.app))
    t.app.push(koryo.new_game(t.app))
    t.app.step(block=False)
    fits(t.app)
    t.ctx.tap(t.screen.button("back").rect, "back")
    assert isinstance(t.screen, Recorder)
    t.app.push(koryo.new_game(t.app))
    t.app.step(block=False)
    t.ctx.tap(t.screen.button("start").rect, "start")
    assert isinstance(t.screen, GameScreen)
    t.ctx.press(0, "a")
    assert t.screen.view["round"] == 1
    assert koryo.resume(t.app, None) is None


@pytest.mark.parametrize(("size", "language"), [((800, 480), "fr"), ((1280, 720), "en")])
def test_layouts_fit(table, size, language):
    """Set-up, board (four players, late in the game), card entry, powers and final score:
    texts whole, legible and apart, touch targets at least MIN_TARGET and apart."""
    t = table(size=size, language=language)
    screen = start(t, koryo)
    fits(t.app)
    modes = set()

    def look(action, before, after):
        if screen.mode not in modes or (after["round"] == 8 and action["action"] == "end_turn"):
            modes.add(screen.mode)
            fits(t.app)
        if after["phase"] == "main" and not after["turn"]["revealed"] and "entry" not in modes:
            t.ctx.tap(screen.button("entry").rect, "cards")
            t.ctx.tap(screen.tiles["9"], "Merchant")
            modes.add("entry")
            fits(t.app)
            t.ctx.tap(screen.button("cancel").rect, "cancel")
        if screen.offered() and "powers" not in modes:
            t.ctx.tap(screen.button("powers").rect, "powers")
            modes.add("powers")
            fits(t.app)
            t.ctx.tap(screen.button("back").rect, "back")

    play_through(t, seed=7, check=look, fast=middle_rounds)
    assert modes >= {"board", "entry", "powers", "final"}
    fits(t.app)


def test_french_board_uses_french_family_names(table):
    t = table(language="fr")
    screen = start(t, koryo, players=[0, 1])
    t.ctx.press(0, "a")
    t.ctx.tap(screen.button("entry").rect, "cartes")
    t.ctx.tap(screen.tiles["1"], "Omniscient")
    t.ctx.tap(screen.tiles["1"], "Omniscient")
    assert "Refusé : 2 × Omniscients, mais le jeu en a 1" in shown(t)
    for label in ("Marchand", "Armateur", "Espion", "Omniscient"):  # in full on the tiles
        assert label in shown(t)
    # the round line, its figures drawn apart (larger) from its words
    assert "Ronde 1/8 · 10 cartes · max 3" in "".join(t.texts())
    t.ctx.tap(screen.button("cancel").rect, "annuler")
    t.ctx.tap(screen.button("entry").rect, "cartes")
    t.ctx.tap(screen.tiles["5"], "Armateur")
    t.ctx.tap(screen.button("reveal").rect, "révéler")
    assert "Armateurs" in shown(t)  # the board's head names the family in play in full


@pytest.mark.parametrize("language", ["fr"])
def test_five_seats_with_a_long_name_fit(table, language):
    """Five configured seats (two on one edge) and a long name: the new-game screen shows all
    five; four of them play (Koryŏ's most) and the board, entry and final still fit."""
    t = table(language=language, seats=FIVE)
    t.ctx.show(koryo.new_game(t.app))
    fits(t.app)
    assert {seat.name for seat in FIVE} - {"Dominique-Alexandre"} <= set(t.texts())
    screen = start(t, koryo, players=[0, 2, 3, 4], first=3)
    assert screen.view["players"] == ["Ana", "Cléo", "Dominique-Alexandre", "Eve"]
    assert screen.view["first_player"] == "Dominique-Alexandre"
    assert t.lights()[3] is Light.YOUR_TURN  # the first player starts the round
    fits(t.app)

    def look(action, before, after):
        if after["phase"] == "end" or screen.mode == "final":
            fits(t.app)

    play_through(t, seed=2, check=look, fast=middle_rounds)


def test_limit_warning_then_discard_to_the_limit_by_touch(table):
    """Round 1 keeps at most 3 cards: Ana's 5 Merchants are warned about during the round;
    at the end phase she must discard 2 (End the round is refused until she has), chosen in
    the powers; then the first-player token and its light pass to Ben."""
    t = table()
    screen = start(t, koryo, players=[0, 1])
    t.ctx.press(0, "a")
    t.ctx.press(0, "b")  # Ana's card entry from her pad
    for _ in range(5):
        t.ctx.tap(screen.tiles["9"], "Merchant")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    assert "Ana: 5 cards, limit 3" in shown(t)
    t.ctx.press(0, "a")  # Ana ends her turn
    t.ctx.press(1, "b")
    t.ctx.tap(screen.tiles["8"], "Broadcaster")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    t.ctx.press(1, "a")
    assert screen.view["phase"] == "end"
    assert "Ana must discard 2 characters — limit 3" in shown(t)
    t.ctx.press(0, "a")  # the first player, who must discard, tries to end the round
    assert screen.view["phase"] == "end" and screen.view["round"] == 1
    assert "discard first: C" in shown(t)  # on her plate
    assert screen.button("step").unavailable  # End the round looks unavailable…
    t.ctx.tap(screen.button("step").rect, "end the round")  # …and a tap says why
    assert screen.view["phase"] == "end" and screen.view["round"] == 1
    assert "Refused: Ana has 5 cards for a limit of 3: discard 2 characters first" in shown(t)
    for left in (1, 0):
        t.ctx.press(0, "c")  # the powers, from the acting seat's pad
        assert screen.mode == "powers"
        option = screen.option_buttons[0]
        assert option.label == "Discard a Merchant"
        t.ctx.tap(option.rect, option.label)
        assert screen.view["areas"]["Ana"] == {"9": 3 + left}
        if screen.mode == "powers":
            t.ctx.tap(screen.button("back").rect, "back")
    assert not any(pw["code"] == "discard" for pw in screen.view["powers"])
    t.ctx.press(0, "a")
    assert screen.view["first_player"] == "Ben" and screen.view["phase"] == "setup"
    assert t.lights()[1] is Light.YOUR_TURN and t.lights()[0] is Light.OFF


def test_french_table_gets_the_engines_refusals_in_french(table):
    """EN and FR: with language fr, the refusals the engine raises (a mixed order
    at Reveal, ending a round over the limit) are the catalog's French ``refusal.<code>``
    texts, not the English message; nothing is journaled."""
    t = table(language="fr")
    screen = start(t, koryo, players=[0, 1])
    t.ctx.press(0, "a")
    game = screen.game.session.game_id
    t.ctx.tap(screen.button("entry").rect, "cards")
    t.ctx.tap(screen.tiles["barbarian"], "Barbare")
    t.ctx.tap(screen.tiles["lobbying"], "Lobbying")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    drawn = " ".join(t.texts())
    assert ("Refusé : une commande ne comprend que des cartes identiques : une famille ou un "
            "type d'événement") in drawn
    assert "identical" not in drawn
    assert t.journal.actions(game) == [{"action": "start_round"}]
    fits(t.app)
    t.ctx.tap(screen.button("cancel").rect, "cancel")
    t.ctx.press(0, "b")
    for _ in range(5):
        t.ctx.tap(screen.tiles["9"], "Marchand")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    t.ctx.press(0, "a")
    t.ctx.press(1, "b")
    t.ctx.tap(screen.tiles["8"], "Broadcaster")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    t.ctx.press(1, "a")
    t.ctx.tap(screen.button("step").rect, "fin de manche")  # 5 cards for a limit of 3
    assert screen.view["phase"] == "end"
    assert ("Refusé : Ana a 5 cartes pour 3 au plus : défaussez d'abord 2 personnages"
            in shown(t))
    fits(t.app)


def test_a_refusal_the_catalog_has_no_text_for_shows_the_english_message(table):
    """The fallback: an uncoded refusal, or a code the catalog lacks, reads as the engine's
    message; a coded one names the cards in the screen's language."""
    t = table(language="fr")
    screen = start(t, koryo, players=[0, 1])
    assert screen.refusal(RuleError("x", "plain words")) == "plain words"
    assert screen.refusal(RuleError("x", "new words", code="no_such_code")) == "new words"
    coded = RuleError("family", "Ana has no Guardian in play", code="not_in_play",
                      params={"player": "Ana", "family": 7})
    assert screen.refusal(coded) == "Ana n'a pas de carte en jeu : Gardien"
    deck = RuleError("cards.lobbying", "…", code="deck",
                     params={"n": 5, "kinds": "barbarian", "left": 4, "deck": 6})
    assert screen.refusal(deck) == "5 × Barbares, mais le jeu en a 6 et seulement 4 restent hors jeu"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_home_mid_game_leaves_it_unfinished_and_the_menu_resumes_it(table, language):
    """The game screen's Home button goes back to Home (seat lights off)
    without finishing the game; Koryŏ on Home's menu opens that game where it was (not a new
    game), while Chosŏn still starts a new one."""
    from companion.ui.home import HomeScreen

    t = table(language=language)
    home = HomeScreen(t.app)

    def menu(title: str):  # the game's button on Home (its label names the game)
        return next(b for b in home.buttons if t.app.catalog.text(title) in b.label).rect

    t.ctx.show(home)
    t.ctx.tap(menu("koryo.menu"), "Koryŏ")
    setup = t.screen
    assert isinstance(setup, SetupScreen)
    t.ctx.tap(setup.button("seat-2").rect, "seat out")
    t.ctx.tap(setup.button("seat-3").rect, "seat out")
    t.ctx.tap(setup.button("start").rect, "start")
    screen = t.screen
    play_through(t, seed=5, until=lambda v: v["round"] == 2 and v["phase"] == "main")
    fits(t.app)
    described, lights = screen.describe(), t.lights()
    game = screen.game.session.game_id
    t.ctx.tap(screen.button("home").rect, "home")
    assert t.screen is home and t.app.screens == [home]
    assert set(t.lights().values()) == {Light.OFF}
    assert [g.id for g in t.journal.unfinished()] == [game] and t.journal.finished() == []
    t.ctx.tap(menu("choson.menu"), "Chosŏn")
    assert isinstance(t.screen, SetupScreen) and t.screen.spec.game == "choson"
    t.ctx.tap(t.screen.button("back").rect, "back")
    t.ctx.tap(menu("koryo.menu"), "Koryŏ")
    resumed = t.screen
    assert isinstance(resumed, GameScreen) and resumed.game.session.game_id == game
    assert resumed.describe() == described and t.lights() == lights
    assert t.app.screens == [home, resumed]


def test_the_lights_follow_the_session_however_it_changes(table):
    """The screen's controller is subscribed to the session: actions dispatched straight on
    the session (not through the screen) move the view and the seats' lights at once."""
    t = table()
    screen = start(t, koryo, first=1)
    game, rng, seen = screen.game, random.Random(4), []
    for _ in range(12):
        game.session.dispatch(next_action(game.rules, game.session.state, rng))
        assert t.lights() == expected_lights(screen.view, 4)
        seen.append(tuple(t.lights().values()))
    assert len(set(seen)) > 1  # the acting seat moved


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720)])
def test_a_board_of_few_families_uses_the_felt_before_paging(table, size):
    """Early rounds, four players, in French (the longer lines): while the board has one or
    two families, its lines go beside it, all on the board (no "more" page), and its rows
    take the felt's height; texts whole, legible and apart."""
    t = table(size=size, language="fr")
    screen = start(t, koryo, players=[0, 1, 2, 3])
    px = t.app.theme.px
    seen = []

    def look(action, before, after):
        if screen.mode != "board" or sum(c.family is not None for c in screen.columns) > 2:
            return
        lines, _ = screen.info_lines()
        seen.append(len(lines))
        assert len(screen.info_pages) == 1
        assert sum(map(len, screen.info_pages[0])) == sum(map(len, lines))
        assert screen.side == bool(lines)
        n = len(after["players"])
        assert screen.head_h + n * screen.row_h >= screen.body.h - px(4) - n
        fits(t.app)

    play_through(t, seed=5, check=look, until=lambda v: v["round"] > 2)
    assert len(seen) >= 3 and max(seen) >= 2


def test_the_kiosk_computes_the_seats_lights_once_per_press_and_per_touch(table,
                                                                           monkeypatch):
    """A press that moves the game (the session publishes, the screen redraws, the entry
    opens), a refused one, a touch that reveals: each makes the seats' lights once, and
    they are the game's (a tap is two touch events, the finger down and up: once each)."""
    from companion.play import table as table_module

    t = table()
    screen = start(t, koryo, players=[0, 1])
    made: list[dict] = []
    compute = table_module.turns_lights
    monkeypatch.setattr(table_module, "turns_lights",
                        lambda turns: made.append(compute(turns)) or made[-1])

    def once() -> None:
        assert len(made) == 1, made
        assert t.lights() == expected_lights(screen.view, len(t.app.seats))
        made.clear()

    t.ctx.press(0, "a")  # Ana starts round 1
    assert screen.view["round"] == 1
    once()
    t.ctx.press(1, "a")  # Ben watches: refused on his plate
    once()
    t.ctx.press(0, "b")  # the card entry opens from her pad
    assert screen.mode == "entry"
    once()
    t.ctx.tap(screen.tiles["9"], "Merchant")
    made.clear()
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    assert screen.view["areas"]["Ana"] == {"9": 1}
    assert len(made) == 2  # the finger down shows the button held, its lift reveals
    made.pop(0)
    once()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", ["koryo", "choson"])
def test_the_card_entry_names_every_kind_at_the_words_size(table, game, language):
    """On the 7" panel each kind's tile is as wide as its name needs: every name whole on
    one line with its capitals 16 px high, the tiles in two rows inside the screen's body,
    apart, each a touch target."""
    module = {"koryo": koryo, "choson": choson}[game]
    t = table(language=language)
    screen = start(t, module, players=[0, 1])
    t.ctx.press(0, "a")
    t.ctx.tap(screen.button("entry").rect, "cards")
    unit = t.app.theme.unit
    for kind, tile in screen.tiles.items():
        name = screen.kind_name(kind)
        boxes = [b for b in t.app.painter.texts if b.text == name and tile.contains(b.rect)]
        assert boxes and not boxes[0].clipped, name
        # the least any text may be: 16 px (TEXT_GOAL in tests/ui/test_legibility.py)
        assert boxes[0].glyph / unit >= 15.5, (name, boxes[0].glyph)
        assert screen.body.contains(tile) and min(tile.size) >= MIN_TARGET
    tiles = list(screen.tiles.values())
    assert len({tile.y for tile in tiles}) == 2
    assert not any(a.colliderect(b) for a, b in itertools.combinations(tiles, 2))
    fits(t.app)


def test_the_kinds_break_into_the_two_rows_that_leave_the_fuller_one_least_full():
    """The break between the rows of tiles keeps the kinds in order and the rows even; no
    break when one row can't hold its names (the tiles are then equal)."""
    assert tile_split([50, 50, 50, 50, 100], 210, 5) == 3  # rows of 160 and 155, not 105 / 210
    assert tile_split([100, 100, 100], 150, 5) is None
    cells = cells_by_width(pygame.Rect(10, 0, 100, 20), [20, 30], 4)
    assert [(c.x, c.w) for c in cells] == [(10, 43), (57, 53)] and cells[-1].right == 110
