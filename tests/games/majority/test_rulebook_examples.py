"""Every worked example of the Koryŏ and Chosŏn rulebooks as a test.

Sources, the rulebooks: "Koryŏ FR" = Koryŏ in French; "Koryŏ FR/EN" = Koryŏ in French then
English, pages as printed ("O_REGLES2.indd N"); "Chosŏn" = Chosŏn in French then English,
cited by section and by line of its text. Scoring examples go through `companion score` on a table
file (the headless contract); in-round examples through the engines.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from companion.cli import main
from companion.games.choson import rules as c
from companion.games.koryo import rules as k
from companion.games.majority.rules import Area, Destroy, EndTurn, Reveal, StartRound, Swap
from companion.play.errors import RuleError


def score_file(tmp_path, text: str) -> dict:
    """`companion score FILE --json` in-process: the parsed result (exit 0 required)."""
    path = tmp_path / "table.yaml"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", str(path), "--json"]) == 0
    return json.loads(out.getvalue())


def totals(result: dict) -> dict[str, int]:
    return {p["name"]: p["total"] for p in result["players"]}


def family(result: dict, value: int) -> dict:
    return next(f for f in result["families"] if f["family"] == value)


# ==================================================================================== Koryŏ


def test_koryo_scoring_merchants_2_3_4_only_the_4_scores_9(tmp_path):
    """Koryŏ FR "Fin de partie", exemple; Koryŏ FR/EN p.4 (FR) and p.10 (EN), "End of Play and
    Scoring": 2, 3 and 4 Merchants — only the player with 4 scores the 9 points."""
    r = score_file(tmp_path, "game: koryo\nplayers: [A, B, C]\n"
                             "cards: {A: {9: 2}, B: {9: 3}, C: {9: 4}}\n")
    assert totals(r) == {"A": 0, "B": 0, "C": 9}
    assert family(r, 9)["holder"] == "C" and r["winners"] == ["C"]


@pytest.mark.parametrize("counts", [(2, 3, 3), (3, 3, 3)], ids=["FR-2-3-3", "EN-3-3-3"])
def test_koryo_scoring_tied_merchants_score_nobody(tmp_path, counts):
    """Koryŏ FR, Koryŏ FR/EN p.4: "si le deuxième et le troisième joueur avaient chacun eu 3
    Marchands, personne n'aurait marqué"; 002 p.10 (EN): "if the three of them had 3
    Merchants … no Influence Point would be scored". The Omniscient does not break it."""
    a, b, cc = counts
    r = score_file(tmp_path, "game: koryo\nplayers: [A, B, C]\n"
                             f"cards: {{A: {{9: {a}, 1: 1}}, B: {{9: {b}}}, C: {{9: {cc}}}}}\n")
    assert family(r, 9)["holder"] is None and family(r, 9)["points"] == 0
    assert totals(r) == {"A": 1, "B": 0, "C": 0}  # A: the Omniscient family itself only


def test_koryo_scoring_3_barbarians_and_1_lobbying_cost_4(tmp_path):
    """Koryŏ FR/EN p.4 (FR) / p.10 (EN): "with 3 Barbarians and 1 Lobbying cards in play in
    front of him, a player loses as many as 4 Influence Points"."""
    r = score_file(tmp_path, "game: koryo\nplayers: [A, B]\n"
                             "cards: {A: {barbarian: 3, lobbying: 1}}\n")
    assert r["players"][0]["breakdown"]["events"] == -4 and totals(r)["A"] == -4


KORYO_NAMES = ("Ana", "Ben", "Chloe", "Dan")


def koryo_turn(areas: dict, names=KORYO_NAMES) -> k.State:
    """Round 1 (10 cards dealt), Ana first to play, with ``areas`` already in play."""
    state = k.State(
        players=names, areas=tuple(Area.of(areas.get(p, {})) for p in names),
        tokens=tuple(0 for _ in names), first=0, round=0, phase=k.SETUP,
    )
    return k.apply(state, StartRound())


