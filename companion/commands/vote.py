"""`companion vote FILE [--json]`: one King's Dilemma vote, replayed and resolved."""

from __future__ import annotations

import argparse
import json

from companion.files import yamlsrc
from companion.files.safetext import terminal_safe
from companion.games.kings_dilemma import vote_file as kd_vote
from companion.play.errors import RuleError

EXAMPLES = """\
examples:
  companion vote docs/examples/vote.yaml           an open vote
  companion vote docs/examples/vote-secret.yaml    a secret vote
Exit status 0; 2 with a line naming the file, the line and the field of a mistake."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="the vote file (YAML): the council and every turn of the "
                                "vote; its format: docs/table-files.md")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


def run(args: argparse.Namespace) -> int:
    doc = yamlsrc.load(args.file, "a table file")
    try:
        result = kd_vote.vote(doc.data)
    except RuleError as exc:
        raise doc.error(exc.field, exc.message) from None
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(terminal_safe(kd_vote.render(result)))
    return 0
