"""Fair schedules, as a statistical test: copies of one bot seated next to a strong bot rate
alike, in both games and both formats, through the library and through the ``thousand``
program; and the same check catches a schedule that only rotates the seats, where each copy
always sits at the same distance from the strong bot.

The strong bots cost the seat after them: in 1000? ``greedy`` plays cards the next player must
beat, and in Thousand the test bot ``Pusher`` bids 115 so that the next player without a
marriage may only pass or bid 120.
"""

from __future__ import annotations

import json
import tempfile
from itertools import combinations
from typing import Any

import attrs
import pytest

from tests.test_cli import run_installed
from tournament.runner.backends import ProcessBackend, batches
from tournament.runner.options import Options, configure
from tournament.runner.run import run_tournament
from tournament.runner.schedule import Config, Unit, derive_seed
from tournament.runner.summary import Summary, summarize
from tournament.runner.units import BotLogs

pytestmark = pytest.mark.slow

PUSHER = "tests/bots/python_bots.py:Pusher"
SEED = 3
MAX_GAP = 80
"""Rating points copies of one bot may lie apart."""

# The sizes are the smallest at which the rotated seatings still set the copies apart (with
# Thousand's deals that takes 1500 deals, at 1000 their intervals almost touch).
CASES = [
    pytest.param("thousand", "deals", 1500, (PUSHER, "random", "random"), id="thousand-deals"),
    pytest.param("thousand", "games", 120, (PUSHER, "random", "random"), id="thousand-games"),
    pytest.param("bluff", "deals", 10, ("greedy", "random", "random", "random"), id="bluff-deals"),
    pytest.param("bluff", "games", 240, ("greedy", "random", "random", "random"), id="bluff-games"),
]


def config_of(game: str, format: str, per_table: int, specs: tuple[str, ...]) -> Config:
    """The configuration the command line makes of these options, the test's own bot trusted
    to run in the tournament's processes (--no-isolate)."""
    options = Options(specs=specs, game=game, seed=SEED, isolate=False)
    if format == "deals":
        return configure(attrs.evolve(options, deals=per_table))
    return configure(attrs.evolve(options, games=per_table))


def disagreements(standings: list[dict[str, Any]]) -> list[str]:
    """Each pair of copies of ``random`` whose ratings lie more than :data:`MAX_GAP` apart or
    whose intervals do not overlap, described."""
    copies = [entry for entry in standings if entry["name"].startswith("random")]
    assert len(copies) >= 2
    found = []
    for first, second in combinations(copies, 2):
        (low, high), (other_low, other_high) = first["rating_interval"], second["rating_interval"]
        gap = abs(first["rating"] - second["rating"])
        if gap > MAX_GAP or high < other_low or other_high < low:
            found.append(
                f"{first['name']} {first['rating']:.0f} ({low:.0f} to {high:.0f}) and "
                f"{second['name']} {second['rating']:.0f} ({other_low:.0f} to {other_high:.0f})"
            )
    return found


def standings_of(summary: Summary) -> list[dict[str, Any]]:
    return [standing.to_dict() for standing in summary.standings]


def rotations(config: Config) -> list[Unit]:
    """As many units as the schedule has, but each set of cards played only under the *k*
    rotations of the table's seats: the copies keep their places relative to the strong bot."""
    players = config.players
    kind = "deal" if config.format == "deals" else "game"
    sets = config.groups_per_table * config.group_size // players
    units = []
    for number, table in enumerate(config.tables()):
        for group in range(sets):
            seed = derive_seed(config.seed, kind, group)
            for turn in range(players):
                seating = table[turn:] + table[:turn]
                name = f"t{number}-{kind[0]}{group}-s{turn}"
                units.append(Unit(name, number, group, seating, seed, 0))
    return units


@pytest.mark.parametrize(("game", "format", "per_table", "specs"), CASES)
def test_copies_next_to_a_strong_bot_rate_alike(
    game: str, format: str, per_table: int, specs: tuple[str, ...]
) -> None:
    """Under the balanced seatings, the copies' ratings agree within their intervals."""
    summary = run_tournament(config_of(game, format, per_table, specs), workers=2)
    assert disagreements(standings_of(summary)) == []
    strong, *others = [(standing.name, standing.rating or 0.0) for standing in summary.standings]
    assert strong[0] == specs[0]
    assert all(strong[1] > rating + 200 for _, rating in others)


@pytest.mark.parametrize(("game", "format", "per_table", "specs"), CASES)
def test_the_check_fails_when_seats_are_only_rotated(
    game: str, format: str, per_table: int, specs: tuple[str, ...]
) -> None:
    """The same check, on as many units with the seats only rotated, finds copies apart: the
    check can tell a fair schedule from an unfair one."""
    config = config_of(game, format, per_table, specs)
    units = rotations(config)
    assert len(units) == len(config.units())
    work = batches(units, len(units), 2, 64)
    logs = BotLogs(tempfile.gettempdir())
    played = [
        item.result for batch in ProcessBackend(2).run(config, work, False, logs) for item in batch
    ]
    names = [entrant.name for entrant in config.entrants]
    summary = summarize(played, names, format=format, seed=SEED)
    assert disagreements(standings_of(summary)) != []


def run_program(*arguments: str) -> dict[str, Any]:
    completed = run_installed(
        "tournament", *arguments, "--seed", str(SEED), "--workers", "2", "--json", "--no-isolate"
    )
    assert completed.returncode == 0, completed.stderr
    document: dict[str, Any] = json.loads(completed.stdout)
    return document


@pytest.mark.parametrize(("game", "format", "per_table", "specs"), CASES)
def test_copies_rate_alike_through_the_thousand_program(
    game: str, format: str, per_table: int, specs: tuple[str, ...]
) -> None:
    """The real program, given the same field, ranks the copies alike too."""
    document = run_program(*specs, "--game", game, f"--{format}", str(per_table))
    assert document["config"]["format"] == format
    assert disagreements(document["standings"]) == []


def test_the_published_1000_example_ranks_the_copies_alike() -> None:
    """``thousand tournament greedy random random random --game bluff --games 240 --seed 3``:
    the three copies within 80 points, intervals overlapping, and the seats reported."""
    document = run_program(
        "greedy", "random", "random", "random", "--game", "bluff", "--games", "240"
    )
    assert disagreements(document["standings"]) == []
    assert [seat["seat"] for seat in document["seats"]] == [0, 1, 2, 3]
    assert all(seat["units"] == 240 for seat in document["seats"])