@pytest.mark.parametrize("cards", [{6: 3}, {"barbarian": 2}], ids=["Bankers", "Barbarians"])
def test_koryo_order_only_identical_cards(cards):
    """Koryŏ FR/EN p.9 (EN, Order Phase; FR p.3): "he may only play Bankers (character #6) or
    Barbarians (event), but not both"."""
    s = k.apply(koryo_turn({}), Reveal("Ana", Area.of(cards)))
    assert s.phase == k.MAIN
    with pytest.raises(RuleError) as exc:
        k.apply(koryo_turn({}), Reveal("Ana", Area.of({6: 1, "barbarian": 1})))
    assert exc.value.field == "cards"


@pytest.mark.parametrize("cards", [
    {6: 1, "barbarian": 1},  # p.9: one Banker and one Barbarian
    {8: 1, 2: 1},  # p.9: one Broadcaster and one Spy
    {9: 1, 2: 1},  # p.11: a Merchant and a Spy
    {9: 5},  # p.11: … instead of 5 Merchants (normal play stays open)
    {"barbarian": 3},  # p.11: … or 3 Barbarians
], ids=["Banker+Barbarian", "Broadcaster+Spy", "Merchant+Spy", "5 Merchants", "3 Barbarians"])
def test_koryo_ship_owner_majority_orders_of_the_rulebook(cards):
    """Koryŏ FR/EN p.9 (EN, Order Phase) and p.11 (Ship Owner): with the Ship Owner majority a
    player may play 2 cards of 2 different types, or any number of identical cards."""
    s = k.apply(koryo_turn({"Ana": {5: 1}}), Reveal("Ana", Area.of(cards)))
    assert s.phase == k.MAIN


def test_koryo_ship_owner_majority_still_not_three_different_cards():
    """Koryŏ FR/EN p.11: the Ship Owner's alternative is exactly 2 cards."""
    with pytest.raises(RuleError):
        k.apply(koryo_turn({"Ana": {5: 1}}), Reveal("Ana", Area.of({6: 1, 8: 1, 2: 1})))


def test_koryo_omniscient_example_three_players_with_2_guardians():
    """Koryŏ FR (L'Omniscient) and Koryŏ FR/EN p.6 (FR) / p.12 (EN): "if 3 players have 2
    Guardians in play, but one also controls the Omniscient, then he is the one protected
    from the Barbarian event. Not the others." """
    s = koryo_turn({"Ben": {7: 2, 1: 1, 9: 1}, "Chloe": {7: 2, 9: 1}, "Dan": {7: 2, 9: 1}})
    s = k.apply(s, Reveal("Ana", Area.of({"barbarian": 1})))
    with pytest.raises(RuleError) as exc:
        k.apply(s, Destroy("Ana", "Ben", 9))
    assert exc.value.field == "target"
    for other in ("Chloe", "Dan"):
        assert k.apply(s, Destroy("Ana", other, 9)).area(other)[9] == 0


def test_koryo_omniscient_never_breaks_a_scoring_tie(tmp_path):
    """Koryŏ FR/EN p.10 (EN): "the power of the Omniscient (#1) only works during game rounds,
    not during the scoring phase. Hence, ties remain" — the Guardians of the example above
    score for nobody."""
    r = score_file(tmp_path, "game: koryo\nplayers: [Ben, Chloe, Dan]\n"
                             "cards: {Ben: {7: 2, 1: 1}, Chloe: {7: 2}, Dan: {7: 2}}\n")
    assert family(r, 7)["holder"] is None and totals(r) == {"Ben": 1, "Chloe": 0, "Dan": 0}


