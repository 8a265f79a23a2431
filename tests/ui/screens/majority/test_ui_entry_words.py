"""The card entry's refusal names the family as the engine does, in the plural
(« 10 × Marchands », "10 × Merchants"), and says how many remain out of play only when
some are in play: with none in play, "the game has 9" alone. Through the real card
entry, in English and French."""

from __future__ import annotations

import pytest
from ui_majority import shown, start

from companion.ui.screens.majority import koryo

SAID = {
    "en": ("Refused: 10 × Merchants, but the game has 9",
           "Refused: 7 × Merchants, but the game has 9 and only 6 remain out of play",
           "out of play"),
    "fr": ("Refusé : 10 × Marchands, mais le jeu en a 9",
           "Refusé : 7 × Marchands, mais le jeu en a 9 et seulement 6 restent hors jeu",
           "hors jeu"),
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_count_over_the_deck_is_refused_in_the_family_s_plural(open_table, language):
    none_in_play, some_in_play, out_of_play = SAID[language]
    t = open_table(language=language)
    screen = start(t, koryo, players=[0, 1])
    t.ctx.press(0, "a")  # Ana starts round 1 (10 cards dealt)
    t.ctx.press(0, "b")
    for _ in range(10):
        t.ctx.tap(screen.tiles["9"], "Merchant")
    assert screen.entry == {"9": 9}
    assert none_in_play in shown(t) and out_of_play not in shown(t)
    t.ctx.tap(screen.button("cancel").rect, "cancel")
    t.ctx.press(0, "b")
    for _ in range(3):
        t.ctx.tap(screen.tiles["9"], "Merchant")
    t.ctx.tap(screen.button("reveal").rect, "reveal")
    assert screen.view["areas"]["Ana"] == {"9": 3}
    t.ctx.press(0, "a")  # Ana ends her turn: Ben's
    t.ctx.press(1, "b")
    for _ in range(7):
        t.ctx.tap(screen.tiles["9"], "Merchant")
    assert screen.entry == {"9": 6}
    assert some_in_play in shown(t)
