"""The journal: an append-only SQLite log of every game, durable across power cuts.

Every action is committed (WAL, ``synchronous=FULL``: the WAL is fsynced at each commit)
before ``append`` returns, so the session shows a result only once it would survive a
power cut. An unfinished game is resumed by replaying its actions; a finished one stays
as history. A game the players drop is ``abandon``-ed: it is then neither unfinished (it
no longer resumes) nor history, and its actions are kept, never deleted.

What must survive a power cut but never be shown (a sealed ballot) goes in ``private``:
it lives in its own table, is never returned by the methods that show a game, and only
the session reads it back (``actions_with_secrets``) to rebuild the state.

A database that cannot be used (garbage, truncated, a directory in its place, another
program's database) is never overwritten: it is moved aside as
``NAME.corrupt-YYYYmmdd-HHMMSS`` (with its ``-wal``/``-shm`` files), a fresh journal is
started and ``Journal.notice`` says what happened, for the screen and the log.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Self

log = logging.getLogger(__name__)

# "CPJ1" in the SQLite header: tells our journal from any other SQLite file.
JOURNAL_APP_ID = 0x43504A31
# 1: games, actions, private. 2: games.abandoned (``_migrate`` brings a 1 up to date).
JOURNAL_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    setup    TEXT NOT NULL,
    started  TEXT NOT NULL,
    finished TEXT,
    result   TEXT,
    abandoned TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    action  TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS private (
    game_id INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, seq) REFERENCES actions(game_id, seq)
);
"""


class JournalError(RuntimeError):
    """A request the journal can't honour (unknown or finished game, data that isn't JSON,
    a database that can't be opened even after moving the old one aside)."""


class Unusable(Exception):
    """The file at the database path can't be used as our database. Carries the reason and
    the connection still open on it: it is closed only once the files are moved aside, so
    SQLite's clean-up on close can't delete or rewrite the evidence (a stale -wal)."""

    def __init__(self, reason: str, conn: sqlite3.Connection | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.conn = conn


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    setup: dict
    started: str  # ISO 8601, local time with offset
    finished: str | None
    result: dict | None
    actions: int  # number of actions journaled
    abandoned: str | None = None  # ISO 8601, when the players dropped it


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def _dump(value: Any, what: str) -> str:
    if not isinstance(value, dict):
        raise JournalError(f"{what} must be a mapping, got {type(value).__name__}")
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"{what} is not JSON data: {exc}") from None


# --- opening a durable database (also used by other SQLite stores) ---------------------


def move_aside(path: Path) -> Path:
    """Rename ``path`` (and its ``-wal``, ``-shm``, ``-journal`` companions) to
    ``NAME.corrupt-YYYYmmdd-HHMMSS``, never replacing an earlier one; returns the new path."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while any(Path(f"{target}{s}").exists() for s in ("", "-wal", "-shm", "-journal")):
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    for suffix in ("-wal", "-shm", "-journal"):
        side = Path(f"{path}{suffix}")
        if side.exists():
            side.rename(f"{target}{suffix}")
    path.rename(target)
    return target


def _connect(path: Path, schema: str, app_id: int, version: int) -> sqlite3.Connection:
    """Open and check ``path``; raise ``Unusable`` if it isn't a healthy database of ours."""
    if path.exists() and not path.is_file():
        raise Unusable("it is not a regular file")
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise Unusable(f"SQLite can't open it ({exc})") from None
    try:
        found_id = conn.execute("PRAGMA application_id").fetchone()[0]
        found_version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables and found_id != app_id:
            raise Unusable("it is another program's database")
        if found_version > version:
            raise Unusable(f"it was written by a newer version (format {found_version})")
        check = conn.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise Unusable(f"integrity check failed ({check[0][0]})")
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            log.warning("%s: SQLite refused WAL mode (%s)", path, mode)
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        if not tables:
            # One transaction: a crash here leaves either nothing or the whole schema with
            # our id in the header, never half a database that looks foreign.
            conn.execute("BEGIN IMMEDIATE")
            for statement in schema.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id={app_id:d}")
            conn.execute(f"PRAGMA user_version={version:d}")
            conn.execute("COMMIT")
    except Unusable as exc:
        exc.conn = conn
        raise
    except sqlite3.DatabaseError as exc:
        raise Unusable(f"SQLite can't read it ({exc})", conn) from None
    return conn


