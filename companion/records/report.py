"""``companion report``: the history and the King's Dilemma campaign as one HTML page to
keep — self-contained (inline SVG charts, inline CSS, no script, nothing fetched), laid
out for a phone's width as well as a desktop's.

Per game: each player's scores over the last games (``charts.scores``), the shares of the
wins, and every game kept (date, scores, winners) with its BG Stats import link; the
campaign: each house's prestige and crave after every night, and the ledger as it stands.
Texts come from the EN/FR catalogs, like the kiosk's.

Readable at a phone's width and a desktop's: a player has one colour on every chart (a
house named as a player, the player's); a line also has its own dashes and points, so
that equal scores still show both; the axes are titled; the legends and the shares are
HTML (a 24-character name wraps, never overlaps or is cut), the x labels spaced so that
none runs into the next; a chart is at most 600 px wide, its type then about the body's.
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Callable, Iterator, Sequence
from html import escape
from pathlib import Path

from companion.games.kings_dilemma.campaign import Campaign
from companion.i18n import Catalog
from companion.records import bgstats, charts
from companion.storage.history import GameResult, History, PlayerStats, Records

# Series colours, distinct on white and for the common colour blindnesses (Okabe-Ito);
# beyond them, hues a golden angle apart (``colour``).
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
# A line's dashes and its points' shape, one per series in turn: two players with the same
# scores still show both lines (the later one dashed over the earlier).
DASHES = ("", "9 5", "3 4", "14 4 3 4")
MARKS = ("circle", "square", "diamond", "triangle")
W = 480  # an SVG's viewBox width; the chart is drawn at most MAX_W px wide
MAX_W = 600  # px: its text then at most FONT × 1.25 px, about the body's 16 px
PLOT_H = 200
LEFT, RIGHT, TOP, BOTTOM = 58, 16, 14, 52  # the plot's margins: the axes' figures and titles
FONT = 15  # viewBox units: 15 px at 480 px wide, 11-12 on a phone, 19 at most

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:960px;padding:12px;color:#1d2a24;background:#fbf8f0;line-height:1.4;font-size:16px}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.3em;margin:1.2em 0 .4em;
border-bottom:2px solid #c4a054}h3{font-size:1.05em;margin:.8em 0 .3em}
figure{margin:0 0 12px;max-width:600px}svg{width:100%;height:auto;display:block;
background:#fff;border:1px solid #ddd;border-radius:6px}table{border-collapse:collapse;
width:100%;font-size:.95em}td,th{padding:4px 6px;border-bottom:1px solid #e4ddcc;
text-align:left;vertical-align:top}.win{font-weight:bold;color:#8a5a00}
.scroll{overflow-x:auto}.muted{color:#666}a{color:#0b5cad}
.legend{display:flex;flex-wrap:wrap;gap:2px 14px;margin:4px 0 0;padding:0;
list-style:none;font-size:.9em}.legend li{display:flex;align-items:center;gap:6px;
overflow-wrap:anywhere}.legend svg{width:34px;height:14px;border:0;flex:none}
.shares{width:100%;max-width:600px}.shares td{border:0;padding:3px 6px 3px 0}
.shares .who{overflow-wrap:anywhere;width:35%}.sw{display:inline-block;width:12px;
height:12px;border-radius:2px;margin-right:6px;vertical-align:-1px}.shares .n{white-space:nowrap;width:1%}
.bar{background:#eee;height:16px;border-radius:3px;min-width:60px}
.bar span{display:block;height:100%;border-radius:3px}
.stats td,.stats th{white-space:nowrap}.stats td:first-child{white-space:normal;
overflow-wrap:anywhere}
"""


def colour(i: int) -> str:
    """The ``i``-th series colour: the palette's, then hues a golden angle apart."""
    if i < len(PALETTE):
        return PALETTE[i]
    return f"hsl({(i - len(PALETTE)) * 137.5 % 360:.0f},70%,38%)"


def colours_of(names: Sequence[str]) -> dict[str, str]:
    """One colour per name, the same in every chart of the page."""
    return {name: colour(i) for i, name in enumerate(dict.fromkeys(names))}


