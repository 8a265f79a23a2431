"""The King's Dilemma: one vote of the council, open (rulebook order) or secret (sealed
ballots, the companion's own variant), its resolution and its clean-up; and the pending
choice a seat holds on its buttons before it plays or locks it (``Pad``). What a press
of a button means (the button grammar, docs/button-grammar.md) is the seats' business,
not the rules': ``companion.games.kings_dilemma.buttons``.

Rules: the rulebook (« Vote du Conseil », « Résolution du
vote », « Nettoyage après le vote »).

Secrecy by construction (boardgame.io's ``playerView``): screens, lights and logs get
``public_view(state)`` only. Until every seat has locked, a secret vote keeps the locked
ballots in the private field ``Vote.sealed`` (left out of ``repr``), and the public view
shows per seat only whether it has locked. Storage keeps the same split:
``Lock.public_dict()`` (who locked) is the record anyone may read, ``Lock.to_dict()`` and
``to_dict(state)["sealed"]`` are the private record a journal keeps apart until the reveal.
The pending choice on a seat's buttons (``Pad``) never enters the public view in secret mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from companion.games.majority.rules import Action
from companion.games.majority.rules import action_from_dict as _action_from_dict
from companion.play.errors import RuleError, counted

GAME = "kings-dilemma"
MIN_PLAYERS, MAX_PLAYERS = 3, 5

OPEN, SECRET = "open", "secret"
MODES = (OPEN, SECRET)
AYE, NAY = "aye", "nay"
SIDES = (AYE, NAY)
PASS_POWER, PASS_MODERATOR = "pass-power", "pass-moderator"
PASSES = (PASS_POWER, PASS_MODERATOR)
CHOICES = (*SIDES, *PASSES)  # a player's first turn, or a secret ballot
ADD, HOLD = "add", "hold"  # an open vote's later turns
MOVES = (*CHOICES, ADD, HOLD)

VOTING = "voting"  # turns (open) or ballots (secret) still to come
TIE = "tie"  # the vote has ended on a tie or with everybody passed: the moderator decides
LEADER_CHOICE = "leader-choice"  # the leader lost and the winners tie: the moderator picks
DONE = "done"  # resolved and cleaned up
PHASES = (VOTING, TIE, LEADER_CHOICE, DONE)


def side_name(side: str) -> str:
    return {AYE: "Aye", NAY: "Nay"}.get(side, side)


def ballot_text(choice: str | None, power: int = 0) -> str:
    """``aye 3``, ``nay 1``, ``pass-power``, ``pass-moderator`` (the table-file notation)."""
    if choice is None:
        return "-"
    return f"{choice} {power}" if choice in SIDES or choice == ADD else choice


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class Ballot:
    """A sealed secret ballot: ``aye N``, ``nay N`` (N ≥ 1), ``pass-power`` or
    ``pass-moderator``."""

    choice: str
    power: int = 0

    def to_dict(self) -> dict:
        return {"choice": self.choice, "power": self.power}

    @classmethod
    def from_dict(cls, data: Mapping) -> Ballot:
        return cls(str(data["choice"]), int(data.get("power", 0)))


@dataclass(frozen=True)
class Vote:
    """One vote in progress. Seat-indexed tuples follow ``players`` (clockwise).

    ``power`` and ``coins`` are behind each house screen. While voting, committed power
    lies on the vote cards (``committed``) and each passer's coin on their Pass card; the
    clean-up moves them. ``committed`` and ``choices`` stay as the record of the vote.
    """

    players: tuple[str, ...]
    mode: str
    power: tuple[int, ...]
    coins: tuple[int, ...]
    balance: int  # power in the centre of the Balance
    leader: int  # seat holding the Leader token
    moderator: int  # seat holding the Moderator token
    choices: tuple[str | None, ...]  # aye / nay / pass-power / pass-moderator, None: not yet
    committed: tuple[int, ...]
    phase: str = VOTING
    turn: int | None = None  # open vote: the seat to play
    turns: int = 0  # turns played (open, passed seats' empty turns included) or ballots locked
    ended_after: int | None = None  # open: the seat whose turn ended the vote
    outcome: str | None = None
    tie_broken: bool = False  # the moderator decided a tie or an all-pass vote
    candidates: tuple[int, ...] = ()  # LEADER_CHOICE: winners tied for most power
    shares: tuple[int, ...] = ()  # power each seat took from the Balance at clean-up
    late_claims: tuple[int, ...] = ()  # secret: moderator claims not granted (pass for power)
    sealed: tuple[Ballot | None, ...] = field(default=(), repr=False)  # secret, PRIVATE

    def seat(self, player: str) -> int:
        return self.players.index(player)

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def leader_name(self) -> str:
        return self.players[self.leader]

    @property
    def moderator_name(self) -> str:
        return self.players[self.moderator]

    @property
    def current_player(self) -> str | None:
        return self.players[self.turn] if self.turn is not None else None

    @property
    def end_seat(self) -> int:
        """The vote ends at the end of the turn of the leader's right-hand (counter-clockwise)
        neighbour."""
        return (self.leader - 1) % self.n

    @property
    def moderator_claimed(self) -> bool:
        return PASS_MODERATOR in self.choices

    def locked(self, seat: int) -> bool:
        """Secret vote: has this seat locked its ballot? (after the reveal: yes)"""
        if self.phase != VOTING:
            return True
        return self.sealed[seat] is not None

    def totals(self) -> dict[str, int]:
        return {
            side: sum(c for ch, c in zip(self.choices, self.committed, strict=True) if ch == side)
            for side in SIDES
        }

    def passed(self, seat: int) -> bool:
        return self.choices[seat] in PASSES

    @property
    def in_play(self) -> int:
        """Power behind the screens, on the vote cards (until the clean-up) and on the
        Balance: a vote never creates or destroys power."""
        cards = sum(self.committed) if self.phase != DONE else 0
        return sum(self.power) + self.balance + cards


def new_vote(
    players: Sequence[str],
    *,
    leader: str,
    moderator: str,
    power: Mapping[str, int],
    coins: Mapping[str, int],
    balance: int,
    mode: str = OPEN,
) -> Vote:
    """A vote about to start: the leader plays first (open) or everyone locks (secret)."""
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError("players", f"{counted(len(names), 'player', 'players')}, but the game "
                                   "takes "
                                   f"{MIN_PLAYERS}–{MAX_PLAYERS}",
                        code="player_count",
                        params={"n": len(names), "low": MIN_PLAYERS, "high": MAX_PLAYERS})
    if len(set(names)) != len(names):
        raise RuleError("players", "a player is seated twice", code="seated_twice")
    if mode not in MODES:
        raise RuleError("mode", f"{mode!r} is not a vote mode (open, secret)",
                        code="not_a_vote_mode", params={"mode": repr(mode)})
    for name, block in (("leader", leader), ("moderator", moderator)):
        if block not in names:
            raise RuleError(name, f"{block!r} is not one of the players",
                            code="not_a_player", params={"player": repr(block)})
    for label, block in (("power", power), ("coins", coins)):
        for p in names:
            if block.get(p, 0) < 0:
                raise RuleError(f"{label}.{p}", "cannot be negative", code="negative")
    if balance < 0:
        raise RuleError("balance", "cannot be negative", code="negative")
    n = len(names)
    return Vote(
        players=names,
        mode=mode,
        power=tuple(power.get(p, 0) for p in names),
        coins=tuple(coins.get(p, 0) for p in names),
        balance=balance,
        leader=names.index(leader),
        moderator=names.index(moderator),
        choices=(None,) * n,
        committed=(0,) * n,
        turn=names.index(leader) if mode == OPEN else None,
        sealed=(None,) * n if mode == SECRET else (),
    )


# --------------------------------------------------------------------------- actions


class Play(Action, name="play"):
    """An open vote's turn: ``aye N`` / ``nay N`` / ``pass-power`` / ``pass-moderator`` on a
    first turn, ``add N`` / ``hold`` later."""

    player: str
    move: str
    power: int = 0


class Lock(Action, name="lock"):
    """A secret ballot, locked. ``choice`` and ``power`` are private until every seat has
    locked: they are left out of ``repr`` and of ``public_dict``."""

    player: str
    choice: str = field(repr=False)
    power: int = field(default=0, repr=False)

    def public_dict(self) -> dict:
        """The record anyone may read: who locked, nothing about the ballot."""
        return {"action": self.name, "player": self.player}

    def private_dict(self) -> dict:
        """The sealed part, kept apart by the journal; ``{**public_dict(), **private_dict()}``
        is ``to_dict()``."""
        return {"choice": self.choice, "power": self.power}


class BreakTie(Action, name="break-tie"):
    """The moderator decides a tied (or all-pass) vote."""

    player: str
    side: str


class ChooseLeader(Action, name="choose-leader"):
    """The moderator gives the Leader token to one of the winners tied for most power."""

    player: str
    leader: str


ACTIONS: dict[str, type] = {a.name: a for a in (Play, Lock, BreakTie, ChooseLeader)}


def action_from_dict(data: Mapping) -> Action:
    return _action_from_dict(data, ACTIONS)


def apply(state: Vote, action: Action) -> Vote:
    """The next state, or ``RuleError`` with a reason a player understands."""
    if isinstance(action, Play):
        return _play(state, action)
    if isinstance(action, Lock):
        return _lock(state, action)
    if isinstance(action, BreakTie):
        return _break_tie(state, action)
    if isinstance(action, ChooseLeader):
        return _choose_leader(state, action)
    raise RuleError("action", f"{type(action).__name__} is not a vote action", code="not_an_action")


def is_legal(state: Vote, action: Action) -> bool:
    try:
        apply(state, action)
    except RuleError:
        return False
    return True


def _seat_of(state: Vote, player: str, field_name: str = "player") -> int:
    if player not in state.players:
        raise RuleError(field_name, f"{player!r} is not one of the players "
                                    f"({', '.join(state.players)})",
                        code="not_at_table",
                        params={"player": repr(player), "names": ", ".join(state.players)})
    return state.seat(player)


def _set(values: tuple, seat: int, value: Any) -> tuple:
    out = list(values)
    out[seat] = value
    return tuple(out)


def _check_power(state: Vote, seat: int, move: str, power: int) -> None:
    """A side needs ≥ 1 power, no more than is behind the screen; a pass takes none."""
    p = state.players[seat]
    if move in SIDES or move == ADD:
        if isinstance(power, bool) or not isinstance(power, int) or power < 1:
            raise RuleError("power", f"{move} needs at least 1 power ({p} gave {power!r})",
                            code="power_at_least_1",
                            params={"move": move, "player": p, "power": repr(power)})
        if power > state.power[seat]:
            raise RuleError("power", f"{p} commits {power} power but has only "
                                     f"{state.power[seat]} behind the screen",
                            code="power_behind_screen",
                            params={"player": p, "power": power, "has": state.power[seat]})
    elif power != 0:
        raise RuleError("power", f"{move} commits no power ({p} gave {power!r})",
                        code="pass_no_power",
                        params={"move": move, "player": p, "power": repr(power)})


def _still_voting(state: Vote) -> None:
    if state.phase != VOTING:
        raise RuleError("player", "the vote has ended", code="vote_ended")


def not_your_turn(current: str | None, player: str, field: str = "player") -> RuleError:
    """Why ``player`` may not play in an open vote now: ``current`` is on turn. The rules
    refuse such a play with it; the seats' presses are refused by the shared layer
    before (``companion.play.turns``), and said with it on the vote screen."""
    return RuleError(field, f"it is {current}'s turn, not {player}'s", code="not_your_turn",
                     params={"current": current, "player": player})


def _play(state: Vote, action: Play) -> Vote:
    seat = _seat_of(state, action.player)
    if state.mode != OPEN:
        raise RuleError("action", "this is a secret vote: lock a ballot instead of playing",
                        code="secret_vote_lock")
    _still_voting(state)
    p = action.player
    if seat != state.turn:
        raise not_your_turn(state.current_player, p)
    if action.move not in MOVES:
        raise RuleError("move", f"{action.move!r} is not a move ({', '.join(MOVES)})",
                        code="not_a_move",
                        params={"move": repr(action.move), "moves": ", ".join(MOVES)})
    chosen = state.choices[seat]
    move = action.move
    if chosen is None:
        if move in (ADD, HOLD):
            raise RuleError("move", f"{p} has not voted yet: aye N, nay N, pass-power or "
                                    "pass-moderator", code="not_voted_yet", params={"player": p})
    else:  # a later turn: the side is chosen (passed seats are never on turn)
        if move == chosen:
            move = ADD
        elif move not in (ADD, HOLD):
            raise RuleError("move", f"{p} voted {side_name(chosen)} and can't change side: "
                                    f"add N or hold",
                            code="side_chosen_add_or_hold", params={"player": p, "side": chosen})
    if move == PASS_MODERATOR and state.moderator_claimed:
        claimant = state.players[state.choices.index(PASS_MODERATOR)]
        raise RuleError("move", f"{claimant} already passed to become moderator in this vote",
                        code="moderator_claimed", params={"player": claimant})
    _check_power(state, seat, move, action.power)
    if move in SIDES or move == ADD:
        state = replace(
            state,
            choices=_set(state.choices, seat, chosen or move),
            power=_set(state.power, seat, state.power[seat] - action.power),
            committed=_set(state.committed, seat, state.committed[seat] + action.power),
        )
    elif move in PASSES:
        state = replace(state, choices=_set(state.choices, seat, move))
        if move == PASS_MODERATOR:
            state = replace(state, moderator=seat)
    state = _take_leader(state, seat)
    return _next_turn(replace(state, turns=state.turns + 1), seat)


def _take_leader(state: Vote, seat: int) -> Vote:
    """After a turn: strictly more committed power than every other player → Leader token."""
    mine = state.committed[seat]
    if all(mine > c for s, c in enumerate(state.committed) if s != seat):
        return replace(state, leader=seat)
    return state


def _next_turn(state: Vote, seat: int) -> Vote:
    """Clockwise to the next player; a passed player's turn is empty. The vote ends at the
    end of the turn of the current leader's right-hand neighbour."""
    while seat != state.end_seat:
        seat = (seat + 1) % state.n
        if not state.passed(seat):
            return replace(state, turn=seat)
        state = replace(state, turns=state.turns + 1)
    return _vote_ended(replace(state, turn=None, ended_after=seat))


