"""The Inheritors controller: the final score sheet between its screen and its
``Session``. What a press or a tap means lives here: any button of a player's seat pad
(or a tap on their seat) opens that player's column, the one counted now; − / + on a
field is the entry it makes (a stack below the lowest card is emptied, the hand starts
from the tomes and relics held, quests are counted as fulfilled and not fulfilled); a
relic toggles; a refusal is said in the sheet's own words (``refusal``); Save records
the score once. Lights: the counted player's seat "your turn", the first player's seat
"first player" (when not the one counted)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.inheritors import rules as engine
from companion.games.inheritors.adapter import InheritorsSheet, Sheet
from companion.play import turns as shared
from companion.play.controller import FollowsSession
from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent
from companion.play.seatview import SeatFigure, SeatView
from companion.play.session import Session
from companion.play.turns import IGNORED, NOBODY, Reply, Turns
from companion.play.words import Words
from companion.storage.history import GameResult, result_of
from companion.storage.journal import Journal

OPENED = "opened"  # a press opened its player's column


class SheetController(FollowsSession):
    """One Inheritors count (``session``) as its screen plays it."""

    PLAYERS = (engine.MIN_PLAYERS, engine.MAX_PLAYERS)  # how many play: least, most

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.rules: InheritorsSheet = session.rules  # type: ignore[assignment]
        self.refusal: tuple[dict, RuleError] | None = None  # the refused entry, its reason
        self.saved = False
        self.played: GameResult | None = None  # the history row, once saved
        self.counting: int | None = 0  # the player whose column is open (None: no one)
        # seat -> what the shared layer answered its press (a watching seat's), on its own
        # plate until another seat's press opens a column
        self.answers: dict[int, Words] = {}

    @classmethod
    def new(cls, setup: dict, journal: Journal | None) -> SheetController:
        """A new sheet; without a journal it is not kept (``Session.start``)."""
        return cls(Session.start(journal, InheritorsSheet(), setup))

    @classmethod
    def resume(cls, journal: Journal | None, game_id: int) -> SheetController | None:
        if journal is None:
            return None
        session = Session.resume(journal, InheritorsSheet(), game_id)
        return None if session is None else cls(session)

    # --- what the screen shows ----------------------------------------------------------

    @property
    def sheet(self) -> Sheet:
        return self.session.state

    @property
    def kept(self) -> bool:
        """Whether the sheet is in the table's journal (else Home loses it)."""
        return self.session.kept

    @property
    def counted(self) -> str:
        """The name of the player whose column is open (the first, when none is)."""
        return self.sheet.players[self.counting or 0]

    def turns(self, counting: bool = True) -> Turns:
        """Until the count is saved: the first player's seat marked FIRST_PLAYER and,
        while a column is open (``counting``), the counted player acting (lit in place
        of FIRST_PLAYER on the same seat)."""
        if self.saved:
            return NOBODY
        turns = self.rules.turns(self._view)
        if counting and self.counting is not None:
            return replace(turns, acting=frozenset({self.sheet.seats[self.counting]}))
        return turns

    def seat_views(self) -> dict[int, SeatView]:
        """Each player's own plate: their total as it stands; the counted player's plate
        lit (their count is open), any button of a pad opening that player's count."""
        totals = {p["name"]: p["total"] for p in self._view["score"]["players"]}
        out = {}
        for i, (player, seat) in enumerate(zip(self.sheet.players, self.sheet.seats,
                                               strict=True)):
            counted = not self.saved and self.counting == i
            out[seat] = SeatView(
                seat, your_turn=counted, todo=Words("seat.todo.count") if counted else None,
                help=None if self.saved else Words("seat.help.any_count"),
                figures=(SeatFigure(Words("seat.figure.total"), str(totals[player])),))
        for seat, answer in self.answers.items():  # a watching seat that pressed
            out.setdefault(seat, SeatView(seat, reply=answer))
        return out

    def quests(self, player: str, value: int) -> int:
        """How many of ``player``'s quests are worth ``value`` (``engine.FULFILLED``,
        ``engine.FAILED``)."""
        return self.sheet.end(player).quests.count(value)

    def refusal_text(self) -> tuple[str, dict[str, Any]]:
        """The last refusal as a catalog key of the sheet and its values (``colour``: a
        colour's key, for the screen to name); ``inheritors.refused.other`` with the
        engine's ``error`` when the sheet has no words of its own for it."""
        action, exc = self.refusal  # type: ignore[misc]
        block, _, rest = exc.field.partition(".")
        value = action.get("value")
        n = len(self.sheet.players)
        try:
            after = self.rules.edit(self.sheet, action)
        except RuleError:
            return "inheritors.refused.other", {"error": exc}
        holders = [e.name for e in after.ends if action.get("colour") in e.relics]
        if isinstance(value, int) and value < 0 and action["kind"] == "count":
            return "inheritors.refused.negative", {"value": value}
        if block == "stacks" and not (isinstance(value, int)
                                      and engine.LOWEST <= value <= engine.HIGHEST):
            return "inheritors.refused.card", {"value": value, "low": engine.LOWEST,
                                               "high": engine.HIGHEST}
        if block == "relics" and len(holders) > 1:
            holder = next(h for h in holders if h != action["player"])
            return "inheritors.refused.relic", {"holder": holder, "colour": action["colour"]}
        if block in ("stacks", "relics"):
            return "inheritors.refused.colours", {"players": n,
                                                  "limit": engine.colours_in_game(n)}
        if block == "tomes":
            return "inheritors.refused.tomes", {"supply": engine.TOMES_IN_GAME}
        if block == "quests" and "." in rest:
            return "inheritors.refused.quest", {"value": value, "good": engine.FULFILLED,
                                                "bad": engine.FAILED}
        if block in ("quests", "honors"):
            return f"inheritors.refused.{block}", {"rows": engine.rows_in_game(n)}
        if block == "hand":
            end = after.end(rest)
            return "inheritors.refused.hand", {"name": rest, "hand": end.hand,
                                               "held": end.tomes + len(end.relics)}
        return "inheritors.refused.other", {"error": exc}

    # --- inputs -------------------------------------------------------------------------

    def press(self, event: ButtonEvent) -> Reply:
        """A seat's button, through the shared layer (``companion.play.turns``: a watching
        seat is answered on its plate), opens its player's column."""
        reply = shared.press(self.turns(), event, lambda e: (
            Reply(OPENED) if self.open_seat(e.seat) else Reply(IGNORED, public=False)))
        if reply.answer is not None:
            self.answers[event.seat] = reply.answer
        elif reply.public:
            self.answers.clear()
        return reply

    def open_seat(self, seat: int) -> bool:
        """The player of ``seat`` counted now (a press of their pad, a tap on their seat)."""
        if seat not in self.sheet.seats:
            return False
        self.counting = self.sheet.seats.index(seat)
        return True

    def enter(self, player: str, action: dict) -> bool:
        """One entry for ``player``; a refusal is kept in ``refusal`` and changes nothing."""
        action = {"player": player, **action}
        try:
            self._view = self.session.dispatch(action)
        except RuleError as exc:
            self.refusal = (action, exc)
            return False
        self.refusal = None
        return True

    def step(self, player: str, field: str, delta: int) -> bool | None:
        """− (``delta`` -1) or + (1) on ``field`` of ``player`` (``quests:2``: the fulfilled
        quests, ``quests:1`` the others): the entry it makes, or None when it makes none."""
        end = self.sheet.end(player)
        if field.startswith("stack:"):
            colour = field[6:]
            now = end.stacks.get(colour)
            if now is None and delta < 0:
                return None
            value = (0 if now is None else now) + delta
            return self.enter(player, {
                "kind": "stack", "colour": colour,
                "value": None if value < engine.LOWEST and now is not None else value})
        if field == "hand":
            if end.hand is None:
                if delta > 0:
                    return self.enter(player, {"kind": "count", "field": "hand",
                                               "value": end.tomes + len(end.relics)})
                return None
            value = end.hand + delta
            return self.enter(player, {"kind": "count", "field": "hand",
                                       "value": None if value < 0 else value})
        if field.startswith("quests:"):
            worth = int(field[7:])
            if delta > 0:
                return self.enter(player, {"kind": "quest", "index": len(end.quests),
                                           "value": worth})
            if worth not in end.quests:
                return None
            last = len(end.quests) - 1 - end.quests[::-1].index(worth)
            return self.enter(player, {"kind": "quest", "index": last, "value": None})
        return self.enter(player, {"kind": "count", "field": field,
                                   "value": getattr(end, field) + delta})

    def relic(self, player: str, colour: str) -> bool:
        held = colour in self.sheet.end(player).relics
        return self.enter(player, {"kind": "relic", "colour": colour, "held": not held})

    def undo(self) -> dict | None:
        """Take back the last entry (None: nothing to undo)."""
        action = self.session.undo()
        self._view = self.session.public_view()
        self.refusal = None
        return action

    def can_undo(self) -> bool:
        return self.session.can_undo()

    def to_finish(self) -> bool:
        """Whether the count is not yet saved; if so, ``played`` now holds its history row
        (``Table.end_game``, the one writer of the history, keeps it, then calls
        ``finish``)."""
        if self.saved:
            return False
        self.played = result_of(self._view["score"], **self.session.history_facts())
        return True

    def finish(self) -> dict:
        """The game finished in the journal with its final score, once; the score."""
        result = self._view["score"]
        if not self.saved:
            self.session.finish(result)
            self.saved = True
        return result
