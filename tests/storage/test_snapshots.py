"""Snapshots in the journal: a resume replays only the actions after the latest one, and
agrees with a full replay of every action (after undos too); a snapshot that is damaged,
made by other code, refused by its unpickler or whose following actions don't replay is
dropped (a log line) and every action replayed."""

from __future__ import annotations

import logging
import os
import pickle
import sqlite3
import threading
import time
import weakref

import pytest

from bench.resume import KD_SETUP, PLAYERS, autoplayed, inheritors_sheet, kd_night
from companion.games.inheritors.adapter import InheritorsSheet
from companion.games.kings_dilemma.adapter import KingsDilemma
from companion.games.koryo.adapter import KoryoGame
from companion.play import session as session_module
from companion.play.controller import where_it_stands
from companion.play.session import Session
from companion.storage import journal as journal_module
from companion.storage import seal, snapshots
from companion.storage.journal import JOURNAL_VERSION, Journal, _digest

EVERY = 16  # SNAPSHOT_EVERY in these tests: a few snapshots in a short game


class Counting:
    """A game's rules, counting the actions applied (how much a resume replayed)."""

    def __init__(self, rules) -> None:
        self.rules = rules
        self.name = rules.name
        self.applied = 0

    def initial(self, setup):
        return self.rules.initial(setup)

    def apply(self, state, action):
        self.applied += 1
        return self.rules.apply(state, action)

    def public_view(self, state):
        return self.rules.public_view(state)


GAMES = {
    "kings-dilemma": (KingsDilemma, KD_SETUP, lambda n: kd_night(n)),
    "inheritors": (InheritorsSheet, {"players": PLAYERS}, lambda n: inheritors_sheet(n)),
    "koryo": (KoryoGame, {"players": PLAYERS}, lambda n: autoplayed(KoryoGame(), n)[0]),
}


