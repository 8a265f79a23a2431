"""The King's Dilemma council and its votes: between votes (the dilemma count, the Leader
and Moderator, the Balance, each seat's vote on the last dilemma), the vote in progress
(open or secret) and the reveal with its clean-up.

In a secret vote a seat shows "locked" or "not yet" and nothing else, so two different
ballots (or two different choices pending on a seat's buttons) give the very same pixels
and lights until every seat has locked. Power and coins stay behind the house screens
unless the table chose to track them publicly.
"""

from __future__ import annotations

from functools import partial

import pygame

from companion.games.kings_dilemma import controller as kd
from companion.games.kings_dilemma import say as kd_say
from companion.play.seat import ButtonEvent
from companion.play.table import NOT_SAVED
from companion.play.turns import Reply
from companion.ui import theme as th
from companion.ui.legible import figure, figures_large
from companion.ui.screens.kings_dilemma.draw import (
    SCREENS,
    Actions,
    KdScreen,
    screen_for,
    undo_action,
    vote_help,
)
from companion.ui.screens.kings_dilemma.seat_rows import SeatLine, seat_rows
from companion.ui.theme import Painter

TONES = {kd_say.PENDING: th.WARNING, kd_say.PLAYED: th.INK, kd_say.WAITING: th.INK_DIM}


