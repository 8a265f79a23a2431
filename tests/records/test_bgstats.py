"""BG Stats plays (companion/records/bgstats.py) from history rows, their import links, the
history's start time and first player (and its migration), and ``companion export
--format bgstats|bgstats-links`` over a range of games (the file read back by its format's rules)."""

import json
import re

import pytest
from old_history import write_old_history
from played import check_bgstats_play, scored

from companion.cli import main
from companion.play.errors import RuleError
from companion.records import bgstats
from companion.storage import history
from companion.storage.history import History, result_of

ENDED = "2026-11-23T21:40:05+01:00"
STARTED = "2026-11-23T20:31:00+01:00"


def test_a_play_has_the_fields_bg_stats_reads_from_the_history_row():
    row = result_of(scored("kings-dilemma", (("Ana", 14), ("Benoît", 17), ("Cleo", 9),
                                             ("Dan", 17), ("Eve", 12))),
                    ENDED, started=STARTED, first_player="Cleo")
    play = bgstats.play(row)
    check_bgstats_play(play)
    assert play == {
        "sourceName": "Companion",
        "sourcePlayId": bgstats.play_id(row),
        "playDate": "2026-11-23 20:40:05",  # when it ended, in UTC (21:40:05 at +01:00)
        "durationMin": 69,
        "game": {"name": "The King's Dilemma"},
        "players": [
            {"name": "Ana", "score": 14, "winner": False, "startPlayer": False},
            {"name": "Benoît", "score": 17, "winner": True, "startPlayer": False},
            {"name": "Cleo", "score": 9, "winner": False, "startPlayer": True},
            {"name": "Dan", "score": 17, "winner": True, "startPlayer": False},
            {"name": "Eve", "score": 12, "winner": False, "startPlayer": False},
        ],
    }


def test_the_play_id_is_the_same_in_every_run_and_tells_games_apart(tmp_path):
    """The id is made from the game itself: the same after the history is exported and
    imported into another one (new row numbers), different for another game."""
    a = result_of(scored(), ENDED, started=STARTED, first_player="Ana")
    assert bgstats.play_id(a) == bgstats.play_id(result_of(scored(), ENDED))
    assert re.fullmatch(r"[a-z2-7]{8}", bgstats.play_id(a))
    b = result_of(scored(scores=(("Ana", 5), ("Ben", 10))), ENDED)
    c = result_of(scored(), "2026-11-23T21:40:06+01:00")
    assert len({bgstats.play_id(g) for g in (a, b, c)}) == 3
    with History(tmp_path / "one.db") as one, History(tmp_path / "two.db") as two:
        two.record(scored("choson"), ENDED)  # another game first: other row numbers
        one.keep(a)
        two.import_games(history.parse_json(history.to_json(one.games()), "x.json"))
        assert [bgstats.play_id(g) for g in two.games()][-1] == bgstats.play_id(a)


def test_the_play_date_is_utc_and_a_date_without_offset_is_local_time(monkeypatch):
    import time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert bgstats.play(result_of(scored(), "2024-05-01T09:00:00"))["playDate"] == \
            "2024-05-01 00:00:00"
        assert bgstats.play(result_of(scored(), "2024-05-01T09:00:00-04:00"))["playDate"] \
            == "2024-05-01 13:00:00"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_games_are_named_as_boardgamegeek_spells_them():
    assert [bgstats.play(result_of(scored(g)))["game"]["name"]
            for g in ("koryo", "choson", "inheritors", "kings-dilemma")] == \
        ["Koryŏ", "Chosŏn", "Inheritors", "The King's Dilemma"]


def test_a_link_too_long_has_its_longest_names_shortened_told_apart_and_else_is_none():
    names = [f"Maximilienne-Alexandr{i:02d}" for i in range(5)]  # 23 characters
    names[-1] = "Bo"
    row = result_of(scored("koryo", tuple((n, i) for i, n in enumerate(names))), ENDED)
    assert bgstats.fitting_link(row) == bgstats.link(row)  # fits whole
    url = bgstats.fitting_link(row, limit=len(bgstats.link(row)) - 1)
    assert url is not None and len(url) < len(bgstats.link(row))
    play = bgstats.data_of(url)
    check_bgstats_play(play)
    shown = [p["name"] for p in play["players"]]
    assert len(set(shown)) == len(shown) and shown[-1] == "Bo"
    assert all(len(n) < 23 for n in shown[:-1])
    assert play["sourcePlayId"] == bgstats.play_id(row)  # the same play
    assert bgstats.fitting_link(row, limit=200) is None


