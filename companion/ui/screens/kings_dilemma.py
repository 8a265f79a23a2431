"""The King's Dilemma at the table: the council, the vote in progress
(open or secret), the reveal with its clean-up, the dilemma's outcome, the kingdom board,
the secret agendas and open agenda tokens at the end, the end scoring, the prestige and
crave the rulebook's table gives (values the data file leaves empty are entered by hand)
and the campaign ledger, saved beside the journal (``NightController``).

Its length: the night's eleven screens share one drawing base (``kd_draw``) and
move between each other; the rules are in ``companion.play.kings_dilemma``.

The council's Home button leaves the night unfinished in the journal: the menu entry (and
start-up) resumes it.

Every screen draws from the game night's public view (``companion.games.kings_dilemma``):
in a secret vote a seat shows "locked" or "not yet" and nothing else, so two different
ballots (or two different choices pending on a seat's buttons) give the very same pixels
and lights until every seat has locked. Power and coins stay behind the house screens
unless the table chose to track them publicly (``public`` in the setup): otherwise only
the Balance, the committed power on the vote cards and what the clean-up moves are shown.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import partial

import pygame

from companion.engine import kd_kingdom, kd_score, kd_vote
from companion.engine.errors import RuleError
from companion.games import kings_dilemma as kd_game
from companion.history import GameResult
from companion.kd_ledger import LedgerUnreadable
from companion.play.kings_dilemma import NightController, ledger_for
from companion.seat import ButtonEvent, Light
from companion.ui import theme as th
from companion.ui.app import App
from companion.ui.playcode import PlayCodeScreen
from companion.ui.screens.kd_draw import (
    KdScreen,
    fit,
    kingdom_board,
    row_rects,
    seat_row,
    table_grid,
    vote_help,
)
from companion.ui.theme import Painter
from companion.ui.widgets import Button, headline
from companion.ui.winner import Action, Standing, WinnerScreen, WinnerView

log = logging.getLogger(__name__)

Actions = Sequence[tuple[str, Callable[[], None]]]


def vote_text(t, seat: dict) -> str:
    """A seat's public vote: Aye N, Nay N, a pass, or a dash."""
    vote = seat.get("vote")
    if vote in kd_vote.SIDES:
        return t(f"kd.vote.{vote}", power=seat["committed"])
    if vote in kd_vote.PASSES:
        return t(f"kd.vote.{vote.replace('-', '_')}")
    return t("kd.vote.none")


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


def money_text(t, view: dict, name: str) -> str:
    """Power and coins, only when the table tracks them publicly."""
    parts = []
    if view.get("power") is not None:
        parts.append(t("kd.council.power", power=view["power"][name]))
    if view.get("coins") is not None:
        parts.append(t("kd.council.coins", coins=view["coins"][name]))
    return " · ".join(parts)


class CouncilScreen(KdScreen):
    """Between votes: the dilemma count, the Leader and Moderator, the Balance, each
    seat's vote on the last dilemma."""

    name = "kd-council"

    def title(self) -> tuple[str, str]:
        view = self.night.view()
        return (self.t("kd.council.title", number=self.night.dilemma),
                self.t("kd.balance", power=view["balance"]))

    def actions(self) -> Actions:
        return [
            (self.t("kd.council.open_vote"), partial(self.vote, kd_vote.OPEN)),
            (self.t("kd.council.secret_vote"), partial(self.vote, kd_vote.SECRET)),
            (self.t("kd.council.kingdom"), self.kingdom),
            (self.t("kd.council.campaign"), self.campaign),
            *undo_action(self),
            (self.t("kd.home"), self.home),
        ]

    def home(self) -> None:
        """Back to Home; the night stays unfinished in the journal (resumed from the menu
        or at start-up)."""
        if len(self.app.screens) > 1:
            self.app.pop()

    def vote(self, mode: str) -> None:
        self.night.start_vote(mode)
        self.app.replace(VoteScreen(self.app, self.night))

    def kingdom(self) -> None:
        self.app.push(KingdomScreen(self.app, self.night))

    def campaign(self) -> None:
        self.app.push(CampaignScreen(self.app, self.night))

    def status(self, view: dict, name: str) -> str:
        last = view["vote"]
        parts = [vote_text(self.t, last["seats"][name])] if last else []
        money = money_text(self.t, view, name)
        return " · ".join([*parts, money] if money else parts)

    def describe(self) -> str:
        left, right = self.title()
        view = self.night.view()
        rows = ", ".join(f"{n}: {self.status(view, n)}" for n in view["players"])
        return (f"{left} | {right} | {self.headline(view)} | "
                f"{self.t('kd.token.leader')}: {view['leader']} | "
                f"{self.t('kd.token.moderator')}: {view['moderator']} | {rows}")

    def headline(self, view: dict) -> str:
        """Who acts now and what: the Leader reads the next dilemma (then opens the vote,
        which starts with them)."""
        return self.t("kd.council.turn", name=view["leader"], number=self.night.dilemma)

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        view = self.night.view()
        line = self.headline_rect(rect)
        headline(p, self.headline(view), line, th.WARNING)
        rect = pygame.Rect(rect.x, line.bottom, rect.w, rect.bottom - line.bottom)
        for i, box in enumerate(row_rects(rect, len(view["players"]), self.app.theme.px(44))):
            name = view["players"][i]
            seat_row(self, p, box, name, self.app.seats[view["seats"][i]].colour,
                     name == view["leader"], name == view["moderator"],
                     self.status(view, name), th.INK_SOFT)


