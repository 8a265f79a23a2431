"""Each seat's plate is that player's own display (``seat_views()``, the shape in
``companion.play.seatview``): every controller answers it from the public view only, each
player's figures first (Koryŏ/Chosŏn VP, Inheritors total), the seat that acts marked
``your_turn`` (at the end of a round: the seats that must discard), what it must do and
what its buttons do said in both languages; a secret ballot's content is never in it. On
screen the acting seat's plate is lit, steady, and shows the player's figures."""

from __future__ import annotations

import random

import pytest
from ui_inheritors import set_value
from ui_inheritors import start as inheritors_sheet
from ui_kd import NAMES, press, show, tap_button
from ui_majority import play_through, start

from companion.games.kings_dilemma.controller import NightController
from companion.games.majority.autoplay import next_action
from companion.games.majority.controller import MajorityController
from companion.i18n import load_catalog
from companion.play.seat import ButtonEvent, Light, Press
from companion.play.seatview import SeatView
from companion.play.turns import lights
from companion.play.words import Words, words_text
from companion.ui import theme as th
from companion.ui.screens.kings_dilemma.council import CouncilScreen
from companion.ui.screens.majority import choson, koryo

SETUP = {"players": ["Ana", "Ben", "Cleo"], "seats": [0, 1, 3], "first_player": "Ben"}
CATALOGS = (load_catalog("en"), load_catalog("fr"))


class Seats:
    """Seat names as a configuration gives them (``Seat`` params)."""

    def __getitem__(self, seat: int):
        return type("SeatConfig", (), {"name": f"seat {seat}"})()


def said(view: SeatView) -> list[str]:
    """Every sentence of ``view`` in both languages (a missing key raises)."""
    words = [w for w in (view.todo, view.help, view.reply) if w is not None]
    words += [f.label for f in view.figures]
    return [words_text(c, Seats(), w) for c in CATALOGS for w in words]


@pytest.mark.parametrize(("game", "seed"), [("koryo", 3), ("choson", 5)])
def test_a_majority_game_s_plates_follow_the_public_view(game, seed):
    control = MajorityController.new(game, SETUP, None)
    rng = random.Random(seed)
    discards = 0
    while not control.over():
        v = control.view()
        views = control.seat_views()
        assert set(views) == set(v["seats"])
        for player, seat in zip(v["players"], v["seats"], strict=True):
            view = views[seat]
            keys = [f.label.key for f in view.figures]
            if keys[0] == "seat.figure.discard":  # a discard's figures: how many, the cards
                assert keys == ["seat.figure.discard", f"seat.figure.{game}_limit"]
            else:  # VP first, the cards against the limit
                assert view.figures[0].value == str(v["tokens"][player])
                assert keys[0] == "seat.figure.vp"
                assert keys[1:] in ([], [f"seat.figure.{game}_limit"])  # when one counts
            assert all(said(view))
        acting = {s for s, view in views.items() if view.your_turn}
        must = {pw["player"] for pw in v["powers"] if pw["code"] == "discard" and pw["must"]}
        lit = {s for s, light in lights(control.turns()).items() if light is Light.YOUR_TURN}
        assert acting == lit  # the plate's highlight and the pad's light agree
        if v["phase"] == "end" and must:
            discards += 1
            assert acting == {control.seat_of(p) for p in must}
            for p in must:
                todo = views[control.seat_of(p)].todo
                assert todo is not None and todo.key == "seat.todo.discard"
        else:
            assert len(acting) == 1
            assert views[next(iter(acting))].help is not None
        assert control.dispatch(next_action(control.rules, control.session.state, rng))
    assert discards  # the seeded game reaches an end of round with a discard
    assert not any(view.your_turn for view in control.seat_views().values())


def test_a_refused_press_is_answered_on_the_pressing_seat_s_plate_until_the_game_moves():
    control = MajorityController.new("koryo", SETUP, None)
    control.press(ButtonEvent(0, "a"))  # Ana: not her turn
    control.press(ButtonEvent(2, "a"))  # seat 2 does not play
    views = control.seat_views()
    assert views[0].reply == Words("seat.reply.not_your_turn", {"player": "Ben"})
    # a seat that does not play is told so, whoever's turn it is
    assert views[2].reply == Words("seat.reply.watching") and not views[2].figures
    assert views[1].reply is None
    control.press(ButtonEvent(1, "a"))  # Ben starts the round
    assert all(view.reply is None for view in control.seat_views().values())


