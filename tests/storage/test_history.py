"""Game history storage (companion/storage/history.py): every finished game kept with date, game,
players, scores with breakdown and winners; stats per player; WAL + synchronous=FULL; an
unusable database moved aside, never overwritten; imports all or nothing."""

import json
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.files.validate import check_player_name
from companion.play.errors import RuleError
from companion.storage import history
from companion.storage.history import GameResult, History
from companion.storage.journal import Journal


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Tests never touch the real home."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def result(game="koryo", scores=(("Ana", 5), ("Ben", 9)), winners=None, **extra):
    players = [{"name": n, "total": t, "breakdown": {"tokens": t}} for n, t in scores]
    best = max(t for _, t in scores)
    return {"game": game, "players": players,
            "winners": winners or [n for n, t in scores if t == best], **extra}


def score_json(tmp_path, capsys, text):
    f = tmp_path / "table.yaml"
    f.write_text(text, encoding="utf-8")
    assert main(["score", str(f), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# -- record and read back ----------------------------------------------------------------------


def test_record_keeps_the_output_of_companion_score_with_its_breakdown(tmp_path, capsys):
    out = score_json(tmp_path, capsys, "game: inheritors\nplayers: [Ana, Ben]\n"
                     "stacks: {Ana: {red: 4}, Ben: {blue: 6}}\nhonors: {Ana: 1}\n")
    with History() as h:
        h.record(out, date="2024-05-01T20:30:00+02:00")
        (g,) = h.games()
    assert g.to_dict() == {
        "date": "2024-05-01T20:30:00+02:00",
        "game": "inheritors",
        "players": [{"name": p["name"], "total": p["total"], "breakdown": p["breakdown"]}
                    for p in out["players"]],
        "winners": ["Ben"],
    }
    assert list(g.players[0].breakdown) == list(out["players"][0]["breakdown"])  # key order


def test_record_without_a_date_stamps_now_in_iso_with_offset():
    before = datetime.now().astimezone().replace(microsecond=0)
    with History() as h:
        h.record(result())
        stamp = datetime.fromisoformat(h.games()[0].date)
    assert stamp.tzinfo is not None and before <= stamp <= datetime.now().astimezone()


def test_record_takes_the_date_in_the_result_when_no_argument():
    with History() as h:
        h.record(result(date="2023-12-31"))
        assert h.games()[0].date == "2023-12-31"


def test_games_are_kept_across_reopening_in_order_and_by_game(data_dir):
    with History() as h:
        h.record(result("koryo"), date="2024-01-01")
        h.record(result("choson"), date="2024-01-02")
        h.record(result("koryo", (("Chloe", 3), ("Ana", 3))), date="2024-01-03")
    assert (data_dir / "companion.db").is_file()  # the default path: data_dir()/companion.db
    with History(data_dir / "companion.db") as h:
        assert [g.date for g in h.games()] == ["2024-01-01", "2024-01-02", "2024-01-03"]
        assert [g.date for g in h.games("koryo")] == ["2024-01-01", "2024-01-03"]
        assert h.games("koryo")[1].winners == ("Chloe", "Ana")


def test_winners_are_kept_in_seating_order():
    with History() as h:
        h.record(result(scores=(("Ana", 4), ("Ben", 4)), winners=["Ben", "Ana"]))
        assert h.games()[0].winners == ("Ana", "Ben")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda r: r.pop("players"), "players"),
        (lambda r: r.update(players=[]), "players"),
        (lambda r: r.update(winners=["Zed"]), "winners.0"),
        (lambda r: r.update(winners=[]), "winners"),
        (lambda r: r.update(winners=["Ben", "Ben"]), "winners.1"),
        (lambda r: r.update(game="King's"), "game"),
        (lambda r: r.update(date="yesterday"), "date"),
        (lambda r: r["players"][1].update(total="9"), "players.1.total"),
        (lambda r: r["players"][1].update(total=True), "players.1.total"),
        (lambda r: r["players"][0].update(name="Ben"), "players.1.name"),  # the repeat
        (lambda r: r["players"][0].update(name=" "), "players.0.name"),
        (lambda r: r["players"][0].update(breakdown={"a b": 1}), "players.0.breakdown"),
        (lambda r: r["players"][0].update(breakdown={"x": 1.5}), "players.0.breakdown.x"),
    ],
)
def test_record_refuses_an_invalid_result_and_keeps_nothing(change, field):
    r = result(date="2024-01-01")
    change(r)
    with History() as h:
        with pytest.raises(RuleError) as exc:
            h.record(r)
        assert exc.value.field == field and h.games() == []