class CouncilScreen(KdScreen):
    """Between votes: the dilemma count, the Leader and Moderator, the Balance, each
    seat's vote on the last dilemma."""

    name = "kd-council"
    shows_seats = True

    @property
    def plays(self):
        """The night takes the seats' presses: none is read between votes, but a watching
        seat's is answered on its plate (``companion.play.turns``)."""
        return self.night

    def title(self) -> tuple[str, str]:
        view = self.night.view()
        return (self.t("kd.council.title", number=self.night.dilemma),
                self.t("kd.balance", power=view["balance"]))

    def actions(self) -> Actions:
        return [
            (self.t("kd.council.open_vote"), partial(self.vote, kd.OPEN)),
            (self.t("kd.council.secret_vote"), partial(self.vote, kd.SECRET)),
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
        if self.app.table.act(self.night.start_vote, mode) is not NOT_SAVED:
            self.go("kd-vote")

    def kingdom(self) -> None:
        self.app.push(SCREENS["kd-kingdom"](self.app, self.night))

    def campaign(self) -> None:
        self.app.push(SCREENS["kd-campaign"](self.app, self.night))

    def status(self, view: dict, name: str) -> str:
        return self.say(kd_say.council_status(view, name))

    def describe(self) -> str:
        left, right = self.title()
        view = self.night.view()
        rows = ", ".join(f"{n}: {self.status(view, n)}" for n in view["players"])
        return (f"{left} | {right} | {self.say(self.night.headline())} | "
                f"{self.t('kd.token.leader')}: {view['leader']} | "
                f"{self.t('kd.token.moderator')}: {view['moderator']} | {rows}")

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        view = self.night.view()
        rect = self.draw_headline(p, rect, self.say(self.night.headline()))
        seat_rows(self, p, rect, [
            SeatLine(name, self.app.seats[seat].colour, name == view["leader"],
                     name == view["moderator"], self.status(view, name), th.INK_SOFT)
            for name, seat in zip(view["players"], view["seats"], strict=True)])


class VoteScreen(KdScreen):
    """The vote in progress. Open: whose turn, each seat's side and committed power, the
    pending choice of the seat on turn. Secret: per seat only locked / not yet."""

    name = "kd-vote"
    shows_seats = True

    def title(self) -> tuple[str, str]:
        """Who acts now (plays in turn, or still locks) and the totals (open) or the count
        of locks (secret), as one line: the body's top two lines are the button help,
        whatever the vote, the rest the seats' rows."""
        vote = self.night.vote_view()
        _, right = kd_say.vote_title(vote, self.night.dilemma)
        if kd_say.vote_is_open(vote):  # short: the totals beside it
            return self.say(kd_say.say("kd.vote.to_play", name=vote["turn"])), self.say(right)
        return self.headline()[0], self.say(right)

    def title_colour(self) -> tuple:
        return self.headline()[1]

    def actions(self) -> Actions:
        return undo_action(self)

    @property
    def plays(self):
        """The night takes the seats' presses (the Table asks it)."""
        return self.night

    def pressed(self, event: ButtonEvent, result: Reply) -> None:
        if not result.public:  # nothing to show (a secret press: SILENT)
            return
        self.confirming = None
        if result.did == kd.UNDONE:  # a seat's hold took its last action back
            self.app.replace(screen_for(self.app, self.night))  # as the touchscreen's Undo
        elif self.night.step() != kd.VOTE:
            self.go("kd-reveal")
        else:
            self.refresh()

    def headline(self) -> tuple[str, tuple]:
        """Who acts now: an open vote's refused press is answered on the seat's own plate
        (``seat_views``' reply), never over this line."""
        return self.say(self.night.headline()), th.WARNING

    def describe(self) -> str:
        vote = self.night.vote_view()
        left, right = self.title()
        rows = ", ".join(f"{n}: {self.say(kd_say.vote_status(vote, n)[0])}"
                         for n in vote["players"])
        said = f"{left} | {right} | {self.headline()[0]} | {rows}"
        if self.night.refused:  # an open vote's refusal and its reason are public
            name, exc = self.night.refused
            said += f" | {self.t('kd.vote.refused', name=name, reason=self.refusal(exc))}"
        return said

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        px = self.app.theme.px
        view = self.night.view()
        vote = view["vote"]
        # what each press and hold does, a figure in it ("+1") at the figure's size
        y = rect.y
        for text in vote_help(self.t, vote["mode"]):
            h = px(30 if figure(text) else 24)  # as close as the lines' ink allows
            figures_large(p, text, pygame.Rect(rect.x, y, rect.w, h), th.INK_SOFT)
            y += h
        rect = pygame.Rect(rect.x, y, rect.w, rect.bottom - y)
        lines = []
        for name, seat in zip(vote["players"], view["seats"], strict=True):
            said, tone = kd_say.vote_status(vote, name)
            lines.append(SeatLine(name, self.app.seats[seat].colour, name == vote["leader"],
                                  name == vote["moderator"], self.say(said), TONES[tone],
                                  name == vote.get("turn")))
        seat_rows(self, p, rect, lines)


class RevealScreen(KdScreen):
    """Every ballot at once, the result, the moderator's decision on a tie or on the
    Leader token, and the clean-up: the Balance split, the power moved."""

    name = "kd-reveal"
    shows_seats = True

    def title(self) -> tuple[str, str]:
        vote = self.night.vote_view()
        return (self.t("kd.reveal.title", number=self.night.dilemma),
                self.say(kd_say.reveal_balance(vote)))

    def actions(self) -> Actions:
        waiting = self.night.waiting_for()
        if waiting == kd.TIE:
            return [*((self.t("kd.reveal.decide", side=self.t(f"kd.side.{side}")),
                       partial(self.decide, side)) for side in kd.SIDES),
                    *undo_action(self)]
        if waiting == kd.LEADER:
            return [*((name, partial(self.choose, name))
                      for name in self.night.vote_view()["candidates"]),
                    *undo_action(self)]
        return [(self.t("kd.reveal.outcome"), self.outcome), *undo_action(self)]

    def decide(self, side: str) -> None:
        self.app.table.act(self.night.break_tie, side)
        self.refresh()

    def choose(self, name: str) -> None:
        self.app.table.act(self.night.choose_leader, name)
        self.refresh()

    @property
    def plays(self):
        """The night takes the seats' presses (the Table asks it)."""
        return self.night

    def pressed(self, event: ButtonEvent, result: Reply) -> None:
        if result.did == kd.UNDONE:  # a seat's hold took its last action back
            self.app.replace(screen_for(self.app, self.night))  # as the touchscreen's Undo
        elif result.public:
            self.confirming = None
            self.refresh()

    def outcome(self) -> None:
        self.go("kd-outcome")

    def status(self, vote: dict, name: str) -> str:
        return " ".join(self.say(s) for s in kd_say.reveal_status(vote, name))

    def describe(self) -> str:
        vote = self.night.vote_view()
        rows = ", ".join(f"{n}: {self.status(vote, n)}" for n in vote["players"])
        return (f"{self.title()[0]} | {self.say(self.night.headline())} | {self.title()[1]}"
                f" | {rows}")

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        view = self.night.view()
        vote = view["vote"]
        rect = self.draw_headline(p, rect, self.say(self.night.headline()))
        seat_rows(self, p, rect, [
            SeatLine(name, self.app.seats[seat].colour, name == vote["leader"],
                     name == vote["moderator"], self.status(vote, name))
            for name, seat in zip(vote["players"], view["seats"], strict=True)])