def test_koryo_spy_majority_cannot_be_lobbied_even_by_himself():
    """Koryŏ FR/EN p.12 (EN, Spy, power 2): protected "even if he is the one playing it. Hence,
    in a 3-4 player game, the player having the majority of Spies and playing a Lobbying
    event must target 2 different opponent players"."""
    s = koryo_turn({"Ana": {2: 1, 3: 1}, "Ben": {9: 1}, "Chloe": {6: 1}})
    s = k.apply(s, Reveal("Ana", Area.of({"lobbying": 1})))
    with pytest.raises(RuleError):
        k.apply(s, Swap("Ana", "Ana", 3, "Ben", 9))
    after = k.apply(s, Swap("Ana", "Ben", 9, "Chloe", 6))
    assert after.area("Ben")[6] == 1 and after.area("Chloe")[9] == 1


def test_koryo_spy_majority_in_a_2_player_game_cannot_lobby_at_all():
    """Koryŏ FR/EN p.12 (EN, Spy): "even if he is the one playing it" — with 2 players the only
    swap (himself with his opponent) is refused; ending the turn stays possible."""
    s = koryo_turn({"Ana": {2: 1, 3: 1}, "Ben": {9: 1}}, names=("Ana", "Ben"))
    s = k.apply(s, Reveal("Ana", Area.of({"lobbying": 1})))
    with pytest.raises(RuleError):
        k.apply(s, Swap("Ana", "Ana", 3, "Ben", 9))
    assert k.apply(s, EndTurn("Ana")).area("Ana")["lobbying"] == 1


# =================================================================================== Chosŏn


def test_choson_scoring_watchers_2_3_4_only_the_4_scores_9(tmp_path):
    """Chosŏn, "End of Play and Scoring" (l.807; FR l.348): 2, 3 and 4 Watchers — only
    the third player scores the 9 points."""
    r = score_file(tmp_path, "game: choson\nplayers: [A, B, C]\nfirst_player: A\n"
                             "cards: {A: {9: 2}, B: {9: 3}, C: {9: 4}}\n")
    assert family(r, 9)["holder"] == "C"
    assert totals(r) == {"A": 2, "B": 0, "C": 9}  # A: the first-player token's 2


def test_choson_scoring_watchers_3_3_score_nobody_even_with_yis_shield(tmp_path):
    """Chosŏn l.807: "If the second and third players had had both 3 Watchers … nobody
    would have scored"; Yi's Shield "has no effect toward breaking ties for scoring"."""
    r = score_file(tmp_path, "game: choson\nplayers: [A, B, C]\nfirst_player: A\n"
                             "cards: {A: {9: 2}, B: {9: 3, 1: 1}, C: {9: 3}}\n")
    assert family(r, 9)["holder"] is None
    assert totals(r) == {"A": 2, "B": 1, "C": 0}


CHOSON_NAMES = ("A", "B", "C")


def choson_turn(areas: dict, first: str) -> c.State:
    state = c.State(
        players=CHOSON_NAMES, areas=tuple(Area.of(areas.get(p, {})) for p in CHOSON_NAMES),
        tokens=(0, 0, 0), kept_events=(0, 0, 0), first=CHOSON_NAMES.index(first), round=0,
        phase=c.SETUP, shield=None,
    )
    state = c.apply(state, StartRound())
    if state.phase == c.TIME_TRAVEL:  # phase 1 first: whoever may travel does not
        state = c.apply(state, c.NoTimeTravel(state.current_player))
    return state


def test_choson_scientist_example_1_c_holds_the_majority_power():
    """Chosŏn l.641 (EN, "Information on the Character cards", Example 1; FR l.179): A 1,
    B 1 and C 3 Scientists; on C's turn C benefits from the Scientist power — playing
    events, C MUST take a VP."""
    s = choson_turn({"A": {6: 1}, "B": {6: 1}, "C": {6: 3}}, first="C")
    s = c.apply(s, Reveal("C", Area.of({"event": 3})))
    assert any(p.player == "C" and p.code == "take_vp" and p.must for p in c.powers(s))
    with pytest.raises(RuleError):
        c.apply(s, EndTurn("C"))
    assert c.apply(s, c.TakeVP("C", 6)).tokens_of("C") == 1


