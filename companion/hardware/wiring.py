"""Wiring drawings made from a wiring profile, as plain SVG (no drawing library).

``drawing(profile)`` returns an SVG document a hobbyist can follow at the bench: on the
left the board's 40 pins as seen from above (the Raspberry Pi header, or the Pico with
its USB end up), each used pin tagged with its seat and button and each pin that a bus
can take (I²C, UART, SPI, I²S, 1-Wire, the display's power) marked; on the right one
block per seat: every button with its external pull-up and series resistor, every LED
with its resistor, or the seat's pixel, and the grounds; for the seat pads the WS2812
chain behind its 74AHCT125 level shifter. Pins are named the way the boards print them
(``GPIO 4`` / ``GP16``) beside the physical pin number, so the drawing is followed without
a pinout. ``companion wiring PROFILE --out FILE.svg`` writes it; the README shows the
drawings of the shipped profiles, kept equal to this output by a test.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from companion.hardware.profile import PI_BUSES, SeatWiring, WiringProfile

# Raspberry Pi 40-pin header: physical pin -> what it is (BCM number, or a power pin).
PI_HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}
# The official displays (7" DSI, Touch Display 2) take their power from these pins.
PI_DISPLAY_PINS = {2: "display 5V", 6: "display GND"}
# Raspberry Pi Pico: physical pin -> GP number or a power/control pin.
PICO_PINOUT: dict[int, int | str] = {
    1: 0, 2: 1, 3: "GND", 4: 2, 5: 3, 6: 4, 7: 5, 8: "GND", 9: 6, 10: 7,
    11: 8, 12: 9, 13: "GND", 14: 10, 15: 11, 16: 12, 17: 13, 18: "GND", 19: 14, 20: 15,
    21: 16, 22: 17, 23: "GND", 24: 18, 25: 19, 26: 20, 27: 21, 28: "GND", 29: 22, 30: "RUN",
    31: 26, 32: 27, 33: "AGND", 34: 28, 35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN",
    38: "GND", 39: "VSYS", 40: "VBUS",
}

# Parts, with why, in hardware/WIRING.md: buttons on 1-2 m cables get a stronger pull-up
# than the internal ~50 kOhm and a series resistor that keeps spikes off the pin.
PULL_UP = "10 kΩ"
SERIES = "1 kΩ"
LED_RESISTOR = "330 Ω (red; other colours: table)"
PIXEL_SERIES = "330 Ω"
SEAT_COLOURS = ("#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f",
                "#ad1457", "#4e342e")
BUS_COLOUR = "#9e9e9e"
POWER_USE = {
    ("Raspberry Pi header", "3V3"): "pull-ups",
    ("Raspberry Pi Pico", "3V3(OUT)"): "pull-ups",
    ("Raspberry Pi Pico", "VBUS"): "5 V: pixels, 74AHCT125",
}
INK = "#212121"
FONT = "font-family='DejaVu Sans, Arial, sans-serif'"

CHAIN_GROUND = 38  # the Pico's GND pin for the pixel chain and the level shifter
ROW = 24  # one row of pins
BLOCK_ROW = 52  # one button or LED line of a seat block
LEFT = 600  # where the seat blocks start
BOARD_X = 280  # the board's left pin column


@dataclass(frozen=True)
class Board:
    """What the drawing needs of a board: its pins and how a pin is called."""

    name: str
    pinout: dict[int, int | str]
    prefix: str  # "GPIO " (Raspberry Pi) or "GP" (Pico)
    supply: str  # the pull-ups' supply pin
    ground_pins: tuple[int, ...]

    def physical(self, what: int | str) -> int:
        """The physical pin of a GP/BCM number or of a named pin ("VBUS")."""
        for pin, is_what in self.pinout.items():
            if is_what == what:
                return pin
        raise ValueError(f"{what} is not on the {self.name}")

    def label(self, number: int) -> str:
        return f"pin {self.physical(number)} · {self.prefix}{number}"


PI = Board("Raspberry Pi header", PI_HEADER, "GPIO ", "3V3 (pin 1 or 17)",
           (9, 14, 20, 25, 30, 34, 39))
PICO = Board("Raspberry Pi Pico", PICO_PINOUT, "GP", "3V3(OUT) (pin 36)",
             (3, 8, 13, 18, 23, 28, 38))


class Svg:
    """Just enough SVG: lines, boxes, circles, text; coordinates in px."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = INK,
             width: float = 1.6, dash: bool = False) -> None:
        extra = " stroke-dasharray='6 4'" if dash else ""
        self.parts.append(f"<line x1='{x1:g}' y1='{y1:g}' x2='{x2:g}' y2='{y2:g}' "
                          f"stroke='{colour}' stroke-width='{width:g}'{extra}/>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str = INK, rx: float = 0) -> None:
        self.parts.append(f"<rect x='{x:g}' y='{y:g}' width='{w:g}' height='{h:g}' rx='{rx:g}' "
                          f"fill='{fill}' stroke='{stroke}' stroke-width='1.4'/>")

    def circle(self, x: float, y: float, r: float, fill: str = INK) -> None:
        self.parts.append(f"<circle cx='{x:g}' cy='{y:g}' r='{r:g}' fill='{fill}' "
                          f"stroke='{INK}' stroke-width='1.2'/>")

    def path(self, d: str, fill: str = "none") -> None:
        self.parts.append(f"<path d='{d}' fill='{fill}' stroke='{INK}' stroke-width='1.6'/>")

    def text(self, x: float, y: float, text: str, size: int = 13, anchor: str = "start",
             colour: str = INK, bold: bool = False) -> None:
        weight = " font-weight='bold'" if bold else ""
        self.parts.append(f"<text x='{x:g}' y='{y:g}' font-size='{size}' {FONT} "
                          f"text-anchor='{anchor}' fill='{colour}'{weight}>{escape(text)}</text>")

    def document(self, width: int, height: int, title: str) -> str:
        body = "\n".join(self.parts)
        return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
                f"viewBox='0 0 {width} {height}'>\n<title>{escape(title)}</title>\n"
                f"<rect width='{width}' height='{height}' fill='white'/>\n{body}\n</svg>\n")

    # -- symbols -------------------------------------------------------------------

    def resistor(self, x: float, y: float, value: str, below: bool = True) -> float:
        """A horizontal resistor from x on the line y; returns its right end."""
        self.rect(x, y - 6, 40, 12, fill="white")
        self.text(x + 20, y + (20 if below else -10), value, size=11, anchor="middle")
        return x + 40

    def ground(self, x: float, y: float) -> None:
        self.line(x, y, x, y + 8)
        for i, half in enumerate((9, 6, 3)):
            self.line(x - half, y + 8 + 4 * i, x + half, y + 8 + 4 * i)

    def button(self, x: float, y: float, name: str) -> float:
        """A normally open push button between x and x+36 on the line y."""
        self.circle(x + 4, y, 3, fill="white")
        self.circle(x + 32, y, 3, fill="white")
        self.line(x + 2, y - 9, x + 34, y - 9)
        self.line(x + 18, y - 9, x + 18, y - 16)
        self.text(x + 18, y - 20, name.upper(), size=13, anchor="middle", bold=True)
        return x + 36

    def led(self, x: float, y: float, forward: bool = True) -> float:
        """An LED between x and x+30 on the line y, anode on the left if ``forward``."""
        if forward:
            self.path(f"M{x + 6:g},{y - 8:g} L{x + 22:g},{y:g} L{x + 6:g},{y + 8:g} Z")
            self.line(x + 22, y - 8, x + 22, y + 8)
        else:
            self.path(f"M{x + 22:g},{y - 8:g} L{x + 6:g},{y:g} L{x + 22:g},{y + 8:g} Z")
            self.line(x + 6, y - 8, x + 6, y + 8)
        for dx in (10, 16):
            self.line(x + dx, y - 10, x + dx + 6, y - 16, width=1.1)
        return x + 30


