"""The Inheritors score sheet on the touchscreen (the Inheritors rulebook), driven through the
real App loop with touch events (SDL dummy driver): setup with the first player lit on the
seat, every entry by touch, the validator's refusals shown with their reason, undo, the
final score equal to ``companion score --json`` on the same table file, the result kept
in the history and the journal, resume after a restart, Home leaving the sheet
unfinished, layouts at 800x480 and 1280x720."""

from __future__ import annotations

import itertools
import json
import re

import pygame
import pytest
import yaml
from ui_inheritors import THREE, enter, set_value, start, undo
from ui_layout import FIVE, check_layout
from ui_majority import shown

from companion.cli import main
from companion.games.inheritors import data as inheritors_data
from companion.games.inheritors import rules as engine
from companion.hardware.sim import SimBackend
from companion.play.seat import Light
from companion.ui.app import ManualClock, make_app
from companion.ui.demo import DEMOS, DemoContext, demo_config
from companion.ui.demo import inheritors as inheritors_demo
from companion.ui.home import HomeScreen
from companion.ui.screens.inheritors import setup as screens
from companion.ui.theme import SQUEEZE
from companion.ui.widgets import WORDS_GLYPH, Runs


def cli_score(tmp_path, capsys, data: dict) -> dict:
    path = tmp_path / "table.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main(["score", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_three_players_entered_by_touch_score_as_companion_score_and_land_in_history(
        open_table, tmp_path, capsys):
    """The whole sheet of a 3-player game by touch: the live score is `companion score
    --json` of the same table file (ties on the top Ana/Ben: tomes 2-2, Ana's 5 cards in
    hand break it); the final screen shows winner and tie-break; Save keeps the result in
    the history and closes the journaled game."""
    expected = cli_score(tmp_path, capsys, THREE)
    assert expected["tie_break"] == {"tied": ["Ana", "Ben"], "decided_by": "hand"}
    t = open_table()
    sheet = start(t)
    assert t.backend.light(1) is Light.FIRST_PLAYER  # Ben, tapped first
    assert t.backend.light(0) is Light.YOUR_TURN  # Ana's count open
    assert [t.backend.light(s) for s in (2, 3)] == [Light.OFF] * 2
    enter(t, sheet, THREE)
    assert sheet.view["score"] == expected
    game_id = sheet.game.session.game_id
    assert len(t.journal.actions(game_id)) > 20  # every entry journaled
    assert t.backend.light(2) is Light.YOUR_TURN  # Cleo's count open, the last
    t.tap(sheet.finish_rect, "final score")
    final = t.app.screen
    assert isinstance(final, screens.ResultScreen)
    assert [t.backend.light(s) for s in range(4)] == [
        Light.OFF, Light.FIRST_PLAYER, Light.OFF, Light.OFF]
    shown = " ".join(t.texts())
    assert "Winner: Ana" in shown and "most cards in hand" in shown
    for p in expected["players"]:
        assert str(p["total"]) in t.texts()
    assert t.history.games() == []  # not kept before Save
    t.tap(final.save_rect, "save")
    (kept,) = t.history.games()
    assert kept.game == "inheritors" and kept.winners == ("Ana",)
    assert [(p.name, p.total, p.breakdown) for p in kept.players] == [
        (p["name"], p["total"], p["breakdown"]) for p in expected["players"]]
    assert t.journal.game(game_id).finished is not None
    assert t.journal.unfinished() == []
    assert "Saved in the history" in t.texts()
    assert all(t.backend.light(s) is Light.OFF for s in range(4))


def test_setup_needs_two_to_four_players_and_draws_a_first_player(open_table):
    """Inheritors is 2–4 players: Start with one seat is refused with the reason; the first
    player drawn is one of those playing, and only that seat is lit."""
    t = open_table()
    t.ctx.show(screens.new_game(t.app))
    setup = t.app.screen
    t.tap(setup.seat_rects[2], "Cleo")
    t.tap(setup.start_rect, "start")
    assert setup.message == "Choose 2 to 4 players" and t.app.screen is setup
    t.tap(setup.seat_rects[3], "Dan")
    t.tap(setup.random_rect, "draw")
    assert setup.first in (2, 3)
    lit = [s for s in range(4) if t.backend.light(s) is Light.FIRST_PLAYER]
    assert lit == [setup.first]
    t.tap(setup.start_rect, "start")
    sheet = t.app.screen
    assert sheet.sheet.players == ("Cleo", "Dan")
    assert sheet.sheet.first_player == t.app.seats[setup.first].name