def _lock(state: Vote, action: Lock) -> Vote:
    seat = _seat_of(state, action.player)
    if state.mode != SECRET:
        raise RuleError("action", "this is an open vote: play your turn instead of locking",
                        code="open_vote_play")
    _still_voting(state)
    p = action.player
    if state.sealed[seat] is not None:
        raise RuleError("player", f"{p}'s ballot is locked and can't change",
                        code="ballot_locked", params={"player": p})
    if action.choice not in CHOICES:
        raise RuleError("choice", f"{action.choice!r} is not a ballot ({', '.join(CHOICES)})",
                        code="not_a_ballot",
                        params={"choice": repr(action.choice), "choices": ", ".join(CHOICES)})
    _check_power(state, seat, action.choice, action.power)
    state = replace(state, sealed=_set(state.sealed, seat, Ballot(action.choice, action.power)),
                    turns=state.turns + 1)
    if all(b is not None for b in state.sealed):
        return _reveal(state)
    return state


def _reveal(state: Vote) -> Vote:
    """Every ballot at once: the first moderator claim in seating order from the leader is
    granted, later claims pass for power; strictly most committed power takes the Leader."""
    choices = list(state.choices)
    power, committed = list(state.power), list(state.committed)
    moderator, late = state.moderator, []
    granted = False
    for k in range(state.n):
        seat = (state.leader + k) % state.n
        ballot = state.sealed[seat]
        assert ballot is not None
        choice = ballot.choice
        if choice == PASS_MODERATOR:
            if granted:
                choice = PASS_POWER
                late.append(seat)
            else:
                granted, moderator = True, seat
        choices[seat] = choice
        power[seat] -= ballot.power
        committed[seat] += ballot.power
    state = replace(state, choices=tuple(choices), power=tuple(power),
                    committed=tuple(committed), moderator=moderator,
                    late_claims=tuple(sorted(late)), sealed=())
    top = max(committed)
    if committed.count(top) == 1 and top > 0:
        state = replace(state, leader=committed.index(top))
    return _vote_ended(state)


