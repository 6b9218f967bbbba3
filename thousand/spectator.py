"""What a spectator of a Thousand game sees: the public table at one moment, and a game told as
a sequence of public steps.

A :class:`Spectator` holds everything on the table and nothing hidden: no hand, no face-down
talon or musik, no card given or laid aside, no seed. Displays and loggers build on it instead of
reading the engine's state; one that shows hidden cards (a replay with every hand open) takes
them from the state's own properties. Nothing here is computed during play: a view is built only
when asked for.

    >>> import thousand
    >>> from thousand import spectator
    >>> state = thousand.new_deal(thousand.Rules.preset("russian"), seed=1)
    >>> view = spectator.spectate(state)
    >>> view.phase, view.hand_sizes, view.talon
    (<Phase.AUCTION: 'auction'>, (7, 7, 7), ())
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import attrs

from thousand.actions import Action, Play
from thousand.cards import Card, Suit
from thousand.observation import Trick
from thousand.record import Record, replay
from thousand.results import DealResult, MatchResult
from thousand.rules import Rules
from thousand.scoring import above_lock, points_won
from thousand.state import ACES, GameState, Phase
from thousand.talon import shown_talon
from thousand.tricks import trick_winner, tricks_won

__all__ = ["DealEnd", "DealScore", "Spectator", "Step", "between", "spectate", "steps"]


@attrs.frozen
class Spectator:
    """The public table of a Thousand game at one moment."""

    rules: Rules
    phase: Phase
    deal_number: int
    """The deal in progress, counted from 0."""
    dealer: int
    player: int | None
    """The seat to act, ``None`` once the game is over."""
    scores: tuple[int, ...]
    """Match scores before the deal in progress."""
    barrel: tuple[int | None, ...]
    """Per seat: ``None`` when off the barrel, else the deals already spent on it."""
    locked: tuple[bool, ...]
    """Per seat: above the lock threshold, where only one's own contracts score."""
    bid: int
    """The highest bid so far; after the auction, the winning bid."""
    bidder: int
    """The highest bidder so far; after the auction, the declarer."""
    passed: tuple[bool, ...]
    """Per seat: has passed in this deal's auction."""
    declarer: int | None
    """The declarer once the auction is over."""
    talon: tuple[Card, ...]
    """The talon (three players) or the musik taken (two), once shown; else empty."""
    musik: int
    """Two players: the musik taken (1 or 2), else 0."""
    contract: int | None
    hand_sizes: tuple[int, ...]
    trick_number: int
    """The trick being played (or about to be led), counted from 1."""
    trick: tuple[tuple[int, Card], ...]
    """The cards on the table as ``(seat, card)``, in the order played."""
    tricks: tuple[Trick, ...]
    """This deal's finished tricks."""
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    """Card points won in tricks plus marriages declared, per seat, this deal (at the end of a
    deal: its points as scored)."""
    trump: Suit | None
    melds: tuple[tuple[int, Suit | None], ...]
    """Declared marriages as ``(seat, suit)``; ``None`` for the four aces."""
    result: DealScore | MatchResult | None
    """The game's result once it is over (a single deal's as a :class:`DealScore`)."""


@attrs.frozen
class Step:
    """One action as a spectator sees it: who took it, the action (a card given or laid aside
    shows as ``None``), the table before and right after it, and the trick it completed."""

    seat: int
    action: Action
    before: Spectator
    after: Spectator
    """The table after the action; when the action ends a deal, that deal's last table (its
    last trick collected, its points as scored), before the next deal is dealt."""
    trick: Trick | None
    """The trick this action completed, else ``None``."""


@attrs.frozen
class DealScore:
    """A finished deal's result as the table saw it: a :class:`~thousand.DealResult` without
    its cards (the layout and the actions stay in the record)."""

    number: int
    """The deal's number in the match, from 0."""
    dealer: int
    declarer: int
    bid: int
    """The winning bid of the auction."""
    contract: int | None
    """The contract fixed after the exchange; ``None`` when the declarer conceded."""
    conceded: bool
    made: bool
    """Whether the declarer made the contract."""
    points: tuple[int, ...]
    """Deal points per seat: card points of won tricks plus declared marriages (and cards set
    aside where the rules credit them)."""
    deal_scores: tuple[int, ...]
    """Per seat, what the deal scored before barrel or lock rules."""
    scores: tuple[int, ...]
    """Match scores after the deal, barrel or lock rules applied."""
    barrel: tuple[int | None, ...]
    """After the deal, per seat: ``None`` off the barrel, else the deals already spent on it."""

    @classmethod
    def of(cls, deal: DealResult) -> DealScore:
        """The public part of ``deal``."""
        return cls(
            number=deal.number,
            dealer=deal.dealer,
            declarer=deal.declarer,
            bid=deal.bid,
            contract=deal.contract,
            conceded=deal.conceded,
            made=deal.made,
            points=deal.points,
            deal_scores=deal.deal_scores,
            scores=deal.scores,
            barrel=deal.barrel,
        )


