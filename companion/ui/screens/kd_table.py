"""The King's Dilemma table as the screens see it: the game night's ``Session`` (rules
adapter ``companion.games.kings_dilemma``, every action journaled), its ``SeatPads`` (the
button grammar; secret ballots go to the journal's private part) and the campaign ledger.

Screens draw only from ``view()``, the adapter's public view (in a secret vote, per seat
only whether it has locked; the pending choice on a seat's buttons only for the seat on
turn of an open vote), and light the seats from ``lights()``, computed from that same view.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Sequence
from pathlib import Path

from companion.engine import kd_campaign, kd_kingdom, kd_vote
from companion.engine.errors import RuleError
from companion.games import kings_dilemma as kd_game
from companion.hardware.base import ButtonEvent, Light
from companion.journal import Journal
from companion.session import Session

log = logging.getLogger(__name__)


class KdTable:
    """One game night in progress at the table (3–5 houses in seating order)."""

    def __init__(self, session: Session, campaign: kd_campaign.Campaign | None = None) -> None:
        self.session = session
        self.pads = kd_game.SeatPads(session)
        setup = session.setup
        if campaign is None and "campaign" in setup:
            campaign = kd_campaign.Campaign.from_dict(setup["campaign"])
        self.campaign = campaign
        self.refused: str | None = None  # who had a press refused (open vote only)

    @classmethod
    def new(cls, players: Sequence[str], journal: Journal | None = None,
            momenta: dict[str, str] | None = None,
            campaign: kd_campaign.Campaign | None = None) -> KdTable:
        """A game night with the shipped data file: a new campaign (houses numbered in
        seating order) unless one is given; power and coins stay behind the screens."""
        from companion import kd_data

        if campaign is None:
            campaign = kd_campaign.new_campaign(kd_data.shipped().settings)
            for number, name in enumerate(players, 1):
                campaign = kd_campaign.apply(campaign, kd_campaign.AddHouse(name, number))
        if journal is None:  # games not kept: a journal of this process only
            journal = Journal(Path(tempfile.mkdtemp(prefix="companion-kd-")) / "journal.db")
        setup = {
            "players": list(players),
            "campaign": campaign.to_dict(),
            "momenta": momenta or dict.fromkeys(kd_kingdom.RESOURCES, kd_kingdom.UP),
            "public": {"power": False, "coins": False},
        }
        return cls(Session.start(journal, kd_game.KingsDilemma(), setup), campaign)

    # --- what the screens may show ------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.session.setup["players"])

    def view(self) -> dict:
        return self.pads.view()

    def vote_view(self) -> dict:
        """The current (or last) vote's public view, with the tokens as they stand."""
        return self.view()["vote"]

    def lights(self) -> list[Light]:
        by_seat = kd_game.lights(self.view())
        return [by_seat.get(seat, Light.OFF) for seat in range(max(by_seat) + 1)]

    @property
    def kingdom(self) -> kd_kingdom.Kingdom:
        return kd_kingdom.Kingdom.from_dict(self.view()["kingdom"])

    @property
    def dilemma(self) -> int:
        """The dilemma being (or last) voted on; between dilemmas, the next one."""
        view = self.view()
        return view["round"] + (1 if view["phase"] == kd_game.COUNCIL else 0)

    def setup_order(self) -> kd_campaign.GameSetup | None:
        return self.campaign.setup(self.players) if self.campaign else None

    # --- actions ------------------------------------------------------------------------

    def start_vote(self, mode: str) -> None:
        self.session.dispatch({"action": "dilemma", "mode": mode})
        self.refused = None

    def press(self, event: ButtonEvent) -> bool:
        """A seat's button; True if anything visible may have changed. In a secret vote a
        press that only changes a pending choice, or is refused, changes nothing at all.
        On a tie the moderator's A (Aye) or B (Nay) decides."""
        view = self.view()
        vote = view["vote"]
        if view["phase"] != kd_game.VOTE or vote is None:
            return False
        if vote["phase"] == kd_vote.TIE:
            side = kd_vote.BUTTON_SIDES.get(event.button)
            seat = dict(zip(view["players"], view["seats"], strict=True))[vote["moderator"]]
            if event.seat == seat and side:
                self.break_tie(side)
                return True
            return False
        try:
            changed = self.pads.press(event)
        except RuleError as exc:
            log.info("kings-dilemma: refused press: %s", exc)
            if event.seat in view["seats"]:
                self.refused = view["players"][view["seats"].index(event.seat)]
                return True
            return False
        if changed is None and vote["mode"] == kd_vote.SECRET:
            return False
        self.refused = None
        return True

    def _moderator(self) -> str:
        return self.vote_view()["moderator"]

    def break_tie(self, side: str) -> None:
        self.session.dispatch({"action": "break-tie", "player": self._moderator(), "side": side})

    def choose_leader(self, name: str) -> None:
        self.session.dispatch({"action": "choose-leader", "player": self._moderator(),
                               "leader": name})

    def apply_outcome(self, changes: Sequence[tuple[str, int]], king_dies: bool = False) -> None:
        """The dilemma's printed changes, left to right."""
        self.session.dispatch({
            "action": "outcome", "king_dies": king_dies,
            "changes": [{"resource": r, "amount": n} for r, n in changes if n],
        })

    def score(self, agendas: dict[str, dict], open_agendas: dict[str, list[str]] | None = None
              ) -> dict:
        """End of game: each house's secret agenda as read off the card
        (``{"resources": n, "wealth": [a, b, c]}``) and its open agenda tokens."""
        action = {"action": "score", "agendas": agendas}
        if open_agendas:
            action["open_agendas"] = open_agendas
        return self.session.dispatch(action)["final"]

    def finish(self, history=None) -> None:
        """The scored game leaves the journal's unfinished games; its result goes to the
        game history when one is kept (a result the history refuses is logged)."""
        final = self.view()["final"]
        if history is not None:
            try:
                history.record(final)
            except RuleError as exc:
                log.warning("kings-dilemma: result not kept in the history: %s", exc)
        self.session.finish(final)

    def record(self, agendas: dict[str, str], by_hand: dict | None = None) -> None:
        """The scored game into the campaign ledger (prestige/crave from the data file's
        table; values it lacks given ``by_hand``)."""
        view = self.view()
        totals = {p["name"]: p["total"] for p in view["final"]["players"]}
        self.campaign = kd_campaign.apply(self.campaign, kd_campaign.RecordGame(
            view["ended"], totals, agendas, by_hand or {}))