def test_the_inheritors_plates_show_each_total_and_the_counted_player(open_table):
    t = open_table()
    sheet = inheritors_sheet(t, first=1)
    set_value(t, sheet, "stack:red", 3)
    views = sheet.game.seat_views()
    totals = {p["name"]: p["total"] for p in sheet.view["score"]["players"]}
    for name, seat in zip(sheet.sheet.players, sheet.sheet.seats, strict=True):
        assert views[seat].figures[0].value == str(totals[name])
        assert views[seat].your_turn == (name == sheet.name_)
        assert all(said(views[seat]))
    assert "3" in t.texts()  # Ana's total on her plate


def test_a_secret_vote_s_plates_say_locked_or_not_and_nothing_of_the_ballot(kd):
    """Two nights, the same seats locked with different ballots: the same seat views;
    the seats still to lock are lit and told to lock, with the vote's button help; the
    seat that locked last is told a hold takes its ballot back."""
    seen = []
    for ballot in ("a", "b"):
        app, backend, night = kd()
        show(app, CouncilScreen(app, night))
        tap_button(app, app.catalog.text("kd.council.secret_vote"))
        press(app, backend, 0, ballot)
        press(app, backend, 0, ballot, Press.LONG)
        press(app, backend, 2, "b" if ballot == "a" else "a")  # pending, not locked
        views = night.seat_views()
        # locked, and the night's last action: a hold of A takes it back
        assert views[0].todo == Words("seat.todo.take_back") and not views[0].your_turn
        assert views[2].todo == Words("seat.todo.lock") and views[2].your_turn
        assert views[2].help is not None
        assert all(all(said(v)) for v in views.values())
        seen.append(views)
        assert isinstance(night, NightController) and len(views) == len(NAMES)
    assert seen[0] == seen[1]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_an_open_vote_s_refusal_is_answered_on_the_seat_s_plate_not_over_the_title(
        kd, language):
    """A house pressing out of turn in an open vote reads the answer on its own plate
    (whose turn it is); one changing side, the engine's reason; the title still says who
    plays, and no other plate answers."""
    app, backend, night = kd(language=language)
    t = app.catalog.text
    show(app, CouncilScreen(app, night))
    tap_button(app, t("kd.council.open_vote"))
    title = app.screen.title()
    leader = night.vote_view()["turn"]
    press(app, backend, 2, "b")  # not this house's turn
    assert app.screen.title() == title
    plates = app.screen.ring.plates

    def on_plate(seat: int) -> set[str]:
        return {b.text for b in app.painter.texts if plates[seat].rect.contains(b.rect)}

    turn = t("seat.reply.not_your_turn", player=leader)
    assert turn in on_plate(2) and not any(turn in on_plate(s) for s in (0, 1, 3, 4))
    assert [s for s, v in night.seat_views().items() if v.reply] == [2]
    press(app, backend, 0, "a")  # the vote takes a press: the answer goes
    assert [s for s, v in night.seat_views().items() if v.reply] == []


def test_the_acting_seat_s_plate_is_lit_steady_and_shows_its_figures(open_table):
    """Ben starts: his plate's rim is lit in every phase of his light's blink, Ana's is
    not; his name, his VP and its label are on his plate."""
    t = open_table()
    start(t, koryo, players=[0, 1, 2, 3], first=1)
    ring, px = t.screen.ring, t.app.theme.px
    ben, ana = ring.plates[1], ring.plates[0]
    rim = (ben.rect.centerx, ben.rect.bottom - px(2))  # the far end of Ben's side plate
    seen = set()
    for _ in range(8):  # the light blinks (YOUR_TURN); the highlight does not
        t.clock.advance(125)
        t.app.step(block=False)
        seen.add(t.app.canvas.get_at(rim)[:3])
        assert t.app.canvas.get_at((ana.rect.centerx, ana.rect.y + px(2)))[:3] != th.WARNING
    assert seen == {th.WARNING}
    texts = {b.text for b in t.app.painter.texts if ben.rect.contains(b.rect)}
    assert {"Ben", "VP", "0"} <= texts


def must_discard(view: dict) -> list[str]:
    return [pw["player"] for pw in view["powers"] if pw["code"] == "discard" and pw["must"]]


