"""The King's Dilemma at the table (shared/RULES.md §4): the council, the vote in progress
(open or secret), the reveal with its clean-up, the dilemma's outcome, the kingdom board,
the end scoring and the campaign ledger.

Every screen draws from the table's public view only: in a secret vote a seat shows
"locked" or "not yet" and nothing else, so two different ballots (or two different
choices pending on a seat's buttons) give the very same pixels and lights until every
seat has locked. Power and coins stay behind the house screens: only the Balance, the
committed power on the vote cards and what the clean-up moves are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import pygame

from companion.engine import kd_kingdom, kd_vote
from companion.engine.kd_score import FinalScore, OpenAgenda, SecretAgenda
from companion.hardware.base import ButtonEvent, Light, Press
from companion.ui import theme as th
from companion.ui.app import App
from companion.ui.screens.kd_draw import (
    KdScreen,
    fit,
    kingdom_board,
    row_rects,
    seat_row,
    table_grid,
)
from companion.ui.screens.kd_table import KdTable
from companion.ui.theme import Painter
from companion.ui.widgets import Button

Actions = Sequence[tuple[str, Callable[[], None]]]


def vote_text(t, seat: dict) -> str:
    """A seat's public vote: Aye N, Nay N, a pass, or a dash."""
    vote = seat.get("vote")
    if vote in kd_vote.SIDES:
        return t(f"kd.vote.{vote}", power=seat["committed"])
    if vote in kd_vote.PASSES:
        return t(f"kd.vote.{vote.replace('-', '_')}")
    return t("kd.vote.none")


class CouncilScreen(KdScreen):
    """Between votes: the dilemma count, the Leader and Moderator, the Balance."""

    name = "kd-council"

    def title(self) -> tuple[str, str]:
        view = self.table.view()
        return (
            self.t("kd.council.title", number=self.table.dilemma),
            self.t("kd.balance", power=view["balance"]),
        )

    def actions(self) -> Actions:
        return [
            (self.t("kd.council.open_vote"), partial(self.vote, kd_vote.OPEN)),
            (self.t("kd.council.secret_vote"), partial(self.vote, kd_vote.SECRET)),
            (self.t("kd.council.kingdom"), self.kingdom),
            (self.t("kd.council.campaign"), self.campaign),
        ]

    def vote(self, mode: str) -> None:
        self.table.start_vote(mode)
        self.app.replace(VoteScreen(self.app, self.table))

    def kingdom(self) -> None:
        self.app.push(KingdomScreen(self.app, self.table))

    def campaign(self) -> None:
        self.app.push(CampaignScreen(self.app, self.table))

    def describe(self) -> str:
        left, right = self.title()
        view = self.table.view()
        return (
            f"{left} | {right} | {self.t('kd.token.leader')}: {view['leader']} | "
            f"{self.t('kd.token.moderator')}: {view['moderator']}"
        )

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        view = self.table.view()
        last = self.table.last_vote
        seats = kd_vote.public_view(last)["seats"] if last is not None else {}
        for i, box in enumerate(row_rects(rect, len(view["players"]), self.app.theme.px(44))):
            name = view["players"][i]
            status = vote_text(self.t, seats[name]) if name in seats else ""
            seat_row(
                self,
                p,
                box,
                name,
                self.app.seats[i].colour,
                name == view["leader"],
                name == view["moderator"],
                status,
                th.INK_SOFT,
            )