def drawing(profile: WiringProfile, name: str) -> str:
    """The SVG drawing of ``profile`` (``name``: how the title calls it)."""
    board = PI if profile.kind == "gpio" else PICO
    svg = Svg()
    seats = profile.seats
    used = _used_pins(profile)
    title = f"Wiring: {name}"
    svg.text(20, 30, title, size=20, bold=True)
    svg.text(20, 52, _subtitle(profile, board), size=13)
    top = 100
    grounds = board.ground_pins
    seat_ground = [grounds[i % len(grounds)] for i in range(len(seats))]
    by_pin: dict[int, tuple[int, str]] = {}  # physical pin -> (seat or -1, its use)
    for index, pin in enumerate(seat_ground):
        by_pin.setdefault(pin, (index, f"Seat {index + 1} GND"))
    if profile.kind == "serial":
        by_pin[CHAIN_GROUND] = (-1, "GND: pixels")
    board_bottom = _board(svg, board, used, by_pin, top)
    y = top
    if profile.kind == "serial":
        y = _pixel_chain(svg, profile, y)
    for index, seat in enumerate(seats):
        y = _seat_block(svg, board, profile, index, seat, seat_ground[index], y)
    bottom = max(board_bottom, y) + 10
    bottom = _notes(svg, profile, bottom)
    return svg.document(LEFT + 560, bottom + 20, title)


