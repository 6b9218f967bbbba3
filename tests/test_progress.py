"""What a tournament shows while it runs (the progress, the leader, the test) and the tables it
prints at the end, on a terminal and elsewhere."""

from __future__ import annotations

import io
import math
import re

import attrs
import pytest
from rich.console import Console
from typer.testing import CliRunner

from tests.test_stats import unit
from tournament.cli import app
from tournament.runner.display import print_standings, standings_lines
from tournament.runner.options import Options, configure
from tournament.runner.progress import LeaderTally, ProgressDisplay
from tournament.runner.schedule import Config, Entrant
from tournament.runner.sprt import Verdict
from tournament.runner.summary import summarize
from tournament.runner.unit_results import UnitResult

PROGRESS_LINE = re.compile(
    r"\d+% \d+/\d+ (deals|matches|games), \d+:\d\d elapsed(, [\d,]+ \w+/s)?(, ETA [\d:]+)?"
    r"(, leader .+)?(, SPRT .+)?"
)
"""The shape of a progress line written where the standard error is not a terminal."""


def without_progress(text: str) -> str:
    """``text`` without its progress lines."""
    return "".join(
        line for line in text.splitlines(keepends=True) if not PROGRESS_LINE.fullmatch(line[:-1])
    )


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def tiny(names: list[str], deals: int = 20) -> Config:
    return configure(Options(specs=tuple(names), deals=deals, seed=1))


def played(config: Config) -> list[UnitResult]:
    """Every unit of ``config`` as if played: entrant 0 scores 10 + the group number, the
    others -5."""
    return [
        unit(
            scheduled.name,
            scheduled.seating,
            [10 + scheduled.group if entrant == 0 else -5 for entrant in scheduled.seating],
            table=scheduled.table,
            group=scheduled.group,
        )
        for scheduled in config.units()
    ]


def test_the_leader_counts_complete_groups_once_each() -> None:
    """The leader's mean is over complete groups, each the mean of its units; the interval is
    1.96 standard deviations of those group means over √groups."""
    tally = LeaderTally(["a", "b"], group_size=2)
    assert tally.leader() is None
    tally.add([unit("g0s0", (0, 1), (10, -10)), unit("g1s0", (0, 1), (0, 0), group=1)])
    assert tally.leader() is None
    tally.add([unit("g0s1", (1, 0), (-20, 20))])
    first = tally.leader()
    assert first is not None
    assert (first.name, first.mean, first.half, first.groups) == ("a", 15.0, None, 1)
    tally.add([unit("g1s1", (1, 0), (-10, 10), group=1)])
    tally.add([unit("g2s0", (0, 1), (10, 0), group=2), unit("g2s1", (1, 0), (-10, 10), group=2)])
    leader = tally.leader()
    assert leader is not None
    assert (leader.name, leader.groups, leader.half) == ("a", 3, None)  # no interval before 4
    assert leader.mean == pytest.approx(10.0)  # group means 15, 5 and 10
    tally.add([unit("g3s0", (0, 1), (10, 0), group=3), unit("g3s1", (1, 0), (-10, 10), group=3)])
    leader = tally.leader()
    assert leader is not None
    assert (leader.name, leader.groups) == ("a", 4)
    assert leader.mean == pytest.approx(10.0)  # group means 15, 5, 10 and 10
    assert leader.half == pytest.approx(1.96 * math.sqrt(50 / 3) / 2)


def test_the_leader_has_no_interval_when_every_group_gave_it_one_mean() -> None:
    """Four groups that each gave the leader the same mean measure nothing: no ± 0.0."""
    tally = LeaderTally(["a", "b"], group_size=2)
    for group in range(4):
        tally.add(
            [
                unit(f"g{group}s0", (0, 1), (0, -5), group=group),
                unit(f"g{group}s1", (1, 0), (-5, 0), group=group),
            ]
        )
    leader = tally.leader()
    assert leader is not None
    assert (leader.name, leader.mean, leader.groups, leader.half) == ("a", 0.0, 4, None)


def test_a_pipe_gets_a_line_at_each_tenth() -> None:
    """Away from a terminal: the heading first, then one line at each tenth of the units with
    the rate, the time left and the leader with its interval; the test's standing once known."""
    config = tiny(["greedy", "random", "random"])
    results = played(config)
    stream = io.StringIO()
    shown = ProgressDisplay(stream, heading="seed 5 (play it again with --seed 5)")
    shown.follow(config)
    shown(0, len(results))
    for done in range(12, len(results) + 1, 12):
        shown.add(results[done - 12 : done])
        if done == 60:
            shown.show_verdict(Verdict(9, 1.234, None))
        shown(done, len(results))
    shown.stop()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "seed 5 (play it again with --seed 5)"
    assert len(lines) == 11
    assert all(PROGRESS_LINE.fullmatch(line) for line in lines[1:]), lines
    assert [line.split()[:2] for line in lines[1:3]] == [["10%", "12/120"], ["20%", "24/120"]]
    leader = r", [\d,]+ deals/s, ETA \d+:\d\d, leader greedy \+11\.5 ± 1\.3 score/deal$"
    assert re.search(leader, lines[2]), lines[2]
    assert lines[5].endswith(", SPRT 9 groups, LLR +1.23")
    assert lines[-1].startswith("100% 120/120 deals, ")
    assert "ETA" not in lines[-1]
    assert lines[-1].endswith(", leader greedy +19.5 ± 2.6 score/deal, SPRT 9 groups, LLR +1.23")


