"""Game history: every finished game of every game the companion scores, in SQLite.

Its length: the schema, its migrations, the writes that survive faults and the
statistics read the same tables; split, each part would reach into the others' SQL.

One row per game (date, game, and when the table knows them the time the game started and
its first player) and one per player (seat, name, total, breakdown, winner). A result is
the dict ``companion score --json`` produces (``{"game", "players": [{"name", "total",
"breakdown"}], "winners"}``) plus an ISO ``date`` (when it ended); anything else in it
(families, tie-break details) is not kept. Winners are kept in seating order.

The file is opened with the journal's ``open_durable``: WAL, ``synchronous=FULL``, and a
file that can't be used is moved aside as ``NAME.corrupt-YYYYmmdd-HHMMSS``, never
overwritten; ``History.notice`` then says so. The kiosk's history (``background_sync``)
has its commits made durable as the journal's are, by a ``Committer`` of its own: a game's
row is written on the loop's thread and fsynced off it, and what must follow it on disk
(the journal's finish) waits for ``when_durable``.

A game played at the table is kept with its ``origin``, its identity in the journal it was
played in (``Journal.game_origin``): a game ended again after a power cut (its row on disk,
the journal's finish not) keeps no second row.

``to_json``/``to_csv`` and ``parse_json``/``parse_csv`` are the export formats of
``companion export`` and ``companion import``: a malformed file is refused whole, with the
CSV line or the JSON record and field that is wrong.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import logging
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from datetime import date as Date
from pathlib import Path
from typing import Any, Self, TextIO

from companion.files.safetext import shown
from companion.files.validate import check_player_name, same_name
from companion.files.yamlsrc import MAX_INT_DIGITS, OutOfRange, SourceError, digits
from companion.play.errors import RuleError
from companion.storage.committer import Committer, Sync
from companion.storage.journal import (
    StorageError,
    checkpoint_wal,
    open_durable,
    storage_error,
    transaction,
)
from companion.system import paths

log = logging.getLogger(__name__)

# "CPH1" in the SQLite header: tells the history from the journal or any other SQLite file.
HISTORY_APP_ID = 0x43504831
HISTORY_VERSION = 3  # 2: games.started and games.first_player; 3: games.origin

_SCHEMA = """
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    date         TEXT NOT NULL,
    game         TEXT NOT NULL,
    started      TEXT,
    first_player TEXT,
    origin       TEXT
);
CREATE TABLE scores (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL,
    player    TEXT NOT NULL,
    total     INTEGER NOT NULL,
    breakdown TEXT NOT NULL,
    winner    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX scores_player ON scores(player);
CREATE UNIQUE INDEX games_origin ON games(origin)
"""
# games.origin: "JOURNAL-ID:GAME-ID" of a game played at the table (``Journal.game_origin``),
# NULL for one imported or recorded by hand; unique, so a game is kept once (SQLite's
# unique index holds any number of NULLs: https://www.sqlite.org/lang_createindex.html,
# "Unique Indexes")

JSON_FORMAT = "companion-history"
JSON_VERSION = 1
CSV_COLUMNS = ("game_no", "date", "game", "seat", "player", "total", "winner", "breakdown")
YES, NO = "yes", "no"
OPTIONAL_KEYS = ("started", "first_player")  # of a game, in JSON exports; not in CSV
MAX_POINTS = 1_000_000_000  # a score, either way
MAX_IMPORT_BYTES = 50_000_000  # an export of some 200,000 games
YEARS = (2000, 2100)  # a game's date: no table played before, none planned after

_GAME_KEY = re.compile(r"[a-z0-9][a-z0-9-]*")
_PART_KEY = re.compile(r"[A-Za-z0-9_-]+")
_WHOLE = re.compile(r"[+-]?[0-9]+")


def default_path() -> Path:
    return paths.data_dir() / "companion.db"


def now() -> str:
    """The current local time, ISO 8601 with its offset, to the second."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class PlayerResult:
    name: str
    total: int
    breakdown: dict[str, int]  # in the order the scorer gave it

    def to_dict(self) -> dict:
        return {"name": self.name, "total": self.total, "breakdown": dict(self.breakdown)}


@dataclass(frozen=True)
class GameResult:
    date: str  # ISO 8601 as given: when the game ended
    game: str  # the table file's key: koryo, choson, inheritors, kings-dilemma, …
    players: tuple[PlayerResult, ...]  # seating order
    winners: tuple[str, ...]  # seating order
    started: str | None = None  # ISO 8601, when the game began (games played at the table)
    first_player: str | None = None  # who played first, when the game has a first player

    def to_dict(self) -> dict:
        out = {
            "date": self.date,
            "game": self.game,
            "players": [p.to_dict() for p in self.players],
            "winners": list(self.winners),
        }
        for key in OPTIONAL_KEYS:
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @classmethod
    def from_dict(cls, data: Any, path: str = "", *, strict: bool = True) -> GameResult:
        """Validate a result; ``strict`` refuses unknown keys (an import), else they are
        dropped (the output of ``companion score`` has more than history keeps)."""
        data = _mapping(data, path)
        _keys(data, path, {"date", "game", "players", "winners"}, strict, OPTIONAL_KEYS)
        when = check_date(data["date"], _join(path, "date"))
        game = data["game"]
        if not isinstance(game, str) or not _GAME_KEY.fullmatch(game):
            raise RuleError(_join(path, "game"), f"expected a game key like koryo, got {shown(game)}",
                            code="game_key", params={"value": shown(game)})
        players_path = _join(path, "players")
        if not isinstance(data["players"], list) or not data["players"]:
            raise RuleError(players_path, "expected a non-empty list of players",
                            code="players_non_empty")
        players = []
        for i, p in enumerate(data["players"]):
            pp = _join(players_path, i)
            p = _mapping(p, pp)
            _keys(p, pp, {"name", "total", "breakdown"}, strict)
            players.append(PlayerResult(
                check_name(p["name"], _join(pp, "name"), [q.name for q in players]),
                _whole(p["total"], _join(pp, "total")),
                check_breakdown(p["breakdown"], _join(pp, "breakdown")),
            ))
        names = [p.name for p in players]
        winners_path = _join(path, "winners")
        winners = data["winners"]
        if not isinstance(winners, list) or not winners:
            raise RuleError(winners_path, "expected a non-empty list of player names",
                            code="winners_non_empty")
        winners = [same_name(w) for w in winners]
        for i, w in enumerate(winners):
            if w not in names:
                raise RuleError(_join(winners_path, i), f"{shown(w)} is not one of the players",
                                code="not_a_player", params={"player": shown(w)})
            if w in winners[:i]:
                raise RuleError(_join(winners_path, i), f"{w} is listed twice",
                                code="listed_twice", params={"player": w})
        started = data.get("started")
        if started is not None:
            started = check_date(started, _join(path, "started"))
        first = same_name(data.get("first_player"))
        if first is not None and first not in names:
            raise RuleError(_join(path, "first_player"), f"{first!r} is not one of the players",
                            code="not_a_player", params={"player": repr(first)})
        return cls(when, game, tuple(players), tuple(n for n in names if n in winners),
                   started, first)


def result_of(result: dict, date: str | Date | None = None, *, started: str | None = None,
              first_player: str | None = None) -> GameResult:
    """The history row a finished game becomes (what ``History.record`` keeps): ``result``
    as ``companion score --json`` gives it, its ``date`` from the argument, else from
    ``result["date"]``, else now. An invalid result raises ``RuleError``."""
    if isinstance(date, Date):
        date = date.isoformat()
    data = dict(_mapping(result, ""))
    data["date"] = date or data.get("date") or now()
    if started is not None:
        data["started"] = started
    if first_player is not None:
        data["first_player"] = first_player
    return GameResult.from_dict(data, strict=False)


def _join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def _mapping(value: Any, path: str) -> dict:
    if not isinstance(value, dict):
        raise RuleError(path, f"expected an object, got {type(value).__name__}",
                        code="expected_object", params={"got": type(value).__name__})
    return value


def _keys(data: dict, path: str, keys: set[str], strict: bool,
          optional: tuple[str, ...] = ()) -> None:
    for key in sorted(keys):
        if key not in data:
            raise RuleError(_join(path, key), "missing", code="missing")
    if strict:
        allowed = keys | set(optional)
        for key in data:
            if key not in allowed:
                raise RuleError(
                    _join(path, key), f"unknown key (allowed: {', '.join(sorted(allowed))})",
                    code="unknown_key", params={"allowed": ", ".join(sorted(allowed))},
                )


def _whole(value: Any, path: str) -> int:
    """A whole number of points within ``MAX_POINTS`` either way (SQLite's INTEGER holds
    less than 2**63; no game scores a billion)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(path, f"expected a whole number, got {shown(value)}",
                        code="not_a_whole_number", params={"value": shown(value)})
    if not -MAX_POINTS <= value <= MAX_POINTS:
        raise RuleError(path, f"{shown(value)} is out of range ({-MAX_POINTS:,} to "
                              f"{MAX_POINTS:,})",
                        code="points_range",
                        params={"value": shown(value), "low": f"{-MAX_POINTS:,}",
                                "high": f"{MAX_POINTS:,}"})
    return value


def _number(text: str) -> int:
    """A whole number as an export writes it (``_WHOLE``); too many digits to be in range
    is ``OutOfRange``, never parsed."""
    if digits(text) > MAX_INT_DIGITS:
        return OutOfRange(text.strip())
    return int(text)


def check_date(value: Any, path: str) -> str:
    """An ISO 8601 date or date and time from ``YEARS`` (2000 to 2100, in local time and
    in UTC alike: every screen converts it), kept as written. A year like 9999 or 0001
    with an offset would overflow the conversion (OverflowError in History)."""
    if isinstance(value, str) and len(value) <= 40:
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            try:
                utc = when.astimezone(UTC) if when.tzinfo else when
            except OverflowError:  # year 1 or 9999 with an offset
                utc = datetime.min
            if YEARS[0] <= when.year <= YEARS[1] and YEARS[0] <= utc.year <= YEARS[1]:
                return value
            raise RuleError(path, f"{shown(value)} is not between {YEARS[0]} and {YEARS[1]}",
                            code="date_range",
                            params={"value": shown(value), "low": YEARS[0], "high": YEARS[1]})
    raise RuleError(path, f"expected an ISO date like 2024-05-01T20:30:00+02:00, got {shown(value)}",
                    code="iso_date", params={"value": shown(value)})


def check_name(value: Any, path: str, seated: list[str]) -> str:
    """A player's name (``validate.check_player_name``: NFC, no control character, at most
    ``NAME_MAX``), not seated twice in one game."""
    value = check_player_name(value, path)
    if value in seated:
        raise RuleError(path, f"{value} is seated twice",
                        code="name_seated_twice", params={"player": value})
    return value


def check_breakdown(value: Any, path: str) -> dict[str, int]:
    value = _mapping(value, path)
    for key, points in value.items():
        if not isinstance(key, str) or not _PART_KEY.fullmatch(key):
            raise RuleError(path, f"{shown(key)} is not a breakdown key (letters, digits, _ or -)",
                            code="breakdown_key", params={"item": shown(key)})
        _whole(points, _join(path, key))
    return dict(value)


# --------------------------------------------------------------------------- storage


@dataclass(frozen=True)
class PlayerStats:
    games: int
    wins: int
    average: float  # total points / games
    best: int | None = field(default=None, compare=False)  # the player's highest total


@dataclass(frozen=True)
class Records:
    """One game's figures beyond the players' tally (``History.records``)."""

    first_won: int  # games the first player won (a shared victory counts)
    first_games: int  # games whose first player is known
    minutes: int  # time played, over the games whose start is known
    timed: int  # those games
    player_minutes: dict[str, int]  # each player's time at this game
    by_count: dict[str, dict[int, tuple[int, int]]]  # player → players at the table →
    # (wins, games)
    head_to_head: dict[tuple[str, str], tuple[int, int, int]]  # (a, b), a < b → (games
    # together, a placed ahead of b, b ahead of a)


class History:
    """The finished games, one SQLite file (default ``data_dir()/companion.db``). Safe to
    share between threads.

    With ``background_sync`` (the kiosk) a write returns once SQLite has written it
    (``synchronous=NORMAL``) and a ``Committer`` fsyncs it off the caller's thread, as the
    journal's (``companion.storage.committer`` says why that is as durable as FULL);
    ``when_durable`` runs what must follow it on disk. ``sync_wal`` is that fsync (a test
    may hold it). Once it fails the history is ``halted``: every write is refused until
    it is opened again (the journal still holds the game: nothing is lost). Without it
    (the commands, imports) every write is durable when it returns."""

    def __init__(self, path: str | Path | None = None, *, background_sync: bool = False,
                 sync_wal: Sync = os.fdatasync) -> None:
        self.path = Path(path).expanduser() if path is not None else default_path()
        self._db, self.notice = open_durable(  # the kiosk's created unsynced: its committer's
            self.path, _SCHEMA, HISTORY_APP_ID, HISTORY_VERSION, sync_creation=not background_sync
        )
        self._lock = threading.RLock()
        self.failure: StorageError | None = None  # the last write's, until one succeeds
        self.halted: StorageError | None = None  # the committer's fsync failed
        self._migrate()
        self._index_tally()
        self._committer: Committer | None = None
        if background_sync:
            # durable through the committer's fsync; the -wal copied into the database by
            # its thread after each row, never by a commit on the loop (SQLite's automatic
            # checkpoint would sync there: https://www.sqlite.org/wal.html, "Automatic
            # Checkpoint"; https://www.sqlite.org/pragma.html#pragma_synchronous)
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._committer = Committer(Path(f"{self.path}-wal"), on_failure=self._sync_failed,
                                        sync=sync_wal, name=f"{self.path.name} commit")
            # the -wal made ready now, not at the first row: SQLite writes its header
            # (and syncs it and the folder when it makes the file anew); what it leaves
            # unsynced, a new database included, is synced by the committer's thread
            _rewrite_version(self._db)
            self._committer.committed(0, receipt=False)

    def _sync_failed(self, exc: OSError) -> None:
        """The committer's fsync failed (its thread): nothing more is written until the
        history is opened again (the kiosk's restart), said as the journal's is."""
        self.halted = StorageError("unsynced", f"{self.path.name}-wal: {exc.strerror or exc}")
        self.failure = self.halted
        log.error("history %s: %s", self.path, self.halted)

    def when_durable(self, write: Callable[[], None], failed: Callable[[], None] | None = None,
                     *, what: str = "row") -> None:
        """Run ``write`` once every row kept so far is on disk: at once without
        ``background_sync`` or when nothing waits, else on the committer's thread; never
        once its fsync failed, ``failed`` is called instead (``Committer.when_durable``)."""
        if self._committer is None:
            write()
        else:
            self._committer.when_durable(write, failed, what=what)

    def wait_durable(self) -> None:
        """Return once every row kept so far is on disk (tests, shut-down)."""
        if self._committer is not None:
            self._committer.wait_durable()

    def _checkpoint(self) -> None:
        """Copy the -wal into the database, then begin it anew (the committer's thread,
        after a row's fsync): SQLite writes and syncs a restarted -wal's header in the
        first commit after a checkpoint that copied every frame (its wal.c,
        ``sqlite3WalFrames``: "Sync the header"), which would otherwise be the next game's
        row, on the loop. A commit that changes nothing, through a connection of its own
        at ``synchronous=FULL``, restarts it here."""
        try:
            busy, frames, copied = checkpoint_wal(self.path)
            if not busy and frames == copied:
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=rw", uri=True,
                                       isolation_level=None)
                try:
                    conn.execute("PRAGMA synchronous=FULL")
                    _rewrite_version(conn)
                finally:
                    conn.close()
        except sqlite3.Error as exc:
            log.warning("history %s: not checkpointed (%s)", self.path, exc)

    def _migrate(self) -> None:
        """Bring a history written by an older version up to ``HISTORY_VERSION`` in one
        transaction (a cut leaves the old format whole, migrated at the next open)."""
        if self._db.execute("PRAGMA user_version").fetchone()[0] == HISTORY_VERSION:
            return
        with self._transaction():
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version < 2:
                self._db.execute("ALTER TABLE games ADD COLUMN started TEXT")
                self._db.execute("ALTER TABLE games ADD COLUMN first_player TEXT")
            if version < 3:
                self._db.execute("ALTER TABLE games ADD COLUMN origin TEXT")
                self._db.execute("CREATE UNIQUE INDEX games_origin ON games(origin)")
            self._db.execute(f"PRAGMA user_version={HISTORY_VERSION:d}")

    def _index_tally(self) -> None:
        """The indexes the players' figures are counted from (``stats_per_game``) without
        reading each score's breakdown (a third faster at ten thousand games), and one
        game's games found without reading the others' (``records``, a page of one game:
        three times faster). Made once, where the file can be written (a history only
        read is counted without them)."""
        try:
            with self._lock, transaction(self._db):
                self._db.execute("CREATE INDEX IF NOT EXISTS scores_tally"
                                 " ON scores(game_id, player, winner, total)")
                self._db.execute("CREATE INDEX IF NOT EXISTS games_game ON games(game)")
        except sqlite3.Error as exc:
            log.info("history %s: no tally index (%s)", self.path, exc)

    def close(self) -> None:
        """Sync what was kept (its ``when_durable`` work done), then close."""
        if self._committer is not None:
            self._committer.close()
        with self._lock:
            self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record(self, result: dict, date: str | Date | None = None, *,
               started: str | None = None, first_player: str | None = None) -> int:
        """Keep one finished game: ``result`` as ``companion score --json`` gives it, its
        ``date`` taken from the argument, else from ``result["date"]``, else now;
        ``started`` and ``first_player`` when the table knows them. Returns the game's
        number. An invalid result raises ``RuleError`` and keeps nothing."""
        return self.keep(result_of(result, date, started=started, first_player=first_player))

    def keep(self, game: GameResult, origin: str | None = None) -> int:
        """Keep one finished game as ``result_of`` made it; returns its number. A game of
        an ``origin`` kept already (``Journal.game_origin``: ended again after a power cut)
        keeps nothing and returns the first row's number. With ``background_sync`` the row
        is written, not yet on disk: ``when_durable`` says when it is."""
        with self._lock:
            if self.halted is not None:  # nothing after a failed fsync (``halted``)
                self.failure = self.halted
                raise self.halted
            with self._transaction():
                if origin is not None:
                    row = self._db.execute("SELECT id FROM games WHERE origin = ?",
                                           (origin,)).fetchone()
                    if row is not None:
                        return int(row[0])
                number = self._insert(game, origin)
            if self._committer is not None:
                self._committer.committed(number)
                self._committer.after_durable(self._checkpoint)
            return number

    def import_games(self, games: Iterable[GameResult]) -> tuple[int, int]:
        """Keep ``games`` in one transaction, all or none (an exception from the iterable,
        a file's mistake found half-way, keeps nothing). A game equal to one kept before or
        to one earlier in ``games`` is skipped. Returns (kept, skipped).

        Memory stays bounded however many games come (an import streams its file): what
        tells the games apart is the SHA-256 of each one's identity in a temporary SQLite
        table, on disk past SQLite's small cache, not a Python set."""
        with self._lock:
            kept = skipped = 0
            with self._transaction():
                self._db.execute("CREATE TEMP TABLE IF NOT EXISTS import_seen "
                                 "(identity BLOB PRIMARY KEY) WITHOUT ROWID")
                self._db.execute("DELETE FROM import_seen")
                for _, g in self._each_kept():
                    self._db.execute("INSERT OR IGNORE INTO import_seen VALUES (?)",
                                     (_identity_hash(g),))
                for g in games:
                    new = self._db.execute("INSERT OR IGNORE INTO import_seen VALUES (?)",
                                           (_identity_hash(g),)).rowcount
                    if new:
                        self._insert(g)
                        kept += 1
                    else:
                        skipped += 1
                self._db.execute("DELETE FROM import_seen")
            if self._committer is not None and kept:  # made durable as a row is
                self._committer.committed(kept)
            return kept, skipped

    def _each_kept(self) -> Iterator[tuple[int, GameResult]]:
        """Every kept game, one at a time from a cursor (``numbered`` holds them all)."""
        rows = self._db.execute(
            "SELECT g.id, g.date, g.game, g.started, g.first_player,"
            " s.player, s.total, s.breakdown, s.winner"
            " FROM games g JOIN scores s ON s.game_id = g.id ORDER BY g.id, s.seat")
        current, players, winners = None, [], []
        for gid, when, key, started, first, player, total, breakdown, winner in rows:
            if current is not None and gid != current[0]:
                yield current[0], GameResult(current[1], current[2], tuple(players),
                                             tuple(winners), current[3], current[4])
                players, winners = [], []
            current = (gid, when, key, started, first)
            players.append(PlayerResult(player, total, json.loads(breakdown)))
            if winner:
                winners.append(player)
        if current is not None:
            yield current[0], GameResult(current[1], current[2], tuple(players),
                                         tuple(winners), current[3], current[4])

    def games(self, game: str | None = None) -> list[GameResult]:
        """Every kept game (of one ``game`` if given), in the order they were kept."""
        return [g for _, g in self.numbered(game)]

    def numbered(self, game: str | None = None) -> list[tuple[int, GameResult]]:
        """``games()`` with each game's number in the database (what ``record`` returned)."""
        where, params = ("WHERE g.game = ?", (game,)) if game else ("", ())
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.date, g.game, g.started, g.first_player,"
                " s.player, s.total, s.breakdown, s.winner"
                f" FROM games g JOIN scores s ON s.game_id = g.id {where}"
                " ORDER BY g.id, s.seat",
                params,
            ).fetchall()
        out: list[tuple[int, GameResult]] = []
        current, players, winners = None, [], []

        def close() -> None:
            gid, when, key, started, first = current
            out.append((gid, GameResult(when, key, tuple(players), tuple(winners),
                                        started, first)))

        for gid, when, key, started, first, player, total, breakdown, winner in rows:
            if current is None or gid != current[0]:
                if current is not None:
                    close()
                current, players, winners = (gid, when, key, started, first), [], []
            players.append(PlayerResult(player, total, json.loads(breakdown)))
            if winner:
                winners.append(player)
        if current is not None:
            close()
        return out

    def stats(self, game: str) -> dict[str, PlayerStats]:
        """Per player of ``game``: games played, games won (a shared victory counts for
        each), average total per game. Most wins first, then best average, then name."""
        return self.stats_per_game().get(game, {})

    def stats_per_game(self) -> dict[str, dict[str, PlayerStats]]:
        """``stats(game)`` of every game kept, by game key in alphabetical order. Scores
        are only ever averaged within one game: a Koryŏ total and an Inheritors total
        don't add up to anything."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.game, s.player, count(*), sum(s.winner), sum(s.total), max(s.total)"
                " FROM scores s JOIN games g ON g.id = s.game_id"
                " GROUP BY g.game, s.player ORDER BY g.game",
            ).fetchall()
        per_game: dict[str, dict[str, PlayerStats]] = {}
        for game, player, n, wins, total, best in rows:
            per_game.setdefault(game, {})[player] = PlayerStats(n, wins, total / n, best)
        return {
            game: {p: stats[p] for p in sorted(stats, key=lambda p: (-stats[p].wins,
                                                                     -stats[p].average, p))}
            for game, stats in per_game.items()
        }

    # -- read a page at a time (History at ten thousand games) --------------------------

    # Newest first by when the game ended (SQLite reads the ISO offset; a date without one
    # as UTC), then by the order kept.
    _NEWEST = "ORDER BY julianday(g.date) DESC, g.id DESC"

    def kept_games(self) -> list[str]:
        """The game keys kept, in alphabetical order."""
        with self._lock:
            return [k for (k,) in self._db.execute(
                "SELECT DISTINCT game FROM games ORDER BY game")]

    def first_kept(self) -> list[str]:
        """The game keys kept, in the order their first game was kept."""
        with self._lock:
            return [k for (k,) in self._db.execute(
                "SELECT game FROM games GROUP BY game ORDER BY min(id)")]

    def count(self, game: str | None = None) -> int:
        """How many games are kept (of one ``game`` if given)."""
        where, params = ("WHERE game = ?", (game,)) if game else ("", ())
        with self._lock:
            return self._db.execute(f"SELECT count(*) FROM games {where}", params).fetchone()[0]

    def stamp(self) -> tuple[int, int]:
        """What changes when a game is kept or imported: (games, highest number); a screen
        that read the history reads it again only when this has changed."""
        with self._lock:
            n, top = self._db.execute("SELECT count(*), max(id) FROM games").fetchone()
        return n, top or 0

    def tally(self) -> dict[str, dict[str, PlayerStats]]:
        """``stats_per_game()``, counted again only when a game was kept or imported since
        the last count (at ten thousand games the count takes some 50 ms: History's players
        and the charts share one)."""
        stamp = self.stamp()
        memo = getattr(self, "_tally", None)
        if memo is None or memo[0] != stamp:
            memo = self._tally = (stamp, self.stats_per_game())
        return memo[1]

    def records(self, game: str) -> Records:
        """``game``'s figures beyond the tally, counted in SQL: how often the first player
        won, the time played (in all and per player), each player's wins by the number of
        players at the table, and head to head: for two players who played it together,
        how often each placed ahead of the other (a winner ahead of a non-winner, else the
        higher total)."""
        minutes = "CAST(round((julianday(g.date) - julianday(g.started)) * 1440) AS INTEGER)"
        with self._lock:
            q = self._db.execute
            first = q("SELECT count(*), coalesce(sum(s.winner), 0) FROM games g JOIN scores s"
                      " ON s.game_id = g.id AND s.player = g.first_player WHERE g.game = ?",
                      (game,)).fetchone()
            timed = q(f"SELECT count(*), coalesce(sum(max(0, {minutes})), 0) FROM games g"
                      " WHERE g.game = ? AND g.started IS NOT NULL", (game,)).fetchone()
            per_player = q(f"SELECT s.player, sum(max(0, {minutes})) FROM games g JOIN scores s"
                           " ON s.game_id = g.id WHERE g.game = ? AND g.started IS NOT NULL"
                           " GROUP BY s.player", (game,)).fetchall()
            counts = q("WITH n AS (SELECT s.game_id, count(*) AS n FROM scores s JOIN games g"
                       " ON g.id = s.game_id WHERE g.game = ? GROUP BY s.game_id)"
                       " SELECT s.player, n.n, sum(s.winner), count(*) FROM n JOIN scores s"
                       " ON s.game_id = n.game_id GROUP BY s.player, n.n", (game,)).fetchall()
            pairs = q("SELECT a.player, b.player, count(*),"
                      " sum(a.winner > b.winner OR (a.winner = b.winner AND a.total > b.total)),"
                      " sum(b.winner > a.winner OR (a.winner = b.winner AND b.total > a.total))"
                      " FROM games g JOIN scores a ON a.game_id = g.id JOIN scores b"
                      " ON b.game_id = g.id AND a.player < b.player WHERE g.game = ?"
                      " GROUP BY a.player, b.player", (game,)).fetchall()
        by_count: dict[str, dict[int, tuple[int, int]]] = {}
        for player, n, wins, played in counts:
            by_count.setdefault(player, {})[n] = (wins, played)
        return Records(first[1], first[0], timed[1], timed[0], dict(per_player),
                       {p: dict(sorted(c.items())) for p, c in by_count.items()},
                       {(a, b): (n, x, y) for a, b, n, x, y in pairs})

    def newest(self, game: str | None = None, offset: int = 0,
               limit: int = 10) -> list[GameResult]:
        """``limit`` games from the ``offset``-th newest (of one ``game`` if given): a page
        of History, read alone."""
        where, params = ("WHERE g.game = ?", (game,)) if game else ("", ())
        with self._lock:
            ids = [i for (i,) in self._db.execute(
                f"SELECT g.id FROM games g {where} {self._NEWEST} LIMIT ? OFFSET ?",
                (*params, limit, offset))]
        by_id = dict(self._rows(ids))
        return [by_id[i] for i in ids]

    def _rows(self, ids: list[int]) -> list[tuple[int, GameResult]]:
        """The games numbered ``ids`` (any order), with their players."""
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.date, g.game, g.started, g.first_player,"
                " s.player, s.total, s.breakdown, s.winner"
                f" FROM games g JOIN scores s ON s.game_id = g.id WHERE g.id IN ({marks})"
                " ORDER BY g.id, s.seat", ids).fetchall()
        out: list[tuple[int, GameResult]] = []
        for gid, group in itertools.groupby(rows, key=lambda r: r[0]):
            group = list(group)
            _, when, key, started, first = group[0][:5]
            players = tuple(PlayerResult(r[5], r[6], json.loads(r[7])) for r in group)
            winners = tuple(r[5] for r in group if r[8])
            out.append((gid, GameResult(when, key, players, winners, started, first)))
        return out

    def iter_games(self, batch: int = 500) -> Iterator[GameResult]:
        """Every kept game in the order kept, ``batch`` at a time: an export of ten
        thousand games without holding them all."""
        last = 0
        while True:
            with self._lock:
                ids = [i for (i,) in self._db.execute(
                    "SELECT id FROM games WHERE id > ? ORDER BY id LIMIT ?", (last, batch))]
            if not ids:
                return
            for _, g in self._rows(ids):
                yield g
            last = ids[-1]

    def _insert(self, g: GameResult, origin: str | None = None) -> int:
        cur = self._db.execute(
            "INSERT INTO games (date, game, started, first_player, origin)"
            " VALUES (?, ?, ?, ?, ?)",
            (g.date, g.game, g.started, g.first_player, origin),
        )
        gid = int(cur.lastrowid)
        self._db.executemany(
            "INSERT INTO scores VALUES (?, ?, ?, ?, ?, ?)",
            [
                (gid, seat, p.name, p.total, json.dumps(p.breakdown, ensure_ascii=False),
                 int(p.name in g.winners))
                for seat, p in enumerate(g.players, start=1)
            ],
        )
        return gid

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction; a storage failure (disk full, read-only) rolls it back and is a
        ``StorageError``, kept in ``failure`` until a write succeeds."""
        try:
            with transaction(self._db):
                yield
        except sqlite3.Error as exc:
            self.failure = storage_error(exc, self.path)
            log.error("history %s: %s", self.path, self.failure)
            raise self.failure from None
        self.failure = None


def _rewrite_version(conn: sqlite3.Connection) -> None:
    """A commit that changes nothing (the format's version written again): the -wal made
    ready for the next, SQLite writing (and syncing) its header in this one."""
    with transaction(conn):
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute(f"PRAGMA user_version={version:d}")


def _identity(g: GameResult) -> str:
    """What tells one game from another on import: its date, game, scores and winners (a
    CSV export leaves out the start and the first player: the same game all the same)."""
    data = {k: v for k, v in g.to_dict().items() if k not in OPTIONAL_KEYS}
    return json.dumps(data, sort_keys=True, ensure_ascii=True)


def _identity_hash(g: GameResult) -> bytes:
    import hashlib  # here: its OpenSSL costs the kiosk's start-up several ms

    return hashlib.sha256(_identity(g).encode("ascii")).digest()


# --------------------------------------------------------------------------- formats


def to_json(games: list[GameResult]) -> str:
    doc = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "games": [g.to_dict() for g in games],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


# A text cell a spreadsheet would take for a formula starts with one of these; such a cell
# is written with a ' in front, which spreadsheets read as "text" and hide (OWASP, "CSV
# Injection": owasp.org/www-community/attacks/CSV_Injection; ASVS 5.0, V1.2.10). A cell
# starting with ' and one of them (or a second ') gets one more, so reading drops exactly
# one and every name reads back as written. Numbers (totals, game numbers) are ours, never
# a player's text, and stay numbers.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\0")


def csv_text(cell: str) -> str:
    """A text cell as ``to_csv`` writes it: no formula for a spreadsheet."""
    if cell.startswith(FORMULA_START) or (cell[:1] == "'" and cell[1:2] in
                                          (*FORMULA_START, "'")):
        return "'" + cell
    return cell


def csv_untext(cell: str) -> str:
    """``csv_text`` undone: the cell as it was before it was written."""
    if cell[:1] == "'" and cell[1:2] and cell[1:2] in (*FORMULA_START, "'"):
        return cell[1:]
    return cell


def to_csv(games: list[GameResult]) -> str:
    """One row per player per game; ``breakdown`` is ``key=points;key=points``. Rows end
    with CRLF (RFC 4180): the writer then quotes any field holding a comma, a quote, a CR
    or an LF. A name or a breakdown that a spreadsheet would take for a formula is
    written with a ' in front (``csv_text``), dropped again on import."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for n, g in enumerate(games, start=1):
        for seat, p in enumerate(g.players, start=1):
            parts = ";".join(f"{k}={v}" for k, v in p.breakdown.items())
            winner = YES if p.name in g.winners else NO
            writer.writerow((n, g.date, g.game, seat, csv_text(p.name), p.total, winner,
                             csv_text(parts)))
    return out.getvalue()


MAX_VALUE_CHARS = 1_000_000  # one game of a JSON export (or its format, its version)
READ_CHARS = 1 << 16  # what a streamed import reads at a time


class _KeyTwice(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_key_twice(pairs: list[tuple[str, Any]]) -> dict:
    """A JSON object, a key given twice refused (``json`` keeps the last, silently)."""
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _KeyTwice(key)
        out[key] = value
    return out


class _JsonStream:
    """JSON values read one at a time from a text stream, within ``MAX_VALUE_CHARS`` each:
    the buffer holds the value being read and what follows it, never the whole file."""

    def __init__(self, stream: TextIO, source: str) -> None:
        self.stream, self.source = stream, source
        self.buf, self.pos, self.eof = "", 0, False
        self.line = 1  # of self.buf[0]
        self.decoder = json.JSONDecoder(object_pairs_hook=_no_key_twice, parse_int=_number)

    def _more(self) -> bool:
        if self.eof:
            return False
        chunk = self.stream.read(READ_CHARS)
        if not chunk:
            self.eof = True
            return False
        if self.pos:
            self.line += self.buf.count("\n", 0, self.pos)
            self.buf, self.pos = self.buf[self.pos:], 0
        self.buf += chunk
        return True

    def error(self, message: str, at: int | None = None) -> SourceError:
        line = self.line + self.buf.count("\n", 0, self.pos if at is None else at)
        return SourceError(f"{self.source}:{line}: not valid JSON: {message}")

    def peek(self) -> str:
        """The next character that is not white space ("" at the end)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf) or not self._more():
                return self.buf[self.pos:self.pos + 1]

    def expect(self, chars: str) -> str:
        found = self.peek()
        if not found or found not in chars:
            raise self.error(f"expected {' or '.join(repr(c) for c in chars)}")
        self.pos += 1
        return found

    def value(self, where: str) -> Any:
        self.peek()
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buf, self.pos)
            except _KeyTwice as exc:
                raise SourceError(f"{self.source}: {where}: key {shown(exc.key)} is given "
                                  "twice") from None
            except json.JSONDecodeError as exc:
                if len(self.buf) - self.pos > MAX_VALUE_CHARS:
                    raise SourceError(f"{self.source}: {where}: more than "
                                      f"{MAX_VALUE_CHARS:,} characters") from None
                if self._more():
                    continue
                raise self.error(exc.msg, exc.pos) from None
            except RecursionError:
                raise SourceError(f"{self.source}: not valid JSON: nested too deeply") from None
            if end == len(self.buf) and self._more():  # a number may go on in the next read
                continue
            self.pos = end
            return value


