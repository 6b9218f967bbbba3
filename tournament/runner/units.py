"""Playing scheduled units: what a worker does, wherever it runs."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from thousand import Outcome, PlayerError, play
from thousand.games import game_of
from thousand.table.tracebacks import raised_at
from tournament.runner.results import STATUSES, UnitResult
from tournament.runner.schedule import Config, Unit

__all__ = ["Played", "UnitFault", "play_batch", "play_unit"]


class UnitFault(ValueError):
    """A bot's fault that stops the tournament (the ``raise`` fault policy), naming the unit
    and the bot."""


@attrs.frozen
class Played:
    """A unit's result, with its match record as JSON when records are kept."""

    result: UnitResult
    record: str | None


def play_batch(
    config: Config, units: Sequence[Unit], keep_records: bool, log_dir: str | None
) -> list[Played]:
    """Play several units in turn (a batch amortises the cost of handing work to a worker)."""
    return [play_unit(config, unit, keep_records, log_dir) for unit in units]


def play_unit(config: Config, unit: Unit, keep_records: bool, log_dir: str | None) -> Played:
    """Play one unit and reduce its outcome to a :class:`UnitResult`."""
    try:
        outcome = _play(config, unit, log_dir)
    except PlayerError as error:
        fault = error.fault
        name = config.entrants[unit.seating[fault.seat]].name
        place = raised_at(fault.traceback)
        where = f" (at {place})" if place else ""
        raise UnitFault(
            f"unit {unit.name}: {name} in seat {fault.seat}: {fault.detail}{where}"
        ) from None
    faults = [[0] * len(STATUSES) for _ in unit.seating]
    for fault in outcome.faults:
        faults[fault.seat][STATUSES.index(fault.status.value)] += 1
    result = UnitResult(
        unit=unit.name,
        table=unit.table,
        group=unit.group,
        seating=unit.seating,
        scores=outcome.scores,
        places=outcome.places,
        statuses=tuple(status.value for status in outcome.statuses),
        faults=tuple(tuple(counts) for counts in faults),
        contracts=game_of(outcome.rules).contracts(outcome.result, outcome.record),
        decisions=outcome.decisions,
        think_time=outcome.think_time,
    )
    return Played(result, outcome.record.to_json() if keep_records else None)


def _play(config: Config, unit: Unit, log_dir: str | None) -> Outcome:
    return play(
        [config.entrants[entrant].spec for entrant in unit.seating],
        config.rules_value(),
        seed=unit.seed,
        single_deal=config.single_deal,
        dealer=unit.dealer,
        time_limit=config.time_limit,
        time_quota=config.time_quota,
        on_fault=config.on_fault,
        player_seeds=unit.player_seeds(config.seed),
        isolate=config.isolate,
        log_dir=log_dir,
    )
