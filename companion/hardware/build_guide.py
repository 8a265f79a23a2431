"""The seat pads' build drawings (hardware/PAD-BUILD.md), as plain SVG like the wiring
drawings (``wiring.Svg``), made from a wiring profile so the pins can't drift from what
the program drives: ``companion wiring serial-pads --part pad|cable|layouts|hub``.

- ``pad``: one seat pad, its lid from above (three button holes, the light, which edge
  faces the player and which the cable) and inside (which leg of what goes where; a
  pixel's DIN→DOUT arrow, an LED's long leg);
- ``cable``: the RJ45 pin assignment of a pad's cable (T568B colours, pairs);
- ``layouts``: the pixel chain run pad to pad ("chain") or out and back through the hub
  on each pad's own cable ("return to hub"), and the wires each needs;
- ``hub``: the hub board: the Pico (USB up), the rails, each seat's resistors at the hub
  end of its cable, the level shifter (notch up) and the jacks.
"""

from __future__ import annotations

from companion.hardware.profile import WiringProfile
from companion.hardware.wiring import (
    CHAIN_GROUND,
    INK,
    PICO,
    PIXEL_SERIES,
    PULL_UP,
    SEAT_COLOURS,
    SERIES,
    Svg,
)

PARTS = ("pad", "cable", "layouts", "hub")
GREY = "#616161"
RAIL_3V3 = "#c62828"
RAIL_5V = "#ef6c00"

# A pad's cable, RJ45 pin -> (T568B wire colour, signal, what it carries). The pairs of a
# Cat5e cable are 1-2, 3-6, 4-5, 7-8: each data line shares its pair with a ground or a
# button, and 5 V its pair with a ground.
RJ45: dict[int, tuple[str, str, str]] = {
    1: ("white/orange", "A", "button A"),
    2: ("orange", "B", "button B"),
    3: ("white/green", "DIN", "pixel data, hub → pad"),
    4: ("blue", "5V", "5 V for the pixel"),
    5: ("white/blue", "GND", "ground (buttons, pixel)"),
    6: ("green", "GND", "ground, paired with DIN"),
    7: ("white/brown", "C", "button C"),
    8: ("brown", "DOUT", "pixel data back, pad → hub (return only)"),
}
T568B_RGB = {"orange": "#ef6c00", "green": "#2e7d32", "blue": "#1565c0", "brown": "#6d4c41"}
PAIRS = {"orange": (1, 2), "green": (3, 6), "blue": (4, 5), "brown": (7, 8)}


def rj45_pin(signal: str) -> int:
    """The first RJ45 pin that carries ``signal``."""
    return next(pin for pin, (_, sig, _) in RJ45.items() if sig == signal)


def wires(layout: str, first: bool = False) -> list[str]:
    """The signals a pad's hub cable carries in ``layout`` ("chain", "return"); in the
    chain only the first pad's cable carries the data in."""
    out = ["A", "B", "C", "5V", "GND"]
    if layout == "return" or first:
        out.append("DIN")
    if layout == "return":
        out.append("DOUT")
    return out


def part_drawing(profile: WiringProfile, name: str, part: str) -> str:
    """The ``part`` drawing (one of ``PARTS``) for ``profile``."""
    if part not in PARTS:
        raise ValueError(f"{part}: one of {', '.join(PARTS)}")
    if part != "pad" and profile.kind != "serial":
        raise ValueError(f"the {part} drawing is of the serial seat pads; {name} is a "
                         f"{profile.kind} profile")
    return {"pad": _pad, "cable": _cable, "layouts": _layouts, "hub": _hub}[part](profile, name)


def _heading(svg: Svg, title: str, subtitle: str) -> None:
    svg.text(20, 30, title, size=20, bold=True)
    svg.text(20, 52, subtitle, size=13)


def _label_box(svg: Svg, x: float, y: float, w: float, h: float, text: str,
               fill: str = "white", size: int = 11) -> None:
    svg.rect(x, y, w, h, fill=fill, rx=3)
    svg.text(x + w / 2, y + h / 2 + 4, text, size=size, anchor="middle", bold=True)