def open_durable(
    path: str | Path, schema: str, app_id: int, version: int = 1
) -> tuple[sqlite3.Connection, str | None]:
    """Open (creating it and its directory if needed) a WAL, ``synchronous=FULL`` SQLite
    database in autocommit mode (run ``BEGIN``/``COMMIT`` yourself). A file that can't be
    used is moved aside and a fresh database created: the second value is then the notice
    saying so (else None). ``schema`` (statements separated by ``;``) is run in one
    transaction when the database has no table yet; ``app_id`` marks the file as ours."""
    path = Path(path).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalError(f"{path.parent}: cannot create the directory ({exc.strerror})") from None
    try:
        return _connect(path, schema, app_id, version), None
    except Unusable as exc:
        reason, conn = exc.reason, exc.conn
    try:
        moved = move_aside(path)
    except OSError as exc:
        raise JournalError(
            f"{path}: unusable ({reason}) and cannot be moved aside ({exc.strerror})"
        ) from None
    finally:
        if conn is not None:
            conn.close()
    notice = f"{path} could not be used ({reason}); kept as {moved.name}, started a new one."
    log.error("%s", notice)
    try:
        return _connect(path, schema, app_id, version), notice
    except Unusable as exc:
        if exc.conn is not None:
            exc.conn.close()
        raise JournalError(f"{path}: cannot start a new database ({exc.reason})") from None


# --- the journal ------------------------------------------------------------------------


