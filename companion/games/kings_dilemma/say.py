"""What a King's Dilemma night says on its screens, as catalog keys with their values
(``Say``: the shared ``Words``, companion.play.words): who acts now and what (the headline of every step), each seat's vote, the
reveal's clean-up, power and coins when the table tracks them publicly.

The rules choose the sentence here, once; the screens only translate it into the table's
language and draw it. Everything is read from the public view, so in a secret vote a seat
says "locked" or "not yet" and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.kings_dilemma import buttons as kd_buttons
from companion.games.kings_dilemma import vote as kd_vote
from companion.play.seat import Press
from companion.play.words import Names, Words

Say = Words  # a sentence of the night: its catalog key and values, as every game's

# How a status reads: a choice still pending on a seat's buttons, a vote played (or a
# lock), a seat still to act.
PENDING, PLAYED, WAITING = "pending", "played", "waiting"


def say(key: str, **values: Any) -> Say:
    return Words(key, values)


def seat_vote(seat: Mapping) -> Say:
    """A seat's public vote: Aye N, Nay N, a pass, or a dash."""
    vote = seat.get("vote")
    if vote in kd_vote.SIDES:
        return say(f"kd.vote.{vote}", power=seat["committed"])
    if vote in kd_vote.PASSES:
        return say(f"kd.vote.{vote.replace('-', '_')}")
    return say("kd.vote.none")


def money(view: Mapping, name: str) -> list[Say]:
    """Power and coins, only when the table tracks them publicly."""
    out = []
    if view.get("power") is not None:
        out.append(say("kd.council.power", power=view["power"][name]))
    if view.get("coins") is not None:
        out.append(say("kd.council.coins", coins=view["coins"][name]))
    return out


def council_status(view: Mapping, name: str) -> list[Say]:
    """Between votes: the seat's vote on the last dilemma, then its public money."""
    last = view["vote"]
    return [*([seat_vote(last["seats"][name])] if last else []), *money(view, name)]


def vote_status(vote: Mapping, name: str) -> tuple[Say, str]:
    """A seat during a vote, and how it reads (``PENDING``, ``PLAYED``, ``WAITING``).
    Secret: locked or not yet, nothing more. Open: its side and power, and for the seat
    on turn the choice pending on its buttons."""
    seat = vote["seats"][name]
    if vote["mode"] == kd_vote.SECRET:
        if seat["locked"]:
            return say("kd.vote.locked"), PLAYED
        return say("kd.vote.waiting"), WAITING
    if name == vote["turn"] and vote.get("pending"):
        choice, _, power = vote["pending"].partition(" ")
        if seat["vote"] is None:
            return say("kd.vote.pending_first", pending=seat_vote(
                {"vote": choice, "committed": int(power or 0)})), PENDING
        return say("kd.vote.pending_more", vote=seat_vote(seat), power=power), PENDING
    return seat_vote(seat), PLAYED if seat["vote"] else WAITING


def unlocked(vote: Mapping) -> list[str]:
    """The seats of a secret vote still to lock a ballot, in seating order (public: the
    locks are shown)."""
    return [n for n in vote["players"] if not vote["seats"][n]["locked"]]


def vote_headline(vote: Mapping) -> Say:
    """Who acts now in a vote: the seat on turn of an open vote (and after whom it ends);
    in a secret vote the houses still to lock."""
    if vote["mode"] == kd_vote.SECRET:
        return say("kd.vote.to_lock", names=Names(tuple(unlocked(vote))),
                   count=len(unlocked(vote)))
    return say("kd.vote.turn", name=vote["turn"], end=vote["ends_after"])


def reveal_headline(vote: Mapping) -> Say:
    """After the reveal: the moderator decides a tie (or everybody passed) or gives the
    Leader token; then the result and the Leader who reads the outcome."""
    totals, moderator = vote["totals"], vote["moderator"]
    if vote["phase"] == kd_vote.TIE:
        everybody_passed = all(s["vote"] in kd_vote.PASSES for s in vote["seats"].values())
        return say("kd.reveal.all_passed" if everybody_passed else "kd.reveal.tie",
                   name=moderator, **totals)
    if vote["phase"] == kd_vote.LEADER_CHOICE:
        return say("kd.reveal.choose_leader", name=moderator)
    if vote["tie_broken"]:  # the totals tied: the rows show them
        what = say(f"kd.reveal.{vote['outcome']}_decided", name=moderator)
    else:
        what = say(f"kd.reveal.{vote['outcome']}_wins", **totals)
    return say("kd.reveal.next", what=what, name=vote["leader"])


def reveal_status(vote: Mapping, name: str) -> list[Say]:
    """A seat's ballot after the reveal; once the vote is done, where its power went
    (to the Balance, back) or what it took from the Balance."""
    seat = vote["seats"][name]
    text = (say("kd.reveal.late_claim") if name in vote["late_moderator_claims"]
            else seat_vote(seat))
    if vote["phase"] != kd_vote.DONE:
        return [text]
    if seat["vote"] in kd_vote.SIDES:
        key = "kd.reveal.to_balance" if seat["vote"] == vote["outcome"] else "kd.reveal.back"
        return [text, say(key)]
    share = vote["shares"][name]
    return [text, say("kd.reveal.share", power=share)] if share else [text]


def reveal_balance(vote: Mapping) -> Say:
    """The Balance: as it stands, and once the vote is done, before and after the
    clean-up (the winning side's power in, the passes' shares out)."""
    if vote["phase"] != kd_vote.DONE:
        return say("kd.balance", power=vote["balance"])
    before = vote["balance"] - sum(
        s["committed"] for s in vote["seats"].values() if s["vote"] == vote["outcome"]
    ) + sum(vote["shares"].values())
    return say("kd.reveal.balance", before=before, after=vote["balance"])


def vote_is_open(vote: Mapping) -> bool:
    return vote["mode"] == kd_vote.OPEN


def vote_title(vote: Mapping, dilemma: int) -> tuple[Say, Say]:
    """The vote's title and what stands on its right: the locks counted (secret) or the
    totals (open)."""
    if vote["mode"] == kd_vote.SECRET:
        locked = sum(s["locked"] for s in vote["seats"].values())
        return (say("kd.vote.title_secret", number=dilemma),
                say("kd.vote.locked_count", count=locked, total=len(vote["players"])))
    return say("kd.vote.title_open", number=dilemma), say("kd.totals", **vote["totals"])


def grammar_help(mode: str) -> list[Say]:
    """What the seat buttons do in a vote of ``mode``, made from ``kd_buttons.GRAMMAR`` (the
    table the presses follow): one line for the presses, one for the holds, each thing
    said once with every button that does it ("Hold: A or B lock your choice · C become
    moderator at once"). A tuple value is said as its items joined by " · "."""
    lines = []
    for press in (Press.SHORT, Press.LONG):
        meanings: dict[str, list[Say]] = {}
        for (button, pressed), meaning in kd_buttons.GRAMMAR.items():
            if pressed is press:
                meanings.setdefault(meaning, []).append(say(f"pad_button.{button}"))
        parts = []
        for meaning, buttons in meanings.items():
            key = f"kd.grammar.{meaning}"
            if meaning == kd_buttons.CONFIRM:
                key += f"_{mode}"
            named = buttons[0]
            for more in buttons[1:]:
                named = say("kd.grammar.or", a=named, b=more)
            parts.append(say(key, buttons=named))
        lines.append(say(f"kd.grammar.{press.value}", parts=tuple(parts)))
    return lines
