"""The Inheritors final count on the shared winner screen (``companion.ui.winner``): each
player's total and breakdown, the winners and the tie-break; Save records it in the
history (and closes the journaled game), then Done and the play's BG Stats code."""

from __future__ import annotations

from companion.games.inheritors.controller import SheetController
from companion.play.table import SAVING
from companion.play.turns import Turns
from companion.ui.app import App, Screen
from companion.ui.home import HomeScreen
from companion.ui.theme import Painter
from companion.ui.winner import ShowsWinner, Standing, WinnerView

PARTS = ("influence", "tomes", "relics", "quests", "honors", "bonus")


class ResultScreen(ShowsWinner, Screen):
    """The final count: breakdown per player, total, winners and the tie-break; Save
    records it in the history (and closes the journaled game)."""

    name = "inheritors-final"

    def __init__(self, app: App, game: SheetController, sheet: Screen) -> None:
        super().__init__(app)
        self.game = game
        self.sheet = sheet  # the sheet it came from (Back returns to it)
        self.result = game.view()["score"]
        self.build()

    @property
    def saved(self) -> bool:
        return self.game.saved

    @property
    def kept(self) -> bool:
        """Saved, or its history row on the way to the disk (finished once it is there)."""
        return self.saved or self.app.table.keeping(self.game) == SAVING

    def on_change(self) -> None:
        """The count's history row reached the disk: the note says so."""
        if self.kept_moved(self.game):
            self.build()

    def back(self) -> None:
        self.app.replace(self.sheet)

    def save(self) -> None:
        self.app.table.end_game(self.game)
        self.build()
        self.app.invalidate()

    def turns(self) -> Turns:
        """The first player's seat until the count is saved (no one is counted now)."""
        return self.game.turns(counting=False)

    def done(self) -> None:
        """Back to Home (the count is saved)."""
        if len(self.app.screens) > 1:
            self.app.pop()
        else:
            self.app.replace(HomeScreen(self.app))

    def build(self) -> None:
        """The shared winner screen (companion/ui/winner.py): before Save, Back to the
        sheet and Save; once saved, Done and the play's BG Stats code."""
        t = self.app.catalog.text
        players = self.result["players"]
        if self.kept:
            actions = [(t("inheritors.final.done"), self.done, "done")]
            notes = [self.tie_text() or "", self.kept_note(self.game)]
        else:
            actions = [(t("inheritors.final.back"), self.back, "back"),
                       (t("inheritors.final.save"), self.save, "save")]
            notes = [self.tie_text() or ""]
        self.show_winner(WinnerView(
            self.app, "inheritors",
            [Standing(q["name"], str(q["total"]), [str(q["breakdown"][k]) for k in PARTS])
             for q in players],
            [t(f"inheritors.part.{k}") for k in PARTS], self.result["winners"], actions,
            self.game.played if self.kept else None, notes))
        rects = {b.key: b.rect for b in self.buttons if hasattr(b, "key")}
        self.done_rect = rects.get("done")
        self.back_rect = rects.get("back")
        self.save_rect = rects.get("save")

    def winners_text(self) -> str:
        t = self.app.catalog.text
        names = self.app.catalog.names(self.result["winners"])
        key = "inheritors.final.winner" if len(self.result["winners"]) == 1 else \
            "inheritors.final.shared"
        return t(key, names=names)

    def tie_text(self) -> str | None:
        tie = self.result["tie_break"]
        if not tie:
            return None
        return self.app.catalog.text(f"inheritors.tie.{tie['decided_by']}",
                                     names=self.app.catalog.names(tie["tied"]))

    def describe(self) -> str:
        totals = ", ".join(f"{p['name']} {p['total']}" for p in self.result["players"])
        return " | ".join(x for x in (self.app.catalog.text("inheritors.final.title"), totals,
                                      self.winners_text(), self.tie_text(),
                                      self.kept and self.kept_note(self.game)) if x)

    def draw(self, p: Painter) -> None:
        self.winner.draw(p)
