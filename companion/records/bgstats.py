"""A finished game as a BG Stats play: the JSON of BG Stats' import link for other apps
(``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``), which opens an
import dialog in the app that matches the game and the players by BGG id or by name.

The link is BG Stats' own "Push plays to BG Stats from other apps or websites"
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):
``<data>`` is a URL-encoded JSON string with ``sourceName``, ``sourcePlayId``,
``playDate``, ``durationMin``, ``game`` (``name``, ``bggId``, ``highestWins``, …) and
``players`` (``name``, ``score``, ``winner``, ``startPlayer``, …). What we follow beyond
the page's example, and why:

- ``startPlayer`` and ``winner`` on every player, true or false: BG Stats on Android refuses
  a play where a player lacks either ("Invalid data: org.json.JSONException: No value for
  startPlayer", https://github.com/lindsaykwardell/clocktracker/pull/299, which cites the
  page as listing ``startPlayer`` as not optional).
- ``sourceName``, ``sourcePlayId`` and ``playDate`` always: the three fields other
  importers read the page as requiring; ``sourcePlayId`` is how BG Stats recognises a play
  imported twice (it updates it instead of adding it again).
- ``playDate`` is when the game ended, in UTC, ``YYYY-MM-DD HH:MM:SS`` (not ISO 8601): the
  reading of the same page by the importers that cite it (OyinQ's BgStatsPlayExportAdapter:
  "playDate is the UTC END time, not the scheduled start"; Rulebook Rebels' bot: "BG Stats
  requires playDate as UTC 'yyyy-MM-dd HH:mm:ss', not ISO 8601"). ``durationMin`` goes
  back from it when the start is known.

Left out, to keep the link short enough for a QR code a phone reads across the table (a
five-player night with 24-character names in version 19, 93 modules: 4 px a module in the
388 px between an 800×480 screen's seat plates): ``location`` (the page: "The location is
set to the Board gaming app or website providing the link"), ``rank`` (BG Stats ranks by
score), ``sourcePlayerId`` (ours would be the name, which BG Stats matches anyway),
``game.highestWins`` and ``noPoints`` (every game here is won by the highest score; the
page lists them as the game's settings, not as needed to import), ``board``/``comments``/
``role`` (nothing to say). The
file of plays (``backup``) has all of them.

The play is made from the history row only (``history.GameResult``): what was kept when
the game ended, so a sealed ballot or an agenda still secret can never be in it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import uuid
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml

from companion.games.kings_dilemma.campaign import Campaign
from companion.storage.history import GameResult

IMPORT_URL = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Companion"  # BG Stats keeps its matches of games and players per source
LOCATION = "Table companion"  # where the file's plays took place
GAMES_FILE = Path(__file__).resolve().parents[1] / "data" / "bgstats.yaml"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
# Characters RFC 3986 allows as they are in a query, kept unescaped: a shorter link, a
# smaller QR code. Everything else (quotes, braces, brackets, spaces, non-ASCII) is escaped.
_SAFE = ":,'"


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


def utc(iso: str) -> datetime:
    """An ISO date as UTC: with its offset where it has one (the table's own clock), else
    as this machine's local time (a date without a time is its midnight)."""
    return datetime.fromisoformat(iso).astimezone(UTC)


def play_id(game: GameResult) -> str:
    """A short id of the game that is the same in every run, every export and every
    history it is imported into (made from what the game is: when it ended, which game,
    who scored what), so BG Stats recognises a play imported twice. Eight characters of
    base 32 (a-z, 2-7: nothing to escape in a link): 40 bits, two games of a ten-thousand
    game history alike once in some twenty thousand such histories."""
    text = json.dumps([game.date, game.game, [[p.name, p.total] for p in game.players]],
                      ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return base64.b32encode(digest[:5]).decode("ascii").lower()


def duration_min(game: GameResult) -> int | None:
    """Minutes from start to end, when the start is known."""
    if not game.started:
        return None
    return max(0, round((utc(game.date) - utc(game.started)).total_seconds() / 60))


def game_meta(key: str) -> dict[str, Any]:
    """The ``game`` of a play: its name as BGG spells it, its BGG id where one is
    confirmed."""
    info = games().get(key, {})
    meta: dict[str, Any] = {"name": info.get("name", key)}
    if info.get("bgg_id"):
        meta["bggId"] = int(info["bgg_id"])
    return meta


def highest_wins(key: str) -> bool:
    return bool(games().get(key, {}).get("highest_wins", True))


def play(game: GameResult, names: dict[str, str] | None = None) -> dict[str, Any]:
    """The BG Stats play of one history row (``names``: a shorter name for some players,
    where the code must be shorter to be read; see ``fitting_link``)."""
    names = names or {}
    out: dict[str, Any] = {"sourceName": SOURCE_NAME, "sourcePlayId": play_id(game),
                           "playDate": utc(game.date).strftime(DATE_FORMAT)}
    minutes = duration_min(game)
    if minutes is not None:
        out["durationMin"] = minutes
    out["game"] = game_meta(game.game)
    out["players"] = [{"name": names.get(p.name, p.name), "score": p.total,
                       "winner": p.name in game.winners,
                       "startPlayer": p.name == game.first_player}
                      for p in game.players]
    return out


def compact(data: Any) -> str:
    """JSON without a byte to spare (UTF-8 kept as is: the link escapes it once)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def link(game: GameResult, names: dict[str, str] | None = None) -> str:
    """The import link of one history row, every name whole (``names``: see ``play``)."""
    return IMPORT_URL + quote(compact(play(game, names)), safe=_SAFE)


# The longest link a QR code on the screen holds: version 19 at error level L (792 bytes,
# 93 modules), what an 800×480 screen draws at 4 px a module, its quiet zone included,
# between its seat plates (388 px).
MAX_CODE_BYTES = 792
SHORTEST_NAME = 4  # characters: a name shortened for the code keeps at least these


def fitting_link(game: GameResult, limit: int = MAX_CODE_BYTES) -> str | None:
    """The link a QR code holds: ``link(game)`` when it fits ``limit`` bytes; else the same
    play with the longest names shortened (each to a prefix and a dot, told apart by seat
    where two would read alike) until it fits; None when even the shortest names don't
    (dozens of players): the play is then too long to scan, and ``companion export
    --format bgstats`` carries it whole."""
    url = link(game)
    if len(url) <= limit:
        return url
    longest = max(len(p.name) for p in game.players)
    for keep in range(longest - 1, SHORTEST_NAME - 1, -1):
        url = link(game, shortened([p.name for p in game.players], keep))
        if len(url) <= limit:
            return url
    return None


def shortened(names: list[str], keep: int) -> dict[str, str]:
    """Each name longer than ``keep`` characters as its first ``keep - 1`` and a dot; two
    that would read alike get their seat number instead of the dot."""
    short = {n: n[:keep - 1] + "." for n in names if len(n) > keep}
    seen: dict[str, int] = {}
    for n in names:
        shown = short.get(n, n)
        seen[shown] = seen.get(shown, 0) + 1
    for seat, n in enumerate(names, start=1):
        if n in short and seen[short[n]] > 1:
            short[n] = f"{n[:keep - 1]}{seat}"
    return short


def data_of(url: str) -> dict[str, Any]:
    """The play inside an import link (the reverse of ``link``), for checks."""
    from urllib.parse import parse_qs, urlsplit

    if not url.startswith(IMPORT_URL):
        raise ValueError(f"not a BG Stats import link: {url[:60]!r}")
    return json.loads(parse_qs(urlsplit(url).query, strict_parsing=True)["data"][0])


# --------------------------------------------------------------------------- the file

# BG Stats' own file of plays (what its "export"/"share" writes and its file import reads:
# a .bgsplay/.json of ``games``, ``players``, ``locations`` and ``plays`` whose
# ``playerScores`` refer to them by ``id``), as the open-source importers write it: the
# BGA importer (github.com/ctuncan bga-to-bgstats: uuid5 ids, ``playerScores`` with
# ``winner``, ``seatOrder``, ``score``, ``startPlayer``, ``playerRefId``, ``rank``,
# ``newPlayer``; ``gameRefId``, ``locationRefId``, ``durationMin``, ``playDate`` as
# ``YYYY-MM-DD HH:MM:SS`` in UTC; UUIDs upper case) and the annotated description of a
# BG Stats export (``board`` is a play's variant; a score is a string of its figure).
BACKUP_ABOUT = ("This is a Play file that can be read by Board Game Stats: open it with "
                "BG Stats (share, export or open-in) to import these plays. Written by the "
                "Table companion.")
_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "table-companion/bgstats")


def stable_uuid(kind: str, key: str) -> str:
    """A UUID that is the same for the same ``kind`` and ``key`` in every export (BG Stats
    then updates a play, a player or a game it imported before instead of adding it again)."""
    return str(uuid.uuid5(_NAMESPACE, f"{kind}:{key}")).upper()


ENDS = {"king-died": "the king died", "abdicated-top": "the king abdicated (top)",
        "abdicated-bottom": "the king abdicated (bottom)"}


def nights_of(campaign: Campaign | None) -> Callable[[GameResult], str]:
    """The ``comments`` of a King's Dilemma night's play: its place in the campaign (``The
    King's Dilemma campaign, night 3: the king died; prestige Ana +3, Ben +2``), found in
    the campaign's ledger by the houses' totals (the history's players' totals), each
    night once; nothing for another game or a night the ledger doesn't have. BG Stats
    keeps a play's comments with it; its board (variant) would split the game's figures
    night by night."""
    nights = list(campaign.games) if campaign is not None else []

    def comments(game: GameResult) -> str:
        if game.game != "kings-dilemma":
            return ""
        totals = {p.name: p.total for p in game.players}
        for night in nights:
            if {r.house: r.total for r in night.results} == totals:
                nights.remove(night)
                awards = ", ".join(f"{r.house} {r.prestige:+d}" for r in night.results)
                return (f"The King's Dilemma campaign, night {night.number}: "
                        f"{ENDS.get(night.end, night.end)}; prestige {awards}")
        return ""

    return comments


def backup(games: Iterable[GameResult], campaign: Campaign | None = None) -> Iterator[str]:
    """BG Stats' file of ``games`` as JSON, in pieces (a history of ten thousand games is
    written without holding it whole): the plays in the order given, each player and game
    once with the id the plays refer to; a King's Dilemma night with its place in
    ``campaign`` in its ``comments`` (``nights_of``)."""
    comments = nights_of(campaign)
    players: dict[str, int] = {}
    kinds: dict[str, int] = {}
    yield '{"about":' + json.dumps(BACKUP_ABOUT) + ',"plays":['
    for n, g in enumerate(games):
        kind = kinds.setdefault(g.game, len(kinds) + 1)
        place = ranks(g)
        scores = []
        for seat, p in enumerate(g.players, start=1):
            scores.append({"playerRefId": players.setdefault(p.name, len(players) + 1),
                           "score": str(p.total), "winner": p.name in g.winners,
                           "startPlayer": p.name == g.first_player, "seatOrder": seat,
                           "rank": place[p.name], "newPlayer": False, "role": ""})
        entry: dict[str, Any] = {
            "uuid": stable_uuid("play", play_id(g)),
            "playDate": utc(g.date).strftime(DATE_FORMAT),
            "durationMin": duration_min(g) or 0,
            "gameRefId": kind, "locationRefId": 1, "board": "", "comments": comments(g),
            "ignored": False, "manualWinner": False, "usesTeams": False, "rounds": 0,
            "rating": 0, "scoringSetting": 0, "playerScores": scores,
        }
        yield ("," if n else "") + json.dumps(entry, ensure_ascii=False)
    yield '],"games":' + json.dumps([
        {"id": i, "uuid": stable_uuid("game", key), **game_meta(key),
         "highestWins": highest_wins(key), "noPoints": False, "cooperative": False,
         "usesTeams": False} for key, i in kinds.items()],
        ensure_ascii=False)
    yield ',"players":' + json.dumps([
        {"id": i, "uuid": stable_uuid("player", name), "name": name, "isAnonymous": False}
        for name, i in players.items()], ensure_ascii=False)
    yield ',"locations":' + json.dumps([
        {"id": 1, "uuid": stable_uuid("location", LOCATION), "name": LOCATION}])
    yield ',"userInfo":{"meRefId":0}}\n'
