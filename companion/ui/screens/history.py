"""The game history on the touchscreen: every finished game kept in
``app.history`` (date, game, players, scores, winners), newest first, a page at a time
with big « / » targets; a filter by game; the per-player statistics (games, wins, average
score) of ``History.stats_per_game()``: a player's figures per game, for every game or
the one filtered (scores of different games are never averaged together). The seats
watch from the slim seat ring, the list on the felt inside it.

``new_game(app)`` opens it from the home screen; it is no game, so ``resume`` gives None.
"""

from __future__ import annotations

import pygame

from companion.play.table import PlayedGame, PlayerFigures
from companion.records.charts import full_date
from companion.ui import theme as th
from companion.ui.app import App, Screen
from companion.ui.playcode import PlayCodeScreen
from companion.ui.screens.charts import open_charts
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter
from companion.ui.widgets import (
    FIGURE_GLYPH,
    TITLE,
    WORDS_GLYPH,
    Button,
    OnTheFelt,
    Runs,
    TapArea,
    button_h,
    fitted,
    shorten,
    title_line,
)

GAMES, PLAYERS = "games", "players"
WINNER = (255, 214, 120)


def new_game(app: App) -> Screen:
    return HistoryScreen(app)


def resume(app: App, game: object) -> None:
    """The history is no game: nothing to resume."""


