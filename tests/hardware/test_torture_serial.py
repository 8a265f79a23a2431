"""Serial-fault torture during a King's Dilemma secret vote: the real firmware logic on a
pty (``tests/hardware/test_hw_serial.py``'s fake pad) sends the seats' presses to the real
``SerialBackend`` while the line is hit, between presses, by random garbage bytes, frames
cut short, frames with a bad checksum, and the pad is unplugged and plugged back twice.
The backend never crashes, every seat is shown missing (``on_status`` False) while
unplugged and back afterwards with its lights, and the presses received, turned into vote
actions by the button grammar (``kd_buttons.press``), are exactly those of the presses sent:
none lost, none invented.

``tests/hardware/test_hw_serial.py`` proves each fault alone; this mixes them, at random points,
with a vote depending on every press.
"""

from __future__ import annotations

import os
import random

from fakes.pty_pad import WAIT, Host, PtyPad, connect

from companion.games.kings_dilemma import buttons as kd_buttons
from companion.games.kings_dilemma import vote as kd_vote
from companion.hardware import padproto
from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent, Light, Press

PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]
POWER = 3


def script(rng: random.Random) -> list[ButtonEvent]:
    """Each seat: 1-3 presses on its side, sometimes one too many (refused: over its
    power), a long press that locks; seats interleaved at random."""
    per_seat = []
    for seat in range(len(PLAYERS)):
        side = rng.choice("ab")
        presses = [ButtonEvent(seat, side)] * rng.randint(1, POWER)
        if rng.random() < 0.3:
            presses.append(ButtonEvent(seat, side))
        per_seat.append([*presses, ButtonEvent(seat, side, Press.LONG)])
    out = []
    while any(per_seat):
        seat_presses = rng.choice([p for p in per_seat if p])
        out.append(seat_presses.pop(0))
    return out


def vote_actions(events: list[ButtonEvent]) -> tuple[list, kd_vote.Vote]:
    """The vote actions (None for a refused press) the grammar makes of ``events``."""
    state = kd_vote.new_vote(PLAYERS, leader="Ana", moderator="Ben",
                             power=dict.fromkeys(PLAYERS, POWER), coins=dict.fromkeys(PLAYERS, 0),
                             balance=0, mode=kd_vote.SECRET)
    pads = kd_vote.pads_for(state)
    actions = []
    for event in events:
        try:
            pads, action = kd_buttons.press(state, pads, event)
        except RuleError:
            actions.append(None)
            continue
        if action is not None:
            state = kd_vote.apply(state, action)
        actions.append(action)
    return actions, state


def fault(pad: PtyPad, rng: random.Random) -> None:
    """Write line noise of one kind between two frames of the pad."""
    kind = rng.randrange(3)
    frame = padproto.encode(rng.randrange(len(PLAYERS)), padproto.SHORT, f"a,{rng.randrange(99)}")
    if kind == 0:  # garbage, newlines and '$' included
        os.write(pad.master, rng.randbytes(rng.randint(1, 200)))
    elif kind == 1:  # a frame cut short
        os.write(pad.master, frame[: rng.randint(1, len(frame) - 2)])
    else:  # a whole frame whose checksum does not match
        bad = frame[:-3] + f"{int(frame[-3:-1], 16) ^ rng.randint(1, 255):02X}\n".encode()
        os.write(pad.master, bad)


def test_vote_through_noisy_serial_line_and_two_unplugs_loses_and_invents_no_action(tmp_path):
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"
    sent = script(rng)
    unplug_at = set(rng.sample(range(1, len(sent)), 2))
    seats = len(PLAYERS)

    pad = PtyPad(link)
    host = Host(link, seats=seats)
    connect(pad, host, seats)
    received: list[ButtonEvent] = []
    lights = [Light.OFF] * seats
    for i, event in enumerate(sent):
        if i in unplug_at:
            received += host.next_events(i - len(received))  # all sent so far arrived
            pad.unplug()
            assert host.statuses(seats) == [(s, False) for s in range(seats)], seed
            assert not any(host.backend.connected(s) for s in range(seats))
            pad = PtyPad(link)  # plugged back: a rebooted pad, dark, sequence from 0
            connect(pad, host, seats)
            assert pad.pad.lights[:seats] == [light.value for light in lights], seed
        for _ in range(rng.randrange(3)):
            fault(pad, rng)
        pad.press(event.seat, event.button, hold_ms=800 if event.press is Press.LONG else 60)
        if event.press is Press.LONG:  # the screen marks the locked ballot on the seat
            lights[event.seat] = Light.BALLOT_LOCKED
            host.backend.set_light(event.seat, Light.BALLOT_LOCKED)
    fault(pad, rng)
    received += host.next_events(len(sent) - len(received))
    pad.press(0, "c")  # a last press after all the noise: proves nothing else is queued
    assert host.events.get(timeout=WAIT) == ButtonEvent(0, "c"), seed
    host.assert_quiet()

    assert received == sent, seed
    expected, end = vote_actions(sent)
    got, state = vote_actions(received)
    assert got == expected and state == end, seed
    assert state.phase != kd_vote.VOTING, seed  # every ballot locked: the vote went through
    assert host.backend.stats["connects"] == 3, seed
    host.backend.close()
    pad.unplug()