def _vote_ended(state: Vote) -> Vote:
    """Resolution: more power wins; a tie or an all-pass vote waits for the moderator."""
    totals = state.totals()
    if totals[AYE] == totals[NAY]:
        return replace(state, phase=TIE)
    return _decided(state, AYE if totals[AYE] > totals[NAY] else NAY)


def _break_tie(state: Vote, action: BreakTie) -> Vote:
    seat = _seat_of(state, action.player)
    if state.phase != TIE:
        ended = state.phase != VOTING
        raise RuleError("side", "there is no tie to break" if ended else "the vote has not ended",
                        code="no_tie" if ended else "vote_not_ended")
    check_tie_breaker(state, seat)
    if action.side not in SIDES:
        raise RuleError("side", f"{action.side!r}: the moderator decides aye or nay",
                        code="aye_or_nay", params={"side": repr(action.side)})
    return _decided(replace(state, tie_broken=True), action.side)


def check_tie_breaker(state: Vote, seat: int, field: str = "player") -> None:
    """Only the moderator breaks a tie: the one check, for the action and for a seat's
    press (``field``: what the refusal names, the action's player or the button)."""
    if seat != state.moderator:
        player = state.players[seat]
        raise RuleError(field, f"the moderator {state.moderator_name} breaks the tie, "
                               f"not {player}",
                        code="moderator_breaks_tie",
                        params={"moderator": state.moderator_name, "player": player})


