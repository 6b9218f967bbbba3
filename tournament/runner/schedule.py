"""The tournament's configuration and schedule: which entrants meet at which tables, in which
seats, with which cards. Pure: the same configuration always gives the same units, with the
same seeds, whatever runs them.

A table is a set of ``players`` entrants. Both formats play each set of cards under every
seating of the table's balanced design (:mod:`tournament.runner.balanced_seatings`), a group
of units: in the ``deals`` format every table plays the same ``per_table`` deals, each one a
group; in the
``games`` format it plays ``per_table`` whole matches (Thousand) or games (1000?), a group's
worth of seatings dealt the same cards. Seat 0 deals first in every unit.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any, overload

import attrs

from thousand import RulesError
from thousand.games import GAMES as ALL_GAMES
from thousand.games import AnyGame, AnyRules, game_named
from thousand.table.sandbox import Isolation, SandboxOptions
from tournament.runner.balanced_seatings import seatings
from tournament.runner.sprt import Hypotheses

__all__ = [
    "FORMATS",
    "GAMES",
    "MAX_UNITS",
    "Config",
    "Entrant",
    "Schedule",
    "Unit",
    "derive_seed",
    "entrants_of",
]

GAMES = tuple(game.key for game in ALL_GAMES)
FORMATS = ("deals", "games")
MAX_UNITS = 2**63 - 1
"""The most units a schedule holds: its length and the position of each unit must fit in a
signed 64-bit number, as Python's sequences require."""


@attrs.frozen
class Entrant:
    """One competitor: a bot spec under a name unique in the tournament."""

    name: str
    spec: str


def entrants_of(specs: Sequence[str]) -> tuple[Entrant, ...]:
    """One entrant per spec; a spec given again is a distinct entrant (``random#2``)."""
    seen: dict[str, int] = {}
    entrants = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        name = spec if seen[spec] == 1 else f"{spec}#{seen[spec]}"
        entrants.append(Entrant(name, spec))
    return tuple(entrants)