def test_a_pipe_gets_nothing_before_the_first_tenth() -> None:
    """Nothing is written before a tenth is done (and without a heading, not even that), and
    a run resumed past some tenths reports only the tenths it reaches."""
    stream = io.StringIO()
    shown = ProgressDisplay(stream)
    shown(0, 100)
    shown(9, 100)
    assert stream.getvalue() == ""
    resumed = ProgressDisplay(stream)
    resumed(45, 100)
    resumed(49, 100)
    assert stream.getvalue() == ""
    resumed(50, 100)
    assert stream.getvalue().startswith("50% 50/100 units, ")


def test_a_pipe_is_told_when_the_test_decides() -> None:
    """A sequential test's decision gets a line of its own, between the tenths."""
    stream = io.StringIO()
    shown = ProgressDisplay(stream)
    shown(0, 600)
    shown.show_verdict(Verdict(10, 1.5, None))
    shown(70, 600)
    shown.show_verdict(Verdict(16, 3.5, "H1"))
    shown(96, 600)
    lines = stream.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == ["11% 70/600 units", "16% 96/600 units"]
    assert lines[-1].endswith(", SPRT 16 groups, LLR +3.50, H1 accepted")


def test_the_terminal_display_shows_the_figures() -> None:
    """On a terminal: the bar, the units done, the time taken, the rate, the time left, the
    leader with its interval and the test's standing; stopped, it ends its line."""
    config = tiny(["greedy", "random", "random"])
    results = played(config)
    terminal = Terminal()
    shown = ProgressDisplay(terminal)
    shown.follow(config)
    shown(0, len(results))
    shown.add(results[:60])
    shown.show_verdict(Verdict(16, 3.5, "H1"))
    shown(60, len(results))
    page = io.StringIO()
    Console(file=page, force_terminal=True, width=200).print(shown)
    drawn = page.getvalue()
    assert "\x1b[" in drawn
    for figure in ("50% 60/120 deals", "elapsed", "deals/s", "ETA", "SPRT 16 groups, LLR +3.50"):
        assert figure in drawn
    assert "leader greedy +14.5 ± 1.9 score/deal" in drawn
    shown.stop()
    written = terminal.getvalue()
    assert "60/120 deals" in written
    assert written.removesuffix("\x1b[?25h").endswith("\n")  # then the cursor is shown again


def standings_of(names: list[str]) -> tuple[Config, list[str], str]:
    """The plain and the terminal standings of a tiny made-up tournament."""
    config = tiny(["greedy", "random", "random"], deals=2)
    config = attrs.evolve(config, entrants=tuple(Entrant(name, "random") for name in names))
    summary = summarize(played(config), names, format="deals", seed=1, resamples=20)
    terminal = Terminal()
    print_standings(config, summary, terminal)
    return config, standings_lines(config, summary), terminal.getvalue()


def test_names_are_shown_as_given_with_control_characters_as_question_marks() -> None:
    """A bot named with markup and control characters prints literally, with ? for each
    control character, on a terminal and elsewhere; plain output has no escape codes and no
    trailing blanks."""
    names = ["[bold red]loud[/]", "evil\x1b[2J\x07bot", "plain"]
    _, plain, styled = standings_of(names)
    text = "\n".join(plain)
    assert "\x1b" not in text
    assert "[bold red]loud[/]" in text
    assert "evil?[2J?bot" in text
    assert all(line == line.rstrip() for line in plain)
    assert "\x1b[" in styled
    assert "[bold red]loud[/]" in styled
    assert "evil?[2J?bot" in styled
    assert "\x1b[2J" not in styled
    assert "\x07" not in styled


def test_plain_standings_are_aligned_columns_never_wrapped() -> None:
    """Away from a terminal each table is columns two spaces apart, each row on one line
    however long the names."""
    long = "a-bot-with-a-name-far-longer-than-any-terminal-is-wide-" * 3
    _, plain, _ = standings_of([long, "random", "plain"])
    at = next(number for number, line in enumerate(plain) if line.startswith("rank  bot  "))
    rows = plain[at + 1 : at + 4]
    assert any(long in row for row in rows)
    column = plain[at].index("rating")
    for row in rows:
        assert re.match(r"\d+  ", row[column:]), row


def test_the_command_line_reports_progress_and_prints_plain_tables() -> None:
    """Through the command line with the outputs captured: progress lines on the standard
    error, plain standings on the standard output."""
    result = CliRunner().invoke(app, ["tournament", "--deals", "2", "--seed", "1", "-w", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines
    assert all(PROGRESS_LINE.fullmatch(line) for line in lines), lines
    assert lines[-1].startswith("100% 12/12 deals, ")
    assert "leader " in lines[-1]
    assert "\x1b" not in result.stdout
    assert result.stdout.startswith("Thousand, 3 bots, 1 table of 3, 2 deals per table")
