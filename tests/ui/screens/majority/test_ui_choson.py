"""Chosŏn at the table through its screens (the Chosŏn rulebook): whole 8-round
games entered with seat buttons and touch events score as ``companion score`` does and
are recorded; time travel takes the first-player token and its light; Yi's Shield is
shown as the tie-breaker; refusals change nothing; undo restores the view; a reopened
journal resumes the same screen; every sentence is the engine's; layouts fit.

Everything runs the real App loop under SDL's dummy driver (tests/conftest.py); inputs are
SimBackend presses and posted FINGERDOWN/UP events on the widgets' rects."""

from __future__ import annotations

import pytest
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

from companion.games.choson import rules as engine
from companion.play.seat import Light
from companion.storage.journal import Journal
from companion.ui.screens.majority import choson


@pytest.fixture
def table(open_table):
    return open_table


# Seeds whose games use, between them, every Chosŏn power: 20 has time travel, a riposte,
# a kept event and the shield; 9 has the Oracle/Scientist VPs and a tie won by the shield.
@pytest.mark.parametrize("seed", [20, 9])
def test_full_game_through_the_screens_scores_as_companion_score(table, tmp_path, capsys, seed):
    """Four players, 8 rounds, everything entered on screen or with seat button A; the final
    result is ``companion score --json`` of the same table; it is recorded and finished."""
    t = table()
    screen = start(t, choson)
    used: set[str] = set()
    broke_tie = []

    def check(action, before, after):
        used.add(action["action"])
        if after["final"] is None:
            assert t.lights() == expected_lights(after, len(t.app.seats))
        if action["action"] == "time_travel":  # the traveller takes the token and its light
            assert after["first_player"] == action["player"]
            assert t.lights()[after["seats"][after["players"].index(action["player"])]] in (
                Light.FIRST_PLAYER, Light.YOUR_TURN
            )
        for power in after["powers"]:
            assert screen.power_text(power) == power["text"]
        for prot in after["protections"]:
            assert screen.protection_text(prot) == prot["text"]
        if any(m["tie_breaker"] for m in after["majorities"]) and screen.mode == "board":
            shield = after["shield"]
            note = f"* Yi's Shield: {shield['player']}'s "
            # said under the board, or (no line fits under four rows) first on the next page
            said = screen.info_pages[0] or screen.info_pages[1]
            assert said[0][0][0].startswith(note)
            assert any(text.startswith(note) for text in t.texts()) or not screen.info_pages[0]
            assert any(text.endswith("*") for text in t.texts())  # the cell the shield won
            broke_tie.append(True)

    actions = play_through(t, seed=seed, check=check)
    assert sum(a["action"] == "start_round" for a in actions) == engine.ROUNDS
    assert used >= {"reveal", "end_turn", "end_round", "time_travel", "move_shield"}
    assert ({"riposte", "keep_event"} if seed == 20 else {"take_vp"}) <= used
    if seed == 9:
        assert broke_tie
    view = screen.view
    expected = companion_score(table_file(tmp_path / "table.yaml", view), capsys)
    assert view["final"] == expected and screen.mode == "final"
    for player in expected["players"]:
        assert str(player["total"]) in shown(t)
    assert [g.game for g in t.history.games()] == ["choson"]
    assert [p.total for p in t.history.games()[0].players] == [
        p["total"] for p in expected["players"]
    ]
    assert t.journal.unfinished() == []


def test_three_events_and_a_watcher_with_an_event_are_refused_or_taken(table):
    """Combination 4 (three events) is taken; a Watcher with an event is refused with the
    engine's reason and nothing is journaled; a fourth event is refused at the count."""
    t = table()
    screen = start(t, choson, players=[0, 1])
    t.ctx.press(0, "a")
    game = screen.game.session.game_id
    t.ctx.tap(screen.button("entry").rect, "cards")
    t.ctx.tap(screen.tiles["9"], "Watcher")
    t.ctx.tap(screen.tiles["event"], "event")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    reason = ("Refused: a Watcher has no 'comes into play' effect: it cannot be played with "
              "an event")
    assert reason in shown(t)  # on two lines, over the banner
    assert t.journal.actions(game) == [{"action": "start_round"}]
    fits(t.app)
    t.ctx.tap(screen.button("cancel").rect, "cancel")
    t.ctx.tap(screen.button("entry").rect, "cards")
    for _ in range(3):
        t.ctx.tap(screen.tiles["event"], "event")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    assert screen.view["legacy"] == "Ana"  # combination 4 gives Yi's Legacy
    assert "Yi's Legacy: Ana" in shown(t)


