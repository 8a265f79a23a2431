"""Whole games played through the headless ``Table`` (``companion.play.table``), no pygame:
seat presses go in through a backend and ``Table.drain``, touches as ``Table.act``, the
lights are read back off the backend, the finished game out of the history.

``python tests/table_games.py DIR`` plays one game of each kind in ``DIR`` and prints a
JSON line: what the history kept, and whether pygame was ever imported (the test that
runs it, ``test_play_table.py``, needs a process of its own for that: its own conftest
imports pygame).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.games.inheritors.controller import OPENED, SheetController
from companion.games.kings_dilemma.adapter import KingsDilemma
from companion.games.kings_dilemma.controller import NightController
from companion.games.kings_dilemma.kingdom import RESOURCES
from companion.games.majority.autoplay import next_action
from companion.games.majority.controller import NOT_YOUR_TURN, STEPPED, MajorityController
from companion.hardware.sim import SimBackend
from companion.play.seat import ButtonEvent, Light, Press
from companion.play.session import Session
from companion.play.table import Headless, Table
from companion.play.turns import WATCHED, WATCHING, lights
from companion.storage.history import History
from companion.storage.journal import Journal

SEATS = 5
FOUR = {"players": ["Ana", "Ben", "Cleo", "Dan"], "seats": [0, 1, 2, 3], "first_player": "Ben"}
FIVE = ["Theodore", "Julius", "Armin", "Diana", "Frances"]
KD_SETUP = {"players": FIVE, "leader": "Theodore", "moderator": "Julius",
            "momenta": dict.fromkeys(RESOURCES, "down")}
L, M, K, T, O, A = (Light.LEADER, Light.MODERATOR, Light.BALLOT_LOCKED, Light.YOUR_TURN,
                    Light.OFF, Light.ATTENTION)


class Answers(Headless):
    """The headless view, remembering what the game answered each press."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.answers: list[tuple[ButtonEvent, Any]] = []

    def pressed(self, event: ButtonEvent, result: Any) -> None:
        self.answers.append((event, result))


def open_table(directory: Path, backend=None) -> tuple[Table, Answers]:
    """A Table on ``backend`` (five simulated seats by default, started: their presses
    queue into the Table) keeping its games in ``directory``."""
    backend = backend or SimBackend(SEATS)
    table = Table(backend, SEATS, journal=Journal(directory / "journal.db"),
                  history=History(directory / "history.db"))
    table.view = view = Answers(table)
    table.start()
    return table, view


def lights_of(table: Table) -> list[Light]:
    return [table.backend.light(seat) for seat in range(table.seats)]


def wanted(table: Table, game) -> list[Light]:
    """The game's own lights, every seat it does not name off."""
    lit = lights(game.turns())
    return [lit.get(seat, Light.OFF) for seat in range(table.seats)]


def press(table: Table, seat: int, button: str, kind: Press = Press.SHORT) -> None:
    """One press on the simulated pad, handled as the loop handles it."""
    table.backend.press(seat, button, kind)
    assert table.pending()
    table.drain()


def play_majority(table: Table, view: Answers, game: str, seed: int) -> dict:
    """A seeded Koryŏ or Chosŏn game to its end: the acting seat's A for every step the
    big button makes, the rest (a reveal, a power) as the touchscreen enters it; after each,
    the seats show the game's lights; a watching seat's A is refused and changes nothing."""
    control = MajorityController.new(game, FOUR, table.journal)
    table.play(control)
    rng = random.Random(seed)
    steps = refused = 0
    while not control.over():
        action = next_action(control.rules, control.session.state, rng)
        if action == control.next_step() and control.can_step():
            acting = control.seat_of(control.acting())
            if steps % 7 == 0:  # now and then a seat that does not act presses first
                other = next(s for s in FOUR["seats"] if s != acting)
                before = control.session.length
                press(table, other, "a")
                assert view.answers[-1][1].did == NOT_YOUR_TURN
                assert control.session.length == before
                refused += 1
            press(table, acting, "a")
            event, reply = view.answers[-1]
            assert event == ButtonEvent(acting, "a") and reply.did == STEPPED
            steps += 1
        else:
            assert table.act(control.dispatch, action) is True
        assert lights_of(table) == wanted(table, control)
    played = table.end_game(control)
    assert played is not None and lights_of(table) == wanted(table, control)
    return {"steps": steps, "refused": refused, "winners": list(played.winners)}


def count_inheritors(table: Table, view: Answers) -> SheetController:
    """An Inheritors count, not yet saved: each player's pad opens their column (their
    seat YOUR_TURN), the touchscreen enters their end of the game."""
    sheet = SheetController.new(FOUR, table.journal)
    table.play(sheet)
    for i, (player, seat) in enumerate(zip(FOUR["players"], FOUR["seats"], strict=True)):
        press(table, seat, "b")
        assert view.answers[-1][1].did == OPENED and sheet.counted == player
        assert table.backend.light(seat) is Light.YOUR_TURN
        for _ in range(i):  # 6 of the game's 9 tomes
            assert table.act(sheet.step, player, "tomes", 1)
        assert table.act(sheet.step, player, "honors", 1)
        assert lights_of(table) == wanted(table, sheet)
    press(table, 4, "a")  # seat 4 does not play: nothing opens, its plate says it watches
    assert view.answers[-1][1].did == WATCHING and sheet.counted == "Dan"
    assert sheet.seat_views()[4].reply == WATCHED.answer
    return sheet