@pytest.mark.parametrize("language,text", [
    ("en", "Refused: 7 is not an Influence card (values 1–6)"),
    ("fr", "Refusé : 7 n'est pas une carte Influence (valeurs 1 à 6)"),
])
def test_a_seven_is_refused_with_its_reason_and_changes_nothing(open_table, language, text):
    """Influence cards go 1 to 6: + on a 6 is refused, shown in the table's language, and
    neither the sheet nor the journal change."""
    t = open_table(language=language)
    sheet = start(t)
    set_value(t, sheet, "stack:yellow", 6)
    before = (sheet.sheet, len(t.journal.actions(sheet.game.session.game_id)))
    t.tap(sheet.plus_rect, "+")
    assert sheet.message == text and text in shown(t)  # its figures drawn apart, larger
    assert (sheet.sheet, len(t.journal.actions(sheet.game.session.game_id))) == before


def test_two_players_a_fifth_colour_is_refused(open_table):
    """With 2 players one colour is out of the game: the fifth colour anyone plays (or a
    relic of it) is refused."""
    t = open_table()
    sheet = start(t, seats=(0, 3), first=0)
    for colour in ("yellow", "purple"):
        set_value(t, sheet, f"stack:{colour}", 2)
    t.tap(sheet.player_rects[1], "Dan")
    set_value(t, sheet, "stack:blue", 3)
    set_value(t, sheet, "stack:red", 1)
    t.tap(sheet.field_rects["stack:green"], "green")
    t.tap(sheet.plus_rect, "+")
    assert sheet.message == "Refused: a 2-player game has 4 colours"
    assert "green" not in sheet.sheet.end("Dan").stacks
    t.tap(sheet.field_rects["relics"], "relics")
    t.tap(sheet.relic_rects["green"], "green relic")
    assert sheet.message == "Refused: a 2-player game has 4 colours"
    assert sheet.sheet.end("Dan").relics == ()


def test_the_sheet_offers_only_the_five_colours_of_the_game(open_table):
    """A sixth colour can't be entered: the sheet has a target for each colour of the
    data file and no other (and the validator refuses any other colour key)."""
    t = open_table()
    sheet = start(t, seats=(0, 1, 2, 3))
    colours = [f[6:] for f in sheet.field_rects if f.startswith("stack:")]
    assert colours == list(inheritors_data.colours()) and len(colours) == 5
    with pytest.raises(engine.RuleError, match="not a colour of the game"):
        sheet.game.session.dispatch({"kind": "stack", "player": "Ana", "colour": "black",
                                "value": 2})


def test_quests_are_counted_fulfilled_and_failed_and_no_more_than_laid_out(open_table):
    """Quests are worth 2 (fulfilled) or 1 (not): each kind has its own − / +; − takes the
    last quest of that kind off; more quests than the game lays out (5 with 3 players) are
    refused."""
    t = open_table()
    sheet = start(t)
    t.tap(sheet.field_rects["quests"], "quests")
    fulfilled, failed = (sheet.quest_rects[f"quests:{v}"] for v in (2, 1))
    t.tap(fulfilled[1], "+ fulfilled")
    t.tap(failed[1], "+ failed")
    t.tap(fulfilled[1], "+ fulfilled")
    assert sheet.sheet.end("Ana").quests == (2, 1, 2)
    t.tap(fulfilled[0], "- fulfilled")
    assert sheet.sheet.end("Ana").quests == (2, 1)
    t.tap(failed[0], "- failed")
    t.tap(failed[0], "- failed: none left, nothing happens")
    assert sheet.sheet.end("Ana").quests == (2,) and sheet.message is None
    for _ in range(4):
        t.tap(failed[1], "+ failed")
    t.tap(fulfilled[1], "+ fulfilled")
    assert sheet.message == "Refused: the game lays out 5 quests"
    assert sheet.sheet.end("Ana").quests == (2, 1, 1, 1, 1)