class VoteScreen(KdScreen):
    """The vote in progress. Open: whose turn, each seat's side and committed power, the
    turn seat's pending choice. Secret: per seat only locked / not yet."""

    name = "kd-vote"

    def title(self) -> tuple[str, str]:
        view = self.table.view()
        key = "kd.vote.title_secret" if view["mode"] == kd_vote.SECRET else "kd.vote.title_open"
        left = self.t(key, number=self.table.dilemma)
        if view["mode"] == kd_vote.SECRET:
            locked = sum(s["locked"] for s in view["seats"].values())
            return left, self.t("kd.vote.locked_count", count=locked, total=len(view["players"]))
        return left, self.t("kd.totals", **view["totals"])

    def on_button(self, event: ButtonEvent) -> None:
        if not self.table.press(event):
            return
        if self.table.vote.phase != kd_vote.VOTING:
            self.app.replace(RevealScreen(self.app, self.table))
        else:
            self.refresh()

    def headline(self, view: dict) -> tuple[str, tuple]:
        if view["mode"] == kd_vote.SECRET:
            return self.t("kd.vote.help_secret"), th.INK_SOFT
        if self.table.refused:
            return self.t("kd.vote.refused", name=self.table.refused), th.MISSING
        return self.t("kd.vote.turn", name=view["turn"], end=view["ends_after"]), th.WARNING

    def describe(self) -> str:
        view = self.table.view()
        left, right = self.title()
        rows = ", ".join(f"{n}: {self.status(view, n)[0]}" for n in view["players"])
        return f"{left} | {right} | {self.headline(view)[0]} | {rows}"

    def status(self, view: dict, name: str) -> tuple[str, tuple]:
        seat = view["seats"][name]
        if view["mode"] == kd_vote.SECRET:
            if seat["locked"]:
                return self.t("kd.vote.locked"), th.INK
            return self.t("kd.vote.waiting"), th.INK_DIM
        text = vote_text(self.t, seat)
        if name == view["turn"] and view.get("pending"):
            choice, _, power = view["pending"].partition(" ")
            if seat["vote"] is None:
                pending = vote_text(self.t, {"vote": choice, "committed": int(power or 0)})
                return self.t("kd.vote.pending_first", pending=pending), th.WARNING
            return self.t("kd.vote.pending_more", vote=text, power=power), th.WARNING
        return text, th.INK if seat["vote"] else th.INK_DIM

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        view = self.table.view()
        line = pygame.Rect(rect.x, rect.y, rect.w, px(30))
        text, colour = self.headline(view)
        fit(p, text, px(28), line, colour)
        rows = pygame.Rect(rect.x, line.bottom, rect.w, rect.bottom - line.bottom)
        for i, box in enumerate(row_rects(rows, len(view["players"]), px(44))):
            name = view["players"][i]
            status, colour = self.status(view, name)
            seat_row(
                self,
                p,
                box,
                name,
                self.app.seats[i].colour,
                name == view["leader"],
                name == view["moderator"],
                status,
                colour,
                highlight=name == view.get("turn"),
            )


class RevealScreen(KdScreen):
    """Every ballot at once, the result, the moderator's decision on a tie or on the
    Leader token, and the clean-up: the Balance split, the power moved."""

    name = "kd-reveal"

    def title(self) -> tuple[str, str]:
        view = self.table.view()
        return self.t("kd.reveal.title", number=self.table.dilemma), self.t(
            "kd.totals", **view["totals"]
        )

    def actions(self) -> Actions:
        view = self.table.view()
        if view["phase"] == kd_vote.TIE:
            return [
                (
                    self.t("kd.reveal.decide", side=self.t(f"kd.side.{side}")),
                    partial(self.decide, side),
                )
                for side in kd_vote.SIDES
            ]
        if view["phase"] == kd_vote.LEADER_CHOICE:
            return [(name, partial(self.choose, name)) for name in view["candidates"]]
        return [(self.t("kd.reveal.outcome"), self.outcome)]

    def decide(self, side: str) -> None:
        self.table.break_tie(side)
        self.refresh()

    def choose(self, name: str) -> None:
        self.table.choose_leader(name)
        self.refresh()

    def on_button(self, event: ButtonEvent) -> None:
        if self.table.press(event):
            self.refresh()

    def outcome(self) -> None:
        self.table.close_vote()
        self.app.replace(OutcomeScreen(self.app, self.table))

    def headline(self, view: dict) -> str:
        totals, moderator = view["totals"], view["moderator"]
        everybody_passed = all(s["vote"] in kd_vote.PASSES for s in view["seats"].values())
        if view["phase"] == kd_vote.TIE:
            key = "kd.reveal.all_passed" if everybody_passed else "kd.reveal.tie"
            return self.t(key, name=moderator, **totals)
        if view["phase"] == kd_vote.LEADER_CHOICE:
            return self.t("kd.reveal.choose_leader", name=moderator)
        text = self.t(f"kd.reveal.{view['outcome']}_wins", **totals)
        if view["tie_broken"]:
            text = f"{text} · {self.t('kd.reveal.tie_broken', name=moderator)}"
        return text

    def status(self, view: dict, name: str) -> str:
        seat = view["seats"][name]
        text = vote_text(self.t, seat)
        if name in view["late_moderator_claims"]:
            text = self.t("kd.reveal.late_claim")
        if view["phase"] != kd_vote.DONE:
            return text
        vote = seat["vote"]
        if vote in kd_vote.SIDES:
            key = "kd.reveal.to_balance" if vote == view["outcome"] else "kd.reveal.back"
            return f"{text} {self.t(key)}"
        share = view["shares"][name]
        return f"{text} {self.t('kd.reveal.share', power=share)}" if share else text

    def describe(self) -> str:
        view = self.table.view()
        rows = ", ".join(f"{n}: {self.status(view, n)}" for n in view["players"])
        return f"{self.title()[0]} | {self.headline(view)} | {self.footer(view)} | {rows}"

    def footer(self, view: dict) -> str:
        if view["phase"] != kd_vote.DONE:
            return self.t("kd.balance", power=view["balance"])
        return self.t("kd.reveal.balance", before=self.table.balance_before, after=view["balance"])

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        view = self.table.view()
        line = pygame.Rect(rect.x, rect.y, rect.w, px(30))
        fit(p, self.headline(view), px(30), line, th.WARNING)
        foot = pygame.Rect(rect.x, rect.bottom - px(26), rect.w, px(26))
        fit(p, self.footer(view), px(26), foot, th.INK_SOFT)
        rows = pygame.Rect(rect.x, line.bottom, rect.w, foot.top - line.bottom)
        for i, box in enumerate(row_rects(rows, len(view["players"]), px(44))):
            name = view["players"][i]
            seat_row(
                self,
                p,
                box,
                name,
                self.app.seats[i].colour,
                name == view["leader"],
                name == view["moderator"],
                self.status(view, name),
            )


