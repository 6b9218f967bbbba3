"""The ``thousand`` command line, through typer's CliRunner and as the installed program."""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

import thousand
from thousand import Rules, bluff
from tournament.cli import app
from tournament.runner.display import about_line
from tournament.runner.options import Options, configure

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_help_lists_the_commands() -> None:
    """thousand --help names the rules and tournament commands."""
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "rules" in result.output
    assert "tournament" in result.output


def test_one_version() -> None:
    """``thousand --version``, ``thousand.__version__`` and the installed package's metadata
    give the same version, which pyproject.toml takes from ``thousand.__version__``."""
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    installed = importlib.metadata.version("thousand")
    assert result.stdout == f"thousand {thousand.__version__}\n"
    assert installed == thousand.__version__, (
        f"the installed metadata says {installed}, thousand.__version__ {thousand.__version__}: "
        "install the checkout again (python -m pip install -e .)"
    )
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "thousand.__version__"}


def sections(output: str) -> list[list[str]]:
    """The blocks of lines that a blank line separates."""
    return [block.splitlines() for block in output.strip("\n").split("\n\n")]


def test_rules_lists_every_preset_and_field() -> None:
    """thousand rules prints a table with a column per preset and a row per field."""
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    thousand_table = sections(result.output)[0]
    header = thousand_table[0].split()
    assert header == ["field", "russian", "polish", "polish-2p", "russian-4", "polish-4"]
    rows = {line.split()[0]: line.split()[1:] for line in thousand_table[1:]}
    assert rows["players"] == ["3", "3", "2", "4", "4"]
    assert rows["bid_step"] == ["5", "10", "10", "5", "10"]
    assert rows["endgame"] == ["barrel", "lock", "lock", "barrel", "lock"]
    assert set(rows) == {field.name for field in attrs.fields(Rules)}
    assert rows["sitter"] == ["dealer", "dealer", "dealer", "right_of_dealer", "dealer"]
    assert rows["sitter_bonus"] == ["0", "0", "0", "40", "50"]
    assert rows["samosval"] == ["none"] * 5


def test_rules_shows_a_rules_file_with_its_house_rules(tmp_path: Path) -> None:
    """thousand rules FILE shows every field of the file's rules, the house rules as set."""
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"preset": "russian-4", "bolts": 3, "samosval": "both"}))
    result = runner.invoke(app, ["rules", str(path)])
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split()[1:] for line in result.output.splitlines()[1:]}
    assert rows["players"] == ["4"]
    assert rows["sitter"] == ["right_of_dealer"]
    assert rows["bolts"] == ["3"]
    assert rows["samosval"] == ["both"]
    assert rows["barrel_reset_falls"] == ["0"]


def bluff_rows(lines: list[str]) -> dict[str, str]:
    """The field and value of each row of a 1000? section (after its title and header)."""
    assert lines[0] == "1000?"
    assert lines[1].split() == ["field", "default"]
    return {line.split(maxsplit=1)[0]: line.split(maxsplit=1)[1] for line in lines[2:]}


def test_rules_lists_the_1000_rules_after_the_presets() -> None:
    """thousand rules ends with a 1000? section: every settable field and its default, the
    deck summarised."""
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    blocks = sections(result.output)
    assert len(blocks) == 2
    rows = bluff_rows(blocks[1])
    settable = [field.name for field in attrs.fields(bluff.Rules) if field.init]
    assert list(rows) == settable
    assert "kinds" not in rows
    assert rows["deck"] == "01-50 and 6 x 1000 (56 cards)"
    defaults = bluff.Rules().to_dict()
    for name in settable:
        if name != "deck":
            assert rows[name] == str(defaults[name])
    assert rows["challenge_restart"] == "drawn_card"
    assert rows["max_turns"] == "2000"


def test_rules_1000_shows_only_the_1000_rules() -> None:
    """thousand rules 1000? prints the 1000? section alone."""
    result = runner.invoke(app, ["rules", "1000?"])
    assert result.exit_code == 0, result.output
    blocks = sections(result.output)
    assert len(blocks) == 1
    assert bluff_rows(blocks[0])["players"] == "4"
    assert "russian" not in result.output


