"""The King's Dilemma game night through Session + Journal (companion/games/kings_dilemma.py):
the rulebook's worked vote example, kingdom outcomes, the game's end and scoring, setup from
the campaign ledger, and refusals with the field a player understands."""

import pytest

from companion.engine.kd_kingdom import RESOURCES
from companion.games.kings_dilemma import KingsDilemma, lights
from companion.hardware.base import Light
from companion.journal import Journal
from companion.session import Session

FIVE = ["Theodore", "Julius", "Armin", "Diana", "Frances"]
UP = dict.fromkeys(RESOURCES, "up")
# RULES.md §4 worked example: Théodore leads and passes to become moderator, …
WORKED = [("Theodore", "pass-moderator", 0), ("Julius", "aye", 1), ("Armin", "nay", 1),
          ("Diana", "aye", 1), ("Frances", "nay", 4), ("Julius", "add", 3),
          ("Armin", "add", 1), ("Diana", "add", 1)]


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.db") as j:
        yield j


def start(journal, **setup):
    base = {"players": FIVE, "leader": "Theodore", "moderator": "Julius", "momenta": UP}
    return Session.start(journal, KingsDilemma(), {**base, **setup})


def play(session, player, move, power=0):
    return session.dispatch({"action": "play", "player": player, "move": move, "power": power})


def test_rulebook_worked_vote_example_through_the_session(journal):
    """RULES.md §4 worked example: 6–6 after Diana (right of Frances), the moderator
    Théodore breaks the tie for Aye, the Leader token goes to Julius; clean-up as the spec's
    vote output (Balance 3 + 6 winners' power = 9, Théodore's pass coin)."""
    s = start(journal)
    s.dispatch({"action": "dilemma", "mode": "open", "card": "worked example"})
    for player, move, power in WORKED[:-1]:
        view = play(s, player, move, power)
        assert view["vote"]["phase"] == "voting"
    view = play(s, *WORKED[-1])
    assert view["vote"]["phase"] == "tie" and view["vote"]["totals"] == {"aye": 6, "nay": 6}
    assert lights(view)[0] is Light.ATTENTION  # the moderator must decide
    view = s.dispatch({"action": "break-tie", "player": "Theodore", "side": "aye"})
    assert view["phase"] == "outcome"
    assert (view["leader"], view["moderator"], view["balance"]) == ("Julius", "Theodore", 9)
    assert view["power"] == {"Theodore": 8, "Julius": 4, "Armin": 8, "Diana": 6, "Frances": 8}
    assert view["coins"]["Theodore"] == 11 and view["coins"]["Julius"] == 10
    assert view["history"] == [{"round": 1, "card": "worked example", "mode": "open",
                                "outcome": "aye", "totals": {"aye": 6, "nay": 6}}]
    assert lights(view) == {0: Light.MODERATOR, 1: Light.LEADER, 2: Light.OFF,
                            3: Light.OFF, 4: Light.OFF}
