"""The King's Dilemma kingdom tracks (the King's Dilemma rulebook, "Kingdom tracks",
« Déplacer les ressources et la stabilité ») and `companion kingdom` (docs/table-files.md
"kingdom: The King's Dilemma")."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import main
from companion.games.kings_dilemma import kingdom as kd_kingdom
from companion.play.errors import RuleError


def kingdom(stability=0, stab_min=-8, stab_max=8, track=(-10, 10), **resources):
    """A kingdom; ``resources`` override e.g. ``morale=(0, "down", True)``."""
    res = {name: kd_kingdom.Resource(name, 0, kd_kingdom.UP) for name in kd_kingdom.RESOURCES}
    for name, (pos, side, marker) in resources.items():
        res[name] = kd_kingdom.Resource(name, pos, side, marker)
    return kd_kingdom.Kingdom.of(kd_kingdom.Track(*track), res, kd_kingdom.Stability(stability, stab_min, stab_max))


def change(k, resource, amount):
    return kd_kingdom.apply(k, kd_kingdom.Change(resource, amount))


# -- the rulebook's three examples ------------------------------------------------------------


def test_rulebook_influence_black_with_marker_plus_1_moves_1_flips_white_loses_marker():
    k, move = change(kingdom(influence=(0, kd_kingdom.DOWN, True)), "influence", +1)
    r = k.resource("influence")
    assert (move.spaces, r.position, r.momentum, r.marker) == (1, 1, kd_kingdom.UP, False)
    assert k.stability.position == 1


def test_rulebook_morale_black_no_marker_minus_1_moves_2_gains_black_marker_stability_minus_2():
    k, move = change(kingdom(morale=(0, kd_kingdom.DOWN, False)), "morale", -1)
    r = k.resource("morale")
    assert (move.spaces, r.position, r.momentum, r.marker) == (2, -2, kd_kingdom.DOWN, True)
    assert k.stability.position == -2


def test_rulebook_morale_black_with_marker_minus_2_moves_4_stability_minus_4():
    k, move = change(kingdom(morale=(0, kd_kingdom.DOWN, True)), "morale", -2)
    r = k.resource("morale")
    assert (move.spaces, r.position, r.momentum, r.marker) == (4, -4, kd_kingdom.DOWN, True)
    assert k.stability.position == -4


def test_rulebook_abdication_example_remaining_change_applies_stability_no_longer_moves():
    """Morale −2 (black, marker) takes Stability to the bottom; Knowledge +1 still moves."""
    k = kingdom(stability=-4, morale=(0, kd_kingdom.DOWN, True), knowledge=(0, kd_kingdom.UP, False))
    k, moves = kd_kingdom.apply_outcome(k, [kd_kingdom.Change("morale", -2), kd_kingdom.Change("knowledge", +1)])
    assert k.abdicated and k.abdication == kd_kingdom.BOTTOM
    assert k.stability.position == -8
    assert k.resource("knowledge").position == 2  # +1, +1 with its momentum
    assert moves[1].stability_moved == 0


# -- the rest of the rule ----------------------------------------------------------------------


def test_with_momentum_up_and_no_marker_moves_one_extra_and_gains_marker():
    k, _ = change(kingdom(welfare=(3, kd_kingdom.UP, False)), "welfare", +2)
    assert k.resource("welfare") == kd_kingdom.Resource("welfare", 6, kd_kingdom.UP, True)
    assert k.stability.position == 3


def test_against_momentum_moves_printed_amount_and_flips_even_without_marker():
    k, _ = change(kingdom(knowledge=(0, kd_kingdom.UP, False)), "knowledge", -3)
    assert k.resource("knowledge") == kd_kingdom.Resource("knowledge", -3, kd_kingdom.DOWN, False)
    assert k.stability.position == -3


def test_resource_stops_at_track_end_but_stability_moves_the_full_amount():
    k, move = change(kingdom(prosperity=(9, kd_kingdom.UP, True)), "prosperity", +2)
    assert k.resource("prosperity").position == 10 and move.stopped_at_end
    assert move.spaces == 4 and k.stability.position == 4


def test_stability_stops_at_its_end_and_the_king_abdicates_at_the_top():
    k, move = change(kingdom(stability=6, influence=(0, kd_kingdom.UP, False)), "influence", +3)
    assert k.stability.position == 8 and move.stability_moved == 2
    assert k.abdicated and k.abdication == kd_kingdom.TOP


def test_no_abdication_while_stability_stays_inside_its_track():
    k, _ = change(kingdom(stability=5), "welfare", +1)
    assert k.stability.position == 7 and not k.abdicated and k.abdication is None


def test_setup_puts_resources_and_stability_in_the_middle_without_markers():
    momenta = dict.fromkeys(kd_kingdom.RESOURCES, kd_kingdom.DOWN)
    k = kd_kingdom.setup(kd_kingdom.Track(-10, 10), -8, 8, momenta)
    assert {r.position for r in k.resources} == {0} and not any(r.marker for r in k.resources)
    assert k.stability.position == 0


def test_succession_moves_resources_by_net_chronicles_without_stability_or_flip():
    k = kingdom(influence=(0, kd_kingdom.DOWN, False))
    k = kd_kingdom.succession(k, {"influence": 1, "morale": -12})
    assert k.resource("influence") == kd_kingdom.Resource("influence", 1, kd_kingdom.DOWN, False)
    assert k.resource("morale").position == -10  # stops at the track end
    assert k.stability.position == 0


def test_a_change_of_zero_or_an_unknown_resource_is_refused():
    with pytest.raises(RuleError):
        kd_kingdom.Change("influence", 0)
    with pytest.raises(RuleError):
        kd_kingdom.Change("gold", 1)


def test_a_track_without_a_middle_space_is_refused_at_setup():
    with pytest.raises(RuleError, match="no middle"):
        kd_kingdom.setup(kd_kingdom.Track(-10, 10), -8, 7, dict.fromkeys(kd_kingdom.RESOURCES, kd_kingdom.UP))


def test_kingdom_and_change_round_trip_through_dicts():
    k, _ = change(kingdom(morale=(2, kd_kingdom.DOWN, True)), "morale", -1)
    assert kd_kingdom.Kingdom.from_dict(json.loads(json.dumps(k.to_dict()))) == k
    c = kd_kingdom.Change("welfare", -2)
    assert kd_kingdom.action_from_dict(json.loads(json.dumps(c.to_dict()))) == c


# -- properties ------------------------------------------------------------------------------

sides = st.sampled_from(kd_kingdom.MOMENTA)
amounts = st.integers(-4, 4).filter(bool)


@given(
    st.integers(-10, 10), sides, st.booleans(), amounts,
    st.lists(st.tuples(st.sampled_from(kd_kingdom.RESOURCES), amounts), max_size=8),
)
def test_stability_moves_by_the_full_resource_move_until_abdication(pos, side, marker, amount,
                                                                    more):
    """Every move stays on the tracks; Stability moves ±spaces (clamped) in the direction of
    the change; after the abdication it never moves again."""
    k = kingdom(morale=(pos, side, marker))
    changes = [kd_kingdom.Change("morale", amount)] + [kd_kingdom.Change(r, a) for r, a in more]
    for c in changes:
        before = k
        k, move = kd_kingdom.apply(k, c)
        assert -10 <= move.position <= 10
        expected_spaces = abs(c.amount) + (
            0 if before.resource(c.resource).momentum != (kd_kingdom.UP if c.amount > 0 else kd_kingdom.DOWN)
            else 2 if before.resource(c.resource).marker else 1
        )
        assert move.spaces == expected_spaces
        if before.abdicated:
            assert k.stability == before.stability and k.abdicated
        else:
            wanted = before.stability.position + (move.spaces if c.amount > 0 else -move.spaces)
            assert k.stability.position == max(-8, min(8, wanted))
            assert k.abdicated == (k.stability.position in (-8, 8))
        assert k.resource(c.resource).momentum == (kd_kingdom.UP if c.amount > 0 else kd_kingdom.DOWN)


# -- companion kingdom -----------------------------------------------------------------------

SPEC_FILE = """\
game: kingdom
track: {min: -10, max: 10}      # resource track bounds (board settings)
stability: {position: 0, min: -8, max: 8}
resources:                      # position, momentum side (up|down), momentum marker
  influence: {position: 0, momentum: down, marker: true}
  morale:    {position: 0, momentum: down, marker: false}
  prosperity: {position: 0, momentum: up, marker: false}
  welfare:   {position: 0, momentum: up, marker: false}
  knowledge: {position: 0, momentum: up, marker: false}