class Journal:
    """Games and their actions, one SQLite file. Safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self._db, self.notice = open_durable(self.path, _SCHEMA, JOURNAL_APP_ID, JOURNAL_VERSION)
        self._lock = threading.RLock()
        self._migrate()

    def _migrate(self) -> None:
        """Bring a journal written by an older version up to ``JOURNAL_VERSION``, in one
        transaction (a cut leaves the old format whole, migrated again at the next open)."""
        if self._db.execute("PRAGMA user_version").fetchone()[0] == JOURNAL_VERSION:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version < 2:
                self._db.execute("ALTER TABLE games ADD COLUMN abandoned TEXT")
                log.info("%s: journal format %d -> %d", self.path, version, JOURNAL_VERSION)
            self._db.execute(f"PRAGMA user_version={JOURNAL_VERSION:d}")
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, statements: list[tuple[str, tuple]]) -> sqlite3.Cursor:
        """Run ``statements`` in one transaction; returns the last cursor once committed."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    cur = self._db.execute(sql, params)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            return cur

    def _open_game(self, game_id: int) -> None:
        row = self._db.execute(
            "SELECT finished, abandoned FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        if row[0] is not None:
            raise JournalError(f"game {game_id} is finished: its record can't change")
        if row[1] is not None:
            raise JournalError(f"game {game_id} was abandoned: its record can't change")

    def begin_game(self, game: str, setup: dict) -> int:
        """Start a game; returns its id."""
        cur = self._write(
            [
                (
                    "INSERT INTO games (game, setup, started) VALUES (?, ?, ?)",
                    (game, _dump(setup, "setup"), _now()),
                )
            ]
        )
        return int(cur.lastrowid)

    def append(self, game_id: int, action: dict, private: dict | None = None) -> int:
        """Record one action (and its private part); returns its sequence number (1, 2, …)
        only after the commit is on disk."""
        public = _dump(action, "action")
        secret = None if private is None else _dump(private, "private")
        with self._lock:
            self._open_game(game_id)
            seq = (
                1
                + self._db.execute(
                    "SELECT coalesce(max(seq), 0) FROM actions WHERE game_id = ?", (game_id,)
                ).fetchone()[0]
            )
            row = (game_id, seq, public, _now())
            statements = [("INSERT INTO actions VALUES (?, ?, ?, ?)", row)]
            if secret is not None:
                statements.append(("INSERT INTO private VALUES (?, ?, ?)", (game_id, seq, secret)))
            self._write(statements)
            return seq

    def undo(self, game_id: int) -> dict | None:
        """Remove the last action of an unfinished game; returns it (public part), or None
        when there was none."""
        with self._lock:
            self._open_game(game_id)
            row = self._db.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            seq, action = row
            self._write(
                [
                    ("DELETE FROM private WHERE game_id = ? AND seq = ?", (game_id, seq)),
                    ("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq)),
                ]
            )
            return json.loads(action)

    def actions(self, game_id: int) -> list[dict]:
        """The public actions of a game, in order."""
        with self._lock:
            self.game(game_id)
            rows = self._db.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [json.loads(a) for (a,) in rows]

    def actions_with_secrets(self, game_id: int) -> list[tuple[dict, dict | None]]:
        """Each action with its private part, to rebuild the state (``Session``): holds the
        secrets, never for a view or a log."""
        return list(self.replay(game_id))

    def replay(self, game_id: int) -> Iterator[tuple[dict, dict | None]]:
        """``actions_with_secrets`` one at a time: the rows are read at once (JSON text,
        which the garbage collector never scans) and decoded as they are taken, so a long
        game's replay holds one decoded action at a time, not all of them (the collector
        would scan those again and again: a replay growing faster than its length)."""
        with self._lock:
            self.game(game_id)
            rows = self._db.execute(
                "SELECT a.action, p.payload FROM actions a LEFT JOIN private p"
                " ON p.game_id = a.game_id AND p.seq = a.seq"
                " WHERE a.game_id = ? ORDER BY a.seq",
                (game_id,),
            ).fetchall()
        return ((json.loads(a), None if p is None else json.loads(p)) for a, p in rows)

    def finish(self, game_id: int, result: dict) -> None:
        """Close a game with its result; it then stays as history, unchangeable."""
        encoded = _dump(result, "result")
        with self._lock:
            self._open_game(game_id)
            self._write(
                [
                    (
                        "UPDATE games SET finished = ?, result = ? WHERE id = ?",
                        (_now(), encoded, game_id),
                    )
                ]
            )

    def abandon(self, game_id: int) -> None:
        """Drop an unfinished game: it no longer resumes and is not history; its actions
        stay in the database."""
        with self._lock:
            self._open_game(game_id)
            self._write([("UPDATE games SET abandoned = ? WHERE id = ?", (_now(), game_id))])

    def game(self, game_id: int) -> GameRecord:
        records = self._records("WHERE g.id = ?", (game_id,))
        if not records:
            raise JournalError(f"no game {game_id} in the journal")
        return records[0]

    def unfinished(self) -> list[GameRecord]:
        """Games neither finished nor abandoned, oldest first."""
        return self._records("WHERE g.finished IS NULL AND g.abandoned IS NULL", ())

    def finished(self) -> list[GameRecord]:
        """Finished games (history), oldest first."""
        return self._records("WHERE g.finished IS NOT NULL", ())

    def abandoned(self) -> list[GameRecord]:
        """Games the players dropped, oldest first."""
        return self._records("WHERE g.abandoned IS NOT NULL", ())

    def _records(self, where: str, params: tuple) -> list[GameRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.game, g.setup, g.started, g.finished, g.result,"
                " (SELECT count(*) FROM actions a WHERE a.game_id = g.id), g.abandoned"
                f" FROM games g {where} ORDER BY g.id",
                params,
            ).fetchall()
        return [
            GameRecord(
                id=i,
                game=game,
                setup=json.loads(setup),
                started=started,
                finished=finished,
                result=None if result is None else json.loads(result),
                actions=n,
                abandoned=abandoned,
            )
            for i, game, setup, started, finished, result, n, abandoned in rows
        ]
