"""Random-versus-random matches: the demonstration behind ``thousand tournament`` until bots
and the full runner arrive."""

from __future__ import annotations

import random

from thousand import Action, GameState, MatchResult, Phase, Rules, new_match


def cautious_random_choice(state: GameState, rng: random.Random) -> Action:
    """A random legal action, except that bids and contracts stay at the minimum: in the auction
    pass or raise by one step at even odds, and fix the contract at the winning bid."""
    legal = state.legal_actions()
    if state.phase is Phase.AUCTION:
        return rng.choice(legal[:2])
    if state.phase is Phase.CONTRACT:
        return legal[0]
    return rng.choice(legal)


def random_match(rules: Rules, seed: int) -> MatchResult:
    """Play one match between cautious random players (see :func:`cautious_random_choice`).

    The choices come from ``random.Random(seed)``, the deals from the match seed, so the same
    seed always gives the same match.
    """
    rng = random.Random(seed)
    state = new_match(rules, seed=seed)
    while state.result is None:
        state = state.apply(cautious_random_choice(state, rng))
    if not isinstance(state.result, MatchResult):
        raise TypeError("a match ends with a MatchResult")
    return state.result


def describe(result: MatchResult) -> str:
    """One line about a finished match, e.g. ``seat 2 wins 1005 / 640 / 230 after 31 deals``."""
    winners = " and ".join(f"seat {seat}" for seat in result.winners)
    verb = "share the win" if len(result.winners) > 1 else "wins"
    scores = " / ".join(str(score) for score in result.scores)
    text = f"{winners} {verb} {scores} after {result.deals} deals"
    if result.adjudicated:
        text += " (deal limit reached: highest score adjudicated the winner)"
    if result.settlement is not None:
        text += "; settlement " + " / ".join(f"{amount:+d}" for amount in result.settlement)
    return text
