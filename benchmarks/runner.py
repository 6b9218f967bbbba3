"""Tournament runner speed: parallel efficiency, and what the scheduler and the journal add to
the games.

A tournament of three random bots (Thousand, Russian rules, deals format: one table, every deal
under its six seatings) is run through ``tournament.runner.run_tournament`` with ``out=`` a
temporary directory, so that the journal and its ``fsync`` after every batch are included:

1. with 1 worker, through a backend that plays the batches in this process exactly as the
   default one does and adds up the time spent inside them: the time spent in games;
2. with 2 workers (the default backend, local worker processes).

Each run is timed from the call to the moment the last batch is in the journal (the last
progress report); the statistics and the output files written after it are timed apart and
left out of both figures below. With ``units`` the units of the schedule:

* units/s = units / that time;
* parallel efficiency = units/s with 2 workers / (2 × units/s with 1 worker), target ≥ 85%;
* overhead = (1-worker time − time in games) / time in games, target ≤ 10%.

The overhead is then broken down (building the schedule; encoding the journal lines; writing
and ``fsync``-ing them, replayed over the same batches), and the 2-worker run's CPU time is
split between the main process and the workers.

    python benchmarks/runner.py [--deals N | --seconds 15] [--rounds 1] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

from tournament.backends import batches
from tournament.journal import Journal
from tournament.runner import run_tournament
from tournament.schedule import Config, Unit
from tournament.setup import Options, configure
from tournament.units import Played, play_batch, play_unit

BOTS = ("random", "random", "random")
CALIBRATION_DEALS = 150
EFFICIENCY_TARGET = 0.85
OVERHEAD_TARGET = 0.10


class TimedInline:
    """The in-process backend, adding up the time spent playing batches and keeping what they
    played."""

    def __init__(self) -> None:
        self.games = 0.0
        self.games_cpu = 0.0
        self.batches: list[list[Played]] = []

    def run(
        self,
        config: Config,
        batches: Sequence[Sequence[Unit]],
        keep_records: bool,
        log_dir: str | None,
    ) -> Iterator[list[Played]]:
        """Yield each batch's results in turn."""
        for batch in batches:
            began, cpu = time.perf_counter(), time.process_time()
            played = play_batch(config, batch, keep_records, log_dir)
            self.games += time.perf_counter() - began
            self.games_cpu += time.process_time() - cpu
            self.batches.append(played)
            yield played


class Clock:
    """A progress callback noting when the last unit was reported, and the main process's CPU
    time then."""

    def __init__(self) -> None:
        self.last = 0.0
        self.cpu = 0.0

    def __call__(self, done: int, total: int) -> None:
        if done >= total:
            self.last = time.perf_counter()
            self.cpu = time.process_time()


@attrs.frozen
class Run:
    """One timed tournament run."""

    play: float
    """Seconds from the call to the last batch journaled."""
    after: float
    """Seconds of statistics and output files after it."""
    games: float
    """Seconds spent inside the batches (1 worker only)."""
    games_cpu: float
    """CPU seconds spent inside the batches (1 worker only)."""
    parent_cpu: float
    """CPU seconds of this process while the units were played."""
    workers_cpu: float
    """CPU seconds of the worker processes."""
    summary: str
    """The summary.json written."""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(config: Config, workers: int, out: Path, backend: TimedInline | None) -> Run:
    """Run the tournament into ``out`` and time it."""
    clock = Clock()
    cpu, children = time.process_time(), children_cpu()
    began = time.perf_counter()
    run_tournament(config, workers=workers, out=out, progress=clock, backend=backend)
    ended = time.perf_counter()
    return Run(
        play=clock.last - began,
        after=ended - clock.last,
        games=0.0 if backend is None else backend.games,
        games_cpu=0.0 if backend is None else backend.games_cpu,
        parent_cpu=clock.cpu - cpu,
        workers_cpu=children_cpu() - children,
        summary=(out / "summary.json").read_text(encoding="utf-8"),
    )


def random_tournament(deals: int, seed: int) -> Config:
    return configure(Options(specs=BOTS, deals=deals, seed=seed))


def calibrated_deals(seconds: float, seed: int) -> int:
    """The deals per table that one worker plays in about ``seconds``."""
    config = random_tournament(CALIBRATION_DEALS, seed)
    units = config.units()
    began = time.perf_counter()
    for unit in units:
        play_unit(config, unit, False, None)
    per_deal = (time.perf_counter() - began) / CALIBRATION_DEALS
    return max(1, round(seconds / per_deal))


def journal_costs(
    config: Config, played: list[list[Played]], directory: Path
) -> tuple[float, float]:
    """Seconds to encode every journal line, and to append every batch to a fresh journal
    (encoding, writing and fsync)."""
    began = time.perf_counter()
    for batch in played:
        for item in batch:
            json.dumps(item.result.to_dict(), separators=(",", ":"))
    encoding = time.perf_counter() - began
    journal = Journal.create(directory, config)
    began = time.perf_counter()
    for batch in played:
        journal.append((item.result, item.record) for item in batch)
    appending = time.perf_counter() - began
    journal.close()
    return encoding, appending


