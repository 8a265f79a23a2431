"""The King's Dilemma before and after the night: the coin toss that starts it, the end
scoring on the shared winner screen, the prestige and crave the rulebook's table gives
(values the data file leaves empty are entered by hand) and the campaign ledger, saved
beside the journal. A ledger that can't be read is said at the top of the screen that
wanted it (``problem_line``) and read again by the same tap once the cause is gone."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial

import pygame

from companion.games.kings_dilemma import controller as kd
from companion.games.kings_dilemma.ledger import LedgerUnreadable
from companion.play.table import PlayedGame
from companion.play.turns import Turns
from companion.ui import theme as th
from companion.ui.app import App
from companion.ui.legible import paragraphs
from companion.ui.playcode import PlayCodeScreen
from companion.ui.screens.kings_dilemma.draw import (
    SCREENS,
    Actions,
    KdScreen,
    fit,
    table_grid,
)
from companion.ui.screens.kings_dilemma.entry import StepperScreen
from companion.ui.theme import Painter
from companion.ui.widgets import WORDS_GLYPH, Button, TapArea, button_h
from companion.ui.winner import Action, ShowsWinner, Standing, WinnerScreen, WinnerView

log = logging.getLogger(__name__)


def unreadable_text(t, exc: LedgerUnreadable) -> str:
    """A ledger that can't be read now, in the table's words (the screen that wanted it
    says so at the top of its body, ``problem_line``; the file stays as it is)."""
    return t("kd.ledger.unreadable", reason=t(f"kd.ledger.cause.{exc.reason}"))


def problem_line(screen: KdScreen, p: Painter | None, rect: pygame.Rect) -> pygame.Rect:
    """The screen's ``problem`` (if any) in a warning line at the top of ``rect`` (drawn
    when ``p`` is given); what is left of ``rect`` below it."""
    if not screen.problem:
        return rect
    px = screen.app.theme.px
    line = pygame.Rect(rect.x, rect.y, rect.w, px(34))
    if p is not None:
        fit(p, screen.problem, px(28), line, th.WARNING)
    return pygame.Rect(rect.x, line.bottom + px(4), rect.w, rect.bottom - line.bottom - px(4))


class EndScreen(ShowsWinner, KdScreen):
    """End scoring on the shared winner screen: each house's total, agenda, wealth, open
    agendas and power points and its place; the winners at the top. The night stays
    unfinished in the journal until it is recorded into the campaign (Campaign), so a
    power cut comes back here."""

    name = "kd-score"
    problem = ""  # the campaign ledger could not be read (a note above the buttons)

    def title(self) -> tuple[str, str]:
        final = self.night.view()["final"]
        winners = self.t("kd.score.winners", names=self.app.catalog.names(final["winners"]))
        if self.night.all_first():  # the house rule, said where it acts
            winners = self.t("kd.score.all_first")
        return self.t("kd.score.title"), winners

    def actions(self) -> Actions:
        return [(self.t("kd.council.campaign"), self.campaign), (self.t("kd.home"), self.home)]

    def home(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()

    def campaign(self) -> None:
        try:
            if self.night.recorded() or not self.night.missing_awards():
                record(self.app, self.night, {})
            else:
                self.go("kd-award")
        except LedgerUnreadable as exc:  # kept unread: Campaign tries it again
            self.problem = unreadable_text(self.t, exc)
            self.refresh()

    def rows(self) -> list[list[str]]:
        """Per house: name, agenda, wealth, open tokens, power, place, total."""
        return [[s.name, *s.breakdown, s.rank or "", s.total] for s in night_result(
            self.app, self.night, (), None).standings]

    def describe(self) -> str:
        return f"{' | '.join(self.title())} | " + "; ".join(" ".join(r) for r in self.rows())

    def refresh(self) -> None:
        """The shared winner screen (companion/ui/winner.py) on the felt inside its slim
        seat ring, without a code yet (the night is kept once recorded): Campaign and Home
        in the column at the right, a ledger that could not be read said above them."""
        self.show_winner(night_result(
            self.app, self.night, [(label, fn, key) for (label, fn), key in
                                   zip(self.actions(), ("campaign", "home"), strict=True)],
            None, [self.problem]))
        self.app.invalidate()

    def draw(self, p: Painter) -> None:
        self.winner.draw(p)


def record(app: App, night: kd.NightController, entered: dict[str, dict[str, int]]) -> None:
    """The scored night into the campaign ledger (saved), then out of the journal's
    unfinished games and into the history; the shared winner screen shows the result. A
    ledger that can't be saved is said on Home and the night stays unfinished."""
    try:
        night.record(entered)
    except (OSError, kd.RuleError) as exc:
        log.error("kings-dilemma: the campaign could not be saved: %s", exc)
        app.warnings.append(("kd.notice.ledger", str(exc)))
        end = EndScreen(app, night)
        if isinstance(exc, LedgerUnreadable):
            end.problem = unreadable_text(app.catalog.text, exc)
            end.refresh()
        app.replace(end)
        return
    app.table.end_game(night)
    app.replace(night_winner(app, night))


