"""``thousand bots``, ``thousand match`` and ``thousand check-bot``, through typer's CliRunner and
as the installed program."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import thousand
from thousand import bluff
from tournament.cli import app

from .test_cli import installed_command

runner = CliRunner()
FLAKY = "tests/bots/python_bots.py:Flaky"
FLAKY_FILE = Path(__file__).parent / "bots" / "python_bots.py"
FLAKY_LINE = next(
    number
    for number, line in enumerate(FLAKY_FILE.read_text().splitlines(), 1)
    if "flaky bot tripped" in line
)
FLAKY_RAISE = f'File "{FLAKY_FILE}", line {FLAKY_LINE}, in act'
"""Where Flaky raises, as its traceback names it."""
EXAMPLE_BOT = f"cmd:{shlex.quote(sys.executable)} examples/external_bot.py"


def error_line(output: str) -> str:
    """The one line a failing command prints."""
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith("error: ")
    return lines[0]


def test_bots_lists_the_built_in_bots() -> None:
    """thousand bots names random and greedy as built-in, and the other spec forms."""
    result = runner.invoke(app, ["bots"])
    assert result.exit_code == 0
    rows = {line.split()[0]: line for line in result.output.splitlines()[1:] if line.strip()}
    assert "built-in" in rows["random"]
    assert "built-in" in rows["greedy"]
    assert "cmd:<command>" in result.output


def test_match_prints_every_action_and_the_standings(tmp_path: Path) -> None:
    """thousand match --deal prints the cards, one line per action and the standings, and
    --record saves a record that replays to the same deal."""
    saved = tmp_path / "deal.json"
    result = runner.invoke(
        app,
        ["match", "greedy", "random", "random", "--deal", "--seed", "3", "--record", str(saved)],
    )
    assert result.exit_code == 0, result.output
    record = thousand.Record.from_json(saved.read_text())
    (deal,) = record.deals
    lines = result.output.splitlines()
    assert lines[0] == "Deal 1, dealt by seat 0 (greedy)"
    for seat, action in deal.actions:
        assert f"  seat {seat} ({['greedy', 'random', 'random#2'][seat]}): {action}" in lines
    assert len([line for line in lines if "): " in line]) == len(deal.actions)
    assert "place  seat  player" in result.output
    final = thousand.replay(record)
    assert isinstance(final.result, thousand.DealResult)
    for score in final.result.deal_scores:
        assert str(score) in result.output
    assert f"record saved to {saved}" in result.output


def test_match_of_two_bots_plays_the_two_player_rules() -> None:
    """Two specs without --rules play the two-player Polish preset to the end of the match."""
    result = runner.invoke(app, ["match", "greedy", "random", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "musik 1:" in result.output
    assert "The match is won by" in result.output


def test_a_match_without_a_seed_draws_one_and_prints_it() -> None:
    """Without --seed the cards come from a seed drawn at random, named on the first line; the
    same match is played again with that seed."""
    first = runner.invoke(app, ["match", "greedy", "random", "random", "--deal"])
    assert first.exit_code == 0, first.output
    heading, _, log = first.output.partition("\n")
    seed = int(heading.split()[1])
    assert heading == f"seed {seed} (play it again with --seed {seed})"
    again = runner.invoke(
        app, ["match", "greedy", "random", "random", "--deal", "--seed", str(seed)]
    )
    assert again.output == log
    other = runner.invoke(app, ["match", "greedy", "random", "random", "--deal"])
    assert other.output.split()[1] != str(seed)


def test_match_of_1000() -> None:
    """--game bluff plays 1000? with as many seats as specs."""
    result = runner.invoke(app, ["match", "greedy", "random", "random", "random", "-g", "bluff"])
    assert result.exit_code == 0, result.output
    assert "seat 3 (random#3) holds" in result.output
    assert "The game is won by" in result.output


def test_match_reports_a_forfeit_and_its_fault() -> None:
    """A bot that raises forfeits by default: the match still prints, with the fault."""
    result = runner.invoke(app, ["match", FLAKY, "random", "random"])
    assert result.exit_code == 0, result.output
    assert f"{FLAKY} forfeited the match." in result.output
    assert "fault:" in result.output
    assert "raised" in result.output


def shows_flakys_traceback(lines: list[str], indent: str = "") -> None:
    """The lines are Flaky's traceback, from its own frame to its raise."""
    assert lines == [
        f"{indent}Traceback (most recent call last):",
        f"{indent}  {FLAKY_RAISE}",
        f'{indent}    raise self.error("flaky bot tripped")',
        f"{indent}RuntimeError: flaky bot tripped",
    ]


