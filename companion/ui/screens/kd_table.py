"""The King's Dilemma table as the screens see it: one game of the campaign, its current
vote, the kingdom board and the campaign ledger, built on the pure engines
(``companion.engine.kd_vote``, ``kd_kingdom``, ``kd_score``, ``kd_campaign``).

Screens draw only from ``view()`` (the vote engine's ``public_view``: in a secret vote it
says per seat only whether it has locked) and from ``lights()``, which is computed from
that same public view. Power and coins behind the house screens are kept here for the
engine's checks (a seat can't commit more than it has) and are never drawn.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from companion import kd_data
from companion.engine import kd_campaign, kd_kingdom, kd_vote
from companion.engine.errors import RuleError
from companion.engine.kd_score import FinalScore, OpenAgenda, SecretAgenda, final_score
from companion.hardware.base import ButtonEvent, Light

log = logging.getLogger(__name__)


def lights_for(view: dict) -> list[Light]:
    """Each seat's light from a public view: whose turn (open vote), ballot locked (secret
    vote), the moderator deciding (blinking), else the Leader and Moderator tokens."""
    players = view["players"]
    phase = view.get("phase")
    out = []
    for name in players:
        seat = view.get("seats", {}).get(name, {})
        light = Light.OFF
        if name == view["moderator"]:
            light = Light.MODERATOR
        if name == view["leader"]:
            light = Light.LEADER
        if phase == kd_vote.VOTING and view.get("mode") == kd_vote.SECRET and seat.get("locked"):
            light = Light.BALLOT_LOCKED
        if phase == kd_vote.VOTING and view.get("turn") == name:
            light = Light.YOUR_TURN
        if phase in (kd_vote.TIE, kd_vote.LEADER_CHOICE) and name == view["moderator"]:
            light = Light.ATTENTION
        out.append(light)
    return out


@dataclass
class KdTable:
    """One game in progress at the table (3–5 houses in seating order)."""

    players: tuple[str, ...]
    kingdom: kd_kingdom.Kingdom
    campaign: kd_campaign.Campaign
    power: dict[str, int]  # behind the screens: never drawn
    coins: dict[str, int]  # behind the screens: never drawn
    balance: int
    leader: str
    moderator: str
    dilemma: int = 1
    balance_before: int = 0  # the Balance when the current vote began
    vote: kd_vote.Vote | None = None
    pads: tuple[kd_vote.Pad, ...] = ()
    last_vote: kd_vote.Vote | None = None  # the previous vote, resolved
    moves: tuple[kd_kingdom.Move, ...] = ()  # what the last outcome did
    final: FinalScore | None = None
    refused: str | None = None  # who had a press refused (open vote only)

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        momenta: dict[str, str] | None = None,
        campaign: kd_campaign.Campaign | None = None,
    ) -> KdTable:
        """A game with the shipped data file: houses numbered in seating order when the
        campaign is new, the ledger's leader, moderator and starting power and coins."""
        data = kd_data.shipped()
        if campaign is None:
            campaign = kd_campaign.new_campaign(data.settings)
            for number, name in enumerate(players, 1):
                campaign = kd_campaign.apply(campaign, kd_campaign.AddHouse(name, number))
        setup = campaign.setup(players)
        momenta = momenta or {r: kd_kingdom.UP for r in kd_kingdom.RESOURCES}
        kingdom = kd_kingdom.setup(data.track, *data.stability, momenta)
        return cls(
            tuple(players),
            kingdom,
            campaign,
            dict(setup.power),
            dict(setup.coins),
            data.balance,
            setup.leader,
            setup.moderator,
        )

    # --- what the screens may show ------------------------------------------------------

    def view(self) -> dict:
        """The public view: the vote's own (``kd_vote.public_view``; the turn seat's pending
        choice only in an open vote) or, between votes, the tokens and the Balance."""
        if self.vote is not None:
            pads = self.pads if self.vote.mode == kd_vote.OPEN else None
            return kd_vote.public_view(self.vote, pads)
        return {
            "game": kd_vote.GAME,
            "phase": None,
            "players": list(self.players),
            "leader": self.leader,
            "moderator": self.moderator,
            "balance": self.balance,
        }

    def lights(self) -> list[Light]:
        return lights_for(self.view())

    def setup_order(self) -> kd_campaign.GameSetup:
        return self.campaign.setup(self.players)

    # --- actions ------------------------------------------------------------------------

    def start_vote(self, mode: str) -> None:
        self.vote = kd_vote.new_vote(
            self.players,
            leader=self.leader,
            moderator=self.moderator,
            power=self.power,
            coins=self.coins,
            balance=self.balance,
            mode=mode,
        )
        self.pads = kd_vote.pads_for(self.vote)
        self.balance_before = self.balance
        self.refused = None

    def press(self, event: ButtonEvent) -> bool:
        """A seat's button during the vote (or the moderator's A/B on a tie); True if
        anything public may have changed. A refused press in a secret vote changes
        nothing at all, so the screen can't tell what was on the pad."""
        vote = self.vote
        if vote is None or event.seat >= len(self.players):
            return False
        if vote.phase == kd_vote.TIE:
            side = kd_vote.BUTTON_SIDES.get(event.button)
            if self.players[event.seat] == vote.moderator_name and side:
                self.break_tie(side)
                return True
            return False
        try:
            pads, action = kd_vote.press(vote, self.pads, event)
            self.vote = kd_vote.apply(vote, action) if action else vote
        except RuleError as exc:
            if vote.mode == kd_vote.SECRET:
                return False
            log.info("kings-dilemma: refused press: %s", exc)
            self.refused = self.players[event.seat]
            return True
        self.pads = pads
        self.refused = None
        self._after_vote()
        return True

    def break_tie(self, side: str) -> None:
        assert self.vote is not None
        self.vote = kd_vote.apply(self.vote, kd_vote.BreakTie(self.vote.moderator_name, side))
        self._after_vote()

    def choose_leader(self, name: str) -> None:
        assert self.vote is not None
        self.vote = kd_vote.apply(self.vote, kd_vote.ChooseLeader(self.vote.moderator_name, name))
        self._after_vote()

    def _after_vote(self) -> None:
        """A cleaned-up vote hands its tokens, power, coins and Balance on to the game."""
        vote = self.vote
        if vote is None or vote.phase != kd_vote.DONE:
            return
        self.power = dict(zip(vote.players, vote.power, strict=True))
        self.coins = dict(zip(vote.players, vote.coins, strict=True))
        self.balance, self.leader, self.moderator = (
            vote.balance,
            vote.leader_name,
            vote.moderator_name,
        )

    def close_vote(self) -> None:
        """The resolved vote goes to the record; the council waits for the outcome."""
        self.last_vote, self.vote, self.pads = self.vote, None, ()

    def apply_outcome(self, changes: Sequence[tuple[str, int]]) -> None:
        """The dilemma's printed changes, left to right; then the next dilemma."""
        self.kingdom, self.moves = kd_kingdom.apply_outcome(
            self.kingdom, [kd_kingdom.Change(r, n) for r, n in changes if n]
        )
        self.dilemma += 1

    def score(
        self,
        agendas: dict[str, SecretAgenda],
        open_agendas: dict[str, Sequence[OpenAgenda]] | None = None,
        coins: dict[str, int] | None = None,
        power: dict[str, int] | None = None,
    ) -> FinalScore:
        """End of game: agenda cards as read by the table; coins and power as counted
        behind the screens (default: what the companion tracked)."""
        self.final = final_score(
            self.players,
            coins or self.coins,
            power or self.power,
            self.kingdom.positions(),
            agendas,
            open_agendas or {},
        )
        return self.final

    def record(self, agendas: dict[str, str], by_hand: dict | None = None) -> None:
        """The finished game into the campaign ledger."""
        assert self.final is not None
        totals = {p.name: p.total for p in self.final.players}
        self.campaign = kd_campaign.apply(
            self.campaign,
            kd_campaign.RecordGame(
                kd_campaign.end_of_game(self.kingdom), totals, agendas, by_hand or {}
            ),
        )