def test_ranks_put_the_winners_first_even_when_a_tie_break_chose_them():
    """Inheritors: Ben and Cleo tie on 19, the tie-break gives Cleo the game."""
    row = result_of(scored("inheritors", (("Ana", 15), ("Ben", 19), ("Cleo", 19)), ["Cleo"]))
    assert bgstats.ranks(row) == {"Cleo": 1, "Ben": 2, "Ana": 3}
    row = result_of(scored("koryo", (("Ana", 3), ("Ben", 8), ("Cleo", 3), ("Dan", 1))))
    assert bgstats.ranks(row) == {"Ben": 1, "Ana": 2, "Cleo": 2, "Dan": 4}


def test_without_a_start_the_play_has_no_duration_nor_first_player():
    play = bgstats.play(result_of(scored(), "2024-05-01T00:00:00+00:00"))
    assert play["playDate"] == "2024-05-01 00:00:00"
    assert "durationMin" not in play
    assert [p["startPlayer"] for p in play["players"]] == [False, False]
    check_bgstats_play(play)


def test_the_link_is_compact_escaped_and_round_trips():
    row = result_of(scored("choson", (('Zoé "Z" & co', 7), ("Ben+1 #2", 3))), ENDED,
                    started=STARTED, first_player="Ben+1 #2")
    url = bgstats.link(row)
    assert url.startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B%22sourceName%22:")
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
    path = write_old_history(tmp_path / "old.db", 1,
                             games=[(1, "2024-05-01", "koryo")],
                             scores=[(1, 1, "Ana", 5, "{}", 0), (1, 2, "Ben", 9, "{}", 1)])
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


def test_export_bgstats_links_writes_one_link_per_game_of_the_range(five_games, tmp_path,
                                                                    capsys):
    db, games = five_games
    out = tmp_path / "plays.txt"
    assert main(["export", "--db", str(db), "--format", "bgstats-links", "--games", "2-4",
                 "--out", str(out)]) == 0
    links = out.read_text(encoding="utf-8").splitlines()
    assert [bgstats.data_of(u) for u in links] == [bgstats.play(g) for g in games[1:4]]
    assert "plays.txt: 3 games" in capsys.readouterr().err


UUID = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")
DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


def read_bgstats_file(text: str) -> list[dict]:
    """A BG Stats file of plays read by its format's rules (as the open-source importers
    write it): ``games``, ``players``, ``locations`` each with a whole ``id`` and an upper
    case ``uuid``, both unique; every play with a unique ``uuid``, a ``playDate``
    ``YYYY-MM-DD HH:MM:SS``, a whole ``durationMin``, a ``gameRefId`` and a
    ``locationRefId`` that are ids of the file, and ``playerScores`` whose
    ``playerRefId`` are players of the file, ``score`` a string of a whole number,
    ``winner``/``startPlayer`` booleans, ``seatOrder``/``rank`` whole numbers. Returns the
    plays resolved: game name, date, duration, and (name, score, winner, start, seat)."""
    doc = json.loads(text)
    ids = {}
    for kind in ("games", "players", "locations"):
        rows = doc[kind]
        assert len({r["id"] for r in rows}) == len(rows), kind
        assert len({r["uuid"] for r in rows}) == len(rows), kind
        for r in rows:
            assert type(r["id"]) is int and UUID.fullmatch(r["uuid"]) and r["name"], r
        ids[kind] = {r["id"]: r for r in rows}
    for g in doc["games"]:
        assert type(g["highestWins"]) is bool and type(g["noPoints"]) is bool
    assert len({p["uuid"] for p in doc["plays"]}) == len(doc["plays"])
    out = []
    for play in doc["plays"]:
        assert UUID.fullmatch(play["uuid"]) and DATE.fullmatch(play["playDate"]), play
        assert type(play["durationMin"]) is int and play["durationMin"] >= 0
        assert play["locationRefId"] in ids["locations"]
        scores = []
        for s in play["playerScores"]:
            assert type(s["winner"]) is bool and type(s["startPlayer"]) is bool
            assert type(s["seatOrder"]) is int and type(s["rank"]) is int
            assert isinstance(s["score"], str) and re.fullmatch(r"-?\d+", s["score"])
            scores.append((ids["players"][s["playerRefId"]]["name"], int(s["score"]),
                           s["winner"], s["startPlayer"], s["seatOrder"]))
        out.append({"game": ids["games"][play["gameRefId"]]["name"],
                    "date": play["playDate"], "minutes": play["durationMin"],
                    "scores": scores, "uuid": play["uuid"]})
    return out


