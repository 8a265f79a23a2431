"""The Inheritors card data (``companion/games/inheritors/inheritors.yaml``): the five colours of the
box with their English and French names, in display order.

Lives outside the rules (it reads a file); a bad file is a ``SourceError``
naming the file, line and field.
"""

from __future__ import annotations

import functools
from pathlib import Path

from companion.files import yamlsrc
from companion.files.validate import check_keys, describe, join, mapping
from companion.games.inheritors.rules import Colour
from companion.play.errors import RuleError

DATA = Path(__file__).resolve().with_name("inheritors.yaml")
COLOURS_IN_BOX = 5


def load_colours(path: str | Path = DATA) -> dict[str, Colour]:
    """The colours of the game, in display order; a bad data file is a ``SourceError``."""
    doc = yamlsrc.load(path, "a table file")
    try:
        data = mapping(doc.data, "")
        check_keys(data, "", {"colours"})
        block = mapping(data["colours"], "colours")
        if len(block) != COLOURS_IN_BOX:
            raise RuleError("colours", f"{len(block)} colours, but the game has {COLOURS_IN_BOX}",
                            code="colours_in_box", params={"n": len(block), "box": COLOURS_IN_BOX})
        colours = {}
        for key, names in block.items():
            path_ = join("colours", key)
            if not isinstance(key, str) or not key.isidentifier() or key != key.lower():
                raise RuleError(path_, "a colour key is one lower-case word", code="colour_key")
            names = mapping(names, path_)
            check_keys(names, path_, {"en", "fr"})
            for lang in ("en", "fr"):
                if not isinstance(names[lang], str) or not names[lang].strip():
                    raise RuleError(join(path_, lang), f"expected a name, got "
                                    f"{describe(names[lang])}",
                                    code="expected_name", params={"got": describe(names[lang])})
            colours[key] = Colour(key, names["en"], names["fr"])
    except RuleError as exc:
        raise doc.error(exc.field, exc.message) from None
    return colours


@functools.cache
def colours() -> dict[str, Colour]:
    """The shipped colours (read once)."""
    return load_colours()
