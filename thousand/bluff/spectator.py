"""What a spectator of a 1000? game sees: the public table at one moment, and a game told as a
sequence of public steps.

A :class:`Spectator` holds the face-up cards of the climb, the owners of the face-down ones
(their cards hidden), the hand sizes, the piles' sizes and whose turn it is: no hand, no
face-down card, no pile order, no seed. Displays and loggers build on it; one that shows every
card takes them from the state's own properties. A view is built only when asked for.

    >>> from thousand import bluff
    >>> from thousand.bluff import spectator
    >>> view = spectator.spectate(bluff.new_game(bluff.Rules(players=3), seed=1))
    >>> view.hand_sizes, view.table
    ((7, 7, 7), ())
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import attrs

from thousand.bluff.actions import Action, Challenge, Hide
from thousand.bluff.cards import Card
from thousand.bluff.challenge import is_honest
from thousand.bluff.record import Record, replay
from thousand.bluff.results import Result
from thousand.bluff.rules import Rules
from thousand.bluff.state import FACE_DOWN, History, Phase, State, TableCard

__all__ = ["GameEnd", "Spectator", "Step", "between", "spectate", "steps"]


@attrs.frozen
class Spectator:
    """The public table of a 1000? game at one moment."""

    rules: Rules
    phase: Phase
    dealer: int
    player: int | None
    """The seat to act, ``None`` once the game is over."""
    turns: int
    """Actions taken so far."""
    hand_sizes: tuple[int, ...]
    draw_pile: int
    """Cards left to draw."""
    discards: int
    """Cards on the discard pile."""
    reshuffles: int
    """Times the discards were shuffled into a new draw pile."""
    table: tuple[TableCard, ...]
    """The current climb, bottom first; a face-down card shows ``None`` (unless a challenge
    that ended the game turned it over)."""
    restart: bool
    """The seat to act lost a challenge and must start the new climb with a card just drawn."""
    result: Result | None


@attrs.frozen
class Step:
    """One action as a spectator sees it: who took it, the action (a card played face down
    shows as ``None``), the table before and after it, and what a challenge turned over."""

    seat: int
    action: Action
    before: Spectator
    after: Spectator
    revealed: Card | None
    """The face-down card a challenge turned over, else ``None``."""
    honest: bool | None
    """Whether the challenged card was honest (it could have been played face up); ``None``
    when the action is no challenge."""


@attrs.frozen
class GameEnd:
    """The end of the game, a step of its own."""

    result: Result


def spectate(state: State) -> Spectator:
    """The public table of ``state``."""
    cards = state.kinds.cards
    node = state.history
    revealed = node is not None and isinstance(node[2], Challenge)
    last = len(state.table_entries) - 1
    table = tuple(
        TableCard(
            None if face_down and not (revealed and position == last) else cards[kind],
            owner,
            face_down,
            believed,
        )
        for position, (kind, owner, face_down, believed) in enumerate(state.table_entries)
    )
    return Spectator(
        rules=state.rules,
        phase=state.phase,
        dealer=state.origin.dealer,
        player=state.current_player,
        turns=state.turns,
        hand_sizes=tuple(len(hand) for hand in state.hand_kinds),
        draw_pile=len(state.pile) - state.pile_position,
        discards=len(state.discards),
        reshuffles=state.reshuffles,
        table=table,
        restart=state.restart_kinds is not None,
        result=state.result,
    )


def between(before: State, after: State) -> tuple[Step] | tuple[Step, GameEnd]:
    """The steps from ``before`` to ``after``, the state one action later: the action, and when
    it ends the game, the game's end.

    Raises:
        ValueError: ``after`` does not follow ``before`` by exactly one action.
    """
    node = after.history
    if after.turns != before.turns + 1 or node is None or not _follows(node[0], before.history):
        raise ValueError("after must be the state that follows before by exactly one action")
    _, seat, action = node
    revealed: Card | None = None
    honest: bool | None = None
    if isinstance(action, Challenge):
        revealed = before.kinds.cards[before.table_entries[-1][0]]
        honest = is_honest(before)
    public = Hide(None) if isinstance(action, Hide) else action
    step = Step(seat, public, spectate(before), spectate(after), revealed, honest)
    if after.result is None:
        return (step,)
    return step, GameEnd(after.result)


def _follows(earlier: History, history: History) -> bool:
    """Whether ``earlier`` is ``history``, or ``history`` with its face-down card just revealed
    (as a challenge reveals it)."""
    if earlier == history:
        return True
    return (
        earlier is not None
        and history is not None
        and earlier[:2] == history[:2]
        and history[2] == FACE_DOWN
        and isinstance(earlier[2], Hide)
    )


def steps(record: Record) -> Iterator[Step | GameEnd]:
    """A recorded game as a spectator follows it (the first step's ``before`` is the opening
    table): each action, and the game's end as a step of its own.

    Raises:
        RecordError: the record does not replay.
    """
    states: list[State] = []
    replay(record, watch=states.append)
    for before, after in itertools.pairwise(states):
        yield from between(before, after)
