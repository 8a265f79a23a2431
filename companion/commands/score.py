"""`companion score FILE [--json]`: final scoring of a table file."""

from __future__ import annotations

import argparse
import importlib
import json

from companion.files import yamlsrc
from companion.files.safetext import shown, terminal_safe
from companion.files.validate import mapping
from companion.play.errors import RuleError

EXAMPLES = """\
example:
  companion score docs/examples/koryo.yaml     (also choson.yaml, inheritors.yaml,
                                               kings-dilemma.yaml)
Exit status 0; 2 with a line naming the file, the line and the field of a mistake."""

# game key in the file -> the module of its table file, with score(data) and render(result)
GAMES: dict[str, str] = {
    "koryo": "companion.games.koryo.table_file",
    "choson": "companion.games.choson.table_file",
    "inheritors": "companion.games.inheritors.table_file",
    "kings-dilemma": "companion.games.kings_dilemma.score_file",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="the table file (YAML) of a game at its end: what lies on "
                                "the table; its format: docs/table-files.md")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


def run(args: argparse.Namespace) -> int:
    doc = yamlsrc.load(args.file, "a table file")
    try:
        data = mapping(doc.data, "")
        game = data.get("game")
        known = ", ".join(sorted(GAMES))
        if "game" not in data:
            raise RuleError("game", f"missing (one of {known})",
                            code="game_missing", params={"games": known})
        if not isinstance(game, str) or game not in GAMES:
            raise RuleError("game", f"{shown(game)} is not a game this command scores ({known})",
                            code="not_scored_here", params={"game": shown(game), "games": known})
        # Only the file's game's reader and engine are loaded (start-up).
        module = importlib.import_module(GAMES[game])
        result = module.score(data)
    except RuleError as exc:
        raise doc.error(exc.field, exc.message) from None
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(terminal_safe(module.render(result)))
    return 0
