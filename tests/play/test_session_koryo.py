"""Session with the real Koryŏ engine (the Koryŏ rulebook): a game interrupted mid-round
resumes exactly where it was, refusals are not journaled, undo replays the engine."""

from __future__ import annotations

import pytest

from companion.games.koryo import rules as k
from companion.games.majority.rules import Area, EndRound, EndTurn, Reveal, StartRound
from companion.play.errors import RuleError
from companion.play.session import Session
from companion.storage.journal import Journal

PLAYERS = ["Ana", "Ben", "Chloe"]


class Koryo:
    """The Session rules interface over the Koryŏ engine, actions as the engine's dicts."""

    name = k.GAME

    def initial(self, setup: dict) -> k.State:
        return k.new_game(setup["players"], setup.get("first_player"))

    def apply(self, state: k.State, action: dict) -> k.State:
        return k.apply(state, k.action_from_dict(action))

    def public_view(self, state: k.State) -> dict:
        return state.to_dict()


ACTIONS = [
    StartRound(),
    Reveal("Ana", Area.of({9: 1})),
    EndTurn("Ana"),
    Reveal("Ben", Area.of({8: 2})),
    EndTurn("Ben"),
    Reveal("Chloe", Area.of({7: 3})),
    EndTurn("Chloe"),
    EndRound(),
    StartRound(),
    Reveal("Ben", Area.of({6: 2})),  # round 2: Ben holds the first-player token
]


def engine_state(n: int) -> k.State:
    """The state after the first ``n`` actions, straight from the engine."""
    state = k.new_game(PLAYERS)
    for action in ACTIONS[:n]:
        state = k.apply(state, action)
    return state


def test_koryo_game_resumes_mid_round_after_restart(tmp_path):
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        session = Session.start(journal, Koryo(), {"players": PLAYERS})
        for action in ACTIONS:
            session.dispatch(action.to_dict())
        with pytest.raises(RuleError) as info:  # out of turn: refused, not journaled
            session.dispatch(Reveal("Ana", Area.of({5: 1})).to_dict())
        assert info.value.field == "player"
        assert len(journal.actions(session.game_id)) == len(ACTIONS)
    with Journal(path) as journal:
        resumed = Session.resume(journal, Koryo())
        assert resumed.state == engine_state(len(ACTIONS))
        assert resumed.state.round == 2 and resumed.state.current_player == "Ben"
        assert resumed.state.area("Chloe") == Area.of({7: 3})
        assert resumed.undo() == ACTIONS[-1].to_dict()
        assert resumed.state == engine_state(len(ACTIONS) - 1)
        resumed.dispatch(EndTurn("Ben").to_dict())
        assert resumed.state.current_player == "Chloe"