def _decided(state: Vote, outcome: str) -> Vote:
    """The Leader token: to the moderator when everybody passed; from a leader on the losing
    side to the winner with most power (tied: the moderator chooses)."""
    state = replace(state, outcome=outcome)
    if all(state.passed(s) for s in range(state.n)):
        return _clean_up(replace(state, leader=state.moderator))
    lead_choice = state.choices[state.leader]
    if lead_choice in SIDES and lead_choice != outcome:
        winners = [s for s in range(state.n) if state.choices[s] == outcome]
        top = max(state.committed[s] for s in winners)
        best = tuple(s for s in winners if state.committed[s] == top)
        if len(best) > 1:
            return replace(state, phase=LEADER_CHOICE, candidates=best)
        state = replace(state, leader=best[0])
    return _clean_up(state)


def _choose_leader(state: Vote, action: ChooseLeader) -> Vote:
    seat = _seat_of(state, action.player)
    if state.phase != LEADER_CHOICE:
        raise RuleError("leader", "the Leader token is not the moderator's to give now",
                        code="no_leader_choice")
    if seat != state.moderator:
        raise RuleError("player", f"the moderator {state.moderator_name} chooses, "
                                  f"not {action.player}",
                        code="moderator_chooses",
                        params={"moderator": state.moderator_name, "player": action.player})
    names = [state.players[s] for s in state.candidates]
    if action.leader not in names:
        raise RuleError("leader", f"{action.leader!r} is not one of the winners tied for most "
                                  f"power ({', '.join(names)})",
                        code="not_a_tied_winner",
                        params={"player": repr(action.leader), "names": ", ".join(names)})
    return _clean_up(replace(state, leader=state.seat(action.leader), candidates=()))


