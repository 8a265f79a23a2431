"""Properties of Koryŏ and Chosŏn scoring, through the headless contract (`companion
score FILE --json` on generated legal Koryŏ and Chosŏn table files):

- at most one majority holder per family at scoring, and only with strictly the most cards;
- a family's points never go to a tied player;
- totals within the deck's bounds;
- scores invariant under rotating the seats — apart from the first-player bonus, which in
  Chosŏn stays with the seat holding the token.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.choson import rules as choson
from companion.games.koryo import rules as koryo

WORKDIR = Path()  # the module's own temporary directory, set by the fixture below


@pytest.fixture(scope="module", autouse=True)
def _workdir(tmp_path_factory):
    """Hypothesis reruns a test many times, so files go to one directory per module (pytest
    removes it like any tmp_path) rather than to a fresh tmp_path per call."""
    global WORKDIR
    WORKDIR = tmp_path_factory.mktemp("props")


PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["Ana", "Ben", "Chloé", "Dan"]


def score(doc: dict) -> dict:
    path = WORKDIR / "table.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", str(path), "--json"]) == 0
    return json.loads(out.getvalue())


@st.composite
def tables(draw, game: str) -> dict:
    """A legal end-of-game table file: each card of the deck is out of play or in front of
    one player; VP tokens likewise; Chosŏn adds kept events, first player, Yi's Legacy."""
    names = NAMES[: draw(st.integers(2, 4))]
    deck = koryo.DECK if game == "koryo" else {v: v for v in range(1, 10)}
    cards: dict[str, dict] = {p: {} for p in names}
    for kind, size in deck.items():
        for owner in draw(st.lists(st.sampled_from([None, *names]), min_size=size,
                                   max_size=size)):
            if owner is not None:
                cards[owner][kind] = cards[owner].get(kind, 0) + 1
    supply = koryo.VP_TOKENS if game == "koryo" else choson.VP_TOKENS
    holders = draw(st.lists(st.sampled_from([None, *names]), min_size=supply, max_size=supply))
    doc = {"game": game, "players": names, "cards": cards,
           "tokens": {p: holders.count(p) for p in names}}
    if game == "choson":
        kept = draw(st.lists(st.sampled_from([None, *names]), max_size=choson.EVENTS_IN_DECK))
        doc["kept_events"] = {p: kept.count(p) for p in names}
        doc["first_player"] = draw(st.sampled_from(names))
        legacy = draw(st.sampled_from([None, *names]))
        if legacy is not None:
            doc["yi_legacy"] = legacy
    return doc


def family_checks(doc: dict, result: dict) -> None:
    """One holder at most per family, with strictly the most cards, the only one scoring."""
    names = doc["players"]
    for fam in result["families"]:
        v = fam["family"]
        counts = {p: doc["cards"][p].get(v, 0) for p in names}
        scorers = [p["name"] for p in result["players"] if p["breakdown"][f"family_{v}"]]
        assert len(scorers) <= 1
        if fam["holder"] is None:
            assert scorers == []
        else:
            h = fam["holder"]
            assert scorers == [h] and fam["points"] == v
            assert all(counts[h] > counts[q] for q in names if q != h)
        top = max(counts.values())
        tied = [p for p in names if counts[p] == top]
        if len(tied) > 1:
            assert not set(scorers) & set(tied), "a tied player scored the family"


@PROPS
@given(tables("koryo"))
def test_koryo_majorities_and_bounds(doc):
    """Koryŏ: majorities as above; family points ≤ 45 in all; each total between −10 (all
    the events) and 45 + 8 tokens; events −1 each, tokens +1 each."""
    r = score(doc)
    family_checks(doc, r)
    assert sum(f["points"] for f in r["families"]) <= 45
    for p in r["players"]:
        cards = doc["cards"][p["name"]]
        events = cards.get("barbarian", 0) + cards.get("lobbying", 0)
        assert p["breakdown"]["events"] == -events
        assert p["breakdown"]["tokens"] == doc["tokens"][p["name"]]
        assert -10 <= p["total"] <= 45 + koryo.VP_TOKENS


@PROPS
@given(tables("choson"))
def test_choson_majorities_and_bounds(doc):
    """Chosŏn: majorities as above; before Yi's Legacy a total is at most 45 + 10 tokens +
    10 events + 2; the Legacy doubles 1…10 points, adds 3/4/5 (4/3/2 players) above 10."""
    r = score(doc)
    family_checks(doc, r)
    for p in r["players"]:
        before = p["total"] - p["breakdown"]["yi_legacy"]
        assert 0 <= before <= 45 + 10 + 10 + 2
        legacy = p["breakdown"]["yi_legacy"]
        if doc.get("yi_legacy") != p["name"] or before <= 0:
            assert legacy == 0
        elif before <= 10:
            assert legacy == before
        else:
            assert legacy == {4: 3, 3: 4, 2: 5}[len(doc["players"])]


def rotate(seq: list, k: int) -> list:
    k %= len(seq)
    return seq[k:] + seq[:k]


@PROPS
@given(tables("koryo"), st.integers(1, 3))
def test_koryo_rotating_the_seats_changes_no_score(doc, shift):
    """Koryŏ has no first-player bonus: every total and the winners are the same."""
    a = score(doc)
    b = score({**doc, "players": rotate(doc["players"], shift)})
    assert {p["name"]: p["total"] for p in a["players"]} == \
        {p["name"]: p["total"] for p in b["players"]}
    assert set(a["winners"]) == set(b["winners"])


@PROPS
@given(tables("choson"), st.integers(1, 3))
def test_choson_rotating_the_seats_changes_only_the_first_player_bonus(doc, shift):
    """Chosŏn: rotate the seating while the first-player token stays on its seat. Each
    player's points before the token and Yi's Legacy are unchanged; the +2 goes to whoever
    now sits there. With the token kept by the same player, every total is unchanged."""
    seat = doc["players"].index(doc["first_player"])
    rotated = rotate(doc["players"], shift)
    a = score(doc)
    b = score({**doc, "players": rotated, "first_player": rotated[seat]})

    def base(r):
        return {p["name"]: p["total"] - p["breakdown"]["yi_legacy"]
                - p["breakdown"]["first_player"] for p in r["players"]}

    assert base(a) == base(b)
    assert {p["name"] for p in b["players"] if p["breakdown"]["first_player"]} == \
        {rotated[seat]}
    same = score({**doc, "players": rotated})
    assert {p["name"]: p["total"] for p in a["players"]} == \
        {p["name"]: p["total"] for p in same["players"]}