class VoteScreen(KdScreen):
    """The vote in progress. Open: whose turn, each seat's side and committed power, the
    pending choice of the seat on turn. Secret: per seat only locked / not yet."""

    name = "kd-vote"

    def title(self) -> tuple[str, str]:
        vote = self.night.vote_view()
        key = "kd.vote.title_secret" if vote["mode"] == kd_vote.SECRET else "kd.vote.title_open"
        left = self.t(key, number=self.night.dilemma)
        if vote["mode"] == kd_vote.SECRET:
            locked = sum(s["locked"] for s in vote["seats"].values())
            return left, self.t("kd.vote.locked_count", count=locked, total=len(vote["players"]))
        return left, self.t("kd.totals", **vote["totals"])

    def actions(self) -> Actions:
        return undo_action(self)

    def on_button(self, event: ButtonEvent) -> None:
        if not self.night.press(event):  # a secret vote's pending or refused press: no trace
            return
        self.confirming = None
        if self.night.vote_view()["phase"] != kd_vote.VOTING:
            self.app.replace(RevealScreen(self.app, self.night))
        else:
            self.refresh()

    def headline(self, vote: dict) -> tuple[str, tuple]:
        if vote["mode"] == kd_vote.SECRET:
            return " / ".join(vote_help(self.t, kd_vote.SECRET)), th.INK_SOFT
        if self.night.refused:  # an open vote's refusal and its reason are public
            name, exc = self.night.refused
            reason = self.app.catalog.refusal(exc, {"side": lambda s: self.t(f"kd.side.{s}")})
            return self.t("kd.vote.refused", name=name, reason=reason), th.MISSING
        return self.t("kd.vote.turn", name=vote["turn"], end=vote["ends_after"]), th.WARNING

    def describe(self) -> str:
        vote = self.night.vote_view()
        left, right = self.title()
        rows = ", ".join(f"{n}: {self.status(vote, n)[0]}" for n in vote["players"])
        return f"{left} | {right} | {self.headline(vote)[0]} | {rows}"

    def status(self, vote: dict, name: str) -> tuple[str, tuple]:
        seat = vote["seats"][name]
        if vote["mode"] == kd_vote.SECRET:
            if seat["locked"]:
                return self.t("kd.vote.locked"), th.INK
            return self.t("kd.vote.waiting"), th.INK_DIM
        text = vote_text(self.t, seat)
        if name == vote["turn"] and vote.get("pending"):
            choice, _, power = vote["pending"].partition(" ")
            if seat["vote"] is None:
                pending = vote_text(self.t, {"vote": choice, "committed": int(power or 0)})
                return self.t("kd.vote.pending_first", pending=pending), th.WARNING
            return self.t("kd.vote.pending_more", vote=text, power=power), th.WARNING
        return text, th.INK if seat["vote"] else th.INK_DIM

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        view = self.night.view()
        vote = view["vote"]
        line = pygame.Rect(rect.x, rect.y, rect.w, px(30))
        if vote["mode"] == kd_vote.SECRET:  # what each press and hold does, two lines
            for i, text in enumerate(vote_help(self.t, kd_vote.SECRET)):
                fit(p, text, px(26), line.move(0, i * px(28)), th.INK_SOFT)
            line = line.move(0, px(28))
        else:  # who plays now, in large type
            line = self.headline_rect(rect)
            text, colour = self.headline(vote)
            headline(p, text, line, colour)
        rows = pygame.Rect(rect.x, line.bottom, rect.w, rect.bottom - line.bottom)
        for i, box in enumerate(row_rects(rows, len(vote["players"]), px(44))):
            name = vote["players"][i]
            status, colour = self.status(vote, name)
            seat_row(self, p, box, name, self.app.seats[view["seats"][i]].colour,
                     name == vote["leader"], name == vote["moderator"], status, colour,
                     highlight=name == vote.get("turn"))