def test_export_bgstats_writes_a_file_bg_stats_imports_with_every_game_of_the_range(
        five_games, tmp_path, capsys):
    db, games = five_games
    with History(db) as h:
        h.record(scored("choson", (("Ben", 12), ("Cléo", 30))), "2024-05-09T22:00:00+02:00",
                 started="2024-05-09T20:30:00+02:00", first_player="Cléo")
        games = h.games()
    out = tmp_path / "plays.bgsplay"
    assert main(["export", "--db", str(db), "--games", "4-", "--out", str(out)]) == 0
    assert "plays.bgsplay: 3 games" in capsys.readouterr().err
    plays = read_bgstats_file(out.read_text(encoding="utf-8"))
    assert [(p["game"], p["minutes"], p["scores"]) for p in plays] == [
        ("Koryŏ", 60, [("Ana", 3, True, True, 1), ("Ben", 2, False, False, 2)]),
        ("Koryŏ", 60, [("Ana", 4, True, True, 1), ("Ben", 2, False, False, 2)]),
        ("Chosŏn", 90, [("Ben", 12, False, False, 1), ("Cléo", 30, True, True, 2)]),
    ]
    assert plays[2]["date"] == "2024-05-09 20:00:00"  # when it ended, in UTC
    # The same play has the same uuid in every export: BG Stats updates, never doubles it.
    again = tmp_path / "again.bgsplay"
    assert main(["export", "--db", str(db), "--format", "bgstats", "--last", "1",
                 "--out", str(again)]) == 0
    assert read_bgstats_file(again.read_text(encoding="utf-8"))[0]["uuid"] == plays[2]["uuid"]
    assert len(games) == 6


def test_export_bgstats_of_no_game_is_an_empty_file_bg_stats_reads(tmp_path, capsys):
    assert main(["export", "--db", str(tmp_path / "none.db"), "--format", "bgstats"]) == 0
    assert read_bgstats_file(capsys.readouterr().out) == []


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


def test_a_kings_dilemma_night_carries_its_campaign_night_in_the_files_comments(tmp_path):
    """The ledger's nights (tests/played.py) found by the houses' totals: each King's
    Dilemma play says which night of the campaign it was, how it ended and the prestige
    awarded; other games and a night the ledger doesn't have say nothing."""
    from played import campaign_ledger

    db, ledger = tmp_path / "h.db", campaign_ledger(tmp_path / "kd.json")
    with History(db) as h:
        for day, totals in ((1, (8, 10, 7, 3)), (2, (12, 6, 9, 9)), (3, (1, 2, 3, 4))):
            h.record(scored("kings-dilemma", tuple(zip(("Ana", "Ben", "Cléo", "Dan"), totals,
                                                       strict=True))),
                     f"2026-11-0{day}T23:00:00+01:00")
        h.record(scored(), "2026-11-04T23:00:00+01:00")
    out = tmp_path / "plays.bgsplay"
    assert main(["export", "--db", str(db), "--ledger", str(ledger), "--out", str(out)]) == 0
    plays = json.loads(out.read_text(encoding="utf-8"))["plays"]
    assert plays[0]["comments"] == ("The King's Dilemma campaign, night 1: the king died; "
                                    "prestige Ana +2, Ben +3, Cléo +1, Dan +0")
    assert plays[1]["comments"].startswith("The King's Dilemma campaign, night 2: ")
    assert [p["comments"] for p in plays[2:]] == ["", ""]
    read_bgstats_file(out.read_text(encoding="utf-8"))