def _arrow(svg: Svg, x1: float, y1: float, x2: float, y2: float, colour: str = INK) -> None:
    """A line with an arrowhead at (x2, y2)."""
    svg.line(x1, y1, x2, y2, colour=colour, width=2)
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / length, dy / length
    left = (x2 - 9 * ux + 5 * uy, y2 - 9 * uy - 5 * ux)
    right = (x2 - 9 * ux - 5 * uy, y2 - 9 * uy + 5 * ux)
    svg.parts.append(f"<path d='M{x2:g},{y2:g} L{left[0]:g},{left[1]:g} "
                     f"L{right[0]:g},{right[1]:g} Z' fill='{colour}' stroke='{colour}'/>")


# -- the pad -------------------------------------------------------------------------------


def _pad(profile: WiringProfile, name: str) -> str:
    svg = Svg()
    pixel = profile.kind == "serial"
    _heading(svg, f"A seat pad ({name})",
             "the same for every seat; lid from above, then inside as if the lid were glass "
             "(A stays on the left)")
    mm = 3.0  # px per mm
    # The lid: 110 x 70 mm, the player's edge at the bottom.
    x0, y0, w, h = 40, 110, 110 * mm, 70 * mm
    svg.text(x0, y0 - 22, "1. The lid, from above", size=15, bold=True)
    svg.rect(x0, y0, w, h, fill="#eceff1", rx=12)
    svg.text(x0 + w / 2, y0 + h + 22, "▼ the player's edge (faces the player) ▼", size=12,
             anchor="middle", bold=True)
    svg.text(x0 + w / 2, y0 - 6, f"back edge: the cable to the {'hub' if pixel else 'Pi'}",
             size=11, anchor="middle", colour=GREY)
    holes = [(x0 + (25 + 30 * i) * mm, y0 + 42 * mm) for i in range(3)]
    for (hx, hy), button in zip(holes, "ABC", strict=True):
        svg.parts.append(f"<circle cx='{hx:g}' cy='{hy:g}' r='{8 * mm:g}' fill='white' "
                         f"stroke='{INK}' stroke-width='1.6'/>")
        svg.text(hx, hy + 6, button, size=18, anchor="middle", bold=True)
    # the light, centred above B
    lx, ly = x0 + w / 2, y0 + 16 * mm
    svg.parts.append(f"<circle cx='{lx:g}' cy='{ly:g}' r='{2.5 * mm:g}' fill='#fff59d' "
                     f"stroke='{INK}' stroke-width='1.6'/>")
    svg.text(lx + 14, ly + 4, "light: Ø 5 mm hole" + (" over the pixel" if pixel else ""),
             size=11)
    # dimensions
    svg.line(x0, y0 + h + 34, x0 + w, y0 + h + 34, colour=GREY, width=1)
    svg.text(x0 + w / 2, y0 + h + 48, "about 110 mm", size=11, anchor="middle", colour=GREY)
    svg.line(x0 + w + 14, y0, x0 + w + 14, y0 + h, colour=GREY, width=1)
    svg.text(x0 + w + 20, y0 + h / 2, "≈ 70 mm", size=11, colour=GREY)
    hx, hy = holes[2]
    svg.text(x0, y0 + h + 66, "holes: Ø 16 mm for 16 mm buttons (Ø 12 mm for 12 mm), "
             "30 mm apart", size=11, colour=GREY)
    # Inside: every leg labelled with the cable's pin it goes to (the jack: cable drawing).
    ix, iy = 470, 110
    svg.text(ix, iy - 22, "2. Inside: where each leg's wire goes", size=15, bold=True)
    svg.rect(ix, iy, 600, 300, fill="#fafafa", rx=12)
    svg.rect(ix + 215, iy - 8, 170, 44, fill="#e0e0e0", rx=3)
    if pixel:
        svg.text(ix + 300, iy + 10, "RJ45 jack (back edge)", size=11, anchor="middle",
                 bold=True)
        svg.text(ix + 300, iy + 26, "pins 1–8: the cable drawing", size=10, anchor="middle")
    else:
        svg.text(ix + 300, iy + 10, "5-core cable to the Pi", size=11, anchor="middle",
                 bold=True)
        svg.text(ix + 300, iy + 26, "A, B, C, LED, GND (back edge)", size=10,
                 anchor="middle")

    def end(signal: str) -> str:
        """Where a leg's wire goes: the jack pin (pads on RJ45) or the cable's wire."""
        return f"{signal}: pin {rj45_pin(signal)}" if pixel else f"{signal} wire"

    def stub(x: float, y1: float, y2: float, signal: str, to: float | None = None) -> None:
        if pixel:
            _wire_stub(svg, x, y1, y2, rj45_pin(signal), horizontal_to=to)
        else:
            svg.line(x, y1, to if to is not None else x, y1 if to is not None else y2,
                     width=3)
    by = iy + 110
    ground_y = by + 100
    for i, button in enumerate("ABC"):
        bx = ix + 40 + i * 120
        svg.rect(bx, by - 30, 60, 60, fill="white", rx=30)
        svg.text(bx + 30, by + 6, button, size=16, anchor="middle", bold=True)
        # two legs under the button: one to its wire, one to the common ground
        for leg_x in (bx + 14, bx + 46):
            svg.line(leg_x, by + 26, leg_x, by + 44, width=3)
        stub(bx + 46, by + 44, by + 70, button)
        svg.text(bx + 53, by + 74, end(button), size=11, bold=True)
        svg.line(bx + 14, by + 44, bx + 14, ground_y)
    svg.line(ix + 54, ground_y, ix + 300, ground_y, width=2.4)
    stub(ix + 300, ground_y, ground_y, "GND", to=ix + 330)
    svg.text(ix + 336, ground_y + 4, end("GND"), size=11, bold=True)
    svg.text(ix + 54, ground_y + 20, "one leg of every button on one ground wire", size=10,
             colour=GREY)
    if pixel:
        grounds = " and ".join(str(p) for p, (_, sig, _) in RJ45.items() if sig == "GND")
        svg.text(ix + 54, ground_y + 50, f"Join pins {grounds} (both ground) at the jack.",
                 size=11)
    else:
        svg.text(ix + 54, ground_y + 50, "The LED's short leg joins the same ground wire.",
                 size=11)
    if pixel:
        _pixel_board(svg, ix + 440, iy + 60)
    else:
        _led_legs(svg, ix + 425, iy + 90)
    svg.text(ix, iy + 326, "Which leg of a push button doesn't matter: it only joins the two "
             "while pressed.", size=11)
    # 3. The LED (direct GPIO) or where the pixel sits.
    ny = 470
    notes = [
        ("Mount the buttons A, B, C left to right as seen by the player: the screens' help "
        "names them so."),
        ("Label each pad with its seat number (1–5) on the back: seat 1's cable goes to "
         + ("the hub's jack 1." if pixel else "seat 1's pins (the wiring drawing).")),
    ]
    if pixel:
        notes.append("The pixel's arrow points from DIN to DOUT: DIN takes the data coming "
                     "from the hub (or from the previous pad).")
    else:
        notes.append("The LED's long leg is the anode (+), to the LED wire; the short leg, "
                     "by the flat side of its rim, is the cathode (−), to ground.")
        notes.append("The LED's resistor is at the Pi end of the cable (hardware/WIRING.md), "
                     "not in the pad.")
    for note in notes:
        svg.text(40, ny, note, size=12)
        ny += 20
    return svg.document(1100, ny + 20, f"A seat pad ({name})")