def test_undo_restores_the_previous_view(table):
    t = table()
    screen = start(t, choson, players=[1, 2, 3], first=2)
    play_through(t, seed=3, until=lambda v: v["round"] == 2 and v["phase"] == "main"
                 and not v["turn"]["revealed"])
    before, texts = screen.view, t.texts()
    t.ctx.press(screen.seat_of(screen.acting()), "b")
    t.ctx.tap(screen.tiles["9"], "Watcher")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    assert screen.view != before
    t.ctx.tap(screen.button("undo").rect, "undo")
    t.ctx.tap(screen.button("undo").rect, "undo, sure")
    assert screen.view == before
    # the status line's figures are drawn apart from its words: compare the screens whole
    assert "".join(t.texts()).replace("Last action taken back", "", 1) == "".join(
        texts).replace(screen.status(), "", 1)


def test_resume_after_reopening_the_journal_shows_the_same_screen(table):
    t = table(language="fr")
    screen = start(t, choson, first=3)
    play_through(t, seed=9, until=lambda v: v["round"] == 5 and v["phase"] == "end")
    described, texts, lights = screen.describe(), t.texts(), t.lights()
    game = screen.game.session.game_id
    t.journal.close()
    t.journal = t.app.journal = Journal(t.journal_path)
    for seat in range(len(t.app.seats)):
        t.backend.set_light(seat, Light.OFF)
    t.ctx.show(choson.resume(t.app, game))
    assert t.screen.describe() == described and t.texts() == texts and t.lights() == lights
    assert choson.resume(t.app, None).game.session.game_id == game  # the latest unfinished one


@pytest.mark.parametrize(("size", "language"), [((800, 480), "fr"), ((1280, 720), "en")])
def test_layouts_fit(table, size, language):
    """Board with four players and the longest sentences (shield protection, time travel),
    card entry, powers and final score: whole, legible, apart; big targets."""
    t = table(size=size, language=language)
    screen = start(t, choson)
    modes = set()

    def look(action, before, after):
        interesting = after["protections"] or after["phase"] == "time_travel"
        if screen.mode not in modes or (interesting and after["round"] in (4, 8)):
            modes.add(screen.mode)
            fits(t.app)
        if screen.game.can_enter() and "entry" not in modes:
            t.ctx.tap(screen.button("entry").rect, "cards")
            t.ctx.tap(screen.tiles["8"], "Time Traveller")
            modes.add("entry")
            fits(t.app)
            t.ctx.tap(screen.button("cancel").rect, "cancel")
        if screen.offered() and "powers" not in modes:
            t.ctx.tap(screen.button("powers").rect, "powers")
            modes.add("powers")
            fits(t.app)
            t.ctx.tap(screen.button("back").rect, "back")

    play_through(t, seed=9, check=look, fast=middle_rounds)
    assert modes >= {"board", "entry", "powers", "final"}
    fits(t.app)


def test_french_table_gets_the_combination_refusal_in_french(table):
    """EN and FR: a Watcher with an event is refused in French on a French table
    (the catalog's ``refusal.watcher_event``), with the Chosŏn names of that language."""
    t = table(language="fr")
    screen = start(t, choson, players=[0, 1])
    t.ctx.press(0, "a")
    t.ctx.tap(screen.button("entry").rect, "cartes")
    t.ctx.tap(screen.tiles["9"], "Observateur")
    t.ctx.tap(screen.tiles["event"], "événement")
    t.ctx.tap(screen.button("reveal").rect, "révéler")
    drawn = " ".join(t.texts())
    assert ("Refusé : un Observateur n'a pas d'effet « entrée en jeu » : il ne se joue pas "
            "avec un événement") in drawn
    assert "Watcher" not in drawn
    fits(t.app)


