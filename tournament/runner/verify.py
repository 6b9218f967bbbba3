"""What the files of a kept tournament must hold to be read back: the configuration, every line
of the journal and the anchor of the summary, each field checked for its type and its range,
and each unit against the schedule and the rules. A problem is a ``ValueError`` naming the
field, so that a folder edited into other valid JSON is refused rather than read into other
results (the journal's checks chain its lines, but anyone can compute them again)."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

from thousand import Rules, bluff
from thousand.classic.cards import DECK_POINTS
from thousand.classic.marriages import every_marriage, highest_ceiling
from thousand.errors import ThousandError
from thousand.games import BLUFF, THOUSAND, AnyGame, game_named, per_game
from thousand.table.faults import FaultPolicy
from thousand.table.sandbox import Isolation
from tournament.runner.balanced_seatings import seatings
from tournament.runner.schedule import FORMATS, GAMES, Config, entrants_of
from tournament.runner.summary import Anchor, check_anchor_rating
from tournament.runner.unit_results import STATUSES, UnitResult

__all__ = ["UnitCheck", "checked_anchor", "config_from_dict", "saved_anchor"]

BIGGEST = sys.float_info.max
"""The largest size of a number read as a float."""


def config_from_dict(data: Any) -> Config:
    """The configuration ``config.json`` holds, every field checked: none missing or unknown,
    each of its type (a whole number is not ``5.0``, a flag not ``1``), the rules valid, the
    names the ones thousand gives the specs, the numbers finite and in range."""
    fields = _object(data, "the configuration")
    _typed(fields, _CONFIG_FIELDS, optional=("sprt", "bot_network", "bot_readable"))
    for entrant in fields["entrants"]:
        _typed(_object(entrant, "an entrant of field 'entrants'"), _ENTRANT_FIELDS)
    sprt = fields.get("sprt")
    if sprt is not None:
        _typed(_object(sprt, "field 'sprt'"), _SPRT_FIELDS)
    for key, known in (("game", GAMES), ("format", FORMATS)):
        if fields[key] not in known:
            raise ValueError(f"field {key!r} must be {' or '.join(known)}, not {fields[key]!r}")
    try:
        rules = game_named(fields["game"]).rules_from_dict(fields["rules"])
    except ThousandError as error:
        raise ValueError(f"field 'rules': {error}") from None
    if fields["players"] != rules.players:
        raise ValueError(f"field 'players' must be {rules.players}, the seats of the rules")
    if fields["per_table"] < 1:
        raise ValueError(f"field 'per_table' must be 1 or more, not {fields['per_table']}")
    config = Config.from_dict(fields)
    names = [entrant.name for entrant in entrants_of([entrant.spec for entrant in config.entrants])]
    if names != [entrant.name for entrant in config.entrants]:
        raise ValueError(f"field 'entrants': the bots' names must be {', '.join(names)}")
    if config.seed < 0:
        raise ValueError(f"field 'seed' must be 0 or more, not {config.seed}")
    for key, value in (("time_limit", config.time_limit), ("time_quota", config.time_quota)):
        if value is not None and not value > 0:
            raise ValueError(f"field {key!r} must be a positive number of seconds, not {value}")
    if config.on_fault not in {policy.value for policy in FaultPolicy}:
        choices = ", ".join(policy.value for policy in FaultPolicy)
        raise ValueError(f"field 'on_fault' must be one of {choices}, not {config.on_fault!r}")
    return config


class UnitCheck:
    """Checks the journal's lines of one tournament, each against the schedule, the rules and
    the lines before it."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.tables = config.tables()
        self.designs = seatings(config.players)
        self.kind = "d" if config.format == "deals" else "g"
        self.scores, self.contract, self.contracts = _limits(config)
        self.seen: set[str] = set()

    def result(self, fields: Any) -> UnitResult:
        """The unit a journal line's fields (its check taken off) hold, checked."""
        _typed(_object(fields, "the line"), _UNIT_FIELDS)
        result = UnitResult.from_dict(fields)
        self._scheduled(result)
        self._played(result)
        self.seen.add(result.unit)
        return result

    def _scheduled(self, result: UnitResult) -> None:
        """The unit is one of the schedule's, not met before, seated as the schedule says."""
        found = re.fullmatch(rf"t(\d+)-{self.kind}(\d+)-s(\d+)", result.unit)
        if found is None:
            raise ValueError(f"field 'unit': {result.unit!r} names no unit of this tournament")
        table, group, place = (int(part) for part in found.groups())
        if not (
            table < len(self.tables)
            and group < self.config.groups_per_table
            and place < len(self.designs)
            and found.group(0) == f"t{table}-{self.kind}{group}-s{place}"
        ):
            raise ValueError(f"field 'unit': {result.unit!r} is not in the schedule")
        if result.unit in self.seen:
            raise ValueError(f"field 'unit': {result.unit!r} was already played")
        if result.table != table:
            raise ValueError(f"field 'table': unit {result.unit} is at table {table}")
        if result.group != group:
            raise ValueError(f"field 'group': unit {result.unit} is of group {group}")
        seating = tuple(self.tables[table][bot] for bot in self.designs[place])
        if result.seating != seating:
            raise ValueError(
                f"field 'seating': the schedule seats {list(seating)} in unit {result.unit}"
            )

    def _played(self, result: UnitResult) -> None:
        """Every per-seat field has one value a seat, each as a unit can end."""
        seats = self.config.players
        for key in ("scores", "places", "statuses", "faults", "decisions", "think_time"):
            if len(getattr(result, key)) != seats:
                raise ValueError(f"field {key!r} must hold one value for each of {seats} seats")
        low, high = self.scores
        if any(not low <= score <= high for score in result.scores):
            raise ValueError(f"field 'scores' must lie from {low} to {high} under these rules")
        for place in result.places:
            if place != 1 + sum(other < place for other in result.places):
                raise ValueError(f"field 'places': {list(result.places)} are not places")
        for status, counts in zip(result.statuses, result.faults, strict=True):
            if status not in STATUSES:
                raise ValueError(
                    f"field 'statuses': {status!r} is not one of {', '.join(STATUSES)}"
                )
            if len(counts) != len(STATUSES) or counts[0] != 0 or min(counts) < 0:
                raise ValueError(
                    f"field 'faults': each seat counts its faults by {', '.join(STATUSES[1:])}, "
                    "after a 0 for ok"
                )
            if (status == "ok") != (sum(counts) == 0) or counts[STATUSES.index(status)] < (
                status != "ok"
            ):
                raise ValueError(f"field 'statuses': {status!r} does not agree with 'faults'")
        if len(result.contracts) > self.contracts:
            raise ValueError(
                f"field 'contracts' holds {len(result.contracts)} contracts, where a unit "
                f"holds at most {self.contracts}"
            )
        for seat, amount, _ in result.contracts:
            if not (0 <= seat < seats and 0 < amount <= self.contract):
                raise ValueError(
                    f"field 'contracts': a contract is a seat from 0 to {seats - 1} and an "
                    f"amount from 1 to {self.contract}"
                )
        if min(result.decisions) < 0:
            raise ValueError("field 'decisions' must not be negative")
        if min(result.think_time) < 0:
            raise ValueError("field 'think_time' must hold seconds, 0 or more")