def _wire_stub(svg: Svg, x: float, y1: float, y2: float, pin: int,
               horizontal_to: float | None = None) -> None:
    """A wire from (x, y1) up to y2 (or across to ``horizontal_to``) in the colour of the
    cable's pin ``pin`` (T568B), ending in a dot: the end to take to that jack pin."""
    colour = RJ45[pin][0]
    rgb = T568B_RGB[colour.split("/")[-1]]
    x2, y2 = (horizontal_to, y1) if horizontal_to is not None else (x, y2)
    svg.line(x, y1, x2, y2, colour=rgb, width=4)
    if colour.startswith("white/"):
        svg.line(x, y1, x2, y2, colour="white", width=4, dash=True)
    svg.circle(x2, y2, 3.5, fill=rgb)


def _pixel_board(svg: Svg, x: float, y: float) -> None:
    """A WS2812B breakout: the DIN side on the left, DOUT on the right, the arrow between;
    each pad labelled with its jack pin."""
    svg.rect(x, y, 130, 80, fill="#e8f5e9", rx=4)
    svg.rect(x + 50, y + 25, 30, 30, fill="white")
    svg.text(x + 65, y + 45, "LED", size=9, anchor="middle")
    _arrow(svg, x + 40, y + 70, x + 92, y + 70)
    pins = {"5V": rj45_pin("5V"), "DIN": rj45_pin("DIN"), "GND": rj45_pin("GND"),
            "DOUT": rj45_pin("DOUT")}
    for i, (left, right) in enumerate((("5V", "5V"), ("DIN", "DOUT"), ("GND", "GND"))):
        py = y + 16 + i * 24
        svg.circle(x + 10, py, 4, fill="#ffd54f")
        svg.circle(x + 120, py, 4, fill="#ffd54f")
        svg.text(x + 18, py + 4, left, size=9, bold=True)
        svg.text(x + 112, py + 4, right, size=9, anchor="end", bold=True)
        svg.text(x - 6, py + 4, f"pin {pins[left]}", size=10, anchor="end", bold=True)
    svg.text(x + 65, y - 8, "WS2812B breakout", size=11, anchor="middle", bold=True)
    svg.text(x + 65, y + 96, "arrow: DIN → DOUT", size=10, anchor="middle")
    svg.text(x + 128, y + 112, f"DOUT: pin {pins['DOUT']} (return to hub)", size=10,
             anchor="end", bold=True)
    svg.text(x + 128, y + 126, "or to the next pad's DIN (chain)", size=10, anchor="end")
    svg.text(x + 128, y + 140, "the out-side 5V and GND: nothing", size=10, anchor="end",
             colour=GREY)


