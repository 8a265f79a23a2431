"""`companion run`: the kiosk. Seats per the configuration, Home first (or the unfinished
game the journal kept), the journal and the history in the configuration's data_dir.

Stopping: systemd stops the service with SIGTERM, a terminal with Ctrl-C (SIGINT). Both
must end the loop while it sleeps, where a Python signal handler would not run until the
next event (seen in ``pygame.event.wait``). So both signals are left to SDL: with their default
disposition when the display opens, SDL installs its own handlers, which post a QUIT
event; the loop wakes, ends, and "closed" is logged. "ready" is logged once the first
frame is drawn (tests and the start-up benchmark wait for that line), and systemd is told
then (``READY=1``, companion/system/sdnotify.py) when it asked to be.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import signal
import sys
from pathlib import Path

from companion.config import default_config_path, load_config
from companion.files.validate import count_argument
from companion.files.yamlsrc import SourceError, keep_shipped_in
from companion.play.errors import RuleError
from companion.storage import runlock
from companion.system import paths, realtime
from companion.system.logfile import KioskLogFile
from companion.system.sdnotify import Notifier

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JOURNAL_FILE = "journal.sqlite"  # in the configuration's data_dir, beside the history
# The display could not be opened: not a configuration error, so the kiosk unit restarts it
# (a screen's driver may come up after the unit at boot).
DISPLAY_ERROR = 1


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config",
        type=Path,
        help="configuration file (YAML); default: $COMPANION_CONFIG, else "
        "~/.config/companion/config.yaml if it exists, else the shipped default (simulator)",
    )
    p.add_argument(
        "--seats", type=count_argument, metavar="N", help="use only the first N seats of the configuration"
    )


def _log_to(handler: logging.Handler, logger: logging.Logger) -> logging.Handler:
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    logger.addHandler(handler)
    return handler


def display_failure(sdl_says: str) -> str:
    """SDL's reason, and where to look on the console, where SDL's only reason is
    "kmsdrm not available" whatever went wrong."""
    if "kmsdrm" not in os.environ.get("SDL_VIDEODRIVER", "").lower():
        return sdl_says
    return (
        f"{sdl_says}: SDL draws on the console through /dev/dri; it needs a screen connected "
        "and on, the KMS driver (dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, Raspberry "
        "Pi OS's default), the account in the video and render groups, and Mesa's libraries "
        "(libgbm1 libegl1 libgles2 libgl1-mesa-dri)"
    )


# SDL's video drivers that draw into memory: the kiosk runs, and nothing is on any screen.
INVISIBLE_DRIVERS = ("offscreen", "dummy")


def invisible_display(driver: str) -> str | None:
    """What to say when SDL's ``driver`` shows nothing: SDL falls back to its offscreen
    driver when it finds no display at all (no ``$DISPLAY`` or ``$WAYLAND_DISPLAY``, and
    no console screen it may open), and the kiosk would otherwise look ready. Nothing
    when ``$SDL_VIDEODRIVER`` asked for it (the tests, the demo's screenshots)."""
    if driver.lower() not in INVISIBLE_DRIVERS:
        return None
    if driver.lower() in os.environ.get("SDL_VIDEODRIVER", "").lower().split(","):
        return None
    return (
        f"display: NOTHING IS VISIBLE: SDL found no screen and draws into memory (its {driver} "
        "driver). No desktop session here ($DISPLAY and $WAYLAND_DISPLAY unset) and the "
        "console's screen could not be opened. Start it from the desktop, or on the Pi's "
        "own console (tty1, with SDL_VIDEODRIVER=kmsdrm), or install the kiosk unit "
        "(systemd/README.md)"
    )


def run(args: argparse.Namespace) -> int:
    logger = logging.getLogger("companion")
    logger.setLevel(logging.INFO)
    logging.raiseExceptions = False  # a log record that can't be written is dropped quietly
    os.umask(0o077)  # whatever the kiosk creates is its account's only
    handlers = [_log_to(logging.StreamHandler(sys.stderr), logger)]
    try:
        return _run(args, logger, handlers)
    finally:
        for handler in handlers:
            logger.removeHandler(handler)
            try:
                handler.close()
            except OSError:  # stderr gone: nothing left to tell
                pass


def open_history(app, data_dir: Path) -> None:
    """The finished games' history, opened once Home's first frame is shown: its module and
    its database (a few ms, more at a first boot) are nothing Home draws. A history that
    can't be opened (disk full, read-only) or was moved aside is told on Home, as the
    journal's is; the kiosk plays on without keeping results."""
    from companion.storage.history import History
    from companion.storage.history import default_path as history_path
    from companion.storage.journal import StorageError

    told = len(app.notices)
    log = logging.getLogger("companion")  # as the rest of the kiosk's start
    try:
        # a game's row fsynced off the loop's thread, as the journal's commits are
        app.history = History(data_dir / history_path().name, background_sync=True)
    except StorageError as exc:
        log.error("the history can't be opened: %s", exc)
        app.warnings.append(("notice.history", str(exc)))
    else:
        log.info("history: %s", app.history.path)
    if len(app.notices) > told and app.screen.name == "home":  # its band is laid out by build()
        app.screen.build()
        app.invalidate()


def _run(args: argparse.Namespace, logger: logging.Logger, handlers: list) -> int:
    path = args.config or default_config_path()
    # Its parsed copy is kept in the default data directory, where the kiosk's service may
    # write (its own data_dir is only known once it is read): a start without PyYAML.
    try:
        kept_in = paths.data_dir()
    except SourceError:
        kept_in = None
    keep_shipped_in(kept_in)  # the wiring profile's copy too, as the configuration checks it
    config = load_config(path, kept_in)  # kept only where the directory exists
    if args.seats is not None:
        if not 2 <= args.seats <= len(config.seats):
            raise RuleError(
                "--seats", f"{args.seats}: from 2 to the {len(config.seats)} seats of {path}",
                code="seats_option",
                params={"n": args.seats, "seats": len(config.seats), "path": str(path)},
            )
        config = dataclasses.replace(config, seats=config.seats[: args.seats])
    try:
        config.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise RuleError("data_dir", f"{config.data_dir}: cannot create it ({exc.strerror})",
                        code="data_dir_create",
                        params={"path": str(config.data_dir), "error": str(exc.strerror)}) \
            from None
    # Parsed catalogs are kept beside the journal: the kiosk's service may write nowhere else.
    keep_shipped_in(config.data_dir)
    lock = runlock.acquire(config.data_dir)  # before anything is opened: one kiosk per data
    handlers.append(_log_to(KioskLogFile(config.data_dir / "companion.log"), logger))
    logger.info(
        "configuration %s: %d seats, backend %s", path, len(config.seats), config.hardware.backend
    )
    # Before any thread starts: the backend's and the journal's inherit the policy.
    logger.info("scheduling: %s", realtime.request())

    # The kiosk's modules, loaded on use (pygame after the variable it reads is set; the
    # other commands and `companion --help` don't load them: start-up).
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from companion.hardware.factory import open_backend
    from companion.play import lights as seat_lights
    from companion.storage.journal import Journal, JournalError
    from companion.ui.app import make_app, wants_fullscreen
    from companion.ui.home import HomeScreen, resume_unfinished

    # A journal that can't be opened (disk full, read-only) is left as it is and retried
    # at each action: the kiosk comes up and says so. Only what can't be started at all
    # (the directory itself) stops it.
    try:
        # the commits' fsync off the loop's thread, the lights after it (companion.storage.committer)
        journal = Journal(config.data_dir / JOURNAL_FILE, background_sync=True)
    except JournalError as exc:
        raise RuleError("data_dir", str(exc), code="data_dir", params={"error": str(exc)}) from None
    backend, notice = open_backend(config)
    # SDL turns SIGTERM and SIGINT into QUIT only where they have their default handling.
    os.environ.pop("SDL_NO_SIGNAL_HANDLERS", None)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    app = None
    try:
        fullscreen = wants_fullscreen(config.display.fullscreen)
        try:
            app = make_app(
                config,
                backend,
                notice=notice,
                fullscreen=fullscreen,
                journal=journal,
                checks_texts=False,  # the tests' and the demo's measures: not at the table
            )
        except pygame.error as exc:
            logger.error("the display can't be opened: %s", display_failure(str(exc)))
            return DISPLAY_ERROR
        width, height = app.window.get_size()
        if config.display.width is not None:
            source = "configured"
        else:
            source = "the display's own size" if fullscreen else "default"
        mode = "fullscreen" if fullscreen else "window"
        logger.info(
            "display: %dx%d %s (%s), rotation %d",
            width, height, mode, source, config.display.rotation,
        )
        if unseen := invisible_display(pygame.display.get_driver()):
            logger.warning("%s", unseen)
        if journal.lost:  # told, and not resumed silently on less: Home offers it
            app.warnings.append(("notice.lost", journal.path.name))
        app.start_backend()
        try:
            resumed = None if journal.lost else resume_unfinished(app)
        except Exception as exc:  # the kiosk must come up even if an old game can't replay
            logger.exception("the unfinished game could not be resumed")
            app.warnings.append(("notice.resume", str(exc)))
            resumed = None
        app.push(HomeScreen(app))
        if resumed is not None:
            app.push(resumed)
        app.render_if_dirty()
        logger.info("lights: %s", seat_lights.shown(backend, len(app.seats)))
        logger.info("ready: %s", app.screen.describe())
        # systemd's Type=notify and WatchdogSec= (the console unit; no-op elsewhere): up
        # now that the first frame is shown, kept alive by the loop from here on
        app.notifier = notifier = Notifier.from_env()
        notifier.ready()
        if notifier.active and notifier.period_s:
            logger.info("systemd watchdog: %g s, kept alive by the loop", notifier.period_s)
        journal.make_wal_ready()  # the first press then costs one sync (after the frame)
        open_history(app, config.data_dir)  # after the frame too, before the first press
        app.run()
    finally:
        journal.wait_durable()  # the last press's light reaches its seat before it closes
        backend.close()
        pygame.quit()
        journal.close()
        if app is not None and app.history is not None:
            app.history.close()
        lock.release()
    logger.info("closed")
    return 0
