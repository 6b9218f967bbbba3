"""The schedule made unit by unit: the units, their order and their seeds as when the schedule was
listed whole; any unit found from its position or its name; a tournament of a billion deals
played, resumed and reported in the memory of a small one; and a schedule too long to number
refused in one line.

What could take the whole machine's memory if the schedule were listed runs in a process of
its own under a cap on its address space, so that it fails with ``MemoryError`` instead."""

from __future__ import annotations

import hashlib
import itertools
import json
import resource
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Generator, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
from typer.testing import CliRunner

from tests.test_cli import run_installed
from tests.test_tournament import installed_command, journal_lines, journal_results
from thousand import Layout
from tournament.cli import app
from tournament.runner.backends import AHEAD, Backend, ProcessBackend, batches
from tournament.runner.options import Options, configure
from tournament.runner.run import run_tournament
from tournament.runner.schedule import MAX_UNITS, Unit, derive_seed
from tournament.runner.sprt import Hypotheses
from tournament.runner.units import BotLogs, Played

ROOT = Path(__file__).resolve().parent.parent
BILLION = 10**9
CAP = 512 * 2**20
"""The address space a capped process may take: ample for a tournament, and far below the
hundreds of gigabytes six billion units listed would take."""

CASES = {
    "thousand-3": Options(specs=("greedy", "random", "random"), deals=5, seed=1),
    "thousand-4-entrants": Options(specs=("greedy", "random", "random", "random"), deals=4, seed=7),
    "thousand-games": Options(specs=("greedy", "random", "random"), games=12, seed=11),
    "thousand-sprt": Options(
        specs=("greedy", "random", "random", "random"), deals=5, seed=4, sprt=Hypotheses(0, 10)
    ),
    "bluff-4": Options(
        specs=("greedy", "random", "random", "random", "random"),
        game="bluff",
        players=4,
        games=48,
        seed=3,
    ),
    "bluff-5-gauntlet": Options(
        specs=("greedy", *["random"] * 5),
        game="bluff",
        players=5,
        games=40,
        seed=2,
        gauntlet="greedy",
    ),
    "bluff-6": Options(
        specs=("greedy", *["random"] * 5), game="bluff", players=6, games=30, seed=9
    ),
}

PINNED = {
    "thousand-3": (30, "57cbf0c871a25f1c398616d4f2593008"),
    "thousand-4-entrants": (96, "856d9b646e83932645d994f7672a6974"),
    "thousand-games": (12, "041f0e81e66eb360d08d3ef669612240"),
    "thousand-sprt": (90, "4f04ba7416e594cf39be6f165ec54997"),
    "bluff-4": (240, "b26aa66b5c711222e064638e1bf48031"),
    "bluff-5-gauntlet": (200, "9177c27dc9daf85275f48f901449ac24"),
    "bluff-6": (30, "7bb99c1dfcb58270aaa91d37ec6ea2b7"),
}
"""Each case's unit count and a digest of its units (name, table, group, seating, seed, dealer)
in order, as the schedule listed whole gave them."""


def digest(units: Sequence[Unit]) -> str:
    text = "\n".join(f"{u.name} {u.table} {u.group} {u.seating} {u.seed} {u.dealer}" for u in units)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def capped() -> None:
    """In a child process before it starts: cap its address space at :data:`CAP`."""
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def call_capped(function: Callable[[], Any]) -> Any:
    """What ``function`` of this module returns as JSON, called in a Python of its own under the
    cap; a failure there (such as ``MemoryError``) fails the test, its traceback in the test's
    captured output (the timeout only stops a hang)."""
    code = f"import json, tests.test_schedule as t; print(json.dumps(t.{function.__name__}()))"
    command = [sys.executable, "-c", code]
    return json.loads(
        subprocess.check_output(command, text=True, timeout=600, cwd=ROOT, preexec_fn=capped)
    )


