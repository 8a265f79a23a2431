"""`companion kingdom` on King's Dilemma table files (docs/table-files.md, "kingdom:
The King's Dilemma"): the outcome's changes applied left to right to the kingdom tracks.

``track`` and ``stability`` bounds default to the data file's board settings; a missing
Stability position is the middle of its track; a missing ``marker`` is no marker. Momentum
is ``up``/``down`` (the rulebook's ``white``/``black`` sides are accepted too). Each item of
``outcomes`` is a mapping of one or more changes, applied in the order written.
"""

from __future__ import annotations

from typing import Any

from companion.files.validate import check_keys, describe, integer, join, mapping
from companion.games.kings_dilemma import data as kd_data
from companion.games.kings_dilemma import kingdom as kd_kingdom
from companion.play.errors import RuleError

GAMES = ("kingdom", "kings-dilemma")
SIDES = {"up": kd_kingdom.UP, "down": kd_kingdom.DOWN, "white": kd_kingdom.UP, "black": kd_kingdom.DOWN}


def _bounds(block: dict, path: str, default: tuple[int, int]) -> tuple[int, int]:
    low = integer(block.get("min", default[0]), join(path, "min"))
    high = integer(block.get("max", default[1]), join(path, "max"))
    if low >= high:
        raise RuleError(join(path, "min"), f"{low} must be below max {high}",
                        code="min_below_max", params={"low": low, "high": high})
    return low, high


def _resource(name: str, value: Any, track: kd_kingdom.Track) -> kd_kingdom.Resource:
    path = join("resources", name)
    block = mapping(value, path)
    check_keys(block, path, {"position", "momentum"}, {"marker"})
    position = integer(block["position"], join(path, "position"))
    if not track.min <= position <= track.max:
        raise RuleError(
            join(path, "position"),
            f"{position} is off the resource track ({track.min}…{track.max})",
            code="off_the_track",
            params={"position": position, "low": track.min, "high": track.max},
        )
    side = block["momentum"]
    if not isinstance(side, str) or side not in SIDES:
        raise RuleError(
            join(path, "momentum"), f"{describe(side)} is not a momentum side (up or down)",
            code="not_a_momentum", params={"momentum": describe(side)},
        )
    marker = block.get("marker", False)
    if not isinstance(marker, bool):
        raise RuleError(join(path, "marker"), f"expected true or false, got {describe(marker)}",
                        code="true_or_false", params={"value": describe(marker)})
    return kd_kingdom.Resource(name, position, SIDES[side], marker)


def _changes(value: Any) -> list[kd_kingdom.Change]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise RuleError("outcomes", f"expected a list of changes, got {describe(value)}",
                        code="changes_list_got", params={"got": describe(value)})
    changes = []
    for i, item in enumerate(value):
        path = join("outcomes", i)
        block = mapping(item, path)
        if not block:
            raise RuleError(path, "expected a change such as {influence: +1}",
                            code="change_such_as")
        for name, amount in block.items():
            field = join(path, name)
            if name not in kd_kingdom.RESOURCES:
                raise RuleError(field, f"not a resource (allowed: {', '.join(kd_kingdom.RESOURCES)})",
                                code="not_a_resource_key",
                                params={"resources": ", ".join(kd_kingdom.RESOURCES)})
            if integer(amount, field) == 0:
                raise RuleError(field, "a change moves a resource by at least 1",
                                code="change_at_least_1")
            changes.append(kd_kingdom.Change(name, amount))
    return changes


def read(data: dict) -> tuple[kd_kingdom.Kingdom, list[kd_kingdom.Change]]:
    if "game" in data and data["game"] not in GAMES:  # first: another game's file has other keys
        raise RuleError("game", f"{describe(data['game'])} is not a kingdom file (game: kingdom)",
                        code="not_a_kingdom_file", params={"game": describe(data["game"])})
    check_keys(data, "", {"game", "resources"}, {"track", "stability", "outcomes"})
    defaults = kd_data.shipped()
    track_block = mapping(data.get("track"), "track")
    check_keys(track_block, "track", set(), {"min", "max"})
    track = kd_kingdom.Track(*_bounds(track_block, "track", (defaults.track.min, defaults.track.max)))
    stab_block = mapping(data.get("stability"), "stability")
    check_keys(stab_block, "stability", set(), {"position", "min", "max"})
    low, high = _bounds(stab_block, "stability", defaults.stability)
    if "position" in stab_block:
        position = integer(stab_block["position"], "stability.position")
    else:
        position = kd_kingdom.middle(low, high, "stability")
    if not low <= position <= high:
        raise RuleError("stability.position", f"{position} is off the track ({low}…{high})",
                        code="off_the_track",
                        params={"position": position, "low": low, "high": high})
    resources = mapping(data["resources"], "resources")
    check_keys(resources, "resources", set(kd_kingdom.RESOURCES))
    kingdom = kd_kingdom.Kingdom.of(
        track,
        {name: _resource(name, resources[name], track) for name in kd_kingdom.RESOURCES},
        kd_kingdom.Stability(position, low, high),
    )
    return kingdom, _changes(data.get("outcomes"))


def kingdom(data: dict) -> dict:
    """The JSON result of ``companion kingdom``."""
    start, changes = read(data)
    end, moves = kd_kingdom.apply_outcome(start, changes)
    return {
        "game": "kingdom",
        "track": end.track.to_dict(),
        "resources": {r.name: r.to_dict() for r in end.resources},
        "stability": end.stability.to_dict(),
        "abdicated": end.abdicated,
        "abdication": end.abdication,
        "moves": [m.to_dict() for m in moves],
    }


def _momentum(side: str, marker: bool) -> str:
    return f"{side} ({kd_kingdom.COLOUR_OF[side]}{', marker' if marker else ''})"


def render(result: dict) -> str:
    out = ["The King's Dilemma — kingdom tracks"]
    if result["moves"]:
        out.append(f"{'Change':<16}{'Spaces':>7}  {'Position':>16}  {'Momentum':<22}{'Stability':>9}")
        for m in result["moves"]:
            name = kd_kingdom.RESOURCE_NAMES[m["resource"]][0]
            stop = " (track end)" if m["stopped_at_end"] else ""
            out.append(
                f"{name + ' ' + format(m['amount'], '+d'):<16}{m['spaces']:>7}  "
                f"{str(m['position']) + stop:>16}  {_momentum(m['momentum'], m['marker']):<22}"
                f"{m['stability']:>9}"
            )
        out.append("")
    track = result["track"]
    out.append(f"{'Resource':<16}{'Position':>9}  Momentum   (track {track['min']}…{track['max']})")
    for name, r in result["resources"].items():
        out.append(
            f"{kd_kingdom.RESOURCE_NAMES[name][0]:<16}{r['position']:>9}  "
            f"{_momentum(r['momentum'], r['marker'])}"
        )
    s = result["stability"]
    out.append(f"{'Stability':<16}{s['position']:>9}  (track {s['min']}…{s['max']})")
    if result["abdicated"]:
        out.append(
            f"The king abdicates: Stability is at the {result['abdication']} of its track; "
            "the game ends at the end of this round."
        )
    else:
        out.append("The king reigns.")
    return "\n".join(out)
