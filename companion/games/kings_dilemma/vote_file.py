"""The King's Dilemma vote table file (docs/table-files.md, "vote: The King's
Dilemma"): validated, replayed through ``companion.games.kings_dilemma.vote``, resolved."""

from __future__ import annotations

from typing import Any

from companion.files.safetext import shown
from companion.files.validate import (
    ascii_whole,
    check_keys,
    count,
    describe,
    join,
    mapping,
    per_player,
    player_name,
    players,
)
from companion.games.kings_dilemma import vote as kd_vote
from companion.play.errors import RuleError, listed

AMOUNT_DIGITS = 6  # an amount of power: ASCII digits, no more (a house holds a few dozen)
REQUIRED = {"game", "players", "leader", "moderator", "power", "coins", "balance"}
OPTIONAL = {"mode", "turns", "ballots", "tie_break", "leader_choice"}


def parse_move(value: Any, path: str, allowed: tuple[str, ...]) -> tuple[str, int]:
    """``aye 3`` → ("aye", 3); ``hold`` → ("hold", 0). Amounts only after aye, nay, add."""
    if not isinstance(value, str) or not value.split():
        raise RuleError(path, f"expected one of {', '.join(allowed)}, got {describe(value)}",
                        code="expected_one_of",
                        params={"allowed": ", ".join(allowed), "got": describe(value)})
    words = value.split()
    move = words[0].lower()
    if move not in allowed:
        raise RuleError(path, f"{shown(words[0])} is not one of {', '.join(allowed)}",
                        code="not_one_of",
                        params={"value": shown(words[0]), "allowed": ", ".join(allowed)})
    needs_amount = move in (*kd_vote.SIDES, kd_vote.ADD)
    if not needs_amount:
        if len(words) > 1:
            raise RuleError(path, f"{move} takes no amount (got {shown(value)})",
                            code="takes_no_amount", params={"move": move, "value": shown(value)})
        return move, 0
    amount = ascii_whole(words[1], AMOUNT_DIGITS) if len(words) == 2 else None
    if amount is None:
        raise RuleError(path, f"{move} needs an amount of power: '{move} N' (got {shown(value)})",
                        code="needs_amount", params={"move": move, "value": shown(value)})
    if amount < 1:
        raise RuleError(path, f"{move} needs at least 1 power (got {shown(value)})",
                        code="amount_at_least_1", params={"move": move, "value": shown(value)})
    return move, amount


def _counts(data: dict, key: str, names: list[str]) -> dict[str, int]:
    block = per_player(data[key], key, names)
    out = {}
    for p in names:
        if p not in block:
            raise RuleError(join(key, p), "missing (every player's count is needed)",
                            code="count_missing")
        out[p] = count(block[p], join(key, p))
    return out


def load(data: dict) -> tuple[kd_vote.Vote, dict]:
    """The vote before any turn, and the validated rest of the file (turns or ballots,
    tie_break, leader_choice)."""
    data = mapping(data, "")
    if "game" in data and data["game"] != kd_vote.GAME:  # first: another game's file has other keys
        raise RuleError("game", f"{data['game']!r}: a vote file is for game: {kd_vote.GAME}",
                        code="vote_file_game",
                        params={"game": repr(data["game"]), "expected": kd_vote.GAME})
    check_keys(data, "", REQUIRED, OPTIONAL)
    names = players(data["players"], "players", kd_vote.MIN_PLAYERS, kd_vote.MAX_PLAYERS)
    leader = player_name(data["leader"], "leader", names)
    moderator = player_name(data["moderator"], "moderator", names)
    power = _counts(data, "power", names)
    coins = _counts(data, "coins", names)
    balance = count(data["balance"], "balance")
    mode = data.get("mode", kd_vote.OPEN)
    if mode not in kd_vote.MODES:
        raise RuleError("mode", f"{describe(mode)} is not a vote mode (open, secret)",
                        code="not_a_vote_mode", params={"mode": describe(mode)})
    wanted, other = ("turns", "ballots") if mode == kd_vote.OPEN else ("ballots", "turns")
    if other in data:
        raise RuleError(other, f"not used in a {mode} vote (it takes {wanted})",
                        code="not_used_in_mode", params={"mode": mode, "wanted": wanted})
    if wanted not in data:
        raise RuleError(wanted, f"missing (a {mode} vote takes {wanted})",
                        code="missing_for_mode", params={"mode": mode, "wanted": wanted})
    tie_break = data.get("tie_break")
    if tie_break is not None and tie_break not in kd_vote.SIDES:
        raise RuleError("tie_break", f"{describe(tie_break)}: the moderator decides aye or nay",
                        code="aye_or_nay", params={"side": describe(tie_break)})
    choice = data.get("leader_choice")
    if choice is not None:
        player_name(choice, "leader_choice", names)
    state = kd_vote.new_vote(names, leader=leader, moderator=moderator, power=power,
                             coins=coins, balance=balance, mode=mode)
    return state, {wanted: data[wanted], "tie_break": tie_break, "leader_choice": choice}


