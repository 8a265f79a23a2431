"""``companion report``: the history and the King's Dilemma campaign as one HTML page to
keep — self-contained (inline SVG charts, inline CSS, no script, nothing fetched), laid
out for a phone's width as well as a desktop's.

Per game: each player's scores over the last games (``charts.scores``), the shares of the
wins, and every game kept (date, scores, winners) with its BG Stats import link; the
campaign: each house's prestige and crave after every night, and the ledger as it stands.
Texts come from the EN/FR catalogs, like the kiosk's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from html import escape

from companion import bgstats, charts
from companion.engine.kd_campaign import Campaign
from companion.history import GameResult, History
from companion.i18n import Catalog

# Series colours, distinct on white and for the common colour blindnesses (Okabe-Ito).
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
W = 480  # an SVG's viewBox width; it scales to the page's width (a phone: about 0.8)
PLOT_H = 200
LEFT, RIGHT, TOP, XLABELS = 46, 14, 14, 28  # the plot area's margins
LEGEND_ROW, LEGEND_COLUMNS = 26, 3  # the legend under the plot
FONT = 18  # viewBox units: 14-15 px on a phone, more on a desktop

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:960px;padding:12px;color:#1d2a24;background:#fbf8f0;line-height:1.4}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.3em;margin:1.2em 0 .4em;
border-bottom:2px solid #c4a054}h3{font-size:1.05em;margin:.8em 0 .3em}
figure{margin:0 0 12px}svg{width:100%;height:auto;display:block;background:#fff;
border:1px solid #ddd;border-radius:6px}table{border-collapse:collapse;width:100%;
font-size:.95em}td,th{padding:4px 6px;border-bottom:1px solid #e4ddcc;text-align:left;
vertical-align:top}.win{font-weight:bold;color:#8a5a00}.scroll{overflow-x:auto}
.muted{color:#666}a{color:#0b5cad}
"""


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def svg_open(height: float, label: str) -> str:
    return (f'<svg viewBox="0 0 {W} {height:.0f}" role="img" aria-label="{escape(label)}" '
            f'class="chart" xmlns="http://www.w3.org/2000/svg" font-size="{FONT}">')


