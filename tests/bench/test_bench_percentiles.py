"""A percentile in a bench row stands on enough values: a p99 of 10 presses is only the
slowest of them, never reported as a p99 (``bench.common``)."""

from __future__ import annotations

import pytest

from bench.common import fewest_for, percentile, percentiles, spread


def test_the_values_a_percentile_stands_on():
    assert [fewest_for(p) for p in (50, 90, 99, 99.9)] == [2, 10, 100, 1000]


def test_a_p99_of_too_few_values_is_refused():
    with pytest.raises(ValueError, match="p99 of 10 values"):
        percentile([float(i) for i in range(10)], 99)
    assert percentile([float(i) for i in range(1, 101)], 99) == pytest.approx(99.01)


def test_rounds_too_short_for_a_p99_are_pooled_and_said():
    rounds = [[float(i) for i in range(40)] for _ in range(3)]
    figures, how, stands = percentiles(rounds, 99)
    assert len(figures) == 1 and how == "p99 of all 120" and stands
    assert figures[0] == percentile([v for r in rounds for v in r], 99)
    # each round has the values a p50 stands on: one figure a round
    figures, how, stands = percentiles(rounds, 50)
    assert len(figures) == 3 and how == "" and stands


def test_too_few_values_even_pooled_is_no_figure_of_that_percentile():
    figures, how, stands = percentiles([[1.0, 5.0], [2.0]], 99)
    assert figures == [5.0] and how == "only 3: not a p99" and not stands


def test_one_figure_is_shown_without_a_range():
    assert spread([2.5], "ms") == "2.5 ms"
    assert spread([1.0, 2.0, 4.0], "ms") == "2.0 [1.0–4.0] ms"
