"""Shared by the BG Stats, charts and report tests: finished games as ``companion score
--json`` gives them, and a small history and campaign ledger to draw."""

from __future__ import annotations

import json
from pathlib import Path

from companion.games.kings_dilemma import campaign as kc
from companion.games.kings_dilemma import data as kd_data
from companion.storage.history import History


def scored(game="koryo", scores=(("Ana", 5), ("Ben", 9)), winners=None) -> dict:
    """A result: ``scores`` as (name, total) in seating order; the best total wins."""
    best = max(t for _, t in scores)
    return {"game": game,
            "players": [{"name": n, "total": t, "breakdown": {"tokens": t}} for n, t in scores],
            "winners": winners or [n for n, t in scores if t == best]}


EVENINGS = [  # (date, game, scores)
    ("2026-11-02T21:00:00+01:00", "koryo", (("Ana", 31), ("Ben", 27), ("Cléo", 33))),
    ("2026-11-05T21:10:00+01:00", "koryo", (("Ana", 24), ("Ben", 29), ("Dan", 18))),
    ("2026-11-09T22:00:00+01:00", "choson", (("Ben", 41), ("Dan", 38))),
    ("2026-11-12T21:30:00+01:00", "inheritors", (("Ana", 22), ("Cléo", 19))),
    ("2026-11-16T21:40:00+01:00", "koryo", (("Ana", 35), ("Ben", 35), ("Cléo", 20))),
    ("2026-11-20T23:00:00+01:00", "kings-dilemma",
     (("Ana", 8), ("Ben", 10), ("Cléo", 7), ("Dan", 3))),
]


def evenings(path: Path) -> Path:
    """A history database holding ``EVENINGS``."""
    with History(path) as h:
        for when, game, scores in EVENINGS:
            h.record(scored(game, scores), when)
    return path


PRESTIGE = {"1st": 3, "2nd": 2, "3rd": 1, "4th": 0, "last": 0}
CRAVE = {"4th": 1, "last": 2}


def campaign_ledger(path: Path, nights=((8, 10, 7, 3), (12, 6, 9, 9), (5, 7, 11, 4))) -> Path:
    """A ledger of a campaign of four houses over ``nights`` (each house's total per
    night), the awards given by hand by rank (``PRESTIGE``, ``CRAVE``)."""
    settings = kd_data.shipped().settings
    campaign = kc.new_campaign(settings)
    houses = ("Ana", "Ben", "Cléo", "Dan")
    for i, name in enumerate(houses, start=1):
        campaign = kc.apply(campaign, kc.AddHouse(name, i))
    for totals in nights:
        by_total = dict(zip(houses, totals, strict=True))
        ranks = kc.game_ranks(by_total)
        hand = {house: {"prestige": PRESTIGE[rank], "crave": CRAVE.get(rank, 0)}
                for house, rank in ranks.items()}
        agendas = dict(zip(houses, ("opulence", "extremism", "moderation", "rebellion"),
                           strict=True))
        campaign = kc.apply(campaign, kc.RecordGame(kc.KING_DIED, by_total, agendas, hand))
    path.write_text(json.dumps(campaign.to_dict(), ensure_ascii=False), encoding="utf-8")
    return path


# BG Stats' play link as its page documents it ("Push plays to BG Stats from other apps or
# websites", bgstatsapp.com), written out here apart from companion/records/bgstats.py so that a
# field the code drops fails the tests. The types are the page's example's.
BGSTATS_PLAY = {"sourceName": str, "sourcePlayId": str, "playDate": str, "game": dict,
                "players": list}
BGSTATS_GAME = {"name": str}
BGSTATS_PLAYER = {"name": str, "score": int, "winner": bool, "startPlayer": bool}
BGSTATS_OPTIONAL = {"durationMin": int, "location": str, "comments": str, "board": str}


def check_bgstats_play(play: dict) -> None:
    """Every field BG Stats' page names is there with its type, on the play, its game and
    every player; nothing else but its optional fields; the date as the page writes it."""
    import re

    for fields, where in ((BGSTATS_PLAY, play), (BGSTATS_GAME, play["game"]),
                          *((BGSTATS_PLAYER, p) for p in play["players"])):
        for key, kind in fields.items():
            assert key in where, f"{key} missing from {where}"
            assert type(where[key]) is kind, f"{key}: {where[key]!r} is not {kind.__name__}"
    assert set(play) <= set(BGSTATS_PLAY) | set(BGSTATS_OPTIONAL), set(play)
    assert set(play["game"]) <= set(BGSTATS_GAME) | {"bggId", "highestWins", "noPoints",
                                                     "sourceGameId"}
    for p in play["players"]:
        assert set(p) <= set(BGSTATS_PLAYER) | {"rank", "role", "sourcePlayerId"}, set(p)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"]), play["playDate"]
    assert play["players"] and play["sourceName"] and play["sourcePlayId"]