def _subtitle(profile: WiringProfile, board: Board) -> str:
    text = profile.description or f"{len(profile.seats)} seats"
    return f"{text} — {board.name}, seen from above"


def _used_pins(profile: WiringProfile) -> dict[int, tuple[int, str]]:
    """Pin number -> (seat index or -1 for the pixel data line, what it does)."""
    used: dict[int, tuple[int, str]] = {}
    if profile.pixel_pin is not None:
        used[profile.pixel_pin] = (-1, "pixel data")
    for index, seat in enumerate(profile.seats):
        for button, pin in seat.buttons:
            used[pin] = (index, button.upper())
        if seat.led is not None:
            used[seat.led] = (index, "LED")
        if seat.rgb is not None:
            for colour, pin in zip("RGB", seat.rgb, strict=True):
                used[pin] = (index, f"LED {colour}")
    return used


def _board(svg: Svg, board: Board, used: dict[int, tuple[int, str]],
           by_pin: dict[int, tuple[int, str]], top: float) -> float:
    """The 40 pins in two columns as on the board; returns the bottom."""
    x_left, x_right = BOARD_X, BOARD_X + 30  # centres of the two pin columns
    rows = len(board.pinout) // 2
    svg.rect(x_left - 14, top - 14, x_right - x_left + 28, rows * ROW + 10, fill="#e8f5e9",
             rx=6)
    if board is PICO:
        svg.text((x_left + x_right) / 2, top - 20, "USB", size=12, anchor="middle", bold=True)
    for row in range(rows):
        y = top + row * ROW
        if board is PI:
            left, right = 2 * row + 1, 2 * row + 2
        else:
            left, right = row + 1, 2 * rows - row
        _pin(svg, board, left, x_left, y, used, by_pin, to_left=True)
        _pin(svg, board, right, x_right, y, used, by_pin, to_left=False)
    return top + rows * ROW


def _pin(svg: Svg, board: Board, pin: int, x: float, y: float,
         used: dict[int, tuple[int, str]], by_pin: dict[int, tuple[int, str]],
         to_left: bool) -> None:
    what = board.pinout[pin]
    fill = "white"
    tag = ""
    tag_colour = INK
    if isinstance(what, int) and what in used:
        seat, role = used[what]
        fill = tag_colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else INK
        tag = f"Seat {seat + 1} {role}" if seat >= 0 else role
    elif isinstance(what, str) and "GND" in what:
        fill = "#424242"
        if pin in by_pin:
            seat, tag = by_pin[pin]
            tag_colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else INK
    elif isinstance(what, str) and what in ("3V3", "5V", "3V3(OUT)", "VBUS", "VSYS"):
        fill = "#ffcdd2"
        tag = POWER_USE.get((board.name, what), "")
    svg.rect(x - 9, y - 9, 18, 18, fill=fill, rx=2)
    svg.text(x, y + 4, str(pin), size=9, anchor="middle",
             colour="white" if fill not in ("white", "#ffcdd2") else INK)
    name = f"{board.prefix}{what}" if isinstance(what, int) else what
    note = ""
    if board is PI:
        if isinstance(what, int) and what in PI_BUSES:
            note = PI_BUSES[what]
        elif pin in PI_DISPLAY_PINS:
            note = PI_DISPLAY_PINS[pin]
    sign = -1 if to_left else 1
    anchor = "end" if to_left else "start"
    svg.text(x + sign * 16, y + 4, name, size=11, anchor=anchor, bold=bool(tag))
    if note:
        svg.text(x + sign * 78, y + 4, note, size=9, anchor=anchor, colour=BUS_COLOUR)
    if tag:
        svg.text(x + sign * (170 if note else 80), y + 4, tag, size=11, anchor=anchor,
                 colour=tag_colour, bold=True)