# The schedule ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_schedule_keeps_its_units_their_order_and_their_seeds(case: str) -> None:
    """Every configuration gives the units the schedule listed whole gave, in the same order with
    the same seeds; each is also found at its position, counted from either end, and by its
    name, and a sequential test's first groups are the start of its schedule."""
    schedule = configure(CASES[case]).units()
    units = list(schedule)
    assert (len(schedule), digest(units)) == PINNED[case]
    assert [schedule[position] for position in range(len(units))] == units
    assert [schedule[position - len(units)] for position in range(len(units))] == units
    assert schedule[1::7] == units[1::7]
    assert [schedule.unit_named(unit.name) for unit in units] == units
    assert all(unit in schedule for unit in units)
    assert attrs.evolve(units[0], seed=units[0].seed + 1) not in schedule
    for groups in (0, 1, 2, 1000):
        first = list(schedule.first_groups(groups))
        assert first == [unit for unit in units if unit.group < groups]
        if schedule.config.sprt is not None:
            assert first == units[: len(first)]
    with pytest.raises(IndexError):
        schedule[len(units)]


@pytest.mark.parametrize(
    "name",
    [
        "t1-d0-s0",
        "t0-d5-s0",
        "t0-d0-s6",
        "t0-g0-s0",
        "t0-d01-s0",
        "t00-d0-s0",
        "t0-d-1-s0",
        "t0-d0-s0 ",
        "t0-d\u0663-s0",
        "t0-d" + "9" * 5000 + "-s0",
        "",
    ],
)
def test_a_name_the_schedule_does_not_hold_finds_no_unit(name: str) -> None:
    """A name outside the schedule, or not written as the schedule writes it, finds nothing."""
    schedule = configure(CASES["thousand-3"]).units()
    assert schedule.unit_named("t0-d4-s5") == list(schedule)[-1]
    assert schedule.unit_named(name) is None


def billion_deal_figures() -> dict[str, Any]:
    """What a schedule of a billion deals says of itself, and the most memory (in bytes) that
    asking took."""
    tracemalloc.start()
    schedule = configure(Options(deals=BILLION, seed=1)).units()
    last = schedule[-1]
    figures = {
        "length": len(schedule),
        "first": [unit.name for unit in itertools.islice(schedule, 8)],
        "first_seed": schedule[0].seed,
        "last": [last.name, last.group, last.seed],
        "named": schedule.unit_named(last.name) == last,
        "held": last in schedule and attrs.evolve(last, dealer=1) not in schedule,
        "groups": len(list(schedule.first_groups(3))),
        "batch": len(next(batches(schedule, len(schedule), 2))),
    }
    figures["peak"] = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return figures


def test_a_billion_deals_are_counted_and_found_without_listing_them() -> None:
    """The schedule of a billion deals gives its length, its first and last units, a unit by
    name and its first batch in well under a megabyte."""
    figures = call_capped(billion_deal_figures)
    assert figures.pop("peak") < 2**20
    small = configure(Options(deals=5, seed=1)).units()
    assert figures == {
        "length": 6 * BILLION,
        "first": [unit.name for unit in small[:8]],
        "first_seed": small[0].seed,
        "last": ["t0-d999999999-s5", BILLION - 1, derive_seed(1, "deal", BILLION - 1)],
        "named": True,
        "held": True,
        "groups": 18,
        "batch": 64,
    }


def test_published_tournament_seeds_keep_their_deals() -> None:
    """A tournament seed names the same deals and the same players' seeds in every version:
    the seeds derived from it, and the cards they deal, are pinned."""
    assert derive_seed(0) == 4761921975702974394
    assert derive_seed(1, "deal", 0) == 3771704300739359091
    assert derive_seed(1, "deal", 1) == 2262602868364823619
    assert derive_seed(1, "player", "greedy", 2) == 7137826197641714448
    units = configure(Options(deals=5, seed=1)).units()
    assert [unit.seed for unit in units[:6]] == [3771704300739359091] * 6
    assert units[6].seed == 2262602868364823619
    players = [7083222954750428816, 1730245102083813167, 7494773220208381291]
    assert list(units[0].player_seeds(1)) == players
    hands = Layout.from_seed(3, units[0].seed, 0).hands
    assert [" ".join(map(str, hand)) for hand in hands] == [
        "QS AC JD AH QH JS TC",
        "9C JH KD 9D TH TD AS",
        "TS KH KS QC QD KC AD",
    ]
    games = configure(CASES["thousand-games"]).units()
    assert (games[0].name, games[0].seed) == ("t0-g0-s0", 5046593747842135731)


