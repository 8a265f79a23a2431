"""The pure debouncer: bounce shorter than debounce_ms never makes a second press, a
glitch never makes a press, and each real press gives exactly one short or long event."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.debounce import LONG, SHORT, Debouncer

DEBOUNCE, LONG_MS = 20, 700


def burst(deb: Debouncer, t: int, final: bool, gaps: list[int], out: list[str]) -> int:
    """Edges ending on ``final``: len(gaps) bounces first, each gap ms apart; returns the
    time of the last edge."""
    level = final if len(gaps) % 2 == 0 else not final
    out += deb.edge(level, t)
    for gap in gaps:
        t += gap
        level = not level
        out += deb.edge(level, t)
    assert level == final
    return t


bounce = st.lists(st.integers(0, 2), max_size=6)  # up to 6 edges, 0-2 ms apart (<= 12 ms)
press = st.tuples(bounce, st.integers(25, 1500), bounce, st.integers(25, 400))


@settings(max_examples=300, deadline=None)
@given(st.lists(press, min_size=1, max_size=20), st.booleans())
def test_each_bouncing_press_gives_exactly_one_event_classified_by_hold(presses, polled):
    """Hold = last edge of the press bounce to last edge of the release bounce; >= 700 ms is
    LONG. Same events whether or not deadlines were polled between edges."""
    deb = Debouncer(DEBOUNCE, LONG_MS)
    out: list[str] = []
    expected: list[str] = []
    t = 1000
    for down_gaps, hold, up_gaps, gap in presses:
        pressed_at = burst(deb, t, True, down_gaps, out)
        if polled:
            while (d := deb.deadline()) is not None and d <= pressed_at + hold:
                out += deb.poll(d)
        released_at = burst(deb, pressed_at + hold, False, up_gaps, out)
        expected.append(LONG if released_at - pressed_at >= LONG_MS else SHORT)
        t = released_at + gap
        if polled:
            out += deb.poll(released_at + DEBOUNCE)
    out += deb.poll(t + DEBOUNCE)
    assert out == expected
    assert deb.deadline() is None and not deb.pressed


def test_long_press_is_reported_at_the_threshold_while_still_held_then_nothing_on_release():
    deb = Debouncer(DEBOUNCE, LONG_MS)
    assert deb.edge(True, 0) == []
    assert deb.deadline() == 20
    assert deb.poll(20) == [] and deb.pressed
    assert deb.deadline() == 700
    assert deb.poll(699) == []
    assert deb.poll(700) == [LONG]
    assert deb.deadline() is None
    assert deb.edge(False, 2000) == [] and deb.poll(2020) == []


def test_glitch_shorter_than_debounce_is_not_a_press():
    deb = Debouncer(DEBOUNCE, LONG_MS)
    assert deb.edge(True, 0) + deb.edge(False, 19) + deb.poll(1000) == []
    assert not deb.pressed


def test_glitch_during_a_hold_does_not_split_the_press():
    deb = Debouncer(DEBOUNCE, LONG_MS)
    events = deb.edge(True, 0) + deb.poll(30) + deb.edge(False, 300) + deb.edge(True, 310)
    events += deb.edge(False, 500) + deb.poll(520)
    assert events == [SHORT]


def test_button_held_at_start_gives_no_event_for_that_hold_but_the_next_press_counts():
    deb = Debouncer(DEBOUNCE, LONG_MS, pressed=True)
    assert deb.poll(5000) == [] and deb.edge(False, 6000) + deb.poll(6020) == []
    assert deb.edge(True, 7000) + deb.poll(7020) + deb.edge(False, 7100) + deb.poll(7120) == [
        SHORT
    ]


def test_repeated_level_reports_are_not_edges():
    deb = Debouncer(DEBOUNCE, LONG_MS)
    events = deb.edge(True, 0) + deb.edge(True, 5) + deb.edge(True, 10) + deb.edge(False, 100)
    assert events + deb.poll(120) == [SHORT]
