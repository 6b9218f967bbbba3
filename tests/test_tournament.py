"""The tournament runner: the schedule, the journal and resuming after a crash, determinism
whatever the number of workers, hostile bots, the ``thousand tournament`` command, and the
statistics it ends with."""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
from typer.testing import CliRunner

import thousand
from tests.test_progress import without_progress
from thousand import Rules, bluff
from thousand.table.sandbox import Isolation
from tournament.cli import app
from tournament.runner.backends import InlineBackend
from tournament.runner.balanced_seatings import seatings
from tournament.runner.journal import Journal, TournamentDirError, read_results
from tournament.runner.ladder import reference_scale
from tournament.runner.options import Options, configure
from tournament.runner.report import build_report
from tournament.runner.run import run_tournament
from tournament.runner.schedule import Config, Entrant, Unit, derive_seed, entrants_of
from tournament.runner.store import MemoryStore
from tournament.runner.unit_results import UnitResult
from tournament.runner.units import BotLogs, Played

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"
PYTHON_BOTS = BOTS / "python_bots.py"
HOSTILE = BOTS / "hostile_bot.py"
RUSSIAN = Rules.preset("russian")
DEFAULT_SPECS = ("greedy", "random", "random")
OUTPUTS = ("config.json", "journal.jsonl", "summary.json", "standings.csv", "crosstable.csv")

runner = CliRunner()


def thousand_config(
    specs: Sequence[str] = DEFAULT_SPECS,
    *,
    deals: int = 3,
    seed: int = 1,
    format: str = "deals",
    **fields: Any,
) -> Config:
    """A Thousand tournament under the Russian rules (``deals`` deals or matches per table)."""
    return Config(
        game="thousand",
        rules=RUSSIAN.to_dict(),
        entrants=entrants_of(specs),
        players=3,
        format=format,
        per_table=deals,
        seed=seed,
        **fields,
    )


def bluff_config(
    specs: Sequence[str] = DEFAULT_SPECS, *, games: int = 3, players: int = 3, seed: int = 1
) -> Config:
    """A 1000? tournament in the games format."""
    return Config(
        game="bluff",
        rules=bluff.Rules(players=players).to_dict(),
        entrants=entrants_of(specs),
        players=players,
        format="games",
        per_table=games,
        seed=seed,
    )


def journal_results(directory: Path) -> list[UnitResult]:
    """Every line of a tournament directory's journal, in file order."""
    text = (directory / "journal.jsonl").read_text(encoding="utf-8")
    return [UnitResult.from_dict(json.loads(line)) for line in text.splitlines()]


def summary_of(directory: Path) -> dict[str, Any]:
    """The summary.json document of a tournament directory."""
    document: dict[str, Any] = json.loads((directory / "summary.json").read_text("utf-8"))
    return document


def standing(document: dict[str, Any], name: str) -> dict[str, Any]:
    """The standing of one entrant in a summary document."""
    found: list[dict[str, Any]] = [row for row in document["standings"] if row["name"] == name]
    assert len(found) == 1, name
    return found[0]


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``directory`` with its content and modification time."""
    return {
        str(path.relative_to(directory)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def hostile_spec(tmp_path: Path, mode: str, after: int) -> str:
    """A ``cmd:`` spec running the hostile test program in ``mode`` after ``after`` decisions."""
    command = [sys.executable, str(HOSTILE), mode, "--after", str(after)]
    command += ["--pids", str(tmp_path / f"pids-{mode}.txt"), "--marker", f"hostile-{mode}"]
    return "cmd:" + shlex.join(command)


def installed_command() -> list[str]:
    """The installed ``thousand`` program next to this Python, or the module if there is none."""
    found = Path(sys.executable).parent / "thousand"
    return [str(found)] if found.exists() else [sys.executable, "-m", "tournament"]


def one_line_error(output: str, message: str) -> None:
    """``output`` is exactly one line, an error holding ``message``, and no traceback."""
    assert output.startswith("error: "), output
    assert message in output
    assert output.count("\n") == 1, output
    assert "Traceback" not in output


# Schedule ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("entrants", "players"), [(3, 3), (4, 3), (5, 3), (4, 2), (6, 4)])
def test_tables_are_every_combination_of_entrants(entrants: int, players: int) -> None:
    """There is one table for each of the C(n, k) sets of k entrants, each set once."""
    config = Config(
        game="bluff",
        rules=bluff.Rules(players=players).to_dict(),
        entrants=entrants_of([f"bot{number}" for number in range(entrants)]),
        players=players,
        format="games",
        per_table=len(seatings(players)),
        seed=1,
    )
    tables = config.tables()
    assert len(tables) == math.comb(entrants, players)
    assert {frozenset(table) for table in tables} == {
        frozenset(table) for table in itertools.combinations(range(entrants), players)
    }
    assert all(len(table) == players for table in tables)


@pytest.mark.parametrize(("entrants", "deals"), [(3, 1), (3, 4), (4, 5), (5, 2)])
def test_deals_format_plays_every_deal_under_every_seating(entrants: int, deals: int) -> None:
    """The deals format has tables × D × k! units with unique names."""
    config = thousand_config(["random"] * entrants, deals=deals)
    units = config.units()
    assert len(units) == math.comb(entrants, 3) * deals * math.factorial(3)
    assert len({unit.name for unit in units}) == len(units)
    assert list(config.units()) == list(units)


def test_a_deal_group_shares_its_cards_and_covers_every_seating() -> None:
    """A deal group shares one card seed and dealer 0, its seatings the k! permutations."""
    config = thousand_config(["greedy", "random", "random", "random"], deals=4)
    groups: dict[tuple[int, int], list[Unit]] = defaultdict(list)
    for unit in config.units():
        groups[unit.table, unit.group].append(unit)
    tables = config.tables()
    assert len(groups) == len(tables) * 4
    for (table, deal), units in groups.items():
        assert len({unit.seed for unit in units}) == 1
        assert {unit.dealer for unit in units} == {0}
        seatings = [unit.seating for unit in units]
        assert sorted(seatings) == sorted(itertools.permutations(tables[table]))
        assert [unit.name for unit in units] == [
            f"t{table}-d{deal}-s{order}" for order in range(math.factorial(3))
        ]


def test_every_table_plays_the_same_deals() -> None:
    """Deal d has the same seed at every table, and different deals have different seeds."""
    config = thousand_config(["greedy", "random", "random", "random", "random"], deals=6)
    seeds: dict[int, set[int]] = defaultdict(set)
    for unit in config.units():
        seeds[unit.group].add(unit.seed)
    assert sorted(seeds) == list(range(6))
    assert all(len(found) == 1 for found in seeds.values())
    assert len({found.pop() for found in seeds.values()}) == 6


def test_games_format_plays_each_group_under_every_seating() -> None:
    """Games format: tables × G units in groups of the table's seatings, one seed per group at
    every table, seat 0 dealing first."""
    config = bluff_config(["greedy", "random", "random", "random"], games=18)
    units = config.units()
    tables = config.tables()
    assert len(units) == len(tables) * 18
    by_group: dict[int, set[int]] = defaultdict(set)
    seatings_of: dict[tuple[int, int], list[tuple[int, ...]]] = defaultdict(list)
    for unit in units:
        order = len(seatings_of[unit.table, unit.group])
        assert unit.name == f"t{unit.table}-g{unit.group}-s{order}"
        assert unit.dealer == 0
        by_group[unit.group].add(unit.seed)
        seatings_of[unit.table, unit.group].append(unit.seating)
    assert sorted(by_group) == [0, 1, 2]
    assert all(len(seeds) == 1 for seeds in by_group.values())
    assert len({next(iter(seeds)) for seeds in by_group.values()}) == 3
    for (table, _), played in seatings_of.items():
        assert sorted(played) == sorted(itertools.permutations(tables[table]))
    thousand_units = thousand_config(deals=12, format="games").units()
    assert [unit.seating for unit in thousand_units[:6]] == list(itertools.permutations(range(3)))
    assert [unit.group for unit in thousand_units] == [0] * 6 + [1] * 6


@pytest.mark.parametrize(("players", "size"), [(2, 2), (3, 6), (4, 24), (5, 20), (6, 30)])
def test_games_must_fill_whole_groups(players: int, size: int) -> None:
    """A games count that is not a multiple of the group size is refused, naming multiples."""
    specs = [f"bot{number}" for number in range(players)]
    assert bluff_config(specs, games=2 * size, players=players).groups_per_table == 2
    with pytest.raises(ValueError, match=rf"groups of {size}, .*multiple of {size}, such as "):
        bluff_config(specs, games=size + 1, players=players)


def test_a_journal_from_another_schedule_is_refused(tmp_path: Path) -> None:
    """A journal whose unit was seated otherwise than the schedule says is not resumed."""
    config = bluff_config(games=6)
    run_tournament(config, out=tmp_path / "played")
    results = journal_results(tmp_path / "played")
    results[0] = attrs.evolve(results[0], seating=results[0].seating[::-1])
    journal = Journal.create(tmp_path / "other", config)
    journal.append((result, None) for result in results)
    journal.close()
    with pytest.raises(TournamentDirError, match="field 'seating': the schedule seats"):
        run_tournament(config, out=tmp_path / "other", resume=True)


def test_a_gauntlet_keeps_only_the_candidates_tables() -> None:
    """With a gauntlet, only the tables that include that entrant are scheduled."""
    specs = ["greedy", "random", "random", "random", "random"]
    config = thousand_config(specs, deals=2, gauntlet="random#2")
    tables = config.tables()
    assert len(tables) == math.comb(4, 2)
    assert all(2 in table for table in tables)
    assert set(tables) == {
        table for table in thousand_config(specs, deals=2).tables() if 2 in table
    }
    assert len(config.units()) == len(tables) * 2 * 6
    assert all(2 in unit.seating for unit in config.units())


def test_repeated_specs_are_distinct_entrants() -> None:
    """A spec given again is a further entrant named with #2, #3..."""
    assert entrants_of(["random", "greedy", "random", "random", "greedy"]) == (
        Entrant("random", "random"),
        Entrant("greedy", "greedy"),
        Entrant("random#2", "random"),
        Entrant("random#3", "random"),
        Entrant("greedy#2", "greedy"),
    )