def test_match_with_raise_policy_shows_the_traceback_and_stops_with_one_line() -> None:
    """--on-fault raise shows the bot's traceback, the file and line of its raise, then stops
    with a one-line error."""
    result = runner.invoke(app, ["match", FLAKY, "random", "random", "--on-fault", "raise"])
    assert result.exit_code == 2
    *traceback, last = result.stderr.splitlines()
    assert "a bot failed" in error_line(last)
    shows_flakys_traceback(traceback)


@pytest.mark.slow
def test_installed_program_shows_an_isolated_bots_traceback() -> None:
    """The real program, the bot isolated in a process of its own: the traceback it sent is
    shown before the one-line error."""
    arguments = ["match", FLAKY, "random", "random", "--on-fault", "raise", "--isolate=process"]
    played = subprocess.run(
        [*installed_command(), *arguments], capture_output=True, text=True, timeout=120
    )
    assert played.returncode == 2
    *traceback, last = played.stderr.splitlines()
    assert last.startswith("error: a bot failed and --on-fault raise stops the match: ")
    shows_flakys_traceback(traceback)


def test_a_tournament_stopped_by_a_fault_names_where_the_bot_raised() -> None:
    """A tournament under --on-fault raise stops with one line naming the unit, the bot, the
    error and the file and line of its raise."""
    arguments = ["tournament", FLAKY, "random", "random", "--deals", "2", "--on-fault", "raise"]
    result = runner.invoke(app, [*arguments, "--workers", "1", "--no-isolate"])
    assert result.exit_code == 2
    line = error_line(result.stderr.splitlines()[-1])
    place = f"{FLAKY_FILE}, line {FLAKY_LINE}, in act"
    assert line.endswith(f"raised RuntimeError: flaky bot tripped (at {place})")


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["match", "nosuch", "random", "random"], "no bot named 'nosuch'"),
        (["match", "greedy", "random", "random", "--rules", "polish-2p"], "played by 2 players"),
        (["match", "greedy", "random", "--game", "chess"], "--game must be thousand or bluff"),
        (["match", "greedy", "random", "--game", "bluff", "--rules", "nofile.json"], "nofile"),
        (["match", "greedy", "random", "random", "--game", "bluff", "--deal"], "single_deal"),
        (["match", "missing.py:Bot", "random", "random"], "no file missing.py"),
        (["check-bot", "nosuch"], "no bot named 'nosuch'"),
        (["check-bot", "random", "--game", "chess"], "--game must be thousand or bluff"),
        (["check-bot", "cmd:"], "no command after 'cmd:'"),
    ],
)
def test_bad_arguments_give_one_line(arguments: list[str], expected: str) -> None:
    """Unknown bots, games, rules and mismatched tables give a one-line error and status 2."""
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert expected in error_line(result.output)