# -- stats ------------------------------------------------------------------------------------


def test_stats_per_game_and_player_games_wins_and_average_score():
    """A player's figures per game: a Koryŏ total is never averaged with a Chosŏn one."""
    with History() as h:
        h.record(result("koryo", (("Ana", 5), ("Ben", 9))))
        h.record(result("koryo", (("Ana", 10), ("Ben", 10), ("Chloe", 1))))  # shared win
        h.record(result("choson", (("Ana", 12), ("Chloe", 2))))
        per_game = h.stats_per_game()
        assert per_game == {
            "choson": {"Ana": history.PlayerStats(1, 1, 12.0),
                       "Chloe": history.PlayerStats(1, 0, 2.0)},
            "koryo": {"Ben": history.PlayerStats(2, 2, 9.5),
                      "Ana": history.PlayerStats(2, 1, 7.5),
                      "Chloe": history.PlayerStats(1, 0, 1.0)},
        }
        assert list(per_game["koryo"]) == ["Ben", "Ana", "Chloe"]  # most wins, best average
        assert h.stats("choson") == per_game["choson"] and h.stats("azul") == {}


def test_stats_of_an_empty_history_is_empty():
    with History() as h:
        assert h.stats_per_game() == {} and h.stats("koryo") == {}


# -- durability -------------------------------------------------------------------------------


def test_database_is_wal_with_synchronous_full():
    with History() as h:
        assert h._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert h._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_corrupt_database_is_reported_and_moved_aside_never_overwritten(data_dir):
    data_dir.mkdir(parents=True)
    db = data_dir / "companion.db"
    garbage = b"this is not a database\x00" * 300
    db.write_bytes(garbage)
    with History() as h:
        assert h.notice and "companion.db" in h.notice and "corrupt" in h.notice
        assert h.games() == []
        h.record(result())
    (aside,) = data_dir.glob("companion.db.corrupt-*")
    assert aside.read_bytes() == garbage
    with History() as h:
        assert h.notice is None and len(h.games()) == 1


def test_another_programs_database_at_the_path_is_moved_aside_not_reused(data_dir):
    data_dir.mkdir(parents=True)
    db = data_dir / "companion.db"
    with Journal(db) as j:
        j.begin_game("koryo", {"players": ["Ana", "Ben"]})
    with History(db) as h:
        assert h.notice and "another program" in h.notice and h.games() == []
    # the journal's -wal/-shm companions are moved along with it: pick the database itself
    (aside,) = [p for p in data_dir.glob("companion.db.corrupt-*")
                if not p.name.endswith(("-wal", "-shm", "-journal", "-ack"))]
    with Journal(aside) as j:
        assert j.unfinished()[0].setup == {"players": ["Ana", "Ben"]}


# -- import -----------------------------------------------------------------------------------


def games(*dates):
    return [GameResult.from_dict(result(date=d)) for d in dates]


def test_import_keeps_games_and_skips_those_already_kept_or_given_twice():
    with History() as h:
        h.record(result(date="2024-01-01"))
        assert h.import_games(games("2024-01-01", "2024-01-02", "2024-01-02")) == (1, 2)
        assert [g.date for g in h.games()] == ["2024-01-01", "2024-01-02"]


def test_import_is_one_transaction_a_failure_keeps_nothing(monkeypatch):
    with History() as h:
        h.record(result(date="2024-01-01"))
        calls = []
        insert = History._insert

        def failing(self, g):
            calls.append(g)
            if len(calls) == 2:
                raise OSError("disk full")
            return insert(self, g)

        monkeypatch.setattr(History, "_insert", failing)
        with pytest.raises(OSError):
            h.import_games(games("2024-02-01", "2024-02-02"))
        monkeypatch.undo()
        assert [g.date for g in h.games()] == ["2024-01-01"] and len(calls) == 2
        h.record(result(date="2024-03-01"))  # the history still works after the rollback
        assert len(h.games()) == 2


# -- formats ----------------------------------------------------------------------------------

def _valid_name(text: str) -> bool:
    try:
        return check_player_name(text, "name") == text
    except RuleError:
        return False


names = st.text(min_size=1, max_size=12).filter(_valid_name)
keys = st.from_regex(r"[A-Za-z0-9_-]{1,10}", fullmatch=True)


