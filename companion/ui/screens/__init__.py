"""The games the kiosk offers on its home screen.

Each entry names a module with two functions:

- ``new_game(app) -> Screen``: the first screen of a new game (players, setup); it may
  raise ``RuleError`` for a table the game cannot take (Home then says why);
- ``resume(app, game_id) -> Screen | None``: the screen of the unfinished game
  ``game_id`` of ``app.journal``; the module builds its own rules object and
  ``Session.resume(app.journal, rules, game_id)``. None: nothing to resume (a module whose
  games are not journaled).

A game's screens return to Home with ``app.pop()``. ``game`` is the name the game's rules
give the journal (``rules.name``): at start-up ``companion run`` resumes the latest
unfinished game of the journal whose name is here (``companion.ui.home.resume_unfinished``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    game: str  # the journal's game name
    title: str  # catalog key of the menu label
    module: str  # importable module with new_game(app) and resume(app, game_id)


MENU: tuple[Entry, ...] = (
    Entry("koryo", "koryo.menu", "companion.ui.screens.majority.koryo"),
    Entry("choson", "choson.menu", "companion.ui.screens.majority.choson"),
    Entry("inheritors", "inheritors.menu", "companion.ui.screens.inheritors.setup"),
    Entry("kings-dilemma", "kd.menu", "companion.ui.screens.kings_dilemma.start"),
    # Not a game: the finished games and the players' statistics (resume gives None).
    Entry("history", "history.menu", "companion.ui.screens.history"),
)
