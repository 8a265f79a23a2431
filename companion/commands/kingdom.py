"""`companion kingdom FILE [--json]`: a King's Dilemma outcome applied to the kingdom tracks."""

from __future__ import annotations

import argparse
import json

from companion import yamlsrc
from companion.engine.errors import RuleError
from companion.safetext import terminal_safe
from companion.tables import kd_kingdom
from companion.validate import mapping


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="kingdom file (YAML): tracks and outcomes (docs/table-files.md)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")


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