def _seat_block(svg: Svg, board: Board, profile: WiringProfile, index: int, seat: SeatWiring,
                ground_pin: int, y: float) -> float:
    """One seat: header line, a line per button, then its light; returns the bottom."""
    colour = SEAT_COLOURS[index % len(SEAT_COLOURS)]
    rows = len(seat.buttons) + (3 if seat.rgb else 1)
    height = 34 + rows * BLOCK_ROW
    svg.rect(LEFT, y, 540, height - 8, stroke=colour, rx=8)
    svg.rect(LEFT, y, 8, height - 8, fill=colour, stroke=colour)
    svg.text(LEFT + 18, y + 20, f"Seat {index + 1}", size=15, colour=colour, bold=True)
    svg.text(LEFT + 90, y + 20, f"ground: pin {ground_pin} (GND), one wire in the cable",
             size=11)
    line_y = y + 34 + 28
    for button, pin in seat.buttons:
        _button_line(svg, board, seat, button, pin, line_y)
        line_y += BLOCK_ROW
    if seat.led is not None:
        _led_line(svg, board, seat, seat.led, "LED", line_y)
    elif seat.rgb is not None:
        for colour_name, pin in zip(("red", "green", "blue"), seat.rgb, strict=True):
            _led_line(svg, board, seat, pin, f"LED {colour_name}", line_y)
            line_y += BLOCK_ROW
    else:
        svg.text(LEFT + 18, line_y + 4, f"light: pixel {seat.pixel} of the WS2812 chain "
                 f"(above)", size=12)
    return y + height


def _button_line(svg: Svg, board: Board, seat: SeatWiring, button: str, pin: int,
                 y: float) -> None:
    x = LEFT + 18
    svg.text(x, y + 4, board.label(pin), size=12, bold=True)
    x0 = x + 140
    svg.line(x0, y, x0 + 12, y)
    x1 = svg.resistor(x0 + 12, y, SERIES)
    node = x1 + 24
    svg.line(x1, y, node, y)
    svg.circle(node, y, 2.6)
    svg.line(node, y, node, y - 18)
    svg.line(node, y - 18, node + 10, y - 18)
    end = svg.resistor(node + 10, y - 18, PULL_UP, below=False)
    supply = board.supply if seat.pull_up else "GND"
    svg.text(end + 6, y - 14, f"to {supply}", size=10)
    svg.line(node, y, node + 40, y)
    svg.line(node + 40, y, node + 190, y, dash=True)
    svg.text(node + 115, y + 16, "cable 1–2 m", size=10, anchor="middle", colour="#616161")
    bx = svg.button(node + 196, y, button)
    svg.line(node + 190, y, node + 196, y)
    svg.line(bx, y, bx + 20, y)
    if seat.pull_up:
        svg.ground(bx + 20, y)
    else:
        svg.text(bx + 24, y + 4, "3V3", size=11)


def _led_line(svg: Svg, board: Board, seat: SeatWiring, pin: int, what: str, y: float) -> None:
    x = LEFT + 18
    svg.text(x, y + 4, board.label(pin), size=12, bold=True)
    x0 = x + 140
    svg.line(x0, y, x0 + 12, y)
    x1 = svg.resistor(x0 + 12, y, LED_RESISTOR if what == "LED" else "330 Ω", below=False)
    svg.line(x1, y, x1 + 64, y)
    svg.line(x1 + 64, y, x1 + 214, y, dash=True)
    svg.text(x1 + 139, y + 16, "cable 1–2 m", size=10, anchor="middle", colour="#616161")
    lx = svg.led(x1 + 220, y, forward=seat.active_high)
    svg.line(x1 + 214, y, x1 + 220, y)
    svg.text(x1 + 235, y - 20, what, size=11, anchor="middle", bold=True)
    svg.line(lx, y, lx + 20, y)
    if seat.active_high:
        svg.ground(lx + 20, y)
    else:
        svg.text(lx + 24, y + 4, "3V3 (common anode)", size=11)