def checked_anchor(anchor: Anchor, names: Sequence[str]) -> Anchor:
    """``anchor`` if it fixes ratings of entrants among ``names``, each once, to ratings that
    :func:`~tournament.runner.summary.check_anchor_rating` accepts; otherwise a one-line
    ``ValueError``."""
    seen: set[str] = set()
    for name, rating in anchor:
        if name not in names or name in seen:
            raise ValueError(f"the anchor names {name!r}, not one of {', '.join(names)} once")
        try:
            check_anchor_rating(rating)
        except (ValueError, TypeError, OverflowError) as error:
            raise ValueError(f"the anchor rating of {name!r}, {_shown(rating)}: {error}") from None
        seen.add(name)
    return anchor


def saved_anchor(data: Any, names: Sequence[str]) -> Anchor | None:
    """The anchor a summary's ``anchor`` field keeps (``null`` or an object of ratings)."""
    if data is None:
        return None
    kept = _object(data, "field 'anchor'")
    if not kept or not all(_numeric(rating) for rating in kept.values()):
        raise ValueError("field 'anchor' must map bot names to ratings")
    checked_anchor(tuple(kept.items()), names)
    return tuple((name, float(rating)) for name, rating in kept.items())


Limits: TypeAlias = "tuple[tuple[int, int], int, int]"
"""The lowest and highest score of a seat, the largest contract, the most contracts."""


def _limits(config: Config) -> Limits:
    """The lowest and highest score a unit may give a seat, the largest contract and the most
    contracts a unit may hold, under the configuration's rules: generous bounds, which no
    play reaches, but an edit to a score that no play could give does."""
    rules = config.rules_value()
    limits: Callable[[Any, bool], Limits] = per_game(_LIMITS, rules, "checked results")
    return limits(rules, config.single_deal)


def _bluff_limits(rules: bluff.Rules, single_deal: bool) -> Limits:
    return (-len(rules.deck), 0), 0, 0