def test_supplies_and_a_taken_relic_are_refused_with_their_reason(open_table):
    """One relic per colour; 5 honors laid out with 3 players; cards in hand at least the
    tomes and relics held."""
    t = open_table()
    sheet = start(t)
    t.tap(sheet.field_rects["relics"], "relics")
    t.tap(sheet.relic_rects["red"], "red relic")
    t.tap(sheet.player_rects[1], "Ben")
    t.tap(sheet.relic_rects["red"], "red relic")
    assert sheet.message == "Refused: Ana already holds the Red relic"
    set_value(t, sheet, "honors", 5)
    t.tap(sheet.plus_rect, "+")
    assert sheet.message == "Refused: the game lays out 5 honors"
    set_value(t, sheet, "tomes", 2)
    set_value(t, sheet, "hand", 2)  # + from nothing starts at the tomes and relics held
    t.tap(sheet.minus_rect, "-")
    assert sheet.message == "Refused: Ben holds 2 tomes and relics, more than 1 card in hand"
    assert sheet.sheet.end("Ben").hand == 2


@pytest.mark.parametrize("language,tomes,said", [
    ("en", 1, "Refused: Ana holds 1 tome or relic, but no cards in hand"),
    ("en", 2, "Refused: Ana holds 2 tomes and relics, more than 1 card in hand"),
    ("en", 3, "Refused: Ana holds 3 tomes and relics, more than 2 cards in hand"),
    ("fr", 1, "Refusé : Ana tient 1 livre ou relique, mais aucune carte en main"),
    ("fr", 2, "Refusé : Ana tient 2 livres et reliques, plus que 1 carte en main"),
    ("fr", 3, "Refusé : Ana tient 3 livres et reliques, plus que 2 cartes en main"),
])
def test_a_hand_smaller_than_the_tomes_held_is_refused_in_plural_words(
        open_table, language, tomes, said):
    """The cards in hand start at the tomes and relics held; one fewer is refused, the
    counts said with their plural forms (0, 1, 2 cards; 1, 2, 3 tomes)."""
    t = open_table(language=language)
    sheet = start(t)
    set_value(t, sheet, "tomes", tomes)
    t.tap(sheet.field_rects["hand"], "hand")
    t.tap(sheet.plus_rect, "+")  # from nothing: the tomes held
    assert sheet.sheet.end("Ana").hand == tomes
    t.tap(sheet.minus_rect, "-")
    assert sheet.message == said and said in shown(t)
    assert sheet.sheet.end("Ana").hand == tomes


def test_undo_takes_back_the_last_entry_in_the_journal_too(open_table):
    t = open_table()
    sheet = start(t)
    set_value(t, sheet, "stack:blue", 2)
    set_value(t, sheet, "honors", 1)
    game_id = sheet.game.session.game_id
    n = len(t.journal.actions(game_id))
    undo(t, sheet)
    assert sheet.sheet.end("Ana").honors == 0 and sheet.sheet.end("Ana").stacks == {"blue": 2}
    assert len(t.journal.actions(game_id)) == n - 1
    assert sheet.message == "Last entry undone"
    assert sheet.view["score"]["players"][0]["total"] == 2


def test_undo_takes_two_taps_and_anything_else_cancels_it(open_table):
    """The first tap on Undo only asks ("Sure? Undo" on the same button); a tap elsewhere
    or a seat's press puts the button back and undoes nothing; the second tap undoes."""
    t = open_table()
    sheet = start(t)
    set_value(t, sheet, "honors", 2)
    label = t.app.catalog.text("inheritors.sheet.undo")
    sure = t.app.catalog.text("app.confirm", action=label)

    def undo_label() -> str:
        return next(b.label for b in sheet.buttons if b.rect == sheet.undo_rect)

    t.tap(sheet.undo_rect, "undo")
    assert sheet.sheet.end("Ana").honors == 2 and undo_label() == sure
    assert sure in " ".join(t.texts())  # on two lines when one would be under 16 px
    t.tap(sheet.field_rects["tomes"], "tomes")  # another tap: asked no more
    assert undo_label() == label and sheet.field == "tomes"
    t.tap(sheet.undo_rect, "undo")
    t.ctx.press(2, "a")  # a seat's press: asked no more
    assert undo_label() == label and sheet.sheet.end("Ana").honors == 2
    t.tap(sheet.undo_rect, "undo")  # asks again: this one alone undoes nothing
    assert sheet.sheet.end("Ana").honors == 2
    t.tap(sheet.undo_rect, "sure? undo")
    assert sheet.sheet.end("Ana").honors == 1 and undo_label() == label
    assert sheet.message == "Last entry undone"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_player_counted_and_the_field_head_the_editor_in_large_type(open_table, language):
    """A seat's press opens its player's count: the sheet's top line says whose count and
    what is entered, above everything else on the felt and as large as any words there
    (the figures are larger; the seats' names around the felt too, as on every game
    screen); the player's seat is lit "your turn"."""
    t = open_table(language=language)
    sheet = start(t)
    t.ctx.press(2, "a")  # Cleo's seat
    t.tap(sheet.field_rects["honors"], "honors")
    text = t.app.catalog.text("inheritors.sheet.editing", name="Cleo",
                              field=t.app.catalog.text("inheritors.field.honors"))
    boxes = t.app.painter.texts
    line = next(b for b in boxes if b.text == text)
    assert not line.clipped and sheet.head_rect.contains(line.rect)
    felt = [b for b in boxes if b is not line and sheet.inner.contains(b.rect)]
    beside = [b.text for b in felt if b.rect.top < sheet.head_rect.bottom]
    assert beside == [t.app.catalog.text("inheritors.part.total"), "0"][::-1]  # Cleo's total
    felt = [b for b in felt if b.text not in beside]
    assert all(b.rect.top >= line.rect.bottom for b in felt)
    assert t.backend.light(2) is Light.YOUR_TURN
    words = [b for b in felt if b.text.strip("0123456789 +−—")]
    assert words
    assert line.height >= max(b.height for b in words)