def _pixel_chain(svg: Svg, profile: WiringProfile, y: float) -> float:
    """GP pin -> 74AHCT125 (3.3 V in, 5 V out) -> 330 Ω -> pixel 0 -> pixel 1 …"""
    pin = profile.pixel_pin
    assert pin is not None
    height = 214
    svg.rect(LEFT, y, 540, height - 8, stroke=INK, rx=8)
    svg.text(LEFT + 18, y + 20, "Pixel chain (WS2812, 5 V) behind a level shifter", size=15,
             bold=True)
    line_y = y + 90
    x = LEFT + 18
    svg.text(x, line_y + 4, PICO.label(pin), size=12, bold=True)
    svg.line(x + 118, line_y, x + 150, line_y)
    # 74AHCT125: one buffer used (1A in, 1Y out, 1OE to GND)
    chip_x, chip_y = x + 150, line_y - 34
    svg.rect(chip_x, chip_y, 120, 86, fill="#fffde7")
    svg.text(chip_x + 60, chip_y - 6, "74AHCT125 (level shifter)", size=11, anchor="middle",
             bold=True)
    svg.text(chip_x + 6, line_y + 4, "2 (1A)", size=10)
    svg.text(chip_x + 114, line_y + 4, "3 (1Y)", size=10, anchor="end")
    svg.text(chip_x + 6, chip_y + 16, "14 VCC: 5 V", size=10)
    svg.text(chip_x + 6, chip_y + 62, "1 (1OE), 7: GND", size=10)
    svg.text(chip_x + 6, chip_y + 78, "4,10,13 (OE): 5 V", size=10)
    out = chip_x + 120
    svg.line(out, line_y, out + 14, line_y)
    end = svg.resistor(out + 14, line_y, PIXEL_SERIES)
    svg.line(end, line_y, end + 16, line_y)
    px = end + 16
    order = _pixel_order(profile)
    step = min(38.0, (LEFT + 530 - px) / len(order))
    for i, seat_no in enumerate(order):
        svg.rect(px, line_y - 12, step - 8, 24, fill="#fafafa")
        svg.text(px + (step - 8) / 2, line_y + 4, f"{i}", size=11, anchor="middle", bold=True)
        svg.text(px + (step - 8) / 2, line_y + 28, f"S{seat_no}", size=10, anchor="middle",
                 colour=SEAT_COLOURS[(seat_no - 1) % len(SEAT_COLOURS)], bold=True)
        if i < len(order) - 1:
            svg.line(px + step - 8, line_y, px + step, line_y)
        px += step
    svg.text(end + 16, line_y - 22, "DIN → DOUT, pixel by pixel", size=10)
    svg.text(x, y + 168, f"5 V: pin {PICO.physical('VBUS')} (VBUS) to every pixel and "
             "the 74AHCT125; 100 µF across 5 V/GND at pixel 0;", size=11)
    svg.text(x, y + 186, f"100 nF across VCC/GND at the 74AHCT125; GND: pin {CHAIN_GROUND}, one wire "
             "in every cable.", size=11)
    return y + height


def _pixel_order(profile: WiringProfile) -> list[int]:
    """Seat numbers (1-based) in the order of their pixels along the chain."""
    by_pixel = {seat.pixel: i + 1 for i, seat in enumerate(profile.seats)}
    return [by_pixel[p] for p in sorted(by_pixel)]


def _notes(svg: Svg, profile: WiringProfile, y: float) -> float:
    notes = [
        (f"Buttons: {PULL_UP} pull-up and {SERIES} series resistor at the board end of each "
         "1–2 m cable (hardware/WIRING.md says why)."),
    ]
    if profile.kind == "gpio":
        notes.append("LED resistor by colour: red 330 Ω, orange/yellow 270 Ω; blue, white, "
                     "true green need a transistor from 5 V (hardware/WIRING.md).")
        notes.append("Grey marks: pins a bus takes when enabled (I²C, UART, SPI, I²S, "
                     "1-Wire) and the display's power pins.")
    else:
        notes.append("The level shifter is required: WS2812 data needs ≥ 3.5 V at 5 V, the "
                     "Pico gives 3.3 V.")
    for note in notes:
        svg.text(20, y + 16, note, size=12)
        y += 20
    return y
