"""A history database in an older format, as that version of ``companion`` wrote it, for
the tests of ``History``'s migration: one home for the old schemas (taken from
companion/storage/history.py's ``_SCHEMA`` at each version), so each test says only which
version and which rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from companion.storage.history import HISTORY_APP_ID, HISTORY_VERSION

_SCORES = """
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
"""

# The games table of each older format; its rows are given in this column order.
_GAMES = {
    # 1: a game's date and which game
    1: "CREATE TABLE games (id INTEGER PRIMARY KEY, date TEXT NOT NULL, game TEXT NOT NULL);",
    # 2: when it began and who played first (NULL when unknown)
    2: "CREATE TABLE games (id INTEGER PRIMARY KEY, date TEXT NOT NULL, game TEXT NOT NULL,"
       " started TEXT, first_player TEXT);",
}
GAMES_COLUMNS = {1: ("id", "date", "game"),
                 2: ("id", "date", "game", "started", "first_player")}
SCORES_COLUMNS = ("game_id", "seat", "player", "total", "breakdown", "winner")


def write_old_history(path: Path, version: int, games: Sequence[tuple],
                      scores: Sequence[tuple]) -> Path:
    """A history file at ``path`` in format ``version`` (older than ``HISTORY_VERSION``)
    holding ``games`` (rows in ``GAMES_COLUMNS[version]``'s order) and ``scores`` (rows
    in ``SCORES_COLUMNS``' order), closed, for ``History(path)`` to migrate."""
    assert version in _GAMES and version < HISTORY_VERSION, version
    db = sqlite3.connect(path)
    try:
        db.executescript(_GAMES[version] + _SCORES)
        for table, columns, rows in (("games", GAMES_COLUMNS[version], games),
                                     ("scores", SCORES_COLUMNS, scores)):
            db.executemany(f"INSERT INTO {table} ({', '.join(columns)})"
                           f" VALUES ({', '.join('?' * len(columns))})", rows)
        db.execute(f"PRAGMA application_id={HISTORY_APP_ID:d}")
        db.execute(f"PRAGMA user_version={version:d}")
        db.commit()
    finally:
        db.close()
    return path