def test_without_a_journal_the_sheet_works_in_memory_with_undo(open_table):
    t = open_table(journal=False)
    sheet = start(t)
    set_value(t, sheet, "stack:red", 3)  # three entries: 1, 2, 3
    for _ in range(3):
        undo(t, sheet)
    assert sheet.sheet.end("Ana").stacks == {} and sheet.message == "Last entry undone"
    undo(t, sheet)
    assert sheet.message == "Nothing to undo"
    assert screens.resume(t.app, 1) is None


def test_a_journaled_sheet_resumes_after_a_restart(open_table, tmp_path):
    """The count survives a cut: a new app on the same journal reopens the sheet as it was
    (resume by game id, the home screen's contract) and the first player is lit again."""
    t = open_table()
    sheet = start(t, first=2)
    set_value(t, sheet, "stack:purple", 4)
    t.tap(sheet.player_rects[1], "Ben")
    set_value(t, sheet, "tomes", 3)
    game_id, before = sheet.game.session.game_id, sheet.sheet
    t.close()
    t2 = open_table()
    screen = screens.resume(t2.app, game_id)
    t2.ctx.show(screen)
    assert screen.sheet == before
    assert t2.backend.light(2) is Light.FIRST_PLAYER
    # the breakdown line, its figures large: its short names on the 7" panel
    ben = "Infl. 0 · Tom. 3 · Rel. 0 · Quests 0 · Hon. 0 · Bonus 0 = 3"
    assert ben not in shown(t2)  # the sheet opens on the first seat's count: Ana's
    assert t2.backend.light(0) is Light.YOUR_TURN
    t2.tap(screen.player_rects[1], "Ben")
    assert ben in shown(t2) and "Ben · Yellow" in t2.texts()
    assert t2.backend.light(1) is Light.YOUR_TURN and t2.backend.light(0) is Light.OFF


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_breakdown_line_shortens_its_names_rather_than_its_type(open_table, language):
    """The live breakdown keeps its words at the least words' size and its figures at a
    figure's (``Runs``): the parts' full names when they fit the line, else the tiles'
    names, else the short forms, else the figures alone; its figures stay the same."""
    t = open_table(language=language)
    sheet = start(t, first=0)
    set_value(t, sheet, "tomes", 3)
    full, drawn = sheet.live(), sheet.live(sheet.line_rect.w)
    assert drawn in shown(t)
    assert Runs(t.app.theme, drawn, WORDS_GLYPH).width() * SQUEEZE <= sheet.line_rect.w
    assert sheet.live(10 ** 6) == full and full.startswith("Influence 0 · ")
    short = t.app.catalog.text("inheritors.part_short.influence")
    assert drawn.startswith(f"{short} 0 · ")  # the short forms on the 7" panel
    shortest = sheet.live(1)
    assert shortest == "0 · 3 · 0 · 0 · 0 · 0 = 3"
    figures = [re.findall(r"-?\d+", line) for line in (full, drawn, shortest)]
    assert figures[0] == figures[1] == figures[2]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_screen_fits_with_four_players(open_table, size, language):
    """Setup, sheet (each editor) and final score with 4 players: texts whole, legible and
    apart, touch targets at least MIN_TARGET and apart."""
    t = open_table(size=size, language=language)
    t.ctx.show(screens.new_game(t.app))
    setup = t.app.screen
    t.tap(setup.seat_rects[0], "Ana")
    t.tap(setup.first_rects[3], "Dan")
    check_layout(t.app)
    for seat in (1, 2):
        t.tap(setup.seat_rects[seat], "seat")
    t.tap(setup.start_rect, "start")
    sheet = t.app.screen
    t.tap(sheet.player_rects[3], "Dan")
    set_value(t, sheet, "stack:purple", 6)
    t.tap(sheet.plus_rect, "+")  # a refusal
    check_layout(t.app)
    set_value(t, sheet, "tomes", 2)
    set_value(t, sheet, "hand", 2)
    t.tap(sheet.minus_rect, "-")  # the longest line: the hand's refusal
    assert sheet.refused
    check_layout(t.app)
    for field in ("relics", "quests"):
        t.tap(sheet.field_rects[field], field)
        check_layout(t.app)
    t.tap(sheet.quest_rects["quests:1"][1], "+ failed quest")
    check_layout(t.app)
    t.tap(sheet.finish_rect, "final")
    check_layout(t.app)
    t.tap(t.app.screen.save_rect, "save")
    check_layout(t.app)