def _thousand_limits(rules: Rules, single_deal: bool) -> Limits:
    marriages = every_marriage(rules)
    contract = max(rules.opening_bid, highest_ceiling(rules))
    deal = (
        contract
        + DECK_POINTS
        + marriages
        + rules.barrel_penalty
        + rules.bolt_penalty
        + rules.sitter_bonus
        + max(rules.target, rules.barrel_threshold, rules.lock_threshold)
    )
    if single_deal:
        return (-2 * deal, 2 * deal), contract, 1
    match = deal * (rules.max_deals + 1)
    return (-match, match), contract, rules.max_deals


_LIMITS: dict[AnyGame, Callable[[Any, bool], Limits]] = {
    THOUSAND: _thousand_limits,
    BLUFF: _bluff_limits,
}


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be a JSON object, not {_shown(data)}")
    return data


Check = Callable[[Any], bool]
"""Whether a JSON value is of a field's type."""


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    """A number a float holds: not ``nan``, infinite or a larger whole number."""
    return _numeric(value) and abs(value) <= BIGGEST


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _isolation(value: Any) -> bool:
    """An isolation's name (:class:`~thousand.table.sandbox.Isolation`), or the flag older
    tournaments wrote (``true``: the sandbox)."""
    return isinstance(value, bool) or value in {kind.value for kind in Isolation}


def _absolute_path(value: Any) -> bool:
    return isinstance(value, str) and os.path.isabs(value) and "\0" not in value


def _object_value(value: Any) -> bool:
    return isinstance(value, dict)


def _list_of(check: Check) -> Check:
    return lambda value: isinstance(value, list) and all(check(item) for item in value)


def _or_null(check: Check) -> Check:
    return lambda value: value is None or check(value)


def _contract(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and _whole(value[0])
        and _whole(value[1])
        and _flag(value[2])
    )


Field = tuple[Check, str]
"""A field's type: the check, and how an error names it."""
WHOLE: Field = (_whole, "a whole number")
TEXT: Field = (_text, "text")
WHOLES: Field = (_list_of(_whole), "a list of whole numbers")
NUMBER_OR_NULL: Field = (_or_null(_number), "a finite number or null")

_CONFIG_FIELDS: dict[str, Field] = {
    "game": TEXT,
    "rules": (_object_value, "an object of rules fields"),
    "entrants": (_list_of(_object_value), "a list of objects"),
    "players": WHOLE,
    "format": TEXT,
    "per_table": WHOLE,
    "seed": WHOLE,
    "gauntlet": (_or_null(_text), "text or null"),
    "time_limit": NUMBER_OR_NULL,
    "time_quota": NUMBER_OR_NULL,
    "on_fault": TEXT,
    "isolate": (_isolation, "sandbox, process or none"),
    "bot_network": (_flag, "true or false"),
    "bot_readable": (_list_of(_absolute_path), "a list of absolute paths"),
    "sprt": (_or_null(_object_value), "an object or null"),
}
"""The fields of ``config.json``, as :meth:`Config.to_dict` writes them."""
_ENTRANT_FIELDS = {"name": TEXT, "spec": TEXT}
_SPRT_FIELDS = dict.fromkeys(("h0", "h1", "alpha", "beta"), (_number, "a finite number"))
_UNIT_FIELDS: dict[str, Field] = {
    "unit": TEXT,
    "table": WHOLE,
    "group": WHOLE,
    "seating": WHOLES,
    "scores": WHOLES,
    "places": WHOLES,
    "statuses": (_list_of(_text), "a list of statuses"),
    "faults": (_list_of(_list_of(_whole)), "a list of lists of whole numbers"),
    "contracts": (_list_of(_contract), "a list of [seat, contract, made]"),
    "decisions": WHOLES,
    "think_time": (_list_of(_number), "a list of finite numbers"),
}
"""The fields of a journal line (its check taken off), as :meth:`UnitResult.to_dict` writes
them."""


def _typed(
    fields: Mapping[str, Any], known: Mapping[str, Field], optional: Sequence[str] = ()
) -> None:
    """Refuse a field missing, unknown or not of its type."""
    for key, (check, kind) in known.items():
        if key not in fields:
            if key not in optional:
                raise ValueError(f"field {key!r} is missing")
        elif not check(fields[key]):
            raise ValueError(f"field {key!r} must be {kind}, not {_shown(fields[key])}")
    unknown = [key for key in fields if key not in known]
    if unknown:
        raise ValueError(f"field {unknown[0]!r} is not one thousand writes")


def _shown(value: Any) -> str:
    text = _canonical(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