def iter_json(stream: TextIO, source: str) -> Iterator[GameResult]:
    """The games of a JSON export as they are read, one game in memory at a time; any
    error is a ``SourceError`` naming the record and field (``games.3.players.1.total``),
    a key given twice included."""
    reader = _JsonStream(stream, source)
    seen: dict[str, Any] = {}
    try:
        if reader.peek() != "{":
            raise RuleError("", "expected an object", code="expected_object",
                            params={"got": "something else"})
        reader.expect("{")
        if reader.peek() == "}":
            reader.expect("}")
        else:
            while True:
                key = reader.value("a key")
                if not isinstance(key, str):
                    raise reader.error("expected a key")
                if key in seen:
                    raise RuleError(key, f"key {shown(key)} is given twice",
                                    code="given_twice", params={"name": shown(key)})
                reader.expect(":")
                if key == "games":
                    seen[key] = None
                    yield from _json_games(reader)
                elif key in ("format", "version"):
                    seen[key] = reader.value(key)
                    _check_format(seen)
                else:
                    raise RuleError(key, "unknown key (allowed: format, games, version)",
                                    code="unknown_key",
                                    params={"allowed": "format, games, version"})
                if reader.expect(",}") == "}":
                    break
        if reader.peek():
            raise reader.error("extra data after the export")
        for key in ("format", "games", "version"):
            if key not in seen:
                raise RuleError(key, "missing", code="missing")
    except RuleError as exc:
        raise SourceError(f"{source}: {exc}") from None


