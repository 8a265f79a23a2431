"""The secret vote's help line says exactly what each press and hold does: it is made from
``kd_buttons.GRAMMAR``, the table ``kd_buttons.press`` follows, and docs/button-grammar.md shows
the same lines. Holding C claims the moderator, and the line says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games.kings_dilemma import buttons as kd_buttons
from companion.games.kings_dilemma import vote as kd_vote
from companion.i18n import LANGUAGES, load_catalog
from companion.play.seat import ButtonEvent, Press
from companion.ui.screens.kings_dilemma.draw import vote_help

DOC = Path(__file__).resolve().parents[3] / "docs" / "button-grammar.md"
PLAYERS = ["Ana", "Ben", "Cleo"]


def vote(mode: str) -> kd_vote.Vote:
    return kd_vote.new_vote(PLAYERS, leader="Ana", moderator="Ben", power=dict.fromkeys(
        PLAYERS, 3), coins=dict.fromkeys(PLAYERS, 5), balance=3, mode=mode)


def effect(mode: str, presses: list[tuple[str, Press]]) -> tuple[kd_vote.Pad, object]:
    """Seat 0's pending choice and the action of the last press, after ``presses``."""
    state, pads, action = vote(mode), kd_vote.pads_for(vote(mode)), None
    for button, press in presses:
        pads, action = kd_buttons.press(state, pads, ButtonEvent(0, button, press))
    return pads[0], action


def chosen(action: kd_vote.Action) -> str:
    """A locked ballot's choice (secret) or a played turn's move (open)."""
    return action.choice if isinstance(action, kd_vote.Lock) else action.move


@pytest.mark.parametrize("mode", [kd_vote.SECRET, kd_vote.OPEN])
def test_every_press_does_what_the_table_says(mode):
    """Each (button, press) of GRAMMAR, tried on seat 0 (on turn in the open vote)."""
    short = Press.SHORT
    for (button, press), meaning in kd_buttons.GRAMMAR.items():
        if meaning in kd_buttons.CHOSEN_SIDE:
            pad, _ = effect(mode, [(button, short), (button, short)])
            assert (pad.choice, pad.power) == (kd_buttons.CHOSEN_SIDE[meaning], 2)  # again: +1
        elif meaning == kd_buttons.CHOOSE_PASS:
            assert effect(mode, [(button, press)])[0].choice == kd_vote.PASS_POWER
        elif meaning == kd_buttons.CONFIRM:  # confirms a pass for power too
            _, action = effect(mode, [("c", short), (button, press)])
            assert (chosen(action), action.player) == (kd_vote.PASS_POWER, "Ana")
        elif meaning == kd_buttons.CLAIM_MODERATOR:  # whatever is pending
            _, action = effect(mode, [("c", short), (button, press)])
            assert chosen(action) == kd_vote.PASS_MODERATOR
        else:
            pytest.fail(f"no check for {meaning}")
    assert set(kd_buttons.GRAMMAR.values()) == {
        kd_buttons.CHOOSE_AYE, kd_buttons.CHOOSE_NAY, kd_buttons.CHOOSE_PASS, kd_buttons.CONFIRM,
        kd_buttons.CLAIM_MODERATOR}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mode", [kd_vote.SECRET, kd_vote.OPEN])
def test_the_help_names_every_press_and_hold_once(language, mode):
    catalog = load_catalog(language)
    t = catalog.text
    presses, holds = vote_help(t, mode)
    for (button, press), meaning in kd_buttons.GRAMMAR.items():
        line = presses if press is Press.SHORT else holds
        key = f"kd.grammar.{meaning}" + (f"_{mode}" if meaning == kd_buttons.CONFIRM else "")
        said = catalog.texts[key].split("}", 1)[1]  # the words after {buttons}
        assert said in line, (button, press, line)
        assert line.count(said) == 1
        assert t(f"pad_button.{button}") in line


def test_hold_c_is_said_to_claim_the_moderator_not_to_lock():
    """The trap players fell into: 'hold: lock' while holding C made them moderator."""
    _, holds = vote_help(load_catalog("en").text, kd_vote.SECRET)
    assert holds == "Hold: A or B lock your choice · C become moderator at once"


@pytest.mark.parametrize("mode", [kd_vote.SECRET, kd_vote.OPEN])
def test_docs_show_the_lines_the_screen_shows(mode):
    text = DOC.read_text(encoding="utf-8")
    block = re.search(rf"<!-- vote-help:{mode} -->\n(.*?)<!-- /vote-help -->", text,
                      re.DOTALL)
    assert block, f"docs/button-grammar.md has no vote-help:{mode} block"
    lines = [line.removeprefix("> ") for line in block.group(1).strip().splitlines()]
    assert lines == vote_help(load_catalog("en").text, mode)