@st.composite
def game_results(draw):
    seated = draw(st.lists(names, min_size=1, max_size=5, unique=True))
    parts = draw(st.lists(keys, max_size=4, unique=True))
    players = [{"name": n, "total": draw(st.integers(-50, 200)),
                "breakdown": {k: draw(st.integers(-20, 60)) for k in parts}} for n in seated]
    winners = draw(st.lists(st.sampled_from(seated), min_size=1, unique=True))
    when = draw(st.datetimes(min_value=datetime(2000, 1, 2),
                             max_value=datetime(2100, 12, 30))).isoformat(timespec=draw(st.sampled_from(["seconds", "auto"])))
    game = draw(st.sampled_from(["koryo", "choson", "inheritors", "kings-dilemma"]))
    return GameResult.from_dict(
        {"date": when, "game": game, "players": players, "winners": winners})


@settings(max_examples=60, deadline=None)
@given(st.lists(game_results(), max_size=6))
def test_property_json_and_csv_formats_round_trip(results):
    assert history.parse_json(history.to_json(results), "x.json") == results
    assert history.parse_csv(history.to_csv(results), "x.csv") == results
    assert history.parse(history.to_csv(results), "no-extension") == results
    assert history.parse(history.to_json(results), "no-extension") == results


# -- companion export / companion import ------------------------------------------------------


def kept(db):
    with History(db) as h:
        return h.games()


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_then_import_round_trips_the_whole_history(tmp_path, capsys, fmt):
    """Export→import: every game back, equal, names with commas, quotes and a formula's
    first character included;
    importing the same file twice keeps nothing twice."""
    src, dst, out = tmp_path / "a.db", tmp_path / "b.db", tmp_path / f"all.{fmt}"
    with History(src) as h:
        h.record(result(date="2024-01-01"))
        h.record(result("inheritors", (('Zoé "Z"', 7), ("Line, break", 7), ("=C;R", 2))),
                 date="2024-01-02T21:00:00+01:00")
    assert main(["export", "--db", str(src), "--out", str(out)]) == 0
    assert main(["import", str(out), "--db", str(dst)]) == 0
    assert kept(dst) == kept(src) and len(kept(dst)) == 2
    assert main(["import", str(out), "--db", str(dst)]) == 0
    assert "0 games imported (2 already in the history or given twice)" in capsys.readouterr().out
    assert kept(dst) == kept(src)


def test_export_to_stdout_needs_no_database_and_writes_the_header(tmp_path, capsys):
    assert main(["export", "--format", "csv", "--db", str(tmp_path / "none.db")]) == 0
    assert capsys.readouterr().out.splitlines() == [",".join(history.CSV_COLUMNS)]
    assert not (tmp_path / "none.db").exists()


def test_a_malformed_import_is_refused_whole_with_its_line_and_nothing_kept_is_touched(
        tmp_path, capsys):
    db, bad = tmp_path / "h.db", tmp_path / "bad.csv"
    with History(db) as h:
        h.record(result(date="2023-06-01"))
        before = h.games()
    good = history.to_csv(games("2024-01-01", "2024-01-02"))
    lines = good.splitlines()
    lines[4] = lines[4].replace(",9,", ",nine,")  # line 5: the second game's Ben
    bad.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    assert main(["import", str(bad), "--db", str(db)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"companion import: {bad}:5: total: expected a whole number, got 'nine'")
    assert kept(db) == before


def test_an_import_with_an_unknown_json_field_names_the_record_and_field(tmp_path, capsys):
    db, bad = tmp_path / "h.db", tmp_path / "bad.json"
    doc = json.loads(history.to_json(games("2024-01-01", "2024-01-02")))
    doc["games"][1]["players"][0]["score"] = 3
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["import", str(bad), "--db", str(db)]) == 2
    assert "games.1.players.0.score: unknown key" in capsys.readouterr().err
    assert not db.exists() or kept(db) == []


# -- a page at a time: what History reads at ten thousand games -------------------------------