def test_choson_scientist_example_2_a_tie_gives_c_no_power():
    """Chosŏn l.645 (EN, Example 2; FR l.182): A 1, B 2 and C 2 Scientists; C "may NOT
    benefit from the majority power … as he is tied for it by Player B"."""
    s = choson_turn({"A": {6: 1}, "B": {6: 2}, "C": {6: 2}}, first="C")
    s = c.apply(s, Reveal("C", Area.of({"event": 3})))
    assert not any(p.code == "take_vp" for p in c.powers(s))
    with pytest.raises(RuleError):
        c.apply(s, c.TakeVP("C", 6))
    c.apply(s, EndTurn("C"))


@pytest.mark.parametrize(("trigger", "reach"), [(4, {3, 4, 5}), (5, {4, 5, 6}), (7, {6, 7, 8})],
                         ids=["Reaper", "Gosu", "Hulk"])
def test_choson_sword_targets_list(trigger, reach):
    """Chosŏn, EN "Sword": "Reaper (#4) + Event = a Character card of value 3, 4 or 5;
    Gosu (#5) + Event = 4, 5 or 6; Hulk (#7) + Event = 6, 7 or 8 … cards of value 1, 2 and
    9 are immune to the Sword"."""
    s = choson_turn({"B": {v: 1 for v in range(1, 10)}}, first="A")
    s = c.apply(s, Reveal("A", Area.of({trigger: 1, "event": 1})))
    for v in range(1, 10):
        if v in reach:
            assert c.apply(s, Destroy("A", "B", v)).area("B")[v] == 0
        else:
            with pytest.raises(RuleError):
                c.apply(s, Destroy("A", "B", v))
    assert not reach & {1, 2, 9}


def test_choson_combination_3_never_with_a_watcher():
    """Chosŏn l.566 (EN, Order Phase): "When playing a combination #3, it is not possible
    to play a Watcher (#9) with the Event card"."""
    s = choson_turn({}, first="A")
    with pytest.raises(RuleError) as exc:
        c.apply(s, Reveal("A", Area.of({9: 1, "event": 1})))
    assert exc.value.field == "cards"


@pytest.mark.parametrize(("players", "bonus"), [(4, 3), (3, 4), (2, 5)])
def test_choson_yis_legacy_above_10_points(tmp_path, players, bonus):
    """Chosŏn, EN "Yi's Legacy": more than 10 points gain 3 (4 players), 4 (3 players),
    5 (2 players). Holder: 9 Watchers + 8 Time Travellers = 17 points."""
    names = ["A", "B", "C", "D"][:players]
    r = score_file(tmp_path, f"game: choson\nplayers: [{', '.join(names)}]\nfirst_player: B\n"
                             "cards: {A: {9: 1, 8: 1}}\nyi_legacy: A\n")
    assert totals(r)["A"] == 17 + bonus
    assert r["players"][0]["breakdown"]["yi_legacy"] == bonus


@pytest.mark.parametrize("points", [1, 10])
def test_choson_yis_legacy_doubles_1_to_10_points(tmp_path, points):
    """Chosŏn, EN "Yi's Legacy": "If you have between 1 and 10 influence points, your
    score is doubled" (here from VP tokens)."""
    r = score_file(tmp_path, "game: choson\nplayers: [A, B]\nfirst_player: B\ncards: {}\n"
                             f"tokens: {{A: {points}}}\nyi_legacy: A\n")
    assert totals(r)["A"] == 2 * points


def test_choson_win_tie_goes_to_the_lowest_family(tmp_path):
    """Chosŏn, EN end of "End of Play and Scoring": "In case of a tie, the player
    controlling the family of least value wins the game". A: Hulk 7 + Yi 1 = 8; B: Time
    Traveller 8 = 8; A controls family 1, the lowest, and wins."""
    r = score_file(tmp_path, "game: choson\nplayers: [A, B, C]\nfirst_player: C\n"
                             "cards: {A: {7: 1, 1: 1}, B: {8: 1}}\ntokens: {C: 1}\n")
    assert totals(r) == {"A": 8, "B": 8, "C": 3}
    assert r["winners"] == ["A"] and r["tie_break"]["family"] == 1
