"""Tournament runner speed: parallel efficiency, and what the scheduler and the journal add to
the games.

A tournament of three random bots (Thousand, Russian rules, deals format: one table, every deal
under its six seatings) is run through ``tournament.runner.run_tournament`` with ``out=`` a
fresh temporary directory, so that the journal and its ``fsync`` after every batch are included.
Each round, alternating so that all three see the same machine:

1. 1 worker, through a backend that plays the batches in this process exactly as the default
   one does, and times both the batches (the time spent in games) and what the runner does with
   each batch before asking for the next (the journal, the bookkeeping);
2. 2 bare processes, no runner: each plays half of the units in a loop. This is what the
   machine gives two processes, the ceiling for any runner;
3. 2 workers, the default backend (a pool of local worker processes).

A run is timed from the call to the moment its last batch is in the journal (the last progress
report). The statistics and the output files written after that are timed apart and left out of
both targets:

* units/s = units / that time;
* parallel efficiency = units/s with 2 workers / (2 × units/s with 1 worker), target ≥ 85%;
* overhead = (1-worker time − time in games) / time in games, target ≤ 10%.

The journal's share is split by writing the same batches again to a fresh journal: encoding the
lines, then writing and ``fsync``-ing them. Medians over the rounds are printed.

    python benchmarks/tournament.py [--deals N | --seconds 15] [--rounds 3] [--dir DIR]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from itertools import repeat
from pathlib import Path

import attrs

from tournament.backends import batches
from tournament.journal import Journal
from tournament.runner import run_tournament
from tournament.schedule import Config, Unit
from tournament.setup import Options, configure
from tournament.units import Played, play_batch

BOTS = ("random", "random", "random")
CALIBRATION_DEALS = 150
EFFICIENCY_TARGET = 0.85
OVERHEAD_TARGET = 0.10


class TimedInline:
    """The in-process backend, timing the batches it plays, what the runner does between them,
    and keeping what they played."""

    def __init__(self) -> None:
        self.games = 0.0
        self.games_cpu = 0.0
        self.between = 0.0
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
            handed = time.perf_counter()
            self.games += handed - began
            self.games_cpu += time.process_time() - cpu
            self.batches.append(played)
            yield played
            self.between += time.perf_counter() - handed


class Clock:
    """A progress callback noting when the last unit was reported, and this process's CPU
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
        parent_cpu=clock.cpu - cpu,
        workers_cpu=children_cpu() - children,
        summary=(out / "summary.json").read_text(encoding="utf-8"),
    )


def play_share(config: Config, units: list[Unit]) -> None:
    play_batch(config, units, False, None)


def bare_run(config: Config, processes: int) -> float:
    """Seconds for ``processes`` plain processes to play a share of the units each."""
    units = config.units()
    shares = [units[start::processes] for start in range(processes)]
    began = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(processes) as pool:
        list(pool.map(play_share, repeat(config), shares))
    return time.perf_counter() - began


def random_tournament(deals: int, seed: int) -> Config:
    return configure(Options(specs=BOTS, deals=deals, seed=seed))


def calibrated_deals(seconds: float, seed: int) -> int:
    """The deals per table that one worker plays in about ``seconds``."""
    config = random_tournament(CALIBRATION_DEALS, seed)
    began = time.perf_counter()
    play_share(config, config.units())
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


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def line(what: str, seconds: float, games: float) -> str:
    return f"  {what:<54}{seconds:7.2f} s {seconds / games:7.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, help="deals per table (default: sized by --seconds)")
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="size a 1-worker run to take this long"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of runs (medians shown)")
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
    bares: list[float] = []
    timings: list[TimedInline] = []
    try:
        for number in range(args.rounds):
            timings.append(TimedInline())
            ones.append(timed_run(config, 1, root / f"one-{number}", timings[-1]))
            bares.append(bare_run(config, 2))
            twos.append(timed_run(config, 2, root / f"two-{number}", None))
            if ones[-1].summary != twos[-1].summary:
                raise SystemExit("the summaries of the 1- and 2-worker runs differ")
        encoding, appending = journal_costs(config, timings[-1].batches, root / "journal")
    finally:
        shutil.rmtree(root)

    def median(values: Sequence[float]) -> float:
        return statistics.median(values)

    one = median([run.play for run in ones])
    two = median([run.play for run in twos])
    bare = median(bares)
    games = median([timing.games for timing in timings])
    games_cpu = median([timing.games_cpu for timing in timings])
    between = median([timing.between for timing in timings])
    one_cpu = median([run.parent_cpu for run in ones])
    efficiency = one / (2 * two)
    overhead = (one - games) / games

    print(f"{'run':<28} {'seconds':>8} {'units/s':>9}   then statistics and output files")
    for name, seconds, after in (
        ("1 worker", one, median([run.after for run in ones])),
        ("2 bare processes, no runner", bare, None),
        ("2 workers", two, median([run.after for run in twos])),
    ):
        tail = "" if after is None else f"{after:.2f} s"
        print(f"{name:<28} {seconds:>8.2f} {units / seconds:>9,.0f}   {tail}")
    verdict = "met" if efficiency >= EFFICIENCY_TARGET else "missed"
    print(f"\nparallel efficiency {efficiency:.1%} (target >= {EFFICIENCY_TARGET:.0%}: {verdict})")
    print(
        f"  the machine's own, 2 bare processes: {games / (2 * bare):.1%}; the runner keeps "
        f"{bare / two:.1%} of their speed"
    )
    verdict = "met" if overhead <= OVERHEAD_TARGET else "missed"
    print(
        f"overhead {overhead:.1%}: {one:.2f} s with 1 worker, {games:.2f} s in games "
        f"(target <= {OVERHEAD_TARGET:.0%}: {verdict})"
    )
    print(
        f"  in CPU time: {(one_cpu - games_cpu) / games_cpu:.1%} "
        f"({one_cpu:.2f} s, {games_cpu:.2f} s in games)"
    )

    count = len(timings[-1].batches)
    print("\nwhere the 1-worker time goes (seconds, share of the time in games)")
    print(line("in games", games, games))
    print(line(f"after each of the {count} batches: journal, bookkeeping", between, games))
    print(line("  replayed: encoding the journal lines", encoding, games))
    print(line("  replayed: writing them, one fsync per batch", appending - encoding, games))
    print(line("before the first batch: schedule, config.json", one - games - between, games))
    print(
        f"  per unit: {games / units * 1e6:.0f} µs in games ({games_cpu / units * 1e6:.0f} µs "
        f"CPU), {encoding / units * 1e6:.1f} µs encoding; per batch written: "
        f"{(appending - encoding) / count * 1e3:.2f} ms"
    )
    parent = median([run.parent_cpu for run in twos])
    workers_cpu = median([run.workers_cpu for run in twos])
    print("\n2 workers: CPU seconds while playing")
    print(f"  main process {parent:6.2f} s ({parent / two:.0%} of one core)")
    print(
        f"  workers      {workers_cpu:6.2f} s ({workers_cpu / games_cpu:.0%} of the CPU time in "
        f"games with 1 worker; {workers_cpu / (2 * two):.0%} of two cores)"
    )
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
