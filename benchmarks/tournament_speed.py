"""Tournament runner speed: parallel efficiency, and what the scheduler and the journal add to
the games.

A tournament of three random bots (Thousand, Russian rules, deals format: one table, every deal
under its six seatings) is run through ``tournament.runner.run.run_tournament`` with ``out=`` a
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

With ``--ray``, it compares instead the Ray backend with local worker processes at equal cores:
a tournament of ``greedy random random`` (Thousand, deals format), sized so that two local
workers take at least ``--seconds`` (60 by default), played each round by

1. 2 local workers, the default backend;
2. a local Ray instance with ``num_cpus=2``, through ``RayBackend``. Ray is started with
   ``ray.init`` before the run and stopped after it, both timed apart: the backend leaves alone a
   Ray it did not start, so the run's time is the tournament's alone.

Both are timed as above, to the last batch journaled. It prints the units/s of each, Ray's
throughput as a share of local (target >= 85%), Ray's start-up and the CPU time of its
processes, and checks that every run wrote the same ``summary.json``. ``--ray-batch N`` tries
another largest batch for the Ray tasks (a diagnosis: the backend's own is the default).

    python benchmarks/tournament.py --ray [--deals N | --seconds 60] [--rounds 3] [--ray-batch N]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib
import json
import logging
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from pathlib import Path
from typing import Any

import attrs

from tournament.runner.backends import DEFAULT_BATCH, Backend, ProcessBackend, batches
from tournament.runner.journal import Journal
from tournament.runner.options import Options, configure
from tournament.runner.ray_backend import RayBackend
from tournament.runner.run import run_tournament
from tournament.runner.schedule import Config, Unit
from tournament.runner.units import BotLogs, Played, play_batch

BOTS = ("random", "random", "random")
CALIBRATION_DEALS = 150
EFFICIENCY_TARGET = 0.85
OVERHEAD_TARGET = 0.10
RAY_BOTS = ("greedy", "random", "random")
RAY_CORES = 2
RAY_TARGET = 0.85
RAY_SECONDS = 60.0


class TimedInline:
    """The in-process backend, timing the batches it plays, what the runner does between them,
    and keeping what they played."""

    largest_batch = DEFAULT_BATCH

    def __init__(self) -> None:
        self.games = 0.0
        self.games_cpu = 0.0
        self.between = 0.0
        self.batches: list[list[Played]] = []

    def run(
        self,
        config: Config,
        batches: Iterable[Sequence[Unit]],
        keep_records: bool,
        logs: BotLogs,
    ) -> Iterator[list[Played]]:
        """Yield each batch's results in turn."""
        for batch in batches:
            began, cpu = time.perf_counter(), time.process_time()
            played = play_batch(config, batch, keep_records, logs)
            handed = time.perf_counter()
            self.games += handed - began
            self.games_cpu += time.process_time() - cpu
            self.batches.append(played)
            yield played
            self.between += time.perf_counter() - handed


class Clock:
    """A progress callback noting when the first batch and the last unit were reported, and
    this process's CPU time then."""

    def __init__(self) -> None:
        self.first = 0.0
        self.last = 0.0
        self.cpu = 0.0

    def __call__(self, done: int, total: int) -> None:
        if done > 0 and not self.first:
            self.first = time.perf_counter()
        if done >= total:
            self.last = time.perf_counter()
            self.cpu = time.process_time()


@attrs.frozen
class Run:
    """One timed tournament run."""

    play: float
    """Seconds from the call to the last batch journaled."""
    first: float
    """Seconds from the call to the first batch journaled."""
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


def timed_run(config: Config, workers: int, out: Path, backend: Backend | None) -> Run:
    """Run the tournament into ``out`` and time it."""
    clock = Clock()
    cpu, children = time.process_time(), children_cpu()
    began = time.perf_counter()
    run_tournament(config, workers=workers, out=out, progress=clock, backend=backend)
    ended = time.perf_counter()
    return Run(
        play=clock.last - began,
        first=clock.first - began,
        after=ended - clock.last,
        parent_cpu=clock.cpu - cpu,
        workers_cpu=children_cpu() - children,
        summary=(out / "summary.json").read_text(encoding="utf-8"),
    )


def play_share(config: Config, units: Sequence[Unit]) -> None:
    play_batch(config, units, False, BotLogs(tempfile.gettempdir()))


def bare_run(config: Config, processes: int) -> float:
    """Seconds for ``processes`` plain processes to play a share of the units each."""
    units = config.units()
    shares = [units[start::processes] for start in range(processes)]
    began = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(processes) as pool:
        list(pool.map(play_share, repeat(config), shares))
    return time.perf_counter() - began