@attrs.frozen
class DealEnd:
    """The end of a deal, a step of its own: its result, and the table that follows (the next
    deal's start, or the finished game)."""

    score: DealScore
    after: Spectator


def spectate(state: GameState) -> Spectator:
    """The public table of ``state``."""
    rules = state.rules
    players = rules.players
    tricks = state.observation(0).tricks  # finished tricks are public: any seat's will do
    return Spectator(
        rules=rules,
        phase=state.phase,
        deal_number=state.deal_number,
        dealer=state.dealer,
        player=state.current_player,
        scores=state.scores,
        barrel=state.barrel,
        locked=tuple(above_lock(rules, score) for score in state.scores),
        bid=state.bid,
        bidder=state.bidder,
        passed=tuple(bool(state.passed_mask >> seat & 1) for seat in range(players)),
        declarer=state.declarer,
        talon=shown_talon(state),
        musik=state.musik,
        contract=state.contract,
        hand_sizes=tuple(mask.bit_count() for mask in state.hand_masks),
        trick_number=len(tricks) + 1,
        trick=state.trick,
        tricks=tricks,
        tricks_won=tricks_won(state),
        points=points_won(state),
        trump=state.trump,
        melds=tuple((seat, None if suit == ACES else Suit(suit)) for seat, suit in state.melds),
        result=DealScore.of(state.result) if isinstance(state.result, DealResult) else state.result,
    )


def between(before: GameState, after: GameState) -> tuple[Step] | tuple[Step, DealEnd]:
    """The steps from ``before`` to ``after``, the state one action later: the action, and
    when it ends a deal, the deal's end.

    Raises:
        ValueError: ``after`` does not follow ``before`` by exactly one action.
    """
    seat, action, finished = _last_action(before, after)
    view = spectate(before)
    trick = _completed(view, seat, action, before.trump_suit)  # only a lead changes trump
    if finished is None:
        return (Step(seat, action, view, spectate(after), trick),)
    step = Step(seat, action, view, _finished_table(view, finished, trick), trick)
    return step, DealEnd(DealScore.of(finished), spectate(after))


def _last_action(before: GameState, after: GameState) -> tuple[int, Action, DealResult | None]:
    """The seat and action leading from ``before`` to ``after``, and the deal it ended."""
    mismatch = ValueError("after must be the state that follows before by exactly one action")
    if after.deal_number != before.deal_number:
        finished = after.deals[-1] if after.deals else None
        if (
            finished is None
            or len(after.deals) != len(before.deals) + 1
            or len(finished.actions) != len(before.actions) + 1
        ):
            raise mismatch
        seat, action = finished.actions[-1]
        return seat, action, finished
    node = after.history
    if node is None or node[0] != before.history:
        raise mismatch
    _, seat, action = node
    if isinstance(after.result, DealResult):
        return seat, action, after.result
    if isinstance(after.result, MatchResult):
        return seat, action, after.deals[-1]
    return seat, action, None


def _completed(view: Spectator, seat: int, action: Action, trump: int) -> Trick | None:
    """The trick ``action`` by ``seat`` completes at the table ``view``, else ``None``."""
    if not isinstance(action, Play) or len(view.trick) + 1 != view.rules.players:
        return None
    trick = (*view.trick, (seat, action.card))
    winner = trick[trick_winner(tuple(card.index for _, card in trick), trump)][0]
    return Trick(trick[0][0], tuple(card for _, card in trick), winner)


def _finished_table(view: Spectator, deal: DealResult, trick: Trick | None) -> Spectator:
    """A deal's last table: ``view`` before its last action, with that action's trick
    collected and the deal's points as scored."""
    if trick is None:
        return attrs.evolve(view, player=None, points=deal.points)
    won = list(view.tricks_won)
    won[trick.winner] += 1
    return attrs.evolve(
        view,
        player=None,
        hand_sizes=(0,) * view.rules.players,
        trick_number=view.trick_number + 1,
        trick=(),
        tricks=(*view.tricks, trick),
        tricks_won=tuple(won),
        points=deal.points,
    )


def steps(record: Record) -> Iterator[Step | DealEnd]:
    """A recorded game as a spectator follows it (the first step's ``before`` is the opening
    table): each action, each deal's end a step of its own.

    Raises:
        RecordError: the record does not replay.
    """
    states: list[GameState] = []
    replay(record, watch=states.append)
    for before, after in itertools.pairwise(states):
        yield from between(before, after)
