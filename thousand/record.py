"""Match records: a versioned JSON document holding the rules, the seed, every deal's layout and
every action in order, and the result. :func:`replay` re-validates each action and rebuilds the
exact final state.

    >>> from thousand import Rules, new_match
    >>> state = new_match(Rules.preset("russian"), seed=7)
    >>> state = state.apply(state.legal_actions()[0])
    >>> record = Record.from_state(state)
    >>> replay(Record.from_json(record.to_json())) == state
    True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import IO, Any

import attrs

from thousand.actions import Action, parse_action
from thousand.errors import RecordError, ThousandError
from thousand.game import new_deal, new_match
from thousand.layout import Layout
from thousand.results import DealResult, MatchResult
from thousand.rules import Rules
from thousand.state import GameState

__all__ = ["FORMAT", "VERSION", "Record", "RecordedDeal", "dump_record", "load_record", "replay"]

FORMAT = "thousand-record"
VERSION = 1


@attrs.frozen
class RecordedDeal:
    """One deal of a record: its layout and its actions as ``(seat, action)``."""

    layout: Layout
    actions: tuple[tuple[int, Action], ...]


@attrs.frozen
class Record:
    """Everything needed to replay a match (or a single deal) exactly."""

    rules: Rules
    seed: int
    dealer: int
    """The first dealer."""
    scores: tuple[int, ...]
    """The starting scores."""
    start_layout: Layout | None
    """The first deal's layout when it was given by hand rather than dealt from the seed."""
    single_deal: bool
    deals: tuple[RecordedDeal, ...]
    result: dict[str, Any] | None = attrs.field(eq=False)
    """A summary of the result (winners, scores, settlement), checked on replay."""

    @classmethod
    def from_state(cls, state: GameState) -> Record:
        """The record of the game that led to ``state`` (finished or not)."""
        deals = [RecordedDeal(deal.layout, deal.actions) for deal in state.deals]
        if not state.is_over:
            deals.append(RecordedDeal(state.layout, state.actions))
        origin = state.origin
        return cls(
            rules=state.rules,
            seed=origin.seed,
            dealer=origin.dealer,
            scores=origin.scores,
            start_layout=origin.layout,
            single_deal=origin.single_deal,
            deals=tuple(deals),
            result=result_summary(state.result),
        )

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready values."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "start_layout": None if self.start_layout is None else self.start_layout.to_dict(),
            "single_deal": self.single_deal,
            "deals": [
                {
                    "layout": deal.layout.to_dict(),
                    "actions": [[seat, str(action)] for seat, action in deal.actions],
                }
                for deal in self.deals
            ],
            "result": self.result,
        }

    def to_json(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """A record from :meth:`to_dict` output; raises ``RecordError`` naming what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a Thousand record (its 'format' is not '{FORMAT}')")
        version = data.get("version")
        if not _is_integer(version) or version != VERSION:
            raise RecordError(
                f"record version {data.get('version')!r} is not supported (this library reads "
                f"version {VERSION})"
            )
        deals = tuple(
            _read_deal(f"deal {number}", deal)
            for number, deal in enumerate(_field(data, "deals", _list))
        )
        for key in ("start_layout", "result"):
            if key not in data:
                raise RecordError(f"the record has no '{key}'")
        start = data["start_layout"]
        return cls(
            rules=_field(data, "rules", Rules.from_dict),
            seed=_field(data, "seed", _integer),
            dealer=_field(data, "dealer", _integer),
            scores=_field(data, "scores", _integers),
            start_layout=None if start is None else _guard("start_layout", Layout.from_dict, start),
            single_deal=_field(data, "single_deal", _boolean),
            deals=deals,
            result=data["result"],
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        """A record from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"the record is not valid JSON: {error}") from None
        return cls.from_dict(data)


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _integer(value: Any) -> int:
    if not _is_integer(value):
        raise RecordError(f"expected a whole number, not {value!r}")
    return int(value)


def _integers(value: Any) -> tuple[int, ...]:
    return tuple(_integer(item) for item in _list(value))


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"expected true or false, not {value!r}")
    return value


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"expected a list, not {value!r}")
    return value