def random_tournament(deals: int, seed: int, bots: Sequence[str] = BOTS) -> Config:
    return configure(Options(specs=tuple(bots), deals=deals, seed=seed))


def calibrated_deals(seconds: float, seed: int, bots: Sequence[str] = BOTS) -> int:
    """The deals per table that one worker plays in about ``seconds``."""
    config = random_tournament(CALIBRATION_DEALS, seed, bots)
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


def import_ray() -> Any:
    """The ``ray`` module, typed ``Any`` so that this file type-checks without Ray."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SystemExit("--ray needs Ray: python -m pip install ray") from None


def start_ray(ray: Any) -> float:
    """Start a new local Ray instance of ``RAY_CORES`` CPUs (even where a cluster is running),
    quietly; the seconds it took."""
    began = time.perf_counter()
    ray.init(
        address="local",
        num_cpus=RAY_CORES,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
    )
    return time.perf_counter() - began


def descendants_cpu() -> dict[int, tuple[str, float]]:
    """CPU seconds of every live descendant of this process, by pid, with its name (Linux's
    ``/proc``; empty elsewhere). Ray's processes are: its servers (``gcs_server``, ``raylet``)
    and helpers started by ``ray.init``, and the workers the raylet starts (``ray::...``)."""
    parents: dict[int, int] = {}
    stats: dict[int, tuple[str, float]] = {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        name, _, rest = text[text.index("(") + 1 :].rpartition(")")
        fields = rest.split()
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        stats[pid] = (name, (int(fields[11]) + int(fields[12])) / tick)
    mine = {os.getpid()}
    grown = True
    while grown:
        found = {pid for pid, parent in parents.items() if parent in mine} - mine
        grown = bool(found)
        mine |= found
    return {pid: stats[pid] for pid in mine - {os.getpid()} if pid in stats}


def ray_cpu(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
) -> dict[str, float]:
    """CPU seconds spent between two snapshots, by kind of process: Ray's workers together
    (named after the task they play, or ``ray::IDLE``), the others by name."""
    spent: dict[str, float] = {}
    for pid, (name, cpu) in after.items():
        if name in ("ray::IDLE", "ray::play_batch"):
            kind = "workers"
        elif name.startswith("python"):
            kind = "Ray's helpers (python)"
        else:
            kind = name
        spent[kind] = spent.get(kind, 0.0) + cpu - before.get(pid, (name, 0.0))[1]
    return spent


@attrs.frozen
class RayRun:
    """One round's Ray run: start-up, the timed tournament, its processes' CPU, shut-down."""

    start: float
    run: Run
    cpu: dict[str, float]
    stop: float


def ray_run(ray: Any, config: Config, out: Path, largest: int | None) -> RayRun:
    """Start Ray, play the tournament into ``out`` through ``RayBackend``, stop Ray."""
    start = start_ray(ray)
    try:
        backend = RayBackend(workers=RAY_CORES)
        if largest is not None:
            backend.largest_batch = largest
        before = descendants_cpu()
        run = timed_run(config, RAY_CORES, out, backend)
        cpu = ray_cpu(before, descendants_cpu())
    finally:
        began = time.perf_counter()
        ray.shutdown()
        stop = time.perf_counter() - began
    return RayRun(start, run, cpu, stop)


def ray_benchmark(args: argparse.Namespace) -> None:
    """Local worker processes against a local Ray instance, at equal cores."""
    ray = import_ray()
    print(f"load average before: {load()}", flush=True)
    seconds = RAY_SECONDS if args.seconds is None else args.seconds
    # One worker's speed, doubled: two workers are at most twice as fast, so they take at least
    # ``seconds``.
    deals = args.deals or 2 * calibrated_deals(seconds, args.seed, RAY_BOTS)
    config = random_tournament(deals, args.seed, RAY_BOTS)
    units = len(config.units())
    local_batches = list(batches(config.units(), units, RAY_CORES, ProcessBackend.largest_batch))
    largest = args.ray_batch or RayBackend.largest_batch
    ray_batches = list(batches(config.units(), units, RAY_CORES, largest))
    print(
        f"{' '.join(RAY_BOTS)}: Thousand (russian), {deals} deals x 6 seatings = {units} units, "
        f"seed {args.seed}; {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
        f"Ray {ray.__version__}\n"
        f"local: {RAY_CORES} worker processes, {len(local_batches)} batches of "
        f"{len(local_batches[0])}; Ray: a local instance with num_cpus={RAY_CORES}, "
        f"{len(ray_batches)} tasks of {len(ray_batches[0])} units\n",
        flush=True,
    )
    root = Path(tempfile.mkdtemp(prefix="tournament-bench-", dir=args.dir))
    locals_: list[Run] = []
    rays: list[RayRun] = []
    try:
        for number in range(args.rounds):
            # Alternate which goes first, so that both see the same machine.
            for which in ("local", "ray") if number % 2 == 0 else ("ray", "local"):
                if which == "local":
                    locals_.append(timed_run(config, RAY_CORES, root / f"local-{number}", None))
                else:
                    rays.append(ray_run(ray, config, root / f"ray-{number}", args.ray_batch))
            print(
                f"round {number + 1}: local {locals_[-1].play:.2f} s; Ray {rays[-1].run.play:.2f} "
                f"s, started in {rays[-1].start:.2f} s",
                flush=True,
            )
            if rays[-1].run.summary != locals_[-1].summary or (
                locals_[-1].summary != locals_[0].summary
            ):
                raise SystemExit("the summary.json of the local and Ray runs differ")
    finally:
        shutil.rmtree(root)

    local = statistics.median(run.play for run in locals_)
    remote = statistics.median(entry.run.play for entry in rays)
    start = statistics.median(entry.start for entry in rays)
    stop = statistics.median(entry.stop for entry in rays)
    ratio = local / remote
    print(f"\n{'run':<32} {'seconds':>8} {'units/s':>9} {'first batch':>12}   then statistics")
    for name, runs in (
        (f"local, {RAY_CORES} worker processes", locals_),
        (f"Ray, local instance, {RAY_CORES} CPUs", [entry.run for entry in rays]),
    ):
        seconds_ = statistics.median(run.play for run in runs)
        first = statistics.median(run.first for run in runs)
        after = statistics.median(run.after for run in runs)
        print(
            f"{name:<32} {seconds_:>8.2f} {units / seconds_:>9,.0f} {first:>10.2f} s   "
            f"{after:.2f} s"
        )
    print(f"{'Ray start-up (ray.init)':<32} {start:>8.2f}")
    print(f"{'Ray shut-down (ray.shutdown)':<32} {stop:>8.2f}")
    verdict = "met" if ratio >= RAY_TARGET else "missed"
    print(f"\nRay's throughput: {ratio:.1%} of local (target >= {RAY_TARGET:.0%}: {verdict})")
    print(
        f"  counting its start-up: {local / (remote + start):.1%}; "
        f"summary.json identical in all {2 * args.rounds} runs"
    )
    per_task = (remote - local) / len(ray_batches)
    print(f"  Ray's extra time per task: {per_task * 1e3:.2f} ms over {len(ray_batches)} tasks")

    print(f"\nCPU seconds while playing (medians; {RAY_CORES} cores)")
    parent = statistics.median(run.parent_cpu for run in locals_)
    workers = statistics.median(run.workers_cpu for run in locals_)
    print(f"  local: main process {parent:.2f} s, workers {workers:.2f} s")
    parent = statistics.median(entry.run.parent_cpu for entry in rays)
    kinds = sorted({kind for entry in rays for kind in entry.cpu})
    spent = {kind: statistics.median(entry.cpu.get(kind, 0.0) for entry in rays) for kind in kinds}
    others = ", ".join(
        f"{kind} {cpu:.2f} s"
        for kind, cpu in sorted(spent.items(), key=lambda item: -item[1])
        if cpu >= 0.005
    )
    print(f"  Ray: driver {parent:.2f} s, {others or 'its processes not measured'}")
    print(f"\nload average after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, help="deals per table (default: sized by --seconds)")
    parser.add_argument(
        "--seconds",
        type=float,
        help="size a 1-worker run to take this long (15 s; with --ray, 2 workers, 60 s)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of runs (medians shown)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed")
    parser.add_argument("--dir", type=Path, help="where to make the temporary directories")
    parser.add_argument(
        "--ray", action="store_true", help="compare the Ray backend with local workers instead"
    )
    parser.add_argument("--ray-batch", type=int, help="with --ray: the largest batch of a task")
    args = parser.parse_args()
    if args.deals is not None and args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.ray_batch is not None and (args.ray_batch < 1 or not args.ray):
        parser.error("--ray-batch goes with --ray, and must be at least 1")
    if args.ray:
        ray_benchmark(args)
        return
    print(f"load average before: {load()}", flush=True)
    deals = args.deals or calibrated_deals(args.seconds or 15.0, args.seed)
    config = random_tournament(deals, args.seed)
    units = len(config.units())
    size = max(len(batch) for batch in batches(config.units(), units, 1))
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