@pytest.mark.parametrize(("module", "seed"), [(koryo, 3), (choson, 5)])
def test_the_end_of_a_round_is_played_from_the_seats(open_table, module, seed):
    """At the end of a round the seat that must discard is lit and told so on its plate;
    its C opens its own discard, its C moves the mark and its A takes it: no touch. Until
    then End the round looks unavailable, and the first player's plate does not ask it.
    In Koryŏ and in Chosŏn."""
    t = open_table()
    screen = start(t, module, players=[0, 1, 2], first=0)
    play_through(t, seed=seed, until=lambda v: v["phase"] == "end" and must_discard(v),
                 fast=lambda v: True)
    t.app.step(block=False)
    player = must_discard(screen.view)[0]
    seat = screen.seat_of(player)
    assert screen.button("step").unavailable
    view = screen.game.seat_views()[seat]
    assert view.your_turn and view.todo.key == "seat.todo.discard"
    plate = screen.ring.plates[seat]
    said = {b.text for b in t.app.painter.texts if plate.rect.contains(b.rect)}
    n = screen.view["powers"][0]["params"]["excess"]
    assert {t.app.catalog.text("seat.todo.discard"), str(n)} <= said
    assert view.figures[0].value == str(n)
    first = screen.seat_of(screen.view["first_player"])
    if first != seat:
        assert not screen.game.seat_views()[first].your_turn
    before = len(t.journal.actions(screen.game.session.game_id))
    t.ctx.press(seat, "c")
    assert screen.mode == "powers"
    chosen = screen.power_options()[0]
    assert (chosen["player"], chosen["code"]) == (player, "discard")
    choosing = screen.seat_views()[seat]
    assert choosing.help is not None and choosing.todo == choosing.help  # on the plate
    said = {b.text for b in t.app.painter.texts if plate.rect.contains(b.rect)}
    assert any(text.startswith(t.app.catalog.text("seat.help.c_next")) for text in said)
    other = next(s for s in screen.view["seats"] if s != seat)
    t.ctx.press(other, "a")  # not theirs: answered on their plate, nothing taken
    assert len(t.journal.actions(screen.game.session.game_id)) == before
    if len(screen.option_buttons) > 1:
        t.ctx.press(seat, "c")
        assert screen.cursor == 1
    marked = screen.option_buttons[screen.cursor]
    for _ in range(4):  # a discard chosen in parts (a value, then…): each A takes one
        t.ctx.press(seat, "a")
        if len(t.journal.actions(screen.game.session.game_id)) > before:
            break
    actions = t.journal.actions(screen.game.session.game_id)
    assert len(actions) == before + 1 and actions[-1]["action"] == "discard"
    assert actions[-1]["player"] == player
    if hasattr(marked, "action"):  # a whole option: the one marked
        assert actions[-1] == marked.action


def test_the_limit_warning_is_only_for_a_player_with_something_to_discard():
    """Koryŏ counts events against the limit but never discards them: a player over the
    limit with only events in front is not warned (nothing they could do)."""
    control = MajorityController.new("koryo", SETUP, None)
    view = dict(control.view())
    view["areas"] = {"Ana": {"9": 4}, "Ben": {"barbarian": 4}, "Cleo": {}}
    view["limits"] = [{"player": p, "counted": n, "limit": 3, "excess": 0}
                      for p, n in (("Ana", 4), ("Ben", 4), ("Cleo", 0))]
    view["powers"] = []
    control._view = view  # the view as the session would publish it mid-round
    assert [w.params["player"] for w in control.limit_words()] == ["Ana"]


def test_what_must_be_done_is_never_behind_more(open_table):
    """Whenever a power must be used (a discard, a VP to take), the plate of the player
    who must use it says so (lit at the end of a round), whatever page of lines the board
    shows; and on the board the lines that must be done come before the ones that may."""
    t = open_table()
    screen = start(t, koryo, players=[0, 1, 2, 3], first=0)
    seen = []

    def look(action, before, after):
        musts = [pw for pw in after["powers"] if pw["must"]]
        if not musts or screen.mode != "board":
            return
        views = screen.seat_views()
        for pw in musts:
            seat = screen.seat_of(pw["player"])
            assert views[seat].todo is not None, pw
            plate = screen.ring.plates[seat]
            said = {b.text for b in t.app.painter.texts if plate.rect.contains(b.rect)}
            assert t.app.screen.seat_text(views[seat].todo) in said
        lines = [part for page in screen.info_pages for line in page for part, _ in line]
        order = [pw["must"] for pw in after["powers"]]
        seen.append(order)
        texts = [screen.power_text(pw) for pw in sorted(after["powers"],
                                                         key=lambda pw: not pw["must"])]
        firsts = [next((i for i, line in enumerate(lines) if text.startswith(line)), None)
                  for text in texts]
        shown = [i for i in firsts if i is not None]
        assert shown == sorted(shown), (texts, lines)

    play_through(t, seed=2, check=look)
    assert any(len(order) > 1 for order in seen)  # a must beside other powers was seen