@pytest.mark.parametrize(("game", "seed"), [("choson", 0), ("koryo", 2)])
def test_lines_under_a_crowded_board_go_on_more_pages(table, game, seed):
    """Four players at 800×480: when the powers, protections, warnings and tokens do not all
    fit under the board, the board's head corner says how many more and the whole board (a
    big target) turns "more" pages until every line has been shown, then back to the board;
    when a cell shows ``*`` the tie-breaker line heads the board's lines and every page; a
    sentence of several lines is never cut between pages."""
    from ui_majority import turn_more_pages

    from companion.ui.screens.majority import koryo

    t = table(language="fr")
    screen = start(t, {"koryo": koryo, "choson": choson}[game], players=[0, 1, 2, 3])
    crowded = {"checked": 0, "broken": 0}

    def check(action, before, after):
        if screen.mode != "board" or len(screen.info_pages) < 2:
            return
        pages = [{text for line in page for text, _ in line} for page in screen.info_pages]
        for block in screen.info_blocks()[0]:  # a sentence is never cut between pages
            texts = {text for line in block for text, _ in line}
            assert any(texts <= page for page in pages), texts
        broken = any(m["tie_breaker"] for m in after["majorities"])
        if crowded["checked"] >= 3 and (not broken or crowded["broken"]):
            return
        crowded["checked"] += 1
        crowded["broken"] += broken
        lines, _ = screen.info_lines()
        expected = [text for line in lines for text, _ in line]
        pages = turn_more_pages(t)
        on_board = sum(len(line) for line in screen.info_pages[0])
        more = t.app.catalog.text("majority.more_corner", n=len(expected) - on_board)
        # a line's figures are drawn apart from its words, larger: read each page whole
        assert more in "".join(pages[0])  # how many lines the board leaves for the pages
        assert t.app.catalog.text("majority.info_back") in " ".join(pages[-1])
        seen = "\n".join("".join(page) for page in pages)
        assert all(text in seen for text in expected), [x for x in expected if x not in seen]
        if broken:
            first = expected[0]
            assert first.startswith("* ")
            for page in map("".join, pages):  # the breaker before any other line under it
                infos = sorted((page.find(x), x) for x in expected if x in page)
                assert not infos or infos[0][1] == first

    play_through(t, seed=seed, check=check, fast=middle_rounds)
    assert crowded["checked"] >= 3
    if game == "koryo":
        assert crowded["broken"]


def test_the_time_traveller_is_asked_before_anything_of_phase_4(table):
    """The Chosŏn rulebook: « La ronde de jeu se décompose en cinq phases successives »,
    I « Phase de voyage dans le temps » before IV « Phase principale ». On screen: while the
    Time Traveller majority decides, the screen names them, offers time travel or "No time
    travel" and nothing of phase 4 (no card entry, no Yi's Shield, no Oracle VP); the first
    player's buttons are refused; the Time Traveller's A lets the round go on."""
    t = table()
    screen = start(t, choson)

    def asked(v):  # phase 1 waits for someone who is not the first player
        return v["phase"] == "time_travel" and v["current_player"] != v["first_player"]

    play_through(t, seed=20, until=asked, fast=lambda v: True)
    v = screen.view
    traveller, first = v["current_player"], v["first_player"]
    t.app.step(block=False)
    assert [(p["player"], p["code"]) for p in v["powers"]] == [(traveller, "time_travel")]
    assert [p["code"] for p, _ in screen.offered()] == ["time_travel"]
    assert screen.button("entry") is None and screen.button("step").label == "No time travel"
    assert any(f"{traveller} may time travel" in text for text in t.texts())
    t.ctx.press(screen.seat_of(first), "b")
    t.ctx.press(screen.seat_of(first), "c")
    assert screen.mode == "board" and screen.view is v
    # answered on the first player's own plate; the table's line still asks the traveller
    assert screen.message is None and f"{traveller}'s turn" in shown(t)
    assert any(f"{traveller} may time travel" in text for text in t.texts())
    t.ctx.press(screen.seat_of(traveller), "a")
    after = screen.view
    assert (after["phase"], after["first_player"], after["current_player"]) == (
        "orders", first, first)
    assert t.journal.actions(screen.game.session.game_id)[-1] == {
        "action": "no_time_travel", "player": traveller}
    assert screen.button("entry") is not None
