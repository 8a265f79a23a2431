"""BG Stats plays (companion/bgstats.py) from history rows, their import links, the
history's start time and first player (and its migration), and ``companion export
--format bgstats|bgstats-json`` over a range of games."""

import json
import sqlite3

import pytest
from played import scored

from companion import bgstats, history
from companion.cli import main
from companion.engine.errors import RuleError
from companion.history import History, result_of

ENDED = "2026-11-23T21:40:05+01:00"
STARTED = "2026-11-23T20:31:00+01:00"


def test_a_play_has_the_fields_bg_stats_reads_from_the_history_row():
    row = result_of(scored("kings-dilemma", (("Ana", 14), ("Benoît", 17), ("Cleo", 9),
                                             ("Dan", 17), ("Eve", 12))),
                    ENDED, started=STARTED, first_player="Cleo")
    assert bgstats.play(row) == {
        "game": {"name": "The King's Dilemma", "highestWins": True,
                 "sourceGameId": "kings-dilemma"},
        "playDate": "2026-11-23 20:31:00",  # the table's wall clock, when it began
        "durationMin": 69,
        "location": "Table companion",
        "players": [
            {"name": "Ana", "score": 14, "rank": 3, "sourcePlayerId": "Ana"},
            {"name": "Benoît", "score": 17, "rank": 1, "winner": True,
             "sourcePlayerId": "Benoît"},
            {"name": "Cleo", "score": 9, "rank": 5, "startPlayer": True,
             "sourcePlayerId": "Cleo"},
            {"name": "Dan", "score": 17, "rank": 1, "winner": True, "sourcePlayerId": "Dan"},
            {"name": "Eve", "score": 12, "rank": 4, "sourcePlayerId": "Eve"},
        ],
    }


def test_ranks_put_the_winners_first_even_when_a_tie_break_chose_them():
    """Inheritors: Ben and Cleo tie on 19, the tie-break gives Cleo the game."""
    row = result_of(scored("inheritors", (("Ana", 15), ("Ben", 19), ("Cleo", 19)), ["Cleo"]))
    assert bgstats.ranks(row) == {"Cleo": 1, "Ben": 2, "Ana": 3}
    row = result_of(scored("koryo", (("Ana", 3), ("Ben", 8), ("Cleo", 3), ("Dan", 1))))
    assert bgstats.ranks(row) == {"Ben": 1, "Ana": 2, "Cleo": 2, "Dan": 4}


def test_without_a_start_the_play_is_dated_when_it_ended_and_has_no_duration():
    play = bgstats.play(result_of(scored(), "2024-05-01"))
    assert play["playDate"] == "2024-05-01 00:00:00"
    assert "durationMin" not in play
    assert not any("startPlayer" in p for p in play["players"])


def test_the_link_is_compact_escaped_and_round_trips():
    row = result_of(scored("choson", (('Zoé "Z" & co', 7), ("Ben+1 #2", 3))), ENDED,
                    started=STARTED, first_player="Ben+1 #2")
    url = bgstats.link(row)
    assert url.startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B%22game%22:")
    assert not set(url[len(bgstats.IMPORT_URL):]) & set(' "{}[]&#+é')
    assert bgstats.data_of(url) == bgstats.play(row)
    text = bgstats.compact(bgstats.play(result_of(scored(), ENDED)))
    assert ", " not in text and ": " not in text and "\n" not in text


def test_an_unknown_game_keeps_its_key_as_the_name():
    assert bgstats.play(result_of(scored("azul")))["game"]["name"] == "azul"


def test_every_shipped_game_is_named_for_bg_stats():
    assert set(bgstats.games()) == {"koryo", "choson", "inheritors", "kings-dilemma"}
    for info in bgstats.games().values():
        assert isinstance(info["name"], str) and info["highest_wins"] is True


# -- the history keeps the start and the first player ------------------------------------


def test_the_history_keeps_start_and_first_player_and_json_carries_them(tmp_path):
    with History(tmp_path / "h.db") as h:
        n = h.record(scored(), ENDED, started=STARTED, first_player="Ben")
        h.record(scored("inheritors"), ENDED)
        rows = h.numbered()
    assert [i for i, _ in rows] == [n, n + 1]
    first, second = rows[0][1], rows[1][1]
    assert (first.started, first.first_player) == (STARTED, "Ben")
    assert (second.started, second.first_player) == (None, None)
    assert "started" not in second.to_dict()
    assert history.parse_json(history.to_json([first, second]), "x.json") == [first, second]


