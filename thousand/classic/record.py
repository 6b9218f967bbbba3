"""Match records: a versioned JSON document holding the rules, the seed, every deal's layout and
every action in order, the result, and when they are known, the players' names. :func:`replay`
re-validates each action and rebuilds the exact final state.

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
from collections.abc import Callable, Sequence
from typing import IO, Any

import attrs

from thousand.classic.actions import Action, parse_action
from thousand.classic.engine import new_deal, new_match
from thousand.classic.layout import Layout
from thousand.classic.results import DealResult, MatchResult
from thousand.classic.rules import Redeal, Rules
from thousand.classic.state import GameState
from thousand.common.record_io import (
    VERSION,
    as_list,
    boolean,
    check_header,
    check_result,
    field,
    guard,
    header,
    integer,
    integers,
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

__all__ = ["FORMAT", "VERSION", "Record", "RecordedDeal", "dump_record", "load_record", "replay"]

FORMAT = "thousand-record"


@attrs.frozen
class RecordedDeal:
    """One deal of a record: its layout and its actions as ``(seat, action)`` (none for a deal
    thrown in as dealt, which the engine skips by itself; a deal thrown in after the exchange
    ends with its last give or discard)."""

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
    players: tuple[str, ...] | None = attrs.field(default=None, eq=False)
    """Who played each seat (bot specs, ``you`` for a person at the terminal), when known. Like
    the result, the names take no part in equality: records are equal when they replay the
    same game."""

    @classmethod
    def from_state(cls, state: GameState, players: Sequence[str] | None = None) -> Record:
        """The record of the game that led to ``state`` (finished or not), naming the seats'
        ``players`` when given (each cut to ``MAX_NAME`` characters)."""
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
            players=named(players, state.rules.players),
        )

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready values (``players`` only when the names are known)."""
        return {
            **header(FORMAT, self.players),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "start_layout": None if self.start_layout is None else self.start_layout.to_dict(),
            "single_deal": self.single_deal,
            "deals": [
                {
                    "layout": deal.layout.to_dict(),
                    "actions": write_actions(deal.actions),
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
        check_header(data, FORMAT, "Thousand")
        deals = tuple(
            _read_deal(f"deal {number}", deal)
            for number, deal in enumerate(field(data, "deals", as_list))
        )
        for key in ("start_layout", "result"):
            if key not in data:
                raise RecordError(f"the record has no '{key}'")
        start = data["start_layout"]
        rules = field(data, "rules", Rules.from_dict)
        return cls(
            rules=rules,
            seed=field(data, "seed", integer),
            dealer=field(data, "dealer", integer),
            scores=field(data, "scores", integers),
            start_layout=None if start is None else guard("start_layout", Layout.from_dict, start),
            single_deal=field(data, "single_deal", boolean),
            deals=deals,
            result=data["result"],
            players=read_players(data, rules.players),
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        """A record from JSON text."""
        return cls.from_dict(read_document(text, FORMAT, "Thousand"))


def _read_deal(where: str, deal: Any) -> RecordedDeal:
    if not isinstance(deal, dict) or set(deal) != {"layout", "actions"}:
        raise RecordError(f"{where}: a deal has exactly the keys 'layout' and 'actions'")
    layout = guard(where, Layout.from_dict, deal["layout"])
    return RecordedDeal(layout, read_actions(where, deal["actions"], parse_action))


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


def replay(record: Record, watch: Callable[[GameState], object] | None = None) -> GameState:
    """Play the record's actions again, checking each, and return the final state; ``watch``,
    when given, sees the starting state and the state after every action (to show the game
    step by step).

    Raises:
        RecordError: a layout that the seed does not produce, an action that is illegal or taken
            by the wrong seat, actions recorded for a deal the engine threw in as dealt, or a
            result that differs from the recorded one; the message names the deal and the
            action.
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
    if watch is not None:
        watch(state)
    for number, deal in enumerate(record.deals):
        if number < len(state.deals):
            _check_thrown_in_as_dealt(number, deal, state.deals[number])
            continue
        if state.is_over:
            raise RecordError(f"deal {number}: the game was already over before this deal")
        if state.deal_number != number or state.actions:
            raise RecordError(f"deal {number}: the previous deal's actions did not finish it")
        if deal.layout != state.layout:
            raise RecordError(f"deal {number}: the recorded cards are not the cards of this deal")
        state = replay_actions(f"deal {number}, ", state, deal.actions, watch)
    check_result(record.result, result_summary(state.result))
    return state


def _check_thrown_in_as_dealt(number: int, deal: RecordedDeal, result: DealResult) -> None:
    """A deal the engine finished before any action can only be one thrown in as dealt (it then
    dealt the next deal by itself); its record holds its cards and no action."""
    if deal.layout != result.layout:
        raise RecordError(f"deal {number}: the recorded cards are not the cards of this deal")
    thrown = result.thrown_in
    if thrown is None or thrown.when is not Redeal.DEALT:
        raise RecordError(f"deal {number}: the engine finished this deal before its first action")
    if deal.actions:
        raise RecordError(
            f"deal {number}: {thrown}, so it has no action, but the record gives it "
            f"{len(deal.actions)}"
        )


def dump_record(record: Record, target: str | os.PathLike[str] | IO[str]) -> None:
    """Write a record as JSON to a path or an open text file."""
    write_text(record.to_json(), target)


def load_record(source: str | os.PathLike[str] | IO[str]) -> Record:
    """Read a record written by :func:`dump_record` from a path or an open text file."""
    return Record.from_json(read_text(source))
