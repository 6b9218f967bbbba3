"""A kept tournament edited into other valid JSON, with the journal's checks computed again as
anyone can: `thousand report` and `thousand tournament --resume` refuse every such edit of the
configuration, the journal and the summary in one line naming the file and the field, and leave
the folder byte for byte as it was."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.test_cli import run_installed
from tests.test_tournament import one_line_error, runner, snapshot
from tests.test_tournament_hostile import kept_tournament
from tournament.cli import app
from tournament.runner.backends import InlineBackend
from tournament.runner.journal import (
    CHECK,
    Journal,
    TournamentDirError,
    _first_check,
    _next_check,
)
from tournament.runner.run import run_tournament
from tournament.runner.schedule import Config
from tournament.runner.units import BotLogs

Edit = Callable[[Path], None]
HUGE = "9" * 5000
"""A whole number longer than Python converts from text."""


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament of 2 deals under 6 seatings (12 journal lines), played by the
    library: no report is drawn until a test asks ``thousand report`` for one."""
    out = tmp_path_factory.mktemp("edits") / "kept"
    kept_tournament(out)
    return out


def lines_of(out: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for line in (out / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    ]


def write_chained(out: Path, lines: list[dict[str, Any]], tail: str = "") -> None:
    """The journal's lines written with their checks computed again, as a careful editor would,
    so that only the fields' own checks can find the edit."""
    config = Config.from_dict(json.loads((out / "config.json").read_text(encoding="utf-8")))
    check = _first_check(config)
    text = []
    for fields in lines:
        fields.pop(CHECK, None)
        check = _next_check(check, fields)
        text.append(json.dumps({**fields, CHECK: check}, separators=(",", ":")) + "\n")
    (out / "journal.jsonl").write_text("".join(text) + tail, encoding="utf-8")


def line_edit(number: int, change: Callable[[dict[str, Any]], object]) -> Edit:
    """Journal line ``number`` (from 1) changed, every check computed again."""

    def edit(out: Path) -> None:
        lines = lines_of(out)
        change(lines[number - 1])
        write_chained(out, lines)

    return edit


def raw_line(number: int, change: Callable[[str], str]) -> Edit:
    """Journal line ``number`` (from 1) changed as text, its check left as it was."""

    def edit(out: Path) -> None:
        lines = (out / "journal.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
        lines[number - 1] = change(lines[number - 1].rstrip("\n")) + "\n"
        (out / "journal.jsonl").write_text("".join(lines), encoding="utf-8")

    return edit


def setting(key: str, value: object) -> Callable[[dict[str, Any]], object]:
    return lambda fields: fields.__setitem__(key, value)


def seat_value(key: str, seat: int, value: object) -> Callable[[dict[str, Any]], object]:
    return lambda fields: fields[key].__setitem__(seat, value)


def text_edit(name: str, old: str, new: str) -> Edit:
    """A file's text with its first ``old`` replaced by ``new``."""

    def edit(out: Path) -> None:
        text = (out / name).read_text(encoding="utf-8")
        assert old in text
        (out / name).write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def json_edit(name: str) -> Callable[[Callable[[dict[str, Any]], object]], Edit]:
    """Edits of the JSON document ``name``, each made by a change of its data."""

    def edit_with(change: Callable[[dict[str, Any]], object]) -> Edit:
        def edit(out: Path) -> None:
            document = json.loads((out / name).read_text(encoding="utf-8"))
            change(document)
            (out / name).write_text(json.dumps(document, indent=2), encoding="utf-8")

        return edit

    return edit_with


config_edit = json_edit("config.json")
summary_edit = json_edit("summary.json")


def duplicate_line(out: Path) -> None:
    lines = lines_of(out)
    write_chained(out, [*lines, dict(lines[1])])


def bogus_status_and_torn_tail(out: Path) -> None:
    lines = lines_of(out)
    lines[2]["statuses"][0] = "bogus"
    write_chained(out, lines[:-1], tail='{"unit":"t0-d1-s5","ta')


def two_contracts(fields: dict[str, Any]) -> None:
    fields["contracts"] = [[0, 120, True], [1, 120, False]]


def too_deep(fields: dict[str, Any]) -> None:
    value: Any = 0
    for _ in range(100):
        value = [value]
    fields["decisions"] = value


JOURNAL_EDITS: dict[str, tuple[Edit, str]] = {
    "a bogus status": (line_edit(3, seat_value("statuses", 1, "bogus")), "field 'statuses'"),
    "a status without its fault": (line_edit(3, seat_value("statuses", 1, "error")), "statuses"),
    "a fault without its status": (
        line_edit(3, seat_value("faults", 1, [0, 0, 2, 0])),
        "field 'statuses'",
    ),
    "a negative fault count": (
        line_edit(3, seat_value("faults", 0, [0, 0, -1, 0])),
        "field 'faults'",
    ),
    "faults counted by three statuses": (
        line_edit(3, seat_value("faults", 0, [0, 0, 0])),
        "field 'faults'",
    ),
    "an ok counted as a fault": (line_edit(3, seat_value("faults", 0, [1, 0, 0, 0])), "faults"),
    "a unit given twice": (
        duplicate_line,
        "line 13, is damaged or was changed (field 'unit': 't0-d0-",
    ),
    "a unit past the deals": (line_edit(4, setting("unit", "t0-d9-s0")), "field 'unit'"),
    "a unit at no table": (line_edit(4, setting("unit", "t7-d0-s0")), "field 'unit'"),
    "a unit of no seating": (line_edit(4, setting("unit", "t0-d0-s6")), "field 'unit'"),
    "a unit named otherwise": (line_edit(4, setting("unit", "mine")), "field 'unit'"),
    "a unit numbered with a zero": (line_edit(4, setting("unit", "t0-d00-s3")), "field 'unit'"),
    "the table changed": (line_edit(4, setting("table", 1)), "field 'table'"),
    "the group changed": (line_edit(4, setting("group", 1)), "field 'group'"),
    "two seats swapped": (
        line_edit(5, lambda fields: fields["seating"].reverse()),
        "field 'seating'",
    ),
    "an entrant out of range": (line_edit(5, seat_value("seating", 0, 9)), "field 'seating'"),
    "a score no deal gives": (line_edit(6, seat_value("scores", 0, 10**9)), "field 'scores'"),
    "a score as a fraction": (line_edit(6, seat_value("scores", 0, 12.5)), "field 'scores'"),
    "a score as text": (line_edit(6, seat_value("scores", 0, "12")), "field 'scores'"),
    "a score as a flag": (line_edit(6, seat_value("scores", 0, True)), "field 'scores'"),
    "a score missing": (line_edit(6, lambda fields: fields["scores"].pop()), "field 'scores'"),
    "places that are no places": (line_edit(6, setting("places", [2, 2, 2])), "field 'places'"),
    "a field missing": (line_edit(7, lambda fields: fields.pop("decisions")), "'decisions'"),
    "a field added": (line_edit(7, setting("bonus", 1)), "field 'bonus'"),
    "a negative decision count": (line_edit(7, seat_value("decisions", 0, -3)), "decisions"),
    "a think time NaN": (line_edit(8, seat_value("think_time", 0, float("nan"))), "NaN"),
    "a think time infinite": (
        line_edit(8, seat_value("think_time", 0, float("inf"))),
        "Infinity",
    ),
    "a think time of 400 digits": (
        line_edit(8, seat_value("think_time", 0, 10**400)),
        "field 'think_time'",
    ),
    "a negative think time": (line_edit(8, seat_value("think_time", 0, -1.0)), "think_time"),
    "a contract no bid reaches": (
        line_edit(9, setting("contracts", [[0, 10**6, True]])),
        "field 'contracts'",
    ),
    "a contract from no seat": (
        line_edit(9, setting("contracts", [[5, 120, True]])),
        "field 'contracts'",
    ),
    "a contract made as 1": (
        line_edit(9, setting("contracts", [[0, 120, 1]])),
        "field 'contracts'",
    ),
    "two contracts in one deal": (line_edit(9, two_contracts), "field 'contracts'"),
    "the table as text": (line_edit(10, setting("table", "0")), "field 'table'"),
    "a whole number of 5,000 digits": (
        text_edit("journal.jsonl", '"decisions":[', f'"decisions":[{HUGE},'),
        "more than 4,300 digits",
    ),
    "lists nested 100 deep": (line_edit(10, too_deep), "nested more than 64 levels"),
    "a line that is a list": (raw_line(1, lambda line: f"[{line}]"), "line 1,"),
    "a line without its check": (
        raw_line(11, lambda line: re.sub(r',"check":"[0-9a-f]+"', "", line)),
        "line 11, is damaged or was changed (field 'check' is missing)",
    ),
    "a bogus status and a torn last line": (bogus_status_and_torn_tail, "field 'statuses'"),
}
"""Edits of the journal, the line each one names, and what the refusal says of it."""

CONFIG_EDITS: dict[str, tuple[Edit, str]] = {
    "the seed as a fraction": (config_edit(setting("seed", 5.0)), "field 'seed'"),
    "the seed as text": (config_edit(setting("seed", "5")), "field 'seed'"),
    "a negative seed": (config_edit(setting("seed", -1)), "field 'seed'"),
    "the seed of 5,000 digits": (
        text_edit("config.json", '"seed": 5', f'"seed": {HUGE}'),
        "more than 4,300 digits",
    ),
    "another game": (config_edit(setting("game", "chess")), "field 'game'"),
    "another format": (config_edit(setting("format", "rounds")), "field 'format'"),
    "another table size": (config_edit(setting("players", 4)), "field 'players'"),
    "no deals": (config_edit(setting("per_table", 0)), "field 'per_table'"),
    "the isolation as 1": (config_edit(setting("isolate", 1)), "field 'isolate'"),
    "the deals as text": (config_edit(setting("per_table", "2")), "field 'per_table'"),
    "a NaN time limit": (
        text_edit("config.json", '"time_limit": null', '"time_limit": NaN'),
        "NaN",
    ),
    "a time limit of 400 digits": (
        config_edit(setting("time_limit", 10**400)),
        "field 'time_limit'",
    ),
    "a negative time limit": (config_edit(setting("time_limit", -1)), "field 'time_limit'"),
    "an infinite time quota": (
        text_edit("config.json", '"time_quota": null', '"time_quota": 1e999'),
        "field 'time_quota'",
    ),
    "an unknown fault policy": (config_edit(setting("on_fault", "explode")), "field 'on_fault'"),
    "an unknown field": (config_edit(setting("colour", "blue")), "field 'colour'"),
    "a configuration field missing": (
        config_edit(lambda document: document.pop("seed")),
        "field 'seed'",
    ),
    "a bot renamed": (
        config_edit(lambda document: document["entrants"][0].__setitem__("name", "champion")),
        "field 'entrants'",
    ),
    "a bot's spec as a number": (
        config_edit(lambda document: document["entrants"][1].__setitem__("spec", 7)),
        "field 'spec'",
    ),
    "rules that cannot be": (
        config_edit(lambda document: document["rules"].__setitem__("bolts", "many")),
        "field 'rules'",
    ),
    "the rules as a list": (config_edit(setting("rules", [])), "field 'rules'"),
    "a configuration that is a list": (
        lambda out: (out / "config.json").write_text("[1]", encoding="utf-8"),
        "config.json cannot be read: the configuration must be a JSON object",
    ),
}
"""Edits of ``config.json`` and what the refusal says of them."""

SUMMARY_EDITS: dict[str, tuple[Edit, str]] = {
    "a NaN anchor": (
        text_edit("summary.json", '"greedy": 1500.0', '"greedy": NaN'),
        "NaN is not a JSON number",
    ),
    "an infinite anchor": (
        text_edit("summary.json", '"greedy": 1500.0', '"greedy": 1e999'),
        "anchor rating of 'greedy'",
    ),
    "a huge anchor": (
        text_edit("summary.json", '"greedy": 1500.0', '"greedy": 1e308'),
        "anchor rating of 'greedy'",
    ),
    "an anchor of 5,000 digits": (
        text_edit("summary.json", '"greedy": 1500.0', f'"greedy": {HUGE}'),
        "more than 4,300 digits",
    ),
    "an anchor of 400 digits": (
        text_edit("summary.json", '"greedy": 1500.0', f'"greedy": {"9" * 400}'),
        "anchor rating of 'greedy'",
    ),
    "an anchor on no bot": (
        summary_edit(lambda document: document.__setitem__("anchor", {"nobody": 1500})),
        "the anchor names 'nobody'",
    ),
    "an anchor as a list": (summary_edit(setting("anchor", [1500])), "field 'anchor'"),
    "an anchor as text": (
        summary_edit(lambda document: document["anchor"].__setitem__("greedy", "1500")),
        "field 'anchor'",
    ),
    "another anchor": (
        summary_edit(lambda document: document["anchor"].__setitem__("greedy", 1600.0)),
        "field 'standings', does not agree",
    ),
    "a rating changed": (
        summary_edit(lambda document: document["standings"][0].__setitem__("rating", 2000.0)),
        "field 'standings', does not agree",
    ),
    "the units changed": (summary_edit(setting("units", 99)), "field 'units', does not agree"),
    "a field removed": (
        summary_edit(lambda document: document.pop("crosstable")),
        "field 'crosstable', does not agree",
    ),
    "the summary cut short": (
        text_edit("summary.json", '"units"', '"units'),
        "summary.json cannot be read",
    ),
}
"""Edits of ``summary.json`` (which a resume writes again from the journal) and what the report's
refusal says of them."""


def edited(kept: Path, tmp_path: Path, edit: Edit) -> tuple[Path, dict[str, tuple[bytes, int]]]:
    """A copy of the kept tournament with ``edit`` made, and its snapshot."""
    out = tmp_path / "edited"
    shutil.copytree(kept, out)
    edit(out)
    return out, snapshot(out)


@pytest.mark.parametrize("name", list(JOURNAL_EDITS) + list(CONFIG_EDITS))
def test_report_and_resume_refuse_an_edit_in_one_line(
    kept: Path, tmp_path: Path, name: str
) -> None:
    """Each edit of the configuration or the journal is refused by the report and by a resume
    in one line that names the file and the field, and the folder is left as it was (a torn
    last line included: a resume it refuses does not cut it off)."""
    edit, said = JOURNAL_EDITS.get(name) or CONFIG_EDITS[name]
    where = "journal.jsonl, line " if name in JOURNAL_EDITS else "config.json"
    out, before = edited(kept, tmp_path, edit)
    for command in (["report", str(out)], ["tournament", "--resume", str(out)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, (command, result.output)
        one_line_error(result.stderr, said)
        assert where in result.stderr
        assert snapshot(out) == before


@pytest.mark.parametrize("name", list(SUMMARY_EDITS))
def test_report_refuses_an_edited_summary_and_resume_writes_it_again(
    kept: Path, tmp_path: Path, name: str
) -> None:
    """The report refuses a summary.json it cannot verify (its anchor not a rating of the
    tournament's bots, or figures other than the journal's) in one line, changing nothing; a
    resume computes the summary again from the journal, as it was written first."""
    edit, said = SUMMARY_EDITS[name]
    out, before = edited(kept, tmp_path, edit)
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 2, result.output
    one_line_error(result.stderr, said)
    assert "summary.json" in result.stderr
    assert snapshot(out) == before
    result = runner.invoke(app, ["tournament", "--resume", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    assert (out / "summary.json").read_bytes() == (kept / "summary.json").read_bytes()


def test_an_untouched_folder_and_a_torn_last_line_are_reported(kept: Path, tmp_path: Path) -> None:
    """The checks refuse nothing the run writes: the report of the untouched folder is drawn,
    and a last line cut short by a crash is left out of it and left in the file."""
    out = tmp_path / "torn"
    shutil.copytree(kept, out)
    lines = (out / "journal.jsonl").read_bytes().splitlines(keepends=True)
    torn = b"".join(lines[:11]) + lines[11][:30]
    (out / "journal.jsonl").write_bytes(torn)
    (out / "summary.json").unlink()
    result = runner.invoke(app, ["report", str(kept)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "journal.jsonl").read_bytes() == torn


@pytest.mark.slow
def test_the_real_program_refuses_edits_in_one_line(kept: Path, tmp_path: Path) -> None:
    """The installed program refuses an edited journal, configuration and summary in one line,
    exit status 2, and changes nothing."""
    cases = [
        (JOURNAL_EDITS["a bogus status"], ["report"]),
        (JOURNAL_EDITS["a bogus status and a torn last line"], ["tournament", "--resume"]),
        (CONFIG_EDITS["the seed of 5,000 digits"], ["tournament", "--resume"]),
        (SUMMARY_EDITS["a NaN anchor"], ["report"]),
    ]
    for number, ((edit, said), command) in enumerate(cases):
        out, before = edited(kept, tmp_path / str(number), edit)
        done = run_installed(*command, str(out))
        assert done.returncode == 2, done.stderr
        one_line_error(done.stderr, said)
        assert snapshot(out) == before


NOT_FOLLOWING = (
    "is damaged or was changed (it does not follow from config.json and the lines before it)"
)
"""What the refusal says of a line whose check is not the one its fields and the lines before
it give."""
CANNOT_RESUME = "; the tournament cannot be resumed: play it again in a new folder"


def retabled(line: str) -> str:
    """A journal line moved to another table as text, its check left as it was."""
    return line.replace('"table":0', '"table":1', 1)


def test_a_line_changed_without_its_check_is_refused_naming_the_journal_and_the_line(
    kept: Path, tmp_path: Path
) -> None:
    """A line edited by hand, its check left as it was, is refused by a resume and by the report
    in exactly one sentence naming the journal's path, the line and why."""
    out, before = edited(kept, tmp_path, raw_line(3, retabled))
    damaged = f"error: {out / 'journal.jsonl'}, line 3, {NOT_FOLLOWING}"
    result = runner.invoke(app, ["tournament", "--resume", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr == damaged + CANNOT_RESUME + "\n"
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr == damaged + "\n"
    assert snapshot(out) == before


def test_a_journal_read_for_writing_refuses_a_changed_line_naming_its_path(
    kept: Path, tmp_path: Path
) -> None:
    """The journal opened for writing refuses to read a line changed without its check, and
    the refusal names the journal's file, the line and that the tournament cannot be resumed."""
    out, before = edited(kept, tmp_path, raw_line(5, retabled))
    journal = Journal(out, Journal.saved_config(out))
    try:
        with pytest.raises(TournamentDirError) as refused:
            journal.read_units()
    finally:
        journal.close()
    assert str(refused.value) == f"{out / 'journal.jsonl'}, line 5, {NOT_FOLLOWING}{CANNOT_RESUME}"
    assert snapshot(out) == before


class StartWatcher(InlineBackend):
    """A backend that notes every time it is asked to start the entrants."""

    def __init__(self) -> None:
        self.started: list[Config] = []

    def check_entrants(self, config: Config, logs: BotLogs) -> None:
        self.started.append(config)


def test_a_resume_refuses_a_changed_line_before_any_entrant_starts(
    kept: Path, tmp_path: Path
) -> None:
    """A line past the first changed without its check is refused before the backend is asked
    to start a single bot, and the folder is left as it was."""
    out, before = edited(kept, tmp_path, raw_line(3, retabled))
    backend = StartWatcher()
    with pytest.raises(TournamentDirError) as refused:
        run_tournament(Journal.saved_config(out), out=out, resume=True, backend=backend)
    assert str(refused.value) == f"{out / 'journal.jsonl'}, line 3, {NOT_FOLLOWING}{CANNOT_RESUME}"
    assert backend.started == []
    assert snapshot(out) == before