def test_a_page_newest_first_in_sql_is_the_games_sorted_by_when_they_ended(tmp_path):
    """Dates with different offsets (and one imported without a time): ``newest`` pages
    them as sorting every game by its instant would, ``count`` and ``kept_games`` agree
    with the games, and ``iter_games`` yields every game in the order kept."""
    dates = ["2026-11-20T23:30:00+01:00", "2026-11-20T23:10:00-02:00",  # the later instant
             "2026-11-21", "2026-11-20T22:00:00+00:00", "2026-11-19T08:00:00+09:00"]
    with History(tmp_path / "h.db") as h:
        for i, when in enumerate(dates):
            h.record(result("koryo" if i % 2 else "choson", (("Ana", i), ("Ben", 1))), when)
        every = h.games()
        # A date alone is midnight UTC, as SQLite reads it.
        newest = sorted(every, key=lambda g: datetime.fromisoformat(
            g.date if "T" in g.date else g.date + "T00:00:00+00:00"), reverse=True)
        assert [h.newest(None, i, 2) for i in (0, 2, 4)] == [newest[:2], newest[2:4],
                                                              newest[4:]]
        assert h.newest("koryo", 0, 10) == [g for g in newest if g.game == "koryo"]
        assert (h.count(), h.count("koryo"), h.count("azul")) == (5, 2, 0)
        assert h.kept_games() == ["choson", "koryo"] and h.first_kept() == ["choson", "koryo"]
        assert list(h.iter_games(batch=2)) == every


def test_the_tally_is_counted_again_only_when_a_game_was_kept(tmp_path, monkeypatch):
    with History(tmp_path / "h.db") as h:
        h.record(result(), "2026-11-20")
        counted = []
        real = h.stats_per_game
        monkeypatch.setattr(h, "stats_per_game", lambda: counted.append(1) or real())
        first = h.tally()
        assert h.tally() is first and len(counted) == 1
        stamp = h.stamp()
        h.record(result(scores=(("Ana", 9), ("Cleo", 2))), "2026-11-21")
        assert h.stamp() != stamp
        assert h.tally() == real() and len(counted) == 2
        assert h.tally()["koryo"]["Ana"].games == 2


@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_json_export_written_a_game_at_a_time_is_to_json_exactly(tmp_path, count):
    """``companion export --format json`` streams the games (ten thousand are never held);
    its text is ``history.to_json``'s, byte for byte."""
    db = tmp_path / "h.db"
    with History(db) as h:
        h.record(result("choson"), "2026-11-20T21:00:00+01:00")  # created, even for none
        for i in range(count):
            h.record(result(scores=(("Zoé", i), ("Ben", 2))), f"2026-11-2{i}T21:00:00+01:00",
                     started=f"2026-11-2{i}T20:00:00+01:00", first_player="Zoé")
        games = h.games()[1:]
    out = tmp_path / "out.json"
    assert main(["export", "--db", str(db), "--games", "2-", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == history.to_json(games)


def test_the_records_players_look_for_are_counted_in_sql(tmp_path):
    """Three Koryŏ games (and a Chosŏn one that counts for nothing here): personal bests,
    the first player's wins, the time played in all and per player, the wins by the
    number of players at the table, and head to head (a winner ahead, else the higher
    total; a shared victory puts neither ahead)."""
    with History(tmp_path / "h.db") as h:
        h.record(result(scores=(("Ana", 9), ("Ben", 4), ("Cleo", 7))), "2026-11-01T22:00:00+01:00",
                 started="2026-11-01T21:00:00+01:00", first_player="Ana")
        h.record(result(scores=(("Ana", 3), ("Ben", 8))), "2026-11-02T21:30:00+01:00",
                 started="2026-11-02T21:00:00+01:00", first_player="Ana")
        h.record(result(scores=(("Ana", 5), ("Ben", 5))), "2026-11-03")  # shared, untimed
        h.record(result("choson", (("Ana", 50), ("Ben", 1))), "2026-11-04",
                 started="2026-11-03T20:00:00+00:00", first_player="Ana")
        tally = h.tally()["koryo"]
        assert {n: s.best for n, s in tally.items()} == {"Ana": 9, "Ben": 8, "Cleo": 7}
        r = h.records("koryo")
        assert (r.first_won, r.first_games) == (1, 2)
        assert (r.minutes, r.timed) == (90, 2)
        assert r.player_minutes == {"Ana": 90, "Ben": 90, "Cleo": 60}
        assert r.by_count == {"Ana": {2: (1, 2), 3: (1, 1)}, "Ben": {2: (2, 2), 3: (0, 1)},
                              "Cleo": {3: (0, 1)}}
        assert r.head_to_head == {("Ana", "Ben"): (3, 1, 1), ("Ana", "Cleo"): (1, 1, 0),
                                  ("Ben", "Cleo"): (1, 0, 1)}
