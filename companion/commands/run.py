"""`companion run`: the kiosk. Seats per the configuration, the "Table check" screen first."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
from pathlib import Path

from companion.config import default_config_path, load_config
from companion.engine.errors import RuleError

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


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

    import pygame

    from companion.hardware.factory import open_backend
    from companion.ui.app import make_app, wants_fullscreen
    from companion.ui.table_check import TableCheckScreen

    backend, notice = open_backend(config)
    try:
        fullscreen = wants_fullscreen(config.display.fullscreen)
        app = make_app(config, backend, notice=notice, fullscreen=fullscreen)
        app.push(TableCheckScreen(app))
        app.start_backend()
        app.run()
    finally:
        backend.close()
        pygame.quit()
    logger.info("closed")
    return 0