class RevealScreen(KdScreen):
    """Every ballot at once, the result, the moderator's decision on a tie or on the
    Leader token, and the clean-up: the Balance split, the power moved."""

    name = "kd-reveal"

    def title(self) -> tuple[str, str]:
        vote = self.night.vote_view()
        return self.t("kd.reveal.title", number=self.night.dilemma), self.footer(vote)

    def actions(self) -> Actions:
        vote = self.night.vote_view()
        if vote["phase"] == kd_vote.TIE:
            return [*((self.t("kd.reveal.decide", side=self.t(f"kd.side.{side}")),
                       partial(self.decide, side)) for side in kd_vote.SIDES),
                    *undo_action(self)]
        if vote["phase"] == kd_vote.LEADER_CHOICE:
            return [*((name, partial(self.choose, name)) for name in vote["candidates"]),
                    *undo_action(self)]
        return [(self.t("kd.reveal.outcome"), self.outcome), *undo_action(self)]

    def decide(self, side: str) -> None:
        self.night.break_tie(side)
        self.refresh()

    def choose(self, name: str) -> None:
        self.night.choose_leader(name)
        self.refresh()

    def on_button(self, event: ButtonEvent) -> None:
        if self.night.press(event):
            self.confirming = None
            self.refresh()

    def outcome(self) -> None:
        self.app.replace(OutcomeScreen(self.app, self.night))

    def headline(self, vote: dict) -> str:
        totals, moderator = vote["totals"], vote["moderator"]
        everybody_passed = all(s["vote"] in kd_vote.PASSES for s in vote["seats"].values())
        if vote["phase"] == kd_vote.TIE:
            key = "kd.reveal.all_passed" if everybody_passed else "kd.reveal.tie"
            return self.t(key, name=moderator, **totals)
        if vote["phase"] == kd_vote.LEADER_CHOICE:
            return self.t("kd.reveal.choose_leader", name=moderator)
        if vote["tie_broken"]:  # the totals tied: the rows show them
            text = self.t(f"kd.reveal.{vote['outcome']}_decided", name=moderator)
        else:
            text = self.t(f"kd.reveal.{vote['outcome']}_wins", **totals)
        return self.t("kd.reveal.next", what=text, name=vote["leader"])

    def status(self, vote: dict, name: str) -> str:
        seat = vote["seats"][name]
        text = vote_text(self.t, seat)
        if name in vote["late_moderator_claims"]:
            text = self.t("kd.reveal.late_claim")
        if vote["phase"] != kd_vote.DONE:
            return text
        if seat["vote"] in kd_vote.SIDES:
            key = "kd.reveal.to_balance" if seat["vote"] == vote["outcome"] else "kd.reveal.back"
            return f"{text} {self.t(key)}"
        share = vote["shares"][name]
        return f"{text} {self.t('kd.reveal.share', power=share)}" if share else text

    def footer(self, vote: dict) -> str:
        if vote["phase"] != kd_vote.DONE:
            return self.t("kd.balance", power=vote["balance"])
        before = vote["balance"] - sum(
            s["committed"] for s in vote["seats"].values() if s["vote"] == vote["outcome"]
        ) + sum(vote["shares"].values())
        return self.t("kd.reveal.balance", before=before, after=vote["balance"])

    def describe(self) -> str:
        vote = self.night.vote_view()
        rows = ", ".join(f"{n}: {self.status(vote, n)}" for n in vote["players"])
        return f"{self.title()[0]} | {self.headline(vote)} | {self.footer(vote)} | {rows}"

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        view = self.night.view()
        vote = view["vote"]
        line = self.headline_rect(rect)
        headline(p, self.headline(vote), line, th.WARNING)
        rows = pygame.Rect(rect.x, line.bottom, rect.w, rect.bottom - line.bottom)
        for i, box in enumerate(row_rects(rows, len(vote["players"]), px(44))):
            name = vote["players"][i]
            seat_row(self, p, box, name, self.app.seats[view["seats"][i]].colour,
                     name == vote["leader"], name == vote["moderator"], self.status(vote, name))


