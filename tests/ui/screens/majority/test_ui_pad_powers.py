"""Using a power is a step of one seat, done from that seat's pad alone: its C opens the
powers, its C moves the gold mark, its A takes the marked option (a choice in several
parts: each A takes the next part), and the journal holds the power's action; another
seat's A takes nothing meanwhile (answered on its own plate). In Koryŏ and in Chosŏn."""

from __future__ import annotations

import pytest
from ui_majority import play_through, start

from companion.ui.screens.majority import choson, koryo


def a_power_offered(screen) -> bool:
    """A power of the turn (not an end of round's discard) the acting player may use now."""
    view = screen.view
    return view["phase"] == "main" and any(
        power["code"] != "discard" and power["player"] == screen.game.acting()
        for power, _ in screen.game.offered())


@pytest.mark.parametrize(("module", "seed"), [(koryo, 3), (choson, 20)])
def test_a_power_is_used_from_its_player_s_pad(open_table, module, seed):
    t = open_table()
    screen = start(t, module, players=[0, 1, 2], first=0)
    play_through(t, seed=seed, until=lambda v: a_power_offered(screen), fast=lambda v: True)
    t.app.step(block=False)
    assert a_power_offered(screen), "the seeded game offers a power of the turn"
    seat = screen.seat_of(screen.game.acting())
    game = screen.game.session.game_id
    before = len(t.journal.actions(game))
    t.ctx.press(seat, "c")
    assert screen.mode == "powers"
    power, options = screen.power_options()
    assert power["player"] == screen.game.acting()
    other = next(s for s in screen.view["seats"] if s != seat)
    t.ctx.press(other, "a")  # not theirs: nothing taken
    assert len(t.journal.actions(game)) == before
    for _ in range(4):  # a choice in parts: each A takes the marked part
        t.ctx.press(seat, "a")
        if len(t.journal.actions(game)) > before:
            break
    actions = t.journal.actions(game)
    assert len(actions) == before + 1 and actions[-1] in options, (power, actions[-1])
