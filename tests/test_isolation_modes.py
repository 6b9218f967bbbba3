"""The three isolations of bots that are not built in (sandbox, process, none): in the library,
on the command line of every command that has them, and in a tournament's folder."""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import thousand
import tournament.checkbot  # noqa: F401 -- imported before a test stands in for thousand.play
from tests.test_cli import run_installed
from tests.test_sandbox import needs_namespaces
from thousand import Rules
from thousand.table import sandbox
from thousand.table.sandbox import Isolation, SandboxOptions
from tournament.cli import app
from tournament.runner.journal import CONFIG
from tournament.runner.report import write_report
from tournament.runner.schedule import Config, entrants_of
from tournament.runner.verify import config_from_dict

runner = CliRunner()
RUSSIAN = Rules.preset("russian")
PROBE = """\
import os, sys
class Probe:
    def __init__(self, look="/"):
        self.look = look
    def start(self, seat, rules, rng):
        first = os.getpid() == 1
        print(f"uid={os.getuid()} first={first} sees={os.listdir(self.look)}", file=sys.stderr)
    def act(self, observation):
        return observation.legal_actions[0]
"""


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder anyone may read: a sandboxed bot runs as another user when the tests run as
    root, and pytest's own folders are the owner's only."""
    folder = Path(tempfile.mkdtemp(prefix="thousand-modes-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def probe(folder: Path) -> str:
    """The spec of a bot that tells, on its error output, who it runs as, whether its process
    is the first of its PID namespace, and what the folder it is given holds."""
    (folder / "probe.py").write_text(PROBE, encoding="utf-8")
    (folder / "probe.py").chmod(0o644)
    return f"{folder / 'probe.py'}:Probe"


def sandboxed_deal(bot: str, folder: Path) -> tuple[thousand.Outcome, str]:
    """A sandboxed deal of ``bot`` against two ``random`` bots, its logs in ``folder``: the
    outcome and what the bot's log says."""
    outcome = thousand.play(
        [bot, "random", "random"],
        RUSSIAN,
        seed=1,
        single_deal=True,
        isolate="sandbox",
        log_dir=str(folder / "logs"),
    )
    (log,) = (folder / "logs").iterdir()
    return outcome, log.read_text(encoding="utf-8")


# The library ---------------------------------------------------------------------------------


def test_an_unknown_isolation_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="isolation 'maybe' is not one of sandbox, process, none"):
        thousand.load_player("random", isolate="maybe")
    with pytest.raises(ValueError, match="'maybe'"):
        thousand.play(["random"] * 3, RUSSIAN, seed=1, single_deal=True, isolate="maybe")


def test_a_bot_isolated_by_none_runs_here_and_by_process_in_a_loader() -> None:
    """``none`` (or False) runs a Python bot in this process, ``process`` in a process of its
    own; a built-in bot runs here either way."""
    spec = f"{Path(__file__).parent / 'bots' / 'python_bots.py'}:Cautious"
    assert not isinstance(thousand.load_player(spec, isolate="none")(), thousand.ExternalPlayer)
    assert not isinstance(thousand.load_player(spec, isolate=False)(), thousand.ExternalPlayer)
    isolated = thousand.load_player(spec, isolate=Isolation.PROCESS)()
    assert type(isolated).__name__ == "IsolatedPlayer"
    assert type(thousand.load_player("greedy", isolate="sandbox")()).__name__ == "GreedyPlayer"


@needs_namespaces
def test_a_sandboxed_python_bot_runs_walled_in(open_folder: Path) -> None:
    """isolate=True is the sandbox: the bot's process is the first of its own PID namespace,
    runs as nobody when the driver is root, and finds the folder of its logs empty though its
    own log is there."""
    logs = open_folder / "logs"
    spec = probe(open_folder)
    outcome = thousand.play(
        [f"{spec}(look={logs})", "random", "random"],
        RUSSIAN,
        seed=1,
        single_deal=True,
        isolate=True,
        log_dir=str(logs),
    )
    assert outcome.faults == ()
    (log,) = logs.iterdir()
    said = log.read_text(encoding="utf-8").splitlines()[-1]
    assert "first=True" in said
    assert "sees=[]" in said
    if os.getuid() == 0:
        assert said.startswith("uid=65534 ")
    assert outcome.players[0] == f"{spec}(look={logs})"


