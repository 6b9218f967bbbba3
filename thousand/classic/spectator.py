"""What a spectator of a Thousand game sees: the public table at one moment, and a game told as
a sequence of public steps.

A :class:`Spectator` holds everything on the table and nothing hidden: no hand, no face-down
talon or musik, no card given or laid aside, no seed. Displays and loggers build on it instead of
reading the engine's state; one that shows hidden cards (a replay with every hand open) takes
them from the state's own properties. Nothing here is computed during play: a view is built only
when asked for.

At a table of four one seat sits out each deal: it holds no cards, never acts, and (under rules
with a sitter's bonus) scores for the aces and any marriage in the talon once it is shown. A
deal thrown in (house rules) ends with a :class:`DealEnd` whose score names the reason; a deal
thrown in as it was dealt takes no action at all, so it ends with the action that ended the deal
before it (or, at the start of a game, before the first table: see :func:`opening`).

    >>> import thousand
    >>> from thousand.classic import spectator
    >>> state = thousand.new_deal(thousand.Rules.preset("russian"), seed=1)
    >>> view = spectator.spectate(state)
    >>> view.phase, view.hand_sizes, view.talon
    (<Phase.AUCTION: 'auction'>, (7, 7, 7), ())
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

import attrs

from thousand.classic.actions import Action, Play
from thousand.classic.cards import Card, Suit
from thousand.classic.engine import start_of_deal
from thousand.classic.marriages import ACES
from thousand.classic.observation import Trick
from thousand.classic.record import Record, replay
from thousand.classic.redeals import ThrowIn
from thousand.classic.results import DealResult, MatchResult
from thousand.classic.rules import Redeal, Rules, above_lock
from thousand.classic.scoring import points_won, sitter_bonus
from thousand.classic.state import GameState, Phase
from thousand.classic.talon import shown_talon
from thousand.classic.tricks import trick_complete, trick_winner, tricks_won

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "DealEnd",
    "DealScore",
    "Spectator",
    "Step",
    "between",
    "dealt_again",
    "opening",
    "spectate",
    "steps",
]


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
    sitter: int | None
    """Four seats: the seat sitting out the deal (it holds no cards and never acts); else
    ``None``."""
    sitter_bonus: int
    """Four seats: what the seat sitting out scores for the talon (per ace, plus a marriage
    in it) once the talon is shown; 0 before that, or without a sitter's bonus."""
    opening_bid: int
    """The bid the forehand is committed to in this deal (``cap_base`` in the gold set's
    deals)."""
    scores: tuple[int, ...]
    """Match scores before the deal in progress."""
    barrel: tuple[int | None, ...]
    """Per seat: ``None`` when off the barrel, else the deals already spent on it."""
    locked: tuple[bool, ...]
    """Per seat: above the lock threshold, where only one's own contracts score."""
    bolts: tuple[int, ...]
    """Per seat: the bolts counted towards the next penalty (house rule ``bolts``)."""
    falls: tuple[int, ...]
    """Per seat: the falls from the barrel counted towards a reset (``barrel_reset_falls``)."""
    bid: int
    """The highest bid so far; after the auction, the winning bid."""
    bidder: int
    """The highest bidder so far; after the auction, the declarer."""
    passed: tuple[bool, ...]
    """Per seat: has passed in this deal's auction."""
    declarer: int | None
    """The declarer once the auction is over."""
    talon: tuple[Card, ...]
    """The talon (three or four seats) or the musik taken (two), once shown; else empty."""
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
    sitter: int | None
    """Four seats: the seat that sat the deal out; else ``None``."""
    declarer: int
    """The declarer (a deal thrown in as dealt: the forehand, who never bid)."""
    bid: int
    """The winning bid of the auction."""
    contract: int | None
    """The contract fixed after the exchange; ``None`` when the declarer conceded or the deal
    was thrown in."""
    thrown_in: ThrowIn | None
    """Why the deal was thrown in (it then scored nothing), else ``None``."""
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
    bolts: tuple[int, ...]
    """After the deal, per seat: the bolts counted towards the next penalty."""
    falls: tuple[int, ...]
    """After the deal, per seat: the falls from the barrel counted towards a reset."""

    @classmethod
    def of(cls, deal: DealResult) -> DealScore:
        """The public part of ``deal``."""
        return cls(
            number=deal.number,
            dealer=deal.dealer,
            sitter=deal.layout.sitter,
            declarer=deal.declarer,
            bid=deal.bid,
            contract=deal.contract,
            thrown_in=deal.thrown_in,
            conceded=deal.conceded,
            made=deal.made,
            points=deal.points,
            deal_scores=deal.deal_scores,
            scores=deal.scores,
            barrel=deal.barrel,
            bolts=deal.bolts or (0,) * len(deal.scores),
            falls=deal.falls or (0,) * len(deal.scores),
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
    talon = shown_talon(state)
    return Spectator(
        rules=rules,
        phase=state.phase,
        deal_number=state.deal_number,
        dealer=state.dealer,
        player=state.current_player,
        sitter=state.sitter,
        sitter_bonus=sitter_bonus(rules, sum(card.bit for card in talon)),
        opening_bid=rules.opening_bid_of(state.context.scored_deals),
        scores=state.scores,
        barrel=state.barrel,
        locked=tuple(above_lock(rules, score) for score in state.scores),
        bolts=state.bolts,
        falls=state.falls,
        bid=state.bid,
        bidder=state.bidder,
        passed=tuple(bool(state.passed_mask >> seat & 1) for seat in range(players)),
        declarer=state.declarer,
        talon=talon,
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


def between(before: GameState, after: GameState) -> tuple[Step, Unpack[tuple[DealEnd, ...]]]:
    """The steps from ``before`` to ``after``, the state one action later: the action, and
    when it ends a deal, the deal's end, then the end of each deal thrown in as dealt after it
    (house rules: the engine deals those again by itself, with no action taken).

    Raises:
        ValueError: ``after`` does not follow ``before`` by exactly one action.
    """
    seat, action, finished = _last_action(before, after)
    view = spectate(before)
    trick = _completed(view, seat, action, before.trump_suit)  # only a lead changes trump
    if not finished:
        return (Step(seat, action, view, spectate(after), trick),)
    step = Step(seat, action, view, _finished_table(view, finished[0], trick), trick)
    return step, *_ends(after, finished)


def _last_action(before: GameState, after: GameState) -> tuple[int, Action, tuple[DealResult, ...]]:
    """The seat and action leading from ``before`` to ``after``, and the deals it ended: the
    deal it finished, then any deals thrown in as dealt after it."""
    mismatch = ValueError("after must be the state that follows before by exactly one action")
    if before.is_over:
        raise mismatch
    finished = after.deals[len(before.deals) :]
    if finished:
        if len(finished[0].actions) != len(before.actions) + 1 or not all(
            _dealt_and_thrown_in(deal) for deal in finished[1:]
        ):
            raise mismatch
        seat, action = finished[0].actions[-1]
        return seat, action, finished
    node = after.history
    if node is None or node[0] != before.history or after.deal_number != before.deal_number:
        raise mismatch
    _, seat, action = node
    return seat, action, ()


def _dealt_and_thrown_in(deal: DealResult) -> bool:
    return deal.thrown_in is not None and deal.thrown_in.when is Redeal.DEALT


def _ends(state: GameState, deals: tuple[DealResult, ...]) -> tuple[DealEnd, ...]:
    """The ends of ``deals``, the last finished deals of ``state``'s game, each with the table
    that followed it: the next of them as dealt, or ``state``'s table after the last."""
    tables = [spectate(dealt_again(state, deal)) for deal in deals[1:]]
    tables.append(spectate(state))
    return tuple(
        DealEnd(DealScore.of(deal), table) for deal, table in zip(deals, tables, strict=True)
    )


def dealt_again(state: GameState, deal: DealResult) -> GameState:
    """The start of ``deal``, a deal of ``state``'s game that was thrown in, as it was dealt:
    its cards, the scores and counts before it (a throw-in changes none), the auction about to
    begin. No state a game passes through shows a deal thrown in as dealt; this one does, to
    tell it.

    Raises:
        ValueError: ``deal`` was not thrown in.
    """
    if deal.thrown_in is None:
        raise ValueError("only a deal thrown in is dealt again from its result")
    return start_of_deal(
        state.rules,
        state.origin,
        deal.number,
        deal.dealer,
        deal.scores,
        deal.barrel,
        state.deals[: deal.number],
        deal.layout,
        deal.bolts or None,
        deal.falls or None,
    )


def opening(state: GameState) -> tuple[DealEnd, ...]:
    """The deals thrown in as dealt before ``state``, a game's first state, each with the table
    that followed it: the engine deals again by itself, so a game may start past such deals
    (or, when they ended it, be over from the start). Empty when ``state`` has played deals
    behind it."""
    if not state.deals or not all(_dealt_and_thrown_in(deal) for deal in state.deals):
        return ()
    return _ends(state, state.deals)


def _completed(view: Spectator, seat: int, action: Action, trump: int) -> Trick | None:
    """The trick ``action`` by ``seat`` completes at the table ``view``, else ``None``."""
    if not isinstance(action, Play) or not trick_complete(view.rules, len(view.trick) + 1):
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
    table): each action, each deal's end a step of its own (the ends of any deals thrown in as
    dealt before the first action come first).

    Raises:
        RecordError: the record does not replay.
    """
    states: list[GameState] = []
    replay(record, watch=states.append)
    yield from opening(states[0])
    for before, after in itertools.pairwise(states):
        yield from between(before, after)
