"""1000? game records: the rules, the seed, the deal and every action (and the players' names
when they are known), replayed with checks.

Examples:
    >>> from thousand.bluff import Rules, new_game
    >>> state = new_game(Rules(players=3), seed=4)
    >>> state = state.apply(state.legal_actions()[0])
    >>> replay(Record.from_json(Record.from_state(state).to_json())) == state
    True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import IO, Any

import attrs

from thousand.bluff.actions import Action, parse_action
from thousand.bluff.engine import new_game
from thousand.bluff.layout import Layout
from thousand.bluff.results import Result
from thousand.bluff.rules import Rules
from thousand.bluff.state import State
from thousand.common.record_io import (
    as_list,
    check_header,
    check_result,
    field,
    guard,
    header,
    integer,
    named,
    read_actions,
    read_document,
    read_players,
    read_text,
    replay_actions,
    write_actions,
    write_text,
)
from thousand.errors import RecordError, ThousandError

__all__ = ["FORMAT", "Record", "dump_record", "load_record", "replay"]

FORMAT = "thousand-1000?-record"
GAME = "1000?"


@attrs.frozen
class Record:
    """Everything needed to replay a 1000? game exactly."""

    rules: Rules
    seed: int
    dealer: int
    layout: Layout | None
    """The deal when it was given by hand rather than shuffled from the seed."""
    actions: tuple[tuple[int, Action], ...]
    result: dict[str, Any] | None = attrs.field(eq=False)
    """A summary of the result, checked on replay."""
    players: tuple[str, ...] | None = attrs.field(default=None, eq=False)
    """Who played each seat (bot specs, ``you`` for a person at the terminal), when known; not
    part of equality, as in a Thousand record."""

    @classmethod
    def from_state(cls, state: State, players: Sequence[str] | None = None) -> Record:
        """The record of the game that led to ``state`` (finished or not), naming the seats'
        ``players`` when given."""
        origin = state.origin
        return cls(
            rules=state.rules,
            seed=origin.seed,
            dealer=origin.dealer,
            layout=origin.layout,
            actions=state.actions,
            result=result_summary(state.result),
            players=named(players, state.rules.players),
        )

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready values."""
        return {
            **header(FORMAT, self.players),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "dealer": self.dealer,
            "layout": None if self.layout is None else self.layout.to_dict(),
            "actions": write_actions(self.actions),
            "result": self.result,
        }

    def to_json(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """A record from :meth:`to_dict` output; raises ``RecordError`` naming what is wrong."""
        check_header(data, FORMAT, GAME)
        for key in ("layout", "result"):
            if key not in data:
                raise RecordError(f"the record has no '{key}'")
        layout = data["layout"]
        rules = field(data, "rules", Rules.from_dict)
        return cls(
            rules=rules,
            seed=field(data, "seed", integer),
            dealer=field(data, "dealer", integer),
            layout=None if layout is None else guard("layout", Layout.from_dict, layout),
            actions=read_actions("actions", field(data, "actions", as_list), parse_action),
            result=data["result"],
            players=read_players(data, rules.players),
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        """A record from JSON text."""
        return cls.from_dict(read_document(text, FORMAT, GAME))


def result_summary(result: Result | None) -> dict[str, Any] | None:
    """The parts of a result that a record keeps and a replay must reproduce."""
    if result is None:
        return None
    return {
        "winners": list(result.winners),
        "hand_sizes": list(result.hand_sizes),
        "turns": result.turns,
        "adjudicated": result.adjudicated,
    }


def replay(record: Record, watch: Callable[[State], object] | None = None) -> State:
    """Play the record's actions again, checking each, and return the final state; ``watch``,
    when given, sees the starting state and the state after every action.

    Raises:
        RecordError: an illegal action, an action by the wrong seat, or a different result; the
            message names the action.
    """
    try:
        state = new_game(record.rules, seed=record.seed, layout=record.layout, dealer=record.dealer)
    except ThousandError as error:
        raise RecordError(f"the record's start is invalid: {error}") from None
    if watch is not None:
        watch(state)
    state = replay_actions("", state, record.actions, watch)
    check_result(record.result, result_summary(state.result))
    return state


def dump_record(record: Record, target: str | os.PathLike[str] | IO[str]) -> None:
    """Write a record as JSON to a path or an open text file."""
    write_text(record.to_json(), target)


def load_record(source: str | os.PathLike[str] | IO[str]) -> Record:
    """Read a record written by :func:`dump_record`."""
    return Record.from_json(read_text(source))