def _led_legs(svg: Svg, x: float, y: float) -> None:
    """A 5 mm LED from the side: the long leg is the anode."""
    svg.path(f"M{x:g},{y + 40:g} L{x:g},{y + 10:g} A20,20 0 0 1 {x + 40:g},{y + 10:g} "
             f"L{x + 40:g},{y + 40:g} Z", fill="#ffcdd2")
    svg.rect(x - 4, y + 40, 48, 6, fill="#ffcdd2")
    svg.line(x + 44, y + 38, x + 44, y + 48, width=3)  # the flat side of the rim
    svg.line(x + 12, y + 46, x + 12, y + 130, width=2.4)
    svg.line(x + 28, y + 46, x + 28, y + 110, width=2.4)
    svg.text(x + 6, y + 146, "long leg: anode (+)", size=10, anchor="end", bold=True)
    svg.text(x + 6, y + 160, "to the LED wire", size=10, anchor="end")
    svg.text(x + 34, y + 124, "short leg: cathode (−)", size=10, bold=True)
    svg.text(x + 34, y + 138, "flat rim side; to ground", size=10)
    svg.text(x + 20, y - 14, "5 mm LED", size=11, anchor="middle", bold=True)


# -- the cable -----------------------------------------------------------------------------


def _wire_swatch(svg: Svg, x: float, y: float, colour: str, w: float = 40, h: float = 14) -> None:
    base = colour.split("/")[-1]
    rgb = T568B_RGB[base]
    if colour.startswith("white/"):
        svg.rect(x, y, w, h, fill="white")
        for i in range(0, int(w), 10):
            svg.rect(x + i + 2, y, 4, h, fill=rgb, stroke=rgb)
        svg.rect(x, y, w, h)
    else:
        svg.rect(x, y, w, h, fill=rgb)


