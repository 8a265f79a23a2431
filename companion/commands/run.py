"""`companion run`: the kiosk. Seats per the configuration, Home first (or the unfinished
game the journal kept), the journal and the history in the configuration's data_dir.

Stopping: systemd stops the service with SIGTERM, a terminal with Ctrl-C (SIGINT). Both
must end the loop while it sleeps, where a Python signal handler would not run until the
next event (seen in ``pygame.event.wait``). So both signals are left to SDL: with their default
disposition when the display opens, SDL installs its own handlers, which post a QUIT
event; the loop wakes, ends, and "closed" is logged. "ready" is logged once the first
frame is drawn (tests and the start-up benchmark wait for that line).
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
from companion.engine.errors import RuleError

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JOURNAL_FILE = "journal.sqlite"  # in the configuration's data_dir, beside the history


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config",
        type=Path,
        help="configuration file (YAML); default: $COMPANION_CONFIG, else "
        "~/.config/companion/config.yaml if it exists, else the shipped default (simulator)",
    )
    p.add_argument(
        "--seats", type=int, metavar="N", help="use only the first N seats of the configuration"
    )


def _log_to(handler: logging.Handler, logger: logging.Logger) -> logging.Handler:
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    logger.addHandler(handler)
    return handler


def run(args: argparse.Namespace) -> int:
    logger = logging.getLogger("companion")
    logger.setLevel(logging.INFO)
    handlers = [_log_to(logging.StreamHandler(sys.stderr), logger)]
    try:
        return _run(args, logger, handlers)
    finally:
        for handler in handlers:
            logger.removeHandler(handler)
            handler.close()


def _run(args: argparse.Namespace, logger: logging.Logger, handlers: list) -> int:
    path = args.config or default_config_path()
    config = load_config(path)
    if args.seats is not None:
        if not 2 <= args.seats <= len(config.seats):
            raise RuleError(
                "--seats", f"{args.seats}: from 2 to the {len(config.seats)} seats of {path}"
            )
        config = dataclasses.replace(config, seats=config.seats[: args.seats])
    try:
        config.data_dir.mkdir(parents=True, exist_ok=True)
        handlers.append(_log_to(logging.FileHandler(config.data_dir / "companion.log"), logger))
    except OSError as exc:
        logger.warning("no log file in %s: %s", config.data_dir, exc.strerror)
    logger.info(
        "configuration %s: %d seats, backend %s", path, len(config.seats), config.hardware.backend
    )

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from companion.hardware.factory import open_backend
    from companion.history import History
    from companion.history import default_path as history_path
    from companion.journal import Journal, JournalError
    from companion.ui.app import make_app, wants_fullscreen
    from companion.ui.home import HomeScreen, resume_unfinished

    try:
        journal = Journal(config.data_dir / JOURNAL_FILE)
        history = History(config.data_dir / history_path().name)
    except JournalError as exc:
        raise RuleError("data_dir", str(exc)) from None
    backend, notice = open_backend(config)
    # SDL turns SIGTERM and SIGINT into QUIT only where they have their default handling.
    os.environ.pop("SDL_NO_SIGNAL_HANDLERS", None)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        fullscreen = wants_fullscreen(config.display.fullscreen)
        app = make_app(
            config, backend, notice=notice, fullscreen=fullscreen, journal=journal, history=history
        )
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
        app.start_backend()
        try:
            resumed = resume_unfinished(app)
        except Exception as exc:  # the kiosk must come up even if an old game can't replay
            logger.exception("the unfinished game could not be resumed")
            app.warnings.append(("notice.resume", str(exc)))
            resumed = None
        app.push(HomeScreen(app))
        if resumed is not None:
            app.push(resumed)
        app.render_if_dirty()
        logger.info("ready: %s", app.screen.describe())
        app.run()
    finally:
        backend.close()
        pygame.quit()
        journal.close()
        history.close()
    logger.info("closed")
    return 0
