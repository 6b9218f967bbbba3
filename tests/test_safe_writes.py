"""No file is written through a link planted in its place: a symbolic or hard link where a
report, a picture, a CSV, a record or its temporary goes is replaced by the file and its target
left alone; a link where a journal or a bot's log is appended to is refused in one line."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.test_cli import run_installed
from tests.test_external import hostile
from thousand.common.files import UnsafeFileError, append_to, write_file
from thousand.table.external import ExternalPlayer
from tournament.cli import app

runner = CliRunner()
SECRET = "precious content\n"


def target(tmp_path: Path, name: str = "target.txt") -> Path:
    """A file that a planted link points at, which nothing may change."""
    path = tmp_path / name
    path.write_text(SECRET)
    return path


def tournament_args(out: Path, *specs: str) -> list[str]:
    bots = specs or ("random", "random", "random")
    return ["tournament", *bots, "--deals", "1", "--seed", "1", "-w", "1", "--out", str(out)]


def test_links_planted_where_the_outputs_go_are_replaced_not_followed(tmp_path: Path) -> None:
    """report.html.partial, report.html, the CSVs, summary.json and a picture: each a link to a
    file of its own; the tournament writes its own files and every target is unchanged."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    (out / "plots").mkdir(parents=True)
    names = [
        "report.html.partial",
        "report.html",
        "standings.csv",
        "crosstable.csv.partial",
        "summary.json",
        "plots/ratings.png",
        "plots/scores.png.partial",
    ]
    targets = {}
    for number, name in enumerate(names):
        targets[name] = target(tmp_path, f"target{number}.txt")
        (out / name).symlink_to(targets[name])
    result = runner.invoke(app, tournament_args(out))
    assert result.exit_code == 0, result.output
    for name, path in targets.items():
        assert path.read_text() == SECRET, name
    for name in ("report.html", "standings.csv", "summary.json", "plots/ratings.png"):
        assert not (out / name).is_symlink()
        assert (out / name).stat().st_size > len(SECRET)
    assert "<html" in (out / "report.html").read_text()
    assert not list(out.rglob("*.partial"))
    again = target(tmp_path, "again.txt")
    (out / "report.html.partial").symlink_to(again)
    drawn = run_installed("report", str(out))
    assert drawn.returncode == 0, drawn.stderr
    assert again.read_text() == SECRET
    assert not (out / "report.html").is_symlink()


def test_a_hard_link_planted_as_a_temporary_is_not_written(tmp_path: Path) -> None:
    linked = target(tmp_path)
    os.link(linked, tmp_path / "page.html.partial")
    write_file(tmp_path / "page.html", "<p>mine</p>")
    assert linked.read_text() == SECRET
    assert (tmp_path / "page.html").read_text() == "<p>mine</p>"


def test_appending_opens_only_a_regular_file_of_its_own(tmp_path: Path) -> None:
    linked = target(tmp_path)
    (tmp_path / "soft.log").symlink_to(linked)
    os.link(linked, tmp_path / "hard.log")
    os.mkfifo(tmp_path / "pipe.log")
    for name, reason in [
        ("soft.log", "it is a symbolic link"),
        ("hard.log", "it is a hard link to a file with another name"),
        ("pipe.log", "it is not a regular file"),
    ]:
        with pytest.raises(UnsafeFileError) as caught:
            append_to(tmp_path / name)
        assert caught.value.strerror == f"{reason}; thousand does not write through it"
        assert caught.value.filename == str(tmp_path / name)
    assert linked.read_text() == SECRET
    with append_to(tmp_path / "new.log") as file:
        file.write(b"mine\n")
    assert (tmp_path / "new.log").read_text() == "mine\n"


def test_a_link_planted_as_the_journal_is_refused_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    linked = target(tmp_path)
    (out / "journal.jsonl").symlink_to(linked)
    result = runner.invoke(app, tournament_args(out))
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {out / 'journal.jsonl'}: it is a symbolic link; thousand does not write "
        "through it\n"
    )
    assert linked.read_text() == SECRET


def bot_log(folder: Path, spec: str, seat: int) -> Path:
    """Where the program ``spec`` logs in ``seat``."""
    slug = ExternalPlayer(shlex.split(spec[4:]), name=spec).slug
    return folder / f"{slug}-seat{seat}.log"


def test_a_link_planted_as_a_bots_log_gets_nothing(tmp_path: Path) -> None:
    """In a match the bot fails to start, saying why in its fault; a tournament is refused
    before any game, in one line, by the installed program too."""
    bot = hostile(tmp_path, "ok")
    logs = tmp_path / "logs"
    logs.mkdir()
    linked = target(tmp_path)
    bot_log(logs, bot.spec, 0).symlink_to(linked)
    result = runner.invoke(
        app, ["match", bot.spec, "random", "random", "--deal", "--log-dir", str(logs)]
    )
    assert result.exit_code == 0, result.output
    assert "it is a symbolic link; thousand does not write through it" in result.output
    assert linked.read_text() == SECRET
    out = tmp_path / "out"
    bot_log(out / "logs", bot.spec, 0).parent.mkdir(parents=True)
    bot_log(out / "logs", bot.spec, 0).symlink_to(linked)
    for run in (
        lambda: runner.invoke(app, tournament_args(out, bot.spec, "random", "random")),
        lambda: run_installed(*tournament_args(out, bot.spec, "random", "random")),
    ):
        done = run()
        code = getattr(done, "exit_code", getattr(done, "returncode", None))
        assert code == 2
        (line,) = done.stderr.splitlines()
        assert line.startswith(f"error: bot {bot.spec!r} cannot start")
        assert line.endswith(
            f"{bot_log(out / 'logs', bot.spec, 0)}: it is a symbolic link; thousand does not "
            "write through it"
        )
        assert linked.read_text() == SECRET
        assert not (out / "config.json").exists()


def test_a_record_saved_over_a_link_replaces_the_link(tmp_path: Path) -> None:
    linked = target(tmp_path)
    record = tmp_path / "match.json"
    record.symlink_to(linked)
    result = runner.invoke(
        app,
        ["match", "random", "random", "random", "--deal", "--seed", "1", "--record", str(record)],
    )
    assert result.exit_code == 0, result.output
    assert linked.read_text() == SECRET
    assert not record.is_symlink()
    assert '"actions"' in record.read_text()
