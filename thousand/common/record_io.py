"""What the records of both games share: the JSON header, field readers whose errors say where the
problem is, the ``[seat, "action"]`` lists, replaying actions with checks, and file I/O."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import IO, Any, Protocol, TypeVar

from thousand.common.config import load_json
from thousand.common.files import write_file
from thousand.errors import RecordError, ThousandError

VERSION = 1
"""The record format version this library writes and reads."""

A = TypeVar("A")
A_contra = TypeVar("A_contra", contravariant=True)
S = TypeVar("S", bound="Replayable[Any]")


class Replayable(Protocol[A_contra]):
    """A game state that replay can drive."""

    @property
    def current_player(self) -> int | None: ...

    def apply(self, action: A_contra) -> Any: ...


def header(format_name: str) -> dict[str, Any]:
    """The first keys of every record: its format and version."""
    return {"format": format_name, "version": VERSION}


def read_document(text: str, format_name: str, game: str) -> dict[str, Any]:
    """Parse record JSON text and check its header."""
    data = load_json(text, RecordError, "the record is")
    check_header(data, format_name, game)
    return data  # type: ignore[no-any-return]


def check_header(data: Any, format_name: str, game: str) -> None:
    """Raise ``RecordError`` unless ``data`` is a JSON object of this format and version."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != format_name:
        raise RecordError(f"not a {game} record (its 'format' is not '{format_name}')")
    version = data.get("version")
    if not is_integer(version) or version != VERSION:
        raise RecordError(
            f"record version {version!r} is not supported (this library reads version {VERSION})"
        )


def is_integer(value: Any) -> bool:
    """Whether a JSON value is a whole number (and not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def integer(value: Any) -> int:
    """A whole number, or ``RecordError``."""
    if not is_integer(value):
        raise RecordError(f"expected a whole number, not {value!r}")
    return int(value)


def integers(value: Any) -> tuple[int, ...]:
    """A list of whole numbers, or ``RecordError``."""
    return tuple(integer(item) for item in as_list(value))


def boolean(value: Any) -> bool:
    """True or false, or ``RecordError``."""
    if not isinstance(value, bool):
        raise RecordError(f"expected true or false, not {value!r}")
    return value


def as_list(value: Any) -> list[Any]:
    """A JSON list, or ``RecordError``."""
    if not isinstance(value, list):
        raise RecordError(f"expected a list, not {value!r}")
    return value


def guard(where: str, read: Callable[[Any], Any], value: Any) -> Any:
    """``read(value)``, with any error turned into a ``RecordError`` that says where."""
    try:
        return read(value)
    except (ThousandError, TypeError, KeyError, ValueError) as error:
        raise RecordError(f"{where}: {error}") from None


def field(data: dict[str, Any], key: str, read: Callable[[Any], Any]) -> Any:
    """Read a required key of the record with ``read``."""
    if key not in data:
        raise RecordError(f"the record has no '{key}'")
    return guard(key, read, data[key])


def read_actions(where: str, value: Any, parse: Callable[[str], A]) -> tuple[tuple[int, A], ...]:
    """A list of ``[seat, "action text"]`` entries."""

    def read_entry(entry: Any) -> tuple[int, A]:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str)):
            raise RecordError(f'an action is written [seat, "text"], not {entry!r}')
        return integer(entry[0]), parse(entry[1])

    entries = guard(where, as_list, value)
    return tuple(
        guard(f"{where}, action {position}", read_entry, entry)
        for position, entry in enumerate(entries)
    )


def write_actions(actions: Sequence[tuple[int, object]]) -> list[list[object]]:
    """Actions as ``[seat, "action text"]`` entries."""
    return [[seat, str(action)] for seat, action in actions]


def replay_actions(
    where: str,
    state: S,
    actions: Sequence[tuple[int, A]],
    watch: Callable[[Any], object] | None = None,
) -> S:
    """Apply each action, checking the seat and legality, showing each new state to ``watch``;
    errors name the action's position."""
    for position, (seat, action) in enumerate(actions):
        here = f"{where}action {position} ('{action}' by seat {seat})"
        if state.current_player is None:
            raise RecordError(f"{here}: the game was already over")
        if seat != state.current_player:
            raise RecordError(f"{here}: it is seat {state.current_player}'s turn")
        try:
            state = state.apply(action)
        except ThousandError as error:
            raise RecordError(f"{here}: {error}") from None
        if watch is not None:
            watch(state)
    return state


def check_result(recorded: Any, replayed: Any) -> None:
    """Raise ``RecordError`` when a replay's result summary differs from the recorded one."""
    if replayed != recorded:
        raise RecordError(
            f"the recorded result {recorded} differs from the replayed one {replayed}"
        )


def write_text(text: str, target: str | os.PathLike[str] | IO[str]) -> None:
    """Write text to a path (whole, never through a link there: see
    :func:`~thousand.common.files.write_file`) or an open text file."""
    if isinstance(target, (str, os.PathLike)):
        write_file(target, text)
    else:
        target.write(text)


def read_text(source: str | os.PathLike[str] | IO[str]) -> str:
    """Read text from a path or an open text file; an unreadable file, or one that is not UTF-8
    text, is a ``RecordError``."""
    try:
        if not isinstance(source, (str, os.PathLike)):
            return source.read()
        with open(source, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise RecordError(f"cannot read the record: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise RecordError(
            f"the record is not UTF-8 text (byte {error.start} cannot be read)"
        ) from None
