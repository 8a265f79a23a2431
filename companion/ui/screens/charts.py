"""Charts on the kiosk, for a table that would rather look than read: one page per game
in the history (each player's scores over the last games as lines, and the shares of the
wins as bars, which also name the lines' colours), each followed by its records (high
score, first player's wins, time played, wins by the number of players at the table) and
its head to head, counted in SQL (``History.records``) when the page is first shown;
and, when the King's Dilemma campaign has nights, a page of each house's prestige and
crave after every night. « and » turn the pages; Back returns to History, which opens it.

A player seated in the configuration has their seat's colour; anyone else the next
colour of ``OTHERS``. The seats watch from the slim seat ring. The data is
``companion.records.charts``; only the drawing is here.
"""

from __future__ import annotations

import pygame

from companion.games.kings_dilemma import ledger as kd_ledger
from companion.play.table import PlayedGame
from companion.records import charts
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import FIGURE_GLYPH, WORDS_GLYPH, Button, OnTheFelt, button_h, title_line

OTHERS = ((120, 200, 255), (255, 160, 90), (150, 230, 150), (230, 150, 230), (240, 220, 120),
          (180, 180, 255), (255, 255, 255))
GRID = (60, 110, 90)
CAMPAIGN = "campaign"
RECORDS = "records-"  # a game's records page: RECORDS + its key
VERSUS = "versus-"  # a game's head-to-head page: VERSUS + its key
HEAD_TO_HEAD = 5  # pairs on a head-to-head page: the ones who played together most
RECORD_LINE = 44  # units: a line of a records page (its figures' digits 24 px high)