outcomes:                       # applied left to right
  - {influence: +1}
  - {morale: -1}
"""


def run(tmp_path, capsys, text, *args):
    path = tmp_path / "kingdom.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["kingdom", str(path), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_spec_example_json(tmp_path, capsys):
    code, out, err = run(tmp_path, capsys, SPEC_FILE, "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["resources"]["influence"] == {"position": 1, "momentum": "up", "marker": False}
    assert result["resources"]["morale"] == {"position": -2, "momentum": "down", "marker": True}
    assert result["stability"] == {"position": -1, "min": -8, "max": 8}
    assert result["abdicated"] is False


def test_cli_human_output_shows_tracks_and_the_king(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, SPEC_FILE)
    assert code == 0
    assert "Morale" in out and "-2" in out and "The king reigns." in out


def test_cli_reports_abdication(tmp_path, capsys):
    text = SPEC_FILE.replace("position: 0, min: -8", "position: -7, min: -8")
    code, out, _ = run(tmp_path, capsys, text, "--json")
    result = json.loads(out)
    assert code == 0 and result["abdicated"] is True and result["stability"]["position"] == -8
    assert result["resources"]["morale"]["position"] == -2  # still applied after abdication


def test_cli_bounds_default_to_the_data_file_and_stability_to_the_middle(tmp_path, capsys):
    text = SPEC_FILE.replace("track: {min: -10, max: 10}", "").replace(
        "stability: {position: 0, min: -8, max: 8}", "")
    code, out, _ = run(tmp_path, capsys, text, "--json")
    result = json.loads(out)
    assert code == 0 and result["stability"] == {"position": -1, "min": -8, "max": 8}


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("  welfare:", "  wealth:", "resources.wealth"),
        ("morale:    {position: 0, momentum: down", "morale:    {position: 0, momentum: left",
         "resources.morale.momentum"),
        ("influence: {position: 0,", "influence: {position: 11,", "resources.influence.position"),
        ("position: 0, min: -8", "position: 9, min: -8", "stability.position"),
        ("min: -8, max: 8", "min: 8, max: -8", "stability.min"),
        ("track: {min: -10, max: 10}", "track: {min: 10, max: -10}", "track.min"),
        ("  - {morale: -1}", "  - {morale: 0}", "outcomes.1.morale"),
        ("  - {morale: -1}", "  - {gold: -1}", "outcomes.1.gold"),
        ("  - {morale: -1}", "  - {morale: lots}", "outcomes.1.morale"),
        ("marker: true}", "marker: maybe}", "resources.influence.marker"),
        ("game: kingdom", "game: koryo", "game"),
        ("outcomes:", "outcome:", "outcome"),
        ("  knowledge: {position: 0, momentum: up, marker: false}\n", "", "resources.knowledge"),
    ],
)
def test_cli_invalid_file_exits_2_naming_the_field(tmp_path, capsys, old, new, field):
    assert old in SPEC_FILE
    code, out, err = run(tmp_path, capsys, SPEC_FILE.replace(old, new))
    assert code == 2 and out == ""
    assert f": {field}: " in err and "Traceback" not in err