def test_a_first_player_who_did_not_play_or_a_bad_start_is_refused(tmp_path):
    with History(tmp_path / "h.db") as h:
        with pytest.raises(RuleError, match="first_player"):
            h.record(scored(), ENDED, first_player="Zed")
        with pytest.raises(RuleError, match="started"):
            h.record(scored(), ENDED, started="yesterday")
        assert h.games() == []


def test_a_history_of_the_first_format_is_migrated_with_its_games(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, date TEXT NOT NULL, game TEXT NOT NULL);
        CREATE TABLE scores (game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL, player TEXT NOT NULL, total INTEGER NOT NULL,
            breakdown TEXT NOT NULL, winner INTEGER NOT NULL, PRIMARY KEY (game_id, seat));
        INSERT INTO games VALUES (1, '2024-05-01', 'koryo');
        INSERT INTO scores VALUES (1, 1, 'Ana', 5, '{}', 0), (1, 2, 'Ben', 9, '{}', 1);
    """)
    db.execute(f"PRAGMA application_id={history.HISTORY_APP_ID}")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    with History(path) as h:
        assert h.notice is None
        (old,) = h.games()
        assert (old.date, old.winners, old.started) == ("2024-05-01", ("Ben",), None)
        h.record(scored(), ENDED, started=STARTED, first_player="Ana")
        assert h.games()[1].first_player == "Ana"
    with History(path) as h:  # opened again: nothing to migrate, nothing lost
        assert len(h.games()) == 2


# -- companion export --format bgstats ----------------------------------------------------


@pytest.fixture
def five_games(tmp_path):
    db = tmp_path / "h.db"
    with History(db) as h:
        for i in range(5):
            h.record(scored(scores=(("Ana", i), ("Ben", 2))), f"2024-05-0{i + 1}T21:00:00",
                     started=f"2024-05-0{i + 1}T20:00:00", first_player="Ana")
        return db, h.games()


def test_export_bgstats_writes_one_link_per_game_of_the_range(five_games, tmp_path, capsys):
    db, games = five_games
    out = tmp_path / "plays.txt"
    assert main(["export", "--db", str(db), "--format", "bgstats", "--games", "2-4",
                 "--out", str(out)]) == 0
    links = out.read_text(encoding="utf-8").splitlines()
    assert [bgstats.data_of(u) for u in links] == [bgstats.play(g) for g in games[1:4]]
    assert "plays.txt: 3 games" in capsys.readouterr().err


@pytest.mark.parametrize(("which", "picked"), [
    (["--games", "4-"], slice(3, None)), (["--games", "-2"], slice(0, 2)),
    (["--games", "3"], slice(2, 3)), (["--last", "2"], slice(3, None)), ([], slice(None)),
    (["--games", "9-"], slice(0, 0)),
])
def test_export_bgstats_json_holds_the_plays_of_the_range(five_games, capsys, which, picked):
    db, games = five_games
    assert main(["export", "--db", str(db), "--format", "bgstats-json", *which]) == 0
    assert json.loads(capsys.readouterr().out) == [bgstats.play(g) for g in games[picked]]


@pytest.mark.parametrize("bad", [["--games", "7-3"], ["--games", "x"], ["--games", "0"],
                                 ["--games", "-"], ["--last", "0"]])
def test_export_refuses_a_range_that_is_none(five_games, capsys, bad):
    db, _ = five_games
    assert main(["export", "--db", str(db), "--format", "bgstats", *bad]) == 2
    assert f"companion export: {bad[0]}:" in capsys.readouterr().err


def test_a_csv_export_imported_back_adds_nothing_though_it_lacks_start_and_first(tmp_path):
    db, out = tmp_path / "h.db", tmp_path / "all.csv"
    with History(db) as h:
        h.record(scored(), ENDED, started=STARTED, first_player="Ben")
    assert main(["export", "--db", str(db), "--out", str(out)]) == 0
    assert main(["import", str(out), "--db", str(db)]) == 0
    with History(db) as h:
        (game,) = h.games()
    assert game.first_player == "Ben"