@needs_namespaces
def test_a_sandboxed_python_bot_given_by_a_relative_path_loads(
    open_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe(open_folder)
    monkeypatch.chdir(open_folder)
    outcome, said = sandboxed_deal("probe.py:Probe", open_folder)
    assert outcome.faults == ()
    assert outcome.players[0] == "probe.py:Probe"
    assert "first=True" in said


@needs_namespaces
def test_a_sandboxed_program_serving_a_bot_file_reads_that_file(open_folder: Path) -> None:
    """``cmd:python -m thousand.serve path/bot.py:Class`` in the sandbox: the file the spec
    names (and its folder) is shown, as a script named on the command line is."""
    outcome, said = sandboxed_deal(
        f"cmd:{sys.executable} -m thousand.serve {probe(open_folder)}", open_folder
    )
    assert outcome.faults == ()
    assert "first=True" in said


@needs_namespaces
def test_a_sandboxed_program_reads_only_what_it_is_given(open_folder: Path) -> None:
    """A ``cmd:`` program in the sandbox cannot read a file outside its own folder, unless the
    sandbox's options make it readable."""
    secret = open_folder / "elsewhere" / "secret.txt"
    secret.parent.mkdir(mode=0o755)
    secret.write_text("the hidden cards\n", encoding="utf-8")
    secret.chmod(0o644)
    program = open_folder / "bot" / "peek.sh"
    program.parent.mkdir(mode=0o755)
    program.write_text(f"#!/bin/sh\ncat {secret} >&2 || echo unreadable >&2\n", encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH | 0o444)

    def said(options: SandboxOptions | None, folder: str) -> str:
        logs = open_folder / folder
        thousand.play(
            [f"cmd:{program}", "random", "random"],
            RUSSIAN,
            seed=1,
            single_deal=True,
            isolate="sandbox",
            sandbox=options,
            log_dir=str(logs),
        )
        return "".join(log.read_text(encoding="utf-8") for log in logs.iterdir())

    walled = said(None, "logs-walled")
    assert "unreadable" in walled
    assert "the hidden cards" not in walled
    assert "the hidden cards" in said(SandboxOptions(readable=(str(secret),)), "logs-reading")


def test_a_sandbox_that_cannot_be_made_is_never_replaced_by_less(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sandbox, "sandbox_problem", lambda: "no user namespaces")
    with pytest.raises(sandbox.SandboxUnavailable, match="no user namespaces"):
        thousand.load_player("cmd:true", isolate=True)
    thousand.load_player("greedy", isolate=True)  # built in: nothing to sandbox


# The command line ----------------------------------------------------------------------------


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What each command hands on: the tournament's configuration, or the keywords of a match
    or of a bot's check; the command then stops."""
    found: list[dict[str, Any]] = []

    def tournament(config: Config, **_: Any) -> None:
        found.append(
            {
                "isolate": config.isolate,
                "network": config.bot_network,
                "readable": config.bot_readable,
            }
        )
        sys.exit(0)

    def played(*_: Any, **options: Any) -> None:
        walls = options["sandbox"] or SandboxOptions()
        found.append(
            {
                "isolate": Isolation.of(options["isolate"]),
                "network": walls.network,
                "readable": walls.readable,
            }
        )
        sys.exit(0)

    monkeypatch.setattr("tournament.runner.run.run_tournament", tournament)
    monkeypatch.setattr(thousand, "play", played)
    monkeypatch.setattr("thousand.frontends.terminal_game.play", played)
    monkeypatch.setattr("tournament.checkbot.check_bot", played)
    return found


COMMANDS = {
    "tournament": ["tournament", "greedy", "random", "random", "--deals", "1"],
    "ladder": ["ladder", "cmd:true", "--deals", "1"],
    "match": ["match", "random", "random", "random", "--deal"],
    "check-bot": ["check-bot", "random", "--game", "thousand"],
    "play": ["play", "--vs", "random", "--vs", "random", "--deal"],
}
DEFAULTS = {
    "tournament": Isolation.SANDBOX,
    "ladder": Isolation.SANDBOX,
    "match": Isolation.NONE,
    "check-bot": Isolation.NONE,
    "play": Isolation.NONE,
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ([], None),
        (["--isolate"], Isolation.SANDBOX),
        (["--isolate=process"], Isolation.PROCESS),
        (["--isolate", "process"], Isolation.PROCESS),
        (["--isolate", "none"], Isolation.NONE),
        (["--no-isolate"], Isolation.NONE),
    ],
)
def test_isolate_takes_a_mode_and_alone_means_the_sandbox(
    seen: list[dict[str, Any]], command: str, options: list[str], expected: Isolation | None
) -> None:
    result = runner.invoke(app, [*COMMANDS[command], *options])
    assert result.exit_code == 0, result.output
    assert seen[-1]["isolate"] is (expected or DEFAULTS[command])