class OutcomeScreen(KdScreen):
    """The dilemma's outcome as printed on the card: − / + per resource, applied in the
    order they were entered (the card's left-to-right order). Three columns, two rows:
    five resources and the Apply button."""

    name = "kd-outcome"

    def __init__(self, app: App, table: KdTable) -> None:
        self.changes: dict[str, int] = {}  # in entry order
        super().__init__(app, table)

    def title(self) -> tuple[str, str]:
        return self.t("kd.outcome.title", number=self.table.dilemma), ""

    def cells(self) -> list[pygame.Rect]:
        px = self.app.theme.px
        area = pygame.Rect(self.inner.x, self.body.y, self.inner.w,
                           self.inner.bottom - self.body.y)
        gap = px(10)
        w, h = (area.w - 2 * gap) // 3, (area.h - gap) // 2
        return [pygame.Rect(area.x + (k % 3) * (w + gap), area.y + (k // 3) * (h + gap), w, h)
                for k in range(6)]

    def steppers(self) -> dict[str, tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]]:
        """Per resource: its label, − button, amount, + button."""
        size = max(th.MIN_TARGET, self.app.theme.px(64))
        out = {}
        for name, cell in zip(kd_kingdom.RESOURCES, self.cells(), strict=False):
            label = pygame.Rect(cell.x, cell.y, cell.w, cell.h - size)
            row = pygame.Rect(cell.x, cell.bottom - size, cell.w, size)
            minus = pygame.Rect(row.x, row.y, size, size)
            plus = pygame.Rect(row.right - size, row.y, size, size)
            value = pygame.Rect(minus.right, row.y, plus.left - minus.right, size)
            out[name] = (label, minus, value, plus)
        return out

    def refresh(self) -> None:
        super().refresh()
        apply = self.cells()[5]
        size = max(th.MIN_TARGET, self.app.theme.px(64))
        self.buttons = [Button(pygame.Rect(apply.x, apply.bottom - size, apply.w, size),
                               self.t("kd.outcome.apply"), self.apply)]
        for name, (_, minus, _, plus) in self.steppers().items():
            self.buttons.append(Button(minus, "−", partial(self.step, name, -1)))
            self.buttons.append(Button(plus, "+", partial(self.step, name, 1)))

    def step(self, name: str, by: int) -> None:
        self.changes[name] = self.changes.get(name, 0) + by
        if not self.changes[name]:
            del self.changes[name]
        self.app.invalidate()

    def apply(self) -> None:
        self.table.apply_outcome(list(self.changes.items()))
        self.app.replace(KingdomScreen(self.app, self.table, after_outcome=True))

    def describe(self) -> str:
        changes = ", ".join(f"{self.t(f'kd.resource.{r}')} {n:+d}" for r, n in self.changes.items())
        return f"{self.title()[0]} | {changes or self.t('kd.outcome.none')}"

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        for name, (label, _, value, _) in self.steppers().items():
            fit(p, self.t(f"kd.resource.{name}"), px(30), label, th.INK, "center")
            amount = self.changes.get(name, 0)
            fit(p, f"{amount:+d}" if amount else "0", px(36), value,
                th.WARNING if amount else th.INK_DIM, "center")


class KingdomScreen(KdScreen):
    """The kingdom board; after an outcome, the resources that moved are highlighted."""

    name = "kd-kingdom"

    def __init__(self, app: App, table: KdTable, after_outcome: bool = False) -> None:
        self.after_outcome = after_outcome
        super().__init__(app, table)

    def title(self) -> tuple[str, str]:
        kingdom = self.table.kingdom
        right = self.t("kd.kingdom.abdicated") if kingdom.abdicated else ""
        return self.t("kd.kingdom.title"), right

    def actions(self) -> Actions:
        if not self.after_outcome:
            return [(self.t("kd.back"), self.app.pop)]
        if self.table.kingdom.abdicated:
            return [(self.t("kd.council.end_game"), self.end_game)]
        return [(self.t("kd.kingdom.next"), self.next_dilemma)]

    def next_dilemma(self) -> None:
        self.app.replace(CouncilScreen(self.app, self.table))

    def end_game(self) -> None:
        self.app.replace(EndScreen(self.app, self.table))

    def moved(self) -> set[str]:
        return {m.resource for m in self.table.moves} if self.after_outcome else set()

    def describe(self) -> str:
        k = self.table.kingdom
        parts = [
            f"{self.t(f'kd.resource.{r.name}')} {r.position:+d} {r.momentum}"
            f"{'+marker' if r.marker else ''}"
            for r in k.resources
        ]
        parts.append(f"{self.t('kd.kingdom.stability')} {k.stability.position:+d}")
        return f"{self.title()[0]} | {self.title()[1]} | " + ", ".join(parts)

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        kingdom_board(self, p, rect, self.table.kingdom, self.moved())


class EndScreen(KdScreen):
    """End scoring: each house's agenda, wealth, open agendas and power points, its total
    and its place; the winners in the title."""

    name = "kd-score"

    def __init__(self, app: App, table: KdTable) -> None:
        super().__init__(app, table)

    def title(self) -> tuple[str, str]:
        final = self.table.final
        right = self.t("kd.score.winners", names=", ".join(final.winners)) if final else ""
        return self.t("kd.score.title"), right

    def actions(self) -> Actions:
        return [(self.t("kd.council.campaign"), self.campaign)]

    def campaign(self) -> None:
        self.app.replace(CampaignScreen(self.app, self.table))

    def rows(self) -> list[list[str]]:
        final: FinalScore | None = self.table.final
        if final is None:
            return []
        totals = {p.name: p.total for p in final.players}
        place = {n: 1 + len({t for t in totals.values() if t > v}) for n, v in totals.items()}
        return [
            [
                p.name,
                str(p.resources),
                str(p.wealth),
                f"{p.open_agendas:+d}",
                str(p.power),
                str(place[p.name]),
                str(p.total),
            ]
            for p in final.players
        ]

    def header(self) -> list[str]:
        return [
            self.t(f"kd.score.{k}")
            for k in ("house", "agenda", "wealth", "open", "power", "place", "total")
        ]

    def describe(self) -> str:
        return f"{' '.join(self.title())} | " + "; ".join(" ".join(r) for r in self.rows())

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        if self.table.final is None:
            fit(p, self.t("kd.score.missing"), self.app.theme.px(30), rect, th.WARNING)
            return
        table_grid(p, rect, self.header(), self.rows(), bold_last=True)


class CampaignScreen(KdScreen):
    """The campaign ledger: houses, prestige, crave; the next game's set-up order (lowest
    prestige picks an agenda first), leader and moderator."""

    name = "kd-campaign"

    def title(self) -> tuple[str, str]:
        setup = self.table.setup_order()
        return (
            self.t("kd.campaign.title", games=len(self.table.campaign.games)),
            self.t("kd.campaign.next", leader=setup.leader, moderator=setup.moderator),
        )

    def actions(self) -> Actions:
        return [(self.t("kd.back"), self.back)]

    def back(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()
        else:
            self.app.replace(CouncilScreen(self.app, self.table))

    def lights(self) -> list[Light]:
        setup = self.table.setup_order()
        return [
            Light.LEADER
            if n == setup.leader
            else Light.MODERATOR
            if n == setup.moderator
            else Light.OFF
            for n in self.table.players
        ]

    def rows(self) -> list[list[str]]:
        campaign = self.table.campaign
        order = self.table.setup_order().agenda_order
        last = campaign.games[-1] if campaign.games else None
        agendas = dict(last.agendas) if last else {}
        return [
            [
                h.name,
                str(h.number),
                str(h.prestige),
                str(h.crave),
                self.t(f"kd.agenda.{agendas[h.name]}") if h.name in agendas else "—",
                str(order.index(h.name) + 1) if h.name in order else "—",
            ]
            for h in campaign.houses
        ]

    def header(self) -> list[str]:
        return [
            self.t(f"kd.campaign.{k}")
            for k in ("house", "number", "prestige", "crave", "agenda", "picks")
        ]

    def describe(self) -> str:
        return f"{' | '.join(self.title())} | " + "; ".join(" ".join(r) for r in self.rows())

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        table_grid(p, rect, self.header(), self.rows(), first_share=0.26)


# --------------------------------------------------------------------------- the menu


def new_game(app: App) -> CouncilScreen:
    """A new game for the seats at the table (3–5 houses, numbered in seating order)."""
    return CouncilScreen(app, KdTable.new([s.name for s in app.seats]))


def resume(app: App, session) -> None:
    """Games of this module are not journaled yet (no Session adapter): nothing to resume."""


# --------------------------------------------------------------------------- demo


def demo(ctx) -> None:
    """A council with the demo's seats: a secret vote before and after the reveal, the
    outcome on the kingdom board, an open vote's turns, end scoring and the campaign."""
    app = ctx.app
    players = [s.name for s in app.seats]
    table = KdTable.new(
        players,
        {
            r: m
            for r, m in zip(kd_kingdom.RESOURCES, ("up", "down", "down", "up", "up"), strict=True)
        },
    )
    screen = CouncilScreen(app, table)
    ctx.show(screen)
    ctx.shot("council")
    ctx.tap(screen.buttons[1].rect, "secret vote")
    long = Press.LONG
    ballots = [("a", 2), ("b", 1), ("c", 0), ("a", 3), ("b", 2)]
    for seat, (button, presses) in enumerate(ballots[: len(players) - 1]):
        for _ in range(max(1, presses)):
            ctx.press(seat, button)
        ctx.press(seat, button, long)
    ctx.shot("secret-locked")
    last = len(players) - 1
    button, presses = ballots[last]
    for _ in range(presses):
        ctx.press(last, button)
    ctx.shot("secret-pending")
    ctx.press(last, button, long)
    ctx.shot("revealed")
    if table.view()["phase"] == kd_vote.TIE:
        ctx.press(table.players.index(table.view()["moderator"]), "a")
    ctx.tap(app.screen.buttons[0].rect, "outcome")
    steppers = app.screen.steppers()
    for name, by in (("morale", -1), ("morale", -1), ("influence", 1), ("welfare", 1)):
        _, minus, _, plus = steppers[name]
        ctx.tap(plus if by > 0 else minus, f"{name} {by:+d}")
    ctx.shot("outcome")
    ctx.tap(app.screen.buttons[0].rect, "apply")
    ctx.shot("kingdom")
    ctx.tap(app.screen.buttons[0].rect, "next dilemma")
    ctx.tap(app.screen.buttons[0].rect, "open vote")
    lead = table.players.index(table.leader)
    ctx.press(lead, "a")
    ctx.press(lead, "a")
    ctx.press(lead, "a", long)
    nxt = (lead + 1) % len(players)
    ctx.press(nxt, "b")
    ctx.shot("open-vote")
    table.score(
        {p: SecretAgenda(3 + 2 * i % 5, (4, 2, 1)) for i, p in enumerate(players)},
        {players[0]: [OpenAgenda("morale", False)], players[1]: [OpenAgenda("influence", True)]},
    )
    ctx.show(EndScreen(app, table))
    ctx.shot("score")
    ends = {0: (3, 0), 1: (2, 0), 2: (1, 0), 3: (0, 0)}
    by_hand = {}
    for rank_index, row in enumerate(sorted(table.final.players, key=lambda s: -s.total)):
        prestige, crave = ends.get(rank_index, (0, 2))
        by_hand[row.name] = {"prestige": prestige, "crave": crave}
    agendas = dict(zip(players, table.campaign.settings.agendas, strict=False))
    table.record(agendas, by_hand)
    ctx.tap(app.screen.buttons[0].rect, "campaign")
    ctx.shot("campaign")
