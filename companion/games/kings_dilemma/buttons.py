"""The King's Dilemma's button grammar (docs/button-grammar.md): what each press of a
seat's buttons means in a vote. It belongs to the seats, not to the rules: the vote's
rules (``companion.games.kings_dilemma.vote``) know players, choices and actions; this module reads
a ``ButtonEvent`` into a seat's pending choice (``kd_vote.Pad``) and, on a long press, the
vote action to apply. ``SeatPads`` (``companion.games.kings_dilemma.adapter``) drives it on a
running session.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.kings_dilemma.vote import (
    ADD,
    AYE,
    HOLD,
    NAY,
    OPEN,
    PASS_MODERATOR,
    PASS_POWER,
    SECRET,
    SIDES,
    VOTING,
    Action,
    BreakTie,
    Lock,
    Pad,
    Play,
    Vote,
    check_tie_breaker,
    side_name,
)
from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent, Press

BUTTON_SIDES = {"a": AYE, "b": NAY}
PASS_BUTTON = "c"

# What each press of a seat's buttons means in a vote: the one table ``press`` follows,
# and the one the vote screen's help line and docs/button-grammar.md's summary are made
# from, so what players are told is what the buttons do.
CHOOSE_AYE = "choose-aye"  # pending Aye 1; again: +1 power
CHOOSE_NAY = "choose-nay"  # pending Nay 1; again: +1 power
CHOOSE_PASS = "choose-pass"  # pending Pass for power
CONFIRM = "confirm"  # lock (secret) / play (open) the pending choice, on its own side
CLAIM_MODERATOR = "claim-moderator"  # pass to become moderator, at once
GRAMMAR: dict[tuple[str, Press], str] = {
    ("a", Press.SHORT): CHOOSE_AYE,
    ("b", Press.SHORT): CHOOSE_NAY,
    ("c", Press.SHORT): CHOOSE_PASS,
    ("a", Press.LONG): CONFIRM,
    ("b", Press.LONG): CONFIRM,
    ("c", Press.LONG): CLAIM_MODERATOR,
}
CHOSEN_SIDE = {CHOOSE_AYE: AYE, CHOOSE_NAY: NAY}


def press(state: Vote, pads: Sequence[Pad], event: ButtonEvent) -> tuple[tuple[Pad, ...],
                                                                           Action | None]:
    """One button event of a seat → the seat's new pending choice and, on a long press, the
    vote action to apply (docs/button-grammar.md). A refused press raises ``RuleError``
    (field ``button``) and changes nothing. In an open vote, only the seat on turn's
    presses and a passed seat's come here (``turns``' ``hears``)."""
    seat = event.seat
    if not 0 <= seat < state.n:
        raise RuleError("seat", f"seat {seat} is not at this table (0–{state.n - 1})",
                        code="not_a_seat_here", params={"seat": seat, "high": state.n - 1})
    meaning = GRAMMAR.get((event.button, event.press))
    if meaning is None:
        raise RuleError("button", f"{event.button!r} is not a vote button (a, b, c)",
                        code="not_a_vote_button", params={"button": repr(event.button)})
    if state.phase != VOTING:
        raise RuleError("button", "the vote has ended", code="vote_ended")
    p = state.players[seat]
    pad = pads[seat]
    if state.mode == SECRET:
        if state.sealed[seat] is not None:
            raise RuleError("button", f"{p}'s ballot is locked and can't change",
                            code="ballot_locked", params={"player": p})
        voted = None
    else:
        if state.passed(seat):
            raise RuleError("button", f"{p} passed: nothing more to do in this vote",
                            code="passed_nothing_more", params={"player": p})
        # Any other seat than the one on turn was refused before, by the shared layer
        # (``companion.play.turns.press``, told by the game's ``Turns.hears``).
        voted = state.choices[seat]
    if meaning == CLAIM_MODERATOR:
        return _long_press(state, pads, seat, None, voted)
    if meaning == CONFIRM:
        return _long_press(state, pads, seat, BUTTON_SIDES[event.button], voted)
    if meaning == CHOOSE_PASS:
        if voted is not None:
            raise RuleError("button", f"{p} voted {side_name(voted)} and can't pass now",
                            code="voted_cannot_pass", params={"player": p, "side": voted})
        return _with(pads, seat, Pad(PASS_POWER)), None
    side = CHOSEN_SIDE[meaning]
    if voted is not None and side != voted:
        raise RuleError("button", f"{p} voted {side_name(voted)} and can't change side",
                        code="voted_cannot_change", params={"player": p, "side": voted})
    power = pad.power + 1 if pad.choice == side else 1
    if power > state.power[seat]:
        raise RuleError("button", f"{p} has only {state.power[seat]} power behind the screen",
                        code="power_only", params={"player": p, "has": state.power[seat]})
    return _with(pads, seat, Pad(side, power)), None


def _long_press(state: Vote, pads: Sequence[Pad], seat: int, side: str | None,
                voted: str | None) -> tuple[tuple[Pad, ...], Action | None]:
    p = state.players[seat]
    pad = pads[seat]
    cleared = _with(pads, seat, Pad())
    if side is None:  # long Pass: pass to become moderator
        if voted is not None:
            raise RuleError("button", f"{p} voted {side_name(voted)} and can't pass now",
                            code="voted_cannot_pass", params={"player": p, "side": voted})
        if state.mode == OPEN and state.moderator_claimed:
            claimant = state.players[state.choices.index(PASS_MODERATOR)]
            raise RuleError("button", f"{claimant} already passed to become moderator",
                            code="moderator_claimed_now", params={"player": claimant})
        return cleared, _action(state, p, PASS_MODERATOR, 0)
    if voted is not None:  # an open vote's later turn: add the pending power, or hold
        if side != voted:
            raise RuleError("button", f"{p} voted {side_name(voted)} and can't change side",
                            code="voted_cannot_change", params={"player": p, "side": voted})
        return cleared, Play(p, ADD, pad.power) if pad.power else Play(p, HOLD)
    if pad.choice is None:
        secret = state.mode == SECRET
        raise RuleError("button", "choose first: press Aye, Nay or Pass, then hold to "
                                  + ("lock" if secret else "play"),
                        code="choose_then_lock" if secret else "choose_then_play")
    if pad.choice in SIDES and pad.choice != side:
        raise RuleError("button", f"{p}'s choice is {side_name(pad.choice)} {pad.power}: "
                                  f"hold {side_name(pad.choice)} to confirm it",
                        code="confirm_choice",
                        params={"player": p, "side": pad.choice, "power": pad.power})
    return cleared, _action(state, p, pad.choice, pad.power)


def _action(state: Vote, player: str, choice: str, power: int) -> Action:
    return Lock(player, choice, power) if state.mode == SECRET else Play(player, choice, power)


def _with(pads: Sequence[Pad], seat: int, pad: Pad) -> tuple[Pad, ...]:
    out = list(pads)
    out[seat] = pad
    return tuple(out)


def break_tie(state: Vote, seat: int, event: ButtonEvent) -> BreakTie:
    """A press on a tie (or an all-pass vote): the moderator holds Aye (a) or Nay (b) to
    decide; anyone else, or any other press, is refused (``RuleError``, field
    ``button``)."""
    check_tie_breaker(state, seat, field="button")
    side = BUTTON_SIDES.get(event.button)
    if side is None or event.press is not Press.LONG:
        raise RuleError("button", "hold Aye or Nay to break the tie", code="hold_to_break_tie")
    return BreakTie(state.players[seat], side)
