"""The command line's messages: each mistake told in one line that names it once, through typer's
CliRunner and through the installed program; help without placeholders or broken words."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tests.test_cli import run_installed
from tournament.cli import app

runner = CliRunner()

BOTS = textwrap.dedent(
    """
    import random

    class Bot:
        def __init__(self, depth=1, style="plain"):
            self.depth = depth

        def act(self, observation):
            return random.choice(observation.legal_actions())

    class Boom:
        def __init__(self, x=1):
            raise RuntimeError("boom in the constructor")

        def act(self, observation):
            return observation.legal_actions()[0]
    """
)


@pytest.fixture
def bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bot file, ``mybot.py``, in the folder the commands run in."""
    (tmp_path / "mybot.py").write_text(BOTS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def one_error_line(output: str, code: int, expected_code: int = 2) -> str:
    """The single line of ``output``, checked to be an error line with the exit status."""
    assert code == expected_code, output
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith("error: "), output
    assert "Traceback" not in output
    return lines[0]


# Usage errors --------------------------------------------------------------------------------

USAGE_ERRORS = [
    (["frobnicate"], "error: no such command 'frobnicate'; see thousand --help"),
    (["--bogus"], "error: no such option: --bogus"),
    (["tournament", "--bogus"], "error: no such option: --bogus"),
    (["match"], "error: missing argument 'SPEC'; see thousand match --help"),
    (["replay"], "error: missing argument 'RECORD'; see thousand replay --help"),
    (
        ["match", "random", "random", "random", "--on-fault", "never"],
        "error: invalid value for '--on-fault'",
    ),
    (["check-bot", "random", "--decisions", "0"], "error: invalid value for '--decisions'"),
    (["match", "random", "random", "--seed", "x"], "error: invalid value for '--seed'"),
]


@pytest.mark.parametrize(("arguments", "start"), USAGE_ERRORS)
def test_usage_errors_are_one_line(arguments: list[str], start: str) -> None:
    """An unknown command or option, a bad choice or number, a missing argument: one line like
    the project's own errors, exit status 2, no box."""
    result = runner.invoke(app, arguments)
    line = one_error_line(result.output, result.exit_code)
    assert line.startswith(start), line
    assert not re.search("[╭╮╰╯│]", result.output)
    bare = runner.invoke(app, [])  # while thousand alone still shows the help
    assert "Usage: thousand" in bare.output
    assert "error" not in bare.output


@pytest.mark.parametrize(("arguments", "start"), USAGE_ERRORS[:4:3])
def test_the_real_program_gives_usage_errors_in_one_line(arguments: list[str], start: str) -> None:
    done = run_installed(*arguments)
    assert done.stdout == ""
    assert one_error_line(done.stderr, done.returncode).startswith(start)


# Help ----------------------------------------------------------------------------------------


def command_names() -> list[str]:
    return list(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", [[], *([name] for name in command_names())])
def test_help_shows_no_placeholder_for_a_flag(command: list[str]) -> None:
    """--version, --help, --json, --deal...: a flag takes no value, and its help shows none;
    nor does any other option or argument show a typed placeholder such as <str> or <path>."""
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    assert re.findall(r"<[a-z][^>]*>", result.output) == []
    assert "--help" in result.output


def metavars(command: Any) -> list[str]:
    """What the help shows after each option of ``command`` that takes a value."""
    shown = []
    for param in command.params:
        if getattr(param, "is_flag", False) or param.param_type_name != "option":
            continue
        shown.append(param.metavar or param.display_type_rich(None))
    return [text for text in shown if text]


def test_help_at_80_columns_breaks_no_word() -> None:
    """At 80 columns every option's value (a choice list such as [local|ray] included) is shown
    whole on one line, never cut in the middle, in the help of every command."""
    for name in command_names():
        group = typer.main.get_command(app)
        # As the help shows it: the command as the group hands it out, placeholders settled.
        command = group.get_command(typer.Context(group), name)  # type: ignore[attr-defined]
        result = runner.invoke(app, [name, "--help"], env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.output
        for metavar in metavars(command):
            assert metavar in result.output, (name, metavar, result.output)


def test_the_real_programs_help_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    done = run_installed("tournament", "--help")
    assert done.returncode == 0
    assert "<bool>" not in done.stdout
    assert all(len(line) <= 80 for line in done.stdout.splitlines())
    for metavar in ("GAME", "POLICY", "ANCHOR", "[local|ray]"):
        assert metavar in done.stdout
    assert "[thousand|bluff|100" not in done.stdout


# Bot specs -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (
            "pimc(depth=3)",
            "error: bot spec 'pimc(depth=3)': pimc has no option 'depth'; its options are "
            "steps, deal_steps, seconds, deal_seconds, bidding, worlds",
        ),
        ("random(depth=3)", "error: bot spec 'random(depth=3)': random takes no options"),
        (
            "mybot.py:Bot(dept=3)",
            "error: bot spec 'mybot.py:Bot(dept=3)': mybot.py:Bot has no option 'dept'; "
            "its options are depth, style",
        ),
    ],
)
@pytest.mark.parametrize("command", ["match", "tournament"])
def test_a_bad_option_lists_the_options_the_bot_takes(
    bots: Path, spec: str, expected: str, command: str
) -> None:
    """Built-in and user bots alike: the options come from the bot's constructor; a tournament
    (whose user bots run isolated) says the same as a match."""
    arguments = [command, spec, "random", "random"]
    arguments += ["--deal"] if command == "match" else ["--deals", "2", "--isolate=process"]
    result = runner.invoke(app, arguments)
    assert one_error_line(result.output, result.exit_code) == expected


