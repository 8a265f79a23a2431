"""The set-up's help line says what the seat buttons do on the set-up (not the game
screen's buttons): A makes a seat play or watch, B makes it the first player; each press
does what the line says, in Koryŏ and Chosŏn, in English and French."""

from __future__ import annotations

import pytest

from companion.ui.screens.majority import choson, koryo


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("module", [koryo, choson])
def test_the_setup_s_help_line_says_what_each_press_does_there(open_table, module, language):
    t = open_table(language=language)
    t.ctx.show(module.new_game(t.app))
    setup = t.screen
    help_line = " ".join(b.text for b in t.app.painter.texts
                         if b.rect.colliderect(setup.help_rect))
    said = t.app.catalog.text("majority.setup.help")
    assert help_line == said  # drawn whole (on as many lines as it takes)
    # in the words the seats' tiles say ("plays", "watches"): one vocabulary
    assert all(t.app.catalog.text(f"majority.setup.{k}") in said for k in ("in", "out"))
    playing = setup.players()
    t.ctx.press(3, "a")  # A: the seat watches…
    assert setup.players() == [s for s in playing if s != 3]
    t.ctx.press(3, "a")  # …and plays again
    assert setup.players() == playing
    t.ctx.press(2, "b")  # B: that seat starts
    assert setup.first == 2
    t.ctx.press(3, "a")
    t.ctx.press(3, "b")  # a watching seat can't start
    assert setup.first == 2