def _clean_up(state: Vote) -> Vote:
    """Passers' coins go behind their screens; the Balance centre is split evenly among the
    players who passed for power (the remainder stays); the winners' power goes to the
    Balance centre; the losers take theirs back."""
    coins = tuple(c + (1 if state.passed(s) else 0) for s, c in enumerate(state.coins))
    takers = [s for s in range(state.n) if state.choices[s] == PASS_POWER]
    each = state.balance // len(takers) if takers else 0
    shares = tuple(each if s in takers else 0 for s in range(state.n))
    balance = state.balance - each * len(takers)
    power = list(state.power)
    for s in range(state.n):
        power[s] += shares[s]
        if state.choices[s] == state.outcome:
            balance += state.committed[s]
        elif state.choices[s] in SIDES:
            power[s] += state.committed[s]
    return replace(state, phase=DONE, coins=coins, power=tuple(power), balance=balance,
                   shares=shares)


# --------------------------------------------------------------------------- views


def result(state: Vote) -> dict:
    """The resolved vote as plain data (the ``companion vote --json`` object)."""
    names = state.players
    return {
        "game": GAME,
        "mode": state.mode,
        "outcome": state.outcome,
        "totals": state.totals(),
        "tie_broken": state.tie_broken,
        "leader": state.leader_name,
        "moderator": state.moderator_name,
        "balance": state.balance,
        "power": dict(zip(names, state.power, strict=True)),
        "coins": dict(zip(names, state.coins, strict=True)),
        "votes": {p: state.choices[s] for s, p in enumerate(names)},
        "committed": dict(zip(names, state.committed, strict=True)),
        "shares": dict(zip(names, state.shares or (0,) * state.n, strict=True)),
        "late_moderator_claims": [names[s] for s in state.late_claims],
        "players": list(names),
    }


