"""The King's Dilemma at the table, as the menu opens it: the night left unfinished in the
journal, else a new night's coin toss.

The night's screens, each drawing from the night's controller
(``companion.games.kings_dilemma.controller``, which holds every rule of what a press or a tap means):

- ``kd_council``: the council, the vote in progress (open or secret) and the reveal;
- ``kd_entry``: the outcome entered from the card, the kingdom board, each house's secret
  agenda and open agenda tokens at the end;
- ``kd_end``: the coin toss, the end scoring, prestige and crave by hand, the campaign;
- ``kd_draw``: their drawing base, the seat rows, the kingdom board, Undo.

The council's Home button leaves the night unfinished in the journal: the menu entry (and
start-up) resumes it.
"""

from __future__ import annotations

from companion.games.kings_dilemma import controller as kd
from companion.ui.app import App
from companion.ui.screens.kings_dilemma.council import CouncilScreen, RevealScreen, VoteScreen
from companion.ui.screens.kings_dilemma.draw import KdScreen, screen_for, undo_action
from companion.ui.screens.kings_dilemma.end import (
    AwardScreen,
    CampaignScreen,
    EndScreen,
    SetupScreen,
    night_winner,
    record,
)
from companion.ui.screens.kings_dilemma.entry import (
    AgendaScreen,
    KingdomScreen,
    OutcomeScreen,
    TokensScreen,
)

__all__ = ["AgendaScreen", "AwardScreen", "CampaignScreen", "CouncilScreen", "EndScreen",
           "KingdomScreen", "OutcomeScreen", "RevealScreen", "SetupScreen", "TokensScreen",
           "VoteScreen", "new_game", "night_winner", "record", "resume", "screen_for",
           "undo_action"]


def new_game(app: App) -> KdScreen:
    """The night left unfinished in the journal (the council's Home button), else a new
    game night: the coin toss for the resource markers, then the council. ``RuleError``
    for a table of fewer than 3 or more than 5 seats."""
    low, high = kd.SEATS
    if not low <= len(app.seats) <= high:
        raise kd.RuleError("seats", app.catalog.text(
            "kd.setup.seats", count=len(app.seats), low=low, high=high),
                           code="player_count",
                           params={"n": len(app.seats), "low": low, "high": high})
    game_id = kd.unfinished_night(app.journal)
    return SetupScreen(app) if game_id is None else resume(app, game_id)


def resume(app: App, game_id: int) -> KdScreen:
    """The screen of the unfinished game night ``game_id`` of the app's journal, as the
    journal left it (a secret vote: the locks, no ballot)."""
    return screen_for(app, kd.NightController.resume(app.journal, game_id))
