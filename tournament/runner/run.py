"""Running a tournament: the schedule, a backend to play it, the journal to survive a crash, and
the statistics at the end."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from thousand.common.text import printable
from thousand.table.botlogs import log_folder
from thousand.table.external import BotLimits
from thousand.table.isolation import stop_loaders
from tournament.runner.backends import (
    DEFAULT_BATCH,
    Backend,
    InlineBackend,
    ProcessBackend,
    batches,
)
from tournament.runner.journal import Journal, TournamentDirError, check_resumable, write_text
from tournament.runner.schedule import Config, Unit
from tournament.runner.sprt import GroupLeads, SequentialTest, SprtOutcome, Verdict
from tournament.runner.store import ResultStore
from tournament.runner.summary import Anchor, Summary, summarize
from tournament.runner.unit_results import UnitResult
from tournament.runner.units import BotLogs, check_entrants

__all__ = ["Progress", "run_tournament", "summary_document"]

Progress = Callable[[int, int], None]
"""Told the number of finished units and the total after every batch."""

FAULTS = ("illegal", "error", "timeout")
SUMMARY = "summary.json"
STANDINGS = "standings.csv"
CROSSTABLE = "crosstable.csv"


def run_tournament(
    config: Config,
    *,
    workers: int = 1,
    out: Path | None = None,
    resume: bool = False,
    keep_records: bool = False,
    log_dir: str | None = None,
    bot_log_limit: int | None = None,
    progress: Progress | None = None,
    backend: Backend | None = None,
    on_verdict: Callable[[Verdict], None] | None = None,
    on_results: Callable[[Sequence[UnitResult]], None] | None = None,
    anchor: Anchor | None = None,
    store: ResultStore | None = None,
) -> Summary:
    """Play every unit of the schedule not already in the journal and return the summary.

    With ``out`` the configuration, the journal and the outputs are kept in that directory;
    ``resume`` continues the tournament kept there (its configuration must equal ``config``,
    and records are kept if they were when it started). With ``store`` instead, the units go
    to that :class:`~tournament.runner.store.ResultStore` (a database's, say), and the
    tournament goes on from the units it holds (its configuration must equal ``config``); the
    store is left open for its owner. Every entrant is first started once,
    so that a bot that cannot start stops the run with ``BotSpecError`` before any game.
    With a sequential test, ``on_verdict`` is told the verdict after every batch (before
    ``progress``), and the run stops once the test decides. ``on_results`` is handed the
    units found in the journal, then every batch's units as they finish (before ``progress``).
    ``anchor`` fixes entrants' ratings (see :func:`~tournament.runner.summary.summarize`).
    The error output of bots in processes of their own goes to the folder ``log_dir``, by
    default ``logs`` in ``out`` or a fresh folder, each bot's files holding at most
    ``bot_log_limit`` bytes in all (16 MiB by default).
    """
    if store is not None and out is not None:
        raise ValueError("a tournament keeps its results in a folder or in a store, not both")
    fresh = not log_dir and out is None
    cap = BotLimits().log if bot_log_limit is None else bot_log_limit
    hidden = () if out is None else (str(out),)
    logs = BotLogs(str(log_folder(log_dir, out)), cap, hidden)
    if out is not None and resume:
        # A folder that cannot be verified is refused before a bot starts (and logs anything).
        check_resumable(out)
    made_here = out is not None and not resume and not os.path.lexists(out)
    if backend is None:
        backend = InlineBackend() if workers <= 1 else ProcessBackend(workers)
    try:
        # A backend may start them where it plays, keeping what it started (a sandboxed bot's
        # loader) for the matches.
        check = getattr(backend, "check_entrants", check_entrants)
        check(config, logs)
    except BaseException:
        if made_here and out is not None:  # only the bots' logs of the check are in it
            shutil.rmtree(out, ignore_errors=True)
        raise
    schedule = config.units()
    finished: dict[str, UnitResult] = {}
    journal: ResultStore | None = store
    if store is not None:
        _check_same(store.read_config(), config, "the store")
        finished = store.read_units()
    elif out is not None:
        if resume:
            saved = Journal.saved_config(out)
            _check_same(saved, config, str(out))
            journal = Journal(out, saved)
            finished = journal.read_units()
            keep_records = keep_records or Journal.keeps_records(out)
        else:
            journal = Journal.create(out, config, keep_records)
    test = _Test(config, on_verdict) if config.sprt is not None else None
    # Every unit in the journal is in the schedule (the journal checks it), so the rest is counted.
    todo: Iterator[Unit] = (unit for unit in schedule if unit.name not in finished)
    left = len(schedule) - len(finished)
    if test is not None and test.read(finished.values()).accepted is not None:
        todo, left = iter(()), 0
    if on_results is not None and finished:
        on_results(list(finished.values()))
    if progress is not None:
        progress(len(finished), len(schedule))
    try:
        largest = getattr(backend, "largest_batch", DEFAULT_BATCH)
        work = batches(todo, left, max(workers, 1), largest)
        results = backend.run(config, work, keep_records, logs)
        for played in results:
            if journal is not None:
                journal.append((item.result, item.record) for item in played)
            finished.update((item.result.unit, item.result) for item in played)
            decided = (
                test is not None and test.read(item.result for item in played).accepted is not None
            )
            if on_results is not None:
                on_results([item.result for item in played])
            if progress is not None:
                progress(len(finished), len(schedule))
            if decided:
                # Decided: the backend stops handing out the batches not yet started.
                close = getattr(results, "close", None)
                if close is not None:
                    close()
                break
    finally:
        stop_loaders()
        if journal is not None and journal is not store:
            journal.close()
        if fresh:
            with contextlib.suppress(OSError):
                os.rmdir(logs.folder)  # made for this run, and no bot wrote in it
    counted = schedule if test is None else schedule.first_groups(test.verdict.observations)
    summary = summarize(
        [finished[unit.name] for unit in counted],
        [entrant.name for entrant in config.entrants],
        format=config.format,
        seed=config.seed,
        anchor=anchor,
    )
    if test is not None:
        summary = attrs.evolve(summary, sprt=SprtOutcome(test.test.hypotheses, test.verdict))
    if out is not None:
        write_outputs(out, config, summary)
    return summary


def _check_same(saved: Config, config: Config, where: str) -> None:
    """Refuse to go on with the tournament kept in ``where`` under another configuration."""
    changed = saved.differences(config)
    if changed:
        raise TournamentDirError(
            f"{where} holds a tournament with another configuration "
            f"(different {', '.join(changed)}); resume it without changing options"
        )


class _Test:
    """The sequential test of a tournament, read from its finished units group by group."""

    def __init__(self, config: Config, watch: Callable[[Verdict], None] | None) -> None:
        assert config.sprt is not None
        self.test = SequentialTest(config.sprt)
        self.leads = GroupLeads(group_size=config.group_size, tables=len(config.tables()))
        self.watch = watch

    @property
    def verdict(self) -> Verdict:
        return self.test.verdict

    def read(self, results: Iterable[UnitResult]) -> Verdict:
        """Take newly finished units and feed the groups they complete; the verdict after."""
        verdict = self.test.add_all(self.leads.add(results))
        if self.watch is not None:
            self.watch(verdict)
        return verdict


def summary_document(config: Config, summary: Summary) -> dict[str, Any]:
    """The machine-readable summary: the configuration and the statistics."""
    return {"config": config.to_dict(), **summary.to_dict()}


def write_outputs(out: Path, config: Config, summary: Summary) -> None:
    """``summary.json``, ``standings.csv`` and ``crosstable.csv`` in the tournament directory.
    The JSON keeps every name exactly (its escapes show control characters harmlessly); the
    CSV files, which are read as text, show each control character in a name as ``?``."""
    document = summary_document(config, summary)
    write_text(out / SUMMARY, json.dumps(document, indent=2, sort_keys=True) + "\n")
    write_text(out / STANDINGS, _csv(standing_rows(summary)))
    write_text(out / CROSSTABLE, _csv(crosstable_rows(summary)))


def standing_rows(summary: Summary) -> list[list[str]]:
    """The standings as rows of text cells, a header first; an empty cell where a figure or
    its interval does not exist."""
    rows = [
        [
            "rank",
            "bot",
            "rating",
            "rating_low",
            "rating_high",
            "mean_score",
            "score_low",
            "score_high",
            "units",
            "win_rate",
            "contracts_made",
            "average_contract",
            "illegal",
            "error",
            "timeout",
        ]
    ]
    for standing in summary.standings:
        rating = standing.rating_interval or (None, None)
        score = standing.score_interval or (None, None)
        faults = dict(standing.faults)
        rows.append(
            [
                str(standing.rank),
                printable(standing.name),
                _number(standing.rating),
                _number(rating[0]),
                _number(rating[1]),
                _number(standing.mean_score),
                _number(score[0]),
                _number(score[1]),
                str(standing.units),
                _number(standing.win_rate),
                _number(standing.contract_success),
                _number(standing.average_contract),
                *(str(faults.get(status, 0)) for status in FAULTS),
            ]
        )
    return rows


def crosstable_rows(summary: Summary) -> list[list[str]]:
    """The crosstable as rows: the row bot's mean score minus the column bot's, where they met."""
    names = [printable(name) for name in summary.entrants]
    rows = [["bot", *names]]
    for name, row in zip(names, summary.crosstable, strict=True):
        rows.append([name, *(_number(value) for value in row)])
    return rows


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def _csv(rows: list[list[str]]) -> str:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue()