def replay_turns(state: kd_vote.Vote, turns: Any) -> kd_vote.Vote:
    """An open vote's turns in the order played; passed players are skipped by the engine."""
    if not isinstance(turns, list):
        raise RuleError("turns", f"expected a list of turns, got {describe(turns)}",
                        code="turns_list", params={"got": describe(turns)})
    for i, turn in enumerate(turns):
        path = join("turns", i)
        if not isinstance(turn, dict) or len(turn) != 1:
            raise RuleError(path, f"expected one turn {{Name: move}}, got {describe(turn)}",
                            code="one_turn", params={"got": describe(turn)})
        (player, value), = turn.items()
        player_name(player, path, list(state.players))
        move, amount = parse_move(value, path, kd_vote.MOVES)
        if state.phase != kd_vote.VOTING:
            raise RuleError(path, f"the vote has already ended ({player} can't play after "
                                  f"the turn of {state.players[state.ended_after]})",
                            code="turn_after_end",
                            params={"player": player, "last": state.players[state.ended_after]})
        try:
            state = kd_vote.apply(state, kd_vote.Play(player, move, amount))
        except RuleError as exc:
            raise RuleError(path, exc.message, exc.code, exc.params) from None
    if state.phase == kd_vote.VOTING:
        raise RuleError("turns", f"the vote has not ended: it is {state.current_player}'s turn "
                                 f"(it ends after {state.players[state.end_seat]}'s turn)",
                        code="vote_not_over",
                        params={"player": state.current_player,
                                "last": state.players[state.end_seat]})
    return state


def replay_ballots(state: kd_vote.Vote, ballots: Any) -> kd_vote.Vote:
    """A secret vote: one ballot per player, locked in seating order, revealed together."""
    block = per_player(ballots, "ballots", list(state.players))
    for p in state.players:
        path = join("ballots", p)
        if p not in block:
            raise RuleError(path, "missing (every player locks a ballot)", code="ballot_missing")
        choice, amount = parse_move(block[p], path, kd_vote.CHOICES)
        try:
            state = kd_vote.apply(state, kd_vote.Lock(p, choice, amount))
        except RuleError as exc:
            raise RuleError(path, exc.message, exc.code, exc.params) from None
    return state


def resolve(state: kd_vote.Vote, rest: dict) -> kd_vote.Vote:
    """The moderator's decisions from the file, when the vote needs them; a decision the
    vote never asks for is refused like any other mistake (``null`` stands for none)."""
    if state.phase != kd_vote.TIE and rest["tie_break"] is not None:
        t = state.totals()
        aye, nay = t[kd_vote.AYE], t[kd_vote.NAY]
        raise RuleError("tie_break", f"not used: aye {aye} – nay {nay} is no tie, "
                                     "the moderator has no tie to break (leave it out)",
                        code="tie_break_unused", params={"aye": aye, "nay": nay})
    if state.phase == kd_vote.TIE:
        side = rest["tie_break"]
        if side is None:
            t = state.totals()
            all_passed = all(state.passed(s) for s in range(state.n))
            aye, nay = t[kd_vote.AYE], t[kd_vote.NAY]
            why = "everybody passed" if all_passed else f"aye {aye} – nay {nay} is a tie"
            raise RuleError("tie_break", f"missing: {why}, the moderator "
                                         f"{state.moderator_name} decides (aye or nay)",
                            code="tie_break_all_passed" if all_passed else "tie_break_missing",
                            params={"aye": t[kd_vote.AYE], "nay": t[kd_vote.NAY],
                                    "moderator": state.moderator_name})
        state = kd_vote.apply(state, kd_vote.BreakTie(state.moderator_name, side))
    if state.phase == kd_vote.LEADER_CHOICE:
        names = tuple(state.players[s] for s in state.candidates)
        choice = rest["leader_choice"]
        if choice is None:
            raise RuleError("leader_choice", f"missing: the winners {listed(names)} tie for "
                                             "most power, "
                                             f"the moderator {state.moderator_name} chooses",
                            code="leader_choice_missing",
                            params={"names": names, "moderator": state.moderator_name})
        try:
            state = kd_vote.apply(state, kd_vote.ChooseLeader(state.moderator_name, choice))
        except RuleError as exc:
            raise RuleError("leader_choice", exc.message, exc.code, exc.params) from None
    elif rest["leader_choice"] is not None:
        raise RuleError("leader_choice", "not used: the moderator chooses the leader only when "
                                         "the leader lost and the winners tie for most power "
                                         f"(leader: {state.players[state.leader]}; leave it out)",
                        code="leader_choice_unused", params={"leader": state.players[state.leader]})
    return state


def vote(data: dict) -> dict:
    """The whole file → the ``companion vote --json`` object."""
    state, rest = load(data)
    if state.mode == kd_vote.OPEN:
        state = replay_turns(state, rest["turns"])
    else:
        state = replay_ballots(state, rest["ballots"])
    return kd_vote.result(resolve(state, rest))


def render(result: dict) -> str:
    t = result["totals"]
    outcome = result["outcome"].upper()
    how = " (the moderator broke the tie)" if result["tie_broken"] else ""
    lines = [
        f"The King's Dilemma — {result['mode']} vote",
        f"Outcome: {outcome}, aye {t['aye']} – nay {t['nay']}{how}",
        (f"Leader: {result['leader']}   Moderator: {result['moderator']}   "
         f"Balance: {result['balance']} power"),
        "",
    ]
    rows = [("player", "vote", "committed", "from Balance", "power", "coins")]
    for p in result["players"]:
        vote_ = result["votes"][p] or "-"
        if p in result["late_moderator_claims"]:
            vote_ += " (late moderator claim)"
        rows.append((p, vote_, str(result["committed"][p]), str(result["shares"][p]),
                     str(result["power"][p]), str(result["coins"][p])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip())
    lines.append("")
    lines.append("power and coins: behind each screen after the clean-up")
    return "\n".join(lines)