def schedule_cost(config: Config) -> float:
    """Seconds to build the schedule and cut it into batches, as a run does."""
    began = time.perf_counter()
    batches(config.units(), 1)
    return time.perf_counter() - began


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, help="deals per table (default: sized by --seconds)")
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="size the run to take this long with 1 worker"
    )
    parser.add_argument("--rounds", type=int, default=1, help="runs of each kind (medians shown)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed")
    parser.add_argument("--dir", type=Path, help="where to make the temporary directories")
    args = parser.parse_args()
    if args.deals is not None and args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    print(f"load average before: {load()}", flush=True)
    deals = args.deals or calibrated_deals(args.seconds, args.seed)
    config = random_tournament(deals, args.seed)
    units = len(config.units())
    size = max(len(batch) for batch in batches(config.units(), 1))
    print(
        f"{' '.join(BOTS)}: Thousand (russian), {deals} deals x 6 seatings = {units} units in "
        f"batches of {size}, seed {args.seed}; {os.cpu_count()} cores, "
        f"Python {sys.version.split()[0]}\n",
        flush=True,
    )

    root = Path(tempfile.mkdtemp(prefix="tournament-bench-", dir=args.dir))
    ones: list[Run] = []
    twos: list[Run] = []
    timed = TimedInline()
    try:
        for number in range(args.rounds):
            timed = TimedInline()
            ones.append(timed_run(config, 1, root / f"one-{number}", timed))
            twos.append(timed_run(config, 2, root / f"two-{number}", None))
            if ones[-1].summary != twos[-1].summary:
                raise SystemExit("the summaries of the 1- and 2-worker runs differ")
        encoding, appending = journal_costs(config, timed.batches, root / "journal")
    finally:
        shutil.rmtree(root)
    schedule = schedule_cost(config)

    def median(values: Sequence[float]) -> float:
        return statistics.median(values)

    one_play = median([run.play for run in ones])
    two_play = median([run.play for run in twos])
    games = median([run.games for run in ones])
    games_cpu = median([run.games_cpu for run in ones])
    one_cpu = median([run.parent_cpu for run in ones])
    efficiency = one_play / (2 * two_play)
    overhead = (one_play - games) / games
    print(f"{'workers':<8} {'seconds':>8} {'units/s':>9}   then statistics and output files")
    for workers, play, runs in ((1, one_play, ones), (2, two_play, twos)):
        after = median([run.after for run in runs])
        print(f"{workers:<8} {play:>8.2f} {units / play:>9,.0f}   {after:.2f} s")
    verdict = "met" if efficiency >= EFFICIENCY_TARGET else "missed"
    print(f"\nparallel efficiency {efficiency:.1%} (target >= {EFFICIENCY_TARGET:.0%}: {verdict})")
    verdict = "met" if overhead <= OVERHEAD_TARGET else "missed"
    print(
        f"overhead {overhead:.1%}: {one_play:.2f} s with 1 worker, {games:.2f} s in games "
        f"(target <= {OVERHEAD_TARGET:.0%}: {verdict})"
    )
    print(
        f"  in CPU time: {(one_cpu - games_cpu) / games_cpu:.1%} "
        f"({one_cpu:.2f} s, {games_cpu:.2f} s in games)"
    )

    count = len(timed.batches)
    fsyncs = appending - encoding
    print("\nwhere the 1-worker time goes (seconds, share of the time in games)")
    print(f"  {'in games':<40}{share(games, games)}")
    print(f"  {'building the schedule and batches':<40}{share(schedule, games)}")
    print(f"  {'encoding journal lines':<40}{share(encoding, games)}")
    print(f"  {f'writing and fsync, {count} batches':<40}{share(fsyncs, games)}")
    rest = one_play - games - schedule - appending
    print(f"  {'the rest (run loop, waiting for a core)':<40}{share(rest, games)}")
    print(
        f"  per unit: {games / units * 1e6:.0f} µs in games ({games_cpu / units * 1e6:.0f} µs "
        f"CPU), {encoding / units * 1e6:.1f} µs encoding; {fsyncs / count * 1e3:.2f} ms per "
        "batch written"
    )
    parent = median([run.parent_cpu for run in twos])
    workers_cpu = median([run.workers_cpu for run in twos])
    print("\n2 workers: CPU seconds while playing")
    print(f"  main process {parent:6.2f} s ({parent / two_play:.0%} of one core)")
    print(
        f"  workers      {workers_cpu:6.2f} s ({workers_cpu / games_cpu:.0%} of the CPU time in "
        "games with 1 worker)"
    )
    print(f"\nload average after: {load()}")


def share(part: float, whole: float) -> str:
    return f"{part:8.2f} s {part / whole:6.1%}"


if __name__ == "__main__":
    main()