def night_winner(app: App, night: kd.NightController) -> WinnerScreen:
    """The shared winner screen of a recorded night (with its BG Stats code); its Campaign
    button goes on to the campaign ledger."""

    def campaign() -> None:
        app.replace(CampaignScreen(app, night))

    return WinnerScreen(app, None, night, lambda kept: night_result(
        app, night, [(app.catalog.text("kd.council.campaign"), campaign, "campaign")],
        night.played, [kept]))


def night_result(app: App, night: kd.NightController, actions: Sequence[Action],
                 played: PlayedGame | None, notes: Sequence[str] = ()) -> WinnerView:
    """A scored night on the shared winner screen: each house's agenda, wealth, open agenda
    tokens and power under its total, its place on its plate; the all-first house rule said where it acts."""
    t = app.catalog.text
    final = night.view()["final"]
    ranks = night.ranks()  # the campaign's ranks: what the prestige table reads
    # the place each house reached (the campaign's rank: "Last") is on its own plate
    # ("Last · 3") beside its total, not a row of the table: its word would not fit a
    # column of five houses at the words' size
    keys = ("agenda", "wealth", "open", "power")

    def cells(p: dict) -> list[str]:
        b = p["breakdown"]
        return [str(b["resources"]), str(b["wealth"]), f"{b['open_agendas']:+d}",
                str(b["power"])]

    all_first = [t("kd.score.all_first")] if night.all_first() else []
    return WinnerView(
        app, "kings-dilemma",
        [Standing(p["name"], str(p["total"]), cells(p), t(f"kd.rank.{ranks[p['name']]}"))
         for p in final["players"]],
        [t(f"kd.score.{k}") for k in keys], final["winners"], actions, played,
        [*all_first, *notes])


class AwardScreen(StepperScreen):
    """Prestige and crave the data file's table leaves empty, entered by hand from the
    rulebook's table (page 33), one rank reached in this game at a time; kept in the
    campaign ledger so each value is asked once."""

    name = "kd-award"

    def __init__(self, app: App, night: kd.NightController, page: int = 0,
                 entered: dict[str, dict[str, int]] | None = None) -> None:
        self.page = page
        self.entered = dict(entered or {})
        self.rank, self.keys = night.missing_awards()[page]
        super().__init__(app, night)

    def title(self) -> tuple[str, str]:
        """Whose values these are (the houses at the rank, their seats lit): the headline,
        in the title row."""
        return (self.t("kd.award.title", rank=self.t(f"kd.rank.{self.rank}"),
                       names=self.app.catalog.names(self.night.houses_at(self.rank))), "")

    def title_colour(self) -> tuple:
        return th.WARNING

    def help_lines(self) -> list[str]:
        """Where to read the values: the rulebook's table, in the row of how the reign
        ended."""
        return [self.t("kd.award.help"), self.t(f"kd.ended.{self.night.view()['ended']}")]

    def turns(self) -> Turns:
        return self.night.award_turns(self.rank)

    def fields(self) -> list[tuple[str, str]]:
        return [(k, self.t(f"kd.campaign.{k}")) for k in self.keys]

    def last(self) -> bool:
        return self.page == len(self.night.missing_awards()) - 1

    def done_label(self) -> str:
        return self.t("kd.award.save" if self.last() else "kd.award.next")

    def step(self, key: str, by: int) -> None:
        value = self.values.get(key, 0)
        super().step(key, kd.award_value(value, by) - value)

    def done(self) -> None:
        self.entered[self.rank] = {k: self.values.get(k, 0) for k in self.keys}
        if not self.last():
            self.go("kd-award", self.page + 1, self.entered)
            return
        record(self.app, self.night, self.entered)

    def describe(self) -> str:
        values = ", ".join(f"{k} {self.values.get(k, 0)}" for k in self.keys)
        return f"{self.title()[0]} | {values} | {' | '.join(self.help_lines())}"

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        super().draw_body(p, rect)
        cells = self.cells()
        paragraphs(p, self.help_lines(), cells[3].union(cells[4]))  # the page's figure large