def _guard(where: str, read: Callable[[Any], Any], value: Any) -> Any:
    """``read(value)``, with any error turned into a ``RecordError`` that says where."""
    try:
        return read(value)
    except (ThousandError, TypeError, KeyError, ValueError) as error:
        raise RecordError(f"{where}: {error}") from None


def _field(data: dict[str, Any], key: str, read: Callable[[Any], Any]) -> Any:
    if key not in data:
        raise RecordError(f"the record has no '{key}'")
    return _guard(key, read, data[key])


def _read_action(entry: Any) -> tuple[int, Action]:
    if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str)):
        raise RecordError(f'an action is written [seat, "text"], not {entry!r}')
    return _integer(entry[0]), parse_action(entry[1])


def _read_deal(where: str, deal: Any) -> RecordedDeal:
    if not isinstance(deal, dict) or set(deal) != {"layout", "actions"}:
        raise RecordError(f"{where}: a deal has exactly the keys 'layout' and 'actions'")
    layout = _guard(where, Layout.from_dict, deal["layout"])
    entries = _guard(where, _list, deal["actions"])
    actions = tuple(
        _guard(f"{where}, action {position}", _read_action, entry)
        for position, entry in enumerate(entries)
    )
    return RecordedDeal(layout, actions)


def result_summary(result: DealResult | MatchResult | None) -> dict[str, Any] | None:
    """The parts of a result that a record keeps and a replay must reproduce."""
    if isinstance(result, MatchResult):
        return {
            "winners": list(result.winners),
            "scores": list(result.scores),
            "settlement": None if result.settlement is None else list(result.settlement),
            "deals": result.deals,
            "adjudicated": result.adjudicated,
        }
    if isinstance(result, DealResult):
        return {"deal_scores": list(result.deal_scores), "scores": list(result.scores)}
    return None


def replay(record: Record) -> GameState:
    """Play the record's actions again, checking each, and return the final state.

    Raises:
        RecordError: a layout that the seed does not produce, an action that is illegal or taken
            by the wrong seat, or a result that differs from the recorded one; the message names
            the deal and the action.
    """
    start = new_deal if record.single_deal else new_match
    try:
        state = start(
            record.rules,
            seed=record.seed,
            layout=record.start_layout,
            dealer=record.dealer,
            scores=record.scores,
        )
    except ThousandError as error:
        raise RecordError(f"the record's start is invalid: {error}") from None
    for number, deal in enumerate(record.deals):
        if state.is_over:
            raise RecordError(f"deal {number}: the game was already over before this deal")
        if state.deal_number != number or state.actions:
            raise RecordError(f"deal {number}: the previous deal's actions did not finish it")
        if deal.layout != state.layout:
            raise RecordError(f"deal {number}: the recorded cards are not the cards of this deal")
        for position, (seat, action) in enumerate(deal.actions):
            here = f"deal {number}, action {position} ('{action}' by seat {seat})"
            if seat != state.current_player:
                raise RecordError(f"{here}: it is seat {state.current_player}'s turn")
            try:
                state = state.apply(action)
            except ThousandError as error:
                raise RecordError(f"{here}: {error}") from None
    if result_summary(state.result) != record.result:
        raise RecordError(
            f"the recorded result {record.result} differs from the replayed one "
            f"{result_summary(state.result)}"
        )
    return state


def dump_record(record: Record, target: str | os.PathLike[str] | IO[str]) -> None:
    """Write a record as JSON to a path or an open text file."""
    if isinstance(target, (str, os.PathLike)):
        with open(target, "w", encoding="utf-8") as file:
            file.write(record.to_json())
    else:
        target.write(record.to_json())


def load_record(source: str | os.PathLike[str] | IO[str]) -> Record:
    """Read a record written by :func:`dump_record` from a path or an open text file."""
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, encoding="utf-8") as file:
                text = file.read()
        except OSError as error:
            raise RecordError(f"cannot read the record: {error}") from None
    else:
        text = source.read()
    return Record.from_json(text)
