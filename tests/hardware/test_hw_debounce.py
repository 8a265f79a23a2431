"""The pure debouncer: bounce shorter than debounce_ms never makes a second press, a
glitch never makes a press, each real press gives exactly one short or long event, on
the first edge of its release, and one "down" acknowledgement on its first press edge."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.debounce import DOWN, LONG, SHORT, Debouncer

DEBOUNCE, LONG_MS = 20, 700


def burst(deb: Debouncer, t: int, final: bool, gaps: list[int], out: list[str]) -> tuple[int, int]:
    """Edges ending on ``final``: len(gaps) bounces first, each gap ms apart; returns the
    times of the first real edge (the level changes) and of the last edge."""
    level = final if len(gaps) % 2 == 0 else not final
    out += deb.edge(level, t)
    first = t if len(gaps) % 2 == 0 else t + gaps[0]
    for gap in gaps:
        t += gap
        level = not level
        out += deb.edge(level, t)
    assert level == final
    return first, t


def presses_only(events: list[str]) -> list[str]:
    return [e for e in events if e != DOWN]


bounce = st.lists(st.integers(0, 2), max_size=6)  # up to 6 edges, 0-2 ms apart (<= 12 ms)
press = st.tuples(bounce, st.integers(25, 1500), bounce, st.integers(25, 400))


@settings(max_examples=300, deadline=None)
@given(st.lists(press, min_size=1, max_size=20), st.booleans())
def test_each_bouncing_press_gives_exactly_one_event_classified_by_hold(presses, polled):
    """Hold = last edge of the press bounce to the first edge of the release bounce;
    >= 700 ms is LONG. Each press is acknowledged once ("down") on its first edge. Same
    events whether or not deadlines were polled between edges."""
    deb = Debouncer(DEBOUNCE, LONG_MS)
    out: list[str] = []
    expected: list[str] = []
    t = 1000
    for down_gaps, hold, up_gaps, gap in presses:
        _, pressed_at = burst(deb, t, True, down_gaps, out)
        if polled:
            while (d := deb.deadline()) is not None and d <= pressed_at + hold:
                out += deb.poll(d)
        released_at, last = burst(deb, pressed_at + hold, False, up_gaps, out)
        expected.append(LONG if released_at - pressed_at >= LONG_MS else SHORT)
        t = last + gap
        if polled:
            out += deb.poll(last + DEBOUNCE)
    out += deb.poll(t + DEBOUNCE)
    assert presses_only(out) == expected
    assert out.count(DOWN) == len(presses)
    assert deb.deadline() is None and not deb.pressed


@settings(max_examples=200, deadline=None)
@given(bounce, st.integers(25, 600))
def test_a_short_press_is_reported_on_the_first_release_edge_and_its_bounce_ignored(up, hold):
    deb = Debouncer(DEBOUNCE, LONG_MS)
    assert deb.edge(True, 0) == [DOWN]
    assert deb.poll(DEBOUNCE) == [] and deb.pressed
    events = deb.edge(False, hold)
    assert events == [SHORT] and not deb.pressed
    t = hold
    level = False
    for gap in up:  # the contact bouncing after the release: nothing, not even "down"
        t += gap
        level = not level
        assert deb.edge(level, t) == []
    if level:
        assert deb.edge(False, t + 1) == []
    assert deb.poll(t + 1 + DEBOUNCE) == [] and not deb.pressed


def test_long_press_is_reported_at_the_threshold_while_still_held_then_nothing_on_release():
    deb = Debouncer(DEBOUNCE, LONG_MS)
    assert deb.edge(True, 0) == [DOWN]
    assert deb.deadline() == 20
    assert deb.poll(20) == [] and deb.pressed
    assert deb.deadline() == 700
    assert deb.poll(699) == []
    assert deb.poll(700) == [LONG]
    assert deb.deadline() is None
    assert deb.edge(False, 2000) == [] and deb.poll(2020) == []


def test_glitch_shorter_than_debounce_is_not_a_press_but_is_acknowledged_once():
    deb = Debouncer(DEBOUNCE, LONG_MS)
    assert deb.edge(True, 0) + deb.edge(False, 19) + deb.poll(1000) == [DOWN]
    assert not deb.pressed
    assert deb.edge(True, 1100) == [DOWN]  # quiet since: the next press edge is news


def test_a_dropout_during_a_hold_reads_as_a_release_then_a_new_press():
    """The trade-off of acting on the first release edge: a contact that opens for a
    moment while held ends the press there; held on, it settles again as a second press
    (without a second acknowledgement: the pad never went quiet)."""
    deb = Debouncer(DEBOUNCE, LONG_MS)
    events = deb.edge(True, 0) + deb.poll(30) + deb.edge(False, 300) + deb.edge(True, 302)
    assert events == [DOWN, SHORT]
    assert deb.poll(322) == [] and deb.pressed
    assert deb.edge(False, 500) + deb.poll(520) == [SHORT]


def test_a_press_starting_inside_the_bounce_window_of_a_release_counts_once_settled():
    deb = Debouncer(DEBOUNCE, LONG_MS)
    deb.edge(True, 0)
    deb.poll(20)
    assert deb.edge(False, 100) == [SHORT]
    assert deb.edge(True, 105) == []  # in the window: a bounce, no acknowledgement
    assert deb.deadline() == 125
    assert deb.poll(125) == [] and deb.pressed
    assert deb.edge(False, 200) == [SHORT]


def test_button_held_at_start_gives_no_event_for_that_hold_but_the_next_press_counts():
    deb = Debouncer(DEBOUNCE, LONG_MS, pressed=True)
    assert deb.poll(5000) == [] and deb.edge(False, 6000) + deb.poll(6020) == []
    assert deb.edge(True, 7000) + deb.poll(7020) + deb.edge(False, 7100) + deb.poll(7120) == [
        DOWN, SHORT
    ]


def test_repeated_level_reports_are_not_edges():
    deb = Debouncer(DEBOUNCE, LONG_MS)
    events = deb.edge(True, 0) + deb.edge(True, 5) + deb.edge(True, 10) + deb.edge(False, 100)
    assert events + deb.poll(120) == [DOWN, SHORT]