def test_seeds_depend_only_on_the_tournament_seed_and_the_unit() -> None:
    """Deal and player seeds follow the tournament seed and the unit, not the entrant count."""
    small = thousand_config(["greedy", "random", "random"], deals=5, seed=7)
    large = thousand_config(["greedy", "random", "random", "random", "random"], deals=5, seed=7)
    deal_seeds = {unit.group: unit.seed for unit in small.units()}
    assert {unit.group: unit.seed for unit in large.units()} == deal_seeds
    assert deal_seeds == {deal: derive_seed(7, "deal", deal) for deal in range(5)}
    large_units = {unit.name: unit for unit in large.units()}
    for unit in small.units():
        assert large_units[unit.name].player_seeds(7) == unit.player_seeds(7)
    other = thousand_config(["greedy", "random", "random"], deals=5, seed=8)
    assert not set(deal_seeds.values()) & {unit.seed for unit in other.units()}
    first = small.units()[0]
    assert len(set(first.player_seeds(7))) == 3
    assert first.player_seeds(7) != first.player_seeds(8)
    assert 0 <= derive_seed(7, "deal", 0) < 2**63


def test_config_round_trips_through_json() -> None:
    """Config.from_dict(to_dict()) gives back the same configuration, through JSON text too."""
    config = thousand_config(
        ["greedy", "random", "random", "random"],
        deals=9,
        seed=12,
        gauntlet="greedy",
        time_limit=0.5,
        time_quota=3.0,
        on_fault="substitute",
        isolate=Isolation.PROCESS,
    )
    again = Config.from_dict(json.loads(json.dumps(config.to_dict())))
    assert again == config
    assert again.to_dict() == config.to_dict()
    assert again.rules_value() == RUSSIAN
    assert list(again.units()) == list(config.units())
    assert config.differences(again) == []
    game = bluff_config(["random", "greedy", "random"], games=12)
    assert Config.from_dict(json.loads(json.dumps(game.to_dict()))) == game
    reaching = attrs.evolve(config, bot_readable=("/srv/tables",), bot_network=True)
    assert Config.from_dict(json.loads(json.dumps(reaching.to_dict()))) == reaching


def test_sandboxed_bots_reach_what_the_configuration_grants_and_not_the_tournament(
    tmp_path: Path,
) -> None:
    """The sandbox of a tournament's bots lets them read the folders and use the network the
    configuration grants, and hides the folders given (the tournament's own); by default they
    get neither."""
    config = thousand_config(deals=1)
    closed = config.sandbox_options(str(tmp_path))
    assert (closed.readable, closed.network) == ((), False)
    assert closed.hidden == (str(tmp_path),)
    reaching = attrs.evolve(config, bot_readable=("/srv/tables",), bot_network=True)
    opened = reaching.sandbox_options(str(tmp_path))
    assert (opened.readable, opened.network) == (("/srv/tables",), True)
    assert opened.hidden == (str(tmp_path),)