def test_rules_1000_json() -> None:
    """thousand rules 1000? --json prints the 1000? defaults as JSON that reads back."""
    result = runner.invoke(app, ["rules", "1000?", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data == {"1000?": bluff.Rules().to_dict()}
    assert bluff.Rules.from_dict(data["1000?"]) == bluff.Rules()


def test_rules_json_lists_every_preset_and_the_1000_rules() -> None:
    """thousand rules --json holds each preset and the 1000? rules."""
    result = runner.invoke(app, ["rules", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert list(data) == [*Rules.preset_names(), "1000?"]
    assert Rules.from_dict(data["russian"]) == Rules.preset("russian")
    assert bluff.Rules.from_dict(data["1000?"]) == bluff.Rules()


def test_a_preset_alone_has_no_1000_section() -> None:
    """thousand rules polish shows the Polish preset only."""
    result = runner.invoke(app, ["rules", "polish"])
    assert result.exit_code == 0
    assert "1000?" not in result.output
    assert result.output.splitlines()[0].split() == ["field", "polish"]


def test_rules_json_for_one_preset() -> None:
    """thousand rules polish --json prints that preset's fields as JSON."""
    result = runner.invoke(app, ["rules", "polish", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert Rules.from_dict(data["polish"]) == Rules.preset("polish")


def test_tournament_is_reproducible() -> None:
    """thousand tournament with the same seed prints the same standings, whatever the workers."""
    arguments = ["tournament", "greedy", "random", "--rules", "polish-2p", "--deals", "5"]
    first = runner.invoke(app, [*arguments, "--seed", "4", "--workers", "1"])
    second = runner.invoke(app, [*arguments, "--seed", "4", "--workers", "2"])
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert lines[0].startswith("Thousand, 2 bots, 1 table of 2, 5 deals per table")
    assert lines[2].split()[:4] == ["rank", "bot", "rating", "±"]


def test_tournament_reads_a_rules_file(tmp_path: Path) -> None:
    """--rules accepts a JSON file of fields on top of a preset."""
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"preset": "polish", "target": 600, "lock_threshold": 500}))
    result = runner.invoke(app, ["tournament", "--rules", str(path), "--deals", "2"])
    assert result.exit_code == 0, result.output
    assert "rank  bot" in result.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["tournament", "--rules", "czech"], "neither a preset"),
        (["rules", "nope"], "neither a preset"),
        (["rules", "1000"], "'1000?' nor a rules JSON file"),
    ],
)
def test_bad_input_gives_a_one_line_error(arguments: list[str], message: str) -> None:
    """Unknown presets give one error line and exit code 2, never a traceback."""
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert message in result.output
    assert result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_malformed_rules_file_gives_a_one_line_error(tmp_path: Path) -> None:
    """A rules file with an unknown field is reported in one line naming the file."""
    path = tmp_path / "bad.json"
    path.write_text('{"bid_stepp": 5}')
    result = runner.invoke(app, ["tournament", "--rules", str(path)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert "unknown rules field(s): bid_stepp" in result.output


def installed_command() -> list[str]:
    found = shutil.which("thousand", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "tournament"]


def run_installed(
    *arguments: str, cwd: Path | None = None, preexec_fn: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed program run with ``arguments`` (``preexec_fn`` called in its process before
    it starts), its output captured as text (the timeout only stops a hang)."""
    return subprocess.run(
        [*installed_command(), *arguments],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=cwd,
        preexec_fn=preexec_fn,
    )


@pytest.mark.slow
def test_installed_entry_point_runs_the_default_tournament() -> None:
    """The real `thousand tournament` with the default bots ranks them with intervals. It is
    given --deals 100 (greedy leads the randoms by hundreds of rating points from 50 deals on);
    with no arguments at all, the tournament is the default one, of 4000 deals per table.
    (The runner's speed is measured by benchmarks/tournament.py; the timeout only stops a hang.)"""
    default = configure(Options())
    assert about_line(default).startswith("Thousand, 3 bots, 1 table of 3, 4000 deals per table")
    assert [entrant.name for entrant in default.entrants] == ["greedy", "random", "random#2"]
    result = subprocess.run(
        [*installed_command(), "tournament", "--deals", "100"],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Thousand, 3 bots, 1 table of 3, 100 deals per table")
    assert lines[2].split()[:7] == ["rank", "bot", "rating", "±", "ladder", "score/deal", "±"]
    ranked = [line.split()[1] for line in lines[3:6]]
    assert ranked[0] == "greedy"
    assert lines[3].split()[2:5] == ["1500", "fixed", "1500"]
    assert set(ranked[1:]) == {"random", "random#2"}
    assert "± is half the width of a 95% interval." in result.stdout


def test_installed_entry_point_reports_errors_in_one_line() -> None:
    """The real program prints a one-line error, no traceback, for an unknown preset."""
    result = subprocess.run(
        [*installed_command(), "tournament", "--rules", "czech"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error: 'czech' is neither a preset")
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1


def test_anchor_gives_a_bot_its_rating() -> None:
    options = ["--deals", "20", "--seed", "1", "--anchor", "random=1000", "--json"]
    result = runner.invoke(app, ["tournament", "greedy", "random", "random", *options])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    ratings = {row["name"]: row["rating"] for row in document["standings"]}
    assert ratings["random"] == 1000
    assert ratings["greedy"] > 1000
    assert document["anchor"] == {"random": 1000}


@pytest.mark.parametrize(
    ("anchor", "message"),
    [
        ("nobody=1500", "error: --anchor names 'nobody', which is not among greedy, random"),
        ("greedy", "error: --anchor takes BOT=RATING, such as greedy=1500"),
        ("greedy=high", "error: --anchor takes BOT=RATING"),
        ("=1500", "error: --anchor takes BOT=RATING"),
    ],
)
def test_a_bad_anchor_is_refused_before_anything_is_played(anchor: str, message: str) -> None:
    options = ["--deals", "4000", "--anchor", anchor]
    result = runner.invoke(app, ["tournament", "greedy", "random", "random", *options])
    assert result.exit_code == 2
    assert result.output.startswith(message)
    assert len(result.output.strip().splitlines()) == 1
