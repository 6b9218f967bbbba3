"""The tournament runner against hostile files and hostile bots: a kept tournament that was edited
or damaged is refused rather than resumed into other results, and nothing a bot is given reveals
the cards of the deals."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shlex
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.test_cli import run_installed
from tests.test_progress import without_progress
from tests.test_tournament import (
    installed_command,
    one_line_error,
    played_as_by_default,
    runner,
    snapshot,
)
from tournament.cli import app
from tournament.runner.journal import Journal, TournamentDirError
from tournament.runner.options import Options, configure
from tournament.runner.run import run_tournament
from tournament.runner.schedule import Unit

Edit = Callable[[Path], None]


def kept_tournament(out: Path) -> None:
    """A small finished tournament kept in ``out``: 2 deals under 6 seatings, 12 lines."""
    config = configure(Options(specs=("greedy", "random", "random"), deals=2, seed=5))
    played_as_by_default(config, out=out)


def edit_line(number: int, change: Callable[[dict[str, object]], None]) -> Edit:
    """An edit of journal line ``number`` (from 1) that leaves it valid JSON."""

    def edit(out: Path) -> None:
        lines = (out / "journal.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
        fields = json.loads(lines[number - 1])
        change(fields)
        lines[number - 1] = json.dumps(fields, separators=(",", ":")) + "\n"
        (out / "journal.jsonl").write_text("".join(lines), encoding="utf-8")

    return edit


def flip_score(fields: dict[str, object]) -> None:
    scores = fields["scores"]
    assert isinstance(scores, list)
    scores[0] = scores[0] + 10 if scores[0] < 0 else scores[0] - 10


def swap_seats(fields: dict[str, object]) -> None:
    seating = fields["seating"]
    assert isinstance(seating, list)
    fields["seating"] = [seating[1], seating[0], *seating[2:]]


def rearrange(change: Callable[[list[bytes]], list[bytes]]) -> Edit:
    """An edit of the journal's lines as a whole."""

    def edit(out: Path) -> None:
        lines = (out / "journal.jsonl").read_bytes().splitlines(keepends=True)
        (out / "journal.jsonl").write_bytes(b"".join(change(lines)))

    return edit


def rot_a_bit(out: Path) -> None:
    """One bit of a digit of line 6 flipped, as a failing disk might."""
    data = bytearray((out / "journal.jsonl").read_bytes())
    start = sum(len(line) for line in data.splitlines(keepends=True)[:5])
    digit = data.index(b'"scores":[', start) + len(b'"scores":[')
    data[digit] ^= 1
    (out / "journal.jsonl").write_bytes(bytes(data))


def edit_config(key: str, value: object) -> Edit:
    def edit(out: Path) -> None:
        document = json.loads((out / "config.json").read_text(encoding="utf-8"))
        document[key] = value
        (out / "config.json").write_text(json.dumps(document, indent=2), encoding="utf-8")

    return edit


TAMPERING: dict[str, tuple[Edit, int]] = {
    "a score changed": (edit_line(3, flip_score), 3),
    "two seats swapped": (edit_line(7, swap_seats), 7),
    "a line given twice": (rearrange(lambda lines: [*lines[:5], lines[4], *lines[5:]]), 6),
    "two lines swapped": (rearrange(lambda lines: [lines[1], lines[0], *lines[2:]]), 1),
    "a middle line removed": (rearrange(lambda lines: [*lines[:4], *lines[5:]]), 5),
    "a bit rotted": (rot_a_bit, 6),
    "the seed changed": (edit_config("seed", 6), 1),
    "the deals changed": (edit_config("per_table", 3), 1),
}


@pytest.mark.parametrize("name", list(TAMPERING))
def test_an_edited_tournament_folder_is_not_resumed(tmp_path: Path, name: str) -> None:
    """A journal or config.json edited into other valid JSON is refused on resume, naming the
    first line that no longer matches, and the folder is left as it was."""
    edit, line = TAMPERING[name]
    out = tmp_path / "kept"
    kept_tournament(out)
    (out / "summary.json").unlink()
    edit(out)
    before = snapshot(out)
    with pytest.raises(TournamentDirError, match=rf"journal.jsonl, line {line}, is damaged"):
        run_tournament(Journal.saved_config(out), out=out, resume=True)
    assert snapshot(out) == before
    result = runner.invoke(app, ["tournament", "--resume", str(out)])
    assert result.exit_code == 2
    one_line_error(result.stderr, f"line {line}, is damaged or was changed")
    assert snapshot(out) == before


