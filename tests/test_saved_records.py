"""Records saved by earlier versions of the library still load, replay to the result they
hold, and are written again to the same text: the files in tests/saved_records were made
before the histories began to store face-down cards hidden, with every card shown."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest

from thousand import Discard, Give, Record, bluff, dump_record, load_record, replay

SAVED = Path(__file__).resolve().parent / "saved_records"
THOUSAND_FILES = sorted(SAVED.glob("[!b]*.json"))
BLUFF_FILES = sorted(SAVED.glob("bluff-*.json"))


def written(dump: Callable[[Any, IO[str]], None], record: object) -> str:
    """The text ``dump`` writes for ``record``."""
    buffer = io.StringIO()
    dump(record, buffer)
    return buffer.getvalue()


def test_there_are_saved_records_of_every_kind() -> None:
    names = {path.stem for path in THOUSAND_FILES + BLUFF_FILES}
    expected = {f"{preset}-{kind}" for preset in ("russian", "polish", "polish-2p")
                for kind in ("deal", "match")} | {"bluff-3", "bluff-4"}  # fmt: skip
    assert names == expected


@pytest.mark.parametrize("path", THOUSAND_FILES, ids=lambda path: path.stem)
def test_a_saved_thousand_record_replays_and_is_written_again_the_same(path: Path) -> None:
    record = load_record(path)
    state = replay(record)
    assert state.is_over
    again = Record.from_state(state)
    assert again == record
    assert written(dump_record, again) == path.read_text(encoding="utf-8")
    # The exchange is there with its cards, as it was saved.
    exchanged = [action for deal in record.deals for _, action in deal.actions
                 if isinstance(action, (Give, Discard))]  # fmt: skip
    assert exchanged
    assert all(action.card is not None for action in exchanged)


@pytest.mark.parametrize("path", BLUFF_FILES, ids=lambda path: path.stem)
def test_a_saved_1000_record_replays_and_is_written_again_the_same(path: Path) -> None:
    record = bluff.load_record(path)
    state = bluff.replay(record)
    assert state.is_over
    again = bluff.Record.from_state(state)
    assert again == record
    assert written(bluff.dump_record, again) == path.read_text(encoding="utf-8")
    hides = [action for _, action in state.actions if isinstance(action, bluff.Hide)]
    assert hides
    assert all(action.card is not None for action in hides)