class ChartsScreen(OnTheFelt, Screen):
    name = "charts"

    def __init__(self, app: App, games: list[PlayedGame], ledger: charts.Campaign | None,
                 shares: dict[str, list[charts.Share]] | None = None) -> None:
        """``games``: at least the last ``charts.LAST_GAMES`` of each game; ``shares``: the
        wins of each game over the whole history (else counted from ``games``)."""
        super().__init__(app)
        self.games = games
        self.ledger = ledger
        self.shares = shares
        # Each page's figures, worked out once (not at every frame).
        self._charts: dict[str, object] = {}
        # Each game's charts, then its records and head to head (read from the history,
        # when there is one).
        self.pages: list[str] = [page for key in charts.games_of(games) for page in (
            (key, RECORDS + key, VERSUS + key) if app.history is not None else (key,))]
        if ledger is not None and ledger.games:
            self.pages.append(CAMPAIGN)
        self.page = 0
        self.part = 0  # of a records or head-to-head page too long for one: which part
        self.colours = self._colours()
        t, px = app.catalog.text, app.theme.px
        gap = px(8)
        bh = button_h(app.theme)
        self.on_the_felt(SeatRing(app.theme, app.seats, app.catalog, slim=True))
        self.felt_rect = self.ring.centre
        inner = self.inner
        self.title_rect = pygame.Rect(inner.x, inner.y, inner.w, px(40))
        side = max(th.MIN_TARGET, px(72))
        self.back_rect = pygame.Rect(inner.x, inner.bottom - bh, px(150), bh)
        self.next_rect = pygame.Rect(inner.right - side, self.back_rect.y, side, bh)
        self.prev_rect = self.next_rect.move(-side - gap, 0)
        self.body = pygame.Rect(inner.x, self.title_rect.bottom + gap, inner.w,
                                self.back_rect.y - gap - self.title_rect.bottom - gap)
        self.buttons = [Button(self.back_rect, t("charts.back"), self.close),
                        Button(self.prev_rect, "«", lambda: self.turn(-1)),
                        Button(self.next_rect, "»", lambda: self.turn(+1))]

    def _colours(self) -> dict[str, tuple[int, int, int]]:
        out = {seat.name: seat.colour for seat in self.app.seats}
        names = [p.name for g in self.games for p in g.players]
        names += [s.name for ss in (self.shares or {}).values() for s in ss]
        names += [h.name for h in self.ledger.houses] if self.ledger is not None else []
        others = iter(c for c in OTHERS if c not in out.values())
        for name in dict.fromkeys(names):
            if name not in out:
                out[name] = next(others, th.INK)
        return out

    def scores(self, key: str) -> charts.LineChart:
        if ("scores", key) not in self._charts:
            self._charts["scores", key] = charts.scores(self.games, key)
        return self._charts["scores", key]

    def win_shares(self, key: str) -> list[charts.Share]:
        if ("shares", key) not in self._charts:
            self._charts["shares", key] = self.shares[key] if self.shares is not None \
                else charts.win_shares(self.games, key)
        return self._charts["shares", key]

    def records(self, key: str) -> list[tuple[str, tuple[int, int, int]]]:
        """A game's records as lines (text, colour): its high score, how often the first
        player won, the time played, each player's wins by the number of players at the
        table."""
        if ("records", key) not in self._charts:
            from companion.records.report import duration, percent

            h, t = self.app.history, self.t
            tally, rec = h.tally().get(key, {}), h.records(key)
            lines: list[tuple[str, tuple[int, int, int]]] = []
            if tally:
                high = max(s.best for s in tally.values())
                names = self.app.catalog.names(sorted(n for n, s in tally.items() if s.best == high))
                lines.append((t("report.high", score=high, names=names), th.WARNING))
            if rec.first_games:
                lines.append((t("report.first", wins=rec.first_won, games=rec.first_games,
                                detail=percent(rec.first_won, rec.first_games)), th.INK))
            if rec.timed:
                lines.append((t("report.time", time=duration(rec.minutes, t), n=rec.timed),
                              th.INK))
            lines += [(line, th.INK) for line in self.by_count_lines(rec.by_count)]
            self._charts["records", key] = lines
        return self._charts["records", key]

    def versus(self, key: str) -> list[tuple[str, tuple[int, int, int]]]:
        """A game's head to head as lines (text, colour): for the pairs who played it
        together most, how often each placed ahead of the other."""
        if ("versus", key) not in self._charts:
            rec = self.app.history.records(key)
            pairs = sorted(rec.head_to_head.items(), key=lambda kv: (-kv[1][0], kv[0]))
            self._charts["versus", key] = [
                (self.t("charts.pair", a=a, b=b, games=n, score=f"{x} – {y}"), th.INK)
                for (a, b), (n, x, y) in pairs[:HEAD_TO_HEAD]]
        return self._charts["versus", key]

    def by_count_lines(self, by_count: dict[str, dict[int, tuple[int, int]]]) -> list[str]:
        """Per number of players at the table, each player's wins of their games at that
        count ("Wins with 3 players: Ben 2/3 · Ana 1/3"), most wins first; a count whose
        players don't fit one line at the smallest legible size goes on as many as it
        needs."""
        counts: dict[int, list[tuple[str, int, int]]] = {}
        for name, per_count in by_count.items():
            for n, (wins, games) in per_count.items():
                counts.setdefault(n, []).append((name, wins, games))
        font = self.app.theme.font(self.app.theme.px(FIGURE_GLYPH))
        out: list[str] = []
        for n, shares in sorted(counts.items()):
            shares.sort(key=lambda s: (-s[1], s[2], s[0]))
            entries = [f"{name} {self.t('charts.share', wins=w, played=g)}"
                       for name, w, g in shares]
            line = self.t("charts.by_count", n=n, scores=entries[0])
            for entry in entries[1:]:
                longer = f"{line} · {entry}"
                if font.size(longer)[0] * th.SQUEEZE > self.body.w:
                    out.append(line)
                    line = entry
                else:
                    line = longer
            out.append(line)
        return out

    def parts(self, page: str) -> list[list[tuple[str, tuple[int, int, int]]]]:
        """The lines of a records or head-to-head page, in parts the page holds: a part
        that is not the last ends on "3 more »" (» shows the next part, then the next
        page), so no line is left out unsaid."""
        if page.startswith(RECORDS):
            lines = self.records(page[len(RECORDS):])
        else:
            lines = self.versus(page[len(VERSUS):]) or [(self.t("charts.no_pairs"), th.INK_SOFT)]
        held = max(2, self.body.h // self.app.theme.px(RECORD_LINE))
        out = []
        while len(lines) > held:
            out.append(lines[:held - 1])
            lines = lines[held - 1:]
        out.append(list(lines))
        for i, part in enumerate(out[:-1]):
            rest = sum(len(later) for later in out[i + 1:])
            part.append((self.t("charts.more", n=rest), th.INK_SOFT))
        return out

    def shown_lines(self, page: str) -> list[tuple[str, tuple[int, int, int]]]:
        """The lines of a records or head-to-head page that show now (``part``)."""
        parts = self.parts(page)
        return parts[min(self.part, len(parts) - 1)]

    def campaign(self) -> tuple[charts.LineChart, charts.LineChart]:
        if "campaign" not in self._charts:
            self._charts["campaign"] = charts.campaign(self.ledger)
        return self._charts["campaign"]

    # --- input --------------------------------------------------------------------------

    def close(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()

    def turn(self, by: int) -> None:
        """The next (or last) part of a long records page, else the next (or last) page,
        from its first part."""
        if self.pages:
            key = self.pages[self.page]
            parts = len(self.parts(key)) if key.startswith((RECORDS, VERSUS)) else 1
            if 0 <= self.part + by < parts:
                self.part += by
            else:
                self.page = (self.page + by) % len(self.pages)
                self.part = 0
        self.app.invalidate()

    # --- texts --------------------------------------------------------------------------

    def t(self, key: str, **fmt: object) -> str:
        return self.app.catalog.text(key, **fmt)

    def game_name(self, key: str) -> str:
        known = f"history.game.{key}" in self.app.catalog.texts
        return self.t(f"history.game.{key}") if known else key

    def title(self) -> str:
        if not self.pages:
            return self.t("charts.title")
        key = self.pages[self.page]
        if key == CAMPAIGN:
            return self.t("charts.campaign", nights=len(self.ledger.games))
        if key.startswith(RECORDS):
            return self.t("charts.records", game=self.game_name(key[len(RECORDS):]))
        if key.startswith(VERSUS):
            return self.t("charts.versus", game=self.game_name(key[len(VERSUS):]))
        return self.game_name(key)

    def describe(self) -> str:
        if not self.pages:
            return f"{self.name} | {self.t('history.empty')}"
        key = self.pages[self.page]
        head = f"{self.name} | {self.title()} | {self.page + 1}/{len(self.pages)}"
        if key.startswith((RECORDS, VERSUS)):
            return " | ".join([head, *(line for line, _ in self.shown_lines(key))])
        if key == CAMPAIGN:
            prestige, crave = self.campaign()
            return (f"{head} | {self.t('charts.prestige')}: {series_text(prestige)} | "
                    f"{self.t('charts.crave')}: {series_text(crave)}")
        chart = self.scores(key)
        shares = ", ".join(f"{s.name} {s.wins}/{s.played}" for s in self.win_shares(key))
        return f"{head} | {series_text(chart)} | {shares}"

    # --- drawing ------------------------------------------------------------------------

    def draw(self, p: Painter) -> None:
        px = self.app.theme.px
        self.background(p)
        page = self.t("history.page", page=self.page + 1, pages=len(self.pages)) \
            if self.pages else ""
        title_line(p, self.title(), page, self.title_rect, right_size=FIGURE_GLYPH)
        for b in self.buttons:
            b.draw(p)
        if not self.pages:
            text(p, self.t("history.empty"), self.body, px(32), th.INK_SOFT, "center")
            return
        key = self.pages[self.page]
        gap = px(16)
        if key.startswith((RECORDS, VERSUS)):
            y = self.body.y
            for line, colour in self.shown_lines(key):
                box = pygame.Rect(self.body.x, y, self.body.w, px(RECORD_LINE))
                text(p, line, box, px(FIGURE_GLYPH), colour)
                y += px(RECORD_LINE)
            return
        if key == CAMPAIGN:
            prestige, crave = self.campaign()
            half = (self.body.w - gap) // 2
            left = pygame.Rect(self.body.x, self.body.y, half, self.body.h)
            right = pygame.Rect(left.right + gap, self.body.y, half, self.body.h)
            for chart, box, label in ((prestige, left, "charts.prestige"),
                                      (crave, right, "charts.crave")):
                self.draw_lines(p, chart, box, self.t(label), legend=True)
            return
        chart = self.scores(key)
        left = pygame.Rect(self.body.x, self.body.y, self.body.w * 3 // 5, self.body.h)
        right = pygame.Rect(left.right + gap, self.body.y, self.body.right - left.right - gap,
                            self.body.h)
        self.draw_lines(p, chart, left, self.t("charts.scores"),
                        legend=False)
        self.draw_shares(p, self.win_shares(key), right)

    def draw_lines(self, p: Painter, chart: charts.LineChart, box: pygame.Rect, label: str,
                   legend: bool) -> None:
        """A heading, the y axis on round ticks, a line per series (dots where a value
        stands alone), the x labels; with ``legend``, the series' names in their colours
        under it."""
        px = self.app.theme.px
        line_h = self.app.theme.font(px(WORDS_GLYPH)).get_linesize()
        font = self.app.theme.font(px(FIGURE_GLYPH))  # the axes' figures, read from a chair
        fig_h = font.get_linesize()
        text(p, label, pygame.Rect(box.x, box.y, box.w, line_h), px(WORDS_GLYPH), th.INK_SOFT)
        legend_h = line_h if legend else 0
        low, high = chart.span()
        ticks = charts.ticks(low, high, most=4)
        low, high = ticks[0], ticks[-1]
        axis_w = max(font.size(str(v))[0] for v in ticks) + px(8)
        plot = pygame.Rect(box.x + axis_w, box.y + line_h + fig_h // 2,
                           box.w - axis_w - px(12),
                           box.h - line_h - 2 * fig_h - legend_h - px(4))
        n = len(chart.labels)

        def x(i: int) -> int:
            return plot.x + (plot.w * i // (n - 1) if n > 1 else plot.w // 2)

        def y(v: float) -> int:
            return round(plot.bottom - (v - low) * plot.h / (high - low))

        for v in ticks:
            pygame.draw.line(p.surface, GRID, (plot.x, y(v)), (plot.right, y(v)), 1)
            figure(p, str(v), pygame.Rect(box.x, y(v) - fig_h // 2, axis_w - px(6), fig_h),
                   th.INK_SOFT, "right")
        shown = label_indices(n, font, chart.labels, plot.w)
        for i in shown:
            w = font.size(chart.labels[i])[0]
            left = min(max(x(i) - w // 2, plot.x - axis_w // 2), box.right - w)
            figure(p, chart.labels[i], pygame.Rect(left, plot.bottom + fig_h // 2, w, fig_h),
                   th.INK_SOFT, "left")
        width = max(3, px(4))
        for s in chart.series:
            colour = self.colours.get(s.name, th.INK)
            run: list[tuple[int, int]] = []
            for i, v in enumerate([*s.values, None]):
                if v is not None:
                    run.append((x(i), y(v)))
                    continue
                if len(run) > 1:
                    pygame.draw.lines(p.surface, colour, False, run, width)
                for point in run:
                    pygame.draw.circle(p.surface, colour, point, max(4, px(6)))
                run = []
        if legend:
            names = [s.name for s in chart.series]
            row = pygame.Rect(box.x, box.bottom - legend_h, box.w, legend_h)
            self.draw_legend(p, names, row)

    def draw_legend(self, p: Painter, names: list[str], row: pygame.Rect) -> None:
        px = self.app.theme.px
        cell = row.w // max(1, len(names))
        for i, name in enumerate(names):
            box = pygame.Rect(row.x + i * cell, row.y, cell - px(4), row.h)
            # the series' colour as a swatch, the name in ink: a seat's colour is not always
            # legible on the felt
            swatch = pygame.Rect(box.x, box.centery - px(4), px(18), px(8))
            pygame.draw.rect(p.surface, self.colours.get(name, th.INK), swatch,
                             border_radius=px(3))
            box = pygame.Rect(swatch.right + px(6), box.y, box.right - swatch.right - px(6),
                              box.h)
            text(p, name, box, px(WORDS_GLYPH), th.INK, "left")

    def draw_shares(self, p: Painter, shares: list[charts.Share], box: pygame.Rect) -> None:
        """The wins: per player, name and ``wins/played`` over a bar of their share in
        their colour (the legend of the lines)."""
        px = self.app.theme.px
        head_h = self.app.theme.font(px(WORDS_GLYPH)).get_linesize()
        font = self.app.theme.font(px(FIGURE_GLYPH))
        line_h = font.get_linesize()
        text(p, self.t("charts.wins"), pygame.Rect(box.x, box.y, box.w, head_h), px(WORDS_GLYPH),
             th.INK_SOFT)
        rows = box.h - head_h - px(4)
        row_h = max(line_h + px(12), min(line_h + px(34), rows // max(1, len(shares))))
        y = box.y + head_h + px(4)
        for s in shares[:max(1, rows // row_h)]:
            colour = self.colours.get(s.name, th.INK)
            label = pygame.Rect(box.x, y, box.w, line_h)
            score = self.t("charts.share", wins=s.wins, played=s.played)
            score_w = font.size(score)[0]
            text(p, s.name, pygame.Rect(label.x, label.y, label.w - score_w - px(8), line_h),
                 px(FIGURE_GLYPH), th.INK)  # its colour is the bar under it
            figure(p, score, label, th.INK, "right")
            bar = pygame.Rect(box.x, label.bottom, box.w, row_h - line_h - px(6))
            pygame.draw.rect(p.surface, GRID, bar, border_radius=px(4))
            filled = bar.copy()
            filled.w = round(bar.w * s.wins / s.played) if s.played else 0
            if filled.w:
                pygame.draw.rect(p.surface, colour, filled, border_radius=px(4))
            y += row_h


def text(p: Painter, words: str, box: pygame.Rect, size: int, colour, align: str = "left"
         ) -> None:
    """One line, smaller to fit ``box`` but never below the legible 22 units."""
    theme = p.theme
    p.text(words, theme.fitting_font(words, size, box.w, theme.px(22)), colour, box, align)


def figure(p: Painter, words: str, box: pygame.Rect, colour, align: str) -> None:
    """A figure of the charts (an axis value, a date, a share of wins): ``FIGURE_GLYPH``
    units, never smaller (its box is made for it)."""
    p.text(words, p.theme.font(p.theme.px(FIGURE_GLYPH)), colour, box, align)


def label_indices(n: int, font: pygame.font.Font, labels: tuple[str, ...], width: int
                  ) -> list[int]:
    """Which x labels to write so that they do not run into each other: every k-th, the
    last always."""
    if n == 0:
        return []
    widest = max(font.size(label)[0] for label in labels) * 3 // 2
    every = max(1, -(-widest * n // max(1, width)))
    shown = list(range(0, n, every))
    if shown[-1] != n - 1:  # the latest game always: it takes the place of one too near
        if len(shown) > 1 and n - 1 - shown[-1] < every:
            shown[-1] = n - 1
        else:
            shown.append(n - 1)
    return shown


def series_text(chart: charts.LineChart) -> str:
    return "; ".join(f"{s.name} " + " ".join("-" if v is None else str(v) for v in s.values)
                     for s in chart.series)


def open_charts(app: App) -> None:
    """Push the charts of ``app.history`` and of the King's Dilemma campaign saved beside
    the journal (read as it is: none without a journal, or when it can't be read). Only
    what they show is read: the last games of each game, and the wins counted in SQL."""
    h = app.history
    games: list[PlayedGame] = []
    shares: dict[str, list[charts.Share]] = {}
    if h is not None:
        for key in h.first_kept():
            games += reversed(h.newest(key, 0, charts.LAST_GAMES))
        for key, stats in h.tally().items():
            shares[key] = sorted((charts.Share(n, s.wins, s.games) for n, s in stats.items()),
                                 key=lambda s: (-s.wins, s.played, s.name))
    ledger = kd_ledger.peek(app.journal.path.parent) if app.journal is not None else None
    app.push(ChartsScreen(app, games, ledger, shares))