def _cable(profile: WiringProfile, name: str) -> str:
    svg = Svg()
    _heading(svg, f"A pad's cable: RJ45 pin assignment ({name})",
             "Ethernet patch cable (Cat5e, T568B colours), one per pad, pad to hub; every pad "
             "and every hub jack wired the same")
    # The plug: contacts facing you, clip at the back, cable down: pin 1 on the left
    # (EIA/TIA-568 numbering; a jack seen into its opening, clip slot down: the same).
    px, py = 40, 110
    svg.text(px, py - 30, "The plug: contacts facing you,", size=13, bold=True)
    svg.text(px, py - 12, "clip behind, cable down", size=13, bold=True)
    svg.rect(px, py, 240, 120, fill="#e3f2fd", rx=6)
    for pin in RJ45:
        cx = px + 22 + (pin - 1) * 28
        svg.rect(cx - 8, py + 8, 16, 40, fill="#ffd54f")
        svg.text(cx, py + 66, str(pin), size=13, anchor="middle", bold=True)
        _wire_swatch(svg, cx - 6, py + 78, RJ45[pin][0], w=12, h=30)
    svg.rect(px + 90, py + 120, 60, 40, fill="#bdbdbd")
    svg.text(px + 120, py + 178, "cable", size=11, anchor="middle")
    svg.text(px, py + 204, "Pin 1 on the left, seen this way;", size=11)
    svg.text(px, py + 220, "a jack seen into its opening, clip", size=11)
    svg.text(px, py + 236, "slot down: pin 1 on the left too.", size=11)
    # The table.
    tx, ty = 320, 100
    cols = (tx, tx + 34, tx + 82, tx + 182, tx + 250, tx + 312, tx + 440)
    heads = ("Pin", "Wire", "", "Pair", "Signal", "Hub side", "What")
    for x, head in zip(cols, heads, strict=True):
        svg.text(x, ty, head, size=12, bold=True)
    seat = profile.seats[0]
    hub_side = {b.upper(): f"GP{p} (seat 1)" for b, p in seat.buttons}
    hub_side.update({"DIN": "74AHCT125, 330 Ω", "DOUT": "next jack's pin 3",
                     "5V": "VBUS (5 V)", "GND": "GND"})
    for row, (pin, (colour, signal, what)) in enumerate(RJ45.items()):
        y = ty + 26 + row * 26
        pair = next(name for name, pins in PAIRS.items() if pin in pins)
        svg.text(cols[0], y, str(pin), size=12, bold=True)
        _wire_swatch(svg, cols[1], y - 11, colour)
        svg.text(cols[2], y, colour, size=11)
        svg.text(cols[3], y, f"{pair} {'–'.join(map(str, PAIRS[pair]))}", size=11)
        svg.text(cols[4], y, signal, size=12, bold=True)
        svg.text(cols[5], y, hub_side[signal], size=11)
        svg.text(cols[6], y, what, size=11)
    y = max(ty + 26 + 8 * 26, py + 236) + 30
    notes = [
        ("Return to hub uses 7 of the 8 wires (two of them ground). The chain layout leaves "
         "pin 8 free, and pin 3 on every pad but the first:"),
        ("there a 6-core cable (A, B, C, 5 V, GND, data) does instead of Ethernet cable "
         "(hardware/PAD-BUILD.md, the layouts)."),
        ("Each data line shares its twisted pair with a ground or a button line, 5 V with a "
         "ground; the button lines idle at 3.3 V through their pull-ups."),
        (f"Hub side: seat n's A, B, C go to the GP pins of seat n in the profile ({name}); the "
         "table names seat 1's. Crimp or punch both ends T568B, the same way."),
    ]
    for note in notes:
        svg.text(40, y, note, size=11)
        y += 18
    return svg.document(1100, y + 16, f"A pad's cable ({name})")


# -- the layouts ---------------------------------------------------------------------------


