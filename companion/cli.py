"""`companion` command line: one sub-command per module in ``companion.commands``."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys

from companion.files.safetext import one_line
from companion.files.yamlsrc import SourceError
from companion.play.errors import RuleError

# What `companion --help` tells a user (the module docstring above is for developers).
DESCRIPTION = """\
The table companion: the bookkeeping of Koryŏ, Chosŏn, Inheritors and The King's
Dilemma at the table (touchscreen and seat pads), and the same rules without the table,
on YAML table files."""
EPILOG = """\
Start with `companion run` at the table, or `companion score FILE` from a laptop.
`companion COMMAND --help` tells the options of a command. The table files are described,
with an example of each, in docs/table-files.md; the configuration in README.md."""

# name -> (module under companion.commands, one-line help). Each module has
# ``add_arguments(parser)`` and ``run(args) -> int``; only the sub-command given is
# imported (``build_parser``), so ``companion score`` never pays for pygame and
# ``companion run`` never for the King's Dilemma tables.
COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("score", ("score a game at its end from its table file: each player's total and "
                       "its breakdown (Koryŏ, Chosŏn, Inheritors, The King's Dilemma)")),
    "check-config": ("check_config", ("check a configuration file and the wiring profile it "
                                     "names: every mistake on a line of its own")),
    "run": ("run", "start the table companion (touchscreen kiosk and seat pads)"),
    "demo": ("demo", ("play a scripted session without a screen: a PNG of every screen shown "
                     "and a transcript")),
    "vote": ("vote", "resolve one King's Dilemma vote (open or secret) from its vote file"),
    "kingdom": ("kingdom", "apply King's Dilemma outcomes to the kingdom tracks"),
    "export": ("export", "write the game history as CSV or JSON, or as BG Stats import links"),
    "import": ("import_", "add the games of an export (CSV or JSON) to the history"),
    "install-service": ("install_service", "install the kiosk as a systemd unit started at boot"),
    "report": ("report", "write the history and the campaign as one HTML page with charts"),
    "wiring": ("wiring", "draw the wiring of a wiring profile as an SVG (pins, buttons, lights)"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line. With ``only``, that sub-command alone (its module imported: the
    others cost imports, and argparse looks up its translations for every sub-parser);
    else every sub-command, but modules imported only when ``only`` is None (``""``:
    their names and help, for ``companion --help`` and a mistyped command)."""
    parser = argparse.ArgumentParser(
        prog="companion", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, help_text) in COMMANDS.items():
        if only and name != only:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if only is None or name == only:
            # A command's module is loaded only when its parser is needed (start-up).
            mod = importlib.import_module(f"companion.commands.{module}")
            mod.add_arguments(p)
            p.epilog = getattr(mod, "EXAMPLES", None)  # what a user types, and what follows
            p.set_defaults(_module=mod)
    return parser


def command_of(argv: list[str]) -> str:
    """The sub-command ``argv`` names ("" if none: argparse then says what is wrong)."""
    first = next((arg for arg in argv if not arg.startswith("-")), "")
    return first if first in COMMANDS else ""


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a non-UTF-8 terminal gets \u014f, not a crash
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    if argv is None:
        argv = sys.argv[1:]
    args = build_parser(command_of(argv)).parse_args(argv)
    try:
        return int(args._module.run(args) or 0)
    except (SourceError, RuleError) as exc:
        # One short line per mistake, whatever names or keys the file put in the message.
        for message in exc.messages if isinstance(exc, SourceError) else [str(exc)]:
            print(f"companion {args.command}: {one_line(message)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `companion score FILE | head -1`: the reader left; stop quietly
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports it


if __name__ == "__main__":
    sys.exit(main())
