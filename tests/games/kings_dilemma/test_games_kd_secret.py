"""Secret votes of The King's Dilemma stay secret until the last lock (the King's Dilemma rulebook
"Secret ballot"): for two different ballots of a seat (Aye 1 vs Nay 5, and different pending
presses, refused presses included) the public view, the seat lights, the journal's public
actions, the listener payloads, the log records and ``companion vote``'s output are the
same; after the last lock every ballot is revealed at once. A power cut (SIGKILL) during a
secret vote loses no locked ballot and reveals none."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.kings_dilemma import vote as kd_vote
from companion.games.kings_dilemma.adapter import KingsDilemma, SeatPads, new_night, turns
from companion.games.kings_dilemma.kingdom import RESOURCES
from companion.play.seat import ButtonEvent, Press
from companion.play.session import Session
from companion.play.turns import SILENT, lights
from companion.storage.journal import Journal

FIVE = ["Theodore", "Julius", "Armin", "Diana", "Frances"]
SETUP = {"players": FIVE, "leader": "Theodore", "moderator": "Julius",
         "momenta": dict.fromkeys(RESOURCES, "up")}
# The whole vote on the buttons (lower case short, upper case long), seat by seat.
SCRIPT = {0: "a A", 1: "b b b B", 2: "C", 3: "c A", 4: "a a A"}


def keys(pads: SeatPads, seat: int, spec: str) -> list:
    """Press ``spec`` on ``seat``; returns what each press returned."""
    return [pads.press(ButtonEvent(seat, k.lower(), Press.LONG if k.isupper() else Press.SHORT))
            for k in spec.split()]


def secret_night(tmp_path: Path, name: str) -> tuple[Session, SeatPads, list]:
    journal = Journal(tmp_path / f"{name}.db")
    session = Session.start(journal, KingsDilemma(), SETUP)
    session.dispatch({"action": "dilemma", "mode": "secret"})
    payloads: list = []
    session.subscribe(payloads.append)
    pads = SeatPads(session)
    pads.subscribe(payloads.append)
    return session, pads, payloads


def observe(tmp_path, caplog, name, seat0, seat3):
    """Everything anyone sees while seat 0 locks ``seat0`` and seat 3 has ``seat3`` pending
    (seats 1, 2 lock the same ballots in both runs; seat 4 has not locked)."""
    caplog.clear()
    session, pads, payloads = secret_night(tmp_path, name)
    returned = keys(pads, 0, seat0) + keys(pads, 1, SCRIPT[1]) + keys(pads, 3, seat3)
    returned += keys(pads, 2, SCRIPT[2])
    view = session.public_view()
    seen = {
        "view": view,
        "pads_view": pads.view(),
        "lights": lights(turns(view)),
        "journal": session.journal.actions(session.game_id),
        "payloads": payloads,
        # a press only changing a pending choice, or refused, answers SILENT (the same
        # whatever it did); the locks answer with views
        "returned": [r for r in returned if r is not SILENT],
        "logs": [(r.name, r.levelname, r.getMessage()) for r in caplog.records],
    }
    return session, pads, payloads, seen


def test_two_ballots_look_the_same_until_the_last_lock_then_all_revealed_at_once(
        tmp_path, caplog):
    """Aye 1 vs Nay 5 on seat 0, and seat 3's pending presses (one Aye vs Nay pressed past
    its 8 power, refused) give identical views, lights, journal, payloads, press results
    and logs; the last lock reveals all five ballots in one publication."""
    # on the package's logger: `companion run`, run in-process by an earlier test, leaves it
    # at INFO, which would drop the debug lines whatever the root's level
    caplog.set_level(logging.DEBUG, logger="companion")
    _, _, _, a = observe(tmp_path, caplog, "a", "a A", "a")
    sb, pb, payloads, b = observe(tmp_path, caplog, "b", "b b b b b B", " ".join("b" * 9))
    assert a == b
    assert [v["vote"]["seats"]["Theodore"] for v in a["payloads"]] == [{"locked": True}] * 3
    assert a["journal"][-3:] == [{"action": "lock", "player": p}
                                 for p in ("Theodore", "Julius", "Armin")]
    # the reveal: seat 3 and seat 4 lock; only the last lock publishes the ballots
    keys(pb, 3, "b B")
    assert payloads[-1]["vote"]["phase"] == "voting"
    n = len(payloads)
    keys(pb, 4, SCRIPT[4])
    assert len(payloads) == n + 1
    revealed = payloads[-1]["vote"]
    assert {p: (s["vote"], s["committed"]) for p, s in revealed["seats"].items()} == {
        "Theodore": ("nay", 5), "Julius": ("nay", 3), "Armin": ("pass-moderator", 0),
        "Diana": ("nay", 9 - 1), "Frances": ("aye", 2)}
    assert sb.public_view()["phase"] == "outcome"
    assert any("resolved" in r.getMessage() for r in caplog.records)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.sampled_from(kd_vote.CHOICES), st.integers(1, 8),
       st.sampled_from(kd_vote.CHOICES), st.integers(1, 8), st.sets(st.integers(0, 4), max_size=4))
def test_any_two_ballots_of_a_seat_give_equal_views_and_lights(seat, c1, n1, c2, n2, others):
    """Property, on the rules object: whatever ballot a seat locks (and whichever other
    seats have locked, short of everyone), the public view and the lights are equal."""
    rules = KingsDilemma()
    night = rules.apply(new_night(SETUP), {"action": "dilemma", "mode": "secret"})
    others.discard(seat)
    if len(others) == 4:
        others.pop()

    def lock(state, who, choice, power):
        return rules.apply(state, {"action": "lock", "player": FIVE[who], "choice": choice,
                                   "power": power if choice in kd_vote.SIDES else 0})

    base = night
    for k in sorted(others):
        base = lock(base, k, kd_vote.AYE, 1)
    one, two = lock(base, seat, c1, n1), lock(base, seat, c2, n2)
    assert rules.public_view(one) == rules.public_view(two)
    assert lights(turns(rules.public_view(one))) == lights(turns(rules.public_view(two)))
    assert json.dumps(rules.public_view(one)) == json.dumps(rules.public_view(two))


PARTIAL = """\
game: kings-dilemma
players: [Ana, Ben, Chloe]
leader: Ana
moderator: Ben
power: {Ana: 8, Ben: 8, Chloe: 8}
coins: {Ana: 10, Ben: 10, Chloe: 10}
balance: 3
mode: secret
ballots: {Ana: BALLOT, Ben: pass-power}
"""


@pytest.mark.parametrize("flags", [[], ["--json"]])
def test_companion_vote_on_an_unfinished_secret_file_says_the_same_for_any_ballot(
        tmp_path, capsys, flags):
    """``companion vote`` on a secret file where Chloe has not locked: Ana's Aye 1 and Nay 5
    give the same exit code and the same output (no ballot content in the message)."""
    f = tmp_path / "vote.yaml"
    seen = []
    for ballot in ("aye 1", "nay 5"):
        f.write_text(PARTIAL.replace("BALLOT", ballot))
        code = main(["vote", str(f), *flags])
        seen.append((code, *capsys.readouterr()))
    assert seen[0] == seen[1]
    code, out, err = seen[0]
    assert code == 2 and out == "" and "ballots.Chloe" in err and "missing" in err
    assert not re.search(r"\b(aye|nay|1|5)\b", err.split(": ", 1)[1])


# -- power cut during a secret vote -----------------------------------------------------------


def child(db: str) -> None:
    """Start (or resume) the night, open a secret vote, lock seats 0–2 on the buttons
    (printing ``locked K`` after each lock returned), leave seat 3 pending, then wait."""
    journal = Journal(db)
    session = Session.resume(journal, KingsDilemma()) or Session.start(
        journal, KingsDilemma(), SETUP)
    session.dispatch({"action": "dilemma", "mode": "secret"})
    print("ready", flush=True)
    pads = SeatPads(session)
    for seat in (0, 1, 2):
        keys(pads, seat, SCRIPT[seat])
        print(f"locked {seat}", flush=True)
    keys(pads, 3, "c")
    print("pending", flush=True)
    sys.stdin.readline()  # killed here at the latest


def spawn(db: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, __file__, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])})


def kill_after(proc: subprocess.Popen, marker: str) -> list[str]:
    lines = []
    while True:
        line = proc.stdout.readline()
        assert line, f"the child ended before {marker!r}: {lines}"
        lines.append(line.strip())
        if line.strip() == marker:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    lines += [x.strip() for x in proc.stdout.read().splitlines()]
    proc.stdout.close()
    proc.stdin.close()
    return lines


@pytest.mark.parametrize("marker", ["ready", "locked 1", "pending"])
def test_power_cut_during_a_secret_vote_loses_no_locked_ballot_and_reveals_none(
        tmp_path, marker):
    """SIGKILL after ``marker``: on restart every ballot whose lock returned is still
    locked (at most the one in flight besides), nothing is revealed (public view and
    journal show only who locked), and once the remaining seats lock the vote resolves
    exactly as an uninterrupted one."""
    db = tmp_path / "night.db"
    lines = kill_after(spawn(db), marker)
    acked = {int(x.split()[1]) for x in lines if x.startswith("locked ")}
    journal = Journal(db)
    session = Session.resume(journal, KingsDilemma())
    view = session.public_view()
    assert view["phase"] == "vote" and view["vote"]["phase"] == "voting"
    locked = {FIVE.index(p) for p, s in view["vote"]["seats"].items() if s["locked"]}
    assert acked <= locked <= acked | {len(acked)}
    assert all(set(s) == {"locked"} for s in view["vote"]["seats"].values())
    assert journal.actions(session.game_id)[1:] == [
        {"action": "lock", "player": FIVE[k]} for k in sorted(locked)]
    pads = SeatPads(session)
    for seat in sorted(set(SCRIPT) - locked):
        keys(pads, seat, SCRIPT[seat])
    # the same vote without a power cut
    reference, ref_pads, _ = secret_night(tmp_path, "reference")
    for seat, spec in SCRIPT.items():
        keys(ref_pads, seat, spec)
    assert session.public_view() == reference.public_view()
    assert session.public_view()["vote"]["seats"]["Julius"]["vote"] == "nay"


if __name__ == "__main__":
    child(sys.argv[1])
