"""A finished game as a BG Stats play: the JSON of BG Stats' import link for other apps
(``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``), which opens an
import dialog in the app that matches the game and the players by id or by name.

The play is made from the history row only (``history.GameResult``): what was kept when
the game ended, so a sealed ballot or an agenda still secret can never be in it. The JSON
is compact (no spaces, fields left out when they say nothing) so that the link fits a QR
code still scannable on an 800×480 screen.

Fields: ``game`` (``name``, ``bggId`` where known, ``highestWins``, ``sourceGameId``: our
game key), ``playDate`` (``YYYY-MM-DD HH:MM:SS``, local time at the table: when the game
began if known, else when it ended), ``durationMin`` (when the start is known),
``location`` (the companion), ``players`` in seating order (``name``, ``score``,
``winner`` only for the winners, ``rank``, ``startPlayer`` only for the first player,
``sourcePlayerId``: the name, which is how the companion knows a player).
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml

from companion.history import GameResult

IMPORT_URL = "https://app.bgstatsapp.com/createPlay.html?data="
LOCATION = "Table companion"
GAMES_FILE = Path(__file__).resolve().parent / "data" / "bgstats.yaml"
# Characters RFC 3986 allows as they are in a query, kept unescaped: a shorter link, a
# smaller QR code. Everything else (quotes, braces, brackets, spaces, non-ASCII) is escaped.
_SAFE = ":,"


@cache
def games() -> dict[str, dict[str, Any]]:
    """Our game key → {name, highest_wins, bgg_id?} (``data/bgstats.yaml``)."""
    with GAMES_FILE.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def ranks(game: GameResult) -> dict[str, int]:
    """Each player's place: the winners share 1st; the others follow by total, a player
    placed behind every winner and every higher total (equal totals share a place)."""
    out = {}
    for p in game.players:
        if p.name in game.winners:
            out[p.name] = 1
        else:
            ahead = [q for q in game.players
                     if q.name in game.winners or q.total > p.total]
            out[p.name] = 1 + len(ahead)
    return out


def table_time(iso: str) -> datetime:
    """An ISO date as the table's wall-clock time (its own offset, which is where the game
    was played; a date without a time is midnight)."""
    return datetime.fromisoformat(iso)


def play(game: GameResult) -> dict[str, Any]:
    """The BG Stats play of one history row."""
    info = games().get(game.game, {})
    meta: dict[str, Any] = {"name": info.get("name", game.game)}
    if info.get("bgg_id"):
        meta["bggId"] = int(info["bgg_id"])
    meta["highestWins"] = bool(info.get("highest_wins", True))
    meta["sourceGameId"] = game.game
    ended = table_time(game.date)
    began = table_time(game.started) if game.started else None
    out: dict[str, Any] = {"game": meta,
                           "playDate": (began or ended).strftime("%Y-%m-%d %H:%M:%S")}
    if began is not None:
        out["durationMin"] = max(0, round((ended - began).total_seconds() / 60))
    out["location"] = LOCATION
    place = ranks(game)
    players = []
    for p in game.players:
        entry: dict[str, Any] = {"name": p.name, "score": p.total,
                                 "rank": place[p.name]}
        if p.name in game.winners:
            entry["winner"] = True
        if p.name == game.first_player:
            entry["startPlayer"] = True
        entry["sourcePlayerId"] = p.name
        players.append(entry)
    out["players"] = players
    return out


def compact(data: Any) -> str:
    """JSON without a byte to spare (UTF-8 kept as is: the link escapes it once)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def link(game: GameResult) -> str:
    """The import link of one history row: what the QR code holds."""
    return IMPORT_URL + quote(compact(play(game)), safe=_SAFE)


def data_of(url: str) -> dict[str, Any]:
    """The play inside an import link (the reverse of ``link``), for checks."""
    from urllib.parse import parse_qs, urlsplit

    if not url.startswith(IMPORT_URL):
        raise ValueError(f"not a BG Stats import link: {url[:60]!r}")
    return json.loads(parse_qs(urlsplit(url).query, strict_parsing=True)["data"][0])
