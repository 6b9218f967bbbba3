"""Tournament folders kept by an earlier version still read, report and resume: the folders in
tests/saved_tournaments were made by the version before the command line became a package and
the front-ends moved into the library (``thousand-deals-stopped`` is ``thousand-deals`` cut off
after five units, as a kill would leave it)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.test_tournament import runner
from thousand import load_record, replay
from tournament.cli import app
from tournament.runner.journal import Journal, TournamentDirError, read_results

SAVED = Path(__file__).resolve().parent / "saved_tournaments"
FINISHED = ["thousand-deals", "bluff-games"]
LONG_AGO = 1_000_000_000 * 10**9
"""A modification time (2001-09-09, in nanoseconds) that no run of the tests writes."""


def kept_copy(name: str, tmp_path: Path) -> Path:
    """A copy of the saved folder ``name`` to work in (the saved one stays as it was)."""
    copy = tmp_path / name
    shutil.copytree(SAVED / name, copy)
    return copy


@pytest.mark.parametrize("name", FINISHED)
def test_a_finished_saved_tournament_resumes_to_the_summary_it_holds(
    name: str, tmp_path: Path
) -> None:
    """Resumed, a finished tournament plays nothing, writes its summary and tables again, byte
    for byte, leaves its journal untouched (its modification time too), and draws its report."""
    folder = kept_copy(name, tmp_path)
    os.utime(folder / "journal.jsonl", ns=(LONG_AGO, LONG_AGO))
    result = runner.invoke(app, ["tournament", "--resume", str(folder), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert (folder / "journal.jsonl").stat().st_mtime_ns == LONG_AGO
    for output in ("summary.json", "standings.csv", "crosstable.csv", "journal.jsonl"):
        assert (folder / output).read_bytes() == (SAVED / name / output).read_bytes(), output
    assert (folder / "report.html").is_file() or "pip install" in result.output


def test_a_stopped_saved_tournament_resumes_to_the_whole_ones_summary(tmp_path: Path) -> None:
    """The tournament cut off after five units plays the seven others, keeping their records,
    and ends with the summary of the one played through."""
    folder = kept_copy("thousand-deals-stopped", tmp_path)
    assert len(read_results(folder, Journal.saved_config(folder))) == 5
    arguments = ["tournament", "--resume", str(folder), "--workers", "1", "--no-report"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    whole = SAVED / "thousand-deals"
    assert (folder / "summary.json").read_bytes() == (whole / "summary.json").read_bytes()
    assert sorted(path.name for path in (folder / "records").iterdir()) == sorted(
        path.name for path in (whole / "records").iterdir()
    )


def test_a_saved_tournament_stopped_before_its_journal_was_opened_resumes_to_the_whole_one(
    tmp_path: Path,
) -> None:
    """A folder holding only config.json, as a kill right after the configuration was saved
    leaves it, resumes: every unit is played and the summary is the finished one's."""
    folder = tmp_path / "bluff-games"
    folder.mkdir()
    shutil.copy(SAVED / "bluff-games" / "config.json", folder)
    arguments = ["tournament", "--resume", str(folder), "--workers", "1", "--no-report"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    whole = SAVED / "bluff-games"
    assert (folder / "summary.json").read_bytes() == (whole / "summary.json").read_bytes()
    assert len(read_results(folder, Journal.saved_config(folder))) == 6


def test_a_configuration_saved_whole_but_not_yet_renamed_is_read_and_kept_under_its_name(
    tmp_path: Path,
) -> None:
    """A folder holding only config.json.partial, written whole before a kill, gives that
    configuration and is left holding it as config.json, the partial file gone."""
    folder = tmp_path / "bluff-games"
    folder.mkdir()
    saved = SAVED / "bluff-games" / "config.json"
    shutil.copy(saved, folder / "config.json.partial")
    config = Journal.saved_config(folder)
    assert config == Journal.saved_config(SAVED / "bluff-games")
    assert sorted(path.name for path in folder.iterdir()) == ["config.json"]
    assert (folder / "config.json").read_bytes() == saved.read_bytes()


def test_a_configuration_cut_short_before_the_tournament_began_is_refused_saying_how_to_restart(
    tmp_path: Path,
) -> None:
    """A config.json.partial that is not whole JSON is refused with a message telling to
    start the tournament again into the same folder, and is left in place."""
    folder = tmp_path / "bluff-games"
    folder.mkdir()
    whole = (SAVED / "bluff-games" / "config.json").read_bytes()
    (folder / "config.json.partial").write_bytes(whole[: len(whole) // 2])
    message = (
        f"{folder} holds a tournament stopped before it began; start it again "
        f"with the options it was started with and --out {folder}"
    )
    with pytest.raises(TournamentDirError, match=re.escape(message)) as refused:
        Journal.saved_config(folder)
    assert str(refused.value) == message
    assert sorted(path.name for path in folder.iterdir()) == ["config.json.partial"]


def test_a_missing_tournament_folder_is_refused_naming_it(tmp_path: Path) -> None:
    """Reading the configuration of a folder that does not exist says so, naming the folder."""
    folder = tmp_path / "nowhere"
    with pytest.raises(TournamentDirError) as refused:
        Journal.saved_config(folder)
    assert str(refused.value) == f"{folder}: no such folder"


def test_a_configuration_saved_before_the_bot_options_existed_reads_them_as_off(
    tmp_path: Path,
) -> None:
    """A config.json without bot_network and bot_readable, as older versions wrote, reads as
    no network for the bots and no extra readable paths."""
    folder = tmp_path / "bluff-games"
    folder.mkdir()
    fields = json.loads((SAVED / "bluff-games" / "config.json").read_text())
    del fields["bot_network"], fields["bot_readable"]
    (folder / "config.json").write_text(json.dumps(fields))
    config = Journal.saved_config(folder)
    assert config.bot_network is False
    assert config.bot_readable == ()
    assert config == Journal.saved_config(SAVED / "bluff-games")


def test_the_records_a_saved_tournament_kept_replay_to_its_journal(tmp_path: Path) -> None:
    folder = SAVED / "thousand-deals"
    results = read_results(folder, Journal.saved_config(folder))
    assert len(results) == 12
    for unit, result in results.items():
        record = load_record(folder / "records" / f"{unit}.json")
        final = replay(record)
        assert final.result is not None
        assert tuple(final.result.deal_scores) == result.scores


def test_the_names_of_moved_modules_import_from_where_they_were() -> None:
    """Programs written against the earlier layout still import what they used."""
    from thousand import players
    from thousand.table.players import Player, SeatedPlayer
    from tournament.runner import options
    from tournament.runner.setup import Options, configure

    assert (Player, SeatedPlayer) == (players.Player, players.SeatedPlayer)
    assert (Options, configure) == (options.Options, options.configure)
