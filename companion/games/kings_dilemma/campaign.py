"""The King's Dilemma campaign ledger (the rulebook: « Trancher les égalités de Prestige », mise en place,
« Points de Prestige et points de Convoitise »).

Houses keep prestige and crave from game to game. At the start of a game the house with
the lowest prestige picks its secret agenda first, the highest takes the Leader token, the
lowest the Moderator token; on equal prestige the higher house number counts as higher
prestige. At the end of a game every house adds prestige and crave from a table read by
its rank in the game and by how the game ended; the rulebook prints that table as icons,
so it is a setting (``companion/games/kings_dilemma/kings_dilemma.yaml``) where an unknown value is
``None`` and must then be entered by hand.

Ranks in a game: places over distinct totals (the same ruling as the scoring places);
the lowest total is always "last", whatever the number of players (rulebook: two players
tied for 4th of 5 are both last). When every house has the same total they are all 1st.

Pure: no file is read here. ``to_dict``/``from_dict`` give the JSON/YAML form the
journal keeps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from companion.games.kings_dilemma.kingdom import BOTTOM, TOP, Kingdom
from companion.games.majority.rules import Action
from companion.games.majority.rules import action_from_dict as _action_from_dict
from companion.play.errors import RuleError
from companion.play.places import places

MIN_PLAYERS, MAX_PLAYERS = 3, 5
KING_DIED, ABDICATED_TOP, ABDICATED_BOTTOM = "king-died", "abdicated-top", "abdicated-bottom"
ENDS: tuple[str, ...] = (KING_DIED, ABDICATED_TOP, ABDICATED_BOTTOM)
RANKS: tuple[str, ...] = ("1st", "2nd", "3rd", "4th", "last")
TABLE, HAND = "table", "hand"


def end_of_game(kingdom: Kingdom) -> str:
    """How a game ended, for the prestige table: an abdication at the top or the bottom of
    the Stability track, else the king died."""
    return {TOP: ABDICATED_TOP, BOTTOM: ABDICATED_BOTTOM}.get(kingdom.abdication, KING_DIED)


def game_ranks(totals: Mapping[str, int]) -> dict[str, str]:
    """Each house's rank in a game (``1st``…``4th`` or ``last``) from its total."""
    place = places(totals)
    lowest = max(place.values(), default=1)
    return {
        h: "last" if p == lowest and lowest > 1 else RANKS[p - 1] for h, p in place.items()
    }


def _count(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleError(field, f"expected a whole number ≥ 0, got {value!r}",
                        code="whole_number_at_least_0", params={"value": repr(value)})
    return value


@dataclass(frozen=True)
class Award:
    """Prestige and crave one house adds after a game; None = not known (enter by hand)."""

    prestige: int | None = None
    crave: int | None = None

    def to_dict(self) -> dict:
        return {"prestige": self.prestige, "crave": self.crave}


@dataclass(frozen=True)
class AwardTable:
    """The prestige/crave table: one ``Award`` per way the game ended and rank."""

    cells: tuple[tuple[str, str, Award], ...]

    def __post_init__(self) -> None:
        given = {(end, rank) for end, rank, _ in self.cells}
        for end in ENDS:
            for rank in RANKS:
                if (end, rank) not in given:
                    raise RuleError(f"prestige_table.{end}.{rank}", "missing", code="missing")
        if len(given) != len(self.cells) or len(given) != len(ENDS) * len(RANKS):
            raise RuleError("prestige_table", f"one cell per end ({', '.join(ENDS)}) and rank",
                            code="prestige_cells", params={"ends": ", ".join(ENDS)})

    def award(self, end: str, rank: str) -> Award:
        for e, r, award in self.cells:
            if (e, r) == (end, rank):
                return award
        raise RuleError("end", f"{end!r}/{rank!r} is not in the prestige table",
                        code="not_in_prestige_table", params={"end": repr(end), "rank": repr(rank)})

    def unknown(self) -> tuple[str, ...]:
        """The dotted names of the values still to be entered by hand."""
        return tuple(
            f"{e}.{r}.{k}"
            for e, r, a in self.cells
            for k in ("prestige", "crave")
            if getattr(a, k) is None
        )

    def to_dict(self) -> dict:
        out: dict[str, dict] = {}
        for end, rank, award in self.cells:
            out.setdefault(end, {})[rank] = award.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping) -> AwardTable:
        return cls(tuple(
            (end, rank, Award(cell.get("prestige"), cell.get("crave")))
            for end, ranks in data.items()
            for rank, cell in ranks.items()
        ))


