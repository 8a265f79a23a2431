"""Shared by the Koryŏ and Chosŏn screen tests: a game started and played through the
screens of a ``TableRig`` with seat buttons and touch events, the lights it must show."""

from __future__ import annotations

import json
import random
from pathlib import Path

import yaml
from table_rig import TableRig
from ui_layout import check_layout

from companion import cli
from companion.games.majority.autoplay import next_action
from companion.play.seat import Light
from companion.ui.app import App, Screen
from companion.ui.demo.majority import play
from companion.ui.screens.majority.game import GameScreen


def shown(table: TableRig) -> str:
    """The last frame's texts run together as read: the pieces of one line side by side
    (a sentence whose figures the screen draws apart from its words, larger), a space
    between lines (a sentence wrapped over two lines reads whole)."""
    out, last = "", None
    for box in table.app.painter.texts:
        same_line = (last is not None and box.rect.left >= last.rect.left
                     and box.rect.top < last.rect.bottom and last.rect.top < box.rect.bottom)
        out += box.text if same_line or last is None else " " + box.text
        last = box
    return out


def expected_lights(view: dict, seats: int) -> dict[int, Light]:
    """The seat lights a game in progress must show: the seat that acts (the current
    player; between turns the first player; at the end of a round, each seat that must
    discard) YOUR_TURN, the first player's seat FIRST_PLAYER when another seat acts, every
    other seat off."""
    seat_of = dict(zip(view["players"], view["seats"], strict=True))
    out = dict.fromkeys(range(seats), Light.OFF)
    out[seat_of[view["first_player"]]] = Light.FIRST_PLAYER
    discarding = [pw["player"] for pw in view["powers"]
                  if pw["code"] == "discard" and pw["must"]] if view["phase"] == "end" else []
    for player in discarding or [view["current_player"] or view["first_player"]]:
        out[seat_of[player]] = Light.YOUR_TURN
    return out


def start(table: TableRig, module, players: list[int] | None = None, first: int = 0) -> GameScreen:
    """New game by touch: take out the seats not in ``players``, move the first-player
    button to seat ``first``, tap Start."""
    ctx = table.ctx
    ctx.show(module.new_game(table.app))
    setup = table.screen
    for seat in range(len(table.app.seats)):
        if (players is None or seat in players) != setup.playing[seat]:
            ctx.tap(setup.button(f"seat-{seat}").rect, "seat")
    while setup.first != first:
        ctx.tap(setup.button("first").rect, "first")
    ctx.tap(setup.button("start").rect, "start")
    assert isinstance(table.screen, GameScreen), table.screen.describe()
    return table.screen


def play_through(table: TableRig, seed: int, until=None, check=None, fast=None) -> list[dict]:
    """Play the game on screen with the seeded player's choices, each one entered as players
    do (seat button A, taps on the card entry and the powers), or straight through the
    screen's ``dispatch`` while ``fast(view)``; stop when ``until(view)`` or at the end.
    ``check(action, before, after)`` runs after each action. Returns the actions played."""
    screen: GameScreen = table.screen
    rng = random.Random(seed)
    done = []
    while screen.view["phase"] != "over" and not (until and until(screen.view)):
        before = screen.view
        action = next_action(screen.game.rules, screen.game.session.state, rng)
        if fast and fast(before):
            assert screen.dispatch(action)
            table.app.step(block=False)
        else:
            play(table.ctx, action)
        assert screen.message is None, screen.message
        assert table.journal.actions(screen.game.session.game_id)[-1] == action
        done.append(action)
        if check:
            check(action, before, screen.view)
        assert len(done) < 2000
    return done


def table_file(path: Path, view: dict) -> Path:
    """The table file (docs/table-files.md) of the cards and tokens of a game over."""
    state = view["final"]
    data = {
        "game": view["game"],
        "players": view["players"],
        "cards": {
            p: {int(k) if k.isdigit() else k: n for k, n in view["areas"][p].items()}
            for p in view["players"]
        },
        "tokens": view["tokens"],
    }
    if view["game"] == "choson":
        data["kept_events"] = view["kept_events"]
        data["first_player"] = view["first_player"]
        if view["legacy"]:
            data["yi_legacy"] = view["legacy"]
    assert state is not None
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def companion_score(path: Path, capsys) -> dict:
    """``companion score FILE --json``, run as the command line runs it."""
    capsys.readouterr()
    assert cli.main(["score", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def fits(app: App) -> None:
    """The last frame's layout: texts whole, legible, apart; targets big and apart."""
    check_layout(app)



class Recorder(Screen):
    """A stand-in for Home: an empty screen under the game's."""

    name = "home"

    def draw(self, p) -> None:
        p.surface.fill((0, 0, 0))


def middle_rounds(view: dict) -> bool:
    """Rounds 2–7: played straight through the session (the layouts are looked at in the
    first and the last round)."""
    return 2 <= view["round"] <= 7 and view["phase"] != "setup"


def turn_more_pages(table: TableRig) -> list[list[str]]:
    """On a board whose lines under it do not fit: tap the board through every "more" page
    back to the board, checking each page's layout; returns the texts of each page (the
    board's first). A tap on the board is no action: the journal does not change."""
    screen: GameScreen = table.screen
    pages = len(screen.info_pages)
    assert pages > 1 and screen.info_page == 0
    journaled = table.journal.actions(screen.game.session.game_id)
    shown = []
    for page in range(pages):
        assert screen.info_page == page
        fits(table.app)
        shown.append(table.texts())
        table.ctx.tap(screen.button("more").rect, "more")
    assert screen.info_page == 0 and table.journal.actions(screen.game.session.game_id) == journaled
    return shown