def _check_format(seen: dict[str, Any]) -> None:
    if "format" in seen and seen["format"] != JSON_FORMAT:
        raise RuleError("format", f"expected {shown(JSON_FORMAT)}, got {shown(seen['format'])}",
                        code="export_format",
                        params={"expected": shown(JSON_FORMAT), "got": shown(seen["format"])})
    if "version" in seen and seen["version"] != JSON_VERSION:
        raise RuleError("version", f"this companion reads version {JSON_VERSION}, "
                                   f"got {shown(seen['version'])}",
                        code="export_version",
                        params={"version": JSON_VERSION, "got": shown(seen["version"])})


def _json_games(reader: _JsonStream) -> Iterator[GameResult]:
    if reader.peek() != "[":
        raise RuleError("games", "expected a list of games", code="games_list")
    reader.expect("[")
    if reader.peek() == "]":
        reader.expect("]")
        return
    i = 0
    while True:
        yield GameResult.from_dict(reader.value(f"games.{i}"), f"games.{i}")
        i += 1
        if reader.expect(",]") == "]":
            return


def parse_json(text: str, source: str) -> list[GameResult]:
    """``iter_json`` of a text: every game of a JSON export."""
    return list(iter_json(io.StringIO(text), source))


class _Seen:
    """Game numbers met so far, in bounded memory: a bitmap for the numbers an export
    writes (1, 2, 3…), a set for any other."""

    BITS = 1 << 24

    def __init__(self) -> None:
        self.bits = bytearray(self.BITS // 8)
        self.others: set[str] = set()

    def add(self, number: str) -> bool:
        """Note ``number``; whether it was met before."""
        text = number.strip()
        if text.isascii() and text.isdigit() and len(text) <= 8 and int(text) < self.BITS:
            n = int(text)
            was = self.bits[n >> 3] & (1 << (n & 7))
            self.bits[n >> 3] |= 1 << (n & 7)
            return bool(was)
        was = text in self.others
        self.others.add(text)
        return was


def iter_csv(stream: TextIO, source: str) -> Iterator[GameResult]:
    """The games of a CSV export as they are read, one game in memory at a time; any
    error is a ``SourceError`` naming the line and the column (``FILE:LINE: total: …``)."""
    reader = csv.reader(stream)
    line = 1

    def fail(column: str, message: str, at: int | None = None) -> SourceError:
        return SourceError(f"{source}:{at or line}: {column}: {message}")

    try:
        header = next(reader, None)
        if header is None or tuple(c.strip() for c in header) != CSV_COLUMNS:
            raise fail("header", f"expected the columns {','.join(CSV_COLUMNS)}")
        done = _Seen()  # game numbers read already
        rows: list[tuple[int, dict]] = []  # (line, row) of the game being read
        for raw in reader:
            line = reader.line_num
            if not any(c.strip() for c in raw):
                continue
            if len(raw) != len(CSV_COLUMNS):
                raise fail("row", f"{len(raw)} columns, expected {len(CSV_COLUMNS)}")
            row = dict(zip(CSV_COLUMNS, raw, strict=True))
            row["player"], row["breakdown"] = csv_untext(row["player"]), \
                csv_untext(row["breakdown"])
            if rows and row["game_no"] != rows[0][1]["game_no"]:
                yield _csv_game(rows, fail)
                rows = []
            if not rows and done.add(row["game_no"]):
                raise fail("game_no", f"game {shown(row['game_no'])} again: the rows of a "
                                      "game must follow each other")
            rows.append((line, row))
        if rows:
            yield _csv_game(rows, fail)
    except csv.Error as exc:
        raise fail("row", f"not valid CSV: {shown(str(exc))}") from None


def parse_csv(text: str, source: str) -> list[GameResult]:
    """``iter_csv`` of a text: every game of a CSV export."""
    return list(iter_csv(io.StringIO(text, newline=""), source))


def _csv_game(rows: list[tuple[int, dict]], fail: Callable[..., SourceError]) -> GameResult:
    """One game from its consecutive rows."""
    first_line, first = rows[0]
    if not _WHOLE.fullmatch(first["game_no"].strip()):
        raise fail("game_no", f"expected a whole number, got {shown(first['game_no'])}", first_line)
    players: list[PlayerResult] = []
    winners: list[str] = []
    for seat, (at, row) in enumerate(rows, start=1):
        for column in ("date", "game"):
            if row[column] != first[column]:
                raise fail(column, f"{shown(row[column])}, but game {first['game_no']} has "
                                   f"{shown(first[column])} on line {first_line}", at)
        if row["seat"].strip() != str(seat):
            raise fail("seat", f"expected seat {seat}, got {shown(row['seat'])}", at)
        if not _WHOLE.fullmatch(row["total"].strip()):
            raise fail("total", f"expected a whole number, got {shown(row['total'])}", at)
        if row["winner"] not in (YES, NO):
            raise fail("winner", f"expected {YES} or {NO}, got {shown(row['winner'])}", at)
        try:
            name = check_name(row["player"], "player", [p.name for p in players])
            breakdown = check_breakdown(_parts(row["breakdown"]), "breakdown")
        except RuleError as exc:
            raise fail(exc.field, exc.message, at) from None
        players.append(PlayerResult(name, _number(row["total"]), breakdown))
        if row["winner"] == YES:
            winners.append(name)
    try:
        return GameResult.from_dict({
            "date": first["date"],
            "game": first["game"],
            "players": [p.to_dict() for p in players],
            "winners": winners,
        })
    except RuleError as exc:
        if exc.field == "winners":
            raise fail("winner", f"game {first['game_no']} has no winner", first_line) from None
        raise fail(exc.field, exc.message, first_line) from None


def _parts(text: str) -> dict[str, int]:
    """``influence=6;tomes=3`` → {"influence": 6, "tomes": 3} (empty: no part)."""
    parts: dict[str, int] = {}
    if not text.strip():
        return parts
    for item in text.split(";"):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not _WHOLE.fullmatch(value.strip()):
            raise RuleError("breakdown", f"expected key=points, got {shown(item)}",
                            code="breakdown_item", params={"got": shown(item)})
        if key in parts:
            raise RuleError("breakdown", f"{key} is given twice",
                            code="given_twice", params={"name": key})
        parts[key] = _number(value)
    return parts


def parse(text: str, source: str) -> list[GameResult]:
    """An export in either format: ``.json``/``.csv`` by the name, else by the content (a
    JSON export starts with ``{``)."""
    suffix = Path(source).suffix.lower()
    if suffix == ".json" or (suffix != ".csv" and text.lstrip().startswith("{")):
        return parse_json(text, source)
    return parse_csv(text, source)


def iter_export(stream: TextIO, source: str) -> Iterator[GameResult]:
    """``parse`` streamed: the games of an export as they are read (a text stream opened
    with ``newline=""``, as the csv module asks)."""
    suffix = Path(source).suffix.lower()
    if suffix not in (".json", ".csv"):
        head = stream.read(READ_CHARS)
        kind = ".json" if head.lstrip().startswith("{") else ".csv"
        stream = _Prefixed(head, stream)
    else:
        kind = suffix
    return iter_json(stream, source) if kind == ".json" else iter_csv(stream, source)


class _Prefixed(io.TextIOBase):
    """``stream`` with ``head`` (read from it already) put back in front."""

    def __init__(self, head: str, stream: TextIO) -> None:
        self.head, self.stream = head, stream

    def read(self, size: int | None = -1) -> str:
        if self.head:
            out = self.head if size is None or size < 0 else self.head[:size]
            self.head = self.head[len(out):]
            return out
        return self.stream.read(size)

    def readline(self, size: int | None = -1) -> str:
        if self.head:
            cut = self.head.find("\n") + 1 or len(self.head)
            out, self.head = self.head[:cut], self.head[cut:]
            return out
        return self.stream.readline(size)

    def __next__(self) -> str:
        line = self.readline()
        if not line:
            raise StopIteration
        return line