class StepperScreen(KdScreen):
    """Numbers entered by touch: up to five − / + steppers and the Done button, in three
    columns and two rows (every target at least ``MIN_TARGET``)."""

    def __init__(self, app: App, night: NightController) -> None:
        self.values: dict[str, int] = {}  # in entry order
        super().__init__(app, night)

    def fields(self) -> list[tuple[str, str]]:
        """(key, label) of each stepper."""
        raise NotImplementedError

    def done_label(self) -> str:
        raise NotImplementedError

    def done(self) -> None:
        raise NotImplementedError

    def cells(self) -> list[pygame.Rect]:
        px = self.app.theme.px
        area = pygame.Rect(self.inner.x, self.body.y, self.inner.w,
                           self.inner.bottom - self.body.y)
        gap = px(10)
        w, h = (area.w - 2 * gap) // 3, (area.h - gap) // 2
        return [pygame.Rect(area.x + (k % 3) * (w + gap), area.y + (k // 3) * (h + gap), w, h)
                for k in range(6)]

    def steppers(self) -> dict[str, tuple[str, pygame.Rect, pygame.Rect, pygame.Rect,
                                          pygame.Rect]]:
        """Per field: its label, the label's box, − button, amount, + button."""
        size = max(th.MIN_TARGET, self.app.theme.px(64))
        out = {}
        for (key, label), cell in zip(self.fields(), self.cells(), strict=False):
            box = pygame.Rect(cell.x, cell.y, cell.w, cell.h - size)
            row = pygame.Rect(cell.x, cell.bottom - size, cell.w, size)
            minus = pygame.Rect(row.x, row.y, size, size)
            plus = pygame.Rect(row.right - size, row.y, size, size)
            value = pygame.Rect(minus.right, row.y, plus.left - minus.right, size)
            out[key] = (label, box, minus, value, plus)
        return out

    def refresh(self) -> None:
        super().refresh()
        last = self.cells()[5]
        size = max(th.MIN_TARGET, self.app.theme.px(64))
        self.buttons = [Button(pygame.Rect(last.x, last.bottom - size, last.w, size),
                               self.done_label(), self.done)]
        for key, (_, _, minus, _, plus) in self.steppers().items():
            self.buttons.append(Button(minus, "−", partial(self.step, key, -1)))
            self.buttons.append(Button(plus, "+", partial(self.step, key, 1)))

    def step(self, key: str, by: int) -> None:
        self.values[key] = self.values.get(key, 0) + by
        if not self.values[key]:
            del self.values[key]
        self.app.invalidate()

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        for key, (label, box, _, value, _) in self.steppers().items():
            fit(p, label, px(30), box, th.INK, "center")
            amount = self.values.get(key, 0)
            fit(p, f"{amount:+d}" if amount else "0", px(36), value,
                th.WARNING if amount else th.INK_DIM, "center")


class OutcomeScreen(StepperScreen):
    """The dilemma's outcome as printed on the card: − / + per resource, applied in the
    order they were entered (the card's left-to-right order)."""

    name = "kd-outcome"

    def title(self) -> tuple[str, str]:
        return self.t("kd.outcome.title", number=self.night.dilemma), ""

    def fields(self) -> list[tuple[str, str]]:
        return [(r, self.t(f"kd.resource.{r}")) for r in kd_kingdom.RESOURCES]

    def done_label(self) -> str:
        return self.t("kd.outcome.apply")

    def done(self) -> None:
        self.night.apply_outcome(list(self.values.items()))
        self.app.replace(KingdomScreen(self.app, self.night, after_outcome=True))

    def describe(self) -> str:
        changes = ", ".join(f"{self.t(f'kd.resource.{r}')} {n:+d}" for r, n in self.values.items())
        return f"{self.title()[0]} | {changes or self.t('kd.outcome.none')}"


class KingdomScreen(KdScreen):
    """The kingdom board; after an outcome, the resources that moved are highlighted."""

    name = "kd-kingdom"

    def __init__(self, app: App, night: NightController, after_outcome: bool = False) -> None:
        self.after_outcome = after_outcome
        super().__init__(app, night)

    def title(self) -> tuple[str, str]:
        ended = self.night.view()["ended"]
        return self.t("kd.kingdom.title"), self.t(f"kd.ended.{ended}") if ended else ""

    def actions(self) -> Actions:
        if not self.after_outcome:
            return [(self.t("kd.back"), self.app.pop)]
        if self.night.view()["phase"] == kd_game.OVER:
            return [(self.t("kd.council.end_game"), self.end_game)]
        return [(self.t("kd.kingdom.next"), self.next_dilemma),
                self.confirm(self.t("kd.kingdom.king_dies"), self.king_dies),
                *undo_action(self)]

    def next_dilemma(self) -> None:
        self.app.replace(CouncilScreen(self.app, self.night))

    def king_dies(self) -> None:
        """The dilemma's outcome kills the king (the timeline on the cards): the game ends."""
        self.night.king_dies()
        self.confirming = None
        self.refresh()

    def end_game(self) -> None:
        self.app.replace(AgendaScreen(self.app, self.night))

    def moved(self) -> set[str]:
        moves = self.night.view()["moves"]
        return {m["resource"] for m in moves} if self.after_outcome else set()

    def describe(self) -> str:
        k = self.night.kingdom
        parts = [f"{self.t(f'kd.resource.{r.name}')} {r.position:+d} {r.momentum}"
                 f"{'+marker' if r.marker else ''}" for r in k.resources]
        parts.append(f"{self.t('kd.kingdom.stability')} {k.stability.position:+d}")
        return f"{self.title()[0]} | {self.title()[1]} | " + ", ".join(parts)

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        kingdom_board(self, p, rect, self.night.kingdom, self.moved())


class AgendaScreen(StepperScreen):
    """The end of the game: each house in turn reads its secret agenda card aloud — which
    card it is, the resource objective's points and the wealth objective's points for 1st,
    2nd, 3rd most coins; its open agenda tokens follow (``TokensScreen``); after the last
    house the game is scored."""

    name = "kd-agenda"

    def __init__(self, app: App, night: NightController, house: int = 0, entry: Entry | None = None
                 ) -> None:
        self.house = house
        self.entry = entry or Entry()
        player = night.players[house]
        self.card = next(c for c in night.campaign.settings.agendas
                         if c not in self.entry.taken(player))
        super().__init__(app, night)

    def cards(self) -> tuple[str, ...]:
        return self.night.campaign.settings.agendas

    @property
    def player(self) -> str:
        return self.night.players[self.house]

    def title(self) -> tuple[str, str]:
        return (self.t("kd.agenda_entry.title", name=self.player),
                self.t("kd.agenda_entry.count", number=self.house + 1,
                       total=len(self.night.players)))

    def lights(self) -> dict[int, Light]:
        return self.night.reading_lights(self.player)

    def fields(self) -> list[tuple[str, str]]:
        return [(k, self.t(f"kd.agenda_entry.{k}"))
                for k in ("resources", "wealth_1", "wealth_2", "wealth_3")]

    def done_label(self) -> str:
        return self.t("kd.agenda_entry.tokens")

    def card_rects(self) -> tuple[pygame.Rect, pygame.Rect]:
        """The card's label box and its button (the fifth cell)."""
        cell = self.cells()[4]
        size = max(th.MIN_TARGET, self.app.theme.px(64))
        return (pygame.Rect(cell.x, cell.y, cell.w, cell.h - size),
                pygame.Rect(cell.x, cell.bottom - size, cell.w, size))

    def refresh(self) -> None:
        super().refresh()
        self.buttons.append(Button(self.card_rects()[1], self.t(f"kd.agenda.{self.card}"),
                                   self.next_card))

    def next_card(self) -> None:
        """The next card no other house has chosen."""
        taken = self.entry.taken(self.player)
        free = [c for c in self.cards() if c not in taken]
        self.card = free[(free.index(self.card) + 1) % len(free)]
        self.refresh()

    def done(self) -> None:
        v = self.values
        self.entry.agendas[self.player] = {
            "resources": v.get("resources", 0),
            "wealth": [v.get("wealth_1", 0), v.get("wealth_2", 0), v.get("wealth_3", 0)],
        }
        self.entry.cards[self.player] = self.card
        self.app.replace(TokensScreen(self.app, self.night, self.house, self.entry))

    def describe(self) -> str:
        values = ", ".join(f"{k} {n:+d}" for k, n in self.values.items())
        return (f"{' | '.join(self.title())} | {self.t(f'kd.agenda.{self.card}')} | "
                f"{values or self.t('kd.outcome.none')}")

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        super().draw_body(p, rect)
        fit(p, self.t("kd.agenda_entry.card"), self.app.theme.px(30), self.card_rects()[0],
            th.INK, "center")


class Entry:
    """What the houses have read out so far at the end of the game."""

    def __init__(self) -> None:
        self.agendas: dict[str, dict] = {}
        self.cards: dict[str, str] = {}
        self.tokens: dict[str, list[str]] = {}

    def taken(self, house: str) -> set[str]:
        return {c for h, c in self.cards.items() if h != house}

    def held(self, house: str) -> set[str]:
        return {t for h, tokens in self.tokens.items() if h != house for t in tokens}


TOKEN_STATES = ((), ("+",), ("-",), ("+", "-"))


class TokensScreen(StepperScreen):
    """A house's open agenda tokens: per resource none, positive, negative or both (a
    token another house holds is skipped; at most two of a sign per house)."""

    name = "kd-tokens"

    def __init__(self, app: App, night: NightController, house: int, entry: Entry) -> None:
        self.house = house
        self.entry = entry
        self.signs: dict[str, tuple[str, ...]] = dict.fromkeys(kd_kingdom.RESOURCES, ())
        super().__init__(app, night)

    @property
    def player(self) -> str:
        return self.night.players[self.house]

    def title(self) -> tuple[str, str]:
        return (self.t("kd.tokens.title", name=self.player),
                self.t("kd.agenda_entry.count", number=self.house + 1,
                       total=len(self.night.players)))

    lights = AgendaScreen.lights

    def fields(self) -> list[tuple[str, str]]:
        return []

    def done_label(self) -> str:
        last = self.house == len(self.night.players) - 1
        return self.t("kd.agenda_entry.score" if last else "kd.agenda_entry.next")

    def tokens(self) -> list[str]:
        return [f"{sign}{r}" for r, signs in self.signs.items() for sign in signs]

    def token_rects(self) -> list[tuple[pygame.Rect, pygame.Rect]]:
        size = max(th.MIN_TARGET, self.app.theme.px(64))
        return [(pygame.Rect(c.x, c.y, c.w, c.h - size),
                 pygame.Rect(c.x, c.bottom - size, c.w, size)) for c in self.cells()[:5]]

    def refresh(self) -> None:
        super().refresh()
        for r, (_, button) in zip(kd_kingdom.RESOURCES, self.token_rects(), strict=True):
            self.buttons.append(Button(button, self.state_text(self.signs[r]),
                                       partial(self.turn, r)))

    def state_text(self, signs: tuple[str, ...]) -> str:
        return self.t("kd.tokens." + {(): "none", ("+",): "plus", ("-",): "minus"}.get(
            signs, "both"))

    def allowed(self, resource: str, signs: tuple[str, ...]) -> bool:
        held = self.entry.held(self.player)
        others = [t for t in self.tokens() if t[1:] != resource]
        return all(
            f"{s}{resource}" not in held
            and sum(t[0] == s for t in others) < kd_score.MAX_TOKENS_PER_SIGN
            for s in signs
        )

    def turn(self, resource: str) -> None:
        """The next state this house may hold for ``resource``."""
        k = TOKEN_STATES.index(self.signs[resource])
        for step in range(1, len(TOKEN_STATES) + 1):
            signs = TOKEN_STATES[(k + step) % len(TOKEN_STATES)]
            if self.allowed(resource, signs):
                self.signs[resource] = signs
                break
        self.refresh()

    def done(self) -> None:
        self.entry.tokens[self.player] = self.tokens()
        if self.house + 1 < len(self.night.players):
            self.app.replace(AgendaScreen(self.app, self.night, self.house + 1, self.entry))
            return
        self.night.score(self.entry.agendas, self.entry.tokens, self.entry.cards)
        self.app.replace(EndScreen(self.app, self.night))

    def describe(self) -> str:
        return f"{' | '.join(self.title())} | {', '.join(self.tokens()) or self.t('kd.tokens.none')}"

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        for r, (label, _) in zip(kd_kingdom.RESOURCES, self.token_rects(), strict=True):
            fit(p, self.t(f"kd.resource.{r}"), self.app.theme.px(30), label, th.INK, "center")


class EndScreen(KdScreen):
    """End scoring on the shared winner screen: each house's total, agenda, wealth, open
    agendas and power points and its place; the winners at the top. The night stays unfinished in the journal
    until it is recorded into the campaign (Campaign), so a power cut comes back here."""

    name = "kd-score"
    problem = ""  # the campaign ledger could not be read (a note above the buttons)

    def title(self) -> tuple[str, str]:
        final = self.night.view()["final"]
        winners = self.t("kd.score.winners", names=self.app.catalog.names(final["winners"]))
        if set(self.night.ranks().values()) == {"1st"}:  # the house rule, said where it acts
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
                self.app.replace(AwardScreen(self.app, self.night))
        except LedgerUnreadable as exc:  # kept unread: Campaign tries it again
            self.problem = unreadable_text(self.t, exc)
            self.refresh()

    def rows(self) -> list[list[str]]:
        players = self.night.view()["final"]["players"]
        ranks = self.night.ranks()  # the campaign's ranks: what the prestige table reads
        rows = []
        for p in players:
            b = p["breakdown"]
            rows.append([p["name"], str(b["resources"]), str(b["wealth"]),
                         f"{b['open_agendas']:+d}", str(b["power"]),
                         self.t(f"kd.rank.{ranks[p['name']]}"), str(p["total"])])
        return rows

    def header(self) -> list[str]:
        return [self.t(f"kd.score.{k}") for k in
                ("house", "agenda", "wealth", "open", "power", "place", "total")]

    def describe(self) -> str:
        return f"{' | '.join(self.title())} | " + "; ".join(" ".join(r) for r in self.rows())

    def refresh(self) -> None:
        """The shared winner screen (companion/ui/winner.py) over the whole canvas, without
        a code yet (the night is kept once recorded): Campaign and Home along the foot, a
        ledger that could not be read said above them."""
        self.winner = night_result(
            self.app, self.night, [(label, fn, key) for (label, fn), key in
                                   zip(self.actions(), ("campaign", "home"), strict=True)],
            None, [self.problem])
        self.buttons = self.winner.buttons
        self.app.invalidate()

    def draw(self, p: Painter) -> None:
        self.winner.draw(p)


def record(app: App, night: NightController, entered: dict[str, dict[str, int]]) -> None:
    """The scored night into the campaign ledger (saved), then out of the journal's
    unfinished games and into the history; the shared winner screen shows the result. A ledger
    that can't be saved is said on Home and the night stays unfinished."""
    try:
        night.record(entered)
    except (OSError, RuleError) as exc:
        log.error("kings-dilemma: the campaign could not be saved: %s", exc)
        app.warnings.append(("kd.notice.ledger", str(exc)))
        end = EndScreen(app, night)
        if isinstance(exc, LedgerUnreadable):
            end.problem = unreadable_text(app.catalog.text, exc)
            end.refresh()
        app.replace(end)
        return
    night.finish(app.history)
    app.replace(night_winner(app, night))


def night_winner(app: App, night: NightController) -> WinnerScreen:
    """The shared winner screen of a recorded night (with its BG Stats code); its Campaign
    button goes on to the campaign ledger."""

    def campaign() -> None:
        app.replace(CampaignScreen(app, night))

    return WinnerScreen(app, night_result(
        app, night, [(app.catalog.text("kd.council.campaign"), campaign, "campaign")],
        night.played))


def night_result(app: App, night: NightController, actions: Sequence[Action],
                 played: GameResult | None, notes: Sequence[str] = ()) -> WinnerView:
    """A scored night on the shared winner screen: each house's agenda, wealth, open agenda
    tokens, power and place under its total; the all-first house rule said where it acts."""
    t = app.catalog.text
    final = night.view()["final"]
    ranks = night.ranks()  # the campaign's ranks: what the prestige table reads
    keys = ("agenda", "wealth", "open", "power", "place")

    def cells(p: dict) -> list[str]:
        b = p["breakdown"]
        return [str(b["resources"]), str(b["wealth"]), f"{b['open_agendas']:+d}",
                str(b["power"]), t(f"kd.rank.{ranks[p['name']]}")]

    all_first = [t("kd.score.all_first")] if set(ranks.values()) == {"1st"} else []
    return WinnerView(
        app, "kings-dilemma",
        [Standing(p["name"], str(p["total"]), cells(p)) for p in final["players"]],
        [t(f"kd.score.{k}") for k in keys], final["winners"], actions, played,
        [*all_first, *notes])


class AwardScreen(StepperScreen):
    """Prestige and crave the data file's table leaves empty, entered by hand from the
    rulebook's table (page 33), one rank reached in this game at a time; kept in the
    campaign ledger so each value is asked once."""

    name = "kd-award"

    def __init__(self, app: App, night: NightController, page: int = 0,
                 entered: dict[str, dict[str, int]] | None = None) -> None:
        self.page = page
        self.entered = dict(entered or {})
        self.rank, self.keys = night.missing_awards()[page]
        super().__init__(app, night)

    def title(self) -> tuple[str, str]:
        houses = [h for h, r in self.night.ranks().items() if r == self.rank]
        return (self.t("kd.award.title", rank=self.t(f"kd.rank.{self.rank}"),
                       names=self.app.catalog.names(houses)),
                self.t(f"kd.ended.{self.night.view()['ended']}"))

    def lights(self) -> dict[int, Light]:
        return self.night.award_lights(self.rank)

    def fields(self) -> list[tuple[str, str]]:
        return [(k, self.t(f"kd.campaign.{k}")) for k in self.keys]

    def done_label(self) -> str:
        last = self.page == len(self.night.missing_awards()) - 1
        return self.t("kd.award.save" if last else "kd.award.next")

    def step(self, key: str, by: int) -> None:
        if self.values.get(key, 0) + by >= 0:  # prestige and crave are never negative
            super().step(key, by)

    def done(self) -> None:
        self.entered[self.rank] = {k: self.values.get(k, 0) for k in self.keys}
        if self.page + 1 < len(self.night.missing_awards()):
            self.app.replace(AwardScreen(self.app, self.night, self.page + 1, self.entered))
            return
        record(self.app, self.night, self.entered)

    def describe(self) -> str:
        values = ", ".join(f"{k} {self.values.get(k, 0)}" for k in self.keys)
        return f"{' | '.join(self.title())} | {values} | {self.t('kd.award.help')}"

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        super().draw_body(p, rect)
        cells = self.cells()
        fit(p, self.t("kd.award.help"), self.app.theme.px(26),
            cells[3].union(cells[4]).inflate(0, -cells[3].h // 2), th.INK_SOFT, "center")


class CampaignScreen(KdScreen):
    """The campaign ledger as saved: houses, prestige, crave, the agenda each chose last
    game; the next game's set-up order (lowest prestige picks an agenda first), leader,
    moderator. New campaign (two taps) starts over, keeping the old ledger aside."""

    name = "kd-campaign"
    problem = ""  # the saved ledger could not be read for New campaign (problem_line)

    def title(self) -> tuple[str, str]:
        return self.t("kd.campaign.title", games=len(self.night.campaign.games)), ""

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

    def lights(self) -> dict[int, Light]:
        return self.night.campaign_lights()

    def rows(self) -> list[list[str]]:
        campaign = self.night.campaign
        order = self.night.setup_order().agenda_order
        agendas = dict(campaign.games[-1].agendas) if campaign.games else {}
        return [[h.name, str(h.number), str(h.prestige), str(h.crave),
                 self.t(f"kd.agenda.{agendas[h.name]}") if h.name in agendas else "—",
                 str(order.index(h.name) + 1) if h.name in order else "—"]
                for h in campaign.houses]

    def header(self) -> list[str]:
        return [self.t(f"kd.campaign.{k}") for k in
                ("house", "number", "prestige", "crave", "agenda", "picks")]

    def describe(self) -> str:
        return (f"{self.title()[0]} | {self.next_setup()} | "
                + "; ".join(" ".join(r) for r in self.rows()))

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        rect = problem_line(self, p, rect)
        line = pygame.Rect(rect.x, rect.y, rect.w, px(28))
        fit(p, self.next_setup(), px(28), line, th.WARNING)
        grid = pygame.Rect(rect.x, line.bottom, rect.w, rect.bottom - line.bottom)
        table_grid(p, grid, self.header(), self.rows(), first_share=0.24,
                   weights=(0.7, 1, 1, 1.8, 0.8))


class SetupScreen(KdScreen):
    """A new game night: the coin toss puts each resource marker on its white (up) or
    black (down) side; tap a resource to turn its marker, then Start. The seats at the
    table are the houses (3–5) of the saved campaign; a seat without a house screen gets
    the lowest free house number."""

    name = "kd-setup"
    problem = ""  # the saved ledger could not be read: no night started (problem_line)

    def __init__(self, app: App) -> None:
        self.momenta = dict.fromkeys(kd_kingdom.RESOURCES, kd_kingdom.UP)
        super().__init__(app, None)

    def title(self) -> tuple[str, str]:
        return self.t("kd.setup.title"), ""

    def lights(self) -> dict[int, Light]:
        return {}  # no night yet: every seat off

    def cells(self) -> list[tuple[pygame.Rect, pygame.Rect]]:
        """Six cells (three columns, two rows): a label box above a button."""
        px = self.app.theme.px
        area = problem_line(self, None, pygame.Rect(self.inner.x, self.body.y, self.inner.w,
                                                    self.inner.bottom - self.body.y))
        gap = px(10)
        w, h = (area.w - 2 * gap) // 3, (area.h - gap) // 2
        size = max(th.MIN_TARGET, px(64))
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
            Button(button, self.t(f"kd.setup.{self.momenta[r]}"), partial(self.turn, r))
            for r, (_, button) in zip(kd_kingdom.RESOURCES, cells, strict=False)
        ]
        self.buttons.append(Button(cells[5][1], self.t("kd.setup.start"), self.start))

    def turn(self, resource: str) -> None:
        up = self.momenta[resource] == kd_kingdom.UP
        self.momenta[resource] = kd_kingdom.DOWN if up else kd_kingdom.UP
        self.refresh()

    def start(self) -> None:
        """The night starts from the saved campaign ledger (a new one the first time; a
        damaged one is moved aside and said on Home; one that can't be read now is said
        here and no night starts: a new campaign would be saved over it)."""
        ledger = ledger_for(self.app.journal)
        try:
            night = NightController.new([s.name for s in self.app.seats], self.app.journal,
                                        self.momenta, ledger=ledger)
        except LedgerUnreadable as exc:
            self.problem = unreadable_text(self.t, exc)
            self.refresh()
            return
        self.problem = ""
        if ledger is not None and ledger.notice:
            self.app.warnings.append(("kd.notice.ledger", ledger.notice))
        self.app.replace(CouncilScreen(self.app, night))

    def describe(self) -> str:
        sides = ", ".join(f"{self.t(f'kd.resource.{r}')} {self.t(f'kd.setup.{m}')}"
                          for r, m in self.momenta.items())
        return f"{self.title()[0]} | {sides}"

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        problem_line(self, p, rect)
        for r, (label, _) in zip(kd_kingdom.RESOURCES, self.cells(), strict=False):
            fit(p, self.t(f"kd.resource.{r}"), self.app.theme.px(30), label, th.INK, "center")


# --------------------------------------------------------------------------- undo


def undo_action(screen: KdScreen) -> list[tuple[str, Callable[[], None]]]:
    """The Undo button (two taps: "Sure? Undo") while the journal holds an action of the
    night. Touch only: on the pads every long press already means something in a vote
    (docs/button-grammar.md)."""
    if not screen.night.can_undo():
        return []
    return [screen.confirm(screen.t("kd.undo"), partial(undo, screen))]


def undo(screen: KdScreen) -> None:
    """Take back the last action and show the screen of the night as it then stands. A
    secret lock taken back before the reveal: that seat shows "not yet" again, exactly as
    if it had never locked (its ballot deleted unseen); every seat's unlocked pending
    choice is forgotten too."""
    screen.night.undo()
    screen.app.replace(screen_for(screen.app, screen.night))


# --------------------------------------------------------------------------- the menu


def new_game(app: App) -> KdScreen:
    """The night left unfinished in the journal (the council's Home button), else a new
    game night: the coin toss for the resource markers, then the council. ``RuleError``
    for a table of fewer than 3 or more than 5 seats."""
    if not kd_vote.MIN_PLAYERS <= len(app.seats) <= kd_vote.MAX_PLAYERS:
        raise RuleError("seats", app.catalog.text(
            "kd.setup.seats", count=len(app.seats), low=kd_vote.MIN_PLAYERS,
            high=kd_vote.MAX_PLAYERS),
                        code="player_count",
                        params={"n": len(app.seats), "low": kd_vote.MIN_PLAYERS,
                                "high": kd_vote.MAX_PLAYERS})
    if app.journal is not None:
        for record in reversed(app.journal.unfinished()):
            if record.game == kd_game.GAME:
                return resume(app, record.id)
    return SetupScreen(app)


def resume(app: App, game_id: int) -> KdScreen:
    """The screen of the unfinished game night ``game_id`` of the app's journal, as the
    journal left it (a secret vote: the locks, no ballot)."""
    return screen_for(app, NightController.resume(app.journal, game_id))


def screen_for(app: App, night: NightController) -> KdScreen:
    """The screen of the night as it stands: the vote, the reveal (or the outcome to
    enter), the agendas, the scores or the council."""
    view = night.view()
    phase = view["phase"]
    if phase == kd_game.VOTE:
        if view["vote"]["phase"] == kd_vote.VOTING:
            return VoteScreen(app, night)
        return RevealScreen(app, night)
    if phase == kd_game.OUTCOME:
        return RevealScreen(app, night)
    if phase == kd_game.OVER:
        return AgendaScreen(app, night)
    if phase == kd_game.SCORED:
        return EndScreen(app, night)
    return CouncilScreen(app, night)