def test_the_real_program_lists_a_bots_options(bots: Path) -> None:
    done = run_installed(
        "tournament",
        "mybot.py:Bot(dept=3)",
        "random",
        "random",
        "--deals",
        "2",
        "--isolate=process",
    )
    line = one_error_line(done.stderr, done.returncode)
    assert line.endswith("mybot.py:Bot has no option 'dept'; its options are depth, style")


def test_a_spec_naming_nothing_names_it_once(bots: Path) -> None:
    """A file without the class named is one line naming the spec once; an isolated bot loads in
    its own process, where this is its seat's fault (as any failure to load is), named once."""
    for arguments in [
        ["tournament", "mybot.py:NoSuch", "random", "random", "--deals", "2", "--isolate=process"],
        ["match", "mybot.py:NoSuch", "random", "random", "--deal"],
        ["check-bot", "mybot.py:NoSuch"],
    ]:
        result = runner.invoke(app, arguments)
        line = one_error_line(result.output, result.exit_code)
        assert line == "error: bot spec 'mybot.py:NoSuch': mybot.py has no 'NoSuch'", arguments
    played = runner.invoke(
        app, ["match", "mybot.py:NoSuch", "random", "random", "--isolate=process"]
    )
    assert played.exit_code == 0, played.output
    assert played.output.splitlines()[-1] == (
        "fault: mybot.py:NoSuch, seat 0 (error) at decision 0: failed to start: "
        "mybot.py has no 'NoSuch'"
    )
    checked = runner.invoke(
        app, ["check-bot", "mybot.py:NoSuch", "--isolate=process", "-g", "thousand"]
    )
    assert checked.exit_code == 1, checked.output
    report = [line for line in checked.output.splitlines() if not line.startswith("bot logs: ")]
    assert report[:2] == [
        "thousand: 0 decisions in 1 deal, 1 fault",
        "  error at decision 0: failed to start: mybot.py has no 'NoSuch'",
    ]


def test_the_real_program_names_a_missing_class_once(bots: Path) -> None:
    done = run_installed(
        "tournament", "mybot.py:NoSuch", "random", "random", "--deals", "2", "--isolate=process"
    )
    line = one_error_line(done.stderr, done.returncode)
    assert line == "error: bot spec 'mybot.py:NoSuch': mybot.py has no 'NoSuch'"