def test_batches_are_cut_as_they_are_asked_for() -> None:
    """Batches are cut from the units as they are asked for: an endless supply gives its first
    batch, sized by the count given."""
    unit = configure(CASES["thousand-3"]).units()[0]
    work = batches(itertools.repeat(unit), 10 * BILLION, 2)
    assert next(work) == [unit] * 64
    assert len(list(batches([unit] * 10, 10, 2))) == 10


def taken_for_a_first_result(backend: Backend) -> int:
    """How many batches ``backend`` takes from a long supply (of one unit each) to hand back
    its first result, after which it is stopped."""
    config = configure(CASES["thousand-3"])
    unit = config.units()[0]
    taken = 0

    def work() -> Iterator[list[Unit]]:
        nonlocal taken
        for _ in range(500):
            taken += 1
            yield [unit]

    results = backend.run(config, work(), False, BotLogs(tempfile.gettempdir()))
    assert isinstance(results, Generator)
    first: list[Played] = next(results)
    results.close()
    assert first[0].result.unit == unit.name
    return taken


def test_local_workers_take_batches_only_as_they_play_them() -> None:
    """Local worker processes are handed a few batches per worker at a time: stopped after the
    first result, they have taken only those from the schedule."""
    assert 2 * AHEAD <= taken_for_a_first_result(ProcessBackend(2)) <= 4 * AHEAD


# A billion deals played ------------------------------------------------------------------------


def sprt_summary(deals: int) -> dict[str, Any]:
    """The summary of a decisive sequential test of greedy against random at ``deals`` deals per
    table at most."""
    config = configure(
        Options(specs=("greedy", "random", "random"), deals=deals, seed=4, sprt=Hypotheses(0, 40))
    )
    summary: dict[str, Any] = run_tournament(config).to_dict()
    return summary


def billion_deal_sprt_summary() -> dict[str, Any]:
    return sprt_summary(BILLION)


def test_a_sequential_test_of_a_billion_deals_stops_as_one_of_three_hundred() -> None:
    """With at most a billion deals per table, a sequential test decides at the group it decides
    at with three hundred, with the same figures."""
    summary = call_capped(billion_deal_sprt_summary)
    assert summary["sprt"]["accepted"] == "H1"
    assert summary == sprt_summary(300)


def interrupted(arguments: Sequence[str], directory: Path, above: int) -> tuple[int, str]:
    """Run the program under the cap until the journal in ``directory`` holds more than
    ``above`` lines (or it ends), then interrupt it as Ctrl-C does: its exit status and its
    standard error."""
    command = [*installed_command(), "tournament", *arguments]
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        preexec_fn=capped,
    )
    try:
        deadline = time.monotonic() + 300  # only stops a hang
        while process.poll() is None and journal_lines(directory) <= above:
            assert time.monotonic() < deadline, "the tournament played nothing"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, errors


