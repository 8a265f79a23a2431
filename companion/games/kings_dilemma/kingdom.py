"""The King's Dilemma: the kingdom tracks (the rulebook,
« B. Déplacer les ressources et la stabilité, mettre à jour la progression »).

Five resources move on the resource track; each marker shows its momentum (« progression »:
white side = up, black side = down) and may carry one momentum marker of its colour.
Stability has its own track and starts in the middle.

A dilemma's outcome is a list of changes applied left to right. For one change of
``amount`` (positive = up):

- moving with its momentum, the resource moves 1 extra space (2 with a momentum marker) and
  gains a momentum marker if it had none;
- moving against its momentum, it moves the printed amount only, flips to the other side
  and loses its marker;
- the resource stops at the ends of its track, but Stability moves the full number of
  spaces the resource should have moved, extras included, in the same direction: a change
  up moves Stability up (rulebook: Influence +1 → « Le marqueur Stabilité est aussi monté
  de 1 case »; Morale down 2 → « le marqueur Stabilité baisse de 2 cases »);
- Stability stops at its own ends; reaching either end makes the king abdicate: the
  remaining changes still move resources, Stability no longer moves, and the game ends at
  the end of the round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from companion.games.majority.rules import Action
from companion.games.majority.rules import action_from_dict as _action_from_dict
from companion.play.errors import RuleError

RESOURCES: tuple[str, ...] = ("influence", "prosperity", "morale", "welfare", "knowledge")
RESOURCE_NAMES: dict[str, tuple[str, str]] = {  # English, French
    "influence": ("Influence", "Influence"),
    "prosperity": ("Prosperity", "Prospérité"),
    "morale": ("Morale", "Moral"),
    "welfare": ("Welfare", "Bien-être"),
    "knowledge": ("Knowledge", "Connaissance"),
}
UP, DOWN = "up", "down"
MOMENTA: tuple[str, ...] = (UP, DOWN)
COLOUR_OF: dict[str, str] = {UP: "white", DOWN: "black"}  # the side of the marker
TOP, BOTTOM = "top", "bottom"


def _check_bounds(low: int, high: int, field: str) -> None:
    if low >= high:
        raise RuleError(field, f"min {low} must be below max {high}",
                        code="min_below_max", params={"low": low, "high": high})


def middle(low: int, high: int, field: str) -> int:
    """The centre space of a track; a track with an even number of spaces has none."""
    _check_bounds(low, high, field)
    if (low + high) % 2:
        raise RuleError(field, f"the track {low}…{high} has no middle space",
                        code="no_middle", params={"low": low, "high": high})
    return (low + high) // 2


@dataclass(frozen=True)
class Track:
    """The resource track (board setting): positions ``min``…``max``, higher is higher."""

    min: int
    max: int

    def __post_init__(self) -> None:
        _check_bounds(self.min, self.max, "track")

    def clamp(self, position: int) -> int:
        return max(self.min, min(self.max, position))

    def to_dict(self) -> dict:
        return {"min": self.min, "max": self.max}

    @classmethod
    def from_dict(cls, data: Mapping) -> Track:
        return cls(int(data["min"]), int(data["max"]))


@dataclass(frozen=True)
class Stability:
    """The Stability marker on its own track; at either end the king abdicates."""

    position: int
    min: int
    max: int

    def __post_init__(self) -> None:
        _check_bounds(self.min, self.max, "stability")
        if not self.min <= self.position <= self.max:
            raise RuleError(
                "stability.position", f"{self.position} is off the track ({self.min}…{self.max})",
                code="off_the_track",
                params={"position": self.position, "low": self.min, "high": self.max},
            )

    @property
    def end(self) -> str | None:
        """``"top"`` or ``"bottom"`` when the marker is at an end of its track."""
        if self.position == self.max:
            return TOP
        if self.position == self.min:
            return BOTTOM
        return None

    def to_dict(self) -> dict:
        return {"position": self.position, "min": self.min, "max": self.max}

    @classmethod
    def from_dict(cls, data: Mapping) -> Stability:
        return cls(int(data["position"]), int(data["min"]), int(data["max"]))


@dataclass(frozen=True)
class Resource:
    """One resource marker: position, momentum side (``up`` white / ``down`` black), and
    whether a momentum marker of that colour is attached."""

    name: str
    position: int
    momentum: str
    marker: bool = False

    def __post_init__(self) -> None:
        if self.name not in RESOURCES:
            raise RuleError("resource", f"{self.name!r} is not a resource ({', '.join(RESOURCES)})",
                            code="not_a_resource_of",
                            params={"resource": repr(self.name), "resources": ", ".join(RESOURCES)})
        if self.momentum not in MOMENTA:
            raise RuleError(
                f"resources.{self.name}.momentum",
                f"{self.momentum!r} is not a momentum side (up or down)",
                code="not_a_momentum", params={"momentum": repr(self.momentum)},
            )

    def to_dict(self) -> dict:
        return {"position": self.position, "momentum": self.momentum, "marker": self.marker}


def _step(amount: int) -> int:
    return 1 if amount > 0 else -1


class Change(Action, name="change"):
    """One printed effect of an outcome: move ``resource`` by ``amount`` (positive = up)."""

    resource: str
    amount: int

    def __post_init__(self) -> None:
        if self.resource not in RESOURCES:
            raise RuleError(
                "resource", f"{self.resource!r} is not a resource ({', '.join(RESOURCES)})",
                code="not_a_resource_of",
                params={"resource": repr(self.resource), "resources": ", ".join(RESOURCES)},
            )
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or not self.amount:
            raise RuleError(
                self.resource, f"{self.amount!r}: a change moves a resource by a non-zero number",
                code="zero_change", params={"amount": repr(self.amount)},
            )


ACTIONS: dict[str, type] = {Change.name: Change}


def action_from_dict(data: Mapping) -> Action:
    return _action_from_dict(data, ACTIONS)


@dataclass(frozen=True)
class Move:
    """What one change did, for the screen and the journal: ``spaces`` is the full move
    (printed amount + momentum extras); ``position`` and ``stability`` are after the move."""

    resource: str
    amount: int
    spaces: int
    position: int
    stopped_at_end: bool
    momentum: str
    marker: bool
    stability_moved: int
    stability: int
    abdicated: bool

    def to_dict(self) -> dict:
        return {
            "resource": self.resource,
            "amount": self.amount,
            "spaces": self.spaces,
            "position": self.position,
            "stopped_at_end": self.stopped_at_end,
            "momentum": self.momentum,
            "marker": self.marker,
            "stability_moved": self.stability_moved,
            "stability": self.stability,
            "abdicated": self.abdicated,
        }


@dataclass(frozen=True)
class Kingdom:
    """The kingdom board: the resource track, the five resources (in ``RESOURCES`` order),
    Stability, and whether the king has abdicated (Stability reached an end)."""

    track: Track
    resources: tuple[Resource, ...]
    stability: Stability
    abdicated: bool = False

    def __post_init__(self) -> None:
        if tuple(r.name for r in self.resources) != RESOURCES:
            raise RuleError("resources", f"expected the five resources {', '.join(RESOURCES)}",
                            code="five_resources", params={"resources": ", ".join(RESOURCES)})
        for r in self.resources:
            if not self.track.min <= r.position <= self.track.max:
                raise RuleError(
                    f"resources.{r.name}.position",
                    f"{r.position} is off the resource track ({self.track.min}…{self.track.max})",
                    code="off_the_track",
                    params={"position": r.position, "low": self.track.min, "high": self.track.max},
                )

    @classmethod
    def of(
        cls, track: Track, resources: Mapping[str, Resource], stability: Stability
    ) -> Kingdom:
        """A kingdom as found on the table; a Stability already at an end means the king
        has already abdicated."""
        missing = [r for r in RESOURCES if r not in resources]
        if missing:
            raise RuleError(f"resources.{missing[0]}", "missing", code="missing")
        return cls(
            track, tuple(resources[r] for r in RESOURCES), stability, stability.end is not None
        )

    def resource(self, name: str) -> Resource:
        for r in self.resources:
            if r.name == name:
                return r
        raise RuleError("resource", f"{name!r} is not a resource ({', '.join(RESOURCES)})",
                        code="not_a_resource_of",
                        params={"resource": repr(name), "resources": ", ".join(RESOURCES)})

    def positions(self) -> dict[str, int]:
        return {r.name: r.position for r in self.resources}

    @property
    def abdication(self) -> str | None:
        """``"top"`` or ``"bottom"``: the end of the Stability track where the king
        abdicated; None while he reigns."""
        return self.stability.end if self.abdicated else None

    def _with(self, resource: Resource) -> tuple[Resource, ...]:
        return tuple(resource if r.name == resource.name else r for r in self.resources)

    def to_dict(self) -> dict:
        return {
            "track": self.track.to_dict(),
            "resources": {r.name: r.to_dict() for r in self.resources},
            "stability": self.stability.to_dict(),
            "abdicated": self.abdicated,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> Kingdom:
        resources = tuple(
            Resource(
                name,
                int(data["resources"][name]["position"]),
                data["resources"][name]["momentum"],
                bool(data["resources"][name]["marker"]),
            )
            for name in RESOURCES
        )
        return cls(
            Track.from_dict(data["track"]),
            resources,
            Stability.from_dict(data["stability"]),
            bool(data["abdicated"]),
        )


def setup(track: Track, stability_min: int, stability_max: int,
          momenta: Mapping[str, str]) -> Kingdom:
    """Set-up of a game: every resource in the middle of its track on the side the coin
    toss gave (``momenta``), no momentum markers; Stability in the middle of its track."""
    centre = middle(track.min, track.max, "track")
    resources = {}
    for name in RESOURCES:
        if name not in momenta:
            raise RuleError(f"momenta.{name}", "missing: which side is the marker on?",
                            code="momentum_missing")
        resources[name] = Resource(name, centre, momenta[name])
    stability = Stability(
        middle(stability_min, stability_max, "stability"), stability_min, stability_max
    )
    return Kingdom.of(track, resources, stability)


def succession(kingdom: Kingdom, chronicles: Mapping[str, int]) -> Kingdom:
    """Set-up from the second game: each resource moves by its net Chronicle stickers
    (positive minus negative); Stability stays in the middle, no marker is flipped."""
    resources = []
    for r in kingdom.resources:
        net = chronicles.get(r.name, 0)
        resources.append(replace(r, position=kingdom.track.clamp(r.position + net)))
    return replace(kingdom, resources=tuple(resources))


def apply(kingdom: Kingdom, change: Change) -> tuple[Kingdom, Move]:
    """Apply one change with the momentum rule; returns the new kingdom and what moved."""
    r = kingdom.resource(change.resource)
    direction = UP if change.amount > 0 else DOWN
    if direction == r.momentum:
        spaces = abs(change.amount) + (2 if r.marker else 1)
        moved = replace(r, marker=True)
    else:
        spaces = abs(change.amount)
        moved = replace(r, momentum=direction, marker=False)
    wanted = r.position + _step(change.amount) * spaces
    position = kingdom.track.clamp(wanted)
    moved = replace(moved, position=position)
    stability, abdicated, stab_moved = kingdom.stability, kingdom.abdicated, 0
    if not abdicated:
        target = max(stability.min, min(stability.max, stability.position
                                        + _step(change.amount) * spaces))
        stab_moved = target - stability.position
        stability = replace(stability, position=target)
        abdicated = stability.end is not None
    after = replace(
        kingdom, resources=kingdom._with(moved), stability=stability, abdicated=abdicated
    )
    return after, Move(
        change.resource, change.amount, spaces, position, position != wanted,
        moved.momentum, moved.marker, stab_moved, stability.position, abdicated,
    )


def apply_outcome(kingdom: Kingdom, changes: Iterable[Change]) -> tuple[Kingdom, tuple[Move, ...]]:
    """Apply an outcome's changes left to right (after an abdication the remaining changes
    still move resources, Stability no longer moves)."""
    moves = []
    for change in changes:
        kingdom, move = apply(kingdom, change)
        moves.append(move)
    return kingdom, tuple(moves)
