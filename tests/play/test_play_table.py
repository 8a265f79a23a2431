"""The headless Table (``companion.play.table``): whole games of every kind played through
it with no pygame in the process; seat events from other threads queued, bounded, handled
in order by ``drain``; a write that fails changes nothing and is said."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import table_games

from companion.games.inheritors.controller import SheetController
from companion.games.majority.controller import MajorityController
from companion.play import table as table_module
from companion.play.seat import ButtonEvent, Light
from companion.storage.journal import StorageError

TESTS = Path(__file__).parents[1]


def test_a_game_of_each_kind_is_played_through_the_table_without_pygame(tmp_path):
    """Koryŏ, Chosŏn, Inheritors and a King's Dilemma night (an open vote, a tie, a secret
    vote) at one Table, in a process of its own: every game ends in the history with its
    winners, none is left unfinished, and pygame was never imported."""
    # the parsed data files' cache where conftest.py keeps this run's, never ~/.cache
    env = {"PYTHONPATH": str(TESTS), "PATH": "/usr/bin:/bin", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]}
    done = subprocess.run([sys.executable, str(TESTS / "table_games.py"), str(tmp_path)],
                          check=False, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["pygame"] is False
    assert out["history"] == [["koryo", out["koryo"]["winners"]],
                              ["choson", out["choson"]["winners"]],
                              ["inheritors", ["Dan"]], ["kings-dilemma", ["Frances"]]]
    assert out["unfinished"] == 0
    for game in ("koryo", "choson"):  # steps made on the pads, refusals among them
        assert out[game]["steps"] > 20 and out[game]["refused"] > 0


def test_presses_from_a_backend_thread_wait_in_order_for_the_loop(tmp_path):
    """Presses made on another thread are only queued (nothing reaches the game there);
    ``drain`` on the loop's thread hands them to the game in order and the lights follow."""
    table, view = table_games.open_table(tmp_path)
    woken = threading.Event()
    table.start(woken.set)
    control = MajorityController.new("koryo", table_games.FOUR, table.journal)
    table.play(control)
    first = control.seat_of(control.acting())  # Ben starts the round with A
    thread = threading.Thread(target=lambda: [table.backend.press(s, "a") for s in (3, first)])
    thread.start()
    thread.join()
    assert woken.is_set() and table.pending() and view.answers == []
    assert control.view()["phase"] == "setup"
    assert table.drain() == 2
    assert [(e.seat, r.did) for e, r in view.answers] == [(3, "not-your-turn"), (first, "stepped")]
    assert control.view()["phase"] != "setup"
    assert table_games.lights_of(table) == table_games.wanted(table, control)


def test_a_flood_is_bounded_logged_once_and_the_next_press_gets_through(tmp_path, caplog):
    table, view = table_games.open_table(tmp_path)
    table.play(table_games.kd_night(table))
    flood = [ButtonEvent(1 + i % 4, "a") for i in range(table_module.SEAT_QUEUE_MAX + 100)]
    with caplog.at_level("WARNING", logger="companion.play.table"):
        for event in flood:
            table.post_button(event)
        assert table.drain() == table_module.SEAT_QUEUE_MAX
    assert [r.getMessage() for r in caplog.records] == [
        (f"seat events: {table_module.SEAT_QUEUE_MAX} waiting for the screen, dropping the "
         "next ones"), "seat events: 100 dropped while the screen was busy"]
    assert len(view.answers) == table_module.SEAT_QUEUE_MAX
    table_games.press(table, 0, "c")
    assert view.answers[-1][0] == ButtonEvent(0, "c")


def test_a_press_whose_write_fails_changes_nothing_and_is_said(tmp_path, caplog):
    """The disk is full: the press is refused whole (the session, the journal and the lights
    as before), the failure is the Table's ``save_failure`` until a write succeeds."""
    table, view = table_games.open_table(tmp_path)
    control = MajorityController.new("koryo", table_games.FOUR, table.journal)
    table.play(control)
    seat = control.seat_of(control.acting())
    before, lights = control.session.length, table_games.lights_of(table)
    table.journal._db.execute("PRAGMA query_only = ON")  # every write now fails
    table_games.press(table, seat, "a")
    assert control.session.length == before and control.view()["phase"] == "setup"
    assert table_games.lights_of(table) == lights
    assert table.save_failure is not None and view.answers == []
    assert "press refused" in caplog.text
    table.journal._db.execute("PRAGMA query_only = OFF")
    table_games.press(table, seat, "a")
    assert control.view()["phase"] != "setup" and table.save_failure is None
    assert table_games.lights_of(table) == table_games.wanted(table, control)


