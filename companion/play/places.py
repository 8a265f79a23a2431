"""Places counted over distinct amounts (docs/house-rules.md, places).

Tied players (or resources) share a place and the next distinct amount takes the next
place: coins 10, 10, 6, 3 give places 1, 1, 2, 3. The King's Dilemma applies it to the
wealth podium, the power bonus and the open agendas; any game may reuse it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def places(amounts: Mapping[K, int], *, lowest_first: bool = False) -> dict[K, int]:
    """The place (1 = first) of every key: highest amount first, or lowest first when
    ``lowest_first``. Keys keep the order of ``amounts``."""
    distinct = sorted(set(amounts.values()), reverse=not lowest_first)
    place_of = {amount: i + 1 for i, amount in enumerate(distinct)}
    return {key: place_of[amount] for key, amount in amounts.items()}


def at_place(amounts: Mapping[K, int], place: int, *, lowest_first: bool = False) -> tuple[K, ...]:
    """The keys (in the order of ``amounts``) that share ``place``; empty if nobody is there."""
    return tuple(k for k, p in places(amounts, lowest_first=lowest_first).items() if p == place)