def svg_open(height: float, label: str) -> str:
    return (f'<svg viewBox="0 0 {W} {height:.0f}" role="img" aria-label="{escape(label)}" '
            f'class="chart" xmlns="http://www.w3.org/2000/svg" font-size="{FONT}">')


def mark(kind: str, x: float, y: float, fill: str) -> str:
    """A series' point: its shape (``MARKS``) at (x, y)."""
    if kind == "square":
        return f'<rect x="{x - 4.5:.1f}" y="{y - 4.5:.1f}" width="9" height="9" fill="{fill}"/>'
    if kind == "diamond":
        return (f'<polygon points="{x:.1f},{y - 6:.1f} {x + 6:.1f},{y:.1f} {x:.1f},{y + 6:.1f} '
                f'{x - 6:.1f},{y:.1f}" fill="{fill}"/>')
    if kind == "triangle":
        return (f'<polygon points="{x:.1f},{y - 6:.1f} {x + 6:.1f},{y + 5:.1f} '
                f'{x - 6:.1f},{y + 5:.1f}" fill="{fill}"/>')
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{fill}"/>'


def x_label_indices(n: int, width: float, label_w: float) -> list[int]:
    """Which x labels to write so that none runs into the next: evenly spaced, the last
    always (taking the place of one too near it)."""
    if n == 0:
        return []
    room = width / max(1, n - 1) if n > 1 else width
    every = max(1, -(-int(label_w * 1.3) // max(1, int(room))))
    shown = list(range(0, n, every))
    if shown[-1] != n - 1:
        if len(shown) > 1 and (n - 1 - shown[-1]) * room < label_w * 1.3:
            shown[-1] = n - 1
        else:
            shown.append(n - 1)
    return shown


def line_svg(chart: charts.LineChart, label: str, colours: dict[str, str],
             y_title: str, x_title: str) -> str:
    """A line per series over the x labels, the y axis on round ticks, both axes titled,
    and under it the legend (HTML: long names wrap, never overlap); ``colours``: each
    series' colour by name."""
    low, high = chart.span()
    ticks = charts.ticks(low, high)
    low, high = ticks[0], ticks[-1]
    pw = W - LEFT - RIGHT
    n = len(chart.labels)
    height = TOP + PLOT_H + BOTTOM

    def x(i: int) -> float:
        return LEFT + (pw * i / (n - 1) if n > 1 else pw / 2)

    def y(v: float) -> float:
        return TOP + PLOT_H - (v - low) * PLOT_H / (high - low)

    out = [svg_open(height, label)]
    for t in ticks:
        out.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
                   f'stroke="#ddd"/><text x="{LEFT - 6}" y="{y(t) + 5:.1f}" '
                   f'text-anchor="end" fill="#444">{t}</text>')
    widest = max((len(text) for text in chart.labels), default=0) * FONT * 0.62
    for i in x_label_indices(n, pw, widest):
        anchor = "start" if n > 1 and i == 0 else "end" if n > 1 and i == n - 1 else "middle"
        out.append(f'<text x="{x(i):.1f}" y="{TOP + PLOT_H + 20}" text-anchor="{anchor}" '
                   f'fill="#444">{escape(chart.labels[i])}</text>')
    out.append(f'<text x="{LEFT + pw / 2:.1f}" y="{height - 8}" text-anchor="middle" '
               f'fill="#222">{escape(x_title)}</text>')
    mid = TOP + PLOT_H / 2
    out.append(f'<text x="14" y="{mid:.1f}" text-anchor="middle" fill="#222" '
               f'transform="rotate(-90 14 {mid:.1f})">{escape(y_title)}</text>')
    for k, s in enumerate(chart.series):
        c = colours[s.name]
        dash = DASHES[k % len(DASHES)]
        runs: list[list[str]] = [[]]  # a player absent from a game breaks the line
        for i, v in enumerate(s.values):
            if v is None:
                runs.append([])
                continue
            runs[-1].append(f"{x(i):.1f},{y(v):.1f}")
            out.append(mark(MARKS[k % len(MARKS)], x(i), y(v), c))
        for run in runs:
            if len(run) > 1:
                dashes = f' stroke-dasharray="{dash}"' if dash else ""
                out.append(f'<polyline points="{" ".join(run)}" fill="none" stroke="{c}" '
                           f'stroke-width="3"{dashes}/>')
    out.append("</svg>")
    return "".join(out) + legend(chart, colours)


def legend(chart: charts.LineChart, colours: dict[str, str]) -> str:
    """Each series' line (colour, dashes, point) and name, wrapping as the page does."""
    items = []
    for k, s in enumerate(chart.series):
        c, dash = colours[s.name], DASHES[k % len(DASHES)]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        items.append(f'<li><svg viewBox="0 0 34 14" aria-hidden="true"><line x1="1" y1="7" '
                     f'x2="33" y2="7" stroke="{c}" stroke-width="3"{dashes}/>'
                     f'{mark(MARKS[k % len(MARKS)], 17, 7, c)}</svg>{escape(s.name)}</li>')
    return f'<ul class="legend">{"".join(items)}</ul>'


def duration(minutes: int, t: Callable) -> str:
    """``750`` → "12 h 30" (under an hour: "45 min")."""
    hours, rest = divmod(minutes, 60)
    return t("report.hours", h=hours, time=f"{rest:02d}") if hours else t("report.minutes",
                                                                            time=str(rest))


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "–"


def records_html(tally: dict[str, PlayerStats], rec: Records, t: Callable) -> str:
    """The figures BG Stats players look for, for one game: its high score and who holds
    it, how often the first player won, the time played; per player games, wins, personal
    best, time played and wins by the number of players at the table; head to head."""
    out = [f"<h3>{escape(t('report.records'))}</h3><ul>"]
    if tally:
        high = max(s.best for s in tally.values())
        holders = sorted(n for n, s in tally.items() if s.best == high)
        out.append(f"<li>{escape(t('report.high', score=high, names=', '.join(holders)))}</li>")
    if rec.first_games:
        out.append("<li>" + escape(t("report.first", wins=rec.first_won, games=rec.first_games,
                                     detail=percent(rec.first_won, rec.first_games))) + "</li>")
    if rec.timed:
        out.append("<li>" + escape(t("report.time", time=duration(rec.minutes, t),
                                     n=rec.timed)) + "</li>")
    out.append("</ul>")
    head = "".join(f"<th>{escape(t(k))}</th>" for k in (
        "report.player", "report.played", "report.won", "report.best", "report.time_column",
        "report.by_count"))
    rows = []
    for name, s in tally.items():
        counts = " · ".join(t("report.count", n=n, wins=w, games=g)
                            for n, (w, g) in rec.by_count.get(name, {}).items())
        minutes = rec.player_minutes.get(name)
        rows.append(f"<tr><td>{escape(name)}</td><td>{s.games}</td><td>{s.wins} "
                    f"({percent(s.wins, s.games)})</td><td>{s.best}</td>"
                    f"<td>{escape(duration(minutes, t)) if minutes else '–'}</td>"
                    f"<td>{escape(counts)}</td></tr>")
    out.append(f'<div class="scroll"><table class="stats"><tr>{head}</tr>{"".join(rows)}'
               "</table></div>")
    if rec.head_to_head:
        out.append(f"<h3>{escape(t('report.head_to_head'))}</h3><div class=\"scroll\">"
                   f'<table class="stats"><tr><th>{escape(t("report.pair"))}</th>'
                   f'<th>{escape(t("report.together"))}</th>'
                   f'<th>{escape(t("report.ahead"))}</th></tr>')
        pairs = sorted(rec.head_to_head.items(), key=lambda kv: (-kv[1][0], kv[0]))
        for (a, b), (n, x, y) in pairs:
            out.append(f"<tr><td>{escape(a)} – {escape(b)}</td><td>{n}</td>"
                       f"<td>{x} – {y}</td></tr>")
        out.append("</table></div>")
    return "".join(out)


def shares_html(shares: Sequence[charts.Share], wins_text: Callable,
                colours: dict[str, str]) -> str:
    """One row per player: the name (wrapping), a bar of the share of their games they
    won, ``wins of played``."""
    rows = []
    for s in shares:
        share = 100 * s.wins / s.played if s.played else 0
        rows.append(f'<tr><td class="who"><span class="sw" style="background:'
                    f'{colours[s.name]}"></span>{escape(s.name)}</td><td><div class="bar"><span style="width:{share:.1f}%;'
                    f'background:{colours[s.name]}"></span></div></td>'
                    f'<td class="n">{escape(wins_text(s))}</td></tr>')
    return f'<table class="shares">{"".join(rows)}</table>'


class Games:
    """What the page reads of the games: the game keys in the order first kept, and per
    game its count, its last games (the scores chart), its shares of the wins and every
    game newest first. From a list here; from the history in SQL (``HistoryGames``), a
    page of games at a time, so that ten thousand games are never held at once."""

    def __init__(self, games: Sequence[GameResult]) -> None:
        self.games = games

    def total(self) -> int:
        return len(self.games)

    def game_keys(self) -> list[str]:
        return charts.games_of(self.games)

    def count(self, key: str) -> int:
        return sum(g.game == key for g in self.games)

    def players(self) -> list[str]:
        """Every player, most games played first (the palette's colours go to them)."""
        played: dict[str, int] = {}
        for g in self.games:
            for p in g.players:
                played[p.name] = played.get(p.name, 0) + 1
        return sorted(played, key=lambda n: (-played[n], n))

    def last(self, key: str) -> list[GameResult]:
        return [g for g in self.games if g.game == key]

    def shares(self, key: str) -> list[charts.Share]:
        return charts.win_shares(self.games, key)

    def tally(self, key: str) -> dict[str, PlayerStats]:
        return self.history().tally().get(key, {})

    def records(self, key: str) -> Records:
        return self.history().records(key)

    def history(self) -> History:
        """The games in a history of their own, in a temporary directory removed with this
        object: the figures are counted by the same SQL as a real history's."""
        if getattr(self, "_own", None) is None:
            folder = tempfile.mkdtemp(prefix="companion-report-")
            self._own = History(Path(folder) / "games.db")
            weakref.finalize(self, _remove, self._own, folder)
            for g in self.games:
                self._own.keep(g)
        return self._own

    def newest(self, key: str) -> Iterator[GameResult]:
        return reversed([g for g in self.games if g.game == key])


def _remove(history: History, folder: str) -> None:
    history.close()
    shutil.rmtree(folder, ignore_errors=True)


class HistoryGames(Games):
    """``Games`` read from a ``History`` as they are needed."""

    BATCH = 500

    def __init__(self, history: History) -> None:
        self.history = history

    def total(self) -> int:
        return self.history.count()

    def game_keys(self) -> list[str]:
        return self.history.first_kept()

    def count(self, key: str) -> int:
        return self.history.count(key)

    def players(self) -> list[str]:
        played: dict[str, int] = {}
        for stats in self.history.tally().values():
            for name, st in stats.items():
                played[name] = played.get(name, 0) + st.games
        return sorted(played, key=lambda n: (-played[n], n))

    def last(self, key: str) -> list[GameResult]:
        return self.history.newest(key, 0, charts.LAST_GAMES)[::-1]

    def tally(self, key: str) -> dict[str, PlayerStats]:
        return self.history.tally().get(key, {})

    def records(self, key: str) -> Records:
        return self.history.records(key)

    def shares(self, key: str) -> list[charts.Share]:
        stats = self.history.tally().get(key, {})
        return sorted((charts.Share(n, s.wins, s.games) for n, s in stats.items()),
                      key=lambda s: (-s.wins, s.played, s.name))

    def newest(self, key: str) -> Iterator[GameResult]:
        offset = 0
        while page := self.history.newest(key, offset, self.BATCH):
            yield from page
            offset += len(page)


def render(games: Sequence[GameResult], ledger: Campaign | None, catalog: Catalog,
           generated: str) -> str:
    """The page in ``catalog``'s language; ``generated``: the date it says it was made."""
    return "".join(chunks(Games(games), ledger, catalog, generated))


def chunks(games: Games, ledger: Campaign | None, catalog: Catalog,
           generated: str) -> Iterator[str]:
    """``render``'s page in pieces, as they are made (written as they come)."""
    t = catalog.text

    def name(key: str) -> str:  # a game imported from elsewhere: its key
        return t(f"history.game.{key}") if f"history.game.{key}" in catalog.texts else key

    def wins_text(s: charts.Share) -> str:
        return t("report.wins", wins=s.wins, played=s.played)

    title = t("report.title")
    lang = escape(t("report.lang"))
    yield (f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
           '<meta name="viewport" content="width=device-width, initial-scale=1">'
           f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>")
    total = games.total()
    body = [f"<h1>{escape(title)}</h1>",
            (f'<p class="muted">{escape(t("report.generated", date=generated, n=total))}'
            "</p>")]
    if not total and (ledger is None or not ledger.games):
        body.append(f"<p>{escape(t('history.empty'))}</p>")
    colours = colours_of(games.players())  # a player's colour, the same in every chart
    for key in games.game_keys():
        body.append(f'<section class="game" id="game-{escape(key)}"><h2>{escape(name(key))}'
                    "</h2>")
        chart = charts.scores(games.last(key), key)
        shares = games.shares(key)
        label = t("report.scores", n=len(chart.labels))
        body.append(f"<h3>{escape(label)}</h3><figure>"
                    f"{line_svg(chart, label, colours, t('report.axis_score'), t('report.axis_games'))}"
                    "</figure>")
        label = t("report.shares")
        body.append(f"<h3>{escape(label)}</h3><figure>"
                    f"{shares_html(shares, wins_text, colours)}</figure>")
        body.append(records_html(games.tally(key), games.records(key), t))
        body.append(f'<h3>{escape(t("report.games", n=games.count(key)))}</h3><div '
                    f'class="scroll"><table><tr><th>{escape(t("report.date"))}</th>'
                    f'<th>{escape(t("report.scores_column"))}</th><th></th></tr>')
        for g in games.newest(key):
            cells = " · ".join(
                f'<span class="win">{escape(p.name)} {p.total}</span>' if p.name in g.winners
                else f"{escape(p.name)} {p.total}" for p in g.players)
            body.append(f"<tr><td>{escape(g.date[:16].replace('T', ' '))}</td><td>{cells}</td>"
                        f'<td><a href="{escape(bgstats.link(g))}">BG&nbsp;Stats</a></td></tr>')
            if len(body) >= 200:
                yield "\n".join(body) + "\n"
                body = []
        body.append("</table></div></section>")
    if ledger is not None and ledger.games:
        prestige, crave = charts.campaign(ledger)
        body.append(f'<section class="campaign" id="campaign"><h2>'
                    f'{escape(t("report.campaign", nights=len(ledger.games)))}</h2>')
        houses = dict(colours)  # a house named as a player: the player's colour
        for s in prestige.series:
            houses.setdefault(s.name, colour(len(houses)))
        for chart, key, axis in ((prestige, "report.prestige", "kd.campaign.prestige"),
                                 (crave, "report.crave", "kd.campaign.crave")):
            label = t(key)
            svg = line_svg(chart, label, houses, t(axis), t("report.axis_night"))
            body.append(f"<h3>{escape(label)}</h3><figure>{svg}</figure>")
        body.append(f'<div class="scroll"><table><tr><th>{escape(t("kd.campaign.house"))}</th>'
                    f'<th>{escape(t("kd.campaign.prestige"))}</th>'
                    f'<th>{escape(t("kd.campaign.crave"))}</th></tr>')
        for h in ledger.houses:
            body.append(f"<tr><td>{escape(h.name)}</td><td>{h.prestige}</td>"
                        f"<td>{h.crave}</td></tr>")
        body.append("</table></div></section>")
    yield "\n".join(body) + "</body></html>\n"
