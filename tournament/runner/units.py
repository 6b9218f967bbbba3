"""Playing scheduled units: what a worker does, wherever it runs."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from thousand import BotLimits, Outcome, PlayerError, play
from thousand.common.record_io import named
from thousand.games import game_of
from thousand.table.specs import check_player
from thousand.table.tracebacks import raised_at
from tournament.runner.schedule import Config, Unit
from tournament.runner.unit_results import STATUSES, UnitResult

__all__ = ["BotLogs", "Played", "UnitFault", "check_entrants", "play_batch", "play_unit"]


class UnitFault(ValueError):
    """A bot's fault that stops the tournament (the ``raise`` fault policy), naming the unit
    and the bot."""


@attrs.frozen
class BotLogs:
    """Where the error output of a tournament's bots in processes of their own goes (a folder
    that every worker writes into), the bytes each bot may keep there in all, and the folders
    sandboxed bots must not see besides it (the tournament's own)."""

    folder: str
    cap: int = BotLimits().log
    hidden: tuple[str, ...] = ()


@attrs.frozen
class Played:
    """A unit's result, with its match record as JSON when records are kept."""

    result: UnitResult
    record: str | None


def check_entrants(config: Config, logs: BotLogs) -> None:
    """Start every entrant once, as its matches will (see :func:`thousand.check_player`): a bot
    that cannot start is found before a game.

    Raises:
        BotSpecError: a bot cannot start, named in the message.
        SandboxUnavailable: a bot is to be sandboxed and sandboxes cannot be made here.
    """
    for spec in dict.fromkeys(entrant.spec for entrant in config.entrants):
        check_player(
            spec,
            config.rules_value(),
            isolate=config.isolate,
            sandbox=config.sandbox_options(*logs.hidden),
            log_dir=logs.folder,
            limits=BotLimits(log=logs.cap),
        )


def play_batch(
    config: Config, units: Sequence[Unit], keep_records: bool, logs: BotLogs
) -> list[Played]:
    """Play several units (a batch amortises the cost of handing work to a worker), those of a
    seating one after another, so that a bot's kept process plays match after match while its
    memory is still in the caches; the results come in the batch's order."""
    order = sorted(range(len(units)), key=lambda index: units[index].seating)
    played = {index: play_unit(config, units[index], keep_records, logs) for index in order}
    return [played[index] for index in range(len(units))]


def play_unit(config: Config, unit: Unit, keep_records: bool, logs: BotLogs) -> Played:
    """Play one unit and reduce its outcome to a :class:`UnitResult`."""
    try:
        outcome = _play(config, unit, logs)
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
    if not keep_records:
        return Played(result, None)
    # The record names the seats as the tournament's tables do (``random#2``).
    names = named([config.entrants[entrant].name for entrant in unit.seating], len(unit.seating))
    return Played(result, attrs.evolve(outcome.record, players=names).to_json())


def _play(config: Config, unit: Unit, logs: BotLogs) -> Outcome:
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
        sandbox=config.sandbox_options(*logs.hidden),
        log_dir=logs.folder,
        limits=BotLimits(log=logs.cap),
    )
