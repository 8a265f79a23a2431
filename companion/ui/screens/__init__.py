"""The games the kiosk offers on its home screen.

Each entry names a module with two functions:

- ``new_game(app) -> Screen``: the first screen of a new game (players, setup);
- ``resume(app, session) -> Screen``: the screen of a game the journal kept unfinished
  (``session`` is a ``companion.session.Session`` already replayed), or ``None`` for a
  module whose games are not journaled.

``game`` is the name the game's rules give the journal (``rules.name``), so an unfinished
game found at start-up finds its module here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    game: str  # the journal's game name
    title: str  # catalog key of the menu label
    module: str  # importable module with new_game(app) and resume(app, session)


MENU: tuple[Entry, ...] = (
    Entry("koryo", "koryo.menu", "companion.ui.screens.koryo"),
    Entry("choson", "choson.menu", "companion.ui.screens.choson"),
    Entry("inheritors", "inheritors.menu", "companion.ui.screens.inheritors"),
    Entry("kings-dilemma", "kd.menu", "companion.ui.screens.kings_dilemma"),
    # Not a game: the finished games and the players' statistics (resume gives None).
    Entry("history", "history.menu", "companion.ui.screens.history"),
)
