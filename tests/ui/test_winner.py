"""The shared winner screen: a breakdown's spelt-out sum ("8+7+5 = 20") is drawn whole
where its column has room, and as its result alone where it has not, never touching the
next column's figures."""

from __future__ import annotations

import pytest
from ui_majority import fits

from companion.ui.winner import Standing, Sum, WinnerScreen, WinnerView

LABELS = ["Families", "VP tokens", "Kept events", "First player", "Yi's Legacy"]
ANA = Standing("Ana", "26", [Sum([8, 7, 5], 20), "0", "1", "2", "3"])
BEN = Standing("Ben", "8", [Sum([3, 2, 1], 6), "2", "0", "0", "0"])
OTHERS = [Standing(name, "5", [Sum([4, 1], 5), "0", "0", "0", "1"]) for name in ("Cleo", "Dan", "Eve")]


def drawn(rig, standings):
    """The winner screen of ``standings`` drawn; the text boxes of its frame."""
    view = WinnerView(rig.app, "choson", standings, LABELS, [standings[0].name],
                      [("Done", lambda: None, "done")])
    rig.ctx.show(WinnerScreen(rig.app, view))
    rig.app.step(block=False)
    fits(rig.app)
    return rig.app.painter.texts


def gaps_in_rows(boxes) -> list[int]:
    """The horizontal gaps between neighbouring texts on the same line."""
    rows: dict[int, list] = {}
    for box in boxes:
        rows.setdefault(box.rect.centery, []).append(box.rect)
    return [b.left - a.right for rects in rows.values()
            for a, b in zip(sorted(rects, key=lambda r: r.x), sorted(rects, key=lambda r: r.x)[1:])]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_five_narrow_columns_show_a_sum_by_its_result_and_figures_stay_apart(open_table, size):
    rig = open_table(size=size)
    boxes = drawn(rig, [ANA, BEN, *OTHERS])
    texts = [box.text for box in boxes]
    assert "20" in texts and "8+7+5 = 20" not in texts
    assert min(gaps_in_rows(boxes)) >= rig.app.theme.px(8)


def test_two_wide_columns_spell_the_sum_out(open_table):
    rig = open_table(size=(1280, 720))
    texts = [box.text for box in drawn(rig, [ANA, BEN])]
    assert "8+7+5 = 20" in texts and "3+2+1 = 6" in texts


@pytest.mark.parametrize(("language", "said"), [
    ("en", {"Ana": "2nd · 8", "Ben": "2nd · 8", "Cleo": "1st · 10", "Dan": "4th · 3"}),
    ("fr", {"Ana": "2e · 8", "Ben": "2e · 8", "Cleo": "1er · 10", "Dan": "4e · 3"}),
])
def test_each_seats_plate_says_its_players_place_and_total_ties_sharing_a_place(
        open_table, language, said):
    rig = open_table(language=language)
    standings = [Standing(name, total, ["0"] * len(LABELS))
                 for name, total in (("Ana", "8"), ("Ben", "8"), ("Cleo", "10"), ("Dan", "3"))]
    view = WinnerView(rig.app, "kings-dilemma", standings, LABELS, ["Cleo"],
                      [("Done", lambda: None, "done")])
    rig.ctx.show(WinnerScreen(rig.app, view))
    rig.app.step(block=False)
    fits(rig.app)
    boxes = rig.app.painter.texts
    for seat, plate in enumerate(view.ring.plates):
        name = rig.app.seats[seat].name
        on_plate = [b.text for b in boxes if plate.rect.contains(b.rect)]
        assert on_plate == [said[name], name] or on_plate == [name, said[name]], on_plate


def test_a_player_without_a_seat_has_no_plate_and_the_seats_without_a_player_no_note(
        open_table):
    rig = open_table()
    standings = [Standing("Ana", "5", ["0"] * len(LABELS)),
                 Standing("Zoé", "7", ["0"] * len(LABELS))]
    view = WinnerView(rig.app, "koryo", standings, LABELS, ["Zoé"],
                      [("Done", lambda: None, "done")])
    assert view.ring.figures == {0: "2nd · 5"}  # Ana sits at seat 0; Zoé at none


def test_on_a_crowded_edge_a_plates_figure_leaves_its_name_room(open_table):
    """Five houses, three of them on one edge of the 800×480 panel, in French: a figure
    takes half a slim plate's line at most, and no name is cut; one that can't fit whole
    there ("Dernier · 12" beside "Béatrice") shows its total alone, whole."""
    from companion.config import SeatConfig

    seats = [SeatConfig(name, colour, position) for name, colour, position in (
        ("Ana", (200, 40, 40), "bottom-left"), ("Béatrice", (40, 90, 200), "bottom-right"),
        ("Cleo", (40, 170, 70), "bottom"), ("Dan", (220, 190, 40), "top"),
        ("Eve", (150, 60, 170), "right"))]
    rig = open_table(language="fr", seats=seats)
    results = (("30", "1er"), ("12", "Dernier"), ("20", "3e"), ("15", "4e"), ("28", "2e"))
    view = WinnerView(rig.app, "kings-dilemma",
                      [Standing(s.name, total, ["0"] * len(LABELS), rank)
                       for s, (total, rank) in zip(seats, results, strict=True)],
                      LABELS, ["Ana"], [("Done", lambda: None, "done")])
    rig.ctx.show(WinnerScreen(rig.app, view))
    rig.app.step(block=False)
    boxes = rig.app.painter.texts
    shown = {}
    for seat, plate in enumerate(view.ring.plates):
        on_plate = {b.text: b for b in boxes if plate.rect.contains(b.rect)}
        name = seats[seat].name
        assert name in on_plate and not on_plate[name].clipped, (name, list(on_plate))
        [(figure, box)] = [(t, b) for t, b in on_plate.items() if t != name]
        assert not box.clipped, figure
        shown[name] = figure
    assert shown == {"Ana": "1er · 30", "Béatrice": "12", "Cleo": "3e · 20", "Dan": "4e · 15",
                     "Eve": "2e · 28"}


def test_a_play_too_long_for_any_code_shows_its_breakdown_and_says_so(open_table):
    """Seven players once the game is kept (too many for the longest code a screen shows,
    names shortened or not; no game of ours seats seven, an imported one may): the
    breakdown with every total, the note that says why there is no code, whole, and no
    button to a code."""
    from companion.storage.history import result_of

    scores = [(f"Player {i}", 40 - i) for i in range(7)]
    played = result_of({"game": "koryo", "winners": ["Player 0"], "players": [
        {"name": n, "total": s, "breakdown": {}} for n, s in scores]},
        "2026-11-23T23:40:00+01:00", started="2026-11-23T20:05:00+01:00")
    rig = open_table(size=(1280, 720))
    standings = [Standing(n, str(s), ["0"] * len(LABELS)) for n, s in scores]
    view = WinnerView(rig.app, "koryo", standings, LABELS, ["Player 0"],
                      [("Done", lambda: None, "done")], played)
    rig.ctx.show(WinnerScreen(rig.app, view))
    rig.app.step(block=False)
    assert not [b.text for b in rig.app.painter.texts
                if view.notes_rect.contains(b.rect) and b.clipped]
    assert view.code is None and not view.showing_code
    assert [getattr(b, "key", "") for b in view.buttons] == ["done"]
    shown = {b.text for b in rig.app.painter.texts}
    assert {str(s) for _, s in scores} <= shown
    assert rig.app.catalog.text("playcode.too_long") in view.describe()