def test_check_bot_passes_a_sound_bot() -> None:
    """check-bot plays the requested decisions in both games and exits 0 without faults."""
    result = runner.invoke(app, ["check-bot", "greedy", "--decisions", "40"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("thousand: ")
    assert lines[0].endswith(", 0 faults")
    assert lines[1].startswith("1000?: ")
    assert lines[-1] == "greedy: no faults"
    decisions = int(lines[0].split()[1])
    assert decisions >= 40


def test_check_bot_reports_each_fault_with_what_the_bot_saw() -> None:
    """A bot that raises at its third decision of each match: check-bot lists every fault with
    the observation it was shown, as JSON, and exits 1."""
    result = runner.invoke(app, ["check-bot", FLAKY, "-n", "30", "--game", "thousand"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    faults = [line for line in lines if line.startswith("  error at decision")]
    shown = [line for line in lines if line.startswith("    it was shown: ")]
    assert faults
    assert len(shown) == len(faults)
    observation = thousand.Observation.from_dict(
        json.loads(shown[0].removeprefix("    it was shown: ")), thousand.Rules.preset("russian")
    )
    assert observation.legal_actions
    assert f"{len(faults)} fault" in lines[0]


@pytest.mark.parametrize("isolate", [False, True])
def test_check_bot_shows_the_traceback_of_a_bot_that_raises(isolate: bool) -> None:
    """Under its first fault check-bot shows the bot's traceback, the file and line of its
    raise; under each later fault with the same traceback, a line that says so."""
    arguments = ["check-bot", FLAKY, "-n", "30", "--game", "thousand"]
    result = runner.invoke(app, arguments + ["--isolate=process"] * isolate)
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("  error at decision")))
    shows_flakys_traceback(lines[first + 1 : first + 5], "    ")
    assert lines[first + 5].startswith("    it was shown: ")
    later = [line for line in lines[first + 5 :] if line.startswith("  error at decision")]
    assert later
    assert lines.count("    with the same traceback as above") == len(later)


def test_check_bot_in_1000_only() -> None:
    """--game bluff checks the bot in 1000? alone."""
    result = runner.invoke(app, ["check-bot", "random", "-n", "20", "-g", "bluff"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("1000?: ")
    assert "thousand:" not in result.output


@pytest.mark.slow
def test_installed_program_checks_an_external_bot() -> None:
    """The real thousand program checks the standard-library example bot and lists the bots."""
    command = installed_command()
    checked = subprocess.run(
        [*command, "check-bot", EXAMPLE_BOT, "-n", "40"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip().endswith(": no faults")
    listed = subprocess.run(
        [*command, "bots"], capture_output=True, text=True, timeout=60, check=False
    )
    assert listed.returncode == 0
    assert "greedy" in listed.stdout


@pytest.mark.slow
def test_installed_program_plays_a_match_and_fails_in_one_line() -> None:
    """The real thousand program plays a 1000? match, and refuses a bad spec in one line."""
    command = installed_command()
    played = subprocess.run(
        [*command, "match", "greedy", "random", "-g", "bluff", "--seed", "4"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert played.returncode == 0, played.stderr
    outcome = thousand.play(["greedy", "random"], bluff.Rules(players=2), seed=4)
    (winner,) = outcome.winners
    assert f"The game is won by seat {winner} ({outcome.players[winner]})" in played.stdout
    refused = subprocess.run(
        [*command, "match", "nosuch.py:Bot", "random", "random"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2
    assert refused.stderr.strip() == "error: bot spec 'nosuch.py:Bot': no file nosuch.py"
    assert "Traceback" not in refused.stderr


def test_check_bot_keeps_to_the_games_a_bot_declares() -> None:
    """A bot whose games attribute names Thousand only is checked in Thousand only."""
    result = runner.invoke(app, ["check-bot", "tests/bots/python_bots.py:ThousandOnly", "-n", "20"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("thousand: ")
    assert "1000?" not in result.output


@pytest.mark.slow
def test_isolated_spec_is_not_run_in_the_driver(tmp_path: Path) -> None:
    """With isolation, a bot file is only looked for, not run, in the driver's process: code
    that would fail on import here fails in the bot's own process, as a fault."""
    bot = tmp_path / "bot.py"
    bot.write_text("raise SystemExit('a bot that leaves when imported')\n")
    factory = thousand.load_player(f"{bot}:Bot", isolate="process")
    assert callable(factory)
    outcome = thousand.play(
        [f"{bot}:Bot", "random", "random"], thousand.Rules.preset("russian"), seed=1,
        single_deal=True, isolate="process",
    )  # fmt: skip
    assert outcome.statuses[0] is thousand.Status.ERROR
    assert outcome.forfeited == 0
    with pytest.raises(thousand.BotSpecError, match="a bot that leaves when imported"):
        thousand.load_player(f"{bot}:Bot")