@attrs.frozen
class Config:
    """Everything that decides a tournament's results (how it is run, such as the number of
    workers, does not)."""

    game: str
    rules: dict[str, Any] = attrs.field(eq=False)
    """The rules as JSON data (compared through :attr:`rules_json`)."""
    entrants: tuple[Entrant, ...]
    players: int
    """Seats per table."""
    format: str
    per_table: int
    """Deals (``deals`` format) or matches/games (``games`` format) per table."""
    seed: int
    gauntlet: str | None = None
    """The one entrant every table must include, if any."""
    time_limit: float | None = None
    time_quota: float | None = None
    on_fault: str = "forfeit"
    isolate: Isolation = Isolation.SANDBOX
    """How bots that are not built in are kept apart: each match in a sandbox, in a process of
    their own, or in the tournament's processes."""
    bot_network: bool = False
    """Sandboxed bots may use the network."""
    bot_readable: tuple[str, ...] = ()
    """More files and folders sandboxed bots may read (absolute paths, so that a resumed
    tournament means the same files from any folder)."""
    sprt: Hypotheses | None = None
    """With a sequential test, the first entrant is tested against the others (its gauntlet),
    group by group, and ``per_table`` is the most groups' worth it may take."""
    rules_json: str = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "rules_json", _canonical(self.rules))
        self.check()

    def check(self) -> None:
        """Refuse a configuration that cannot be played, with the reason."""
        if self.game not in GAMES:
            raise ValueError(f"the game must be {' or '.join(GAMES)}, not {self.game!r}")
        if self.format not in FORMATS:
            raise ValueError(f"the format must be deals or games, not {self.format!r}")
        if self.players != self.rules_value().players:
            raise RulesError(
                f"these rules seat {self.rules_value().players} players, not {self.players}"
            )
        if len(self.entrants) < self.players:
            raise ValueError(
                f"{self.players}-player tables need at least {self.players} entrants, "
                f"but {len(self.entrants)} were given (give a bot twice to field two copies)"
            )
        if self.per_table < 1:
            raise ValueError("a table must play at least one deal or game")
        most = self.most_per_table
        if self.per_table > most:
            raise ValueError(
                f"{self.per_table} {self.unit_words()[1]} per table are more than a tournament "
                f"can count: at most {most} here (its units are numbered below 2**63)"
            )
        size = self.group_size
        if self.format == "games" and self.per_table % size:
            fewer, more = self.per_table // size * size, (self.per_table // size + 1) * size
            unit = self.game_value().units
            nearest = f"{fewer} or {more}" if fewer else str(more)
            raise ValueError(
                f"--games {self.per_table} does not fill whole groups: at tables of "
                f"{self.players} the {unit} go in groups of {size}, every seating of the "
                f"table on the same cards; give a multiple of {size}, such as {nearest}"
            )
        names = [entrant.name for entrant in self.entrants]
        if self.sprt is not None and self.gauntlet != names[0]:
            raise ValueError(
                "a sequential test plays the first bot's tables only: its gauntlet must be "
                f"{names[0]!r}"
            )
        if self.gauntlet is not None and self.gauntlet not in names:
            raise ValueError(f"the gauntlet entrant {self.gauntlet!r} is not among {names}")

    def sandbox_options(self, *hidden: str) -> SandboxOptions:
        """What sandboxed bots may reach, ``hidden`` (the tournament's folders) left out."""
        options = SandboxOptions(readable=self.bot_readable, network=self.bot_network)
        return options.hiding(*hidden)

    def game_value(self) -> AnyGame:
        """The game played."""
        return game_named(self.game)

    def rules_value(self) -> AnyRules:
        """The rules as the game's own value."""
        return _rules(self.game, self.rules_json)

    def unit_words(self) -> tuple[str, str]:
        """What one unit is called, and more than one: a deal in the ``deals`` format, else the
        game's match (Thousand) or game (1000?)."""
        if self.format == "deals":
            return "deal", "deals"
        game = self.game_value()
        return game.unit, game.units

    @property
    def single_deal(self) -> bool:
        """Whether each unit is one scored Thousand deal."""
        return self.game_value().has_deals and self.format == "deals"

    def tables(self) -> list[tuple[int, ...]]:
        """Every set of entrants (by number) that meets at a table."""
        tables = itertools.combinations(range(len(self.entrants)), self.players)
        if self.gauntlet is None:
            return list(tables)
        names = [entrant.name for entrant in self.entrants]
        candidate = names.index(self.gauntlet)
        return [table for table in tables if candidate in table]

    @property
    def table_count(self) -> int:
        """How many tables there are, counted without listing them."""
        fixed = int(self.gauntlet is not None)
        return math.comb(len(self.entrants) - fixed, self.players - fixed)

    @property
    def most_per_table(self) -> int:
        """The largest ``per_table`` whose schedule holds at most :data:`MAX_UNITS` units."""
        groups = MAX_UNITS // (self.table_count * self.group_size)
        return groups if self.format == "deals" else groups * self.group_size

    @property
    def group_size(self) -> int:
        """The units of a group: the seatings of a table's design."""
        return len(seatings(self.players))

    @property
    def groups_per_table(self) -> int:
        """Deals (``deals`` format) or sets of cards (``games`` format) each table plays."""
        if self.format == "deals":
            return self.per_table
        return self.per_table // self.group_size

    def units(self) -> Schedule:
        """The whole schedule, in a fixed order (see :class:`Schedule`), made unit by unit as
        it is read."""
        return Schedule(self)

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON data."""
        return {
            "game": self.game,
            "rules": self.rules,
            "entrants": [{"name": e.name, "spec": e.spec} for e in self.entrants],
            "players": self.players,
            "format": self.format,
            "per_table": self.per_table,
            "seed": self.seed,
            "gauntlet": self.gauntlet,
            "time_limit": self.time_limit,
            "time_quota": self.time_quota,
            "on_fault": self.on_fault,
            "isolate": self.isolate.value,
            "bot_network": self.bot_network,
            "bot_readable": list(self.bot_readable),
            "sprt": None if self.sprt is None else attrs.asdict(self.sprt),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        """The configuration written by :meth:`to_dict` (raises ``KeyError``, ``TypeError`` or
        ``ValueError`` on malformed data)."""
        return cls(
            game=str(data["game"]),
            rules=dict(data["rules"]),
            entrants=tuple(Entrant(str(e["name"]), str(e["spec"])) for e in data["entrants"]),
            players=int(data["players"]),
            format=str(data["format"]),
            per_table=int(data["per_table"]),
            seed=int(data["seed"]),
            gauntlet=None if data["gauntlet"] is None else str(data["gauntlet"]),
            time_limit=None if data["time_limit"] is None else float(data["time_limit"]),
            time_quota=None if data["time_quota"] is None else float(data["time_quota"]),
            on_fault=str(data["on_fault"]),
            isolate=Isolation.of(data["isolate"]),
            bot_network=bool(data.get("bot_network", False)),
            bot_readable=tuple(str(path) for path in data.get("bot_readable", ())),
            sprt=None if data.get("sprt") is None else Hypotheses(**data["sprt"]),
        )

    def differences(self, other: Config) -> list[str]:
        """The fields in which ``other`` differs from this configuration."""
        mine, theirs = self.to_dict(), other.to_dict()
        return [key for key in mine if _canonical(mine[key]) != _canonical(theirs[key])]


@attrs.frozen
class Unit:
    """One scheduled deal, match or game."""

    name: str
    table: int
    group: int
    seating: tuple[int, ...]
    """The entrant (by number) in each seat."""
    seed: int
    """Deals the cards: the same for every unit of a group."""
    dealer: int
    """The first dealer's seat."""

    def player_seeds(self, tournament_seed: int) -> list[int]:
        """Each seat's generator seed, from the tournament seed, the unit and the seat."""
        return [
            derive_seed(tournament_seed, "player", self.name, seat)
            for seat in range(len(self.seating))
        ]