def test_demo_script_runs_to_the_saved_final_score(tmp_path):
    """The `companion demo` script: setup, a refusal, undo, final score saved."""
    config = demo_config((800, 480), "en")
    backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
    try:
        app = make_app(config, backend, clock=ManualClock())
        app.start_backend()
        ctx = DemoContext(app, backend, app.clock, tmp_path)
        inheritors_demo.demo(ctx)
        assert isinstance(app.screen, screens.ResultScreen) and app.screen.saved
        assert len(app.history.games()) == 1
        assert any("Refused: 7" in line for line in ctx.transcript)
        assert DEMOS["inheritors"] == inheritors_demo.__name__
        app.history.close()
    finally:
        backend.close()
        pygame.display.quit()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_setup_fits_five_configured_seats_with_long_names(open_table, size):
    """Five seats configured (one sits out: Inheritors takes 4 at most), long names."""
    t = open_table(size=size)
    t.app.seats = FIVE
    t.backend.close()
    t.backend = t.app.backend = SimBackend(5, 700)
    t.ctx.backend = t.backend
    t.ctx.show(screens.new_game(t.app))
    setup = t.app.screen
    for seat in (0, 1, 3, 4):
        t.tap(setup.seat_rects[seat], "seat")
    t.tap(setup.seat_rects[2], "a fifth")
    assert setup.message == "Inheritors takes at most 4 players" and 2 not in setup.chosen
    t.tap(setup.first_rects[3], "first")
    check_layout(t.app)
    assert t.backend.light(3) is Light.FIRST_PLAYER
    t.tap(setup.start_rect, "start")
    sheet = t.app.screen
    t.tap(sheet.player_rects[2], "Dominique-Alexandre")
    set_value(t, sheet, "hand", 3)
    check_layout(t.app)
    t.tap(sheet.finish_rect, "final")
    check_layout(t.app)


def test_a_pad_button_opens_that_players_column_and_setup_back_returns(open_table):
    """On the sheet, any button of a player's pad opens that player's column (a seat not in
    the game changes nothing); the setup's Back returns to the screen below, lights off."""
    t = open_table()
    sheet = start(t, seats=(0, 2, 3), first=2)
    t.ctx.press(3, "b")
    assert sheet.name_ == "Dan"
    t.ctx.press(1, "a")  # Ben sits out
    assert sheet.name_ == "Dan"
    assert t.backend.light(3) is Light.YOUR_TURN and t.backend.light(2) is Light.FIRST_PLAYER
    t.ctx.press(2, "c")
    assert sheet.name_ == "Cleo"
    assert t.backend.light(3) is Light.OFF and t.backend.light(2) is Light.YOUR_TURN
    t.ctx.press(3, "a")
    below = t.app.screen
    t.app.push(screens.new_game(t.app))
    setup = t.app.screen
    t.tap(setup.first_rects[1], "first")
    assert t.backend.light(1) is Light.FIRST_PLAYER
    t.tap(setup.back_rect, "back")
    assert t.app.screen is below and t.backend.light(1) is Light.OFF
    assert t.backend.light(2) is Light.FIRST_PLAYER  # the sheet shown again: its light