class CampaignScreen(KdScreen):
    """The campaign ledger as saved: houses, prestige, crave, the agenda each chose last
    game; the next game's set-up order (lowest prestige picks an agenda first), leader,
    moderator. New campaign (two taps) starts over, keeping the old ledger aside."""

    name = "kd-campaign"
    problem = ""  # the saved ledger could not be read for New campaign (problem_line)
    page = 0  # the page of houses shown (a tap on the table turns it)
    ROW = 40  # units: a row of the table whose figures are drawn 24 px high per 480 px

    def title(self) -> tuple[str, str]:
        pages = self.pages()
        return (self.t("kd.campaign.title", games=len(self.night.campaign.games)),
                f"{self.page + 1} / {pages}" if pages > 1 else "")

    def table_rect(self) -> pygame.Rect:
        """Where the ledger's table is drawn: the body under the problem and next lines."""
        rect = problem_line(self, None, self.body)
        line = self.headline_rect(rect)
        return pygame.Rect(rect.x, line.bottom, rect.w, rect.bottom - line.bottom)

    def per_page(self) -> int:
        """How many houses a page holds with their figures at ``FIGURE_GLYPH`` (a row of
        ``ROW`` units each, under the head row): with five houses the 7" panel has room for
        fewer, and the rest go on the next pages."""
        return max(1, self.table_rect().h // self.app.theme.px(self.ROW) - 1)

    def pages(self) -> int:
        return -(-len(self.night.campaign_rows()) // self.per_page())

    def next_page(self) -> None:
        self.page = (self.page + 1) % self.pages()
        self.refresh()

    def next_setup(self) -> str:
        setup = self.night.setup_order()
        return self.t("kd.campaign.next", leader=setup.leader, moderator=setup.moderator)

    def actions(self) -> Actions:
        out = [(self.t("kd.back"), self.back),
               self.confirm(self.t("kd.campaign.new"), self.new_campaign)]
        if self.night.played is not None:  # the night just finished: its BG Stats code
            out.append((self.t("playcode.open"), self.play_code))
        return out

    def play_code(self) -> None:
        """The night's code full screen (beside the ledger it would leave the ledger's
        columns too narrow at 800×480)."""
        self.app.push(PlayCodeScreen(self.app, self.night.played))

    def back(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()

    def new_campaign(self) -> None:
        self.problem = ""
        try:
            self.night.new_campaign()
        except LedgerUnreadable as exc:  # nothing set aside or started: try again later
            self.problem = unreadable_text(self.t, exc)
        self.confirming = None
        self.refresh()

    def turns(self) -> Turns:
        return self.night.campaign_turns()

    def rows(self) -> list[list[str]]:
        """Every house's row (all pages)."""
        return [[name, str(number), str(prestige), str(crave),
                 self.t(f"kd.agenda.{agenda}") if agenda else "—",
                 str(picks) if picks else "—"]
                for name, number, prestige, crave, agenda, picks in self.night.campaign_rows()]

    def header(self) -> list[str]:
        return [self.t(f"kd.campaign.{k}") for k in
                ("house", "number", "prestige", "crave", "agenda", "picks")]

    def describe(self) -> str:
        return (f"{self.title()[0]} | {self.next_setup()} | "
                + "; ".join(" ".join(r) for r in self.rows()))

    def refresh(self) -> None:
        """The ledger's texts are read once per change (a new campaign), not every frame
        (the seats' lights redraw it as they blink)."""
        self.page = min(self.page, self.pages() - 1)  # a new campaign has fewer houses
        super().refresh()
        if self.pages() > 1:  # the whole table is the target that turns its pages
            self.buttons.append(TapArea(self.table_rect(), self.next_page))
        self.ledger = self.next_setup(), self.header(), self.rows()

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        next_setup, header, rows = self.ledger
        rect = problem_line(self, p, rect)
        rect = self.draw_headline(p, rect, next_setup)
        per = self.per_page()
        table_grid(p, rect, header, rows[self.page * per:(self.page + 1) * per],
                   first_share=0.24, weights=(0.6, 1, 1.3, 1.7, 0.8))


class SetupScreen(KdScreen):
    """A new game night: the coin toss puts each resource marker on its white (up) or
    black (down) side; tap a resource to turn its marker, then Start. The seats at the
    table are the houses (3–5) of the saved campaign; a seat without a house screen gets
    the lowest free house number. The night's Leader tosses (headline, light)."""

    name = "kd-setup"
    problem = ""  # the saved ledger could not be read: no night started (problem_line)

    def __init__(self, app: App) -> None:
        self.toss = kd.CoinToss([s.name for s in app.seats], app.journal)
        super().__init__(app, None)

    def title(self) -> tuple[str, str]:
        return self.t("kd.setup.title"), ""

    def turns(self) -> Turns:
        return self.toss.turns()

    def cells(self) -> list[tuple[pygame.Rect, pygame.Rect]]:
        """Six cells (three columns, two rows): a label box above a button."""
        px = self.app.theme.px
        area = pygame.Rect(self.inner.x, self.body.y, self.inner.w,
                           self.inner.bottom - self.body.y)
        if self.problem:  # the problem in the headline's place
            area = problem_line(self, None, area)
        else:
            top = area.y + self.headline_rect(area).h
            area = pygame.Rect(area.x, top, area.w, area.bottom - top)
        gap = px(10)
        w, h = (area.w - 2 * gap) // 3, (area.h - gap) // 2
        size = button_h(self.app.theme)
        out = []
        for k in range(6):
            cell = pygame.Rect(area.x + (k % 3) * (w + gap), area.y + (k // 3) * (h + gap), w, h)
            out.append((pygame.Rect(cell.x, cell.y, w, h - size),
                        pygame.Rect(cell.x, cell.bottom - size, w, size)))
        return out

    def refresh(self) -> None:
        super().refresh()
        cells = self.cells()
        self.buttons = [
            Button(button, self.t(f"kd.setup.{self.toss.momenta[r]}"), partial(self.turn, r))
            for r, (_, button) in zip(kd.RESOURCES, cells, strict=False)
        ]
        self.buttons.append(Button(cells[5][1], self.t("kd.setup.start"), self.start))

    def turn(self, resource: str) -> None:
        self.toss.turn(resource)
        self.refresh()

    def start(self) -> None:
        """The night starts from the saved campaign ledger (a new one the first time; a
        damaged one is moved aside and said on Home; one that can't be read now is said
        here and no night starts: a new campaign would be saved over it)."""
        try:
            night = self.toss.start()
        except LedgerUnreadable as exc:
            self.problem = unreadable_text(self.t, exc)
            self.refresh()
            return
        self.problem = ""
        if self.toss.ledger is not None and self.toss.ledger.notice:
            self.app.warnings.append(("kd.notice.ledger", self.toss.ledger.notice))
        self.app.replace(SCREENS["kd-council"](self.app, night))

    def describe(self) -> str:
        sides = ", ".join(f"{self.t(f'kd.resource.{r}')} {self.t(f'kd.setup.{m}')}"
                          for r, m in self.toss.momenta.items())
        return f"{self.title()[0]} | {self.say(self.toss.headline())} | {sides}"

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        if self.problem:
            problem_line(self, p, rect)
        else:
            self.draw_headline(p, rect, self.say(self.toss.headline()))
        for r, (label, _) in zip(kd.RESOURCES, self.cells(), strict=False):
            fit(p, self.t(f"kd.resource.{r}"), self.app.theme.px(WORDS_GLYPH), label, th.INK,
                "center")
