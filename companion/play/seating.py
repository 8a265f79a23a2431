"""Where the players sit: the ``seats`` of a game's setup, one configured seat index per
player in seating order (whose buttons they press, whose light is theirs)."""

from __future__ import annotations

from collections.abc import Mapping

from companion.play.errors import RuleError


def seat_indexes(setup: Mapping, n: int) -> tuple[int, ...]:
    """The setup's ``seats`` for ``n`` players (default 0, 1, …): whole numbers ≥ 0, one
    per player, no seat twice."""
    value = setup.get("seats", list(range(n)))
    if not isinstance(value, list) or len(value) != n:
        raise RuleError("seats", f"expected a list of {n} seat numbers, one per player",
                        code="seat_list", params={"n": n})
    for i, seat in enumerate(value):
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise RuleError(f"seats.{i}", f"{seat!r} is not a seat number",
                            code="not_a_seat", params={"seat": repr(seat)})
    if len(set(value)) != n:
        raise RuleError("seats", "two players on the same seat", code="same_seat")
    return tuple(value)


def check_setup(setup: object, allowed: tuple[str, ...]) -> Mapping:
    """``setup`` as a mapping of only the ``allowed`` keys, else the refusal naming the key."""
    if not isinstance(setup, Mapping):
        raise RuleError("setup", "expected a mapping", code="expected_mapping")
    for key in setup:
        if key not in allowed:
            raise RuleError(str(key), f"unknown key (allowed: {', '.join(allowed)})",
                            code="unknown_key", params={"allowed": ", ".join(allowed)})
    return setup
