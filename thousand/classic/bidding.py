"""The auction: the forehand is committed to the opening bid, the others raise or pass for good."""

from __future__ import annotations

from functools import lru_cache

from thousand.classic.actions import Action, Bid, Pass
from thousand.classic.marriages import ceiling
from thousand.common.state_base import fast_updater

PASS = Pass()


@lru_cache(maxsize=4096)
def _bids(low: int, high: int, step: int) -> tuple[Action, ...]:
    return (PASS, *(Bid(amount) for amount in range(low, high + 1, step)))


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Pass, then every bid from one step above the current bid up to the hand's ceiling."""
    rules = state.rules
    top = ceiling(rules, state.hand_masks[state.player])
    return _bids(state.bid + rules.bid_step, top, rules.bid_step)


def why_illegal(state: GameState, action: Action) -> str:
    """Why ``action`` is not a legal auction action here."""
    rules = state.rules
    if not isinstance(action, Bid):
        return "in the auction a player bids or passes"
    if action.amount <= state.bid:
        return f"a bid must be above the current bid of {state.bid}"
    if action.amount % rules.bid_step:
        return f"bids go in steps of {rules.bid_step}"
    top = ceiling(rules, state.hand_masks[state.player])
    return (
        f"this hand allows bids up to {top} ({rules.cap_base} plus the marriages held); "
        "a bid above it needs marriages in hand"
    )


def next_bidder(state: GameState, passed: int) -> int:
    """The next seat taking part, clockwise from the current player, that has not passed."""
    turn = state.context.turn
    seat = turn[state.player]
    for _ in turn:
        if not passed >> seat & 1:
            return seat
        seat = turn[seat]
    raise RuntimeError(f"the auction went round the table after seat {state.player}: all passed")


def apply(state: GameState, action: Action) -> GameState:
    """Record a bid or a pass; the auction is over when one bidder is left."""
    history = (state.history, state.player, action)
    if isinstance(action, Bid):
        following = next_bidder(state, state.passed_mask)
        return _raised(state, following, bidder=state.player, bid=action.amount, history=history)
    passed = state.passed_mask | 1 << state.player
    return _passed(state, player=next_bidder(state, passed), passed_mask=passed, history=history)


def is_over(state: GameState) -> bool:
    """Whether all but one player taking part have passed."""
    return state.passed_mask.bit_count() == state.rules.active_players - 1


# Loading the state loads the dispatcher, which reads this module's functions: they exist by now.
from thousand.classic.state import GameState  # noqa: E402

_raised = fast_updater(GameState, "player", "bidder", "bid", "history")
_passed = fast_updater(GameState, "player", "passed_mask", "history")
