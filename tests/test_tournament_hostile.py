"""The tournament runner against hostile files and hostile bots: a kept tournament that was edited
or damaged is refused rather than resumed into other results, and nothing a bot is given reveals
the cards of the deals."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.test_tournament import installed_command, one_line_error, runner, snapshot
from tournament.cli import app
from tournament.journal import Journal, TournamentDirError
from tournament.runner import run_tournament
from tournament.setup import Options, configure

Edit = Callable[[Path], None]


def kept_tournament(out: Path) -> None:
    """A small finished tournament kept in ``out``: 2 deals under 6 seatings, 12 lines."""
    config = configure(Options(specs=("greedy", "random", "random"), deals=2, seed=5))
    run_tournament(config, out=out)


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
    result = runner.invoke(app, ["tournament", "--resume", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "summary.json").read_bytes() == written
    assert (out / "journal.jsonl").read_bytes().splitlines(keepends=True)[:7] == lines[:7]


@pytest.mark.slow
def test_the_real_program_refuses_an_edited_journal(tmp_path: Path) -> None:
    """The installed program resuming an edited journal prints one error line and exits 2."""
    out = tmp_path / "kept"
    kept_tournament(out)
    edit_line(2, flip_score)(out)
    done = subprocess.run(
        [*installed_command(), "tournament", "--resume", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    one_line_error(done.stderr, "line 2, is damaged or was changed")