@pytest.mark.parametrize("command", ["match", "check-bot", "play"])
def test_a_bare_isolate_before_the_bots_leaves_them_bots(
    seen: list[dict[str, Any]], command: str
) -> None:
    name, *rest = COMMANDS[command]
    result = runner.invoke(app, [name, "--isolate", *rest])
    assert result.exit_code == 0, result.output
    assert seen[-1]["isolate"] is Isolation.SANDBOX


@pytest.mark.parametrize("command", list(COMMANDS))
def test_bots_may_be_given_the_network_and_files(
    seen: list[dict[str, Any]], command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    options = ["--isolate", "--bot-network", "--bot-read", "model", "--bot-read", "/srv/data"]
    result = runner.invoke(app, [*COMMANDS[command], *options])
    assert result.exit_code == 0, result.output
    assert seen[-1] == {
        "isolate": Isolation.SANDBOX,
        "network": True,
        "readable": (str(tmp_path / "model"), "/srv/data"),
    }


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--isolate", "--no-isolate"], "error: give --isolate or --no-isolate, not both"),
        (
            ["--no-isolate", "--bot-network"],
            "error: --bot-network and --bot-read are for sandboxed bots: add --isolate",
        ),
        (
            ["--isolate=process", "--bot-read", "x"],
            "error: --bot-network and --bot-read are for sandboxed bots: not --isolate process",
        ),
        (["--isolate=maybe"], "error: invalid value for '--isolate'"),
    ],
)
def test_contradictory_isolation_options_are_refused_in_one_line(
    seen: list[dict[str, Any]], command: str, options: list[str], message: str
) -> None:
    result = runner.invoke(app, [*COMMANDS[command], *options])
    assert result.exit_code == 2
    assert result.output.strip().startswith(message), result.output
    assert seen == []


UNSANDBOXED = {
    "tournament": ["tournament", "cmd:true", "random", "random", "--deals", "1"],
    "ladder": ["ladder", "cmd:true", "--deals", "1"],
    "match": ["match", "cmd:true", "random", "random", "--deal", "--isolate"],
    "check-bot": ["check-bot", "cmd:true", "--isolate", "--game", "thousand"],
    "play": ["play", "--vs", "cmd:true", "--vs", "random", "--deal", "--isolate"],
}


@pytest.mark.parametrize("command", list(UNSANDBOXED))
def test_without_a_sandbox_the_command_stops_before_play_naming_the_choices(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox, "sandbox_problem", lambda: "the kernel refuses namespaces")
    result = runner.invoke(app, UNSANDBOXED[command])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith("error: bots cannot be sandboxed here: the kernel refuses namespaces")
    assert "--isolate=process" in line
    assert "--no-isolate" in line
    assert "Traceback" not in result.output


@needs_namespaces
def test_the_real_program_takes_every_form_of_the_options(open_folder: Path) -> None:
    spec = probe(open_folder)
    match = [spec, "random", "random", "--deal", "--seed", "1"]
    for options in (
        ["--isolate"],
        ["--isolate=process"],
        ["--isolate", "none"],
        ["--no-isolate"],
        ["--isolate", "--bot-network", "--bot-read", str(open_folder)],
    ):
        done = run_installed("match", *match, *options, "--log-dir", str(open_folder / "logs"))
        assert done.returncode == 0, (options, done.stderr)
    logs = (open_folder / "logs").iterdir()
    said = [line for log in logs for line in log.read_text(encoding="utf-8").splitlines()]
    first = [line for line in said if "first=True" in line]
    assert len(first) == 2  # --isolate twice; not process or none