@pytest.fixture(autouse=True)
def often(monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", EVERY)


@pytest.fixture
def journal(journal):
    """conftest's journal, without fsync: these tests count, they do not time."""
    journal._db.execute("PRAGMA synchronous=OFF")
    return journal


def played(journal: Journal, game: str, count: int) -> tuple[Session, list]:
    """A game of ``count`` actions made through ``Session.dispatch``, snapshots written."""
    make, setup, history = GAMES[game]
    session = Session.start(journal, make(), setup)
    actions = history(count)[:count]
    for action, private in actions:
        session.dispatch(action, private)
    journal.snapshots_written()
    return session, actions


def full_replay(journal: Journal, game: str, game_id: int):
    """The state after every action, folded from the setup (no snapshot)."""
    make, setup, _ = GAMES[game]
    rules = make()
    state = rules.initial(setup)
    for action, private in journal.actions_with_secrets(game_id):
        state = rules.apply(state, {**action, **(private or {})})
    return state


def resumed(journal: Journal, game: str, game_id: int) -> tuple[Session, int]:
    """The game resumed as the kiosk does it, and how many actions that replayed."""
    rules = Counting(GAMES[game][0]())
    session = Session(journal, rules, game_id)
    return session, rules.applied


def snapshot_rows(journal: Journal, game_id: int) -> list[int]:
    return [seq for (seq,) in journal._read(
        "SELECT seq FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,))]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_resume_replays_after_the_snapshot_and_agrees_with_a_full_replay(journal, game):
    session, _ = played(journal, game, 5 * EVERY + 3)
    assert snapshot_rows(journal, session.game_id) == [4 * EVERY, 5 * EVERY]  # two kept
    again, applied = resumed(journal, game, session.game_id)
    assert applied == 3  # the actions after the latest snapshot, not all 83
    assert again.state == full_replay(journal, game, session.game_id) == session.state
    assert again.public_view() == session.public_view()
    assert again.last_action() == session.last_action()  # who made it: known as before


def test_a_snapshot_at_the_last_action_leaves_one_action_to_replay(journal):
    session, _ = played(journal, "kings-dilemma", 2 * EVERY)
    again, applied = resumed(journal, "kings-dilemma", session.game_id)
    assert applied == EVERY  # from the one before: the last action's state before is known
    assert again.last_action() == session.last_action()
    assert again.state == session.state


def test_undo_across_snapshots_agrees_with_a_full_replay(journal):
    session, _ = played(journal, "kings-dilemma", 3 * EVERY + 2)
    for _ in range(EVERY + 4):  # back past the latest snapshot (deleted with its action)
        session.undo()
        left = len(journal.actions(session.game_id))
        assert all(seq <= left for seq in snapshot_rows(journal, session.game_id))
        assert session.state == full_replay(journal, "kings-dilemma", session.game_id)
    journal.snapshots_written()
    again, applied = resumed(journal, "kings-dilemma", session.game_id)
    assert again.state == session.state
    assert applied <= 2 * EVERY


def test_after_an_undo_and_another_action_the_old_snapshot_is_not_used(journal):
    """The state kept after action N belongs to that action: undone and replaced by
    another, the snapshot is gone with it, and the resume agrees with the new action."""
    session, actions = played(journal, "inheritors", 2 * EVERY + 1)
    session.undo()
    session.undo()  # action 2*EVERY, which the latest snapshot followed
    changed = {**actions[2 * EVERY - 1][0], "value": 0}
    session.dispatch(changed)
    session.dispatch(actions[2 * EVERY][0])
    journal.snapshots_written()
    again, _ = resumed(journal, "inheritors", session.game_id)
    assert again.state == full_replay(journal, "inheritors", session.game_id) == session.state


def test_a_slow_snapshot_of_an_undone_action_is_not_written(journal):
    session, _ = played(journal, "koryo", EVERY - 1)
    with journal._lock:  # the snapshot's writer waits for it: undone before it writes
        session.dispatch(GAMES["koryo"][2](EVERY)[EVERY - 1][0])  # action EVERY: asked for
        session.undo()
    journal.snapshots_written()
    assert snapshot_rows(journal, session.game_id) == []


def damage(journal: Journal, game_id: int, sql: str, params: tuple = ()) -> None:
    with journal._lock:
        journal._db.execute(sql, params)


def test_a_damaged_snapshot_is_dropped_and_every_action_replayed(journal, caplog):
    session, _ = played(journal, "kings-dilemma", 2 * EVERY + 3)
    latest = 2 * EVERY
    damage(journal, session.game_id,
           "UPDATE snapshots SET state = substr(state, 1, 40) || x'00' || substr(state, 42)"
           " WHERE seq = ?", (latest,))
    with caplog.at_level(logging.WARNING, "companion.storage.journal"):
        again, applied = resumed(journal, "kings-dilemma", session.game_id)
    assert "does not match its action" in caplog.text
    assert applied == EVERY + 3  # the sound one before it
    assert again.state == session.state
    assert snapshot_rows(journal, session.game_id) == [EVERY]


def test_a_snapshot_of_other_code_is_not_used(journal, caplog, monkeypatch):
    session, _ = played(journal, "koryo", EVERY + 2)
    monkeypatch.setattr(snapshots, "rules_stamp", lambda: "an upgrade")
    with caplog.at_level(logging.WARNING, "companion.storage.journal"):
        again, applied = resumed(journal, "koryo", session.game_id)
    assert "another version of the rules" in caplog.text
    assert applied == EVERY + 2
    assert again.state == session.state


def keep_forged(journal: Journal, game_id: int, seq: int, state: bytes) -> None:
    """Replace the snapshot after action ``seq`` by ``state``, with a digest that fits."""
    action, private = journal._action_text(game_id, seq)[0]
    damage(journal, game_id, "UPDATE snapshots SET state = ?, digest = ? WHERE seq = ?",
           (state, _digest(action, private, state), seq))


def test_a_snapshot_whose_actions_do_not_replay_is_dropped(journal, caplog):
    """A sound-looking snapshot that disagrees with the actions after it (the state of
    the night's start): the actions win."""
    session, _ = played(journal, "kings-dilemma", EVERY + 5)
    start = snapshots.dump(KingsDilemma().initial(KD_SETUP))
    keep_forged(journal, session.game_id, EVERY, start)
    with caplog.at_level(logging.WARNING, "companion.storage.journal"):
        again, applied = resumed(journal, "kings-dilemma", session.game_id)
    assert "no longer replays" in caplog.text
    assert applied > EVERY + 5  # the tail tried from the snapshot, then every action
    assert again.state == session.state
    assert snapshot_rows(journal, session.game_id) == []


class Boom:
    def __reduce__(self):
        import os

        return os.getcwd, ()


@pytest.mark.parametrize("forged", [pickle.dumps(Boom()), pickle.dumps({"a": 1}), b"\x80junk"])
def test_a_snapshot_holding_anything_but_the_rules_state_is_refused(journal, caplog, forged):
    session, _ = played(journal, "koryo", EVERY + 1)
    keep_forged(journal, session.game_id, EVERY, forged)
    with caplog.at_level(logging.WARNING, "companion.storage.journal"):
        again, _ = resumed(journal, "koryo", session.game_id)
    assert "is not used" in caplog.text
    assert again.state == session.state
    with pytest.raises(ValueError, match="not part of a game's state"):
        snapshots.load(pickle.dumps(Boom()), object)


def test_a_long_replay_keeps_a_snapshot_for_the_next_resume(journal):
    """A game journaled without snapshots (an older version's journal): its first resume
    replays it all and keeps one, the next replays one action."""
    make, setup, history = GAMES["kings-dilemma"]
    game_id = Session.start(journal, make(), setup).game_id
    for action, private in history(3 * EVERY):
        journal.append(game_id, action, private)
    first, applied = resumed(journal, "kings-dilemma", game_id)
    assert applied == 3 * EVERY
    journal.snapshots_written()
    again, applied = resumed(journal, "kings-dilemma", game_id)
    assert applied == 1
    assert again.state == first.state == full_replay(journal, "kings-dilemma", game_id)


def test_home_reads_where_a_long_game_stands_from_its_snapshot(journal, monkeypatch):
    """No session of this process played it (a start, another journal): from the snapshot."""
    session, _ = played(journal, "kings-dilemma", 4 * EVERY + 2)
    monkeypatch.setattr(session_module, "_LIVE", weakref.WeakValueDictionary())
    applied = []
    real = KingsDilemma.apply
    monkeypatch.setattr(KingsDilemma, "apply",
                        lambda self, s, a: applied.append(1) or real(self, s, a))
    record = journal.game(session.game_id)
    assert where_it_stands(journal, record)["round"] == session.public_view()["round"]
    assert len(applied) == 2


def test_finishing_or_abandoning_drops_the_snapshots(journal):
    session, _ = played(journal, "koryo", EVERY + 1)
    journal.abandon(session.game_id)
    assert snapshot_rows(journal, session.game_id) == []
    other, _ = played(journal, "inheritors", EVERY + 1)
    journal.finish(other.game_id, {"winner": "Ana"})
    assert snapshot_rows(journal, other.game_id) == []


def test_can_undo_reads_no_action(journal, monkeypatch):
    session, _ = played(journal, "koryo", 3)
    monkeypatch.setattr(Journal, "actions", lambda *a: pytest.fail("decoded every action"))
    assert session.can_undo()
    for _ in range(3):
        session.undo()
    assert not session.can_undo()


def test_a_format_3_journal_gets_the_snapshots_table(tmp_path):
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        played(journal, "koryo", EVERY + 2)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE snapshots")
    conn.execute("PRAGMA user_version=3")
    conn.commit()
    conn.close()
    with Journal(path) as journal:
        assert journal._read("PRAGMA user_version") == [(JOURNAL_VERSION,)] == [(4,)]
        game_id = journal.unfinished()[-1].id
        _, applied = resumed(journal, "koryo", game_id)
        assert applied == EVERY + 2
        journal.snapshots_written()
        assert snapshot_rows(journal, game_id) == [EVERY + 1]


def test_a_start_replays_the_resumed_game_once(journal, monkeypatch):
    """As ``companion run`` starts: the game resumed, Home under it, the first frame drawn:
    one replay; Home works out the game's line when it is shown again, from that session."""
    from companion.hardware.sim import SimBackend
    from companion.ui.app import make_app
    from companion.ui.demo import demo_config
    from companion.ui.home import HomeScreen, ResumeButton, resume_unfinished

    played(journal, "koryo", 12)
    replays = []
    real = Session._replay
    monkeypatch.setattr(Session, "_replay", lambda self: replays.append(1) or real(self))
    config = demo_config((800, 480), "en")
    backend = SimBackend(len(PLAYERS), config.hardware.long_press_ms)
    app = make_app(config, backend, journal=journal)
    resumed = resume_unfinished(app)
    app.push(HomeScreen(app))
    app.push(resumed)
    app.render_if_dirty()
    assert len(replays) == 1
    app.pop()
    app.render_if_dirty()
    line = next(b for b in app.screen.buttons if isinstance(b, ResumeButton)).detail
    assert len(replays) == 1
    where = where_it_stands(journal, journal.unfinished()[-1])
    assert line.startswith(f"round {where['round']}, {where['player']}'s turn")
    backend.close()


def test_home_after_a_game_reads_the_session_that_played_it(journal, monkeypatch):
    """Back on Home after playing: where the game stands comes from the session that
    played it (no replay), the one that changed the game last: not an older session of
    the same game with as many actions (Home's own, before an undo and another action),
    nor any after a write no session made."""
    session, actions = played(journal, "kings-dilemma", 40)
    stands = where_it_stands(journal, journal.game(session.game_id))  # Home's own session
    session.undo()
    session.dispatch(*actions[39])
    replays = []
    real = Session._replay
    monkeypatch.setattr(Session, "_replay", lambda self: replays.append(1) or real(self))
    assert where_it_stands(journal, journal.game(session.game_id)) == stands
    assert replays == []

    sheet, entries = played(journal, "inheritors", 30)
    Session(journal, InheritorsSheet(), sheet.game_id)  # an older one, 30 actions too
    sheet.undo()
    sheet.dispatch({**entries[29][0], "value": 0} if "value" in entries[29][0]
                   else entries[29][0])
    live = Session.live(journal, sheet.game_id, journal.game(sheet.game_id).actions)
    assert live is sheet
    full = full_replay(journal, "inheritors", sheet.game_id)
    assert live.last_view() == InheritorsSheet().public_view(full)
    journal.append(sheet.game_id, *entries[0])  # a write no session made
    assert Session.live(journal, sheet.game_id, journal.game(sheet.game_id).actions) is None


def test_no_snapshot_holds_a_sealed_ballot(journal, monkeypatch):
    """A secret vote's locked ballots are sealed in the journal (``companion.storage.seal``); a
    snapshot of the whole state would keep them in clear: none is taken while a ballot is
    sealed, though one is due after every action here."""
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 1)
    dumped: list = []
    dump = snapshots.dump
    monkeypatch.setattr(snapshots, "dump", lambda state: dumped.append(state) or dump(state))
    rules = KingsDilemma()
    session = Session.start(journal, rules, KD_SETUP)
    sealed_seen = 0
    for action, private in kd_night(6 * EVERY):
        session.dispatch(action, private)
        sealed_seen += rules.holds_secrets(session.state)
    journal.snapshots_written()
    assert sealed_seen > 0  # the night had ballots sealed: the test could fail
    assert dumped and not any(rules.holds_secrets(state) for state in dumped)


def test_a_snapshot_due_during_a_secret_vote_is_taken_after_the_reveal(journal, monkeypatch):
    """Not a whole SNAPSHOT_EVERY later: at the first action after which no ballot is
    sealed, so a resume never replays much more than SNAPSHOT_EVERY actions."""
    taken: list[int] = []
    keep = journal.keep_snapshot
    monkeypatch.setattr(journal, "keep_snapshot",
                        lambda game, seq, *rest: taken.append(seq) or keep(game, seq, *rest))
    rules = KingsDilemma()
    session = Session.start(journal, rules, KD_SETUP)
    night = kd_night(8 * EVERY)
    sealed_at = set()
    for seq, (action, private) in enumerate(night, 1):
        session.dispatch(action, private)
        if rules.holds_secrets(session.state):
            sealed_at.add(seq)
    journal.snapshots_written()
    due = [seq for seq in range(EVERY, len(night) + 1, EVERY) if seq in sealed_at]
    assert due  # a snapshot fell due during a secret vote: the test could fail
    for seq in due:
        first_free = next(s for s in range(seq, len(night) + 1) if s not in sealed_at)
        assert first_free in taken, (seq, first_free, taken)
    assert not sealed_at & set(taken)


def test_a_sealed_ballot_that_no_longer_replays_is_said_by_its_refusal_code(journal, caplog):
    """A journaled secret ballot the rules refuse at a resume (here: more power than its
    player has) is named by the refusal's code in the error and the log, never quoted."""
    session = Session.start(journal, KingsDilemma(), KD_SETUP)
    for action, private in kd_night(4 * EVERY):
        if action["action"] == "lock" and private and private["power"]:
            player = action["player"]
            journal.append(session.game_id, action, {"choice": private["choice"],
                                                      "power": 987})
            break
        session.dispatch(action, private)
    else:
        pytest.fail("no secret ballot in the night")
    with pytest.raises(session_module.JournalError) as refused, caplog.at_level(logging.DEBUG):
        Session.resume(journal, KingsDilemma(), session.game_id)
    assert "no longer replays" in str(refused.value)
    assert "987" not in caplog.text + str(refused.value)
    assert player not in str(refused.value).split("replays", 1)[1]


def kd_journal(path, count: int) -> None:
    """A King's Dilemma night of ``count`` actions journaled as the kiosk journals it (its
    sealed ballots, a snapshot every ``EVERY`` actions), not through a session: fast."""
    rules = KingsDilemma()
    with Journal(path) as j:
        j._db.execute("PRAGMA synchronous=OFF")
        game_id = Session.start(j, rules, KD_SETUP).game_id
        state = rules.initial(KD_SETUP)
        for action, private in kd_night(count):
            state = rules.apply(state, {**action, **(private or {})})
            if j.append(game_id, action, private) % EVERY == 0:
                j.keep_snapshot(game_id, j.game(game_id).actions, snapshots.rules_stamp(),
                                lambda s=state: snapshots.dump(s))
        j.snapshots_written()


def resume_work(path, monkeypatch) -> tuple[int, int]:
    """What opening the journal and resuming its night costs, counted where a timing would
    depend on the machine's load: SQLite's virtual-machine steps (in hundreds) and the
    bytes read from the sealed ballots' pads. Not counted: the integrity check at opening
    (``PRAGMA quick_check``, every page read: kept, it is what moves a damaged file aside)."""
    statements: list[list] = []  # [SQL, its steps]
    read = [0]
    connect, pread = sqlite3.connect, os.pread

    def counted_connect(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(lambda sql: statements.append([sql, 0]))

        def step() -> int:
            if statements:
                statements[-1][1] += 1
            return 0

        conn.set_progress_handler(step, 100)
        return conn

    def counted_pread(fd, length, offset):
        data = pread(fd, length, offset)
        read[0] += len(data)
        return data

    with monkeypatch.context() as patch:
        patch.setattr(sqlite3, "connect", counted_connect)
        patch.setattr(os, "pread", counted_pread)
        with Journal(path) as j:
            session = Session(j, KingsDilemma(), j.unfinished()[-1].id)
            assert session.length == j.unfinished()[-1].actions
    return sum(n for sql, n in statements if sql != "PRAGMA quick_check"), read[0]


def test_resuming_a_night_ten_times_longer_reads_no_more(tmp_path, monkeypatch):
    """Opening the journal (its sealed ballots' pads scrubbed) and resuming a night from
    its snapshot read what changed since the last opening and the actions after the
    snapshot, never every action or ballot: a night ten times longer costs the same."""
    work = {}
    for count in (600, 6_000):
        path = tmp_path / f"{count}.sqlite"
        kd_journal(path, count)
        Journal(path).close()  # the opening after the night's end: it may scrub
        work[count] = resume_work(path, monkeypatch)
    (steps, read), (long_steps, long_read) = work[600], work[6_000]
    assert long_steps <= 1.2 * steps + 20, work
    # the pads of the ballots replayed after the snapshot (fewer than 2 x EVERY actions)
    assert read <= 2 * EVERY * seal.BLOCK and long_read <= 2 * EVERY * seal.BLOCK, work


class Pickles:
    """The state's pickling, seen: when each snapshot was made (``time.monotonic``)."""

    def __init__(self, monkeypatch) -> None:
        self.made: list[float] = []
        self.one = threading.Event()
        dump = snapshots.dump

        def timed(state):
            self.made.append(time.monotonic())
            self.one.set()
            return dump(state)

        monkeypatch.setattr(snapshots, "dump", timed)


def test_a_snapshot_waits_for_the_table_to_be_quiet(journal, monkeypatch):
    """Pickling a long night's state holds every thread (the lights' too), so a snapshot
    due is made only once no action has come for ``SNAPSHOT_QUIET_S``: never while the
    players keep pressing, then without being asked again."""
    monkeypatch.setattr(journal_module, "SNAPSHOT_QUIET_S", 0.2)
    pickles = Pickles(monkeypatch)
    session, _ = played(journal, "koryo", EVERY - 1)
    actions = GAMES["koryo"][2](EVERY + 20)
    last = 0.0
    for action, private in actions[EVERY - 1:EVERY + 10]:  # a snapshot due at the first
        last = time.monotonic()
        session.dispatch(action, private)
        assert not pickles.made, "made while actions kept coming"
        time.sleep(0.05)  # a quick table: a press every 50 ms
    assert pickles.one.wait(5), "never made once the table was quiet"
    assert pickles.made[0] - last >= 0.2
    journal.snapshots_written()
    assert snapshot_rows(journal, session.game_id) == [EVERY]


@pytest.mark.parametrize("how", ["snapshots_written", "close"])
def test_a_snapshot_wanted_at_once_skips_the_quiet_spell(journal, monkeypatch, how):
    """``snapshots_written`` (tests, benches) and ``close`` write what is due at once."""
    monkeypatch.setattr(journal_module, "SNAPSHOT_QUIET_S", 3600.0)
    pickles = Pickles(monkeypatch)
    session, _ = played(journal, "koryo", EVERY - 1)
    action, private = GAMES["koryo"][2](EVERY)[EVERY - 1]
    session.dispatch(action, private)  # a snapshot due
    wanted = threading.Thread(target=getattr(journal, how))
    wanted.start()
    wanted.join(timeout=30)
    assert not wanted.is_alive(), f"{how} waited for the quiet spell"
    assert len(pickles.made) == 1