def test_differences_names_the_changed_fields() -> None:
    """differences lists exactly the fields that differ, rules compared by value."""
    config = thousand_config(deals=3, seed=1)
    assert config.differences(attrs.evolve(config, seed=2, per_table=4)) == ["per_table", "seed"]
    assert config.differences(attrs.evolve(config, on_fault="substitute")) == ["on_fault"]
    assert config.differences(thousand_config(["greedy", "random", "greedy"])) == ["entrants"]
    reordered = dict(reversed(list(RUSSIAN.to_dict().items())))
    assert config.differences(attrs.evolve(config, rules=reordered)) == []
    other_rules = attrs.evolve(RUSSIAN, bid_step=10).to_dict()
    assert config.differences(attrs.evolve(config, rules=other_rules)) == ["rules"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"entrants": entrants_of(["greedy", "random"])},
            "3-player tables need at least 3 entrants, but 2 were given",
        ),
        ({"gauntlet": "nobody"}, "the gauntlet entrant 'nobody' is not among"),
        ({"players": 4}, "these rules seat 3 players, not 4"),
        ({"per_table": 0}, "at least one deal or game"),
        ({"format": "rounds"}, "the format must be deals or games"),
        ({"game": "chess"}, "the game must be thousand or bluff"),
    ],
)
def test_invalid_configs_are_refused(change: dict[str, Any], message: str) -> None:
    """A configuration that cannot be played raises ValueError saying why."""
    fields = thousand_config().to_dict()
    fields.update(change)
    fields["entrants"] = [
        {"name": entrant.name, "spec": entrant.spec}
        for entrant in change.get("entrants", thousand_config().entrants)
    ]
    with pytest.raises(ValueError, match=re.escape(message)):
        Config.from_dict(fields)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"per_table": 0}, "a table must play at least one deal or game"),
        (
            {"format": "games", "per_table": 4},
            "--games 4 does not fill whole groups: at tables of 3 the matches go in groups of 6, "
            "every seating of the table on the same cards; give a multiple of 6, such as 6",
        ),
        (
            {"format": "games", "per_table": 8},
            "--games 8 does not fill whole groups: at tables of 3 the matches go in groups of 6, "
            "every seating of the table on the same cards; give a multiple of 6, such as 6 or 12",
        ),
    ],
    ids=["no-deal", "fewer-games-than-a-group", "between-two-groups"],
)
def test_configs_refused_for_their_count_say_it_whole(change: dict[str, Any], message: str) -> None:
    """Too few deals, or games that do not fill whole groups, are refused with the whole
    reason; below one group the only multiple offered is the group itself."""
    fields = {**thousand_config().to_dict(), **change}
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        Config.from_dict(fields)