def play_inheritors(table: Table, view: Answers) -> dict:
    """An Inheritors count (``count_inheritors``); Save puts the score in the history."""
    sheet = count_inheritors(table, view)
    played = table.end_game(sheet)
    assert played is not None and lights_of(table) == [O] * SEATS  # saved: every light off
    return {"winners": list(played.winners)}


def play_night(table: Table, night: NightController, keys: Callable[[int, str], None],
               seen: Callable[[], list[Light]]) -> None:
    """The King's Dilemma rulebook's worked vote on the buttons (the moderator breaks the
    tie by holding Aye), an outcome, a secret vote locked seat by seat, the king's death
    and the scoring. ``keys(seat, "a A")`` presses on the pad (upper case: long) and lets
    the Table handle them, ``seen()`` reads every seat's light off the hardware."""
    view = night.view

    def refused() -> str:
        return str(night.refused[1]) if night.refused else ""

    assert seen() == [T, M, O, O, O]  # the Leader reads the dilemma
    table.act(night.session.dispatch, {"action": "dilemma", "mode": "open",
                                       "card": "worked example"})
    assert seen() == [T, M, O, O, O]
    keys(1, "a")  # not Julius's turn: refused, nothing changes
    assert refused() == "button: it is Theodore's turn, not Julius's"
    keys(0, "C")  # Théodore passes to become moderator
    assert seen() == [L, T, O, O, O] and view()["moderator"] == "Theodore"
    for seat, pressed in ((1, "a A"), (2, "b B"), (3, "a A"), (4, "b b b b B"),
                          (1, "a a a A"), (2, "b B")):
        keys(seat, pressed)
    keys(3, "b")  # Diana voted Aye: can't change side
    assert refused() == "button: Diana voted Aye and can't change side"
    assert seen() == [M, O, O, T, L]  # Frances leads (nay 4), Diana's turn
    keys(3, "a A")
    assert view()["vote"]["phase"] == "tie" and seen() == [A, O, O, O, L]
    keys(2, "A")
    assert refused() == "button: the moderator Theodore breaks the tie, not Armin"
    keys(0, "A")  # the moderator breaks the tie for Aye
    v = view()
    assert (v["phase"], v["leader"], v["balance"]) == ("outcome", "Julius", 9)
    assert seen() == [M, T, O, O, O]  # Julius, the Leader, reads the outcome
    table.act(night.apply_outcome, [("morale", -1)])

    table.act(night.start_vote, "secret")
    assert seen() == [T, T, T, T, T]  # every seat to lock: its turn
    for seat, pressed, after in ((3, "b b B", [T, T, T, K, T]), (1, "a A", [T, K, T, K, T]),
                                 (4, "a a a", [T, K, T, K, T]),  # pending only
                                 (0, "c A", [K, K, T, K, T]), (2, "C", [K, K, K, K, T])):
        keys(seat, pressed)
        assert seen() == after
        assert all(set(s) == {"locked"} for s in view()["vote"]["seats"].values())
        assert night.refused is None  # a secret vote says nothing of a press
    keys(4, "A")  # the last lock: revealed and resolved
    v = view()
    assert v["vote"]["totals"] == {"aye": 4, "nay": 2} and v["vote"]["outcome"] == "aye"
    assert (v["leader"], v["moderator"]) == ("Frances", "Armin")
    assert seen() == [O, O, M, O, T]
    table.act(night.apply_outcome, [("welfare", 2)], True)
    # Théodore alone passed for power: he took the Balance's 9 → 17 power, 12 coins.
    assert view()["power"]["Theodore"] == 17 and view()["coins"]["Theodore"] == 12
    assert seen() == [T, O, O, O, O]  # the reign is over: the first house reads its agenda
    agendas = {p: {"resources": 2 * i, "wealth": [3, 2, 1]} for i, p in enumerate(FIVE)}
    table.act(night.score, agendas)
    totals = {p["name"]: p["total"] for p in view()["final"]["players"]}
    assert totals == {"Theodore": 5, "Julius": 3, "Armin": 7, "Diana": 7, "Frances": 9}
    assert view()["final"]["winners"] == ["Frances"]
    assert seen() == [O, O, O, O, L]


def kd_night(table: Table) -> NightController:
    """The worked example's night at ``table`` (its journal), played from now on."""
    night = NightController(Session.start(table.journal, KingsDilemma(), KD_SETUP))
    table.play(night)
    return night


def play_kings_dilemma(table: Table) -> dict:
    night = kd_night(table)

    def keys(seat: int, pressed: str) -> None:
        for key in pressed.split():
            press(table, seat, key.lower(), Press.LONG if key.isupper() else Press.SHORT)

    play_night(table, night, keys, lambda: lights_of(table))
    played = table.end_game(night)
    assert played is not None
    return {"winners": list(played.winners)}


def main(directory: Path) -> dict:
    """One game of each kind at one Table; what the history kept."""
    table, view = open_table(directory)
    out = {
        "koryo": play_majority(table, view, "koryo", 3),
        "choson": play_majority(table, view, "choson", 5),
        "inheritors": play_inheritors(table, view),
        "kings-dilemma": play_kings_dilemma(table),
    }
    out["history"] = [(g.game, list(g.winners)) for g in table.history.games()]
    out["unfinished"] = len(table.unfinished())
    out["pygame"] = "pygame" in sys.modules
    table.backend.close()
    return out


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
