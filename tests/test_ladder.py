"""The rating ladder: the reference ratings shipped, tournaments anchored on them, and
``thousand ladder`` rating a bot or measuring the ladder again."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.test_tournament import table_of
from thousand import Rules, bluff
from tournament.cli import app
from tournament.runner.display import ladder_lines
from tournament.runner.ladder import (
    FIXED,
    RUNGS,
    Ladder,
    Rung,
    ladder_anchor,
    ladder_for,
    load_ladders,
    measured_ladder,
    reference_interval,
    rung_difference,
    save_ladder,
)
from tournament.runner.options import Options, configure
from tournament.runner.run import run_tournament

runner = CliRunner()
CAUTIOUS = "tests/bots/python_bots.py:Cautious"
SHIPPED = ("thousand/russian/3", "thousand/polish/3", "thousand/polish-2p/2", "bluff/standard/4")


def test_the_package_ships_a_ladder_for_every_preset_and_1000() -> None:
    ladders = load_ladders()
    assert set(SHIPPED) <= set(ladders)
    for key in SHIPPED:
        ladder = ladders[key]
        assert [rung.bot for rung in ladder.rungs] == list(RUNGS)
        fixed = ladder.rung(FIXED[0])
        assert fixed is not None
        assert (fixed.rating, fixed.interval) == (FIXED[1], (FIXED[1], FIXED[1]))
        for rung in ladder.rungs:
            low, high = rung.interval
            assert low <= rung.rating <= high
        # Every bot that thinks plays better than one that does not.
        ratings = {rung.bot: rung.rating for rung in ladder.rungs}
        assert ratings["random"] == min(ratings.values())


def test_a_tournament_finds_the_ladder_of_its_game_rules_and_table() -> None:
    assert ladder_for(configure(Options(specs=("greedy", "random", "random")))).key == (
        "thousand/russian/3"
    )
    polish = configure(Options(specs=("greedy", "random"), rules="polish-2p"))
    assert ladder_for(polish).key == "thousand/polish-2p/2"
    game = configure(Options(specs=("greedy",) * 4, game="bluff"))
    assert ladder_for(game).key == "bluff/standard/4"


def test_house_rules_and_unmeasured_tables_have_no_ladder(tmp_path: Path) -> None:
    house = tmp_path / "house.json"
    house.write_text(json.dumps({**Rules.preset("russian").to_dict(), "bid_step": 10}))
    assert ladder_for(configure(Options(specs=("greedy",) * 3, rules=str(house)))) is None
    # 1000? was measured at tables of four; house rules of 1000? have no ladder either.
    assert ladder_for(configure(Options(specs=("greedy",) * 3, game="bluff", players=3))) is None
    odd = bluff.Rules(players=4, hand_size=5).to_dict()
    (tmp_path / "bluff.json").write_text(json.dumps(odd))
    chosen = Options(specs=("greedy",) * 4, game="bluff", rules=str(tmp_path / "bluff.json"))
    assert ladder_for(configure(chosen)) is None


def test_the_ladder_anchors_every_entrant_that_is_one_of_its_bots() -> None:
    ladder = Ladder(
        "thousand", "russian", 3, "deals", 1, 1, (Rung("random", 1100.0, (1090.0, 1110.0)),)
    )
    config = configure(Options(specs=("greedy", "random", "random", CAUTIOUS)))
    assert ladder_anchor(config, ladder) == (("random", 1100.0), ("random#2", 1100.0))
    assert ladder_anchor(config, ladder, skip=("random",)) == (("random#2", 1100.0),)
    assert ladder_anchor(config, ladder, skip=("random", "random#2")) is None


def test_a_rating_on_the_reference_scale_counts_the_uncertainty_of_the_reference() -> None:
    """The anchored bots' reference intervals (half-widths 0, 10 and 20 here) widen the
    interval by their mean, 10, added in quadrature on each side."""
    ladder = Ladder(
        "thousand",
        "russian",
        3,
        "deals",
        1,
        1,
        (
            Rung("greedy", 1500.0, (1500.0, 1500.0)),
            Rung("random", 1000.0, (990.0, 1010.0)),
            Rung("pimc(steps=250)", 1480.0, (1460.0, 1500.0)),
        ),
    )
    anchored = ["greedy", "random", "pimc(steps=250)"]
    low, high = reference_interval(1400.0, (1397.0, 1404.0), ladder, anchored)
    assert (low, high) == pytest.approx((1400 - math.hypot(3, 10), 1400 + math.hypot(4, 10)))
    assert reference_interval(1400.0, (1397.0, 1404.0), ladder, ["greedy"]) == (1397.0, 1404.0)


def test_a_new_measurement_agrees_when_the_difference_is_within_its_margin() -> None:
    reference = Rung("random", 1000.0, (970.0, 1030.0))
    near = Rung("random", 1040.0, (1000.0, 1080.0))
    far = Rung("random", 1060.0, (1020.0, 1100.0))
    assert rung_difference(near, reference) == pytest.approx((40.0, 50.0))
    assert rung_difference(far, reference) == pytest.approx((60.0, 50.0))
    lines = ladder_lines(
        [Ladder("thousand", "russian", 3, "deals", 1, 1, (near,))], reference_of(reference)
    )
    assert lines[-1].split()[-4:] == ["+40", "±", "50", "yes"]
    lines = ladder_lines(
        [Ladder("thousand", "russian", 3, "deals", 1, 1, (far,))], reference_of(reference)
    )
    assert lines[-1].split()[-4:] == ["+60", "±", "50", "no"]


def test_the_fixed_bot_measured_again_differs_by_nothing_and_says_why() -> None:
    """greedy is fixed in both measurements: its difference is 0 by construction, written so,
    not as a margin of 0."""
    fixed = Rung("greedy", 1500.0, (1500.0, 1500.0))
    lines = ladder_lines(
        [Ladder("thousand", "russian", 3, "deals", 1, 1, (fixed,))], reference_of(fixed)
    )
    assert lines[-1].split() == ["greedy", "1500", "fixed", "1500", "fixed", "+0,", "fixed", "yes"]


def test_a_calibration_too_short_for_intervals_is_refused_in_one_line() -> None:
    """One deal group measures no interval, so no ladder is made of it, not one of width 0."""
    config = configure(Options(specs=("random", "greedy", "random"), deals=1, seed=1))
    summary = run_tournament(config, workers=1, anchor=(FIXED,))
    with pytest.raises(ValueError, match="has no 95% interval \\(fewer than 4 deal groups"):
        measured_ladder(config, summary)


def reference_of(rung: Rung) -> Ladder:
    return Ladder("thousand", "russian", 3, "deals", 30, 2026, (rung,))


def test_a_saved_ladder_replaces_the_one_of_its_key(tmp_path: Path) -> None:
    path = tmp_path / "ladder.json"
    first = Ladder("thousand", "russian", 3, "deals", 5, 1, (Rung("greedy", 1500.0, (1500, 1500)),))
    other = Ladder("bluff", "standard", 4, "games", 24, 2, (Rung("random", 1200.0, (1100, 1300)),))
    save_ladder(path, first)
    save_ladder(path, other)
    again = Ladder("thousand", "russian", 3, "deals", 9, 3, first.rungs)
    save_ladder(path, again)
    assert load_ladders(path) == {again.key: again, other.key: other}


def test_a_default_tournament_is_rated_on_the_reference_scale() -> None:
    """greedy, the ladder's fixed point, fixes the scale at its reference rating, shown as on
    the ladder and marked fixed; every bot of the ladder shows its own rating on the ladder
    beside the one measured here, and the lines under the table say which scale, which bot
    fixes it, and what the ladder column is."""
    reference = load_ladders()["thousand/russian/3"]
    options = ["random", "greedy", "random", "--deals", "20", "--seed", "1"]
    result = runner.invoke(app, ["tournament", *options, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["anchor"] == {"greedy": 1500.0}
    greedy = next(row for row in document["standings"] if row["name"] == "greedy")
    assert greedy["rating"] == 1500.0
    assert greedy["rating_interval"] == [1500.0, 1500.0]
    shown = runner.invoke(app, ["tournament", *options])
    assert shown.exit_code == 0, shown.output
    header, rows = table_of(shown.stdout)
    assert header[:6] == ["rank", "bot", "rating", "±", "ladder", "score/deal"]
    by_bot = {row[1]: row for row in rows}
    assert by_bot["greedy"][2:5] == ["1500", "fixed", "1500"]
    random_rating = f"{reference.rung('random').rating:.0f}"
    assert by_bot["random"][4] == by_bot["random#2"][4] == random_rating
    assert by_bot["random"][3] != "fixed"
    lines = shown.stdout.splitlines()
    assert (
        "Ratings are on the reference scale of Thousand, russian rules, tables of 3, fixed by "
        "greedy at 1500, its rating on the ladder (thousand ladder)."
    ) in lines
    assert any(line.startswith("ladder: the bot's own rating on the ladder") for line in lines)


def test_without_greedy_the_best_known_bot_of_the_ladder_fixes_the_scale() -> None:
    """With no greedy, the scale is fixed by the bot of the ladder whose reference rating has
    the narrowest interval; a bot not on the ladder shows a dash in the ladder column."""
    reference = load_ladders()["thousand/russian/3"]
    options = [CAUTIOUS, "random", "random", "--deals", "6", "--seed", "2"]
    result = runner.invoke(app, ["tournament", *options])
    assert result.exit_code == 0, result.output
    rung = reference.rung("random")
    _, rows = table_of(result.stdout)
    by_bot = {row[1]: row for row in rows}
    assert by_bot["random"][2:5] == [f"{rung.rating:.0f}", "fixed", f"{rung.rating:.0f}"]
    assert by_bot["random#2"][3] != "fixed"
    assert by_bot[CAUTIOUS][4] == "-"
    assert f"fixed by random at {rung.rating:.0f}, its rating on the ladder" in result.stdout


def test_a_bot_anchored_by_hand_at_its_reference_rating_is_on_the_reference_scale() -> None:
    """--anchor greedy=1500 is the ladder's own fixed point: the standings say so and show the
    ladder column, as the report drawn from the same summary does; another rating is not."""
    options = ["greedy", "random", "random", "--deals", "4", "--seed", "1"]
    result = runner.invoke(app, ["tournament", *options, "--anchor", "greedy=1500"])
    assert result.exit_code == 0, result.output
    header, _ = table_of(result.stdout)
    assert "ladder" in header
    assert "fixed by greedy at 1500, its rating on the ladder" in result.stdout
    other = runner.invoke(app, ["tournament", *options, "--anchor", "greedy=1400"])
    assert other.exit_code == 0, other.output
    assert "ladder" not in table_of(other.stdout)[0]
    assert "Ratings are measured from greedy, fixed at 1400." in other.stdout.splitlines()


def test_anchor_mean_keeps_the_ratings_around_1500() -> None:
    options = ["greedy", "random", "random", "--deals", "20", "--seed", "1", "--json"]
    result = runner.invoke(app, ["tournament", *options, "--anchor", "mean"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert "anchor" not in document
    ratings = [row["rating"] for row in document["standings"]]
    assert sum(ratings) / 3 == pytest.approx(1500, abs=0.01)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["tournament", CAUTIOUS, CAUTIOUS, CAUTIOUS, "--anchor", "ladder"],
            "error: --anchor ladder needs one of the ladder's bots: random, greedy,",
        ),
        (
            ["tournament", "--game", "bluff", "--players", "3", "--anchor", "ladder"],
            "error: --anchor ladder: no reference ratings were measured for these rules",
        ),
        (["ladder", "greedy", "--rungs", "random,nobody"], "error: --rungs: 'nobody' is not on"),
        (["ladder", "greedy", "--rungs", "random"], "error: --rungs needs at least two"),
        (["ladder", "greedy", "--calibrate"], "error: --calibrate measures the ladder itself"),
        (["ladder", "greedy", "--write", "x.json"], "error: --write goes with --calibrate"),
        (["ladder", "-g", "bluff", "--players", "3", "greedy"], "error: no reference ratings"),
        (["ladder", "no-such-bot"], "error: "),
        (
            ["ladder", "--calibrate", "--rungs", "random,pimc(steps=250)"],
            "error: --calibrate needs",
        ),
        (["ladder", "--resume", "no-such-folder"], "error: no-such-folder: no such folder"),
    ],
)
def test_ladder_mistakes_are_one_line_errors(arguments: list[str], message: str) -> None:
    """Refused before anything is played, in one line."""
    result = runner.invoke(app, [*arguments, "--seed", "1"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(message), result.output
    assert len(result.output.strip().splitlines()) == 1


def test_the_ladder_rates_greedy_at_its_reference_rating() -> None:
    """greedy played against the ladder's random and greedy comes out at greedy's reference
    rating, within its interval."""
    arguments = ["ladder", "greedy", "--rungs", "random,greedy", "--deals", "150", "--seed", "4"]
    result = runner.invoke(app, [*arguments, "--workers", "1"])
    assert result.exit_code == 0, result.output
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("greedy rates ")
    words = last.split()
    rating, low, high = int(words[2]), int(words[5]), int(words[7].rstrip(")"))
    assert low <= 1500 <= high
    assert low <= rating <= high
    assert high - low < 120
    assert "on the reference scale of Thousand, russian rules, tables of 3" in last


def test_calibration_measures_the_ladder_and_saves_it(tmp_path: Path) -> None:
    data = tmp_path / "ladder.json"
    arguments = ["--rules", "polish-2p", "--rungs", "random,greedy", "--deals", "40"]
    result = runner.invoke(
        app,
        [
            "ladder",
            "--calibrate",
            *arguments,
            "--seed",
            "7",
            "--workers",
            "1",
            "--write",
            str(data),
        ],
    )
    assert result.exit_code == 0, result.output
    comparison = result.stdout.split("tables of 2 (40 deals per table, seed 7):")[-1]
    assert comparison.splitlines()[2].split()[-2:] == ["difference", "agrees"]
    (measured,) = load_ladders(data).values()
    assert measured.key == "thousand/polish-2p/2"
    assert (measured.per_table, measured.seed) == (40, 7)
    assert [rung.bot for rung in measured.rungs] == ["random", "greedy"]
    assert measured.rung("greedy").rating == 1500.0
    assert measured.rung("random").rating < 1300


def test_a_kept_rating_is_resumed_without_its_options(tmp_path: Path) -> None:
    out = tmp_path / "rating"
    arguments = ["ladder", "greedy", "--rungs", "random,greedy", "--deals", "3", "--seed", "2"]
    first = runner.invoke(app, [*arguments, "--workers", "1", "--out", str(out)])
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, ["ladder", "--resume", str(out)])
    assert again.exit_code == 0, again.output
    assert again.stdout.strip().splitlines()[-1] == first.stdout.strip().splitlines()[-1]


def test_the_installed_command_lists_the_ladder() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tournament", "ladder"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Thousand, russian rules, tables of 3" in result.stdout
    assert "1000?, the standard rules, tables of 4" in result.stdout
    assert "ismcts(steps=1000)" in result.stdout
