"""What the charts show, computed once for the kiosk (``ui/screens/charts.py``, pygame)
and the report (``report.py``, SVG): per game, each player's scores over the last games
and their shares of the wins, from the history; for The King's Dilemma, each house's
prestige and crave after every night of the campaign, from its ledger.

Pure: no pygame, no file; a chart is data (labels along the x axis, one series per player
or house) and ``ticks`` chooses the y axis both renderers draw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from companion.games.kings_dilemma.campaign import Campaign
from companion.storage.history import GameResult

LAST_GAMES = 10  # games on a scores chart: more would not read at 800×480


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[int | None, ...]  # one per x label; None: not in that game


@dataclass(frozen=True)
class LineChart:
    labels: tuple[str, ...]  # along the x axis (a game's date, a night's number)
    series: tuple[Series, ...]

    def span(self) -> tuple[int, int]:
        """The lowest and highest value shown (0 always included)."""
        values = [v for s in self.series for v in s.values if v is not None]
        return min([0, *values]), max([0, *values])


@dataclass(frozen=True)
class Share:
    name: str
    wins: int
    played: int


def games_of(games: Sequence[GameResult]) -> list[str]:
    """The game keys present, in the order their first game was kept."""
    return list(dict.fromkeys(g.game for g in games))


def played_at(g: GameResult) -> datetime:
    """When a game ended, comparable whatever its offset (none: the local time)."""
    return datetime.fromisoformat(g.date).astimezone()


def day(iso: str) -> str:
    """``2026-11-23T21:00…`` → ``23/11``: a short x label."""
    return f"{iso[8:10]}/{iso[5:7]}"


def full_date(iso: str) -> str:
    """``2026-11-23T21:00…`` → ``23/11/2026 21:00``: a game's date as History lists it, in
    the charts' order (day, month), the time when the date has one."""
    time = iso[11:16]
    return f"{day(iso)}/{iso[:4]}" + (f" {time}" if time else "")


def scores(games: Sequence[GameResult], game: str, last: int = LAST_GAMES) -> LineChart:
    """Each player's total in the ``last`` games of ``game`` by date (oldest first; an
    import may have kept an old game late); players in the order they first appear."""
    chosen = sorted((g for g in games if g.game == game), key=played_at)[-last:]
    names = list(dict.fromkeys(p.name for g in chosen for p in g.players))
    series = []
    for name in names:
        totals = []
        for g in chosen:
            total = next((p.total for p in g.players if p.name == name), None)
            totals.append(total)
        series.append(Series(name, tuple(totals)))
    return LineChart(tuple(day(g.date) for g in chosen), tuple(series))


def win_shares(games: Sequence[GameResult], game: str) -> list[Share]:
    """Per player of ``game``: games won (a shared victory counts for each) of games
    played, most wins first (then fewest games, then name)."""
    played: dict[str, int] = {}
    wins: dict[str, int] = {}
    for g in games:
        if g.game != game:
            continue
        for p in g.players:
            played[p.name] = played.get(p.name, 0) + 1
            wins[p.name] = wins.get(p.name, 0) + (p.name in g.winners)
    out = [Share(n, wins[n], played[n]) for n in played]
    return sorted(out, key=lambda s: (-s.wins, s.played, s.name))


def campaign(ledger: Campaign) -> tuple[LineChart, LineChart]:
    """Each house's prestige and crave after every recorded night (labels: the nights'
    numbers). Worked back from what the ledger holds now, so a house that began with some
    prestige shows it; a house not yet in the campaign has no value on earlier nights."""
    nights = ledger.games
    labels = tuple(str(g.number) for g in nights)
    prestige, crave = [], []
    for house in ledger.houses:
        p_now, c_now = house.prestige, house.crave
        p_vals: list[int | None] = []
        c_vals: list[int | None] = []
        for i in range(len(nights)):
            later = [r for g in nights[i + 1:] for r in g.results if r.house == house.name]
            played = any(r.house == house.name for g in nights[:i + 1] for r in g.results)
            if not played:
                p_vals.append(None)
                c_vals.append(None)
                continue
            p_vals.append(p_now - sum(r.prestige for r in later))
            c_vals.append(c_now - sum(r.crave for r in later))
        prestige.append(Series(house.name, tuple(p_vals)))
        crave.append(Series(house.name, tuple(c_vals)))
    return LineChart(labels, tuple(prestige)), LineChart(labels, tuple(crave))


def ticks(low: int, high: int, most: int = 5) -> list[int]:
    """Round values for the y axis covering ``low``…``high``: at most ``most`` of them,
    steps of 1, 2 or 5 times a power of ten."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, most - 1)
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    step = max(1, int(step))
    first = math.floor(low / step) * step
    out = []
    value = first
    while value < high + step:
        out.append(value)
        if value >= high:
            break
        value += step
    return out