def test_home_leaves_the_sheet_unfinished_and_home_resumes_it(open_table):
    """The sheet's Home button: back on Home with every light off, the game still
    unfinished in the journal (not finished, not in the history); Home's Resume reopens
    the same sheet."""
    t = open_table()
    home = HomeScreen(t.app)
    t.app.push(home)
    sheet = start(t)
    set_value(t, sheet, "stack:red", 3)
    game_id, before = sheet.game.session.game_id, sheet.sheet
    t.tap(sheet.home_rect, "home")
    assert t.app.screens == [home]
    assert [t.backend.light(s) for s in range(4)] == [Light.OFF] * 4
    assert [g.id for g in t.journal.unfinished()] == [game_id]
    assert t.journal.finished() == [] and t.history.games() == []
    resume = home.button(t.app.catalog.text("home.resume", game="Inheritors"))
    t.tap(resume.rect, "resume")
    assert isinstance(t.app.screen, screens.SheetScreen) and t.app.screen.sheet == before
    assert t.backend.light(1) is Light.FIRST_PLAYER


def test_without_a_journal_home_takes_a_second_tap(open_table):
    """No journal: leaving loses the entries, so the first tap only asks "Sure? Home"."""
    t = open_table(journal=False)
    home = HomeScreen(t.app)
    t.app.push(home)
    sheet = start(t)
    t.tap(sheet.home_rect, "home")
    assert t.app.screen is sheet
    assert next(b for b in sheet.buttons if b.rect == sheet.home_rect).label == "Sure? Home"
    t.tap(sheet.home_rect, "home again")
    assert t.app.screens == [home]


def test_a_colour_tile_too_narrow_for_its_name_keeps_the_name(open_table):
    """A colour has no short name (the counts' tiles have one): on a tile too narrow for
    it the colour's name is drawn condensed or cut, never looked up as a short name."""
    t = open_table(language="fr")
    sheet = start(t)
    p = t.app.painter
    p.texts.clear()
    sheet.paint_field(p, pygame.Rect(0, 0, t.app.theme.px(40), t.app.theme.px(64)), False,
                      "stack:yellow")
    assert p.texts[0].text == "Jaune"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_refusal_too_long_for_the_foot_covers_the_editor_until_a_tap(open_table, language):
    """The hand's refusal is too long for the foot with its figures large: it shows whole on
    two lines over the editor (its − and + gone, nothing to press unseen), its figures
    DIGIT size, its words the least words' size; a tap there brings the editor back,
    nothing changed."""
    t = open_table(language=language)
    sheet = start(t)
    set_value(t, sheet, "tomes", 3)
    t.tap(sheet.field_rects["hand"], "hand")
    t.tap(sheet.plus_rect, "+")
    t.tap(sheet.minus_rect, "-")
    assert sheet.refused and len(sheet.alert_lines) == 2
    assert sheet.minus_rect is None and sheet.message in shown(t)
    check_layout(t.app)
    unit = t.app.theme.unit
    lines = [b for b in t.app.painter.texts if sheet.alert_rect.contains(b.rect)]
    assert "".join(b.text for b in lines).replace(" ", "") == sheet.message.replace(" ", "")
    for b in lines:
        goal = 24 if any(c.isdigit() for c in b.text) else 16
        assert b.glyph / unit >= goal - 0.5, (b.text, b.glyph)
    t.tap(sheet.alert_rect, "the message")
    assert sheet.message is None and sheet.minus_rect is not None
    assert sheet.sheet.end("Ana").hand == 3


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_counts_tiles_are_as_wide_as_their_names_and_stay_in_their_row(open_table,
                                                                           language):
    """On the 7" panel each count's tile holds its name at the least words' size (Reliques,
    Exploits); a row too narrow for that still holds the six tiles, apart."""
    t = open_table(language=language)
    sheet = start(t)
    font = t.app.theme.font(t.app.theme.px(WORDS_GLYPH))
    for field in ("tomes", "hand", "relics", "quests", "honors", "bonus"):
        assert font.size(sheet.tile_label(field))[0] * SQUEEZE < sheet.field_rects[field].w
    row = pygame.Rect(10, 0, 300, 64)
    cells = sheet.count_cells(row)
    assert len(cells) == 6 and all(row.contains(c) for c in cells)
    assert all(a.right < b.left for a, b in itertools.pairwise(cells))
