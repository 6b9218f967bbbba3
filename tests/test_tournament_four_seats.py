"""Tournaments at tables of four seats (``russian-4``, ``polish-4``): the schedule's balance with
one seat sitting out each deal, choosing the rules from ``--players``, resuming, house rules in
a rules file, and ratings that fall back to their mean where the ladder has no scale."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

import thousand
from tests.test_stats import unit as unit_result
from tests.test_tournament import journal_results, one_line_error, summary_of
from thousand import Rules
from thousand.classic.rules import Samosval
from tournament.cli import app
from tournament.runner.display import scale_lines, seat_roles
from tournament.runner.journal import Journal
from tournament.runner.options import Options, configure
from tournament.runner.run import run_tournament
from tournament.runner.schedule import Config, Unit, entrants_of
from tournament.runner.summary import summarize

FOUR_SEATS = ("russian-4", "polish-4")
RANDOMS = ("random", "random", "random", "random")

runner = CliRunner()


def four_seat_config(
    preset: str = "russian-4",
    specs: tuple[str, ...] = RANDOMS,
    *,
    per_table: int = 2,
    format: str = "deals",
) -> Config:
    """A tournament of ``specs`` under a four-seat preset."""
    return Config(
        game="thousand",
        rules=Rules.preset(preset).to_dict(),
        entrants=entrants_of(specs),
        players=4,
        format=format,
        per_table=per_table,
        seed=7,
    )


# Schedule ------------------------------------------------------------------------------------


@pytest.mark.parametrize("format", ["deals", "games"])
def test_a_group_plays_one_set_of_cards_under_all_24_seatings(format: str) -> None:
    """Each group deals the same cards, seat 0 first, under every seating of the four entrants
    of its table."""
    config = four_seat_config(
        specs=("greedy", *RANDOMS), per_table=2 if format == "deals" else 48, format=format
    )
    groups: dict[tuple[int, int], list[Unit]] = defaultdict(list)
    for unit in config.units():
        groups[unit.table, unit.group].append(unit)
    tables = config.tables()
    assert len(tables) == 5
    assert len(groups) == 5 * 2
    for (table, _), units in groups.items():
        assert len({unit.seed for unit in units}) == 1
        assert {unit.dealer for unit in units} == {0}
        assert sorted(unit.seating for unit in units) == sorted(
            itertools.permutations(tables[table])
        )


@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_every_bot_holds_every_seat_and_sits_out_equally_often(preset: str) -> None:
    """At every table each entrant holds each seat in a quarter of the units, so each sits out
    (in a single deal, the seat the rules name for dealer 0) in a quarter of them."""
    config = four_seat_config(preset, specs=(*RANDOMS, "random"), per_table=3)
    sitter = Rules.preset(preset).sitter_of(0)
    for number, table in enumerate(config.tables()):
        units = [unit for unit in config.units() if unit.table == number]
        held = Counter(
            (seat, entrant) for unit in units for seat, entrant in enumerate(unit.seating)
        )
        assert set(held) == {(seat, entrant) for seat in range(4) for entrant in table}
        assert set(held.values()) == {len(units) // 4}
        sat_out = Counter(unit.seating[sitter] for unit in units)
        assert sat_out == {entrant: len(units) // 4 for entrant in table}


# Choosing the rules --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "preset"),
    [
        (Options(specs=RANDOMS, players=4), "russian-4"),
        (Options(specs=RANDOMS, rules="polish-4"), "polish-4"),
        (Options(specs=RANDOMS, rules="russian-4", players=4), "russian-4"),
        (Options(specs=RANDOMS[:2], players=2), "polish-2p"),
        (Options(specs=RANDOMS[:3]), "russian"),
    ],
)
def test_players_choose_the_preset_for_their_table(options: Options, preset: str) -> None:
    config = configure(attrs.evolve(options, deals=1))
    rules = config.rules_value()
    assert isinstance(rules, Rules)
    assert rules.preset_name() == preset
    assert config.players == rules.players


def test_a_match_of_four_bots_is_played_under_russian_4() -> None:
    """thousand match with four bots seats them at a table of four: one of them, on the
    dealer's right, is dealt nothing."""
    result = runner.invoke(app, ["match", *RANDOMS, "--deal", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "  seat 3 (random#4) sits out" in result.output.splitlines()[:6]
    five = runner.invoke(app, ["match", *RANDOMS, "random", "--seed", "1"])
    assert five.exit_code == 2
    one_line_error(five.output, "Thousand is played by 2, 3 or 4 players, not 5")


def test_without_bots_random_fills_a_table_of_four() -> None:
    """The default entrants, greedy and random twice, gain a third random for four seats."""
    config = configure(Options(rules="russian-4", deals=1))
    assert [entrant.name for entrant in config.entrants] == [
        "greedy",
        "random",
        "random#2",
        "random#3",
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--players", "4", "--rules", "russian"], "russian is played by 3 players, not 4"),
        (["--players", "4", "--rules", "polish"], "(presets for 4: russian-4, polish-4)"),
        (["--players", "3", "--rules", "russian-4"], "russian-4 is played by 4 players, not 3"),
        (["--players", "5"], "Thousand is played by 2, 3 or 4 players, not 5"),
        (["--rules", "polish-4", "random", "random", "random"], "4-player tables need at least 4"),
        (["--rules", "russian-4", "--games", "12"], "groups of 24, every seating of the table"),
    ],
)
def test_a_table_the_rules_do_not_seat_is_one_error_line(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    result = runner.invoke(app, ["tournament", *arguments, "--out", str(tmp_path / "t")])
    assert result.exit_code == 2
    one_line_error(result.output, message)
    assert not (tmp_path / "t").exists()


# Playing, and resuming -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_a_four_seat_tournament_runs_end_to_end(tmp_path: Path, preset: str) -> None:
    """Every unit is played with no fault; the seats table names the sitter; the ratings
    average 1500, and the standings say why (no ladder for four seats)."""
    out = tmp_path / "out"
    arguments = ["tournament", *RANDOMS, "--rules", preset, "--deals", "2", "--seed", "3"]
    result = runner.invoke(app, [*arguments, "--workers", "1", "--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    assert "Thousand, 4 bots, 1 table of 4, 2 deals per table under every seating" in (
        result.stdout
    )
    assert (
        f"Ratings average 1500: no reference ratings were measured for Thousand, {preset} "
        "rules, tables of 4 (thousand ladder lists them)." in result.stdout
    )
    seats = result.stdout.split("Seats, against the mean of the table")[1].splitlines()[3:7]
    roles = [re.split(r"\s{2,}", line)[0].split(" ", 1)[1] for line in seats]
    if preset == "russian-4":
        assert roles == ["dealer", "forehand", "second hand", "sits out"]
    else:
        assert roles == ["dealer, sits out", "forehand", "second hand", "third hand"]
    document = summary_of(out)
    assert "anchor" not in document
    assert [row["units"] for row in document["standings"]] == [48] * 4
    assert sum(row["rating"] for row in document["standings"]) / 4 == pytest.approx(1500)
    results = journal_results(out)
    assert len(results) == 48
    for unit in results:
        assert unit.statuses == ("ok",) * 4
        assert len(unit.scores) == 4


@pytest.mark.parametrize("format", ["deals", "games"])
def test_a_resumed_four_seat_tournament_is_the_uninterrupted_one(
    tmp_path: Path, format: str
) -> None:
    """Stopped part way (its journal cut short), a four-seat tournament resumed ends with the
    same journal lines and the same summary as one played without a break. (Its matches stop
    at 30 deals: whole matches of random play would run to the preset's 400.)"""
    config = four_seat_config(per_table=2 if format == "deals" else 24, format=format)
    short = attrs.evolve(Rules.preset("russian-4"), max_deals=30)
    config = attrs.evolve(config, rules=short.to_dict())
    whole = tmp_path / "whole"
    run_tournament(config, out=whole)
    lines = (whole / "journal.jsonl").read_bytes().splitlines(keepends=True)
    assert len(lines) == len(config.units())

    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "config.json").write_bytes((whole / "config.json").read_bytes())
    (cut / "journal.jsonl").write_bytes(b"".join(lines[:10]))
    assert Journal.saved_config(cut) == config
    run_tournament(config, out=cut, resume=True)
    assert (cut / "journal.jsonl").read_bytes().startswith(b"".join(lines[:10]))
    by_unit = {result.unit: result for result in journal_results(whole)}
    resumed = journal_results(cut)
    assert len(resumed) == len(by_unit)
    # Equal in all but the time the bots took to think.
    assert {result.unit: result for result in resumed} == by_unit
    assert (cut / "summary.json").read_bytes() == (whole / "summary.json").read_bytes()


def test_four_seat_matches_keep_records_that_replay_to_their_scores(tmp_path: Path) -> None:
    """In the games format each unit is a whole match at four seats; its record replays to the
    scores the journal holds. (The matches stop at 30 deals: a match of random play would run
    to the preset's 400.)"""
    rules = tmp_path / "short.json"
    rules.write_text(json.dumps({"preset": "polish-4", "max_deals": 30}))
    out = tmp_path / "out"
    arguments = ["tournament", *RANDOMS, "--rules", str(rules), "--games", "24", "--seed", "5"]
    arguments += ["--workers", "1", "--records", "--no-report"]
    result = runner.invoke(app, [*arguments, "--out", str(out)])
    assert result.exit_code == 0, result.output
    for unit in journal_results(out)[:6]:
        record = thousand.load_record(out / "records" / f"{unit.unit}.json")
        assert record.rules == attrs.evolve(Rules.preset("polish-4"), max_deals=30)
        final = thousand.replay(record)
        assert isinstance(final.result, thousand.MatchResult)
        assert tuple(final.result.scores) == unit.scores


def test_the_cli_resumes_a_four_seat_tournament(tmp_path: Path) -> None:
    """--resume with the four-seat options it was started with (or none) finishes it."""
    out = tmp_path / "out"
    arguments = ["tournament", *RANDOMS, "--rules", "russian-4", "--deals", "1", "--seed", "2"]
    arguments.append("--no-report")
    started = runner.invoke(app, [*arguments, "--workers", "1", "--json", "--out", str(out)])
    assert started.exit_code == 0, started.output
    summary = (out / "summary.json").read_bytes()
    lines = (out / "journal.jsonl").read_bytes().splitlines(keepends=True)
    (out / "journal.jsonl").write_bytes(b"".join(lines[:7]))
    (out / "summary.json").unlink()
    again = runner.invoke(app, [*arguments, "--players", "4", "--json", "--resume", str(out)])
    assert again.exit_code == 0, again.output
    assert (out / "summary.json").read_bytes() == summary
    assert json.loads(again.stdout) == json.loads(summary)


# House rules ---------------------------------------------------------------------------------


def test_house_rules_in_a_rules_file_are_played(tmp_path: Path) -> None:
    """A rules file of a preset and house rules is played under exactly those rules, and the
    ratings say that house rules have no reference scale."""
    rules = tmp_path / "house.json"
    rules.write_text(json.dumps({"preset": "russian", "bolts": 3, "samosval": "both"}))
    out = tmp_path / "out"
    arguments = ["tournament", "greedy", "random", "random", "--rules", str(rules)]
    arguments += ["--deals", "2", "--workers", "1", "--no-report"]
    result = runner.invoke(app, [*arguments, "--out", str(out)])
    assert result.exit_code == 0, result.output
    played = Journal.saved_config(out).rules_value()
    assert played == attrs.evolve(Rules.preset("russian"), bolts=3, samosval=Samosval.BOTH)
    assert (
        "Ratings average 1500: reference ratings were measured under the presets only, "
        "not house rules." in result.stdout
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"preset": "russian", "bolt": 3}, "unknown rules field(s): bolt; known fields are"),
        ({"preset": "russian", "bolts": -1}, "rules field 'bolts' must be 0 to 100, not -1"),
        ({"preset": "russian", "bolts": "3"}, "rules field 'bolts' must be a whole number"),
        ({"preset": "russian", "samosval": "yes"}, "'yes' is not a Samosval setting"),
        ({"preset": "russian", "sitter": "dealer_left"}, "is not a Sitter setting"),
        ({"preset": "russian", "sitter_bonus": 40}, "sitter_bonus applies to four seats only"),
        ({"preset": "russian-4", "players": 5}, "'players' must be 2 to 4, not 5"),
    ],
)
def test_bad_house_rules_are_one_error_line(
    tmp_path: Path, fields: dict[str, object], message: str
) -> None:
    """An unknown field or a bad value in a rules file is refused in one line naming the file,
    before anything is played."""
    rules = tmp_path / "house.json"
    rules.write_text(json.dumps(fields))
    out = tmp_path / "out"
    result = runner.invoke(app, ["tournament", "--rules", str(rules), "--out", str(out)])
    assert result.exit_code == 2
    one_line_error(result.output, f"{rules}: ")
    assert message in result.output
    assert not out.exists()


