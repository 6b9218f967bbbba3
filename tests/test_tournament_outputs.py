"""What a tournament shows and writes, read as a newcomer reads it: a dash and a reason where no
interval exists (never ``± 0``), the rating scale and the bot that fixes it, names that cannot
drive a terminal in any file, and an absurd ``--anchor`` refused before anything is played."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.test_cli import run_installed
from tests.test_stats import unit
from tests.test_tournament import table_of
from thousand import bluff
from tournament.cli import app
from tournament.runner.display import standings_lines
from tournament.runner.schedule import Config, entrants_of
from tournament.runner.summary import summarize

runner = CliRunner()

FOUR = ["--game", "bluff", "greedy", "random", "random", "random", "--seed", "1"]
"""1000? at one table of four: 24 seatings a group, so the default 48 games are two groups."""
TOO_FEW = (
    "No 95% intervals (-): an interval needs at least 4 groups of games (a set of cards played "
    "under every seating at one table), and these figures count 2; --games 96 gives them."
)
TITLE = "\x1b]0;PWNED\x07"
"""The escape sequence that retitles a terminal."""
LABELLED = f"tests/bots/python_bots.py:Labelled(label={TITLE})"
SHOWN = "tests/bots/python_bots.py:Labelled(label=?]0;PWNED?)"
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
"""Every control character but the line break."""


def test_too_few_groups_show_a_dash_and_say_how_many_would_give_intervals(
    tmp_path: Path,
) -> None:
    """Two groups give no interval: each ± is a dash (the anchored bot's rating is fixed), the
    line under the table says why and which option gives intervals, the JSON has no interval
    and the CSV empty cells; the option it names does give them."""
    out = tmp_path / "out"
    result = runner.invoke(app, ["tournament", *FOUR, "--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    header, rows = table_of(result.stdout)
    assert header[:7] == ["rank", "bot", "rating", "±", "ladder", "score/game", "±"]
    for row in rows:
        assert row[3] == ("fixed" if row[1] == "greedy" else "-")
        assert row[6] == "-"
    assert TOO_FEW in result.stdout.splitlines()
    document = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert document["groups"] == 2
    for entry in document["standings"]:
        assert entry["score_interval"] is None
        fixed = [entry["rating"]] * 2 if entry["name"] == "greedy" else None
        assert entry["rating_interval"] == fixed
    standings = list(csv.DictReader(io.StringIO((out / "standings.csv").read_text())))
    for entry in standings:
        assert (entry["score_low"], entry["score_high"]) == ("", "")
        if entry["bot"] != "greedy":
            assert (entry["rating_low"], entry["rating_high"]) == ("", "")
    enough = runner.invoke(app, ["tournament", *FOUR, "--games", "96"])
    assert enough.exit_code == 0, enough.output
    _, rows = table_of(enough.stdout)
    assert all(float(row[6]) >= 0 for row in rows)
    assert all(float(row[3]) > 0 for row in rows if row[1] != "greedy")
    assert "No 95% intervals" not in enough.stdout


def test_the_real_program_shows_a_dash_where_no_interval_exists() -> None:
    result = run_installed("tournament", "--deals", "2", "--seed", "3")
    assert result.returncode == 0, result.stderr
    _, rows = table_of(result.stdout)
    assert [row[3] for row in rows] == ["fixed", "-", "-"]
    assert (
        "No 95% intervals (-): an interval needs at least 4 groups of deals (a deal played under "
        "every seating at one table), and these figures count 2; --deals 4 gives them."
    ) in result.stdout.splitlines()


def test_a_rating_on_the_ladder_without_an_interval_says_so() -> None:
    """A gauntlet of three deal groups places the bot on the ladder without an interval of 0."""
    arguments = ["ladder", "greedy", "--rungs", "random,greedy", "--deals", "3", "--seed", "2"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any(line.startswith("No 95% intervals (-): ") for line in lines)
    assert lines[-1].startswith("greedy rates ")
    assert "(no 95% interval, as the line under the standings says) on the reference" in lines[-1]


def test_a_figure_the_resamples_all_agree_on_shows_a_dash_and_why() -> None:
    """A bot that wins every game of six groups alike: its rating and both scores have no
    interval; the dash is explained in one line, and no ± reads 0."""
    config = Config(
        game="bluff",
        rules=bluff.Rules(players=2).to_dict(),
        entrants=entrants_of(["strong", "weak"]),
        players=2,
        format="games",
        per_table=12,
        seed=1,
    )
    results = [
        unit(f"g{group}-{turn}", seating, scores, group=group)
        for group in range(6)
        for turn, (seating, scores) in enumerate([((0, 1), (0, -5)), ((1, 0), (-5, 0))])
    ]
    summary = summarize(results, ["strong", "weak"], format="games", seed=1, resamples=40)
    lines = standings_lines(config, summary)
    _, rows = table_of("\n".join(lines))
    assert [(row[3], row[5]) for row in rows] == [("-", "-"), ("-", "-")]
    assert (
        "A dash in place of an interval: every resample of the groups gave that figure the same "
        "value (each group ended the same way for it), so its luck is not measured."
    ) in lines


def assert_harmless(text: str) -> None:
    assert not CONTROL.search(text), repr(CONTROL.search(text))


def test_control_characters_in_a_name_reach_no_file_raw(tmp_path: Path) -> None:
    """A bot whose spec holds an escape sequence: the standings, the CSV files and the report
    show each control character as ?, and summary.json keeps the name exactly (escaped)."""
    out = tmp_path / "out"
    arguments = ["tournament", LABELLED, "random", "greedy", "--deals", "4", "--seed", "1"]
    result = runner.invoke(app, [*arguments, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert_harmless(result.stdout)
    assert SHOWN in result.stdout
    for name in ("standings.csv", "crosstable.csv", "report.html"):
        text = (out / name).read_text(encoding="utf-8")
        assert_harmless(text)
        assert SHOWN in text, name
    for name in ("summary.json", "config.json", "journal.jsonl"):
        assert_harmless((out / name).read_text(encoding="utf-8"))
    document = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert LABELLED in document["entrants"]
    rows = list(csv.reader(io.StringIO((out / "crosstable.csv").read_text(encoding="utf-8"))))
    assert rows[0][1] == rows[1][0] == SHOWN


def test_the_real_program_writes_names_without_their_escapes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_installed(
        "tournament", LABELLED, "random", "random", "--deals", "2", "--seed", "2", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert_harmless(result.stdout + result.stderr)
    for name in ("standings.csv", "crosstable.csv", "report.html"):
        text = (out / name).read_text(encoding="utf-8")
        assert_harmless(text)
        assert SHOWN in text, name


def test_picture_labels_show_control_characters_as_question_marks() -> None:
    from tournament.runner.plots import _label

    assert _label(f"a{TITLE}") == "a?]0;PWNED?"


ABSURD = ["greedy=1e308", "greedy=-1e308", "greedy=-20000"]


@pytest.mark.parametrize("anchor", ABSURD)
def test_an_absurd_anchor_is_one_line_before_anything_is_played(
    tmp_path: Path, anchor: str
) -> None:
    out = tmp_path / "out"
    arguments = ["tournament", "--deals", "4000", "--anchor", anchor, "--out", str(out)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert result.output == (
        f"error: --anchor {anchor}: an anchored rating must be a number from -10000 to 10000\n"
    )
    assert not out.exists()


def test_the_anchor_range_ends_at_ten_thousand_either_way() -> None:
    for anchor, rating in (("random=10000", 10_000.0), ("random=-10000", -10_000.0)):
        arguments = ["--deals", "4", "--seed", "1", "--anchor", anchor, "--json"]
        result = runner.invoke(app, ["tournament", *arguments])
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        ratings = {entry["name"]: entry["rating"] for entry in document["standings"]}
        assert ratings["random"] == rating
        assert len(set(ratings.values())) == 3
    refused = runner.invoke(app, ["tournament", "--deals", "4", "--anchor", "random=10000.5"])
    assert refused.exit_code == 2
    assert refused.output.startswith("error: --anchor random=10000.5: an anchored rating must")


def test_the_real_program_refuses_an_absurd_anchor_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_installed("tournament", "--anchor", "greedy=1e308", "--out", str(out))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "error: --anchor greedy=1e308: an anchored rating must be a number from -10000 to 10000\n"
    )
    assert not out.exists()


def test_a_report_with_an_absurd_anchor_kept_is_one_line(tmp_path: Path) -> None:
    """summary.json edited to hold an absurd anchor: `thousand report` answers in one line
    that names the anchor, where it once failed deep in the pictures."""
    out = tmp_path / "out"
    arguments = ["tournament", "--deals", "4", "--seed", "1", "--no-report"]
    done = runner.invoke(app, [*arguments, "--out", str(out)])
    assert done.exit_code == 0, done.output
    summary = out / "summary.json"
    document = json.loads(summary.read_text(encoding="utf-8"))
    document["anchor"] = {"greedy": 1e308}
    summary.write_text(json.dumps(document), encoding="utf-8")
    result = run_installed("report", str(out))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: ")
    assert "anchor" in result.stderr
    assert "Traceback" not in result.stderr
