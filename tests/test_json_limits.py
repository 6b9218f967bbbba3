"""JSON that Python cannot read as it stands: a whole number of more than 4,300 digits (Python
refuses to convert it) and lists nested hundreds deep (they overflow its stack). Every JSON the
project reads answers them with its own error in one line: rules files, records of both games,
bidding models, the ladder file, a bot program's replies and the driver's messages to a served
bot."""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest

from tests.test_cli import run_installed
from tests.test_tournament import one_line_error, runner
from thousand import RecordError, Rules, RulesError, ThousandError, bluff, play
from thousand.bots.auction_value import AuctionValues
from thousand.classic.record import Record
from thousand.common import config
from thousand.errors import ModelError
from thousand.table.served_bot import serve_player
from tournament.cli import app
from tournament.runner.ladder import load_ladders

HUGE = "9" * 5000
DEEP = "[" * 1000 + "]" * 1000
SAVED = Path(__file__).parent / "saved_records"


def huge_rules(tmp_path: Path) -> Path:
    path = tmp_path / "big.json"
    path.write_text(f'{{"preset": "russian", "bolts": {HUGE}}}', encoding="utf-8")
    return path


def huge_record(tmp_path: Path, saved: str) -> Path:
    """A saved record with its first whole number made 5,000 digits long."""
    text = (SAVED / saved).read_text(encoding="utf-8")
    path = tmp_path / saved
    path.write_text(text.replace('"players": 3', f'"players": {HUGE}', 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HUGE, "more than 4,300 digits"),
        (f'{{"a": [1, {HUGE}]}}', "more than 4,300 digits"),
        (DEEP, "nested more than 64 levels deep"),
        ("[NaN]", "NaN is not a JSON number"),
        ('{"a": Infinity}', "Infinity is not a JSON number"),
    ],
)
def test_json_python_cannot_read_is_a_value_error_saying_why(text: str, message: str) -> None:
    """The one reader of JSON refuses what Python's own reader crashes on or takes as a number
    JSON has not, with a reason."""
    with pytest.raises(ValueError, match=message):
        config.decode_json(text)


def test_rules_file_with_a_huge_number_is_one_line(tmp_path: Path) -> None:
    """``thousand rules big.json`` (and a tournament with ``--rules big.json``) says in one line
    what is wrong with the file."""
    path = huge_rules(tmp_path)
    with pytest.raises(RulesError, match="more than 4,300 digits"):
        bluff.Rules.from_json(path.read_text(encoding="utf-8"))
    for command in (["rules", str(path)], ["tournament", "--rules", str(path), "--deals", "1"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        one_line_error(result.stderr, "more than 4,300 digits")


@pytest.mark.parametrize("saved", ["russian-deal.json", "bluff-3.json"])
def test_a_record_with_a_huge_number_is_a_record_error(tmp_path: Path, saved: str) -> None:
    """A record of either game holding a 5,000-digit number is refused as a record, and
    ``thousand replay`` says so in one line."""
    path = huge_record(tmp_path, saved)
    reader = Record.from_json if saved.startswith("russian") else bluff.Record.from_json
    with pytest.raises(RecordError, match="more than 4,300 digits"):
        reader(path.read_text(encoding="utf-8"))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    one_line_error(result.stderr, "more than 4,300 digits")


@pytest.mark.slow
def test_the_real_program_reads_huge_numbers_in_one_line(tmp_path: Path) -> None:
    """The installed program given a rules file or a record with a 5,000-digit number prints
    one error line and no traceback."""
    for arguments in (
        ["rules", str(huge_rules(tmp_path))],
        ["replay", str(huge_record(tmp_path, "russian-deal.json"))],
    ):
        done = run_installed(*arguments)
        assert done.returncode == 2, done.stderr
        one_line_error(done.stderr, "more than 4,300 digits")


@pytest.mark.parametrize("text", [f'{{"format": 1, "seed": {HUGE}}}', DEEP])
def test_a_bidding_model_file_python_cannot_read_is_a_model_error(text: str) -> None:
    with pytest.raises(ModelError, match="not a file of bidding models"):
        AuctionValues.from_json(text)


def test_a_ladder_file_nested_too_deep_is_a_value_error(tmp_path: Path) -> None:
    path = tmp_path / "ladder.json"
    path.write_text(f'{{"ladders": {DEEP}}}', encoding="utf-8")
    with pytest.raises(ValueError, match="nested more than 64 levels deep"):
        load_ladders(path)


@pytest.mark.parametrize(
    ("hello", "message"),
    [(f'{{"type": "hello", "seat": {HUGE}}}', "more than 4,300 digits"), (DEEP, "nested")],
)
def test_a_served_bot_refuses_a_message_python_cannot_read(hello: str, message: str) -> None:
    """``python -m thousand.serve`` given a message it cannot read stops with its own error."""
    with pytest.raises(ThousandError, match=message):
        serve_player(lambda: None, "random", io.StringIO(hello + "\n"), io.StringIO())


BOT = """
import json, pathlib, sys
reply = pathlib.Path(sys.argv[1]).read_text()
for line in sys.stdin:
    kind = json.loads(line)["type"]
    if kind == "hello":
        print(json.dumps({"type": "ready"}), flush=True)
    elif kind == "end":
        break
    else:
        print(reply, flush=True)
"""


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ('{"type": "action", "action": ' + HUGE + "}", "more than 4,300 digits"),
        ('{"type": "action", "action": ' + DEEP + "}", "nested more than 64 levels deep"),
    ],
)
def test_a_bot_reply_python_cannot_read_is_that_bots_fault(
    tmp_path: Path, reply: str, reason: str
) -> None:
    """A program answering with a number too long to convert, or lists nested too deep, makes
    an ``error`` fault of that bot that says why, and the match goes on without it."""
    program = tmp_path / "bot.py"
    program.write_text(BOT, encoding="utf-8")
    reply_file = tmp_path / "reply.txt"
    reply_file.write_text(reply, encoding="utf-8")
    spec = "cmd:" + shlex.join([sys.executable, str(program), str(reply_file)])
    outcome = play([spec, "random", "random"], Rules.preset("russian"), seed=3, single_deal=True)
    (fault,) = outcome.faults
    assert fault.seat == 0
    assert fault.status.value == "error"
    assert reason in fault.detail
