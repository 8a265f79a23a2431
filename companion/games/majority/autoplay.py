"""A seeded player for Koryŏ and Chosŏn: picks a legal next action for whoever must act.

It plays whole games for the demo (which turns each action into taps and seat presses) and
for the tests; it only ever proposes actions the engine accepts, found by trying them.
"""

from __future__ import annotations

import random

from companion.games.majority.adapter import MajorityGame, SeatedState
from companion.play.errors import RuleError

USE_POWER = 0.6  # chance of using an optional power when offered
SPECIAL_ORDER = 0.35  # chance of trying a mixed order (Ship Owner pair, Chosŏn combos 2–4)


def legal(rules: MajorityGame, seated: SeatedState, action: dict) -> bool:
    try:
        rules.apply(seated, action)
    except RuleError:
        return False
    return True


def next_action(rules: MajorityGame, seated: SeatedState, rng: random.Random) -> dict:
    """The next action of a game not over: start or end the round, discard to the limit,
    reveal an order, use a power, end the turn."""
    view = rules.public_view(seated)
    phase = view["phase"]
    if phase == "end":
        for power in view["powers"]:
            if power["code"] == "discard":
                area = view["areas"][power["player"]]
                return max(rules.options(seated, power), key=lambda a: area[str(a["family"])])
    elif phase == "time_travel":  # Chosŏn's phase 1: the Time Traveller majority decides
        for power in view["powers"]:
            if power["code"] == "time_travel" and rng.random() < USE_POWER:
                return rules.options(seated, power)[0]
    elif phase != "setup":
        if not view["turn"]["revealed"]:
            return reveal(rules, seated, view, rng)
        offered = [(p, rules.options(seated, p)) for p in view["powers"]]
        offered = [(p, o) for p, o in offered if o]
        for power, options in offered:
            if power["must"] or rng.random() < USE_POWER:
                return rng.choice(options)
    step = rules.next_step(view)  # what comes next when no one does more
    assert step is not None, view["phase"]
    return step


def reveal(rules: MajorityGame, seated: SeatedState, view: dict, rng: random.Random) -> dict:
    """An order the current player may reveal: mostly identical cards, sometimes a mix."""
    player = view["current_player"]
    dealt = view["deals"][player]
    left = {k: view["deck"][k] - view["in_play"][k] for k in view["deck"]}
    kinds = [k for k, n in left.items() if n > 0]
    families = [k for k in kinds if k.isdigit()]
    events = [k for k in kinds if not k.isdigit()]
    tries: list[dict[str, int]] = []
    if rng.random() < SPECIAL_ORDER and len(families) >= 2:
        a, b = rng.sample(families, 2)
        mixes = [{a: 1, b: 1}] + [{a: 1, e: 1} for e in events] + [{e: 3} for e in events]
        tries.append(rng.choice(mixes))
    for _ in range(8):
        kind = rng.choice(kinds)
        tries.append({kind: rng.randint(1, max(1, min(left[kind], dealt, 4)))})
    tries += [{k: 1} for k in families] + [{}]
    for cards in tries:
        action = {"action": "reveal", "player": player, "cards": cards}
        if legal(rules, seated, action):
            return action
    raise RuleError("cards", f"{player} has no legal order",
                    code="no_legal_order", params={"player": player})  # pragma: no cover - 45 cards
