"""The Koryŏ and Chosŏn controller: one game in progress, between its screen and its
``Session``. Seat presses and touch intents come in, the session's public view goes out,
and every rule of what a press or a tap means lives here:

- **A** = the next step (start the round, no time travel, end the turn, end the round),
  **B** = the card entry, **C** = the powers, each from the seat whose turn it is (the
  first player's seat between turns); a press from another seat is refused;
- a **long press** asks for an undo, only from the seat that made the last action (a
  watching seat can't undo someone's move; after a resume too); that seat's second long
  press (or the screen's Undo, itself two taps) carries it out;
- a card count the deck or the deal cannot have is refused as it is entered; an order not
  yet legal (a combination being built) is let through, the reveal checks it;
- what a press answers (not your turn, not your undo, refused, undone…) is ``reply``, a
  sentence the screen shows as it is;
- who acts comes from the view (``MajorityGame.turns``; the lights and the refusals every
  game shares: ``companion.play.turns``); a game over is recorded in the history and finished
  in the journal once.

What the screen shows comes from here as data, so the screens only draw: every sentence
(the top line, the powers of the phase, protections, limit warnings, the tie-breaker,
Chosŏn's tokens) is ``Words``, a catalog key and its params, a card kind among them a
``Kind`` the screen names in its language; the majority board's columns are ``board()``;
the final breakdown's rows ``final_rows()``; the player counts and card names of a game
``player_counts``/``card_names``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

from companion.games.majority.adapter import MajorityGame, event_names
from companion.games.registry import acting_player, round_number, rules_for
from companion.play import turns as shared
from companion.play.controller import FollowsSession
from companion.play.errors import RuleError  # a refused set-up or action: screens say it
from companion.play.seat import ButtonEvent, Press
from companion.play.seatview import SeatFigure, SeatView
from companion.play.session import Session
from companion.play.turns import (
    IGNORED,
    NOT_YOUR_TURN,
    NOT_YOUR_UNDO,
    UNDO_ASKED,
    UNDONE,
    Reply,
    Turns,
)
from companion.play.words import Seat, Words
from companion.storage.history import GameResult, result_of
from companion.storage.journal import Journal

log = logging.getLogger(__name__)


# What a seat press did (``Reply.did``), for the screen to show; the refusals every game
# shares (IGNORED, NOT_YOUR_TURN, NOT_YOUR_UNDO) and the undo by a hold (UNDO_ASKED,
# UNDONE) are ``companion.play.turns``'.
STEPPED, REFUSED = "stepped", "refused"
OPEN_ENTRY, OPEN_POWERS = "open-entry", "open-powers"
NOTHING_TO_UNDO = "nothing-to-undo"  # asking and undoing: ``companion.play.turns``'
DISCARD_FIRST = "discard-first"
# What a press does while a power's options are open (on the seat of the power's player).
CHOICE_NEXT, CHOICE_TAKE, CHOICE_BACK = "choice-next", "choice-take", "choice-back"
OPTIONS_PER_PAGE = 4  # the powers screen's page: more options are picked field by field


@dataclass(frozen=True)
class Kind:
    """A card kind named in a sentence (a family's value or an event key): the screen names
    it in its language, in the plural or not."""

    kind: int | str
    plural: bool = False


# Chosŏn's riposte tokens, as the engine names them -> catalog key.
TOKENS = {"Return Fire": "return_fire", "Counter-Attack": "counter_attack"}
# What the final screen breaks each player's total into, after the families, per game.
FINAL_ROWS = {"koryo": ("events", "tokens"),
              "choson": ("tokens", "kept_events", "first_player", "yi_legacy")}


@dataclass(frozen=True)
class BoardCell:
    """One player's count in one column of the majority board, and whether it holds the
    family's majority (``HELD``; ``BROKEN``: by the tie-breaker in force) or ties for it."""

    n: int
    mark: str = ""


HELD, BROKEN, TIED = "held", "broken", "tied"
EVENTS, VP = "events", "vp"  # the board's columns after the families


@dataclass(frozen=True)
class BoardColumn:
    """A column of the majority board: a family in play (``kind`` its value, ``"9"``…),
    the events in front of the players (``EVENTS``) or the VP tokens (``VP``), with a cell
    per player in the view's order."""

    kind: str
    cells: tuple[BoardCell, ...]

    @property
    def family(self) -> int | None:
        return int(self.kind) if self.kind.isdigit() else None


@dataclass(frozen=True)
class EntryRefusal:
    """A card count refused as it is entered: the catalog key and its numbers."""

    key: str
    params: dict = field(default_factory=dict)


class MajorityController(FollowsSession):
    """One Koryŏ or Chosŏn game (``session``) as its screen plays it."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.rules: MajorityGame = session.rules  # type: ignore[assignment]
        self.undo_request: int | None = None  # the seat asking for an undo
        self.refusal: RuleError | None = None  # the last refused action's reason
        self.reply: Words | None = None  # what the last seat press answers
        # seat -> what its last press was answered, on its own plate: a refusal (not its
        # turn, not its undo) said to the seat that pressed, until the game moves
        self.replies: dict[int, Words] = {}
        # the player whose discard a seat's C opened at the end of a round (None: the
        # powers of the acting seat)
        self.opened_for: str | None = None
        self.recorded = False
        self.played: GameResult | None = None  # the history row, once the game is over
        self._offered: tuple[dict, list] | None = None

    def _published(self, view: dict) -> None:
        """The game moved: the seats' answers to their refused presses are past."""
        super()._published(view)
        self.replies.clear()

    @classmethod
    def new(cls, game: str, setup: dict, journal: Journal | None) -> MajorityController:
        """A new game (``koryo``, ``choson``) of ``setup``; RuleError if the rules refuse
        it. Without a journal the game is not kept (``Session.start``)."""
        return cls(Session.start(journal, rules_for(game), setup))

    @classmethod
    def resume(cls, game: str, journal: Journal | None,
               game_id: int | None) -> MajorityController | None:
        """The unfinished game ``game_id`` (None: the latest of this kind), or None."""
        if journal is None:
            return None
        session = Session.resume(journal, rules_for(game), game_id)
        return None if session is None else cls(session)

    # --- what may happen now ------------------------------------------------------------

    def acting(self) -> str:
        """Whose turn it is, or the first player between turns."""
        return acting_player(self._view)

    def seat_of(self, player: str) -> int:
        return self._view["seats"][self._view["players"].index(player)]

    def turns(self) -> Turns:
        """The rules' turns (``MajorityGame.turns``), except at the end of a round while
        discards must be made: the seats that must discard act (as their plates are lit),
        the first player's seat waits (marked FIRST_PLAYER)."""
        turns = self.rules.turns(self._view)
        if self.over():
            return replace(turns, closed=True)
        # a press is heard from the seat whose turn it is (the first player's between
        # turns) and, at the end of a round, from each seat that must discard; a hold
        # asks for an undo (``press`` names the seat that may)
        acting = self.acting_seats()
        turns = replace(turns, hears=frozenset(acting | {self.seat_of(self.acting())}),
                        holds_undo=True)
        if self._view["phase"] == "end" and self.must_discard():
            return replace(turns, acting=frozenset(acting))
        return turns

    def over(self) -> bool:
        return self._view["final"] is not None

    def can_enter(self) -> bool:
        v = self._view
        return v["phase"] in ("orders", "main") and not v["turn"]["revealed"]

    def next_step(self) -> dict | None:
        """The action of the big button: what comes next in the round
        (``MajorityGame.next_step``)."""
        return self.rules.next_step(self._view)

    def offered(self) -> list[tuple[dict, list[dict]]]:
        """Powers of the phase that some action carries out, with those actions (found by
        trying every choice on the engine: kept until the view changes)."""
        if self._offered is None or self._offered[0] is not self._view:
            state = self.session.state
            out = []
            for power in self._view["powers"]:
                options = self.rules.options(state, power)
                if options:
                    out.append((power, options))
            self._offered = (self._view, out)
        return self._offered[1]

    def can_undo(self) -> bool:
        return self.session.can_undo()

    def board(self) -> list[BoardColumn]:
        """The majority board: only the families someone has in play (highest value
        first), then the events in front of the players (any kind, kept or not) when there
        are any, then the VP tokens."""
        v = self._view
        players = v["players"]
        majorities = {str(m["family"]): m for m in v["majorities"]}
        columns = []
        for value in sorted((f["value"] for f in v["families"]), reverse=True):
            key = str(value)
            counts = [v["areas"][p].get(key, 0) for p in players]
            if any(counts):
                m = majorities.get(key)
                columns.append(BoardColumn(key, tuple(
                    BoardCell(n, _mark(m, p)) for p, n in zip(players, counts, strict=True))))
        kept = v.get("kept_events", {})
        events = [sum(n for k, n in v["areas"][p].items() if not k.isdigit()) + kept.get(p, 0)
                  for p in players]
        if any(events):
            columns.append(BoardColumn(EVENTS, tuple(BoardCell(n) for n in events)))
        columns.append(BoardColumn(VP, tuple(BoardCell(v["tokens"][p]) for p in players)))
        return columns

    def must_discard(self) -> dict[str, int]:
        """The players who must discard before the round ends, and how many cards each:
        they act now, each from their own pad, whoever the first player is."""
        return {pw["player"]: pw["params"]["excess"] for pw in self._view["powers"]
                if pw["code"] == "discard" and pw["must"]}

    def acting_seats(self) -> set[int]:
        """The seats that act now: the discarding seats at the end of a round while any
        must discard, else the acting player's (none once the game is over)."""
        if self.over():
            return set()
        discarding = self.must_discard()
        if self._view["phase"] == "end" and discarding:
            return {self.seat_of(p) for p in discarding}
        return {self.seat_of(self.acting())}

    def seat_views(self, choosing: str | None = None) -> dict[int, SeatView]:
        """Each player's own plate, from the public view: VP and the cards counted against
        the round's limit (of the limit); whether the seat acts now,
        what it must do and what its buttons do (``choosing``: the player whose power's
        options are open on the screen, picked from their pad); the answer to its last
        refused press."""
        v = self._view
        g = self.rules.name
        limits = {c["player"]: c for c in v["limits"]}
        acting = self.acting_seats()
        discarding = self.must_discard()
        out = {}
        for player, seat in zip(v["players"], v["seats"], strict=True):
            limit = limits.get(player)
            cards = [] if limit is None else [SeatFigure(
                Words(f"seat.figure.{g}_limit"), f"{limit['counted']}/{limit['limit']}")]
            # two figures, which a plate shows whole beside the name and the line under it
            # at every size (the majorities held are the board's, marked on it for all)
            if player in discarding and v["phase"] == "end":
                # what the discard is about: how many to discard, the cards against the
                # limit (VP, which a discard leaves as it is, comes back after it)
                figures = [SeatFigure(Words("seat.figure.discard"),
                                      str(discarding[player])), *cards]
            else:
                figures = [SeatFigure(Words("seat.figure.vp"), str(v["tokens"][player])),
                           *cards]
            help_ = (Words("seat.help.line", {"parts": (
                Words("seat.help.c_next"), Words("seat.help.a_take"), Words("seat.help.b_back"))})
                if player == choosing else self._help(player, seat, acting, discarding))
            # while its options are open on the screen, what its buttons do is what to do
            todo = help_ if player == choosing else self._todo(player, seat, acting,
                                                                 discarding)
            out[seat] = SeatView(seat, your_turn=seat in acting, todo=todo, help=help_,
                                 reply=self.replies.get(seat), figures=tuple(figures))
        for seat, reply in self.replies.items():  # a watching seat that pressed
            out.setdefault(seat, SeatView(seat, reply=reply))
        return out

    def _todo(self, player: str, seat: int, acting: set[int],
              discarding: dict[str, int]) -> Words | None:
        """What the seat must do now, short enough for its plate."""
        v = self._view
        if self.undo_request == seat:
            return Words("seat.todo.undo_again")
        if player in discarding and v["phase"] == "end":
            return Words("seat.todo.discard")  # how many: the plate's first figure
        if any(pw["must"] and pw["player"] == player for pw in v["powers"]):
            return Words("seat.todo.must_power")  # a power that must be used first
        if seat not in acting:
            return None
        if v["phase"] == "main" and not v["turn"]["revealed"]:
            return Words("seat.todo.reveal")
        step = self.next_step()
        return None if step is None else Words(f"seat.todo.{step['action']}")

    def _help(self, player: str, seat: int, acting: set[int],
              discarding: dict[str, int]) -> Words | None:
        """What the seat's buttons do now, as the button grammar says
        (docs/button-grammar.md): A the next step, B the cards, C the powers (a discard at
        the end of a round), hold to undo the seat's own last action."""
        parts: list[Words] = []
        if seat in acting and not (player in discarding and self._view["phase"] == "end"):
            step = self.next_step()
            if step is not None:
                parts.append(Words("seat.help.a", {"what": Words(f"seat.todo.{step['action']}")}))
            if self.can_enter():
                parts.append(Words("seat.help.b_cards"))
            if self.offered():
                parts.append(Words("seat.help.c_powers"))
        elif player in discarding and self._view["phase"] == "end":
            parts.append(Words("seat.help.c_discard"))
        if self.last_actor() == seat:
            parts.append(Words("seat.help.hold_undo"))
        if not parts:
            return None
        return Words("seat.help.line", {"parts": tuple(parts)})

    # --- what is said --------------------------------------------------------------------

    def power_words(self, power: dict) -> Words:
        """A power of the phase (an item of the view's ``powers``)."""
        g, code, params = self.rules.name, power["code"], power["params"]
        fmt: dict[str, object] = {"player": power["player"], **params}
        if power["family"] is not None:
            fmt["family"] = Kind(power["family"], plural=True)
        key = f"{g}.power.{code}"
        if g == "choson" and code == "take_vp" and not power["must"]:  # from a player
            key += "_from"
        elif code == "sword" and params["n"] > 1:
            key += "_left"
        elif code == "riposte":
            turn = self._view["turn"]
            fmt["attacker"] = self._view["current_player"]
            fmt["character"] = Kind(turn["character"])
            fmt["token"] = Words(f"{g}.token.{TOKENS[turn['riposte'][1]]}")
        return Words(key, fmt)

    def protection_words(self, prot: dict) -> Words:
        """A protection in force (an item of the view's ``protections``): Koryŏ's by the
        protecting family, Chosŏn's Yi's Shield."""
        g = self.rules.name
        key = f"{g}.protection.{prot['family']}" if g == "koryo" else f"{g}.protection.shield"
        return Words(key, {"player": prot["player"], "family": Kind(prot["family"], True)})

    def limit_words(self) -> list[Words]:
        """Players over the end-of-round limit (during the round: a warning ahead; at the end:
        those whose discard power does not already say it, Koryŏ's events)."""
        v = self._view
        discarding = {pw["player"] for pw in v["powers"] if pw["code"] == "discard"}
        return [Words(f"{self.rules.name}.over_limit", {
            "player": c["player"], "counted": c["counted"], "limit": c["limit"]})
            for c in v["limits"] if c["counted"] > c["limit"] and c["player"] not in discarding
            and self.has_characters(c["player"])]

    def has_characters(self, player: str) -> bool:
        """Whether ``player`` has a character in play: one over the limit with none (only
        events, which are never discarded to the limit) has nothing to discard, and is not
        warned about."""
        return any(n for k, n in self._view["areas"][player].items() if k.isdigit())

    def breaker_words(self) -> Words:
        """Which tie-breaker is in force during the rounds: Koryŏ's Omniscient majority,
        Chosŏn's Yi's Shield."""
        v = self._view
        if self.rules.name == "koryo":
            if v["omniscient"]:
                return Words("koryo.breaker", {"player": v["omniscient"],
                                               "family": Kind(1, plural=True)})
            return Words("koryo.no_breaker", {"family": Kind(1)})
        if v["shield"]:
            return Words("choson.breaker", {"player": v["shield"]["player"],
                                            "family": Kind(v["shield"]["family"], True)})
        return Words("choson.no_breaker")

    def token_words(self) -> list[Words]:
        """Chosŏn's tokens that follow majorities, and Yi's Legacy (none in Koryŏ)."""
        v = self._view
        return [Words(f"choson.holds.{key}", {"player": v[name]}) for key, name in (
            ("return_fire", "return_fire"), ("counter_attack", "counter_attack"),
            ("legacy", "legacy")) if v.get(name)]

    def status_words(self) -> Words:
        """What the table does now (the screen's top line)."""
        v = self._view
        phase, who = v["phase"], v["current_player"]
        if self.undo_request is not None:
            asking = v["players"][v["seats"].index(self.undo_request)]
            return Words("majority.undo_request", {"name": asking})
        if phase == "setup":
            return Words("majority.status.setup",  # the round line's round
                         {"player": v["first_player"], "round": round_number(v)})
        if phase == "end":
            return Words("majority.status.end", {"player": v["first_player"]})
        if phase == "time_travel":
            return Words("majority.status.time_travel", {"player": who})
        if not v["turn"]["revealed"]:
            return Words("majority.status.reveal", {"player": who, "n": v["deals"][who]})
        return Words("majority.status.main", {"player": who})

    def final_rows(self) -> tuple[str, ...]:
        """The final breakdown's rows after the families (``majority.final.<row>``)."""
        return FINAL_ROWS[self.rules.name]

    # --- inputs -------------------------------------------------------------------------

    def press(self, event: ButtonEvent) -> Reply:
        """A seat's button, through the refusals every game shares (``companion.play.turns``:
        not its turn, not its undo) then the grammar below: what it did (``STEPPED``,
        ``OPEN_ENTRY``…); what the screen answers is left in ``reply`` (None: nothing to
        say, a message shown goes away)."""
        turns = self.turns()
        if event.press is Press.LONG:
            turns = replace(turns, undoer=self.last_actor())
        reply = shared.press(turns, event, self._read)
        did = reply.did
        self.reply = self.reply_to(did, event)
        plate = reply.answer or self.plate_reply(did, event)
        if plate is None:
            self.replies.pop(event.seat, None)
        else:
            self.replies[event.seat] = plate
        return Reply(did, public=did != IGNORED)

    def plate_reply(self, did: str, event: ButtonEvent) -> Words | None:
        """What a refused press answers on the pressing seat's own plate (short: the plate
        names the seat), beside the table's instruction line, never over it."""
        if did == NOT_YOUR_TURN:
            return Words("seat.reply.not_your_turn", {"player": self.acting()})
        if did == NOT_YOUR_UNDO:
            seat = self.undo_seat()
            if seat is None:
                return Words("seat.reply.undo_on_screen")
            return Words("seat.reply.undo_not_yours", {"player": Seat(seat)})
        if did == REFUSED:
            return Words("seat.reply.refused")
        if did == DISCARD_FIRST:
            return Words("seat.reply.discard_first")
        return None

    def _read(self, event: ButtonEvent) -> Reply:
        """What a press heard from a seat that may press now means (docs/button-grammar.md)."""
        return Reply(self._meaning(event))

    def _meaning(self, event: ButtonEvent) -> str:
        if event.press is Press.LONG:  # from the seat that made the last action
            if self.undo_request == event.seat:
                return UNDONE if self.undo() is not None else NOTHING_TO_UNDO
            self.undo_request = event.seat
            return UNDO_ASKED
        player = self.player_at(event.seat)
        if self._view["phase"] == "end" and player in self.must_discard():
            # at the end of a round each seat that must discard acts from its own pad
            if event.button == "c":
                self.opened_for = player
                return OPEN_POWERS
            return DISCARD_FIRST
        if event.button == "a":
            action = self.next_step()
            if action is None:
                return IGNORED
            return STEPPED if self.dispatch(action) else REFUSED
        if event.button == "b":
            return OPEN_ENTRY if self.can_enter() else IGNORED
        if event.button == "c":
            self.opened_for = None
            return OPEN_POWERS if self.offered() else IGNORED
        return IGNORED

    def choice_press(self, event: ButtonEvent, power: dict) -> Reply:
        """A press while ``power``'s options are open on the screen: the seat of the
        power's player steps through them with C (``CHOICE_NEXT``), takes the marked one with
        A (``CHOICE_TAKE``), goes back with B (``CHOICE_BACK``); a long press asks for an
        undo as ever; any other seat is answered on its plate."""
        if event.press is Press.LONG:
            return self.press(event)
        hears = frozenset() if self.over() else frozenset({self.seat_of(power["player"])})
        reply = shared.press(Turns(tuple(self._view["seats"]), hears=hears), event,
                             lambda e: Reply({"c": CHOICE_NEXT, "a": CHOICE_TAKE}.get(
                                 e.button, CHOICE_BACK)))
        if reply.answer is not None:  # a watching seat's
            self.replies[event.seat] = reply.answer
        elif reply.did == NOT_YOUR_TURN:
            self.replies[event.seat] = Words("seat.reply.not_your_turn",
                                             {"player": power["player"]})
        else:
            self.replies.pop(event.seat, None)
        return reply

    def player_at(self, seat: int) -> str | None:
        """The player at ``seat`` (None: the seat does not play)."""
        v = self._view
        return v["players"][v["seats"].index(seat)] if seat in v["seats"] else None

    def can_step(self) -> bool:
        """Whether the big button's step may be taken now (the end of the round waits for
        the discards that must be made): the button looks unavailable otherwise."""
        step = self.next_step()
        if step is None:
            return False
        return not (step["action"] == "end_round" and self.must_discard())

    def reply_to(self, did: str, event: ButtonEvent) -> Words | None:
        """The sentence a press that ``did`` this answers with on the table's message line:
        a refused action's reason, an undo's result (an undo request shows on the top line
        instead; a step or an opened screen says nothing; a press refused to its seat, not
        its turn or not its undo, is answered on that seat's plate alone: ``plate_reply``)."""
        if did in (NOT_YOUR_TURN, NOT_YOUR_UNDO, DISCARD_FIRST):
            return None
        return self.table_words(did, event)

    def table_words(self, did: str, event: ButtonEvent) -> Words | None:
        """The long form of a press's answer, naming the seat (the transcript, the logs)."""
        if did == NOT_YOUR_TURN:
            return Words("majority.not_your_turn", {"name": Seat(event.seat),
                                                    "player": self.acting()})
        if did == NOT_YOUR_UNDO:
            seat = self.undo_seat()
            if seat is None:
                return Words("majority.undo_on_screen", {"name": Seat(event.seat)})
            return Words("majority.undo_not_yours", {"name": Seat(event.seat),
                                                     "player": Seat(seat)})
        if did == REFUSED:
            return self.refused_words()
        if did in (UNDONE, NOTHING_TO_UNDO):
            return self.undo_words(did == UNDONE)
        return None

    def refused_words(self) -> Words:
        """The last refusal, as the screen says it ("Refused: …")."""
        return Words("majority.refused", {"reason": self.refusal})

    @staticmethod
    def undo_words(done: bool) -> Words:
        """What an undo answers: done, or nothing to take back."""
        return Words("majority.undone" if done else "majority.nothing_to_undo")

    def dispatch(self, action: dict) -> bool:
        """Send ``action`` to the session; a refusal keeps its reason in ``refusal`` and
        changes nothing."""
        try:
            self._view = self.session.dispatch(action)
        except RuleError as exc:
            log.info("%s game %d: refused %s (%s)", self.rules.name, self.session.game_id,
                     action, exc)
            self.refusal = exc
            return False
        self.refusal = None
        self.undo_request = None
        return True

    def actor_of(self, action: dict, before: dict) -> int:
        """The seat that made ``action``: its player's, else (start or end of a round) the
        seat that was acting."""
        return self.seat_of(action.get("player") or acting_player(before))

    def undo_seat(self) -> int | None:
        """The seat that may ask to undo: the one that made the last action."""
        return self.last_actor()

    def undo(self) -> dict | None:
        """Take back the last action (None: nothing to undo); the undo request is over."""
        action = self.session.undo()
        self.undo_request = None
        self._view = self.session.public_view()
        return action

    def to_finish(self) -> bool:
        """Whether the game is over and not yet finished in the journal; if so, ``played``
        now holds its history row (``Table.end_game``, the one writer of the history,
        keeps it, then calls ``finish``)."""
        if self.recorded or not self.over():
            return False
        self.played = result_of(self._view["final"], **self.session.history_facts())
        return True

    def finish(self) -> None:
        """The game over finished in the journal, once."""
        if self.recorded or not self.over():
            return
        result = self._view["final"]
        self.session.finish(result)
        self.recorded = True
        log.info("%s game %d over: winners %s", self.rules.name, self.session.game_id,
                 ", ".join(result["winners"]))

    # --- card entry ---------------------------------------------------------------------

    def reveal_action(self, counts: dict[str, int]) -> dict:
        return {"action": "reveal", "player": self._view["current_player"], "cards": dict(counts)}

    def entry_refusal(self, counts: dict[str, int], kind: str) -> EntryRefusal | None:
        """Why ``counts`` (one more ``kind`` just entered) cannot be: more of a kind than the
        deck has, or more cards than the deal; None for a count that may still come right
        (an order not yet legal is for the reveal to check)."""
        try:
            self.rules.apply(self.session.state, self.reveal_action(counts))
        except RuleError as exc:
            v = self._view
            total, dealt = sum(counts.values()), v["deals"][v["current_player"]]
            if exc.field == f"cards.{kind}":
                n, deck = counts[kind], v["deck"][kind]
                if v["in_play"][kind] == 0:  # all out of play: "only 9 remain" says nothing
                    return EntryRefusal("majority.refuse.deck_all", {"n": n, "deck": deck})
                return EntryRefusal("majority.refuse.deck",
                                    {"n": n, "deck": deck, "left": deck - v["in_play"][kind]})
            if total > dealt:
                return EntryRefusal("majority.refuse.dealt", {
                    "total": total, "dealt": dealt, "player": v["current_player"]})
        return None

    # --- powers -------------------------------------------------------------------------

    @staticmethod
    def remaining(options: list[dict], picked: dict) -> list[dict]:
        """The actions of ``options`` that agree with the choices ``picked`` so far."""
        return [a for a in options if all(a.get(k) == v for k, v in picked.items())]

    @staticmethod
    def choice_field(options: list[dict]) -> str | None:
        """With more actions than a page holds, the first field they differ on: the
        players pick it first (a Lobby swap: who gives, which card, who gets, which card)."""
        if len(options) <= OPTIONS_PER_PAGE:
            return None
        return next(k for k in options[0] if len({repr(a.get(k)) for a in options}) > 1)


def _mark(majority: dict | None, player: str) -> str:
    if majority is None:
        return ""
    if majority["holder"] == player:
        return BROKEN if majority["tie_breaker"] else HELD
    return TIED if player in majority["tied"] else ""


def player_counts(game: str) -> tuple[int, int]:
    """The fewest and the most players ``game`` (``koryo``, ``choson``) takes."""
    engine = rules_for(game).engine
    return engine.MIN_PLAYERS, engine.MAX_PLAYERS


def card_names(game: str) -> dict[str, dict[str, str]]:
    """Every card kind of ``game`` by its key (a family's value ``"9"``…, an event's key):
    its names, ``en``, ``fr``, ``en_plural``, ``fr_plural`` (a refusal names kinds)."""
    engine = rules_for(game).engine
    names = {str(v): f.to_dict() for v, f in engine.FAMILIES.items()}
    for event in event_names(engine):
        names[event["key"]] = {k: v for k, v in event.items() if k != "key"}
    return names
