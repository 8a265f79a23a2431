"""The plain text tables ``companion score`` prints: a label column, then one right-aligned
column per player, and the winners' line under them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.play.errors import listed


def row_format(names: Sequence[str], *, label_width: int = 24, width: int | None = None,
               ) -> Callable[[str, Sequence[str]], str]:
    """A row of the table: ``label`` then one cell per player, each column as wide as the
    longest name plus two (at least 8) unless ``width`` says."""
    if width is None:
        width = max(8, *(len(n) + 2 for n in names))

    def row(label: str, cells: Sequence[str]) -> str:
        return f"{label:<{label_width}}" + "".join(f"{c:>{width}}" for c in cells)

    return row


def winners_line(winners: Sequence[str]) -> str:
    return ("Winner: " if len(winners) == 1 else "Shared victory: ") + listed(winners)
