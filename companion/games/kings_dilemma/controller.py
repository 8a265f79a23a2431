"""The King's Dilemma controller: a game night as the screens see it. The night's
``Session`` (rules adapter ``companion.games.kings_dilemma.adapter``, every action journaled), its
``SeatPads`` (the button grammar of docs/button-grammar.md, tie-break included; secret
ballots go to the journal's private part) and the campaign ledger.

Screens draw only from ``view()``, the adapter's public view (in a secret vote, per seat
only whether it has locked; the pending choice on a seat's buttons only for the seat on
turn of an open vote), and who acts is ``turns()``, declared from that same view.

Its length: the controller, the coin toss and the end of the night share the campaign
ledger and the night's session; split, each part would reach into the others' state.

The campaign ledger is kept in the data directory beside the journal
(``companion.games.kings_dilemma.ledger``): a new game night starts from it, and the scored night is
recorded into it (and saved) before the night leaves the journal's unfinished games, so a
power cut in between resumes on the end scoring and never records a night twice. Without a
journal nothing is kept: the night is journaled in a throwaway journal (``Session.start``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

from companion.games.kings_dilemma import adapter as kd_game
from companion.games.kings_dilemma import campaign as kd_campaign
from companion.games.kings_dilemma import data as kd_data
from companion.games.kings_dilemma import kingdom as kd_kingdom
from companion.games.kings_dilemma import ledger as kd_ledger
from companion.games.kings_dilemma import say as kd_say
from companion.games.kings_dilemma import score as kd_score
from companion.games.kings_dilemma import vote as kd_vote
from companion.games.kings_dilemma.say import Say, say
from companion.play import turns as shared
from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent, Light
from companion.play.seatview import SeatFigure, SeatView
from companion.play.session import Session
from companion.play.turns import (
    IGNORED,
    NOBODY,
    NOT_YOUR_TURN,
    NOT_YOUR_UNDO,
    UNDONE,
    Reply,
    Turns,
    lights,
)
from companion.play.words import Words
from companion.storage.history import GameResult, result_of
from companion.storage.journal import Journal

log = logging.getLogger(__name__)

__all__ = ["UNDONE", "RuleError", "Say"]  # for the screens, which import no engine module

# What the screens name: the two kinds of vote, the sides, the kingdom's resources in the
# board's order and a marker's white (up) side, the seats a night takes.
OPEN, SECRET = kd_vote.OPEN, kd_vote.SECRET
SIDES = kd_vote.SIDES
RESOURCES = kd_kingdom.RESOURCES
UP = kd_kingdom.UP
SEATS = (kd_vote.MIN_PLAYERS, kd_vote.MAX_PLAYERS)

# The night's steps, each shown by its own screen: between votes, a vote in progress, the
# reveal (a tie or the Leader token to give, the result, the outcome to enter), the secret
# agendas read at the end, the end scoring.
COUNCIL, VOTE, REVEAL, AGENDAS, SCORE = "council", "vote", "reveal", "agendas", "score"
# A seat's press refused by the button grammar (``Reply.did``; the reason in ``refused``).
REFUSED = "refused"
# What the reveal waits for: the moderator to break a tie, to give the Leader token, or
# the outcome on the card.
TIE, LEADER, OUTCOME = "tie", "leader", "outcome"


def unfinished_night(journal: Journal | None) -> int | None:
    """The last night left unfinished in ``journal`` (its game id), if any."""
    if journal is None:
        return None
    for record in reversed(journal.unfinished()):
        if record.game == kd_game.GAME:
            return record.id
    return None


class CoinToss:
    """A new night before it starts: each resource marker on the side its coin fell (a
    tap turns it), the saved campaign the night starts from and the Leader it names."""

    def __init__(self, players: Sequence[str], journal: Journal | None) -> None:
        self.players = tuple(players)
        self.journal = journal
        self.ledger = ledger_for(journal)
        self.momenta = dict.fromkeys(kd_kingdom.RESOURCES, kd_kingdom.UP)
        self.campaign: kd_campaign.Campaign | None = None
        try:
            self.read()
        except kd_ledger.LedgerUnreadable:  # said when Start needs it
            pass

    def read(self) -> kd_campaign.Campaign:
        """The campaign the night starts from, read from the ledger once (a ledger that
        can't be read raises ``LedgerUnreadable`` and is read again next time)."""
        if self.campaign is None:
            saved = (self.ledger.load() if self.ledger is not None
                     else kd_campaign.new_campaign(kd_data.shipped().settings))
            self.campaign = with_houses(saved, self.players)
        return self.campaign

    def turn(self, resource: str) -> None:
        """A tap on a resource: its marker shows the other side."""
        up = self.momenta[resource] == kd_kingdom.UP
        self.momenta[resource] = kd_kingdom.DOWN if up else kd_kingdom.UP

    def leader(self) -> str | None:
        """The night's Leader, who tosses the coins (None while the ledger can't be read)."""
        return self.campaign.setup(self.players).leader if self.campaign else None

    def headline(self) -> Say:
        leader = self.leader()
        return say("kd.setup.turn", name=leader) if leader else say("kd.setup.hint")

    def turns(self) -> Turns:
        """The Leader, who tosses the coins, acts (nobody while the ledger can't be read)."""
        leader = self.leader()
        return Turns(acting=frozenset({self.players.index(leader)})) if leader else NOBODY

    def start(self) -> NightController:
        """The night, journaled, from the saved campaign (``LedgerUnreadable`` if it still
        can't be read: no night starts, a new campaign would be saved over it)."""
        return NightController.new(self.players, self.journal, self.momenta,
                                   campaign=self.read(), ledger=self.ledger)


TOKEN_STATES = ((), ("+",), ("-",), ("+", "-"))
TOKEN_STATE_KEYS = {(): "none", ("+",): "plus", ("-",): "minus", ("+", "-"): "both"}


class EndOfNight:
    """What the houses read out at the end of the night, one house after the other: the
    secret agenda card it chose (a card another house chose is skipped), its points, its
    open agenda tokens (a token another house holds is skipped; at most two of a sign)."""

    def __init__(self, night: NightController) -> None:
        self.night = night
        self.agendas: dict[str, dict] = {}
        self.cards: dict[str, str] = {}
        self.tokens: dict[str, list[str]] = {}

    def cards_free(self, house: str) -> list[str]:
        taken = {c for h, c in self.cards.items() if h != house}
        return [c for c in self.night.campaign.settings.agendas if c not in taken]

    def first_card(self, house: str) -> str:
        return self.cards_free(house)[0]

    def next_card(self, house: str, card: str) -> str:
        """A tap on the card: the next one no other house has chosen."""
        free = self.cards_free(house)
        return free[(free.index(card) + 1) % len(free)]

    def read_agenda(self, house: str, card: str, values: Mapping[str, int]) -> None:
        """The house's card and its points as read off it."""
        self.agendas[house] = {
            "resources": values.get("resources", 0),
            "wealth": [values.get(f"wealth_{k}", 0) for k in (1, 2, 3)],
        }
        self.cards[house] = card

    def next_tokens(self, house: str, signs: Mapping[str, tuple[str, ...]],
                    resource: str) -> tuple[str, ...]:
        """A tap on a resource's tokens: the next state (none, +, −, both) this house may
        hold for it beside its others and the houses' read before (the rules':
        ``kd_score.open_agendas_allowed``)."""
        read = {h: tokens for h, tokens in self.tokens.items() if h != house}
        kept = [t for t in token_list(signs) if t[1:] != resource]

        def allowed(states: tuple[str, ...]) -> bool:
            mine = kept + [f"{s}{resource}" for s in states]
            return kd_score.open_agendas_allowed({**read, house: mine})

        k = TOKEN_STATES.index(tuple(signs[resource]))
        for step in range(1, len(TOKEN_STATES) + 1):
            states = TOKEN_STATES[(k + step) % len(TOKEN_STATES)]
            if allowed(states):
                return states
        return tuple(signs[resource])

    def read_tokens(self, house: str, signs: Mapping[str, tuple[str, ...]]) -> bool:
        """The house's open tokens; the last house's scores the night (True)."""
        self.tokens[house] = token_list(signs)
        if len(self.tokens) < len(self.night.players):
            return False
        self.night.score(self.agendas, self.tokens, self.cards)
        return True


def token_list(signs: Mapping[str, tuple[str, ...]]) -> list[str]:
    """``{"morale": ("+",)}`` → ``["+morale"]``."""
    return [f"{sign}{r}" for r, states in signs.items() for sign in states]


def award_value(value: int, by: int) -> int:
    """Prestige and crave entered by hand: never below 0."""
    return max(0, value + by)


def ledger_for(journal: Journal | None) -> kd_ledger.LedgerFile | None:
    """The campaign ledger file beside ``journal`` (None: no journal, nothing kept)."""
    if journal is None:
        return None
    return kd_ledger.LedgerFile(journal.path.parent, kd_data.shipped().settings)


def with_houses(campaign: kd_campaign.Campaign, players: Sequence[str]) -> kd_campaign.Campaign:
    """``campaign`` with a house screen for every player who has none yet (the lowest free
    house numbers, in seating order)."""
    low, high = campaign.settings.house_numbers
    free = iter(n for n in range(low, high + 1)
                if n not in {h.number for h in campaign.houses})
    for name in players:
        if not any(h.name == name for h in campaign.houses):
            number = next(free, None)
            if number is None:
                raise RuleError("houses", f"no house screen left for {name} ({low}–{high})",
                                code="no_house_screen",
                                params={"house": name, "low": low, "high": high})
            campaign = kd_campaign.apply(campaign, kd_campaign.AddHouse(name, number))
    return campaign


class NightController:
    """One game night in progress at the table (3–5 houses in seating order)."""

    def __init__(self, session: Session, campaign: kd_campaign.Campaign | None = None,
                 ledger: kd_ledger.LedgerFile | None = None) -> None:
        self.session = session
        self.pads = kd_game.SeatPads(session)
        setup = session.setup
        if campaign is None and "campaign" in setup:
            campaign = kd_campaign.Campaign.from_dict(setup["campaign"])
        self.campaign = campaign
        self.ledger = ledger
        # The ledger as the night started: its games count tells whether this night is
        # already recorded (a power cut between saving the ledger and finishing the night).
        self.games_before = len(campaign.games) if campaign else 0
        self._saved: kd_campaign.Campaign | None = None  # the ledger as read (``saved``)
        self._saved_read = False
        self.refused: tuple[str, RuleError] | None = None  # (who, why): open vote only
        # seat -> what the shared layer answered its press (a watching seat's), on its
        # own plate until the night moves
        self.answers: dict[int, Words] = {}
        self.played: GameResult | None = None  # the history row, once the night is finished
        self.finished = False  # the night finished in the journal (``finish``)

    @classmethod
    def new(cls, players: Sequence[str], journal: Journal | None = None,
            momenta: dict[str, str] | None = None,
            campaign: kd_campaign.Campaign | None = None,
            ledger: kd_ledger.LedgerFile | None = None) -> NightController:
        """A game night with the shipped data file, from ``campaign`` (else the saved
        ledger of ``ledger``, else a new campaign); players without a house screen get one;
        power and coins stay behind the screens. Without a journal, the night is journaled
        in a temporary folder removed when the table is closed or dropped."""
        if campaign is None:
            campaign = (ledger.load() if ledger is not None
                        else kd_campaign.new_campaign(kd_data.shipped().settings))
        campaign = with_houses(campaign, players)
        setup = {
            "players": list(players),
            "campaign": campaign.to_dict(),
            "momenta": momenta or dict.fromkeys(kd_kingdom.RESOURCES, kd_kingdom.UP),
            "public": {"power": False, "coins": False},
        }
        return cls(Session.start(journal, kd_game.KingsDilemma(), setup), campaign, ledger)

    @classmethod
    def resume(cls, journal: Journal, game_id: int) -> NightController:
        """The unfinished night ``game_id`` of ``journal``, as the journal left it (a secret
        vote: the locks, no ballot), with the campaign ledger beside the journal."""
        return cls(Session.resume(journal, kd_game.KingsDilemma(), game_id),
                   ledger=ledger_for(journal))

    def close(self) -> None:
        """Remove the temporary journal of a night not kept (nothing for a kept one)."""
        self.session.close()

    # --- what the screens may show ------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.session.setup["players"])

    def view(self) -> dict:
        return self.pads.view()

    def subscribe(self, listener) -> None:
        """``listener(view)`` after every change of the night, and of the pending choice on
        turn of an open vote."""
        self.session.subscribe(listener)
        self.pads.subscribe(listener)

    def private_view(self, seat: int) -> dict | None:
        """What only ``seat``'s own phone may show (``SeatPads.private_view``): the secret
        ballot it is about to lock; None when there is nothing private."""
        return self.pads.private_view(seat)

    def vote_view(self) -> dict:
        """The current (or last) vote's public view, with the tokens as they stand."""
        return self.view()["vote"]

    def step(self) -> str:
        """Which of the night's steps it is at (``COUNCIL``, ``VOTE``, ``REVEAL``,
        ``AGENDAS``, ``SCORE``): the screen to show after a resume or an undo."""
        view = self.view()
        phase = view["phase"]
        if phase == kd_game.VOTE:
            return VOTE if view["vote"]["phase"] == kd_vote.VOTING else REVEAL
        return {kd_game.OUTCOME: REVEAL, kd_game.OVER: AGENDAS,
                kd_game.SCORED: SCORE}.get(phase, COUNCIL)

    def waiting_for(self) -> str:
        """What the reveal waits for: ``TIE`` (the moderator decides), ``LEADER`` (the
        moderator gives the token to a winner) or ``OUTCOME``."""
        phase = self.vote_view()["phase"]
        return {kd_vote.TIE: TIE, kd_vote.LEADER_CHOICE: LEADER}.get(phase, OUTCOME)

    def over(self) -> bool:
        """The king is dead or has abdicated: the agendas are read next."""
        return self.view()["phase"] in (kd_game.OVER, kd_game.SCORED)

    def headline(self) -> Say:
        """Who acts now and what, for the step the night is at: the Leader reads the next
        dilemma; in a vote, the seat on turn or the houses still to lock; after the reveal,
        the moderator's decision or the result and the Leader who reads the outcome; at
        the end, the first house to read its agenda."""
        view = self.view()
        step = self.step()
        if step == VOTE:
            return kd_say.vote_headline(view["vote"])
        if step == REVEAL:
            return kd_say.reveal_headline(view["vote"])
        if self.over():
            return say("kd.kingdom.over", name=self.players[0])
        return say("kd.council.turn", name=view["leader"], number=self.dilemma)

    def outcome_headline(self) -> Say:
        """The Leader reads the dilemma's outcome; the table enters it."""
        return say("kd.outcome.turn", name=self.view()["leader"])

    def seat_views(self) -> dict[int, SeatView]:
        """Each house's own plate, from the public view only (a secret ballot's content is
        never in it: locked or not yet): its power and coins when the table tracks them;
        lit when its light says it acts (its turn, a tie to break), with what it must do and
        what its buttons do in a vote (the button grammar's lines)."""
        view = self.view()
        said = self.turns()
        lit = lights(said)
        idle = said.idle
        undoer = self.pads.undoer() if idle else None
        vote = view["vote"]
        voting = view["phase"] == kd_game.VOTE and vote is not None
        out = {}
        for name, seat in zip(view["players"], view["seats"], strict=True):
            figures = []
            if view.get("power") is not None:
                figures.append(SeatFigure(Words("seat.figure.power"), str(view["power"][name])))
            if view.get("coins") is not None:
                figures.append(SeatFigure(Words("seat.figure.coins"), str(view["coins"][name])))
            acts = lit.get(seat) in (Light.YOUR_TURN, Light.ATTENTION)
            todo = help_ = None
            if voting and vote["phase"] in (kd_vote.TIE, kd_vote.LEADER_CHOICE):
                if name == vote["moderator"] and vote["phase"] == kd_vote.TIE:
                    todo = Words("seat.todo.break_tie")
            elif voting and vote["phase"] == kd_vote.VOTING:
                if vote["mode"] == kd_vote.SECRET:
                    locked = vote["seats"][name]["locked"]
                    todo = Words("seat.todo.locked" if locked else "seat.todo.lock")
                    acts = not locked
                elif name == vote.get("turn"):
                    todo = Words("seat.todo.vote")
                if acts:
                    help_ = Words("seat.help.line", {"parts": tuple(
                        kd_say.grammar_help(vote["mode"]))})
            elif acts and view["phase"] in (kd_game.COUNCIL, kd_game.OUTCOME):
                todo = Words("seat.todo.read")
            if seat == undoer and seat in idle:  # its own last action: a hold takes it back
                help_ = Words("seat.help.line", {"parts": (Words("seat.help.hold_a_undo"),)})
                todo = Words("seat.todo.undo_vote_again" if self.pads.undo_asked() == seat
                             else "seat.todo.take_back")
            out[seat] = SeatView(seat, your_turn=acts, todo=todo, help=help_,
                                 reply=self.answers.get(seat) or self.refusal_reply(name),
                                 figures=tuple(figures))
        for seat, answer in self.answers.items():  # a watching seat that pressed
            out.setdefault(seat, SeatView(seat, reply=answer))
        return out

    def refusal_reply(self, name: str) -> Words | None:
        """An open vote's refused press, answered on the plate of the house that pressed
        (the table's instruction stays): whose turn it is, or the engine's reason."""
        if self.refused is None or self.refused[0] != name:
            return None
        exc = self.refused[1]
        if exc.code == "not_your_turn":
            return Words("seat.reply.not_your_turn", {"player": exc.params["current"]})
        return Words("seat.reply.reason", {"reason": exc})

    def turns(self) -> Turns:
        """Who acts in the night, from the public view (``games.kings_dilemma.turns``);
        once the reign is over, the first house to read its agenda."""
        if self.view()["phase"] == kd_game.OVER:
            return self.reading_turns(self.players[0])
        return kd_game.turns(self.view())

    # The end of the night's steps (agendas read aloud, awards entered by hand, the
    # campaign after) are the screens' own, not the session's: each asks here who acts,
    # naming the step's house or rank.

    def reading_turns(self, house: str) -> Turns:
        """A house reading its agenda card and its open agenda tokens aloud acts, every
        other seat is dark."""
        return self._houses(acting=(house,))

    def award_turns(self, rank: str) -> Turns:
        """Prestige and crave entered by hand for ``rank``: the houses that reached it
        act, every other seat is dark."""
        return self._houses(acting=[h for h, r in self.ranks().items() if r == rank])

    def campaign_turns(self) -> Turns:
        """The campaign after the night: the next night's moderator marked MODERATOR and
        leader LEADER (one house holding both shows LEADER), every other seat dark."""
        setup = self.setup_order()
        if setup is None:
            return self._houses()
        return self._houses(marks={setup.moderator: Light.MODERATOR, setup.leader: Light.LEADER})

    def _houses(self, marks: Mapping[str, Light] | None = None,
                acting: Sequence[str] = ()) -> Turns:
        view = self.view()
        seat = dict(zip(view["players"], view["seats"], strict=True))
        return Turns(tuple(view["seats"]),
                     marks={seat[h]: light for h, light in (marks or {}).items()},
                     acting=frozenset(seat[h] for h in acting))

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
        self.answers.clear()

    def press(self, event: ButtonEvent) -> Reply:
        """A seat's button, through the button grammar (``SeatPads``: on a tie the
        moderator holds Aye or Nay); ``public`` if anything visible may have changed. A
        secret press answers ``SILENT`` (``companion.play.turns``) and changes nothing at all;
        an open vote's refusal is kept in ``refused`` for the screen to say."""
        view = self.view()
        if (view["phase"] != kd_game.VOTE or view["vote"] is None) \
                and not shared.asks_undo(self.turns(), event):
            # no press is read between votes, but a watching seat is still told it watches
            # (a hold that asks for an undo once the result is in goes to the pads)
            reply = shared.press(self.turns(), event, lambda e: Reply(IGNORED, public=False))
        else:
            try:
                reply = self.pads.press(event)
            except RuleError as exc:  # never in a secret vote: its refusals are SILENT
                return self._refuse(event, view, exc)
        if reply.answer is not None:  # the shared layer's (a watching seat): on its plate
            self.answers[event.seat] = reply.answer
            return reply
        if reply.did == NOT_YOUR_UNDO:  # the shared layer's: on the seat's own plate
            self.answers[event.seat] = self.undo_refusal(event.seat)
            return reply
        if reply.did == NOT_YOUR_TURN:  # the shared layer's: said as the rules say it
            name = view["players"][view["seats"].index(event.seat)]
            self._refuse(event, view, kd_vote.not_your_turn(view["vote"]["turn"], name,
                                                            "button"))
            return reply
        if reply.public:  # an undo asked or made by a hold too
            self.refused = None
            self.answers.clear()
        return reply

    def undo_refusal(self, seat: int) -> Words:
        """A hold asking for an undo from a seat that did not make the night's last
        action, answered on its own plate: a seat that voted too is told only the last
        vote can be taken back, any other who can undo (or that the touchscreen does)."""
        made = self.pads.last_by_a_seat()
        if made is None:
            return Words("seat.reply.undo_on_screen")
        view = self.view()
        name = view["players"][view["seats"].index(seat)]
        state = view["vote"]["seats"][name]
        if made[1] in (kd_vote.Lock.name, kd_vote.Play.name) and (
                state.get("locked") or state.get("vote") is not None):
            return Words("seat.reply.undo_last_vote_only")
        return Words("seat.reply.undo_not_yours",
                     {"player": view["players"][view["seats"].index(made[0])]})

    def _refuse(self, event: ButtonEvent, view: Mapping, exc: RuleError) -> Reply:
        """An open vote's refused press: its reason kept in ``refused`` for the screen and
        the seat's plate to say."""
        log.info("kings-dilemma: refused press: %s", exc)
        if event.seat in view["seats"]:
            self.refused = (view["players"][view["seats"].index(event.seat)], exc)
            return Reply(REFUSED)
        return Reply(IGNORED, public=False)

    def can_undo(self) -> bool:
        """Whether the journal holds an action of this night to take back."""
        return self.session.can_undo()

    def undo(self) -> dict | None:
        """Take back the night's last journaled action (returns its public part, None if
        there was none); every seat's pending choice is forgotten. An undone secret lock
        is deleted with its private part: that seat is "not yet" again and its ballot is
        never shown."""
        self.refused = None
        self.answers.clear()
        return self.pads.undo()

    def _moderator(self) -> str:
        return self.vote_view()["moderator"]

    def break_tie(self, side: str) -> None:
        self.session.dispatch({"action": "break-tie", "player": self._moderator(), "side": side})

    def choose_leader(self, name: str) -> None:
        self.session.dispatch({"action": "choose-leader", "player": self._moderator(),
                               "leader": name})

    def king_dies(self) -> None:
        """The timeline rules on the dilemma cards end the game: the king dies."""
        self.session.dispatch({"action": "king-dies"})

    def apply_outcome(self, changes: Sequence[tuple[str, int]], king_dies: bool = False) -> None:
        """The dilemma's printed changes, left to right."""
        self.session.dispatch({
            "action": "outcome", "king_dies": king_dies,
            "changes": [{"resource": r, "amount": n} for r, n in changes if n],
        })

    def score(self, agendas: dict[str, dict], open_agendas: dict[str, list[str]] | None = None,
              cards: dict[str, str] | None = None) -> dict:
        """End of game: each house's secret agenda as read off the card
        (``{"resources": n, "wealth": [a, b, c]}``), its open agenda tokens and which
        secret agenda card it chose (for the campaign ledger)."""
        action: dict = {"action": "score", "agendas": agendas}
        if open_agendas:
            action["open_agendas"] = open_agendas
        if cards:
            action["cards"] = cards
        return self.session.dispatch(action)["final"]

    def to_finish(self) -> bool:
        """Whether the night is scored and not yet finished in the journal; if so,
        ``played`` now holds its history row (None: a result the history refuses, logged).
        ``Table.end_game``, the one writer of the history, keeps it, then calls ``finish``."""
        if self.finished or self.view()["final"] is None:
            return False
        try:
            self.played = result_of(self.view()["final"], **self.session.history_facts())
        except RuleError as exc:
            self.played = None
            log.warning("kings-dilemma: result not kept in the history: %s", exc)
        return True

    def finish(self) -> None:
        """The scored night leaves the journal's unfinished games, once."""
        if self.finished:
            return
        self.session.finish(self.view()["final"])
        self.finished = True

    # --- the campaign -------------------------------------------------------------------

    def ranks(self) -> dict[str, str]:
        """Each house's rank in the scored game (1st…4th, last)."""
        final = self.view()["final"]
        return kd_campaign.game_ranks({p["name"]: p["total"] for p in final["players"]})

    def all_first(self) -> bool:
        """Every house tied first (the house rule: none behind to be last)."""
        return set(self.ranks().values()) == {"1st"}

    def houses_at(self, rank: str) -> list[str]:
        return [h for h, r in self.ranks().items() if r == rank]

    def missing_awards(self) -> list[tuple[str, list[str]]]:
        """The prestige/crave values the table must enter by hand for this game: per rank
        reached (best first), the keys the prestige table leaves empty."""
        end, table = self.view()["ended"], self._base().settings.table
        out = []
        for rank in kd_campaign.RANKS:
            if rank in self.ranks().values():
                award = table.award(end, rank)
                keys = [k for k in ("prestige", "crave") if getattr(award, k) is None]
                if keys:
                    out.append((rank, keys))
        return out

    def new_campaign(self) -> None:
        """Start the campaign over with the houses at the table: the saved ledger is kept
        aside (``kd_ledger``) and the new one saved; a night in progress will be recorded
        into the new campaign."""
        settings = kd_data.shipped().settings
        fresh = (self.ledger.start_over() if self.ledger is not None
                 else kd_campaign.new_campaign(settings))
        self.campaign = with_houses(fresh, self.players)
        self.games_before = 0
        if self.ledger is not None:
            self.ledger.save(self.campaign)
            self._saved_read = False

    def saved(self) -> kd_campaign.Campaign | None:
        """The campaign ledger as saved (None: no ledger kept, or none saved yet), read
        from its file once and kept until this night saves it or starts it over: the end
        of the night's screens ask for it several times a tap. A ledger that can't be read
        (``LedgerUnreadable``) is not kept: the next tap reads it again."""
        if self.ledger is None:
            return None
        if not self._saved_read:
            self._saved = self.ledger.load() if self.ledger.path.exists() else None
            self._saved_read = True
        return self._saved

    def _base(self) -> kd_campaign.Campaign:
        """The campaign the night is recorded into: the ledger as saved now, if one is (a
        New campaign during the night included), else the night's own."""
        saved = self.saved()
        return with_houses(saved, self.players) if saved is not None else self.campaign

    def campaign_rows(self) -> list[tuple[str, int, int, int, str | None, int | None]]:
        """The campaign ledger per house: name, house number, prestige, crave, the agenda
        card it chose last game and its place in picking the next one (None: none). Empty
        for a night set up without a ledger (leader and moderator given, as a table file
        may)."""
        campaign, setup = self.campaign, self.setup_order()
        if campaign is None or setup is None:
            return []
        order = setup.agenda_order
        agendas = dict(campaign.games[-1].agendas) if campaign.games else {}
        return [(h.name, h.number, h.prestige, h.crave, agendas.get(h.name),
                 order.index(h.name) + 1 if h.name in order else None)
                for h in campaign.houses]

    def recorded(self) -> bool:
        """This night is already in the saved ledger (the ledger has a game more than when
        the night started)."""
        saved = self.saved()
        return saved is not None and len(saved.games) > self.games_before

    def record(self, entered: dict[str, dict[str, int]] | None = None) -> None:
        """The scored game into the campaign ledger with the agenda card each house chose
        (given with the score): prestige/crave from the data file's table, the values it
        lacks ``entered`` by hand per rank (``{rank: {"prestige": n, "crave": n}}``, kept
        in the ledger's table for the next games); the ledger is saved when kept. A night
        already recorded is not recorded twice."""
        if self.recorded():
            self.campaign = self.saved()
            return
        view = self.view()
        entered = entered or {}
        ranks = self.ranks()
        totals = {p["name"]: p["total"] for p in view["final"]["players"]}
        by_hand = {house: dict(entered[rank]) for house, rank in ranks.items() if rank in entered}
        campaign = kd_campaign.apply(self._base(), kd_campaign.RecordGame(
            view["ended"], totals, view["cards"], by_hand))
        table = kd_ledger.with_cells(campaign.settings.table,
                                     {(view["ended"], r): v for r, v in entered.items()})
        self.campaign = replace(campaign, settings=replace(campaign.settings, table=table))
        if self.ledger is not None:
            self.ledger.save(self.campaign)
            self._saved_read = False