def public_view(state: Vote, pads: Sequence[Pad] | None = None) -> dict:
    """What screens, seat lights and logs may show. In a secret vote, before the last lock,
    each seat shows only whether it has locked: two states that differ in one seat's ballot
    (or in any seat's pending choice on its buttons) give equal views."""
    names = state.players
    view: dict[str, Any] = {
        "game": GAME,
        "mode": state.mode,
        "phase": state.phase,
        "players": list(names),
        "leader": state.leader_name,
        "moderator": state.moderator_name,
        "balance": state.balance,
        "power": dict(zip(names, state.power, strict=True)),
        "coins": dict(zip(names, state.coins, strict=True)),
    }
    if state.mode == SECRET and state.phase == VOTING:
        view["seats"] = {p: {"locked": state.locked(s)} for s, p in enumerate(names)}
        return view
    view["seats"] = {
        p: {"vote": state.choices[s], "committed": state.committed[s],
            "pass_coin": state.passed(s) and state.phase != DONE}
        for s, p in enumerate(names)
    }
    view["totals"] = state.totals()
    view["turn"] = state.current_player
    if state.mode == OPEN and state.phase == VOTING:
        view["ends_after"] = names[state.end_seat]
        if pads is not None and state.turn is not None:
            pad = pads[state.turn]
            view["pending"] = ballot_text(pad.choice, pad.power) if pad.choice else None
    if state.phase != VOTING:
        view["outcome"] = state.outcome
        view["tie_broken"] = state.tie_broken
        view["late_moderator_claims"] = [names[s] for s in state.late_claims]
    if state.phase == LEADER_CHOICE:
        view["candidates"] = [names[s] for s in state.candidates]
    if state.phase == DONE:
        view["shares"] = dict(zip(names, state.shares, strict=True))
    return view


def to_dict(state: Vote) -> dict:
    """The full state for the journal's private record (``sealed`` holds secret ballots
    until the reveal; keep it apart from anything shown)."""
    data: dict[str, Any] = {f.name: getattr(state, f.name) for f in fields(state)}
    for key, value in data.items():
        if isinstance(value, tuple):
            data[key] = list(value)
    data["sealed"] = [b.to_dict() if b else None for b in state.sealed]
    return data


def from_dict(data: Mapping) -> Vote:
    """Rebuild a state from ``to_dict`` output."""
    known = {f.name for f in fields(Vote)}
    unknown = set(data) - known
    if unknown:
        raise RuleError(min(unknown), "not a field of a vote", code="not_a_vote_field")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    values["sealed"] = tuple(Ballot.from_dict(b) if b else None for b in data.get("sealed", ()))
    return Vote(**values)


# --------------------------------------------------------------------------- pending choices

@dataclass(frozen=True)
class Pad:
    """One seat's pending choice on its buttons, not yet locked (secret) or played (open):
    ``aye``/``nay`` with the power to commit (on an open vote's later turn: to add), or
    ``pass-power``. Private in a secret vote."""

    choice: str | None = None
    power: int = 0


def pads_for(state: Vote) -> tuple[Pad, ...]:
    return (Pad(),) * state.n
