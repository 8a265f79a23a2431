"""Chosŏn at the table: the screens of ``majority_setup`` and ``majority_game`` for Chosŏn
(2–4 players, 9 families, events, Yi's Shield breaking ties on its family during the
rounds).

Seat buttons: A = next step (start the round, end the turn, end the round) from the seat
whose turn it is, B = card entry, C = powers, long press = undo request (see
``majority_game``)."""

from __future__ import annotations

from companion.games.majority.controller import player_counts
from companion.ui.app import App, Screen
from companion.ui.screens.majority import setup
from companion.ui.screens.majority.common import GameSpec

SPEC = GameSpec("choson", *player_counts("choson"))


def new_game(app: App) -> Screen:
    return setup.new_game(app, SPEC)


def resume(app: App, game_id: int | None = None) -> Screen | None:
    """The unfinished game ``game_id`` of ``app.journal`` (None: the latest one)."""
    return setup.resume(app, SPEC, game_id)
