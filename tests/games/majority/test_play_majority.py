"""The Koryŏ and Chosŏn controller says what the screens show as data, and the screens only
draw it: every sentence (powers, protections, limit warnings, the tie-breaker, tokens, the
top line, what a seat's press answers) is a catalog key and its params, said in both languages; the board's columns are
the families in play; one round number; the screens' modules import no engine and branch on
no game."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from companion.games.majority.autoplay import next_action
from companion.games.majority.controller import (
    EVENTS,
    NOT_YOUR_TURN,
    NOT_YOUR_UNDO,
    STEPPED,
    UNDO_ASKED,
    UNDONE,
    VP,
    Kind,
    MajorityController,
    Seat,
    Words,
)
from companion.i18n import load_catalog
from companion.play.seat import ButtonEvent, Press

SCREENS = Path(__file__).parents[3] / "companion" / "ui" / "screens" / "majority"
MODULES = sorted(p for p in SCREENS.glob("*.py") if p.name != "__init__.py")
RULES = tuple(f"companion.games.{game}.rules" for game in ("majority", "koryo", "choson"))
SETUP = {"players": ["Ana", "Ben", "Cleo", "Dan"], "seats": [0, 1, 2, 3], "first_player": "Ben"}


def said(catalog, words: Words, names: dict) -> str:
    """``words`` in ``catalog``'s language, a card kind by ``names`` (the view's)."""
    fmt = {k: said(catalog, v, names) if isinstance(v, Words)
           else names[str(v.kind)][catalog.language + ("_plural" if v.plural else "")]
           if isinstance(v, Kind) else v for k, v in words.params.items()}
    return catalog.text(words.key, **fmt)


def games(game: str, seed: int):
    """The controller after each action of a seeded game played to its end."""
    control = MajorityController.new(game, SETUP, None)
    rng = random.Random(seed)
    while not control.over():
        yield control
        assert control.dispatch(next_action(control.rules, control.session.state, rng))


@pytest.mark.parametrize(("game", "seed"), [("koryo", 1), ("choson", 2)])
def test_every_sentence_is_a_catalog_key_said_in_both_languages(game, seed):
    catalogs = [load_catalog("en"), load_catalog("fr")]
    keys = set()
    for control in games(game, seed):
        v = control.view()
        names = {str(f["value"]): f for f in v["families"]} | {e["key"]: e for e in v["events"]}
        sentences = [control.power_words(p) for p in v["powers"]] + [
            control.protection_words(p) for p in v["protections"]] + control.limit_words() + [
            control.breaker_words(), control.status_words()] + control.token_words()
        for words in sentences:
            assert isinstance(words, Words)
            keys.add(words.key.split(".")[-1])
            en, fr = (said(c, words, names) for c in catalogs)
            assert en and fr
        for power in v["powers"]:  # the English sentence is the engine's own
            assert said(catalogs[0], control.power_words(power), names) == power["text"]
    assert {"setup", "reveal", "main", "end"} <= keys


@pytest.mark.parametrize("game", ["koryo", "choson"])
def test_one_round_number_the_prompt_s_and_the_round_line_s(game):
    rounds = set()
    for control in games(game, 3):
        v = control.view()
        words = control.status_words()
        if "round" in words.params:
            assert words.params["round"] == v["season"]["round"]
            rounds.add(words.params["round"])
    assert rounds == set(range(1, 9))


@pytest.mark.parametrize("game", ["koryo", "choson"])
def test_the_board_shows_the_families_in_play_then_events_then_vp(game):
    for control in games(game, 4):
        v = control.view()
        columns = control.board()
        players = v["players"]
        in_play = sorted({int(k) for p in players for k, n in v["areas"][p].items()
                          if k.isdigit() and n}, reverse=True)
        assert [c.family for c in columns if c.family is not None] == in_play
        assert columns[-1].kind == VP
        assert [c.n for c in columns[-1].cells] == [v["tokens"][p] for p in players]
        holders = {m["family"]: m for m in v["majorities"]}
        for column in columns:
            if column.family is None:
                assert column.kind in (EVENTS, VP)
                continue
            for player, cell in zip(players, column.cells, strict=True):
                assert cell.n == v["areas"][player].get(column.kind, 0)
                m = holders[column.family]
                assert (cell.mark in ("held", "broken")) == (m["holder"] == player)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_the_screens_import_no_engine_and_branch_on_no_game(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [f"{node.module}.{a.name}" for a in node.names] \
                if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            assert not any(n.startswith(RULES) for n in names), names
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
            assert inner == [], f"{path.name}: an import inside {node.name}"
        if isinstance(node, ast.Compare):
            constants = [c.value for c in ast.walk(node) if isinstance(c, ast.Constant)]
            assert not {"koryo", "choson"} & set(constants), ast.unparse(node)
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 500


def test_a_seat_press_answers_with_the_controller_s_words():
    """What a press answers is the controller's sentence, the pressing seat named as a
    ``Seat`` (a watching seat has no player name): the screen only says it. A press refused
    to its seat (not its turn, not its undo) is answered on that seat's own plate
    (``replies``), never on the table's line (``reply``), until the game moves."""
    control = MajorityController.new("koryo", SETUP, None)  # Ben (seat 1) starts
    assert control.press(ButtonEvent(0, "a")).did == NOT_YOUR_TURN
    assert control.reply is None
    assert control.replies == {0: Words("seat.reply.not_your_turn", {"player": "Ben"})}
    assert control.seat_views()[0].reply == control.replies[0]
    assert control.press(ButtonEvent(2, "a", Press.LONG)).did == NOT_YOUR_UNDO  # nothing done yet
    assert control.replies[2] == Words("seat.reply.undo_on_screen")
    assert control.press(ButtonEvent(1, "a")).did == STEPPED
    assert control.reply is None and control.replies == {}
    assert control.press(ButtonEvent(3, "a", Press.LONG)).did == NOT_YOUR_UNDO
    assert control.reply is None
    assert control.replies[3] == Words("seat.reply.undo_not_yours", {"player": Seat(1)})
    assert control.press(ButtonEvent(1, "c", Press.LONG)).did == UNDO_ASKED
    assert control.reply is None
    assert control.press(ButtonEvent(1, "c", Press.LONG)).did == UNDONE
    assert control.reply == Words("majority.undone")
    catalogs = [load_catalog("en"), load_catalog("fr")]
    for words in (Words("majority.not_your_turn", {"name": "Ana", "player": "Ben"}),
                  Words("seat.reply.not_your_turn", {"player": "Ben"}),
                  control.reply, control.undo_words(False)):
        assert all(c.text(words.key, **words.params) for c in catalogs)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_the_screens_build_no_press_reply(path):
    """The replies' catalog keys are the controller's alone: no screen names one."""
    keys = {"majority.not_your_turn", "majority.undo_not_yours", "majority.undo_on_screen",
            "majority.undone", "majority.nothing_to_undo"}
    constants = {node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(node, ast.Constant)}
    assert not keys & constants
    replies = ("NOT_YOUR_TURN", "NOT_YOUR_UNDO", "REFUSED")  # the screen never tells them apart
    assert not any(name in path.read_text(encoding="utf-8") for name in replies)