# Ratings -------------------------------------------------------------------------------------


def test_the_ladder_has_no_scale_for_four_seats(tmp_path: Path) -> None:
    """random is a bot of the ladder, but the ladder has no scale for tables of four: by default
    the ratings average 1500; asked for, the ladder is a one-line error."""
    arguments = ["tournament", *RANDOMS, "--rules", "russian-4", "--deals", "1", "--seed", "1"]
    default = runner.invoke(app, [*arguments, "--workers", "1", "--json"])
    assert default.exit_code == 0, default.output
    assert "anchor" not in json.loads(default.stdout)
    asked = runner.invoke(app, [*arguments, "--anchor", "ladder"])
    assert asked.exit_code == 2
    one_line_error(asked.output, "--anchor ladder: no reference ratings were measured")


def test_the_scale_line_says_why_ratings_average_1500() -> None:
    """The line under the standings: the reason the ladder's scale was not used, or none when
    --anchor mean asked for the mean."""
    results = [
        unit_result("a", (0, 1, 2, 3), (40, 0, -20, 60)),
        unit_result("b", (1, 0, 3, 2), (5, 5, 5, 5)),
    ]
    summary = summarize(results, ["w", "x", "y", "z"], format="deals", seed=1, resamples=0)
    assert summary.anchor is None
    three = Config(
        game="thousand",
        rules=Rules.preset("russian").to_dict(),
        entrants=entrants_of(["greedy", "random", "random", "random"]),
        players=3,
        format="deals",
        per_table=1,
        seed=1,
    )
    strangers = attrs.evolve(three, entrants=entrants_of(["cmd:a", "cmd:b", "cmd:c"]))
    assert scale_lines(four_seat_config(), summary, None) == [
        "Ratings average 1500: no reference ratings were measured for Thousand, russian-4 "
        "rules, tables of 4 (thousand ladder lists them)."
    ]
    assert scale_lines(three, summary, None) == ["Ratings average 1500."]
    assert scale_lines(strangers, summary, None) == [
        "Ratings average 1500: none of the bots is on the reference scale of Thousand, "
        "russian rules, tables of 3."
    ]


# Seats ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "roles"),
    [
        ({"preset": "russian"}, ["dealer", "forehand", "second hand"]),
        ({"preset": "russian-4"}, ["dealer", "forehand", "second hand", "sits out"]),
        ({"preset": "polish-4"}, ["dealer, sits out", "forehand", "second hand", "third hand"]),
        (
            {"preset": "russian-4", "sitter": "opposite_dealer"},
            ["dealer", "forehand", "sits out", "second hand"],
        ),
    ],
)
def test_seat_roles_follow_the_seat_sitting_out(fields: dict[str, str], roles: list[str]) -> None:
    """Seat 0 deals; the forehand is seat 1; the bidding goes round the seats taking part."""
    rules = Rules.from_dict(dict(fields))
    config = Config(
        game="thousand",
        rules=rules.to_dict(),
        entrants=entrants_of(RANDOMS[: rules.players]),
        players=rules.players,
        format="deals",
        per_table=1,
        seed=1,
    )
    assert seat_roles(config) == roles
