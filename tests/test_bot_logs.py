"""Where the error output of bots in processes of their own goes, and how much of it: a folder of
each run's own (``logs`` in a kept tournament, else a fresh one named at the end), each bot's
files capped in all over the whole run, whichever worker wrote them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import thousand
from tests.test_cli import run_installed
from tests.test_external import RUSSIAN, hostile
from thousand import BotLimits
from tournament.cli import app
from tournament.runner.options import Options, configure
from tournament.runner.run import run_tournament

runner = CliRunner()
KIB = 1 << 10
CUT = "\n--- cut: over "


def bot_total(folder: Path) -> tuple[int, int]:
    """The bytes of every log file in ``folder`` but the lines that say a log was cut, and how
    many such lines there are."""
    texts = [path.read_text() for path in folder.glob("*.log")]
    cuts = sum(text.count(CUT) for text in texts)
    kept = sum(len(text.partition(CUT)[0].encode()) for text in texts)
    return kept, cuts


def named_folder(stderr: str) -> Path:
    (line,) = [line for line in stderr.splitlines() if line.startswith("bot logs: ")]
    return Path(line.removeprefix("bot logs: "))


def test_each_match_without_a_folder_gets_a_fresh_one(tmp_path: Path) -> None:
    """Not a shared folder holding other runs' files: a new one per match, which the fault of a
    bot that crashes names."""
    folders = []
    for _ in range(2):
        bot = hostile(tmp_path, "crash", after=1)
        outcome = thousand.play([bot.spec, "random", "random"], RUSSIAN, seed=3, single_deal=True)
        (fault,) = outcome.faults
        log = Path(re.findall(r"its error output is in (\S+\.log)", fault.detail)[0])
        assert log.parent.name.startswith("thousand-bots-")
        assert [path.name for path in log.parent.iterdir()] == [log.name]
        assert f"{bot.marker}: started in mode crash" in log.read_text()
        folders.append(log.parent)
    assert folders[0] != folders[1]


def test_the_cap_counts_a_bots_logs_over_every_match_and_seat(tmp_path: Path) -> None:
    """Three matches into one folder, the bot in two seats: its files hold the cap in all, and
    one line says the rest was cut."""
    bot = hostile(tmp_path, "chatty")
    logs = tmp_path / "logs"
    limits = BotLimits(log=64 * KIB)
    for seat in (0, 1, 0):
        players = ["random", "random", "random"]
        players[seat] = bot.spec
        outcome = thousand.play(
            players, RUSSIAN, seed=seat, single_deal=True, log_dir=str(logs), limits=limits
        )
        assert outcome.faults == ()
    assert sorted(path.name.rpartition("-")[2] for path in logs.glob("*.log")) == [
        "seat0.log",
        "seat1.log",
    ]
    assert bot_total(logs) == (64 * KIB, 1)


def test_the_cap_holds_across_worker_processes(tmp_path: Path) -> None:
    """Two workers play a chatty bot's units at once into the same folder: the cap is one for
    the whole tournament."""
    bot = hostile(tmp_path, "chatty")
    # The bot notes its processes in the test's folder: out of a sandbox.
    options = Options(specs=(bot.spec, "random", "random"), deals=2, seed=1, isolate="process")
    out = tmp_path / "out"
    run_tournament(configure(options), workers=2, out=out, bot_log_limit=100 * KIB)
    assert bot_total(out / "logs") == (100 * KIB, 1)


def test_a_kept_tournament_keeps_its_logs_inside_and_resumes_into_them(tmp_path: Path) -> None:
    bot = hostile(tmp_path, "ok")
    out = tmp_path / "out"
    arguments = ["tournament", bot.spec, "random", "random", "--deals", "1", "--seed", "1"]
    arguments.append("--no-report")
    result = runner.invoke(app, [*arguments, "--out", str(out), "-w", "1", "--isolate=process"])
    assert result.exit_code == 0, result.output
    assert named_folder(result.stderr) == out / "logs"
    logs = sorted((out / "logs").glob("*.log"))
    assert logs
    assert all(f"{bot.marker}: started in mode ok" in path.read_text() for path in logs)
    before = sum(path.stat().st_size for path in logs)
    again = runner.invoke(app, ["tournament", "--resume", str(out), "--no-report"])
    assert again.exit_code == 0, again.output
    assert sorted((out / "logs").glob("*.log")) == logs
    assert sum(path.stat().st_size for path in logs) > before  # the check before play
    assert not (tmp_path / "logs").exists()


def test_an_unkept_tournament_names_its_fresh_folder(tmp_path: Path) -> None:
    """Through the installed program: the folder is new, named on the standard error, and holds
    what the bot wrote, capped as asked."""
    bot = hostile(tmp_path, "chatty")
    result = run_installed(
        "tournament", bot.spec, "random", "random", "--deals", "1", "--seed", "2",
        "--bot-log-limit", "32K", "--workers", "2", "--isolate=process",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    folder = named_folder(result.stderr)
    assert folder.name.startswith("thousand-bots-")
    assert bot_total(folder) == (32 * KIB, 1)


def test_match_and_check_bot_name_their_folder_and_take_the_cap(tmp_path: Path) -> None:
    """Built-in bots write no log, and no folder is named."""
    builtin = runner.invoke(app, ["match", "random", "random", "random", "--deal", "--seed", "1"])
    assert builtin.exit_code == 0, builtin.output
    assert "bot logs" not in builtin.output
    bot = hostile(tmp_path, "chatty")
    result = runner.invoke(
        app, ["match", bot.spec, "random", "random", "--deal", "--bot-log-limit", "1KiB"]
    )
    assert result.exit_code == 0, result.output
    assert bot_total(named_folder(result.stderr)) == (KIB, 1)
    checked = runner.invoke(
        app,
        ["check-bot", bot.spec, "--game", "thousand", "-n", "20", "--bot-log-limit", "2k"],
    )
    assert checked.exit_code == 0, checked.output
    assert bot_total(named_folder(checked.stderr)) == (2 * KIB, 1)


@pytest.mark.parametrize("size", ["lots", "-1", "16T", "1.5M", ""])
def test_a_bad_log_limit_is_one_line(size: str) -> None:
    for command in (
        ["tournament", "--bot-log-limit", size],
        ["match", "random", "random", "random", "--bot-log-limit", size],
        ["check-bot", "random", "--bot-log-limit", size],
        ["ladder", "random", "--bot-log-limit", size],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr == (
            f"error: --bot-log-limit must be a size such as 512K, 16M or 1G, not {size!r}\n"
        )