def _layouts(profile: WiringProfile, name: str) -> str:
    svg = Svg()
    seats = len(profile.seats)
    _heading(svg, f"Chain or return to hub: where the pixel data runs ({name})",
             "buttons, 5 V and ground always go straight from each pad to the hub; only the "
             "WS2812 data line's route differs")
    for column, layout in enumerate(("return", "chain")):
        x0 = 30 + column * 540
        title = ("A. Return to hub (recommended)" if layout == "return"
                 else "B. Chain, pad to pad")
        svg.text(x0, 96, title, size=15, bold=True)
        hub_x, hub_y = x0 + 170, 130
        svg.rect(hub_x, hub_y, 160, 70, fill="#e8f5e9", rx=6)
        svg.text(hub_x + 80, hub_y + 22, "hub (Pico)", size=12, anchor="middle", bold=True)
        svg.text(hub_x + 80, hub_y + 40, f"GP{profile.pixel_pin} → 74AHCT125", size=10,
                 anchor="middle")
        svg.text(hub_x + 80, hub_y + 56, "→ 330 Ω → data out", size=10, anchor="middle")
        pads_y = 330
        span = 480 / seats
        centres = [x0 + 10 + span * (i + 0.5) for i in range(seats)]
        for i, cx in enumerate(centres):
            colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
            svg.rect(cx - 36, pads_y, 72, 46, stroke=colour, rx=6)
            svg.text(cx, pads_y + 20, f"pad {i + 1}", size=12, anchor="middle", colour=colour,
                     bold=True)
            svg.text(cx, pads_y + 36, "DIN → DOUT", size=9, anchor="middle")
            jack_x = hub_x + 16 + i * (128 / max(seats - 1, 1))
            svg.line(jack_x, hub_y + 70, cx, pads_y, colour="#9e9e9e", width=5)
            count = len(wires(layout, first=i == 0))
            svg.text((jack_x + cx) / 2 + (8 if cx >= jack_x else -8), (hub_y + 70 + pads_y) / 2,
                     f"{count}", size=11, anchor="start" if cx >= jack_x else "end",
                     bold=True)
            if layout == "return":
                _arrow(svg, jack_x - 3, hub_y + 72, cx - 12, pads_y - 2, colour="#2e7d32")
                if i < seats - 1:
                    _arrow(svg, cx + 12, pads_y - 2, jack_x + 5, hub_y + 72, colour="#1565c0")
            elif i < seats - 1:
                _arrow(svg, cx + 36, pads_y + 23, centres[i + 1] - 36, pads_y + 23,
                       colour="#1565c0")
        if layout == "chain":
            _arrow(svg, hub_x + 14, hub_y + 72, centres[0] - 14, pads_y - 2, colour="#2e7d32")
        y = 410
        if layout == "return":
            lines = [
                f"Every cable: {', '.join(wires('return'))} = 7 wires: 8-core Ethernet cable.",
                "Green: data out to a pad (pin 3); blue: back on the same cable (pin 8); the",
                "hub board joins jack n's pin 8 to jack n+1's pin 3.",
                "A pad unplugged: a bypass plug (an RJ45 plug with pins 3 and 8 joined) in",
                "its jack keeps the pads after it lit. Data runs 2 cable lengths per pixel:",
                "keep each cable ≤ 2 m.",
            ]
        else:
            lines = [
                (f"Pad 1's cable: {', '.join(wires('chain', first=True))} = 6 wires; the others "
                f"{len(wires('chain'))}"),
                "(A, B, C, 5 V, GND): a 6-core cable does, or Ethernet with pins 3 and 8 free.",
                "Blue: a 2-core link (data, GND) from each pad's DOUT to the next pad's DIN.",
                "Fewer wires to the hub, but the pads must sit in chain order round the table,",
                "and a pad unplugged darkens every pad after it.",
            ]
        for text in lines:
            svg.text(x0, y, text, size=11)
            y += 17
    svg.text(30, 540, "The numbers on the grey cables: the wires each carries. The pixels "
             "are numbered along the data path: seat n's pixel is n − 1 "
             "(the profile's light: pixel).", size=11, colour=GREY)
    return svg.document(1100, 560, f"Chain or return to hub ({name})")


# -- the hub board -------------------------------------------------------------------------


