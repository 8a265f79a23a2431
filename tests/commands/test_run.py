"""`companion run`, the real command in a subprocess under SDL's dummy video driver (issue
#2 sections 1 and 5): on a desktop without GPIO a gpio configuration falls back to the
simulator and says so in the log; Home is shown; SIGTERM (how systemd stops the service)
and SIGINT (Ctrl-C) end it cleanly with exit 0 and "closed" logged; an unfinished game of
the journal is resumed at start; a bad configuration exits 2 naming file, line and field.

Readiness is the "ready" log line, awaited by reading stderr, never by sleeping."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from kiosk_process import CONFIG, LIMIT_S, env, write_config

from companion.games.registry import rules_for
from companion.play.session import Session
from companion.storage.journal import Journal


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_gpio_without_gpio_falls_back_shows_home_and_stops_cleanly(tmp_path, kiosk, signum):
    """No GPIO here: the fallback notice is logged, Home is drawn ("ready" after the first
    frame), and the signal ends the loop asleep in event.wait: exit 0, "closed" logged."""
    k = kiosk(write_config(tmp_path, "gpio"))
    ready = k.await_line("ready")
    assert "Using the keyboard simulator instead" in "\n".join(k.lines)
    assert "Choose a game" in ready and "Table check" in ready  # Home
    assert k.stop(signum) == 0
    assert "closed" in k.lines[-1]
    assert not any("Traceback" in line for line in k.lines)
    log = (tmp_path / "data" / "companion.log").read_text(encoding="utf-8")
    assert "keyboard simulator" in log and "closed" in log
    assert (tmp_path / "data" / "journal.sqlite").is_file()
    assert (tmp_path / "data" / "companion.db").is_file()


def test_unfinished_game_in_the_journal_is_resumed_at_start(tmp_path, kiosk):
    """A Koryŏ game left unfinished (power cut) is on screen at start, not Home."""
    config = write_config(tmp_path, "sim")
    (tmp_path / "data").mkdir()
    with Journal(tmp_path / "data" / "journal.sqlite") as journal:
        setup = {"players": ["Ana", "Ben"], "seats": [0, 1], "first_player": "Ana"}
        session = Session.start(journal, rules_for("koryo"), setup)
        game_id = session.game_id
    k = kiosk(config)
    ready = k.await_line("ready")
    assert f"resumed game {game_id} (koryo)" in "\n".join(k.lines)
    assert "Choose a game" not in ready
    assert k.stop(signal.SIGTERM) == 0


def test_corrupt_journal_is_moved_aside_and_said(tmp_path, kiosk):
    """An unreadable journal database is moved aside, logged, and the kiosk still comes up."""
    config = write_config(tmp_path, "sim")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "journal.sqlite").write_bytes(b"not a database at all" * 100)
    k = kiosk(config)
    k.await_line("ready")
    text = "\n".join(k.lines)
    assert "journal.sqlite could not be used" in text
    assert k.stop(signal.SIGTERM) == 0
    assert any(
        p.name.startswith("journal.sqlite") and p.name != "journal.sqlite"
        for p in (tmp_path / "data").iterdir()
    )


def test_configuration_error_exits_2_with_file_line_field(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text(CONFIG.format(backend="gpoi", language="en"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--config", str(path)],
        capture_output=True,
        check=False,
        text=True,
        env=env(),
        timeout=LIMIT_S,
    )
    assert done.returncode == 2
    assert f"{path}:6: hardware.backend:" in done.stderr
    assert "Traceback" not in done.stderr


def test_seats_option_out_of_range_exits_2(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--config",
            str(write_config(tmp_path)),
            "--seats",
            "5",
        ],
        capture_output=True,
        check=False,
        text=True,
        env=env(),
        timeout=LIMIT_S,
    )
    assert done.returncode == 2
    assert "--seats: 5: from 2 to the 2 seats" in done.stderr


def test_corrupt_history_is_moved_aside_and_said_once_home_is_up(tmp_path, kiosk):
    """The history is opened after Home's first frame: an unreadable one is still moved
    aside and said (logged once the kiosk is ready), and the kiosk plays on."""
    config = write_config(tmp_path, "sim")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "companion.db").write_bytes(b"not a database at all" * 100)
    k = kiosk(config)
    k.await_line("ready")
    k.await_line("companion.db could not be used")
    assert k.stop(signal.SIGTERM) == 0
    assert "closed" in k.lines[-1]
    assert any(p.name.startswith("companion.db.") for p in (tmp_path / "data").iterdir())


def notice_band(app) -> str:
    """The text drawn in Home's notice band, as the last frame drew it."""
    home = app.screen
    return " ".join(box.text for box in app.painter.texts if home.notice_rect.contains(box.rect))


def test_home_shows_the_history_notice_once_the_history_is_open(tmp_path, app):
    """Home's first frame is drawn before the history is open (``open_history``); a history
    moved aside then appears in Home's notice band, a sound one adds nothing."""
    from companion.commands.run import open_history
    from companion.ui.home import HomeScreen

    app.push(HomeScreen(app))
    app.render_if_dirty()
    assert app.history is None and notice_band(app) == ""
    (tmp_path / "data" / "companion.db").write_bytes(b"not a database at all" * 100)
    open_history(app, tmp_path / "data")
    assert app.history is not None
    app.render_if_dirty()
    t = app.catalog.text
    assert t("notice.line", title=t("notice.history"), detail=app.history.notice) \
        in notice_band(app)
    app.history.close()


def test_a_sound_history_opens_without_a_notice(tmp_path, app):
    from companion.commands.run import open_history
    from companion.ui.home import HomeScreen

    app.push(HomeScreen(app))
    app.render_if_dirty()
    open_history(app, tmp_path / "data")
    assert app.history is not None and app.history.notice is None
    assert app.notices == [] and notice_band(app) == ""
    app.history.close()
