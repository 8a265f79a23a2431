"""`companion kingdom FILE [--json]`: a King's Dilemma outcome applied to the kingdom tracks."""

from __future__ import annotations

import argparse
import json

from companion.files import yamlsrc
from companion.files.safetext import terminal_safe
from companion.files.validate import mapping
from companion.games.kings_dilemma import kingdom_file as kd_kingdom
from companion.play.errors import RuleError

EXAMPLES = """\
example:
  companion kingdom docs/examples/kingdom.yaml
Exit status 0; 2 with a line naming the file, the line and the field of a mistake."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="the kingdom file (YAML): the tracks and the outcomes to "
                                "apply; its format: docs/table-files.md")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


def run(args: argparse.Namespace) -> int:
    doc = yamlsrc.load(args.file, "a table file")
    try:
        result = kd_kingdom.kingdom(mapping(doc.data, ""))
    except RuleError as exc:
        raise doc.error(exc.field, exc.message) from None
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(terminal_safe(kd_kingdom.render(result)))
    return 0