# A tournament's folder -----------------------------------------------------------------------


def config(**fields: Any) -> Config:
    return Config(
        game="thousand",
        rules=RUSSIAN.to_dict(),
        entrants=entrants_of(["greedy", "random", "random"]),
        players=3,
        format="deals",
        per_table=1,
        seed=3,
        **fields,
    )


def test_the_isolation_is_kept_by_name_with_what_sandboxed_bots_may_reach() -> None:
    kept = config(isolate=Isolation.PROCESS, bot_network=True, bot_readable=("/srv/model",))
    data = json.loads(json.dumps(kept.to_dict()))
    assert (data["isolate"], data["bot_network"], data["bot_readable"]) == (
        "process",
        True,
        ["/srv/model"],
    )
    assert config_from_dict(data) == kept


@pytest.mark.parametrize(("flag", "kind"), [(True, Isolation.SANDBOX), (False, Isolation.NONE)])
def test_an_older_folders_flag_still_reads(flag: bool, kind: Isolation) -> None:
    data = config().to_dict()
    data["isolate"] = flag
    del data["bot_network"], data["bot_readable"]
    assert config_from_dict(data).isolate is kind


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("isolate", "maybe", "field 'isolate' must be sandbox, process or none"),
        ("isolate", 1, "field 'isolate' must be sandbox, process or none"),
        ("bot_network", "yes", "field 'bot_network' must be true or false"),
        ("bot_readable", ["model"], "field 'bot_readable' must be a list of absolute paths"),
    ],
)
def test_a_folder_edited_to_another_isolation_is_refused(
    field: str, value: Any, message: str
) -> None:
    data = config().to_dict()
    data[field] = value
    with pytest.raises(ValueError, match=message):
        config_from_dict(data)


@pytest.mark.slow
def test_an_older_tournament_resumes_and_a_new_one_keeps_its_isolation(tmp_path: Path) -> None:
    """A folder written with the isolation as a flag resumes (its journal still follows from
    its configuration); a new folder names the isolation, resumed only with the same one."""
    out = tmp_path / "kept"
    common = ["--deals", "2", "--workers", "1", "--seed", "4"]
    first = runner.invoke(app, ["tournament", "greedy", "random", "random", *common])
    assert first.exit_code == 0, first.output
    started = runner.invoke(
        app, ["tournament", "greedy", "random", "random", *common, "--out", str(out), "--no-report"]
    )
    assert started.exit_code == 0, started.output
    data = json.loads((out / CONFIG).read_text(encoding="utf-8"))
    assert (data["isolate"], data["bot_network"], data["bot_readable"]) == ("sandbox", False, [])
    other = runner.invoke(app, ["tournament", "--resume", str(out), "--isolate=process"])
    assert other.exit_code == 2
    assert "started with --isolate sandbox, not process" in other.output
    data["isolate"] = True
    del data["bot_network"], data["bot_readable"]
    (out / CONFIG).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    resumed = runner.invoke(app, ["tournament", "--resume", str(out), "--isolate", "--no-report"])
    assert resumed.exit_code == 0, resumed.output


@pytest.mark.slow
def test_the_report_says_how_bots_were_isolated(tmp_path: Path) -> None:
    out = tmp_path / "kept"
    arguments = ["tournament", "greedy", "random", "random", "--deals", "1", "--workers", "1"]
    # The report is drawn once, below, rather than by the tournament too.
    options = ["--bot-network", "--bot-read", "/srv/model", "--out", str(out), "--no-report"]
    result = runner.invoke(app, [*arguments, *options])
    assert result.exit_code == 0, result.output
    page = write_report(out).read_text(encoding="utf-8")
    assert "sandboxed, reading /srv/model, with the network" in page
