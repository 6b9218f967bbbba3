"""`thousand match` and `thousand replay` facing hostile files and names: every bad record is a
one-line error, a record or page that cannot be saved is refused before any work, and names
from outside reach the terminal without control characters."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

import thousand
from tests.test_cli import run_installed
from thousand import Rules
from thousand.common.text import printable, table_lines
from thousand.frontends.matchlog import match_log
from thousand.frontends.narration import replay_lines
from thousand.frontends.terminal_game import seat_names
from tournament.cli import app

runner = CliRunner()

CLEAR = "\x1b[2J"
"""The escape sequence that clears a terminal."""


def saved_record(tmp_path: Path) -> Path:
    outcome = thousand.play(["random"] * 3, Rules(), seed=2, single_deal=True)
    path = tmp_path / "record.json"
    path.write_text(outcome.record.to_json(), encoding="utf-8")
    return path


def hostile_records(tmp_path: Path) -> dict[str, tuple[bytes, str]]:
    """Files that once made `thousand replay` print a traceback, and what it says instead."""
    document = json.loads(saved_record(tmp_path).read_text(encoding="utf-8"))
    document["deals"][0]["layout"]["hands"][0] = [2, "AH"]
    huge = json.loads(saved_record(tmp_path).read_text(encoding="utf-8"))
    huge["rules"]["cap_base"] = 10**9
    return {
        "not-utf8": (b'{"format": "thousand-record\xff"}', "the record is not UTF-8 text"),
        "number-in-hand": (json.dumps(document).encode(), "'2' is not a card"),
        "deep": (b"[" * 100_000 + b"]" * 100_000, "nested more than 64 levels deep"),
        "huge-cap": (json.dumps(huge).encode(), "'cap_base' must be 1 to 1,000"),
    }


@pytest.mark.parametrize("kind", ["not-utf8", "number-in-hand", "deep", "huge-cap"])
def test_replay_of_a_hostile_file_is_one_line(tmp_path: Path, kind: str) -> None:
    content, message = hostile_records(tmp_path)[kind]
    path = tmp_path / f"{kind}.json"
    path.write_bytes(content)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {path}: ")
    assert message in result.output
    assert result.output.count("\n") == 1


@pytest.mark.slow
def test_installed_replay_of_hostile_files_prints_no_traceback(tmp_path: Path) -> None:
    for kind, (content, message) in hostile_records(tmp_path).items():
        path = tmp_path / f"{kind}.json"
        path.write_bytes(content)
        done = run_installed("replay", str(path))
        assert done.returncode == 2
        assert message in done.stderr
        assert done.stderr.count("\n") == 1
        assert "Traceback" not in done.stderr


def test_match_refuses_a_record_in_a_missing_folder_before_playing(tmp_path: Path) -> None:
    """The check comes first: nothing is played and nothing printed but the error."""
    target = tmp_path / "missing" / "record.json"
    result = runner.invoke(app, ["match", "random", "random", "random", "--record", str(target)])
    assert result.exit_code == 2
    assert result.output == f"error: cannot save the record in {target.parent}: no such folder\n"


def test_match_saves_its_record_in_an_existing_folder(tmp_path: Path) -> None:
    target = tmp_path / "record.json"
    result = runner.invoke(
        app, ["match", "random", "random", "random", "--deal", "--record", str(target)]
    )
    assert result.exit_code == 0, result.output
    assert thousand.load_record(target).single_deal


def test_replay_html_into_a_missing_folder_is_a_sentence(tmp_path: Path) -> None:
    page = tmp_path / "missing" / "match.html"
    result = runner.invoke(app, ["replay", str(saved_record(tmp_path)), "--html", str(page)])
    assert result.exit_code == 2
    assert result.output == f"error: cannot save the page in {page.parent}: no such folder\n"


@pytest.mark.slow
def test_installed_match_refuses_a_record_in_a_missing_folder(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "record.json"
    done = run_installed("match", "random", "random", "random", "--record", str(target))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"error: cannot save the record in {target.parent}: no such folder\n"


def test_printable_replaces_every_control_character() -> None:
    controls = "".join(map(chr, [*range(0x20), *range(0x7F, 0xA0)]))
    assert printable(f"a b{controls}é♥") == "a b" + "?" * len(controls) + "é♥"


def test_an_error_echoing_an_escape_sequence_prints_without_it() -> None:
    result = runner.invoke(app, ["match", "random", "random", "random", "--rules", f"x{CLEAR}"])
    assert result.exit_code == 2
    assert "\x1b" not in result.output
    assert "x?[2J" in result.output


def test_names_reach_the_match_log_and_tables_without_escapes() -> None:
    outcome = thousand.play(["random"] * 3, Rules(), seed=2, single_deal=True)
    named = attrs.evolve(outcome, players=(f"evil{CLEAR}", "b\x9bc", "tab\there"))
    lines = match_log(named)
    assert not any("\x1b" in line or "\x9b" in line or "\t" in line for line in lines)
    assert "seat 0 (evil?[2J)" in "\n".join(lines)
    assert table_lines([["name"], [f"evil{CLEAR}"]]) == ["name", "evil?[2J"]


def test_names_reach_the_narration_and_the_terminal_game_without_escapes() -> None:
    outcome = thousand.play(["random"] * 3, Rules(), seed=2, single_deal=True)
    names = [f"evil{CLEAR}", "b", "c"]
    lines = replay_lines(outcome.record, names=names, viewer=0)
    assert not any("\x1b" in line for line in lines)
    assert "As seen by evil?[2J" in "\n".join(lines)
    assert seat_names([f"cmd:./x{CLEAR} --fast", "greedy"], 0) == ["you", "x?[2J", "greedy"]


def test_check_bot_shows_a_fault_without_its_escapes() -> None:
    result = runner.invoke(app, ["check-bot", "tests/bots/python_bots.py:Shouter", "-n", "3"])
    assert result.exit_code == 1
    assert "\x1b" not in result.output
    assert "?[2J the screen is mine" in result.output
