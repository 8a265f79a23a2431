"""The light states can be told apart by everyone at the table, on every kind of light.

Each state is a rhythm of brightness in a colour (``padproto.LIGHTS``), the same on a
plain LED (rhythm only), a pad's RGB pixel and the screen's mirror. For every pair of
states, every state against the press acknowledgement, and every pair (state, seat
colour), under normal vision and simulated protanopia, deuteranopia and tritanopia
(Machado, Oliveira & Fernandes 2009, severity 1, on linear sRGB), the CIEDE2000 difference
is computed:

- two states always differ by their rhythm (a plain LED shows nothing else), and by
  colour too: at least ``MIN_DELTA_E`` apart in every vision, and from the acknowledgement;
- a state as close as that to a seat's colour in some vision has a rhythm (a seat's
  colour never blinks), so it can't be taken for the seat — no lit state is steady;
- every lit state stands out from the dark socket it is shown in, and its rhythm's dark
  steps from its lit ones (WCAG contrast ≥ 3).
"""

from __future__ import annotations

import math

import pytest

from companion.config import COLOURS as SEAT_COLOURS
from companion.hardware import padproto
from companion.play.seat import Light
from companion.ui import theme as th

MIN_DELTA_E = 15.0  # CIEDE2000: several just-noticeable differences (~2.3): another colour
MIN_CONTRAST = 3.0  # WCAG 2 for graphical objects

Rgb = tuple[float, float, float]

# Machado et al. 2009, severity 1.0, applied to linear RGB.
CVD: dict[str, tuple[tuple[float, ...], ...] | None] = {
    "normal": None,
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def seen(rgb: Rgb, vision: str) -> Rgb:
    """Linear RGB of ``rgb`` (sRGB 0–255) as ``vision`` sees it."""
    lin = tuple(linear(c) for c in rgb)
    m = CVD[vision]
    if m is None:
        return lin  # type: ignore[return-value]
    return tuple(min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3))))
                 for i in range(3))  # type: ignore[return-value]


def lab(lin: Rgb) -> Rgb:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e_2000(lab1: Rgb, lab2: Rgb) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6))
         - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    sl = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    sc = 1 + 0.045 * cp_bar
    sh = 1 + 0.015 * cp_bar * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2
                     + rt * (dc / sc) * (dhh / sh))


def worst_delta_e(rgb1: Rgb, rgb2: Rgb) -> tuple[float, str]:
    """The smallest CIEDE2000 difference over the four visions, and the vision."""
    return min((delta_e_2000(lab(seen(rgb1, v)), lab(seen(rgb2, v))), v) for v in CVD)


def luminance(rgb: Rgb) -> float:
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(rgb1: Rgb, rgb2: Rgb) -> float:
    hi, lo = sorted((luminance(rgb1), luminance(rgb2)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def cycle(pattern: str) -> str:
    """A pattern reduced to its shortest repeating unit ("9090" → "90")."""
    for n in range(1, len(pattern) + 1):
        if len(pattern) % n == 0 and pattern[:n] * (len(pattern) // n) == pattern:
            return pattern[:n]
    return pattern


def brightest(state: str) -> Rgb:
    """The colour ``state`` shows at the brightest step of its rhythm."""
    pattern = padproto.LIGHTS[state][1]
    return padproto.light_rgb(state, pattern.index(max(pattern)))


STATES = [light.value for light in Light]
LIT = [s for s in STATES if s != "off"]


def rhythm(state: str) -> str:
    return cycle(padproto.LIGHTS[state][1])


def test_delta_e_2000_matches_the_published_test_data():
    """Three pairs of Sharma, Wu & Dalal's table: the implementation is the formula."""
    assert delta_e_2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425,
                                                                                      abs=1e-4)
    assert delta_e_2000((50, -1.3802, -84.2814), (50, 0, -82.7485)) == pytest.approx(1.0000,
                                                                                       abs=1e-4)
    assert delta_e_2000((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)) == \
        pytest.approx(1.2644, abs=1e-4)


def test_the_simulation_confuses_what_colour_blind_players_confuse():
    """The check can fail: red and green, far apart to most eyes, come close in
    deuteranopia; the old palette's first-player amber and your-turn green did too."""
    red, green = SEAT_COLOURS["red"], SEAT_COLOURS["green"]
    assert delta_e_2000(lab(seen(red, "normal")), lab(seen(green, "normal"))) > 40
    assert worst_delta_e(red, green)[0] < MIN_DELTA_E
    assert worst_delta_e((255, 170, 0), (0, 255, 40))[0] < MIN_DELTA_E


def test_every_state_is_in_the_table_with_a_pattern():
    assert set(padproto.LIGHTS) == set(STATES)
    for state, (colour, pattern) in padproto.LIGHTS.items():
        assert pattern and set(pattern) <= set("0123456789"), state
        assert len(colour) == 3 and all(0 <= c <= 255 for c in colour), state
    assert padproto.LIGHTS["off"][1] == "0"


def test_two_states_differ_by_rhythm_on_a_plain_led():
    on_off = {s: cycle("".join("1" if c != "0" else "0" for c in padproto.LIGHTS[s][1]))
              for s in STATES}
    assert len(set(on_off.values())) == len(STATES), on_off


def test_two_states_and_the_acknowledgement_differ_by_colour_in_every_vision():
    shown = {s: brightest(s) for s in LIT} | {"acknowledgement": padproto.ACK_COLOUR}
    close = [(a, b, round(d, 1), vision)
             for i, a in enumerate(shown) for b in list(shown)[i + 1:]
             for d, vision in [worst_delta_e(shown[a], shown[b])] if d < MIN_DELTA_E]
    assert close == []


def test_no_state_can_be_taken_for_a_seat_colour():
    """Every (state, seat colour) pair: far apart in every vision, or the state has a
    rhythm (the seat colours never blink). With the palette's colours, rhythm is what
    separates them: no lit state is steady."""
    pairs = {(s, c): worst_delta_e(brightest(s), rgb) for s in LIT
             for c, rgb in SEAT_COLOURS.items()}
    assert len(pairs) == len(LIT) * len(SEAT_COLOURS)
    mistakable = [(s, c, round(d, 1), vision) for (s, c), (d, vision) in pairs.items()
                  if d < MIN_DELTA_E and len(rhythm(s)) == 1]
    assert mistakable == []
    assert all(len(rhythm(s)) > 1 for s in LIT)


@pytest.mark.parametrize("state", LIT)
def test_every_lit_state_stands_out_and_its_rhythm_shows(state):
    pattern = padproto.LIGHTS[state][1]
    darkest = padproto.light_rgb(state, pattern.index(min(pattern)))
    assert contrast(brightest(state), th.SOCKET) >= MIN_CONTRAST, state
    assert contrast(brightest(state), darkest) >= MIN_CONTRAST, state


def test_your_turn_and_first_player_are_told_apart_at_a_glance():
    """The acting seat's light and the first player's (which stays on beside it) differ by
    rhythm (fast blink against on with a short dip) and by brightness."""
    turn, first = padproto.LIGHTS["your-turn"][1], padproto.LIGHTS["first-player"][1]
    assert rhythm("your-turn") != rhythm("first-player")
    assert len(rhythm("your-turn")) < len(rhythm("first-player"))  # the faster
    assert max(turn) > max(first)  # the brighter
    assert first.count("0") < first.count(max(first))  # first player: mostly on
