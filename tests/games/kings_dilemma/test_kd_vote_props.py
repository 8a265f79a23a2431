"""Properties of the King's Dilemma vote (the King's Dilemma rulebook): power is conserved and coins
only come from the general reserve (1 per passer); leader and moderator are always
players; every valid vote ends within a bound; a secret ballot leaks nothing before the
last lock (boardgame.io playerView idea)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kings_dilemma import vote as kd_vote

NAMES = ["Ana", "Ben", "Chloe", "Dan", "Eve"]


@st.composite
def setups(draw, mode=None):
    n = draw(st.integers(kd_vote.MIN_PLAYERS, kd_vote.MAX_PLAYERS))
    players = NAMES[:n]
    return kd_vote.new_vote(
        players,
        leader=draw(st.sampled_from(players)),
        moderator=draw(st.sampled_from(players)),
        power={p: draw(st.integers(0, 6)) for p in players},
        coins={p: draw(st.integers(0, 12)) for p in players},
        balance=draw(st.integers(0, 7)),
        mode=mode or draw(st.sampled_from(kd_vote.MODES)),
    )


def choices(state: kd_vote.Vote, seat: int) -> list[tuple[str, int]]:
    """Every move the engine should accept from ``seat`` now (open turn or secret ballot)."""
    have = state.power[seat]
    voted = state.choices[seat] if state.mode == kd_vote.OPEN else None
    if voted is not None:
        return [(kd_vote.HOLD, 0)] + [(kd_vote.ADD, k) for k in range(1, have + 1)]
    out = [(kd_vote.PASS_POWER, 0)]
    if state.mode == kd_vote.SECRET or not state.moderator_claimed:
        out.append((kd_vote.PASS_MODERATOR, 0))
    out += [(side, k) for side in kd_vote.SIDES for k in range(1, have + 1)]
    return out


def step(draw, state: kd_vote.Vote) -> kd_vote.Vote:
    """One valid action, drawn: a turn, a ballot, the tie-break or the leader choice."""
    if state.phase == kd_vote.TIE:
        side = draw(st.sampled_from(kd_vote.SIDES))
        return kd_vote.apply(state, kd_vote.BreakTie(state.moderator_name, side))
    if state.phase == kd_vote.LEADER_CHOICE:
        pick = draw(st.sampled_from([state.players[s] for s in state.candidates]))
        return kd_vote.apply(state, kd_vote.ChooseLeader(state.moderator_name, pick))
    if state.mode == kd_vote.OPEN:
        seat = state.turn
        move, k = draw(st.sampled_from(choices(state, seat)))
        return kd_vote.apply(state, kd_vote.Play(state.players[seat], move, k))
    seat = draw(st.sampled_from([s for s in range(state.n) if state.sealed[s] is None]))
    move, k = draw(st.sampled_from(choices(state, seat)))
    return kd_vote.apply(state, kd_vote.Lock(state.players[seat], move, k))


@settings(max_examples=300, deadline=None)
@given(st.data(), setups())
def test_every_valid_vote_ends_and_conserves_power_and_coins(data, start):
    """A leader change needs strictly more power than the last leader's, so the vote ends
    within n × (most power + 2) turns. Along the way: power behind screens + on the cards +
    in the Balance never changes; coins change only at the clean-up, +1 per passer from the
    general reserve; the tokens always sit with players; nothing goes negative; each state
    survives to_dict/from_dict (the journal)."""
    bound = start.n * (max(start.power) + 2) + 2  # + tie-break + leader choice
    power0, coins0 = start.in_play, sum(start.coins)
    state, actions = start, 0
    while state.phase != kd_vote.DONE:
        state = step(data.draw, state)
        actions += 1
        assert actions <= bound
        assert state.in_play == power0
        assert 0 <= state.leader < state.n and 0 <= state.moderator < state.n
        assert state.leader_name in state.players and state.moderator_name in state.players
        assert min(state.power) >= 0 and state.balance >= 0
        if state.phase != kd_vote.DONE:
            assert sum(state.coins) == coins0
        assert kd_vote.from_dict(kd_vote.to_dict(state)) == state
    passers = sum(state.passed(s) for s in range(state.n))
    assert sum(state.coins) == coins0 + passers
    assert all(c >= c0 for c, c0 in zip(state.coins, start.coins, strict=True))
    assert state.outcome in kd_vote.SIDES
    if all(state.passed(s) for s in range(state.n)):
        assert state.leader == state.moderator
    elif state.choices[state.leader] in kd_vote.SIDES:
        assert state.choices[state.leader] == state.outcome  # never a loser
    assert state.choices.count(kd_vote.PASS_MODERATOR) <= 1


@settings(max_examples=200, deadline=None)
@given(st.data(), setups(mode=kd_vote.SECRET))
def test_secret_public_view_hides_one_seats_ballot_until_the_last_lock(data, start):
    """Two votes that differ only in one seat's locked ballot (and in every seat's pending
    choice on the buttons) have equal public views and reprs until the last seat locks."""
    order = data.draw(st.permutations(range(start.n)))
    locked = order[: data.draw(st.integers(1, start.n - 1))]
    target = data.draw(st.sampled_from(locked))
    a = b = start
    for seat in locked:
        name = start.players[seat]
        move_a, k_a = data.draw(st.sampled_from(choices(start, seat)))
        move_b, k_b = (data.draw(st.sampled_from(choices(start, seat))) if seat == target
                       else (move_a, k_a))
        a = kd_vote.apply(a, kd_vote.Lock(name, move_a, k_a))
        b = kd_vote.apply(b, kd_vote.Lock(name, move_b, k_b))
    choice = st.sampled_from([None, *kd_vote.SIDES, kd_vote.PASS_POWER])
    pads_a = tuple(kd_vote.Pad(data.draw(choice), data.draw(st.integers(0, 6)))
                   for _ in range(start.n))
    pads_b = kd_vote.pads_for(start)
    assert kd_vote.public_view(a, pads_a) == kd_vote.public_view(b, pads_b)
    assert repr(a) == repr(b)
    assert kd_vote.public_view(a)["seats"] == {
        p: {"locked": s in locked} for s, p in enumerate(start.players)
    }


def test_secret_reveal_shows_every_ballot_at_once():
    """After the last lock the public view shows every seat's vote and power."""
    s = kd_vote.new_vote(NAMES[:3], leader="Ana", moderator="Ben", power=dict.fromkeys(NAMES, 5),
                         coins=dict.fromkeys(NAMES, 0), balance=0, mode=kd_vote.SECRET)
    s = kd_vote.apply(s, kd_vote.Lock("Ana", "aye", 2))
    s = kd_vote.apply(s, kd_vote.Lock("Ben", "nay", 1))
    before = kd_vote.public_view(s)
    s = kd_vote.apply(s, kd_vote.Lock("Chloe", "pass-power", 0))
    after = kd_vote.public_view(s)
    assert "votes" not in str(before) and "aye" not in str(before["seats"])
    assert after["seats"]["Ana"]["vote"] == "aye" and after["seats"]["Ana"]["committed"] == 2
    assert after["seats"]["Ben"]["vote"] == "nay" and after["totals"] == {"aye": 2, "nay": 1}