@dataclass(frozen=True)
class Settings:
    """What the box and the rulebook fix for every campaign (from the data file)."""

    start_power: int
    start_coins: int
    house_numbers: tuple[int, int]
    agendas: tuple[str, ...]
    table: AwardTable

    def to_dict(self) -> dict:
        return {
            "start_power": self.start_power,
            "start_coins": self.start_coins,
            "house_numbers": list(self.house_numbers),
            "agendas": list(self.agendas),
            "table": self.table.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> Settings:
        low, high = data["house_numbers"]
        return cls(
            int(data["start_power"]), int(data["start_coins"]), (int(low), int(high)),
            tuple(data["agendas"]), AwardTable.from_dict(data["table"]),
        )


@dataclass(frozen=True)
class House:
    """A player's house screen: name written on it, house number printed on it, the
    prestige and crave ticked so far, and its starting power and coins (achievements may
    change them)."""

    name: str
    number: int
    power: int
    coins: int
    prestige: int = 0
    crave: int = 0

    def to_dict(self) -> dict:
        return {
            "name": self.name, "number": self.number, "power": self.power,
            "coins": self.coins, "prestige": self.prestige, "crave": self.crave,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> House:
        return cls(
            str(data["name"]), int(data["number"]), int(data["power"]), int(data["coins"]),
            int(data["prestige"]), int(data["crave"]),
        )


@dataclass(frozen=True)
class Result:
    """One house's line of a recorded game; ``source`` says whether the award came from
    the table or was entered by hand."""

    house: str
    total: int
    rank: str
    prestige: int
    crave: int
    source: str

    def to_dict(self) -> dict:
        return {
            "house": self.house, "total": self.total, "rank": self.rank,
            "prestige": self.prestige, "crave": self.crave, "source": self.source,
        }


@dataclass(frozen=True)
class GameRecord:
    """One finished game: how it ended, who chose which secret agenda (in picking order),
    each house's result, and the winners."""

    number: int
    end: str
    agendas: tuple[tuple[str, str], ...]
    results: tuple[Result, ...]
    winners: tuple[str, ...]

    def to_dict(self) -> dict:
        return {
            "number": self.number,
            "end": self.end,
            "agendas": [{"house": h, "agenda": a} for h, a in self.agendas],
            "results": [r.to_dict() for r in self.results],
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> GameRecord:
        return cls(
            int(data["number"]),
            str(data["end"]),
            tuple((a["house"], a["agenda"]) for a in data["agendas"]),
            tuple(Result(**r) for r in data["results"]),
            tuple(data["winners"]),
        )


@dataclass(frozen=True)
class GameSetup:
    """What the ledger decides at the start of a game for the houses present."""

    agenda_order: tuple[str, ...]
    leader: str
    moderator: str
    power: dict[str, int] = field(default_factory=dict)
    coins: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "agenda_order": list(self.agenda_order), "leader": self.leader,
            "moderator": self.moderator, "power": dict(self.power), "coins": dict(self.coins),
        }


# --------------------------------------------------------------------------- actions


class AddHouse(Action, name="add_house"):
    """A player takes a house screen (at the start of the campaign or later)."""

    house: str
    number: int


class SetStart(Action, name="set_start"):
    """Starting power and coins of a house changed (an achievement, a succession effect)."""

    house: str
    power: int
    coins: int


class RecordGame(Action, name="record_game"):
    """End of a game: each present house's total, its secret agenda, how the game ended, and
    any prestige/crave entered by hand (``{house: {"prestige": n, "crave": n}}``; a value
    given here replaces the table's)."""

    end: str
    totals: Mapping[str, int]
    agendas: Mapping[str, str]
    by_hand: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


ACTIONS: dict[str, type] = {a.name: a for a in (AddHouse, SetStart, RecordGame)}


def action_from_dict(data: Mapping) -> Action:
    return _action_from_dict(data, ACTIONS)


# --------------------------------------------------------------------------- the ledger


@dataclass(frozen=True)
class Campaign:
    settings: Settings
    houses: tuple[House, ...] = ()
    games: tuple[GameRecord, ...] = ()

    def house(self, name: object, field: str = "house") -> House:
        for h in self.houses:
            if h.name == name:
                return h
        known = ", ".join(h.name for h in self.houses) or "none yet"
        raise RuleError(field, f"{name!r} is not a house of the campaign ({known})",
                        code="not_a_house", params={"house": repr(name), "houses": known})

    def present(self, names: Iterable[str], field: str = "houses") -> tuple[House, ...]:
        """The houses playing this game: 3–5 distinct houses of the campaign."""
        houses: list[House] = []
        for i, name in enumerate(names):
            h = self.house(name, f"{field}.{name}")
            if h in houses:
                raise RuleError(f"{field}.{i}", f"{name} is given twice",
                                code="given_twice", params={"name": name})
            houses.append(h)
        if not MIN_PLAYERS <= len(houses) <= MAX_PLAYERS:
            raise RuleError(
                field, f"{len(houses)} houses, but the game takes {MIN_PLAYERS}–{MAX_PLAYERS}",
                code="house_count",
                params={"n": len(houses), "low": MIN_PLAYERS, "high": MAX_PLAYERS},
            )
        return tuple(houses)

    def by_prestige(self, names: Iterable[str]) -> tuple[str, ...]:
        """The houses present, lowest prestige first (equal prestige: the lower house number
        counts as lower prestige)."""
        houses = self.present(names)
        return tuple(h.name for h in sorted(houses, key=lambda h: (h.prestige, h.number)))

    def setup(self, names: Iterable[str]) -> GameSetup:
        """Secret agendas are picked lowest prestige first; the highest prestige leads, the
        lowest moderates; each house starts with its own power and coins."""
        order = self.by_prestige(names)
        return GameSetup(
            agenda_order=order,
            leader=order[-1],
            moderator=order[0],
            power={h: self.house(h).power for h in order},
            coins={h: self.house(h).coins for h in order},
        )

    def to_dict(self) -> dict:
        return {
            "settings": self.settings.to_dict(),
            "houses": [h.to_dict() for h in self.houses],
            "games": [g.to_dict() for g in self.games],
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> Campaign:
        return cls(
            Settings.from_dict(data["settings"]),
            tuple(House.from_dict(h) for h in data["houses"]),
            tuple(GameRecord.from_dict(g) for g in data["games"]),
        )


def new_campaign(settings: Settings) -> Campaign:
    return Campaign(settings)


def _with_house(campaign: Campaign, house: House) -> Campaign:
    return replace(
        campaign,
        houses=tuple(house if h.name == house.name else h for h in campaign.houses),
    )


def _add_house(campaign: Campaign, action: AddHouse) -> Campaign:
    name = action.house
    if not isinstance(name, str) or not name.strip():
        raise RuleError("house", f"expected a house name, got {name!r}",
                        code="house_name", params={"value": repr(name)})
    if any(h.name == name for h in campaign.houses):
        raise RuleError("house", f"{name} already has a house screen",
                        code="house_taken", params={"house": name})
    low, high = campaign.settings.house_numbers
    number = action.number
    if isinstance(number, bool) or not isinstance(number, int) or not low <= number <= high:
        raise RuleError("number", f"{number!r} is not a house number ({low}–{high})",
                        code="not_a_house_number",
                        params={"number": repr(number), "low": low, "high": high})
    for h in campaign.houses:
        if h.number == number:
            raise RuleError("number", f"house number {number} is already {h.name}'s",
                            code="house_number_taken", params={"number": number, "house": h.name})
    s = campaign.settings
    house = House(name, number, s.start_power, s.start_coins)
    return replace(campaign, houses=(*campaign.houses, house))


def _set_start(campaign: Campaign, action: SetStart) -> Campaign:
    house = campaign.house(action.house)
    power = _count(action.power, "power")
    coins = _count(action.coins, "coins")
    return _with_house(campaign, replace(house, power=power, coins=coins))


def _award(table: AwardTable, end: str, rank: str, hand: Mapping[str, int], house: str
           ) -> tuple[int, int, str]:
    printed = table.award(end, rank)
    values, source = {}, TABLE
    for key in ("prestige", "crave"):
        if key in hand:
            values[key] = _count(hand[key], f"by_hand.{house}.{key}")
            source = HAND
        elif getattr(printed, key) is None:
            raise RuleError(
                f"by_hand.{house}.{key}",
                f"the prestige table has no {key} value for {rank} when {end}: enter it by hand",
                code="award_by_hand", params={"item": key, "rank": rank, "end": end},
            )
        else:
            values[key] = getattr(printed, key)
    return values["prestige"], values["crave"], source


def _record_game(campaign: Campaign, action: RecordGame) -> Campaign:
    if action.end not in ENDS:
        raise RuleError("end", f"{action.end!r} is not how a game ends ({', '.join(ENDS)})",
                        code="not_an_end",
                        params={"end": repr(action.end), "ends": ", ".join(ENDS)})
    totals = {}
    for h in campaign.present(action.totals, "totals"):
        value = action.totals[h.name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(f"totals.{h.name}", f"expected a whole number, got {value!r}",
                            code="not_a_whole_number", params={"value": repr(value)})
        totals[h.name] = value
    for name in action.agendas:
        if name not in totals:
            raise RuleError(f"agendas.{name}", f"{name} did not play this game",
                            code="did_not_play", params={"house": name})
    for name in action.by_hand:
        if name not in totals:
            raise RuleError(f"by_hand.{name}", f"{name} did not play this game",
                            code="did_not_play", params={"house": name})
        for key in action.by_hand[name]:
            if key not in ("prestige", "crave"):
                raise RuleError(f"by_hand.{name}.{key}", "unknown key (allowed: crave, prestige)",
                                code="unknown_key", params={"allowed": "crave, prestige"})
    order = campaign.by_prestige(totals)
    chosen: dict[str, str] = {}
    for name in order:
        agenda = action.agendas.get(name)
        if agenda not in campaign.settings.agendas:
            raise RuleError(
                f"agendas.{name}",
                f"{agenda!r} is not a secret agenda ({', '.join(campaign.settings.agendas)})",
                code="not_a_secret_agenda",
                params={"agenda": repr(agenda), "agendas": ", ".join(campaign.settings.agendas)},
            )
        if agenda in chosen.values():
            raise RuleError(f"agendas.{name}", f"{agenda} was already chosen (one card each)",
                            code="agenda_taken", params={"agenda": agenda})
        chosen[name] = agenda
    ranks = game_ranks(totals)
    top = max(totals.values())
    results = []
    ledger = campaign
    for name, total in totals.items():
        prestige, crave, source = _award(
            campaign.settings.table, action.end, ranks[name], action.by_hand.get(name, {}), name
        )
        results.append(Result(name, total, ranks[name], prestige, crave, source))
        h = ledger.house(name)
        ledger = _with_house(ledger, replace(h, prestige=h.prestige + prestige,
                                             crave=h.crave + crave))
    record = GameRecord(
        len(campaign.games) + 1, action.end, tuple(chosen.items()), tuple(results),
        tuple(n for n, t in totals.items() if t == top),
    )
    return replace(ledger, games=(*campaign.games, record))


_HANDLERS = {AddHouse: _add_house, SetStart: _set_start, RecordGame: _record_game}


def apply(campaign: Campaign, action: Action) -> Campaign:
    """The ledger after ``action``, or ``RuleError`` saying why it is refused."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("action", f"{action!r} is not a campaign action", code="not_an_action")
    return handler(campaign, action)