def line_svg(chart: charts.LineChart, label: str, colours: dict[str, str]) -> str:
    """A line per series over the x labels, the y axis on round ticks, a legend under it;
    ``colours``: each series' colour by name."""
    low, high = chart.span()
    ticks = charts.ticks(low, high)
    low, high = ticks[0], ticks[-1]
    pw = W - LEFT - RIGHT
    n = len(chart.labels)
    legend_rows = -(-len(chart.series) // LEGEND_COLUMNS)
    height = TOP + PLOT_H + XLABELS + legend_rows * LEGEND_ROW + 6

    def x(i: int) -> float:
        return LEFT + (pw * i / (n - 1) if n > 1 else pw / 2)

    def y(v: float) -> float:
        return TOP + PLOT_H - (v - low) * PLOT_H / (high - low)

    out = [svg_open(height, label)]
    for t in ticks:
        out.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
                   f'stroke="#ddd"/><text x="{LEFT - 6}" y="{y(t) + 6:.1f}" '
                   f'text-anchor="end" fill="#444">{t}</text>')
    step = max(1, -(-n // 5))  # at most 5 x labels: they must not run into each other
    for i, text in enumerate(chart.labels):
        if i % step == 0 or i == n - 1:
            anchor = "start" if n > 1 and i == 0 else "end" if n > 1 and i == n - 1 else "middle"
            out.append(f'<text x="{x(i):.1f}" y="{TOP + PLOT_H + 22}" text-anchor="{anchor}" '
                       f'fill="#444">{escape(text)}</text>')
    for k, s in enumerate(chart.series):
        c = colours[s.name]
        runs: list[list[str]] = [[]]  # a player absent from a game breaks the line
        for i, v in enumerate(s.values):
            if v is None:
                runs.append([])
                continue
            runs[-1].append(f"{x(i):.1f},{y(v):.1f}")
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="5" fill="{c}"/>')
        for run in runs:
            if len(run) > 1:
                out.append(f'<polyline points="{" ".join(run)}" fill="none" stroke="{c}" '
                           'stroke-width="3"/>')
        lx = LEFT + (k % LEGEND_COLUMNS) * (pw // LEGEND_COLUMNS)
        ly = TOP + PLOT_H + XLABELS + (k // LEGEND_COLUMNS) * LEGEND_ROW + 18
        out.append(f'<rect x="{lx}" y="{ly - 13}" width="16" height="14" fill="{c}"/>'
                   f'<text x="{lx + 22}" y="{ly}" fill="#222">{escape(s.name)}</text>')
    out.append("</svg>")
    return "".join(out)


def shares_svg(shares: Sequence[charts.Share], label: str, wins_text: Callable,
               colours: dict[str, str]) -> str:
    """One bar per player: the share of their games they won, with ``wins / played``."""
    row = 32
    name_w, text_w = 120, 100
    bar_w = W - name_w - text_w - 16
    out = [svg_open(8 + row * len(shares), label)]
    for i, s in enumerate(shares):
        top = 6 + i * row
        share = s.wins / s.played if s.played else 0
        out.append(f'<text x="{name_w - 8}" y="{top + 19}" text-anchor="end" fill="#222">'
                   f'{escape(s.name)}</text><rect x="{name_w}" y="{top + 4}" width="{bar_w}" '
                   f'height="20" fill="#eee"/><rect x="{name_w}" y="{top + 4}" '
                   f'width="{bar_w * share:.1f}" height="20" fill="{colours[s.name]}"/>'
                   f'<text x="{name_w + bar_w + 8}" y="{top + 19}" fill="#222">'
                   f'{escape(wins_text(s))}</text>')
    out.append("</svg>")
    return "".join(out)


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

    def last(self, key: str) -> list[GameResult]:
        return [g for g in self.games if g.game == key]

    def shares(self, key: str) -> list[charts.Share]:
        return charts.win_shares(self.games, key)

    def newest(self, key: str) -> Iterator[GameResult]:
        return reversed([g for g in self.games if g.game == key])


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

    def last(self, key: str) -> list[GameResult]:
        return self.history.newest(key, 0, charts.LAST_GAMES)[::-1]

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
    for key in games.game_keys():
        body.append(f'<section class="game" id="game-{escape(key)}"><h2>{escape(name(key))}'
                    "</h2>")
        chart = charts.scores(games.last(key), key)
        colours = {s.name: colour(i) for i, s in enumerate(chart.series)}
        shares = games.shares(key)
        for s in shares:  # a player of older games only: the next colours
            colours.setdefault(s.name, colour(len(colours)))
        label = t("report.scores", n=len(chart.labels))
        body.append(f"<h3>{escape(label)}</h3><figure>{line_svg(chart, label, colours)}"
                    "</figure>")
        label = t("report.shares")
        body.append(f"<h3>{escape(label)}</h3><figure>"
                    f"{shares_svg(shares, label, wins_text, colours)}</figure>")
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
        colours = {s.name: colour(i) for i, s in enumerate(prestige.series)}
        for chart, key in ((prestige, "report.prestige"), (crave, "report.crave")):
            label = t(key)
            body.append(f"<h3>{escape(label)}</h3><figure>{line_svg(chart, label, colours)}"
                        "</figure>")
        body.append(f'<div class="scroll"><table><tr><th>{escape(t("kd.campaign.house"))}</th>'
                    f'<th>{escape(t("kd.campaign.prestige"))}</th>'
                    f'<th>{escape(t("kd.campaign.crave"))}</th></tr>')
        for h in ledger.houses:
            body.append(f"<tr><td>{escape(h.name)}</td><td>{h.prestige}</td>"
                        f"<td>{h.crave}</td></tr>")
        body.append("</table></div></section>")
    yield "\n".join(body) + "</body></html>\n"
