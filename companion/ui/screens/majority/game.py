"""A Koryŏ or Chosŏn game in progress: ``GameScreen`` shows one game through its
controller's view (``companion.games.majority.controller``), in four modes:

- ``board``: the live majority board and the lines under it (``majority_board``);
- ``entry`` and ``powers``: the card entry and the powers' choices (``majority_choice``);
- ``final``: the shared winner screen; the Table records the result in the history and
  finishes the journal's game as soon as the game is over (``Table.end_game``).

Above every mode but the final one: who acts and what, in large type, then the round line
(round n/8, deal d, keep at most l, first player, VP bank; one round number, the prompt's
too), its figures large. Every change goes through the controller; a refusal shows the
engine's reason and changes nothing. Undo is on every game screen but the final one. The
board's Home button goes back to Home and leaves the game unfinished in the journal: the
game's menu entry opens it again where it was.

The seat buttons (the new-game screen's help line says it too): **A** = the next step
(start the round, end the turn, end the round), from the seat whose turn it is (the first
player's seat between turns); **B** = the current player opens their card entry; **C** =
the current player opens the powers; a **long press** of the seat that made the last action
asks for an undo (another seat is told it can't), shown on screen until that seat's second
long press or two taps on Undo ("Sure? Undo") carry it out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pygame

from companion.games.majority.controller import (
    IGNORED,
    NOTHING_TO_UNDO,
    OPEN_ENTRY,
    OPEN_POWERS,
    STEPPED,
    UNDONE,
    Kind,
    MajorityController,
    RuleError,
    Seat,
    Words,
)
from companion.play.seat import ButtonEvent
from companion.play.table import NOT_SAVED
from companion.play.turns import Reply, Turns
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.screens.majority.board import BoardMode, Line
from companion.ui.screens.majority.choice import ChoiceModes
from companion.ui.screens.majority.common import (
    FIGURE,
    WORDS,
    BaseScreen,
    GameSpec,
    make_button,
    row_of,
)
from companion.ui.theme import Painter
from companion.ui.widgets import HEADLINE, Runs, headline, runs, shorten, wrap_runs
from companion.ui.winner import ShowsWinner, Standing, Sum, WinnerView

log = logging.getLogger(__name__)

BANNER = 36  # units: the round line's height (its figures FIGURE units)
STATUS = 36  # units: the top line's height (who acts and what; its figures FIGURE units)


class GameScreen(ShowsWinner, BoardMode, ChoiceModes, BaseScreen):
    """A Koryŏ or Chosŏn game in progress (see the module docstring); ``new_setup`` makes
    the new-game screen that follows a game over when nothing is under this screen."""

    def __init__(self, app: App, spec: GameSpec, game: MajorityController,
                 new_setup: Callable[[App, GameSpec], Screen]) -> None:
        super().__init__(app)
        self.spec = spec
        self.new_setup = new_setup
        self.game = game
        self.plays = game  # the Table gives it the seats' presses
        app.follow(game)
        self.mode = "board"
        self.entry: dict[str, int] = {}
        self.selected: str | None = None
        self.power_index = 0
        self.page = 0
        self.picked: dict[str, object] = {}  # choices made towards a power's action
        self.pick_field: str | None = None  # what the power's buttons choose now
        self.info_page = 0  # 0: the board; 1…: the "more" pages of the lines under it
        self.undo_armed = False  # Undo tapped once: the next tap on it undoes
        self.info_pages: list[list[Line]] = [[]]
        self.side = False  # the lines beside the board rather than under it
        self.figure: float = FIGURE  # units: the board's figures (taller rows, larger)
        self.lang = app.catalog.language
        self.names = {f["value"]: f for f in self.view["families"]}
        self.events = {e["key"]: e for e in self.view["events"]}
        self.kinds = [str(v) for v in sorted(self.names, reverse=True)] + list(self.events)

        self._show()

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"{self.spec.game}-{self.mode}"

    # --- names ------------------------------------------------------------------------

    def kind_name(self, kind: str | int, plural: bool = False) -> str:
        key = str(kind)
        item = self.names[int(key)] if key.isdigit() else self.events[key]
        return item[f"{self.lang}_plural"] if plural else item[self.lang]

    @property
    def view(self) -> dict:
        return self.game.view()

    def turns(self) -> Turns:
        return self.game.turns()

    def seat_of(self, player: str) -> int:
        return self.game.seat_of(player)

    # --- the session --------------------------------------------------------------------

    def _show(self) -> None:
        """Take the session's view: mode, recording of a finished game."""
        view = self.view
        if view["final"] is not None:
            self.mode = "final"
            self.app.table.end_game(self.game)
        elif not {"entry": self.game.can_enter,
                  "powers": self.game.offered}.get(self.mode, bool)():
            self.mode = "board"
        self.info_page = 0
        self._layout()
        self.app.invalidate()

    def dispatch(self, action: dict) -> bool:
        """Send ``action`` to the game; a refusal shows its reason and changes nothing."""
        done = self.app.table.act(self.game.dispatch, action)
        if done is NOT_SAVED:  # the band says so; the game as it was
            return False
        if not done:
            self.message = self.say(self.game.refused_words())
            self.app.invalidate()
            return False
        self.message = None
        self._show()
        return True

    def pointer_down(self, pos: tuple[int, int]) -> None:
        undo = self.button("undo")
        if self.undo_armed and (undo is None or not undo.rect.collidepoint(pos)):
            self.disarm()
        super().pointer_down(pos)

    def undo(self) -> None:
        """Undo takes two taps: the first turns the button into "Sure? Undo"."""
        if not self.undo_armed:
            self.undo_armed = True
            self._show()
            return
        self.undo_armed = False
        undone = self.app.table.act(self.game.undo)
        if undone is not NOT_SAVED:
            self._undone(undone is not None)

    def disarm(self) -> bool:
        """Anything but the second tap on Undo cancels it; True if it was armed."""
        if self.undo_armed:
            self.undo_armed = False
            self._show()
            return True
        return False

    def _undone(self, done: bool) -> None:
        self.message = self.say(self.game.undo_words(done))
        if done:
            self.mode = "board"
        self._show()

    def acting(self) -> str:
        return self.game.acting()

    def offered(self) -> list[tuple[dict, list[dict]]]:
        return self.game.offered()

    # --- sentences ----------------------------------------------------------------------

    def seat_views(self):
        chosen = self.power_options() if self.mode == "powers" else None
        return self.game.seat_views(choosing=chosen[0]["player"] if chosen else None)

    def seat_text(self, words: Words) -> str:
        return self.say(words)

    def say(self, words: Words) -> str:
        """A sentence of the controller's, in the screen's language."""
        return self.t(words.key, **{k: self.said(v) for k, v in words.params.items()})

    def said(self, value: object) -> object:
        """A sentence's param in the screen's language (a plain value as it is)."""
        if isinstance(value, Words):
            return self.say(value)
        if isinstance(value, tuple):
            return " · ".join(str(self.said(v)) for v in value)
        if isinstance(value, Kind):
            return self.kind_name(value.kind, value.plural)
        if isinstance(value, Seat):
            return self.app.seats[value.seat].name
        if isinstance(value, RuleError):
            return self.refusal(value)
        return value

    def power_text(self, power: dict) -> str:
        return self.say(self.game.power_words(power))

    def protection_text(self, prot: dict) -> str:
        return self.say(self.game.protection_words(prot))

    def limit_texts(self) -> list[str]:
        return [self.say(w) for w in self.game.limit_words()]

    def breaker_text(self) -> str:
        return self.say(self.game.breaker_words())

    def token_texts(self) -> list[str]:
        return [self.say(w) for w in self.game.token_words()]

    def status(self) -> str:
        """What the table does now."""
        return self.say(self.game.status_words())

    def two_line_status(self) -> list[str] | None:
        """The instruction (no message) on the board or the card entry as two lines over
        the round line, when one line can't hold it at the least words' size; else None.
        A "more" page over the board then starts under them (``pages_rect``)."""
        if self.mode not in ("board", "entry") or self.message:
            return None
        theme, width, status = self.app.theme, self.status_rect.w, self.status()
        if Runs(theme, status, WORDS).width() <= width:
            return None
        lines = wrap_runs(theme, status, width)
        return lines if len(lines) == 2 else None

    # --- inputs -------------------------------------------------------------------------

    def step(self) -> None:
        action = self.game.next_step()
        if action is not None:
            self.dispatch(action)

    def back(self) -> None:
        self.mode, self.message = "board", None
        self._layout()
        self.app.invalidate()

    def on_button(self, event: ButtonEvent) -> None:
        """A press while a power's options are open (``claims``): the pad picks."""
        self.disarm()
        self.on_choice_button(event)

    def pressed(self, event: ButtonEvent, result: Reply) -> None:
        """What the press did and answers (the controller decided both, asked by the
        Table) is shown."""
        self.disarm()
        did = result.did
        if did != IGNORED and self.game.reply is not None:  # the table's: its message line
            self.message = self.say(self.game.reply)
        elif did != IGNORED and event.seat not in self.game.replies:
            self.message = None  # (a refused seat is answered on its own plate alone)
        if did == UNDONE:
            self.mode = "board"
        if did in (UNDONE, NOTHING_TO_UNDO, STEPPED):
            self._show()
        elif did == OPEN_ENTRY:
            self.open_entry()
        elif did == OPEN_POWERS:
            self.open_powers()
        else:
            self.app.invalidate()

    def done(self) -> None:
        """After the final screen: back to the screen below (Home), or a new game."""
        if len(self.app.screens) > 1:
            self.app.pop()
        else:
            self.app.replace(self.new_setup(self.app, self.spec))

    def home(self) -> None:
        """Back to Home; the game stays unfinished in the journal (the menu resumes it)."""
        log.info("%s game %d left unfinished for Home", self.spec.game,
                 self.game.session.game_id)
        if len(self.app.screens) > 1:
            self.app.pop()

    # --- layout -------------------------------------------------------------------------

    def _layout(self) -> None:
        px = self.app.theme.px
        r = self.inner
        gap = px(4)
        bh = self.button_h()
        # Who acts and what, in large type at the top; the round and the bank under it.
        self.status_rect = pygame.Rect(r.x, r.y, r.w, px(STATUS))
        self.banner_rect = pygame.Rect(r.x, self.status_rect.bottom, r.w, px(BANNER))
        self.bar_rect = pygame.Rect(r.x, r.bottom - bh, r.w, bh)
        self.body = pygame.Rect(r.x, self.banner_rect.bottom + gap, r.w,
                                self.bar_rect.top - gap - self.banner_rect.bottom - gap)
        layout = {"board": self._layout_board, "entry": self._layout_entry,
                  "powers": self._layout_powers, "final": self._layout_final}[self.mode]
        self.ring = self.felt_ring  # the final's winner screen brings its own
        layout()
        if self.mode != "final":
            self.banner_runs = self._banner_runs()

    def _bar(self, items: list[tuple[str, Callable[[], None], str]]) -> None:
        gap = self.app.theme.px(8)
        self.buttons = [
            make_button(rect, label, fn, key)
            for rect, (label, fn, key) in zip(row_of(self.bar_rect, len(items), gap), items,
                                              strict=True)
        ]

    def _layout_final(self) -> None:
        """The shared winner screen (companion/ui/winner.py) on the felt inside its slim
        seat ring, Done in the column at the right."""
        final = self.view["final"]
        rows = [("families", self.t("majority.final.families")), *(
            (k, label) for label, k in self.final_rows())]

        def cell(pl: dict, key: str) -> str | Sum:
            if key != "families":
                return str(pl["breakdown"][key])
            scored = [f["family"] for f in final["families"] if f["holder"] == pl["name"]]
            return Sum(scored, sum(pl["breakdown"][f"family_{f}"] for f in scored))

        self.show_winner(WinnerView(
            self.app, self.spec.game,
            [Standing(pl["name"], str(pl["total"]), [cell(pl, k) for k, _ in rows])
             for pl in final["players"]],
            [label for _, label in rows], final["winners"],
            [(self.t("majority.done"), self.done, "done")], self.game.played,
            [self.kept_note(self.game)]))

    def on_change(self) -> None:
        """The game's history row reached the disk: the note says so."""
        if self.mode == "final" and self.kept_moved(self.game):
            self._layout()

    # --- drawing ------------------------------------------------------------------------

    def banner(self) -> str:
        v = self.view
        s = v["season"]  # one round number: the prompt's, the banner's, Home's
        return self.t("majority.banner.round", round=s["round"], rounds=v["rounds"],
                      deal=s["deal"], limit=s["limit"])

    def draw(self, p: Painter) -> None:
        if self.mode == "final":
            self.winner.draw(p)
            return
        self.background(p)
        font = self.app.theme.font(self.app.theme.px(WORDS))
        width = self.status_rect.w
        if self.message and font.size(self.message)[0] > width:
            self._draw_alert(p, font)  # a long refusal takes the banner's place
        elif (two := self.two_line_status()) is not None:
            # a long instruction (a choice to make now) on two lines over the round line
            self._draw_lines(p, two, th.INK, self.banner_rect.union(self.status_rect))
        else:
            self._draw_banner(p, font)
        {"board": self._draw_board, "entry": self._draw_entry, "powers": self._draw_powers,
         }[self.mode](p)
        for button in self.buttons:
            if getattr(button, "key", "") == "undo" and self.game.undo_request is not None:
                glow = button.rect.inflate(self.app.theme.px(6), self.app.theme.px(6))
                pygame.draw.rect(p.surface, th.WARNING, glow, border_radius=glow.h // 4)
            key = getattr(button, "key", "")
            if not key.startswith("kind-") and key != "more":
                button.draw(p)

    def _banner_runs(self) -> tuple[Runs, Runs]:
        """The round line (left) and the first player and VP bank (right), figures large:
        the words as large as the line allows, then the first player's name shortened;
        measured once per change of the game, not every frame."""
        v, theme, box = self.view, self.app.theme, self.banner_rect
        gap = theme.px(16)
        fmt = {"bank": v["bank"], "tokens": v["vp_tokens"]}
        player = v["first_player"]
        for words in (WORDS + 4, WORDS + 2, WORDS):
            left = Runs(theme, self.banner(), words)
            right = Runs(theme, self.t("majority.banner.side", player=player, **fmt), words)
            if left.width() + gap + right.width() <= box.w:
                break
        while left.width() + gap + right.width() > box.w and len(player) > 1:
            player = player[:-1]
            right = Runs(theme, self.t("majority.banner.side", player=player + "…", **fmt),
                         WORDS)
        return left, right

    def _draw_banner(self, p: Painter, font: pygame.font.Font) -> None:
        """The round line and the top line: who acts now and what (or the message)."""
        paged = self.mode == "board" and self.info_page and not self.side  # a page's place
        if self.mode != "powers" and not paged:  # there the power's sentence takes the line
            left, right = self.banner_runs
            left.draw(p, th.INK_SOFT, self.banner_rect)
            right.draw(p, th.WARNING, self.banner_rect, "right")
        if self.mode == "powers" and self.pick_field is not None:
            status = self.t(f"majority.pick.{self.pick_field}")  # what the buttons choose
        else:
            status = self.status()
        status = self.message or status
        warn = self.message is not None or self.game.undo_request is not None
        colour = th.WARNING if warn else th.INK
        line = runs(self.app.theme, status, self.status_rect.w, HEADLINE)
        if line.width() <= self.status_rect.w:  # its figures as large as the board's
            line.draw(p, colour, self.status_rect)
        else:  # last resort for long names: smaller, ending with an ellipsis, never cut off
            headline(p, status, self.status_rect, colour)

    def _draw_lines(self, p: Painter, lines: list[str], colour, band: pygame.Rect) -> None:
        """Two lines in ``band``, each its figures large (``Runs``)."""
        line_h = band.h // 2
        for i, line in enumerate(lines):
            box = pygame.Rect(band.x, band.y + i * line_h, band.w, line_h)
            said = runs(self.app.theme, line, box.w, WORDS)
            if said.width() <= box.w:
                said.draw(p, colour, box)
            else:  # a word longer than the line: condensed, or said cut
                self.draw_text(p, line, WORDS, colour, box)

    def _draw_alert(self, p: Painter, font: pygame.font.Font) -> None:
        """A message too long for the status line, over the banner and status lines: on two
        lines with its figures large when it fits them, else in smaller type."""
        px = self.app.theme.px
        band = self.banner_rect.union(self.status_rect)
        pygame.draw.rect(p.surface, th.WARNING_BG, band, border_radius=px(8))
        inner = band.inflate(-px(16), 0)
        wrapped = wrap_runs(self.app.theme, self.message or "", inner.w)
        if len(wrapped) <= 2:
            self._draw_lines(p, wrapped, th.WARNING, inner)
            return
        inner = band.inflate(-px(16), -px(4))
        line_h = font.get_linesize()
        lines = p.lines(self.message or "", font, inner.w)
        fit = max(1, inner.h // line_h)
        if len(lines) > fit:
            lines = lines[: fit - 1] + [shorten(" ".join(lines[fit - 1:]), font, inner.w)]
        y = inner.centery - line_h * len(lines) // 2
        for line in lines:
            p.text(line, font, th.WARNING, pygame.Rect(inner.x, y, inner.w, line_h), "left")
            y += line_h

    def final_headline(self) -> str:
        winners = self.view["final"]["winners"]
        key = "majority.final.winner" if len(winners) == 1 else "majority.final.shared"
        return self.t(key, names=self.app.catalog.names(winners))

    def final_rows(self) -> list[tuple[str, str]]:
        return [(self.t(f"majority.final.{k}"), k) for k in self.game.final_rows()]

    def describe(self) -> str:
        v = self.view
        if self.mode == "final":
            totals = ", ".join(f"{pl['name']} {pl['total']}" for pl in v["final"]["players"])
            return f"{self.name} | {self.final_headline()} | {totals}"
        holders = " ".join(
            f"{m['family']}:{m['holder'] or ('=' if m['tied'] else '-')}" for m in v["majorities"]
        )
        parts = [self.name, self.banner(), self.message or self.status(), holders]
        if self.mode == "entry":
            parts.append(str(self.entry))
        parts += [self.power_text(pw) for pw in v["powers"]]
        return " | ".join(parts)


