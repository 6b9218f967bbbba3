"""What the records of both games share: the JSON header, field readers whose errors say where the
problem is, the ``[seat, "action"]`` lists, replaying actions with checks, and file I/O."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import IO, Any, Protocol, TypeVar

from thousand.common.config import load_json
from thousand.common.files import write_file
from thousand.common.json_values import is_whole, truth, whole
from thousand.errors import RecordError, ThousandError

VERSION = 1
"""The record format version this library writes and reads. Fields added since (the players'
names) are optional, so that every version-1 record still loads and older readers, which pass
over keys they do not know, still read new records."""
MAX_NAME = 200
"""The most characters a player's name in a record may have; longer names are cut when a
record is made, and refused when one is read."""

_KINDS = {bool: "true or false", int: "a number", float: "a number", type(None): "null"}
"""How a JSON value that is not text is named in an error (whatever its size)."""

A = TypeVar("A")
A_contra = TypeVar("A_contra", contravariant=True)
S = TypeVar("S", bound="Replayable[Any]")


class Replayable(Protocol[A_contra]):
    """A game state that replay can drive."""

    @property
    def current_player(self) -> int | None: ...

    def apply(self, action: A_contra) -> Any: ...


def header(format_name: str, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The first keys of every record: its format and version, and the players' names when they
    are known."""
    names = {} if players is None else {"players": list(players)}
    return {"format": format_name, "version": VERSION, **names}


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
    if not is_whole(version) or version != VERSION:
        raise RecordError(
            f"record version {version!r} is not supported (this library reads version {VERSION})"
        )


def integer(value: Any) -> int:
    """A whole number, or ``RecordError``."""
    return _recorded(whole, value)


def integers(value: Any) -> tuple[int, ...]:
    """A list of whole numbers, or ``RecordError``."""
    return tuple(integer(item) for item in as_list(value))


def boolean(value: Any) -> bool:
    """True or false, or ``RecordError``."""
    return _recorded(truth, value)


def _recorded(read: Callable[[Any], A], value: Any) -> A:
    """``read(value)``, its ``ValueError`` turned into a ``RecordError`` with the same words."""
    try:
        return read(value)
    except ValueError as error:
        raise RecordError(str(error)) from None


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


def player_names(value: Any, seats: int) -> tuple[str, ...]:
    """The players' names, one text of 1 to :data:`MAX_NAME` characters per seat, or
    ``RecordError``."""
    names = as_list(value)
    if len(names) != seats:
        raise RecordError(f"expected {seats} names, one per seat, not {len(names)}")
    for seat, name in enumerate(names):
        if not isinstance(name, str):
            kind = _KINDS.get(type(name), "a list or an object")
            raise RecordError(f"seat {seat}: a name is text, not {kind}")
        if not 0 < len(name) <= MAX_NAME:
            raise RecordError(
                f"seat {seat}: a name has 1 to {MAX_NAME} characters, not {len(name)}"
            )
    return tuple(names)


def named(players: Sequence[str] | None, seats: int) -> tuple[str, ...] | None:
    """The names a new record keeps: each cut to :data:`MAX_NAME` characters, one per seat."""
    if players is None:
        return None
    return player_names([name[:MAX_NAME] for name in players], seats)


def read_players(data: dict[str, Any], seats: int) -> tuple[str, ...] | None:
    """The record's optional ``players``: absent or ``null`` in records that do not name
    them."""
    value = data.get("players")
    return None if value is None else guard("players", lambda v: player_names(v, seats), value)


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
