"""King's Dilemma screens where the table enters what the cards say: the dilemma's outcome
(− / + per resource), the kingdom board it moves, and at the end of the night each house's
secret agenda card and points and its open agenda tokens (``EndOfNight`` decides what each
tap means)."""

from __future__ import annotations

from functools import partial

import pygame

from companion.games.kings_dilemma import controller as kd
from companion.play.table import NOT_SAVED
from companion.play.turns import Turns
from companion.ui import theme as th
from companion.ui.app import App
from companion.ui.legible import paragraphs
from companion.ui.screens.kings_dilemma.draw import (
    Actions,
    KdScreen,
    fit,
    kingdom_board,
    undo_action,
)
from companion.ui.theme import Painter
from companion.ui.widgets import FIGURE_GLYPH, Button, button_h


class StepperScreen(KdScreen):
    """Numbers entered by touch: up to five − / + steppers and the Done button, in three
    columns and two rows (every target at least ``MIN_TARGET``), under the headline naming
    who acts now (``headline``; none: the title says it)."""

    def __init__(self, app: App, night: kd.NightController) -> None:
        self.values: dict[str, int] = {}  # in entry order
        super().__init__(app, night)

    def fields(self) -> list[tuple[str, str]]:
        """(key, label) of each stepper."""
        raise NotImplementedError

    def done_label(self) -> str:
        raise NotImplementedError

    def done(self) -> None:
        raise NotImplementedError

    def headline(self) -> str:
        return ""

    def area(self) -> pygame.Rect:
        """The cells' room: the body below the headline (if any) down to the screen's
        foot."""
        top = self.body.y + (self.headline_rect(self.body).h if self.headline() else 0)
        return pygame.Rect(self.inner.x, top, self.inner.w, self.inner.bottom - top)

    def cells(self) -> list[pygame.Rect]:
        area = self.area()
        gap = self.app.theme.px(10)
        w, h = (area.w - 2 * gap) // 3, (area.h - gap) // 2
        return [pygame.Rect(area.x + (k % 3) * (w + gap), area.y + (k // 3) * (h + gap), w, h)
                for k in range(6)]

    def split(self, cell: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
        """A cell's label box and, beneath it, its button row."""
        size = button_h(self.app.theme)
        return (pygame.Rect(cell.x, cell.y, cell.w, cell.h - size),
                pygame.Rect(cell.x, cell.bottom - size, cell.w, size))

    def steppers(self) -> dict[str, tuple[str, pygame.Rect, pygame.Rect, pygame.Rect,
                                          pygame.Rect]]:
        """Per field: its label, the label's box, − button, amount, + button."""
        out = {}
        for (key, label), cell in zip(self.fields(), self.cells(), strict=False):
            box, row = self.split(cell)
            minus = pygame.Rect(row.x, row.y, row.h, row.h)
            plus = pygame.Rect(row.right - row.h, row.y, row.h, row.h)
            value = pygame.Rect(minus.right, row.y, plus.left - minus.right, row.h)
            out[key] = (label, box, minus, value, plus)
        return out

    def refresh(self) -> None:
        super().refresh()
        self.buttons = [Button(self.split(self.cells()[5])[1], self.done_label(), self.done)]
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
        if self.headline():
            self.draw_headline(p, rect, self.headline())
        for key, (label, box, _, value, _) in self.steppers().items():
            paragraphs(p, [label], box, th.INK)  # "Wealth 1st": its figure 24 px high
            amount = self.values.get(key, 0)
            fit(p, f"{amount:+d}" if amount else "0", px(FIGURE_GLYPH), value,
                th.WARNING if amount else th.INK_DIM, "center")


class OutcomeScreen(StepperScreen):
    """The dilemma's outcome as printed on the card, read by the Leader: − / + per
    resource, applied in the order they were entered (the card's left-to-right order)."""

    name = "kd-outcome"

    def title(self) -> tuple[str, str]:
        return self.t("kd.outcome.title", number=self.night.dilemma), ""

    def headline(self) -> str:
        return self.say(self.night.outcome_headline())

    def fields(self) -> list[tuple[str, str]]:
        return [(r, self.t(f"kd.resource.{r}")) for r in kd.RESOURCES]

    def done_label(self) -> str:
        return self.t("kd.outcome.apply")

    def done(self) -> None:
        if self.app.table.act(self.night.apply_outcome,
                              list(self.values.items())) is not NOT_SAVED:
            self.go("kd-kingdom", True)

    def describe(self) -> str:
        changes = ", ".join(f"{self.t(f'kd.resource.{r}')} {n:+d}" for r, n in self.values.items())
        return f"{self.title()[0]} | {self.headline()} | {changes or self.t('kd.outcome.none')}"


class KingdomScreen(KdScreen):
    """The kingdom board, who reads next in the title row; after an outcome, the
    resources that moved are highlighted."""

    name = "kd-kingdom"

    def __init__(self, app: App, night: kd.NightController, after_outcome: bool = False) -> None:
        self.after_outcome = after_outcome
        super().__init__(app, night)

    def title(self) -> tuple[str, str]:
        """During the reign, who reads next (the headline, in the title row: the board
        needs the height) and the board's name; once it ended, how (the headline, who
        reads the first agenda, under it)."""
        ended = self.night.view()["ended"]
        if ended:
            return self.t(f"kd.ended.{ended}"), ""
        return self.say(self.night.headline()), self.t("kd.kingdom.title")

    def title_colour(self) -> tuple:
        return th.INK if self.night.view()["ended"] else th.WARNING

    def actions(self) -> Actions:
        if not self.after_outcome:
            return [(self.t("kd.back"), self.app.pop)]
        if self.night.over():
            return [(self.t("kd.council.end_game"), self.end_game)]
        return [(self.t("kd.kingdom.next"), self.next_dilemma),
                self.confirm(self.t("kd.kingdom.king_dies"), self.king_dies),
                *undo_action(self)]

    def next_dilemma(self) -> None:
        self.go("kd-council")

    def king_dies(self) -> None:
        """The dilemma's outcome kills the king (the timeline on the cards): the game ends."""
        self.app.table.act(self.night.king_dies)
        self.confirming = None
        self.refresh()

    def end_game(self) -> None:
        self.go("kd-agenda")

    def moved(self) -> set[str]:
        moves = self.night.view()["moves"]
        return {m["resource"] for m in moves} if self.after_outcome else set()

    def describe(self) -> str:
        k = self.night.kingdom
        parts = [f"{self.t(f'kd.resource.{r.name}')} {r.position:+d} {r.momentum}"
                 f"{'+marker' if r.marker else ''}" for r in k.resources]
        parts.append(f"{self.t('kd.kingdom.stability')} {k.stability.position:+d}")
        return (f"{self.t('kd.kingdom.title')} | {self.title()[0]} | "
                f"{self.say(self.night.headline())} | " + ", ".join(parts))

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        if self.night.view()["ended"]:
            rect = self.draw_headline(p, rect, self.say(self.night.headline()))
        kingdom_board(self, p, rect, self.night.kingdom, self.moved())


class HouseScreen(StepperScreen):
    """One house's turn at the end of the night (``house``: its seating index), its
    seat lit YOUR_TURN; ``entry`` holds what the houses before it read out."""

    def __init__(self, app: App, night: kd.NightController, house: int = 0,
                 entry: kd.EndOfNight | None = None) -> None:
        self.house = house
        self.entry = entry or kd.EndOfNight(night)
        super().__init__(app, night)

    @property
    def player(self) -> str:
        return self.night.players[self.house]

    def count(self) -> str:
        return self.t("kd.agenda_entry.count", number=self.house + 1,
                      total=len(self.night.players))

    def turns(self) -> Turns:
        return self.night.reading_turns(self.player)

    def title_colour(self) -> tuple:
        return th.WARNING  # the title names the reading house: the headline


class AgendaScreen(HouseScreen):
    """The end of the game: each house in turn reads its secret agenda card aloud — which
    card it is, the resource objective's points and the wealth objective's points for 1st,
    2nd, 3rd most coins; its open agenda tokens follow (``TokensScreen``); after the last
    house the game is scored."""

    name = "kd-agenda"

    def __init__(self, app: App, night: kd.NightController, house: int = 0,
                 entry: kd.EndOfNight | None = None) -> None:
        entry = entry or kd.EndOfNight(night)
        self.card = entry.first_card(night.players[house])
        super().__init__(app, night, house, entry)

    def title(self) -> tuple[str, str]:
        return self.t("kd.agenda_entry.title", name=self.player), self.count()

    def fields(self) -> list[tuple[str, str]]:
        return [(k, self.t(f"kd.agenda_entry.{k}"))
                for k in ("resources", "wealth_1", "wealth_2", "wealth_3")]

    def done_label(self) -> str:
        return self.t("kd.agenda_entry.tokens")

    def card_rects(self) -> tuple[pygame.Rect, pygame.Rect]:
        """The card's label box and its button (the fifth cell)."""
        return self.split(self.cells()[4])

    def refresh(self) -> None:
        super().refresh()
        self.buttons.append(Button(self.card_rects()[1], self.t(f"kd.agenda.{self.card}"),
                                   self.next_card))

    def next_card(self) -> None:
        self.card = self.entry.next_card(self.player, self.card)
        self.refresh()

    def done(self) -> None:
        self.entry.read_agenda(self.player, self.card, self.values)
        self.go("kd-tokens", self.house, self.entry)

    def describe(self) -> str:
        values = ", ".join(f"{k} {n:+d}" for k, n in self.values.items())
        return (f"{' | '.join(self.title())} | {self.t(f'kd.agenda.{self.card}')} | "
                f"{values or self.t('kd.outcome.none')}")

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        super().draw_body(p, rect)
        paragraphs(p, [self.t("kd.agenda_entry.card")], self.card_rects()[0], th.INK)


class TokensScreen(HouseScreen):
    """A house's open agenda tokens: per resource none, positive, negative or both (a
    token another house holds is skipped; at most two of a sign per house)."""

    name = "kd-tokens"

    def __init__(self, app: App, night: kd.NightController, house: int,
                 entry: kd.EndOfNight) -> None:
        self.signs: dict[str, tuple[str, ...]] = dict.fromkeys(kd.RESOURCES, ())
        super().__init__(app, night, house, entry)

    def title(self) -> tuple[str, str]:
        return self.t("kd.tokens.title", name=self.player), self.count()

    def fields(self) -> list[tuple[str, str]]:
        return []

    def done_label(self) -> str:
        last = self.house == len(self.night.players) - 1
        return self.t("kd.agenda_entry.score" if last else "kd.agenda_entry.next")

    def token_rects(self) -> list[tuple[pygame.Rect, pygame.Rect]]:
        return [self.split(c) for c in self.cells()[:5]]

    def refresh(self) -> None:
        super().refresh()
        for r, (_, button) in zip(kd.RESOURCES, self.token_rects(), strict=True):
            state = kd.TOKEN_STATE_KEYS[self.signs[r]]
            self.buttons.append(Button(button, self.t(f"kd.tokens.{state}"),
                                       partial(self.turn, r)))

    def turn(self, resource: str) -> None:
        self.signs[resource] = self.entry.next_tokens(self.player, self.signs, resource)
        self.refresh()

    def done(self) -> None:
        scored = self.app.table.act(self.entry.read_tokens, self.player, self.signs)
        if scored is NOT_SAVED:
            return
        if scored:
            self.go("kd-score")
        else:
            self.go("kd-agenda", self.house + 1, self.entry)

    def describe(self) -> str:
        tokens = kd.token_list(self.signs)
        return f"{' | '.join(self.title())} | {', '.join(tokens) or self.t('kd.tokens.none')}"

    def draw_body(self, p: Painter, rect: pygame.Rect) -> None:
        for r, (label, _) in zip(kd.RESOURCES, self.token_rects(), strict=True):
            paragraphs(p, [self.t(f"kd.resource.{r}")], label, th.INK)