class Schedule(Sequence[Unit]):
    """A tournament's units in a fixed order: table by table, group by group, each group under
    every seating of the design (with a sequential test, group by group across the tables, so
    that the groups it reads in order finish first). Its length and each unit are computed when
    asked for; none is kept."""

    _NAME = re.compile(r"t([0-9]{1,19})-([dg])([0-9]{1,19})-s([0-9]{1,19})")
    """A unit's name: its table, its kind's letter, its group and its seating."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._tables = tuple(config.tables())
        self._groups = config.groups_per_table
        self._designs = seatings(config.players)
        self._kind = "deal" if config.format == "deals" else "game"

    def __len__(self) -> int:
        return len(self._tables) * self._groups * len(self._designs)

    @overload
    def __getitem__(self, index: int) -> Unit: ...

    @overload
    def __getitem__(self, index: slice) -> list[Unit]: ...

    def __getitem__(self, index: int | slice) -> Unit | list[Unit]:
        if isinstance(index, slice):
            return [self[position] for position in range(len(self))[index]]
        cell, place = divmod(range(len(self))[index], len(self._designs))
        if self.config.sprt is None:
            number, group = divmod(cell, self._groups)
        else:
            group, number = divmod(cell, len(self._tables))
        return self._unit(number, group, place, self._deal_seed(group))

    def __iter__(self) -> Iterator[Unit]:
        return self.first_groups(self._groups)

    def __contains__(self, value: object) -> bool:
        return isinstance(value, Unit) and self.unit_named(value.name) == value

    def first_groups(self, groups: int) -> Iterator[Unit]:
        """The units of every table's first ``groups`` groups, in the schedule's order (with a
        sequential test, the start of the schedule)."""
        tables, numbers = range(len(self._tables)), range(min(groups, self._groups))
        order = (
            ((number, group) for group in numbers for number in tables)
            if self.config.sprt is not None
            else ((number, group) for number in tables for group in numbers)
        )
        for number, group in order:
            seed = self._deal_seed(group)
            for place in range(len(self._designs)):
                yield self._unit(number, group, place, seed)

    def unit_named(self, name: str) -> Unit | None:
        """The unit of that name, if the schedule holds one (found without going through the
        others)."""
        match = self._NAME.fullmatch(name)
        if match is None or match[2] != self._kind[0]:
            return None
        number, group, place = int(match[1]), int(match[3]), int(match[4])
        if number >= len(self._tables) or group >= self._groups or place >= len(self._designs):
            return None
        unit = self._unit(number, group, place, self._deal_seed(group))
        return unit if unit.name == name else None

    def _deal_seed(self, group: int) -> int:
        return derive_seed(self.config.seed, self._kind, group)

    def _unit(self, number: int, group: int, place: int, seed: int) -> Unit:
        table = self._tables[number]
        seating = tuple(table[bot] for bot in self._designs[place])
        return Unit(f"t{number}-{self._kind[0]}{group}-s{place}", number, group, seating, seed, 0)


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed drawn from the tournament seed and what the seed is for."""
    text = ":".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


@functools.lru_cache(maxsize=8)
def _rules(game: str, rules_json: str) -> AnyRules:
    return game_named(game).rules_from_dict(json.loads(rules_json))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
