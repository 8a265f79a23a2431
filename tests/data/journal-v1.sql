-- A journal in format 1 (user_version 1), as written by companion/journal.py before
-- games.abandoned existed (commit b9a84d0): dumped with sqlite3 iterdump from a database
-- that code made (a finished Koryŏ game, an unfinished King's Dilemma night with a sealed
-- ballot). tests/test_journal_abandon.py rebuilds it to test the migration.
BEGIN TRANSACTION;
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    action  TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
INSERT INTO "actions" VALUES(1,1,'{"kind": "deal"}','2026-11-23T08:59:35+00:00');
INSERT INTO "actions" VALUES(2,1,'{"kind": "open"}','2026-11-23T08:59:35+00:00');
INSERT INTO "actions" VALUES(2,2,'{"kind": "lock", "seat": 1}','2026-11-23T08:59:35+00:00');
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    setup    TEXT NOT NULL,
    started  TEXT NOT NULL,
    finished TEXT,
    result   TEXT
);
INSERT INTO "games" VALUES(1,'koryo','{"players": ["Ana", "Ben"]}','2026-11-23T08:59:35+00:00','2026-11-23T08:59:35+00:00','{"winners": ["Ana"]}');
INSERT INTO "games" VALUES(2,'kings-dilemma','{"players": ["Ana", "Ben", "Cleo"]}','2026-11-23T08:59:35+00:00',NULL,NULL);
CREATE TABLE private (
    game_id INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, seq) REFERENCES actions(game_id, seq)
);
INSERT INTO "private" VALUES(2,2,'{"ballot": "aye"}');
COMMIT;
PRAGMA application_id=1129335345;
PRAGMA user_version=1;