def _hub(profile: WiringProfile, name: str) -> str:
    svg = Svg()
    seats = profile.seats
    _heading(svg, f"The hub board ({name})",
             "perfboard seen from the component side, the Pico's USB at the top; the buttons' "
             "resistors are here, at the hub end of each cable")
    bx, by, bw = 30, 80, 1040
    col_w = (bw - 40) / len(seats)
    height = 620
    svg.rect(bx, by, bw, height, fill="#fffde7", rx=8)
    # The Pico, USB up, pin 1 top left (seen from above).
    pico_x, pico_y = bx + 30, by + 30
    svg.rect(pico_x, pico_y, 120, 250, fill="#e8f5e9", rx=4)
    svg.rect(pico_x + 42, pico_y - 14, 36, 20, fill="#bdbdbd", rx=3)
    svg.text(pico_x + 60, pico_y - 20, "USB → Pi", size=11, anchor="middle", bold=True)
    svg.text(pico_x + 60, pico_y + 120, "Pico", size=16, anchor="middle", bold=True)
    svg.text(pico_x + 60, pico_y + 140, "seen from above", size=10, anchor="middle")
    svg.circle(pico_x + 10, pico_y + 14, 5, fill=INK)
    svg.text(pico_x + 20, pico_y + 18, "pin 1 (GP0)", size=10)
    svg.text(pico_x + 60, pico_y + 170, "pin 36 3V3(OUT)", size=10, anchor="middle",
             colour=RAIL_3V3)
    svg.text(pico_x + 60, pico_y + 186, "pin 40 VBUS (5 V)", size=10, anchor="middle",
             colour=RAIL_5V)
    svg.text(pico_x + 60, pico_y + 202, f"pin {CHAIN_GROUND} GND", size=10, anchor="middle")
    # The level shifter: DIP-14 from above, notch up, pin 1 top left.
    chip_x, chip_y = bx + 300, by + 40
    svg.rect(chip_x, chip_y, 90, 170, fill="#424242", rx=3)
    svg.parts.append(f"<path d='M{chip_x + 35:g},{chip_y:g} A10,10 0 0 0 {chip_x + 55:g},"
                     f"{chip_y:g}' fill='#fffde7' stroke='{INK}'/>")
    svg.circle(chip_x + 12, chip_y + 14, 3, fill="white")
    svg.text(chip_x + 45, chip_y + 95, "74AHCT125", size=10, anchor="middle", colour="white",
             bold=True)
    left = ("1 1OE: GND", f"2 1A ← GP{profile.pixel_pin}", f"3 1Y → {PIXEL_SERIES}", "4 2OE: 5 V", "5 2A: GND", "6 —",
            "7 GND")
    right = ("14 VCC: 5 V", "13 4OE: 5 V", "12 4A: GND", "11 —", "10 3OE: 5 V", "9 3A: GND",
             "8 —")
    for i, (lt, rt) in enumerate(zip(left, right, strict=True)):
        y = chip_y + 16 + i * 23
        svg.line(chip_x - 10, y, chip_x, y, width=3)
        svg.line(chip_x + 90, y, chip_x + 100, y, width=3)
        svg.text(chip_x - 14, y + 4, lt, size=10, anchor="end")
        svg.text(chip_x + 104, y + 4, rt, size=10)
    svg.text(chip_x + 45, chip_y + 196, "notch up, pin 1 by the dot;", size=10,
             anchor="middle")
    svg.text(chip_x + 45, chip_y + 210, "100 nF from pin 14 to pin 7", size=10,
             anchor="middle")
    pixel_pin = profile.pixel_pin
    svg.text(chip_x - 14, chip_y + 250, f"data: GP{pixel_pin} (pin {PICO.physical(pixel_pin)})"
             f" → pin 2; pin 3 → {PIXEL_SERIES} → jack 1 pin {rj45_pin('DIN')}", size=11)
    # One column per seat: the jack at the board's edge, its three button lines up from it,
    # each with its pull-up (to a 3V3 flag: the 3V3(OUT) rail) and its series resistor on
    # the way to the Pico's pin named at its top.
    jack_y = by + height - 80
    for index, seat in enumerate(seats):
        colour = SEAT_COLOURS[index % len(SEAT_COLOURS)]
        cx = bx + 20 + col_w * index
        svg.rect(cx + 6, by + 300, col_w - 12, jack_y - by - 290, stroke=colour, rx=6)
        svg.text(cx + col_w / 2, by + 320, f"Seat {index + 1}", size=13, anchor="middle",
                 colour=colour, bold=True)
        jack_x = cx + col_w / 2 - 75
        for line, (button, pin) in enumerate(seat.buttons):
            lx = jack_x + 25 + line * 50
            node = by + 450
            svg.text(lx, by + 342, f"GP{pin}", size=11, anchor="middle", bold=True,
                     colour=colour)
            svg.text(lx, by + 355, f"pin {PICO.physical(pin)}", size=9, anchor="middle",
                     colour=colour)
            svg.line(lx, by + 360, lx, by + 372)
            svg.rect(lx - 5, by + 372, 10, 36, fill="white")  # 1 kOhm
            svg.line(lx, by + 408, lx, jack_y)
            svg.circle(lx, node, 2.8)
            svg.line(lx, node, lx + 16, node)
            svg.line(lx + 16, node, lx + 16, by + 440)
            svg.rect(lx + 11, by + 404, 10, 36, fill="white")  # 10 kOhm
            svg.line(lx + 16, by + 404, lx + 16, by + 392, colour=RAIL_3V3)
            svg.line(lx + 10, by + 392, lx + 22, by + 392, colour=RAIL_3V3, width=2.4)
            svg.text(lx + 16, by + 386, "3V3", size=8, anchor="middle", colour=RAIL_3V3,
                     bold=True)
            svg.text(lx - 8, node + 24, button.upper(), size=11, anchor="end", bold=True)
        # the jack, its opening at the board's edge; the three button pins drawn
        svg.rect(jack_x, jack_y, 150, 54, fill="#e0e0e0", rx=3)
        for line, (button, _pin) in enumerate(seat.buttons):
            svg.text(jack_x + 25 + line * 50, jack_y + 13, str(rj45_pin(button.upper())),
                     size=10, anchor="middle", bold=True)
        svg.text(jack_x + 75, jack_y + 30, f"jack {index + 1}", size=12, anchor="middle",
                 bold=True)
        svg.text(jack_x + 75, jack_y + 46, "4: 5 V · 5, 6: GND", size=9, anchor="middle")
    for index in range(len(seats) - 1):
        x1 = bx + 20 + col_w * index + col_w / 2 + 40
        x2 = bx + 20 + col_w * (index + 1) + col_w / 2 - 40
        _arrow(svg, x1, jack_y + 64, x2, jack_y + 64, colour="#1565c0")
        svg.text((x1 + x2) / 2, jack_y + 78, f"pin {rj45_pin('DOUT')} → next pin "
                 f"{rj45_pin('DIN')}", size=9, anchor="middle", colour="#1565c0")
    # the legend of a button line's two resistors
    lx, ly = bx + 640, by + 60
    svg.text(lx, ly, "In every button line:", size=12, bold=True)
    svg.rect(lx + 4, ly + 14, 10, 36, fill="white")
    svg.text(lx + 24, ly + 36, f"{SERIES}: in line, jack side → the Pico's pin", size=11)
    svg.rect(lx + 4, ly + 62, 10, 36, fill="white")
    svg.text(lx + 24, ly + 84, f"{PULL_UP}: from the jack side up to 3V3", size=11)
    svg.line(lx + 2, ly + 116, lx + 14, ly + 116, colour=RAIL_3V3, width=2.4)
    svg.text(lx + 24, ly + 120, "3V3: the 3V3(OUT) rail (pin 36)", size=11, colour=RAIL_3V3)
    svg.text(lx, ly + 150, "The jacks sit on the bottom edge, openings outward.", size=11)
    svg.text(lx, ly + 168, "Under a GP name: its Pico pin; in a jack: the cable's pins.",
             size=11)
    y = by + height + 24
    notes = [
        (f"Each button line at the hub: jack pin → {SERIES} → the Pico's GP pin, and "
         f"{PULL_UP} from the jack side of the {SERIES} up to 3V3(OUT). Why at this end: "
         "hardware/WIRING.md."),
        ("The names on the Pico's pins are the GP numbers of the profile: wire them as drawn "
        "and `companion check-config` agrees with it."),
        ("Return to hub (drawn): jack n's pin 8 to jack n+1's pin 3 (blue). Chain: leave them "
        "apart, only jack 1's pin 3 carries data."),
        ("Run three bare wires along the board as rails: 3V3(OUT) (pin 36) for every 3V3 "
         "flag, 5 V (VBUS, pin 40) and GND (pin 38) for the jacks and the 74AHCT125."),
    ]
    for note in notes:
        svg.text(30, y, note, size=11)
        y += 18
    svg.text(30, y, "100 µF across 5 V / GND at jack 1 (or at the first pixel).", size=11)
    return svg.document(1100, y + 20, f"The hub board ({name})")
