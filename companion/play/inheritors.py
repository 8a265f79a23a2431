"""The Inheritors controller: the final score sheet between its screen and its
``Session``. What a press or a tap means lives here: any button of a player's seat pad
opens that player's column; − / + on a field is the entry it makes (a stack below the
lowest card is emptied, the hand starts from the tomes and relics held, a quest below
"failed" is removed); a relic toggles; Save records the score once; the first player's
seat is lit."""

from __future__ import annotations

from companion.engine import inheritors as engine
from companion.engine.errors import RuleError
from companion.games.inheritors import InheritorsSheet, Sheet
from companion.history import GameResult, result_of
from companion.journal import Journal
from companion.play import FollowsSession
from companion.seat import ButtonEvent, Light
from companion.session import Session


class SheetController(FollowsSession):
    """One Inheritors count (``session``) as its screen plays it."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.rules: InheritorsSheet = session.rules  # type: ignore[assignment]
        self.refusal: tuple[dict, RuleError] | None = None  # the refused entry, its reason
        self.saved = False
        self.played: GameResult | None = None  # the history row, once saved

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

    def lights(self) -> dict[int, Light]:
        """The first player's seat lit FIRST_PLAYER until the count is saved."""
        return {} if self.saved else self.rules.lights(self._view)

    def quests(self, player: str) -> int:
        return len(self.sheet.end(player).quests)

    # --- inputs -------------------------------------------------------------------------

    def press(self, event: ButtonEvent) -> int | None:
        """A seat's button: the index of the player whose column it opens, or None."""
        seats = self.sheet.seats
        return seats.index(event.seat) if event.seat in seats else None

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

    def step(self, player: str, field: str, quest: int, delta: int) -> bool | None:
        """− (``delta`` -1) or + (1) on ``field`` of ``player`` (``quest``: the quest
        selected): the entry it makes, or None when it makes none."""
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
        if field == "quests":
            if not end.quests:
                return None
            value = end.quests[quest] + delta
            return self.enter(player, {"kind": "quest", "index": quest,
                                       "value": None if value < engine.FAILED else value})
        return self.enter(player, {"kind": "count", "field": field,
                                   "value": getattr(end, field) + delta})

    def add_quest(self, player: str) -> bool:
        return self.enter(player, {"kind": "quest", "index": self.quests(player),
                                   "value": engine.FULFILLED})

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

    def save(self, history) -> dict:
        """The final score into ``history`` (when one is kept) and the game finished in the
        journal, once; returns the score."""
        result = self._view["score"]
        if not self.saved:
            self.played = result_of(result, **self.session.history_facts())
            if history is not None:
                history.keep(self.played)
            self.session.finish(result)
            self.saved = True
        return result