@pytest.fixture(scope="module")
def billion_deals(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament of a billion deals per table, played under the cap until its first units
    are journaled, interrupted, then resumed under the cap until more are, and interrupted."""
    directory = tmp_path_factory.mktemp("billion") / "kept"
    start = ["greedy", "random", "random", "--deals", str(BILLION), "--seed", "1"]
    status, errors = interrupted([*start, "--out", str(directory)], directory, 0)
    assert status == 130, errors
    assert f" of {6 * BILLION} units; continue with: thousand tournament --resume" in errors
    played = journal_lines(directory)
    status, errors = interrupted(["--resume", str(directory)], directory, played)
    assert status == 130, errors
    assert journal_lines(directory) > played
    return directory


def test_a_billion_deal_tournament_plays_and_resumes_in_little_memory(billion_deals: Path) -> None:
    """Under a cap on its memory, a tournament of a billion deals per table starts playing, stops
    on Ctrl-C with how far it got, and resumes where it stopped: no unit played twice."""
    results = journal_results(billion_deals)
    names = [result.unit for result in results]
    assert len(set(names)) == len(names)
    schedule = configure(Options(deals=BILLION, seed=1)).units()
    assert all(schedule.unit_named(name) is not None for name in names)


def test_a_billion_deal_tournament_is_reported_in_little_memory(billion_deals: Path) -> None:
    """``thousand report`` draws the report of the billion-deal tournament under the cap,
    counting what is left of it."""
    pytest.importorskip("matplotlib", reason="the plots extra is not installed")
    done = run_installed("report", str(billion_deals), preexec_fn=capped)
    assert done.returncode == 0, done.stderr
    page = (billion_deals / "report.html").read_text(encoding="utf-8")
    played = journal_lines(billion_deals)
    assert f"Still running: {played} of {6 * BILLION} units played so far" in page


# The most a schedule holds ----------------------------------------------------------------------


def test_the_most_units_a_schedule_numbers_are_accepted_and_no_more() -> None:
    """Up to 2**63 - 1 units in all are scheduled; one deal or group more per table is refused,
    naming the most this tournament may play."""
    most = MAX_UNITS // 6
    assert len(configure(Options(deals=most, seed=1)).units()) == most * 6
    with pytest.raises(
        ValueError, match=rf"^{most + 1} deals per table are more .* at most {most} "
    ):
        configure(Options(deals=most + 1, seed=1))
    tables = configure(CASES["bluff-4"]).table_count
    most_games = MAX_UNITS // (tables * 24) * 24
    big = attrs.evolve(CASES["bluff-4"], games=most_games)
    assert len(configure(big).units()) == tables * most_games
    with pytest.raises(
        ValueError, match=rf"^{most_games + 24} games per table .* {most_games} here"
    ):
        configure(attrs.evolve(big, games=most_games + 24))


def too_many_deals_in_process() -> list[Any]:
    """The exit status and the output of ``thousand tournament --deals 10**19`` run by typer's
    test runner."""
    done = CliRunner().invoke(app, ["tournament", "--deals", str(10**19), "--seed", "1"])
    return [done.exit_code, done.output]


def test_too_many_deals_are_refused_in_one_line() -> None:
    """``--deals`` beyond what a schedule numbers is refused in one line that gives the most,
    by the installed program and in process."""
    message = (
        f"error: {10**19} deals per table are more than a tournament can count: at most "
        f"{MAX_UNITS // 6} here (its units are numbered below 2**63)\n"
    )
    done = run_installed("tournament", "--deals", str(10**19), "--seed", "1", preexec_fn=capped)
    assert (done.returncode, done.stderr) == (2, message)
    assert call_capped(too_many_deals_in_process) == [2, message]


@pytest.mark.parametrize("command", [["report"], ["tournament", "--resume"]])
def test_a_kept_configuration_with_too_many_deals_is_refused_in_one_line(
    tmp_path: Path, command: list[str]
) -> None:
    """A kept tournament whose ``config.json`` was edited to more deals than a schedule numbers
    is refused in one line, by the report and on resume, the folder left as it was."""
    directory = tmp_path / "kept"
    run_tournament(configure(Options(deals=1, seed=1)), out=directory)
    path = directory / "config.json"
    saved = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**saved, "per_table": 10**19}), encoding="utf-8")
    before = {file.name: file.read_bytes() for file in directory.iterdir() if file.is_file()}
    done = run_installed(*command, str(directory), preexec_fn=capped)
    assert done.returncode != 0
    assert done.stderr.startswith("error: ")
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"{10**19} deals per table are more than a tournament can count" in done.stderr
    assert {file.name: file.read_bytes() for file in directory.iterdir() if file.is_file()} == (
        before
    )