class HistoryScreen(OnTheFelt, Screen):
    name = "history"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.game: str | None = None  # the filter
        self.view = GAMES
        self.page = 0
        self.buttons: list[Button] = []
        self.on_the_felt(SeatRing(app.theme, app.seats, app.catalog, slim=True))
        self.reload()

    def on_show(self) -> None:
        """Back from a game's code or the charts: read again only if a game was kept or
        imported meanwhile (no game here: every seat's light off)."""
        h = self.app.history
        if h is None or h.stamp() != self.stamp:
            self.reload()
        else:
            self.app.invalidate()

    # --- data ---------------------------------------------------------------------------

    def reload(self) -> None:
        """What the screen shows read from the history once: the games kept, how many,
        the players' figures, and the page shown (each page of games is read alone, in
        SQL: ten thousand games are never all loaded)."""
        h = self.app.history
        self.stamp = h.stamp() if h else (0, 0)
        self.kept_games = h.kept_games() if h else []
        if self.game not in self.kept_games:
            self.game = None
        self.total = h.count(self.game) if h else 0
        self._stats: list[tuple[str, str, PlayerFigures]] | None = None  # read when shown
        self.page_of: tuple[object, ...] | None = None  # what ``page_games`` was read for
        self.page_games: list[PlayedGame] = []
        self.build()
        self.app.invalidate()

    def game_name(self, key: str) -> str:
        texts = self.app.catalog.texts
        return texts.get(f"history.game.{key}", key)  # a game imported from elsewhere: its key

    @property
    def stats(self) -> list[tuple[str, str, PlayerFigures]]:
        """(game, player, stats) rows: a player's figures per game, never across games;
        counted only once the players' view is shown."""
        if self._stats is None:
            h = self.app.history
            self._stats = [(game, name, s) for game, players in (h.tally() if h else {}).items()
                           if self.game in (None, game) for name, s in players.items()]
        return self._stats

    def count(self) -> int:
        """The rows of the view: games kept (of the filter's game), or players' rows."""
        return self.total if self.view == GAMES else len(self.stats)

    @property
    def pages(self) -> int:
        return max(1, -(-self.count() // self.per_page))

    # --- actions ------------------------------------------------------------------------

    def back(self) -> None:
        if len(self.app.screens) > 1:
            self.app.pop()

    def next_filter(self) -> None:
        choices: list[str | None] = [None, *self.kept_games]
        self.game = choices[(choices.index(self.game) + 1) % len(choices)]
        self.page = 0
        self.reload()

    def switch_view(self) -> None:
        self.view = PLAYERS if self.view == GAMES else GAMES
        self.page = 0
        self.reload()

    def turn(self, delta: int) -> None:
        self.page = max(0, min(self.pages - 1, self.page + delta))
        self.build()
        self.app.invalidate()

    # --- layout -------------------------------------------------------------------------

    def build(self) -> None:
        """The felt inside the slim seat ring, the title line at its top (the page at the
        right), the list, and the buttons along the foot: Back, the filter, the view (and
        the charts), « and »."""
        t, px = self.app.catalog.text, self.app.theme.px
        gap = px(8)
        bh = button_h(self.app.theme)
        self.felt_rect = self.ring.centre
        inner = self.inner
        self.title_rect = pygame.Rect(inner.x, inner.y, inner.w, px(44))
        bar = pygame.Rect(inner.x, inner.bottom - bh, inner.w, bh)
        side = max(th.MIN_TARGET, px(72))
        self.next_rect = pygame.Rect(bar.right - side, bar.y, side, bh)
        self.prev_rect = self.next_rect.move(-side - gap, 0)
        game = self.game_name(self.game) if self.game else t("history.all_games")
        view = t("history.show_players" if self.view == GAMES else "history.show_games")
        labels = [t("history.back"), game, view] + ([t("charts.open")] if self.view == PLAYERS
                                                    else [])
        room = self.prev_rect.x - gap - bar.x - gap * (len(labels) - 1)
        cells = self.share(room, [Button.least_width(self.app.theme, label, bh)
                                  for label in labels], [120, 190, 150, 150])
        x, rects = bar.x, []
        for c in cells:
            rects.append(pygame.Rect(x, bar.y, c, bh))
            x += c + gap
        self.back_rect, self.filter_rect, self.view_rect = rects[:3]
        self.list_rect = pygame.Rect(inner.x, self.title_rect.bottom + gap, inner.w,
                                     bar.y - gap - self.title_rect.bottom - gap)
        # a game: its date over its scores, a player: a line of figures; all of them as
        # large as a figure read from a chair, so fewer to a page (« » turn them)
        self.row_h = px(66) if self.view == GAMES else px(38)
        self.per_page = max(1, (self.list_rect.h + gap) // (self.row_h + gap)
                            - (self.view == PLAYERS))  # the stats have a header row
        self.page = min(self.page, self.pages - 1)
        self.buttons = [
            Button(self.back_rect, t("history.back"), self.back),
            Button(self.filter_rect, game, self.next_filter),
            Button(self.view_rect, view, self.switch_view),
            Button(self.prev_rect, "«", lambda: self.turn(-1)),
            Button(self.next_rect, "»", lambda: self.turn(+1)),
        ]
        if self.view == PLAYERS:  # the charts, beside the view
            self.charts_rect = rects[3]
            self.buttons.append(Button(self.charts_rect, t("charts.open"), self.open_charts))
        if self.view == GAMES:  # a tap on a game shows its BG Stats code
            self.rows = [TapArea(self.row_rect(i), lambda g=g: self.show_code(g))
                         for i, g in enumerate(self.shown())]
            self.buttons += self.rows

    @staticmethod
    def share(room: int, needs: list[int], weights: list[int]) -> list[int]:
        """``room`` cut into widths: each what it ``needs``, the rest shared in proportion
        to ``weights``; in proportion alone where the needs exceed the room."""
        weights = weights[:len(needs)]
        spare = room - sum(needs)
        if spare < 0:
            needs, spare = [0] * len(needs), room
        return [need + spare * w // sum(weights) for need, w in zip(needs, weights, strict=True)]

    def open_charts(self) -> None:
        open_charts(self.app)

    def row_rect(self, i: int) -> pygame.Rect:
        gap = self.app.theme.px(8)
        return pygame.Rect(self.list_rect.x, self.list_rect.y + i * (self.row_h + gap),
                           self.list_rect.w, self.row_h)

    def show_code(self, game: PlayedGame) -> None:
        self.app.push(PlayCodeScreen(self.app, game))

    # --- input --------------------------------------------------------------------------

    # --- drawing ------------------------------------------------------------------------

    def shown(self) -> list:
        start = self.page * self.per_page
        if self.view != GAMES:
            return self.stats[start:start + self.per_page]
        wanted = (self.game, start, self.per_page)
        if self.page_of != wanted:  # this page, newest first, read alone
            h = self.app.history
            self.page_games = h.newest(self.game, start, self.per_page) if h else []
            self.page_of = wanted
        return self.page_games

    def winners_text(self, g: PlayedGame) -> str:
        key = "history.winner" if len(g.winners) == 1 else "history.shared"
        return self.app.catalog.text(key, names=self.app.catalog.names(g.winners))

    def describe(self) -> str:
        t = self.app.catalog.text
        head = (f"{t('history.title')} | {self.game_name(self.game) if self.game else ''}"
                f" | {t('history.page', page=self.page + 1, pages=self.pages)}")
        if self.view == GAMES:
            rows = [f"{g.date} {self.game_name(g.game)}: "
                    + ", ".join(f"{p.name} {p.total}" for p in g.players)
                    + f" ({self.winners_text(g)})" for g in self.shown()]
        else:
            rows = [t("history.stats_row", name=n, game=self.game_name(g), games=s.games,
                      wins=s.wins, average=self.average(s), score=s.best)
                    for g, n, s in self.shown()]
        return " | ".join([head, *rows])

    def average(self, s: PlayerFigures) -> str:
        return self.app.catalog.decimal(s.average)

    def draw(self, p: Painter) -> None:
        t, px = self.app.catalog.text, self.app.theme.px
        self.background(p)
        page = t("history.page", page=self.page + 1, pages=self.pages)
        title_line(p, t("history.title"), page, self.title_rect, right_size=FIGURE_GLYPH)
        if self.view == GAMES and self.count():  # what a tap on a game does, between them
            box, theme = self.title_rect, self.app.theme
            left = box.x + theme.font(px(TITLE)).size(t("history.title"))[0] + px(16)
            right = box.right - theme.font(px(FIGURE_GLYPH)).size(page)[0] - px(16)
            self.text(p, t("history.code_hint"), pygame.Rect(left, box.y, right - left, box.h),
                      px(WORDS_GLYPH), th.INK_SOFT, "center")
        if self.app.history is None or not self.count():
            key = "history.not_kept" if self.app.history is None else "history.empty"
            self.text(p, t(key), self.list_rect, px(32), th.INK_SOFT, "center")
        elif self.view == GAMES:
            self.draw_games(p)
        else:
            self.draw_stats(p)
        for b in self.buttons:  # after the rows: a pressed row's outline over its plate
            b.draw(p)

    def text(self, p: Painter, text: str, box: pygame.Rect, size: int, colour,
             align: str = "left") -> None:
        """One line, smaller to fit ``box`` down to the least words' size (``WORDS_GLYPH``),
        then cut with an ellipsis (a long name in its column: the whole name is on its
        seat's plate; a long game's name, "Le Dilemme du…")."""
        theme = self.app.theme
        font = theme.fitting_font(text, size, box.w, min(size, theme.px(WORDS_GLYPH)))
        p.text(fitted(text, font, box.w), font, colour, box, align)

    def draw_games(self, p: Painter) -> None:
        px = self.app.theme.px
        gap = px(8)
        for i, g in enumerate(self.shown()):
            row = self.row_rect(i)
            pygame.draw.rect(p.surface, th.PLATE, row, border_radius=px(10))
            inner = row.inflate(-px(20), -px(2))
            top = pygame.Rect(inner.x, inner.y, inner.w, inner.h // 2)
            under = pygame.Rect(inner.x, top.bottom, inner.w, inner.h - top.h)
            when, game = full_date(g.date), self.game_name(g.game)
            # A shared victory names no one here: the winners are lit in the scores line.
            won = self.winners_text(g) if len(g.winners) == 1 else \
                self.app.catalog.text("history.shared_short")
            # the date, a figure, large; the game and the winner in words beside it
            theme = self.app.theme
            date = pygame.Rect(top.x, top.y, min(theme.font(px(FIGURE_GLYPH)).size(when)[0],
                                                 top.w * 2 // 5), top.h)
            words = theme.font(px(WORDS_GLYPH))
            right_w = min(words.size(won)[0], (top.right - date.right - 2 * gap) // 2)
            right = pygame.Rect(top.right - right_w, top.y, right_w, top.h)
            middle = pygame.Rect(date.right + gap, top.y, right.x - gap - date.right - gap,
                                 top.h)
            self.text(p, when, date, px(FIGURE_GLYPH), th.INK_SOFT)
            self.text(p, game, middle, px(WORDS_GLYPH), th.INK_SOFT)
            self.text(p, won, right, px(WORDS_GLYPH), WINNER, "right")
            self.draw_scores(p, g, under)

    def draw_scores(self, p: Painter, g: PlayedGame, box: pygame.Rect) -> None:
        """``Ana 15 · Ben 18 · Cleo 19``: each name at the least words' size, its score a
        figure's (``Runs``), the winners in their colour; the longest names cut with an
        ellipsis to fit ``box`` (a tap on the game shows them whole)."""
        theme = self.app.theme
        words = theme.font(theme.px(WORDS_GLYPH))
        names = [shorten(q.name, words, box.w) for q in g.players]  # an imported long one

        def line() -> list[Runs]:
            last = len(names) - 1
            return [Runs(theme, f"{name} {q.total}{'' if i == last else ' · '}", WORDS_GLYPH)
                    for i, (name, q) in enumerate(zip(names, g.players, strict=True))]

        runs = line()
        while sum(r.width() for r in runs) > box.w:
            longest = max(range(len(names)), key=lambda i: len(names[i].rstrip("…")))
            kept = names[longest].rstrip("…")
            if len(kept) <= 1:
                break
            names[longest] = kept[:-1].rstrip(" -") + "…"
            runs = line()
        x = box.x
        for q, run in zip(g.players, runs, strict=True):
            w = min(run.width(), box.right - x)
            if w > 0:
                run.draw(p, WINNER if q.name in g.winners else th.INK,
                         pygame.Rect(x, box.y, w, box.h))
            x += run.width()

    def draw_stats(self, p: Painter) -> None:
        t, px = self.app.catalog.text, self.app.theme.px
        gap = px(8)
        area = self.list_rect
        # All games: a game column, each player's figures per game; one game: its players.
        by_game = self.game is None
        pad = px(8)  # each side of a cell: neighbouring headings and figures never touch
        heads = [t("history.player"), t("history.game_column"), t("history.games"),
                 t("history.wins"), t("history.average"), t("history.best")]
        rows = [[name, self.game_name(game), str(s.games), str(s.wins), self.average(s),
                 str(s.best)] for game, name, s in self.shown()]
        # each figures' column as wide as its heading at the least words' size or its
        # widest figure, the rest to the names (and the games)
        theme = self.app.theme
        words, figures = theme.font(px(WORDS_GLYPH)), theme.font(px(FIGURE_GLYPH))
        needs = [max([int(words.size(heads[c])[0] * th.SQUEEZE) + 1]
                     + [figures.size(r[c])[0] for r in rows]) + 2 * pad for c in range(2, 6)]
        game_w = area.w * 20 // 100 if by_game else 0
        room = area.w - game_w - area.w // 5  # a name keeps a fifth at least
        cols = needs if sum(needs) <= room else self.share(room, needs, [1, 1, 1, 1])
        name_w = area.w - game_w - sum(cols)

        def row(y: int, cells: list[str], colour, fill: bool, size: int) -> None:
            r = pygame.Rect(area.x, y, area.w, self.row_h)
            if fill:
                pygame.draw.rect(p.surface, th.PLATE, r, border_radius=px(10))
            self.text(p, cells[0], pygame.Rect(r.x + px(12), y, name_w - px(12) - pad, r.h),
                      size, colour)
            if by_game:
                self.text(p, cells[1], pygame.Rect(r.x + name_w, y, game_w - pad, r.h),
                          min(size, px(WORDS_GLYPH)), colour)
            x = r.x + name_w + game_w
            for cell, col_w in zip(cells[2:], cols, strict=True):
                box = pygame.Rect(x, y, col_w, r.h)
                self.text(p, cell, box.inflate(-2 * pad, 0), size, colour, "center")
                x += col_w

        row(area.y, heads, th.INK_SOFT, False, px(WORDS_GLYPH))
        for i, cells in enumerate(rows, start=1):
            row(area.y + i * (self.row_h + gap), cells, th.INK, True, px(FIGURE_GLYPH))