# Journal -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_torn_last_line_is_cut_off_and_its_unit_played_again(tmp_path: Path) -> None:
    """A torn last journal line is cut off, its unit replayed, the summary as if uninterrupted."""
    config = thousand_config(["greedy", "random", "random", "random"], deals=3)
    whole = tmp_path / "whole"
    run_tournament(config, out=whole)
    lines = (whole / "journal.jsonl").read_bytes().splitlines(keepends=True)
    assert len(lines) == len(config.units())

    torn = tmp_path / "torn"
    torn.mkdir()
    (torn / "config.json").write_bytes((whole / "config.json").read_bytes())
    kept = lines[:17]
    half = lines[17][: len(lines[17]) // 2]
    (torn / "journal.jsonl").write_bytes(b"".join(kept) + half)
    lost = json.loads(lines[17])["unit"]

    journal = Journal(torn, config)
    finished = journal.read_units()
    journal.close()
    assert len(finished) == 17
    assert lost not in finished
    assert (torn / "journal.jsonl").read_bytes() == b"".join(kept)

    (torn / "journal.jsonl").write_bytes(b"".join(kept) + half)
    run_tournament(config, out=torn, resume=True)
    results = journal_results(torn)
    assert len(results) == len(config.units())
    assert sorted(result.unit for result in results) == sorted(u.name for u in config.units())
    replayed = {result.unit: result for result in results}[lost]
    assert replayed == UnitResult.from_dict(json.loads(lines[17]))
    assert (torn / "summary.json").read_bytes() == (whole / "summary.json").read_bytes()


def test_a_damaged_middle_line_is_an_error(tmp_path: Path) -> None:
    """A damaged journal line before others raises TournamentDirError and changes nothing."""
    config = thousand_config(deals=2)
    run_tournament(config, out=tmp_path)
    lines = (tmp_path / "journal.jsonl").read_bytes().splitlines(keepends=True)
    lines[4] = lines[4][:20] + b"\n"
    damaged = b"".join(lines)
    (tmp_path / "journal.jsonl").write_bytes(damaged)
    with pytest.raises(TournamentDirError, match="line 5, is damaged"):
        Journal(tmp_path, config).read_units()
    with pytest.raises(TournamentDirError, match="line 5, is damaged"):
        run_tournament(config, out=tmp_path, resume=True)
    assert (tmp_path / "journal.jsonl").read_bytes() == damaged


@pytest.mark.parametrize(
    ("isolate", "check"),
    [
        (Isolation.SANDBOX, "687fc533ba8306b3985c6deecbacfe45"),
        (Isolation.NONE, "e3e4552a79b40c86b9e459e2b2a1dbbb"),
        (Isolation.PROCESS, "752dac33418107643b2f3b046a54d364"),
    ],
    ids=["sandbox", "none", "process"],
)
def test_the_first_journal_line_carries_a_known_check_for_each_isolation(
    isolate: Isolation, check: str, tmp_path: Path
) -> None:
    """The first journal line's check is a known answer for each isolation, the process one
    included: journals written now must stay readable by later versions, as those kept by
    earlier ones are now (the sandbox's is that of tests/saved_tournaments/thousand-deals). The
    line is written byte for byte as that version wrote it, compact, but for the check."""
    saved = ROOT / "tests" / "saved_tournaments" / "thousand-deals"
    config = attrs.evolve(Journal.saved_config(saved), isolate=isolate)
    line = (saved / "journal.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)[0]
    first = json.loads(line)
    journal = Journal.create(tmp_path, config)
    journal.append([(UnitResult.from_dict(first), None)])
    journal.close()
    written = (tmp_path / "journal.jsonl").read_text(encoding="utf-8")
    assert written == line.replace(first["check"], check)
    assert list(read_results(tmp_path, config)) == [first["unit"]]


def test_create_refuses_a_directory_holding_a_tournament(tmp_path: Path) -> None:
    """Journal.create and run_tournament refuse a directory that already holds a tournament."""
    config = thousand_config(deals=1)
    Journal.create(tmp_path, config).close()
    before = snapshot(tmp_path)
    message = (
        f"{tmp_path} already holds a tournament; continue it with --resume {tmp_path} "
        "or choose another --out"
    )
    with pytest.raises(TournamentDirError) as caught:
        Journal.create(tmp_path, thousand_config(deals=2))
    assert str(caught.value) == message
    with pytest.raises(TournamentDirError) as caught:
        run_tournament(config, out=tmp_path)
    assert str(caught.value) == message
    assert snapshot(tmp_path) == before
    assert Journal.saved_config(tmp_path) == config


def test_a_tournament_is_started_in_a_folder_whose_parents_do_not_exist_yet(tmp_path: Path) -> None:
    """The output folder is made with every folder above it that is missing."""
    config = thousand_config(deals=1)
    out = tmp_path / "season" / "week-1" / "run"
    Journal.create(out, config, keep_records=True).close()
    assert Journal.saved_config(out) == config
    assert Journal.keeps_records(out)


def test_the_configuration_is_on_the_disk_before_it_takes_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tournament's config.json is flushed to the disk before it is renamed into place, so a
    power cut never leaves a config.json that is empty or cut short."""
    flushed = []
    real_fsync = os.fsync

    def recording_fsync(descriptor: int) -> None:
        flushed.append(os.fstat(descriptor).st_ino)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    Journal.create(tmp_path, thousand_config(deals=1)).close()
    assert (tmp_path / "config.json").stat().st_ino in flushed


def test_the_saved_configuration_is_indented_for_people_to_read(tmp_path: Path) -> None:
    """config.json holds one setting a line, indented by two spaces, and ends with a new line."""
    config = thousand_config(deals=1)
    Journal.create(tmp_path, config).close()
    text = (tmp_path / "config.json").read_text(encoding="utf-8")
    assert text == json.dumps(config.to_dict(), indent=2) + "\n"
    assert text.splitlines()[1].startswith('  "')


def test_a_tournament_whose_journal_was_never_written_has_no_unit_finished(
    tmp_path: Path,
) -> None:
    """A folder holding the configuration but no journal (stopped before the journal was
    opened) reads as no unit finished, and its report says no group is finished yet."""
    config = thousand_config(deals=1)
    Journal.create(tmp_path, config).close()
    (tmp_path / "journal.jsonl").unlink()
    assert read_results(tmp_path, config) == {}
    with pytest.raises(TournamentDirError) as refused:
        build_report(tmp_path)
    assert str(refused.value) == f"{tmp_path}: no group of the tournament is finished yet"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["config.json"]


def test_resume_with_another_config_is_refused(tmp_path: Path) -> None:
    """run_tournament refuses to resume a directory with a different configuration."""
    config = thousand_config(deals=1)
    run_tournament(config, out=tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(TournamentDirError, match=r"different per_table, seed"):
        run_tournament(attrs.evolve(config, seed=5, per_table=2), out=tmp_path, resume=True)
    assert snapshot(tmp_path) == before


# Determinism ---------------------------------------------------------------------------------


class ReversedBackend:
    """Plays every batch in this process but hands the results back last batch first."""

    def run(
        self,
        config: Config,
        batches: Iterable[Sequence[Unit]],
        keep_records: bool,
        logs: BotLogs,
    ) -> Iterator[list[Played]]:
        done = list(InlineBackend().run(config, batches, keep_records, logs))
        yield from reversed(done)


@pytest.mark.slow
@pytest.mark.parametrize(
    "config",
    [
        pytest.param(
            thousand_config(
                ["greedy", "random", f"{PYTHON_BOTS}:Flaky", f"{PYTHON_BOTS}:Cautious"], deals=4
            ),
            id="thousand-deals",
        ),
        pytest.param(
            bluff_config(["greedy", "random", "random", f"{PYTHON_BOTS}:Cautious"], games=6),
            id="1000?-games",
        ),
    ],
)
def test_results_do_not_depend_on_the_workers(tmp_path: Path, config: Config) -> None:
    """1 worker, 2 workers and results in reverse order give byte-identical outputs."""
    outs = [tmp_path / "one", tmp_path / "two", tmp_path / "reversed"]
    run_tournament(config, workers=1, out=outs[0])
    run_tournament(config, workers=2, out=outs[1])
    run_tournament(config, workers=4, out=outs[2], backend=ReversedBackend())
    for name in ("summary.json", "standings.csv", "crosstable.csv"):
        texts = {(out / name).read_bytes() for out in outs}
        assert len(texts) == 1, name
    results = [sorted(journal_results(out), key=lambda result: result.unit) for out in outs]
    assert results[0] == results[1] == results[2]
    assert len(results[0]) == len(config.units())


# A large tournament for the statistics, and a smaller one for the crash tests ----------------

BIG_DEALS = 400
BIG_SEED = 11
KILLED_DEALS = 100
"""Deals per table of the tournament the crash tests kill: 600 units, handed to two workers in
small batches, so that each kill lands at a random point well inside the run."""
KILLED_ARGUMENTS = ["greedy", "random", "random", "--deals", str(KILLED_DEALS)]
KILLED_ARGUMENTS += ["--seed", str(BIG_SEED)]


@pytest.fixture(scope="module")
def big_tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """greedy random random, played uninterrupted with two workers; its directory."""
    out = tmp_path_factory.mktemp("big") / "uninterrupted"
    config = configure(Options(specs=DEFAULT_SPECS, deals=BIG_DEALS, seed=BIG_SEED))
    played_as_by_default(config, workers=2, out=out)
    return out


def played_as_by_default(config: Config, **options: Any) -> None:
    """``config`` played as ``thousand tournament`` plays it without ``--anchor``: rated on the
    reference scale of the ladder's bots among its entrants."""
    scale = reference_scale(config)
    run_tournament(config, anchor=None if scale is None else scale[0], **options)


def process_children() -> dict[int, list[int]]:
    """Every running process's children, by parent pid (Linux)."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rpartition(")")[2].split()
            if fields[0] not in ("Z", "X"):
                children[int(fields[1])].append(int(entry.name))
    return children


def descendants(pid: int) -> list[int]:
    """The processes started, directly or not, by ``pid`` (Linux; empty elsewhere)."""
    if not sys.platform.startswith("linux"):
        return []
    children = process_children()
    found: list[int] = []
    frontier = [pid]
    while frontier:
        for child in children.get(frontier.pop(), []):
            found.append(child)
            frontier.append(child)
    return found


def running(pids: Sequence[int]) -> list[int]:
    """Those of ``pids`` that are still running (a zombie counts as gone)."""
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X"):
            alive.append(pid)
    return alive


def kill_all(pids: Sequence[int]) -> None:
    """SIGKILL the given processes (started by this test) where they still run."""
    for pid in running(pids):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def start_tournament(directory: Path, log: Path) -> subprocess.Popen[bytes]:
    """The installed program playing the crash tests' tournament in ``directory``: started with
    --out, or continued with --resume once the directory holds a tournament."""
    where = ["--resume", str(directory)] if (directory / "config.json").exists() else []
    where = where or ["--out", str(directory)]
    command = [*installed_command(), "tournament", *KILLED_ARGUMENTS, "--workers", "2", *where]
    command.append("--no-report")
    with log.open("ab") as output:
        return subprocess.Popen(command, stdout=output, stderr=output, stdin=subprocess.DEVNULL)


def journal_text(directory: Path) -> bytes:
    """The whole lines of the directory's journal."""
    journal = directory / "journal.jsonl"
    text = journal.read_bytes() if journal.exists() else b""
    return text[: text.rfind(b"\n") + 1]


def journal_lines(directory: Path) -> int:
    """How many whole lines the directory's journal holds."""
    return journal_text(directory).count(b"\n")


def wait_for_progress(process: subprocess.Popen[bytes], directory: Path, above: int) -> None:
    """Wait until the journal holds more than ``above`` lines or the process has ended."""
    deadline = time.monotonic() + 60
    while process.poll() is None and journal_lines(directory) <= above:
        assert time.monotonic() < deadline, "the tournament made no progress"
        time.sleep(0.02)


@pytest.mark.slow
def test_killed_tournament_resumes_to_the_same_summary(tmp_path: Path) -> None:
    """SIGKILLed at 4 random moments and resumed each time, the program ends with the
    uninterrupted run's summary."""
    uninterrupted = tmp_path / "uninterrupted"
    config = configure(Options(specs=DEFAULT_SPECS, deals=KILLED_DEALS, seed=BIG_SEED))
    played_as_by_default(config, workers=2, out=uninterrupted)
    rng = random.Random(20261129)
    directory = tmp_path / "killed"
    log = tmp_path / "log.txt"
    total = KILLED_DEALS * 6
    lines_after_kill = [0]
    journals: list[bytes] = []
    for _ in range(4):
        process = start_tournament(directory, log)
        # Each kill lands at a random point of the run still to play, however fast the machine.
        remaining = total - lines_after_kill[-1]
        wait_for_progress(process, directory, lines_after_kill[-1] + rng.randrange(remaining // 5))
        time.sleep(rng.uniform(0, 0.05))
        workers = descendants(process.pid)
        if process.poll() is None:
            process.kill()
        process.wait(timeout=60)
        kill_all(workers)
        lines_after_kill.append(journal_lines(directory))
        journals.append(journal_text(directory))
    process = start_tournament(directory, log)
    try:
        assert process.wait(timeout=120) == 0, log.read_text()
    finally:
        if process.poll() is None:
            process.kill()
    assert lines_after_kill == sorted(lines_after_kill)
    assert 0 < lines_after_kill[-1] < total, f"the last kill came too late: {lines_after_kill}"
    assert (directory / "summary.json").read_bytes() == (
        uninterrupted / "summary.json"
    ).read_bytes()
    results = journal_results(directory)
    assert len(results) == len({result.unit for result in results}) == total
    final = (directory / "journal.jsonl").read_bytes()
    assert all(final.startswith(journal) for journal in journals)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_killed_tournament_leaves_no_worker_processes(tmp_path: Path) -> None:
    """When the tournament program is killed, its worker processes end with it (the wait is
    generous, so that a loaded machine does not fail the test)."""
    directory = tmp_path / "killed"
    process = start_tournament(directory, tmp_path / "log.txt")
    workers: list[int] = []
    try:
        wait_for_progress(process, directory, 0)
        workers = descendants(process.pid)
        process.kill()
        process.wait(timeout=60)
        assert len(workers) >= 2
        deadline = time.monotonic() + 30
        while running(workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert running(workers) == []
    finally:
        kill_all(workers)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--seed", "2"], "started with --seed 1, not 2"),
        (["--deals", "3"], "started with --deals 2, not 3"),
        (["--games", "2"], "started with --games none, not 2"),
        (["greedy", "greedy", "random"], "started with bots greedy random random, not greedy"),
        (["--on-fault", "substitute"], "started with --on-fault forfeit, not substitute"),
        (["--game", "bluff"], "started with --game thousand, not bluff"),
        (["--rules", "polish"], "other rules than polish"),
    ],
)
def test_resume_with_a_changed_option_is_refused(
    tmp_path: Path, change: list[str], message: str
) -> None:
    """--resume with a changed option exits 2 with one error line, the folder untouched."""
    directory = tmp_path / "kept"
    arguments = ["tournament", "--deals", "2", "--seed", "1", "--workers", "1", "--no-report"]
    started = runner.invoke(app, [*arguments, "--out", str(directory)])
    assert started.exit_code == 0, started.output
    before = snapshot(directory)
    result = runner.invoke(app, ["tournament", *change, "--resume", str(directory)])
    assert result.exit_code == 2
    one_line_error(result.output, message)
    assert "resume it without changing its options" in result.output
    assert snapshot(directory) == before


@pytest.mark.slow
def test_resume_with_the_same_options_is_accepted(tmp_path: Path) -> None:
    """--resume with options equal to the saved ones, or none, finishes with the same summary."""
    directory = tmp_path / "kept"
    arguments = ["tournament", "greedy", "random", "random", "--deals", "2", "--workers", "1"]
    arguments.append("--no-report")
    started = runner.invoke(app, [*arguments, "--seed", "1", "--json", "--out", str(directory)])
    assert started.exit_code == 0, started.output
    summary = (directory / "summary.json").read_bytes()
    again = runner.invoke(app, [*arguments, "--seed", "1", "--json", "--resume", str(directory)])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == json.loads(summary)
    bare = runner.invoke(app, ["tournament", "--resume", str(directory), "--no-report"])
    assert bare.exit_code == 0, bare.output
    assert (directory / "summary.json").read_bytes() == summary


@pytest.mark.slow
def test_the_installed_program_refuses_a_changed_resume(tmp_path: Path) -> None:
    """The real program, resuming with another --seed, prints one error line and exits 2."""
    directory = tmp_path / "kept"
    arguments = ["tournament", "--deals", "1", "--seed", "1", "--workers", "1", "--no-report"]
    first = runner.invoke(app, [*arguments, "--out", str(directory)])
    assert first.exit_code == 0, first.output
    before = snapshot(directory)
    result = subprocess.run(
        [*installed_command(), "tournament", "--seed", "9", "--resume", str(directory)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    one_line_error(result.stderr, "started with --seed 1, not 9")
    assert snapshot(directory) == before


# Hostile bots --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("on_fault", ["forfeit", "substitute"])
def test_hostile_bots_are_charged_with_their_faults(tmp_path: Path, on_fault: str) -> None:
    """A raising bot's and an illegal program's faults show in summary.json and the table."""
    flaky = f"{PYTHON_BOTS}:Flaky"
    illegal = hostile_spec(tmp_path, "illegal", after=1)
    out = tmp_path / "out"
    arguments = ["tournament", flaky, illegal, "greedy", "random", "--deals", "1"]
    arguments += ["--workers", "2", "--on-fault", on_fault, "--out", str(out), "--no-report"]
    # The program writes its pids into tmp_path, which a sandboxed bot could not.
    result = runner.invoke(app, [*arguments, "--isolate=process"])
    assert result.exit_code == 0, result.output
    document = summary_of(out)
    units = 3 * 1 * 6
    flaky_faults = standing(document, flaky)["faults"]
    illegal_faults = standing(document, illegal)["faults"]
    assert flaky_faults["error"] > 0
    assert flaky_faults["illegal"] == flaky_faults["timeout"] == 0
    assert illegal_faults["illegal"] > 0
    assert illegal_faults["error"] == illegal_faults["timeout"] == 0
    for name in ("greedy", "random"):
        assert standing(document, name)["faults"] == {"illegal": 0, "error": 0, "timeout": 0}
    assert {row["units"] for row in document["standings"]} == {units}
    journal = journal_results(out)
    assert len(journal) == 4 * 1 * 6
    flaky_errors = sum(
        result.faults[seat][2]
        for result in journal
        for seat, entrant in enumerate(result.seating)
        if entrant == 0
    )
    assert flaky_faults["error"] == flaky_errors
    if on_fault == "forfeit":
        assert all(
            result.faults[seat] in ((0, 0, 0, 0), (0, 0, 1, 0), (0, 1, 0, 0))
            for result in journal
            for seat in range(3)
        )
    two_at_fault = [result for result in journal if sum(map(sum, result.faults)) > 1]
    assert bool(two_at_fault) == (on_fault == "substitute")
    lines = result.stdout.splitlines()
    rows = {line.split()[1]: line for line in lines if re.match(r"\d+ ", line)}
    assert rows[flaky].endswith(f"{flaky_faults['error']} error")
    illegal_row = next(line for line in lines if "hostile_bot.py" in line)
    assert illegal_row.endswith(f"{illegal_faults['illegal']} illegal")
    assert rows["greedy"].endswith(" 0")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_on_fault_raise_stops_the_tournament_with_one_line(tmp_path: Path, workers: str) -> None:
    """--on-fault raise ends the tournament at a bot's fault with a one-line error, exit 2."""
    arguments = ["tournament", f"{PYTHON_BOTS}:Flaky", "greedy", "random", "--deals", "3"]
    arguments += ["--on-fault", "raise", "--workers", workers, "--seed", "1"]
    arguments += ["--out", str(tmp_path / "out")]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    one_line_error(without_progress(result.stderr), "RuntimeError: flaky bot tripped")
    assert not (tmp_path / "out" / "summary.json").exists()


# Command line --------------------------------------------------------------------------------


def table_of(output: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the printed standings (cells split on two or more spaces)."""
    lines = output.splitlines()
    assert lines[1] == ""
    end = lines.index("± is half the width of a 95% interval.")
    assert lines[end - 1] == ""
    header = re.split(r" {2,}", lines[2])
    rows = [re.split(r" {2,}", line) for line in lines[3 : end - 1]]
    return header, rows


def section_of(output: str, title: str) -> list[list[str]]:
    """The rows of the printed table under ``title``, after its header."""
    lines = output.splitlines()
    start = lines.index(title)
    rows = []
    for line in lines[start + 3 :]:
        if not line:
            break
        rows.append(re.split(r" {2,}", line))
    return rows


def head_to_head_of(output: str) -> list[list[str]]:
    """The rows of the printed head-to-head table, after its header."""
    return section_of(output, "Head to head, on the units both played:")


SEATS_TITLE = (
    "Seats, against the mean of the table (seat 0 deals; every bot holds every seat equally often):"
)
NEXT_TITLE = "The bot in the seat after each bot, against the other bots at the table:"


def test_the_standings_table(tmp_path: Path) -> None:
    """The printed standings have rank, bot, rating, ±, score, units, faults as in the summary."""
    out = tmp_path / "out"
    arguments = ["tournament", "--deals", "4", "--workers", "1", "--seed", "3", "--no-report"]
    result = runner.invoke(app, [*arguments, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == (
        "Thousand, 3 bots, 1 table of 3, 4 deals per table under every seating, seed 3"
    )
    header, rows = table_of(result.stdout)
    assert header == [
        "rank", "bot", "rating", "±", "ladder", "score/deal", "±", "units", "contracts made",
        "faults"
    ]  # fmt: skip
    document = summary_of(out)
    assert [row[:2] for row in rows] == [
        [str(entry["rank"]), entry["name"]] for entry in document["standings"]
    ]
    assert sorted(row[1] for row in rows) == ["greedy", "random", "random#2"]
    for row in rows:
        entry = standing(document, row[1])
        assert row[2] == f"{entry['rating']:.0f}"
        low, high = entry["rating_interval"]
        assert row[3] == ("fixed" if row[1] == "greedy" else f"{(high - low) / 2:.0f}")
        assert float(row[5]) == pytest.approx(entry["mean_score"], abs=0.05)
        low, high = entry["score_interval"]
        assert float(row[6]) == pytest.approx((high - low) / 2, abs=0.05)
        assert float(row[6]) > 0
        assert row[7] == "24"
        assert row[9] == "0"
    names = [entry["name"] for entry in sorted(document["standings"], key=lambda e: e["entrant"])]
    leads = head_to_head_of(result.stdout)
    assert len(leads) == 3
    for pair, lead, span in leads:
        better, _, worse = pair.partition(" over ")
        a, b = names.index(better), names.index(worse)
        assert float(lead) == pytest.approx(document["crosstable"][a][b], abs=0.05)
        assert float(lead) >= 0
        low, high = document["crosstable_intervals"][a][b]
        assert span == f"{low:+.1f} to {high:+.1f}"
    seats = section_of(result.stdout, SEATS_TITLE)
    assert [row[0] for row in seats] == ["0 dealer", "1 forehand", "2 second hand"]
    for row, seat in zip(seats, document["seats"], strict=True):
        assert row[1] == f"{seat['advantage']:+.1f}"
        low, high = seat["advantage_interval"]
        assert row[2] == f"{low:+.1f} to {high:+.1f}"
        assert row[3] == f"{seat['win_rate']:.0%}"
    assert sum(seat["advantage"] for seat in document["seats"]) == pytest.approx(0)
    following = section_of(result.stdout, NEXT_TITLE)
    assert [row[0] for row in following] == [row[1] for row in rows]
    for row in following:
        entry = standing(document, row[0])
        assert row[1] == f"{entry['next_seat']:+.1f}"
        low, high = entry["next_seat_interval"]
        assert row[2] == f"{low:+.1f} to {high:+.1f}"


def test_json_prints_the_summary_document(tmp_path: Path) -> None:
    """--json prints valid JSON equal to summary.json: the configuration and the statistics."""
    out = tmp_path / "out"
    arguments = ["tournament", "--deals", "2", "--seed", "1", "--workers", "1", "--json"]
    result = runner.invoke(app, [*arguments, "--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed == summary_of(out)
    assert result.stdout == (out / "summary.json").read_text(encoding="utf-8")
    assert Config.from_dict(printed["config"]) == configure(Options(deals=2, seed=1))
    assert [row["name"] for row in printed["standings"]] != []
    alone = runner.invoke(app, arguments)
    assert alone.exit_code == 0, alone.output
    assert json.loads(alone.stdout) == printed


def test_out_keeps_every_output_and_replayable_records(tmp_path: Path) -> None:
    """--out --records keeps every output and a record per unit replaying to its scores."""
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "tournament",
            "--deals",
            "2",
            "--seed",
            "1",
            "--workers",
            "2",
            "--records",
            "--out",
            str(out),
            "--no-report",
        ],
    )
    assert result.exit_code == 0, result.output
    for name in OUTPUTS:
        assert (out / name).is_file(), name
    config = Journal.saved_config(out)
    assert config == configure(Options(deals=2, seed=1))
    journal = journal_results(out)
    assert sorted(result.unit for result in journal) == sorted(u.name for u in config.units())
    records = sorted(path.stem for path in (out / "records").glob("*.json"))
    assert records == sorted(result.unit for result in journal)
    for unit in journal:
        record = thousand.load_record(out / "records" / f"{unit.unit}.json")
        assert record.single_deal
        final = thousand.replay(record)
        assert isinstance(final.result, thousand.DealResult)
        assert tuple(final.result.deal_scores) == unit.scores
    standings_csv = (out / "standings.csv").read_text(encoding="utf-8").splitlines()
    assert standings_csv[0].split(",")[:3] == ["rank", "bot", "rating"]
    assert len(standings_csv) == 4
    crosstable = (out / "crosstable.csv").read_text(encoding="utf-8").splitlines()
    assert len(crosstable) == 4


@pytest.mark.slow
def test_a_1000_tournament_with_records(tmp_path: Path) -> None:
    """--game bluff plays 1000?, prints standings, keeps records replaying to the scores."""
    out = tmp_path / "out"
    arguments = ["tournament", "greedy", "random", "random", "random", "--game", "bluff"]
    arguments += ["--players", "3", "--games", "6", "--seed", "1", "--workers", "1", "--records"]
    result = runner.invoke(app, [*arguments, "--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "1000?, 4 bots, 4 tables of 3, 6 games per table in groups of 6 seatings on the same "
        "cards, seed 1"
    )
    header, rows = table_of(result.stdout)
    assert header == ["rank", "bot", "rating", "±", "score/game", "±", "units", "wins", "faults"]
    assert sorted(row[1] for row in rows) == ["greedy", "random", "random#2", "random#3"]
    assert all(row[6] == "18" for row in rows)
    assert [
        row[0] for row in section_of(result.stdout, SEATS_TITLE.replace("deals", "deals first"))
    ] == [
        "0 dealer, plays last",
        "1 plays first",
        "2 plays second",
    ]
    journal = journal_results(out)
    assert len(journal) == 24
    for unit in journal:
        record = bluff.load_record(out / "records" / f"{unit.unit}.json")
        final = bluff.replay(record)
        assert final.result is not None
        assert tuple(-size for size in final.result.hand_sizes) == unit.scores


def test_thousand_games_format_records_whole_matches(tmp_path: Path) -> None:
    """--games plays whole Thousand matches whose records replay to the journal's scores."""
    out = tmp_path / "out"
    arguments = ["tournament", "--games", "6", "--seed", "1", "--workers", "1", "--records"]
    arguments += ["--out", str(out), "--no-report"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    header, _ = table_of(result.stdout)
    assert "score/match" in header
    assert "wins" in header
    journal = journal_results(out)
    assert len(journal) == 6
    for unit in journal:
        record = thousand.load_record(out / "records" / f"{unit.unit}.json")
        assert not record.single_deal
        final = thousand.replay(record)
        assert isinstance(final.result, thousand.MatchResult)
        assert tuple(final.result.scores) == unit.scores


@pytest.mark.slow
def test_a_resumed_tournament_keeps_records_as_it_was_started(tmp_path: Path) -> None:
    """A tournament started with --records keeps records of units played after a resume."""
    out = tmp_path / "out"
    arguments = ["tournament", "--deals", "2", "--workers", "1", "--records", "--out", str(out)]
    assert runner.invoke(app, [*arguments, "--no-report"]).exit_code == 0
    lines = (out / "journal.jsonl").read_bytes().splitlines(keepends=True)
    (out / "journal.jsonl").write_bytes(b"".join(lines[:5]))
    for line in lines[5:]:
        (out / "records" / f"{json.loads(line)['unit']}.json").unlink()
    (out / "summary.json").unlink()
    resumed = runner.invoke(app, ["tournament", "--resume", str(out), "--no-report"])
    assert resumed.exit_code == 0
    assert len(list((out / "records").glob("*.json"))) == len(lines)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["greedy", "nosuchbot", "random"], "no bot named 'nosuchbot'"),
        (["--deals", "2", "--games", "2"], "give --deals or --games, not both"),
        (["--deals", "2", "--records"], "--records needs --out"),
        (
            ["--out", "{dir}/a", "--resume", "{dir}/b"],
            "give --out for a new tournament or --resume",
        ),
        (["--resume", "{dir}"], "holds no tournament (no config.json)"),
        (["--deals", "2", "--gauntlet", "nobody"], "the gauntlet entrant 'nobody' is not among"),
        (["greedy", "random"], "3-player tables need at least 3 entrants, but 2 were given"),
        (["--players", "4", "--rules", "russian"], "russian is played by 3 players, not 4"),
        (["--game", "chess"], "--game must be thousand or bluff, not 'chess'"),
        (
            ["--games", "10"],
            "--games 10 does not fill whole groups: at tables of 3 the matches go in groups of 6",
        ),
        (
            ["greedy", "random", "random", "random", "--game", "bluff", "--games", "30"],
            "give a multiple of 24, such as 24 or 48",
        ),
    ],
)
def test_bad_arguments_give_a_one_line_error(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    """Wrong arguments exit 2 with one error line, no traceback, and leave no tournament."""
    filled = [argument.replace("{dir}", str(tmp_path)) for argument in arguments]
    result = runner.invoke(app, ["tournament", *filled])
    assert result.exit_code == 2
    one_line_error(result.output, message)
    assert not list(tmp_path.rglob("config.json"))


@pytest.mark.parametrize(("players", "games"), [(2, 30), (3, 30), (4, 48), (5, 40), (6, 30)])
def test_1000_plays_30_games_per_table_by_default_in_whole_groups(players: int, games: int) -> None:
    """Without --games, 1000? plays 30 games per table, rounded up to whole groups."""
    specs = tuple("random" for _ in range(players))
    config = configure(Options(specs=specs, game="bluff", players=None if players < 5 else players))
    assert (config.format, config.players, config.per_table) == ("games", players, games)


@pytest.mark.parametrize("game", ["thousand", "bluff"])
def test_a_rules_file_that_is_not_text_is_one_error_line(tmp_path: Path, game: str) -> None:
    """A --rules file that is not UTF-8 text is refused in one line naming it."""
    rules = tmp_path / "rules.json"
    rules.write_bytes(b'{"preset": "russian", "bid_step": \xff}')
    result = runner.invoke(app, ["tournament", "--game", game, "--rules", str(rules)])
    assert result.exit_code == 2
    one_line_error(result.output, f"{rules} is not UTF-8 text (byte 34 cannot be read)")


def test_a_gauntlet_from_the_command_line(tmp_path: Path) -> None:
    """--gauntlet plays only the named entrant's tables: it plays every unit, the others fewer."""
    out = tmp_path / "out"
    arguments = ["tournament", "greedy", "random", "random", "random", "--gauntlet", "random#3"]
    arguments += ["--deals", "1", "--workers", "1", "--out", str(out), "--no-report"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    assert "Thousand, 4 bots, 3 tables of 3, 1 deal per table" in result.output
    units = {row["name"]: row["units"] for row in summary_of(out)["standings"]}
    assert units == {"random#3": 18, "greedy": 12, "random": 12, "random#2": 12}
    assert Journal.saved_config(out).gauntlet == "random#3"


def test_out_naming_a_file_gives_a_one_line_error(tmp_path: Path) -> None:
    """--out naming an existing file exits 2 with one error line and leaves the file alone."""
    path = tmp_path / "notes.txt"
    path.write_text("mine\n")
    result = runner.invoke(
        app, ["tournament", "--deals", "1", "--workers", "1", "--out", str(path)]
    )
    assert result.exit_code == 2
    one_line_error(result.output, str(path))
    assert path.read_text() == "mine\n"


def test_an_existing_tournament_is_not_overwritten(tmp_path: Path) -> None:
    """--out naming a folder that holds a tournament exits 2 and changes nothing."""
    out = tmp_path / "out"
    arguments = ["tournament", "--deals", "1", "--workers", "1", "--out", str(out), "--no-report"]
    assert runner.invoke(app, arguments).exit_code == 0
    before = snapshot(out)
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    one_line_error(result.output, "already holds a tournament")
    assert snapshot(out) == before


@pytest.mark.slow
def test_the_installed_program_runs_a_tournament(tmp_path: Path) -> None:
    """The real `thousand` program plays a tiny tournament and prints the standings."""
    result = subprocess.run(
        [*installed_command(), "tournament", "--deals", "1", "--workers", "1", "--seed", "4"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Thousand, 3 bots, 1 table of 3, 1 deal per table")
    assert "\x1b" not in result.stdout + result.stderr
    assert without_progress(result.stderr) == ""
    assert result.stderr.splitlines()[-1].startswith("100% 6/6 deals, ")
    header, rows = table_of(result.stdout)
    assert header[:3] == ["rank", "bot", "rating"]
    assert sorted(row[1] for row in rows) == ["greedy", "random", "random#2"]
    assert list(tmp_path.iterdir()) == []


# Statistics ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_greedy_beats_random_with_confidence(big_tournament: Path) -> None:
    """greedy ranks first with intervals clear of random's; the random copies' overlap."""
    document = summary_of(big_tournament)
    assert document["standings"][0]["name"] == "greedy"
    greedy = standing(document, "greedy")
    randoms = [standing(document, "random"), standing(document, "random#2")]
    assert greedy["rank"] == 1
    for other in randoms:
        assert greedy["rating_interval"][0] > other["rating_interval"][1]
        assert greedy["rating"] > other["rating"]
    assert greedy["score_interval"][0] > 0
    for key in ("rating_interval", "score_interval"):
        first, second = (other[key] for other in randoms)
        assert first[0] <= second[1]
        assert second[0] <= first[1]
    for row in document["standings"]:
        low, high = row["rating_interval"]
        assert low <= row["rating"] <= high
        low, high = row["score_interval"]
        assert low <= row["mean_score"] <= high
    # On the reference scale: greedy, the ladder's fixed point, holds its rating of 1500.
    assert document["anchor"] == {"greedy": 1500.0}
    assert greedy["rating"] == 1500.0


def test_one_run_at_a_time_plays_a_kept_tournament(tmp_path: Path) -> None:
    """While one run holds a tournament folder, a second one is refused instead of writing the
    same units into the journal twice."""
    config = configure(Options(specs=DEFAULT_SPECS, deals=1))
    first = Journal.create(tmp_path / "kept", config)
    try:
        with pytest.raises(TournamentDirError, match="another run is playing"):
            run_tournament(config, out=tmp_path / "kept", resume=True)
    finally:
        first.close()
    run_tournament(config, out=tmp_path / "kept", resume=True)
    assert (tmp_path / "kept" / "summary.json").exists()


def test_a_tournament_plays_into_a_store_of_its_own_and_goes_on_from_it(tmp_path: Path) -> None:
    """A tournament whose results go to a store (here in memory, as a server's database would
    hold them) summarises as the one kept in a folder, and a store holding part of the units
    has only the rest played; a store of another tournament is refused, and a store is not
    given with a folder."""
    config = thousand_config(["greedy", "random", "random"], deals=2)
    folder = run_tournament(config, out=tmp_path / "kept")
    store = MemoryStore(config)
    assert run_tournament(config, store=store) == folder
    assert set(store.units) == {unit.name for unit in config.units()}

    part = MemoryStore(config)
    part.append((result, None) for result in list(store.units.values())[:5])
    told: list[int] = []
    summary = run_tournament(config, store=part, on_results=lambda done: told.append(len(done)))
    assert summary == folder
    assert told[0] == 5
    assert sum(told) == len(config.units())
    assert part.units == store.units

    other = MemoryStore(thousand_config(["greedy", "random", "random"], deals=2, seed=9))
    with pytest.raises(TournamentDirError, match="another configuration"):
        run_tournament(config, store=other)
    assert other.units == {}
    with pytest.raises(ValueError, match="not both"):
        run_tournament(config, store=store, out=tmp_path / "both")