def test_an_untouched_folder_and_a_torn_last_line_still_resume(tmp_path: Path) -> None:
    """The checks refuse nothing a crash leaves: a last line cut short is cut off and played
    again, and the summary comes out byte for byte as before."""
    out = tmp_path / "kept"
    kept_tournament(out)
    written = (out / "summary.json").read_bytes()
    lines = (out / "journal.jsonl").read_bytes().splitlines(keepends=True)
    (out / "journal.jsonl").write_bytes(b"".join(lines[:7]) + lines[7][:40])
    (out / "summary.json").unlink()
    result = runner.invoke(app, ["tournament", "--resume", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    assert (out / "summary.json").read_bytes() == written
    assert (out / "journal.jsonl").read_bytes().splitlines(keepends=True)[:7] == lines[:7]


@pytest.mark.slow
def test_the_real_program_refuses_an_edited_journal(tmp_path: Path) -> None:
    """The installed program resuming an edited journal prints one error line and exits 2."""
    out = tmp_path / "kept"
    kept_tournament(out)
    edit_line(2, flip_score)(out)
    done = run_installed("tournament", "--resume", str(out))
    assert done.returncode == 2
    one_line_error(done.stderr, "line 2, is damaged or was changed")


# Seeds ---------------------------------------------------------------------------------------


def seed_behind(unit: Unit, seat: int, player_seed: int, guesses: range) -> int | None:
    """What a bot told its generator seed can do: try every tournament seed in ``guesses``."""
    for guess in guesses:
        if unit.player_seeds(guess)[seat] == player_seed:
            return guess
    return None


def test_without_a_seed_a_bot_cannot_guess_the_cards() -> None:
    """Without --seed the tournament seed is drawn at random from 63 bits, so a bot searching
    likely seeds for the one behind its own generator seed finds nothing; with a small seed
    it finds it, and with it every deal's cards."""
    drawn = [configure(Options(deals=1)).seed for _ in range(4)]
    assert len(set(drawn)) == 4
    assert all(0 <= seed < 2**63 for seed in drawn)
    for config in (configure(Options(deals=1)), configure(Options(deals=1, seed=1))):
        unit = config.units()[3]
        given = unit.player_seeds(config.seed)[1]
        assert given != unit.seed
        found = seed_behind(unit, 1, given, range(1000))
        assert found == (1 if config.seed == 1 else None)


@pytest.mark.slow
def test_a_drawn_seed_is_printed_kept_and_plays_the_tournament_again(tmp_path: Path) -> None:
    """Without --seed the drawn seed is printed on the standard error and in the standings,
    kept in config.json and summary.json, and --seed with it plays the same tournament."""
    arguments = ["tournament", "--deals", "2", "--workers", "1"]
    drawn = runner.invoke(app, [*arguments, "--out", str(tmp_path / "drawn"), "--no-report"])
    assert drawn.exit_code == 0, drawn.output
    seed = Journal.saved_config(tmp_path / "drawn").seed
    assert seed != 1
    # The seed comes first, before the progress.
    shown = without_progress(drawn.stderr).splitlines()
    assert shown[0] == f"seed {seed} (play it again with --seed {seed})"
    assert drawn.stderr.startswith("seed ")
    assert drawn.stdout.splitlines()[0].endswith(f", seed {seed}")
    summary = (tmp_path / "drawn" / "summary.json").read_bytes()
    assert json.loads(summary)["config"]["seed"] == seed
    again = runner.invoke(
        app, [*arguments, "--seed", str(seed), "--out", str(tmp_path / "again"), "--no-report"]
    )
    assert again.exit_code == 0, again.output
    assert "play it again" not in again.stderr
    assert (tmp_path / "again" / "summary.json").read_bytes() == summary
    done = run_installed(*arguments)
    assert done.returncode == 0, done.stderr
    printed = int(done.stderr.split()[1])
    assert done.stdout.splitlines()[0].endswith(f", seed {printed}")


# Stopping ------------------------------------------------------------------------------------

STOPPER = """
import pathlib
import signal
import thousand


class Stopper(thousand.SeatedPlayer):
    \"\"\"Plays at random; presses Ctrl-C (sends SIGINT to its process) at its 100th decision,
    once.\"\"\"

    decisions = 0

    def act(self, observation):
        Stopper.decisions += 1
        marker = pathlib.Path({marker!r})
        if Stopper.decisions >= 100 and marker.exists():
            marker.unlink()
            signal.raise_signal(signal.SIGINT)
        return self.rng.choice(observation.legal_actions)
"""


def stopper(tmp_path: Path) -> str:
    """The spec of a bot that interrupts the tournament once, as Ctrl-C does (with --no-isolate:
    it must run in the tournament's process)."""
    marker = tmp_path / "stop-once"
    marker.touch()
    (tmp_path / "stopper.py").write_text(STOPPER.format(marker=str(marker)), encoding="utf-8")
    return f"{tmp_path / 'stopper.py'}:Stopper"


def test_ctrl_c_says_how_far_it_got_and_how_to_resume(tmp_path: Path) -> None:
    """Interrupted, the tournament says how many units it finished and the command that goes
    on, exits 130, and that command finishes it as if it had never been stopped."""
    out = tmp_path / "kept run"
    # 30 units: the stopper's 100th decision comes about a third of the way through.
    arguments = ["tournament", stopper(tmp_path), "greedy", "random", "--deals", "5"]
    arguments += ["--seed", "3", "--workers", "1", "--no-isolate"]
    result = runner.invoke(app, [*arguments, "--out", str(out)])
    assert result.exit_code == 130, result.output
    lines = len((out / "journal.jsonl").read_text(encoding="utf-8").splitlines())
    assert 0 < lines < 30
    command = f"thousand tournament --resume '{out}'"
    assert without_progress(result.stderr) == (
        f"stopped after {lines} of 30 units; continue with: {command}\n"
    )
    # The printed command, given --no-report: the report is test_report.py's to look at.
    resumed = runner.invoke(app, [*shlex.split(command)[1:], "--no-report"])
    assert resumed.exit_code == 0, resumed.output
    config = Journal.saved_config(out)
    played_as_by_default(config, out=tmp_path / "whole")
    summary = (out / "summary.json").read_bytes()
    assert summary == (tmp_path / "whole" / "summary.json").read_bytes()


def test_ctrl_c_without_out_says_nothing_was_kept(tmp_path: Path) -> None:
    """Without --out, an interrupted tournament says that nothing was kept."""
    arguments = ["tournament", stopper(tmp_path), "greedy", "random", "--deals", "20"]
    result = runner.invoke(app, [*arguments, "--seed", "3", "--workers", "1", "--no-isolate"])
    assert result.exit_code == 130, result.output
    assert result.stdout == ""
    assert re.fullmatch(
        r"stopped after \d+ of 120 units; nothing was kept \(with --out a tournament can be "
        r"resumed\)\n",
        without_progress(result.stderr),
    )


@pytest.mark.parametrize("where", ["--out", "--resume"])
def test_a_tournament_killed_before_its_configuration_was_saved_goes_on(
    tmp_path: Path, where: str
) -> None:
    """Killed while config.json was being written, so that only config.json.partial is there,
    the folder is started again by the same --out command, or resumed by --resume."""
    arguments = ["tournament", "--deals", "2", "--seed", "4", "--workers", "1", "--no-report"]
    whole = tmp_path / "whole"
    assert runner.invoke(app, [*arguments, "--out", str(whole)]).exit_code == 0
    out = tmp_path / "killed"
    out.mkdir()
    (out / "config.json.partial").write_bytes((whole / "config.json").read_bytes())
    result = runner.invoke(app, [*arguments, where, str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "summary.json").read_bytes() == (whole / "summary.json").read_bytes()
    assert not (out / "config.json.partial").exists()


def test_a_half_written_configuration_is_started_again_not_resumed(tmp_path: Path) -> None:
    """A config.json.partial cut short cannot be resumed: the one error line says to start
    the tournament again with --out."""
    out = tmp_path / "killed"
    out.mkdir()
    (out / "config.json.partial").write_text('{"game": "thousand", "ru', encoding="utf-8")
    result = runner.invoke(app, ["tournament", "--resume", str(out)])
    assert result.exit_code == 2
    one_line_error(
        result.stderr, f"start it again with the options it was started with and --out {out}"
    )


@pytest.mark.slow
def test_the_real_program_stopped_by_ctrl_c_resumes_with_the_command_it_prints(
    tmp_path: Path,
) -> None:
    """Ctrl-C (SIGINT to the program and its workers) ends the real program with exit 130 and
    a last line giving the resume command, which finishes the tournament as if never stopped."""
    out = tmp_path / "kept"
    # 600 units: enough that the tournament is still playing when its first line is journaled.
    arguments = ["random", "random", "random", "--deals", "100", "--seed", "8", "--workers", "2"]
    process = subprocess.Popen(
        [*installed_command(), "tournament", *arguments, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        journal = out / "journal.jsonl"
        deadline = time.monotonic() + 60
        while process.poll() is None and not (journal.exists() and journal.stat().st_size):
            assert time.monotonic() < deadline, "the tournament made no progress"
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert stdout == ""
    last = stderr.splitlines()[-1]
    assert re.fullmatch(r"stopped after \d+ of 600 units; continue with: .*", last), stderr
    command = last.split("continue with: ")[1]
    assert command == f"thousand tournament --resume {out}"
    # The printed command, given --no-report: the report is test_report.py's to look at.
    resumed = run_installed(*shlex.split(command)[1:], "--no-report")
    assert resumed.returncode == 0, resumed.stderr
    played_as_by_default(Journal.saved_config(out), workers=2, out=tmp_path / "whole")
    assert (out / "summary.json").read_bytes() == (tmp_path / "whole" / "summary.json").read_bytes()


# Options -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (["--deals", "-5"], "--deals must be a whole number of at least 1, not -5"),
        (["--games", "0"], "--games must be a whole number of at least 1, not 0"),
        (["--players", "1"], "--players must be a whole number of at least 2, not 1"),
        (["--workers", "0"], "--workers must be a whole number of at least 1, not 0"),
        (["--seed", "x"], "--seed must be a whole number of at least 0, not x"),
        (["--time-limit", "0"], "--time-limit must be a number of at least 0.001, not 0"),
        (["--time-quota", "nan"], "--time-quota must be a number of at least 0.001, not nan"),
        (["--on-fault", "explode"], "--on-fault must be forfeit, substitute or raise, not "),
        (["--backend", "nope"], "--backend must be local or ray, not 'nope'"),
        (["--game", "nope"], "--game must be thousand or bluff, not 'nope'"),
    ],
)
def test_a_wrong_option_is_one_error_line(given: list[str], message: str) -> None:
    """A value an option does not take is refused like every other mistake: one line naming
    the option and what it takes, exit 2."""
    result = runner.invoke(app, ["tournament", *given])
    assert result.exit_code == 2
    one_line_error(result.stderr, message)


def test_help_lists_the_choices_and_the_version_is_printed() -> None:
    """--help shows the games, backends and fault policies to choose from; --version prints
    the installed version."""
    shown = runner.invoke(app, ["tournament", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    for choices in (
        "thousand (default), or bluff (1000?)",
        "[local|ray]",
        "forfeit (the default), substitute or raise",
    ):
        assert choices in shown.stdout
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0
    assert version.stdout == f"thousand {importlib.metadata.version('thousand')}\n"


@pytest.mark.slow
def test_the_real_program_refuses_a_wrong_option_in_one_line() -> None:
    """The installed program prints one error line for --workers 0 and its version for
    --version."""
    done = run_installed("tournament", "--workers", "0")
    assert done.returncode == 2
    one_line_error(done.stderr, "--workers must be a whole number of at least 1, not 0")
    version = run_installed("--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("thousand ")