def test_a_game_end_whose_write_fails_finishes_nothing_and_keeps_the_row_once(tmp_path):
    """The Table alone writes the history: the history's disk full, ending the game keeps
    no row and leaves it unfinished; the journal's disk full after the row was kept, the
    next try finishes it without keeping the row a second time."""
    table, view = table_games.open_table(tmp_path)
    sheet = table_games.count_inheritors(table, view)
    table.history._db.execute("PRAGMA query_only = ON")  # the history's writes fail
    with pytest.raises(StorageError):
        table.end_game(sheet)
    assert table.history.count() == 0 and len(table.unfinished()) == 1 and not sheet.saved
    table.history._db.execute("PRAGMA query_only = OFF")
    table.journal._db.execute("PRAGMA query_only = ON")  # now the journal's fail
    with pytest.raises(StorageError):
        table.end_game(sheet)
    assert table.history.count() == 1 and len(table.unfinished()) == 1 and not sheet.saved
    table.journal._db.execute("PRAGMA query_only = OFF")
    played = table.end_game(sheet)
    assert table.history.count() == 1 and table.unfinished() == [] and sheet.saved
    assert table.history.games() == [played]
    assert table.end_game(sheet) == played and table.history.count() == 1  # once


def test_between_games_every_seat_is_dark_and_a_press_reaches_no_game(tmp_path):
    table, view = table_games.open_table(tmp_path)
    for seat in range(table.seats):
        table.backend.set_light(seat, Light.YOUR_TURN)
    table.play(None)
    assert table_games.lights_of(table) == [Light.OFF] * table.seats
    table_games.press(table, 2, "a")
    assert view.answers == []


def test_a_phone_is_a_seat_of_the_headless_table(tmp_path):
    """Phones as pads (``PhoneSeats``, its server on loopback) at a Table with no screen: a
    phone's press reaches the game through the Table's queue like a wired pad's, the phone
    gets its seat's light and its plate (whose turn, what to do) from the Table, and a
    secret ballot it enters is shown to that phone alone."""
    import asyncio
    from types import SimpleNamespace

    from phone_rig import LIMIT_S, HandPhone

    from companion.config import SHIPPED_CONFIG, load_config
    from companion.hardware.sim import SimBackend
    from companion.i18n import load_catalog
    from companion.phones.seats import PhoneSeats
    from companion.play.table import Table
    from companion.storage.journal import Journal

    config = load_config(SHIPPED_CONFIG)
    seats = tuple(config.seats) + (config.seats[0],)  # five seats, as the night needs
    backend = PhoneSeats(SimBackend(5), seats, load_catalog("en"), host="127.0.0.1",
                         port=0, address="127.0.0.1")
    table = Table(backend, 5, journal=Journal(tmp_path / "journal.db"))
    woken = threading.Event()
    table.start(woken.set)
    night = table_games.kd_night(table)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    rig = SimpleNamespace(port=backend.server.port, backend=backend,
                          origin=f"http://127.0.0.1:{backend.server.port}")

    def run(coroutine):
        """``coroutine`` on the phones' loop, the Table's queue drained until it is done."""
        done = asyncio.run_coroutine_threadsafe(coroutine, loop)
        done.add_done_callback(lambda _: woken.set())
        while not done.done():
            assert woken.wait(LIMIT_S), "the phone never got there"
            woken.clear()
            table.drain()
        table.drain()
        return done.result()

    async def connect():
        import aiohttp

        session = aiohttp.ClientSession()
        return session, await HandPhone.open(session, rig, 0, "theodores-phone")

    try:
        session, phone = run(connect())
        run(phone.until(lambda m: m["t"] == "view" and m["your_turn"]))  # the Leader reads
        table.act(night.session.dispatch, {"action": "dilemma", "mode": "secret"})
        run(phone.press("a"))  # Aye, pending: a secret press, nothing public changes
        private = run(phone.next("private"))["private"]
        assert private["choice"] == "aye" and private["ballot"]
        assert all(set(s) == {"locked"} for s in night.view()["vote"]["seats"].values())
        run(phone.press("a", "long"))  # locked
        run(phone.until(lambda m: m["t"] == "light" and m["light"] == "ballot-locked"))
        assert table.backend.light(0) is Light.BALLOT_LOCKED
        assert night.view()["vote"]["seats"]["Theodore"] == {"locked": True}
        run(session.close())
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(LIMIT_S)
        backend.close()
        table.close()


def test_a_game_ended_again_after_a_cut_between_its_row_and_its_finish_keeps_one_row(
        tmp_path):
    """The real files: the row kept and on disk, the journal's finish not (its write
    fails), everything closed as a power cut leaves it; the kiosk opened again resumes the
    count at its end and ending it again keeps no second row: the first one's, finished."""
    table, view = table_games.open_table(tmp_path)
    sheet = table_games.count_inheritors(table, view)
    table.journal._db.execute("PRAGMA query_only = ON")  # the journal's finish fails
    with pytest.raises(StorageError):
        table.end_game(sheet)
    ((number, kept),) = table.history.numbered()
    game_id = sheet.session.game_id
    table.close()
    again, _view = table_games.open_table(tmp_path)  # the kiosk restarted on the same files
    try:
        assert [g.id for g in again.unfinished()] == [game_id]
        resumed = SheetController.resume(again.journal, game_id)
        again.play(resumed)
        played = again.end_game(resumed)
        assert [n for n, _ in again.history.numbered()] == [number]
        assert again.unfinished() == [] and resumed.saved
        assert played.players == kept.players and played.winners == kept.winners
    finally:
        again.close()
