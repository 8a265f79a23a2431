"""Where each player finished, for what a seat's plate says on the winner screen ("2nd · 18"):
one rule for every game, so the plates, whatever screen shows them, agree.

The winners come first whatever their total (a tie-breaker may have parted equal totals,
and the game's own result names them); then the others by total, higher first. Players
who stand equal share a place and the next place is skipped (1, 2, 2, 4), as a podium
reads.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from companion.play.words import Words

# The places the catalogs spell (``winner.place.N``): the most seats a table has.
MOST_PLACES = 8


def places(totals: Mapping[str, float], winners: Collection[str]) -> dict[str, int]:
    """Each player's place (1 for a winner) from their total and the game's winners."""
    def standing(name: str) -> tuple[bool, float]:
        return name in winners, totals[name]

    return {name: 1 + sum(standing(other) > standing(name) for other in totals)
            for name in totals}


def place_words(place: int, total: str, rank: str | None = None) -> Words:
    """A player's place and total as a plate says it: catalog ``winner.place.N``; or,
    where the game's own rules name the player's rank (the King's Dilemma: "there is
    always a last place"), that ``rank`` as the game's result says it, so the plate and the
    result's table never disagree."""
    if rank is not None:
        return Words("winner.ranked", {"rank": rank, "total": total})
    if not 1 <= place <= MOST_PLACES:
        raise ValueError(f"no words for place {place}")
    return Words(f"winner.place.{place}", {"total": total})