def test_a_raising_constructor_is_the_bots_fault_with_options_as_without(bots: Path) -> None:
    """With options or without, the bot forfeits the match with a fault naming what it raised,
    and no traceback; a tournament refuses it before play in one line."""
    for spec in ["mybot.py:Boom(x=2)", "mybot.py:Boom"]:
        played = runner.invoke(app, ["match", spec, "random", "random", "--deal", "--seed", "1"])
        assert played.exit_code == 0, played.output
        assert "Traceback" not in played.output
        assert (
            f"fault: {spec}, seat 0 (error) at decision 0: failed to start: raised RuntimeError: "
            "boom in the constructor"
        ) in played.output
        ranked = runner.invoke(
            app, ["tournament", spec, "random", "random", "--deals", "2", "--isolate=process"]
        )
        assert one_error_line(ranked.output, ranked.exit_code) == (
            f"error: bot '{spec}' cannot start: raised RuntimeError: boom in the constructor"
        )


def test_the_real_program_plays_a_raising_constructor_with_options_as_a_fault(bots: Path) -> None:
    done = run_installed("match", "mybot.py:Boom(x=2)", "random", "random", "--deal")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "failed to start: raised RuntimeError: boom in the constructor" in done.stdout


@pytest.mark.parametrize("spec", ["mybot.py:Boom(x=2)", "mybot.py:Boom"])
def test_check_bot_reports_a_raising_constructor_as_faults(bots: Path, spec: str) -> None:
    result = runner.invoke(app, ["check-bot", spec, "--decisions", "5"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    # The only traceback shown is the bot's own, for its author: none of the command's frames.
    assert 'mybot.py", line' in result.output
    assert "cli.py" not in result.output
    assert lines[0] == "thousand: 0 decisions in 1 deal, 1 fault"
    assert "failed to start: raised RuntimeError: boom in the constructor" in lines[1]


# Files that are not there --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["tournament", "--rules", "nope.json"], "error: nope.json: no such file"),
        (
            ["match", "random", "random", "random", "--rules", "nope.json"],
            "error: nope.json: no such file",
        ),
        (["rules", "nope.json"], "error: nope.json: no such file"),
        (["rules", "rules/house.json"], "error: rules/house.json: no such file"),
        (["train-bidding", "--rules", "nope.json"], "error: nope.json: no such file"),
        (
            ["match", *["random"] * 4, "--game", "bluff", "--rules", "nope.json"],
            "error: nope.json: no such file",
        ),
        (["tournament", "--rules", "."], "error: . is a folder, not a rules JSON file"),
        (["tournament", "--resume", "no-such-folder"], "error: no-such-folder: no such folder"),
    ],
)
def test_a_missing_file_says_so(bots: Path, arguments: list[str], expected: str) -> None:
    result = runner.invoke(app, arguments)
    assert one_error_line(result.output, result.exit_code).startswith(expected)


def test_the_real_program_says_a_rules_file_is_missing(tmp_path: Path) -> None:
    done = run_installed("tournament", "--rules", "nope.json", cwd=tmp_path)
    assert one_error_line(done.stderr, done.returncode) == "error: nope.json: no such file"


# check-bot's counts --------------------------------------------------------------------------


def test_check_bot_counts_deals_and_games() -> None:
    """Thousand is checked on single deals and 1000? on whole games, and check-bot says so."""
    result = runner.invoke(app, ["check-bot", "random", "--decisions", "40"])
    assert result.exit_code == 0, result.output
    first, second, last = result.output.splitlines()
    assert re.fullmatch(r"thousand: \d+ decisions in \d+ deals, 0 faults", first), first
    assert re.fullmatch(r"1000\?: \d+ decisions in \d+ games?, 0 faults", second), second
    assert "match" not in result.output
    assert last == "random: no faults"


def test_the_real_check_bot_counts_deals() -> None:
    done = run_installed("check-bot", "random", "--decisions", "20", "--game", "thousand")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(
        r"thousand: \d+ decisions in \d+ deals, 0 faults", done.stdout.split("\n")[0]
    )


# The docs ------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_the_docs_install_extras_from_a_checkout() -> None:
    """The project is installed from its checkout: every extra is named after '.', as ".[rl]",
    and the install page says what the editable install needs."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"""pip install +["']?thousand\[""", text), page
        for line in re.findall(r"^(?:python -m )?pip install .*$", text, re.MULTILINE):
            assert line.startswith("python -m pip install "), (page, line)
    install = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "pip 21.3 or newer" in install
    assert "setuptools 64 or newer" in install
    assert "python -m pip install --upgrade pip" in install
