"""Each player's place for the winner screen's plates (companion/play/standings.py): the
winners first, then by total; equal standings share a place and the next is skipped; each
place said in English and French."""

from __future__ import annotations

import pytest

from companion.i18n import load_catalog
from companion.play.standings import MOST_PLACES, place_words, places


def test_higher_totals_come_first():
    assert places({"Ana": 18, "Ben": 9, "Cleo": 2}, ["Ana"]) == {"Ana": 1, "Ben": 2, "Cleo": 3}


def test_equal_totals_share_a_place_and_the_next_is_skipped():
    got = places({"Ana": 8, "Ben": 8, "Cleo": 10, "Dan": 3}, ["Cleo"])
    assert got == {"Cleo": 1, "Ana": 2, "Ben": 2, "Dan": 4}


def test_a_shared_victory_puts_every_winner_first():
    got = places({"Ana": 14, "Ben": 17, "Cleo": 9, "Dan": 17}, ["Ben", "Dan"])
    assert got == {"Ben": 1, "Dan": 1, "Ana": 3, "Cleo": 4}


def test_a_tie_broken_by_the_rules_puts_the_winner_alone_first():
    """Equal totals the game parted (Inheritors: most books): the winner first, the other
    second, not both first."""
    assert places({"Ana": 15, "Ben": 19, "Cleo": 19}, ["Cleo"]) == \
        {"Cleo": 1, "Ben": 2, "Ana": 3}


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["1st · 18", "2nd · 18", "3rd · 18", "4th · 18", "5th · 18", "6th · 18",
            "7th · 18", "8th · 18"]),
    ("fr", ["1er · 18", "2e · 18", "3e · 18", "4e · 18", "5e · 18", "6e · 18", "7e · 18",
            "8e · 18"]),
])
def test_every_place_a_table_can_have_is_said_in_both_languages(language, expected):
    catalog = load_catalog(language)
    said = []
    for place in range(1, MOST_PLACES + 1):
        words = place_words(place, "18")
        said.append(catalog.text(words.key, **words.params))
    assert said == expected


def test_a_place_beyond_the_seats_has_no_words():
    with pytest.raises(ValueError):
        place_words(MOST_PLACES + 1, "3")
