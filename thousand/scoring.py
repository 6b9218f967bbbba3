"""Scoring: deal points, the declarer's and defenders' deal scores, the barrel and the lock, the
winner of the match, and the settlement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from thousand.cards import points_of
from thousand.marriages import MARRIAGE_POINTS
from thousand.rules import (
    BarrelCapacity,
    BarrelFallPenalty,
    Concession,
    Endgame,
    Rules,
    Samosval,
    SetAside,
    Settlement,
)
from thousand.state import ACES, GameState


def round_defence(points: int, step: int) -> int:
    """Round to a multiple of ``step``, halves up (step 5: 1-2 down, 3-4 up; step 10: 0-4 down,
    5-9 up)."""
    return (points + step // 2) // step * step


def concession_share(bid: int) -> int:
    """What each opponent scores when the declarer concedes: half the bid, up to a multiple of 5."""
    return -(-bid // 10) * 5


def meld_points(rules: Rules, suit: int) -> int:
    """What a declared marriage of ``suit`` scores (suit ``ACES``: the four-ace marriage)."""
    return rules.ace_marriage if suit == ACES else MARRIAGE_POINTS[suit]


def points_won(state: GameState) -> tuple[int, ...]:
    """Each seat's card points from won tricks plus the marriages it declared, so far this deal."""
    rules = state.rules
    points = [points_of(mask) for mask in state.taken_masks]
    for seat, suit in state.melds:
        points[seat] += meld_points(rules, suit)
    return tuple(points)


def deal_points(state: GameState) -> tuple[int, ...]:
    """Each seat's card points from won tricks plus the marriages it declared (and, in two-player
    games where the rules credit them, the four cards set aside: the two laid away and the
    untaken musik)."""
    rules = state.rules
    points = list(points_won(state))
    if state.set_aside_mask and rules.set_aside is not SetAside.NOBODY:
        out_of_play = state.set_aside_mask
        for pile in state.talon_masks:
            out_of_play |= pile
        credited = state.bidder if rules.set_aside is SetAside.DECLARER else state.player
        points[credited] += points_of(out_of_play)
    return tuple(points)


def deal_scores(state: GameState, points: Sequence[int], conceded: bool) -> tuple[int, ...]:
    """What the deal scores per seat before barrel or lock rules."""
    rules = state.rules
    declarer = state.bidder
    scores = []
    for seat in range(rules.players):
        if seat == declarer:
            if conceded:
                score = -state.bid if rules.concession is Concession.PENALTY else 0
            else:
                contract = state.contract_amount
                score = contract if points[seat] >= contract else -contract
        elif conceded:
            score = concession_share(state.bid)
        else:
            score = round_defence(points[seat], rules.rounding)
        scores.append(score)
    return tuple(scores)


class Standing(NamedTuple):
    """Scores and barrel places after the endgame rules of one deal."""

    scores: tuple[int, ...]
    barrel: tuple[int | None, ...]


def apply_endgame(
    state: GameState, deal: Sequence[int], points: Sequence[int], conceded: bool
) -> Standing:
    """Add the deal scores to the match scores under the barrel or lock rules, then drop a
    score on 555 (or −555) to 0 where the samosval is played."""
    rules = state.rules
    if rules.endgame is Endgame.BARREL:
        standing = _barrel(state, deal, points, conceded)
    else:
        scores = list(state.scores)
        for seat in range(rules.players):
            if seat == state.bidder or not above_lock(rules, state.scores[seat]):
                scores[seat] += deal[seat]
        standing = Standing(tuple(scores), state.barrel)
    if rules.samosval is Samosval.NONE:
        return standing
    return _samosval(rules, standing)


SAMOSVAL = 555
"""The score the dump truck empties."""


def samosval_hits(rules: Rules, score: int) -> bool:
    """Whether the samosval drops this score to 0 under ``rules``."""
    if rules.samosval is Samosval.NONE:
        return False
    return score == SAMOSVAL or (rules.samosval is Samosval.BOTH and score == -SAMOSVAL)


def _samosval(rules: Rules, standing: Standing) -> Standing:
    """Scores of exactly 555 (or −555) become 0; such a seat is off the barrel."""
    hit = [samosval_hits(rules, score) for score in standing.scores]
    if not any(hit):
        return standing
    return Standing(
        tuple(0 if dropped else score for score, dropped in zip(standing.scores, hit, strict=True)),
        tuple(
            None if dropped else used for used, dropped in zip(standing.barrel, hit, strict=True)
        ),
    )


def above_lock(rules: Rules, score: int) -> bool:
    """Whether a seat with this match score is locked: under the lock endgame, above its
    threshold only the seat's own contracts score."""
    return rules.endgame is Endgame.LOCK and score > rules.lock_threshold


def _barrel(
    state: GameState, deal: Sequence[int], points: Sequence[int], conceded: bool
) -> Standing:
    rules = state.rules
    threshold = rules.barrel_threshold
    scores = list(state.scores)
    barrel = list(state.barrel)
    mounted = []
    for seat in range(rules.players):
        used = barrel[seat]
        if used is None:
            scores[seat] += deal[seat]
            if scores[seat] >= threshold:
                scores[seat] = threshold
                barrel[seat] = 0
                mounted.append(seat)
            continue
        if seat == state.bidder:
            contract = state.contract_amount
            if conceded or points[seat] < contract:
                scores[seat] -= _fall_cost(rules, state.bid if conceded else contract)
                barrel[seat] = None
                continue
            if scores[seat] + contract >= rules.target:
                scores[seat] += contract
                barrel[seat] = None
                continue
        used += 1
        if rules.barrel_deals and used >= rules.barrel_deals:
            scores[seat] -= rules.barrel_penalty
            barrel[seat] = None
        else:
            barrel[seat] = used
    if rules.barrel_capacity is BarrelCapacity.SINGLE and mounted:
        fallen = [seat for seat in range(rules.players) if barrel[seat] is not None]
        if len(mounted) == 1:
            fallen.remove(mounted[0])
        for seat in fallen:
            scores[seat] -= rules.barrel_penalty
            barrel[seat] = None
    return Standing(tuple(scores), tuple(barrel))


def _fall_cost(rules: Rules, contract: int) -> int:
    """What failing (or conceding) ``contract`` on the barrel costs."""
    if rules.barrel_fall_penalty is BarrelFallPenalty.CONTRACT:
        return contract
    if rules.barrel_fall_penalty is BarrelFallPenalty.PENALTY:
        return rules.barrel_penalty
    return contract + rules.barrel_penalty


def winners(state: GameState, scores: Sequence[int]) -> tuple[int, ...]:
    """Seats that reached the target: the declarer if among them, else the highest (ties share)."""
    target = state.rules.target
    crossed = [seat for seat, score in enumerate(scores) if score >= target]
    if len(crossed) <= 1:
        return tuple(crossed)
    if state.bidder in crossed:
        return (state.bidder,)
    return highest(scores, crossed)


def highest(scores: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    """The seats among ``seats`` with the highest score."""
    top = max(scores[seat] for seat in seats)
    return tuple(seat for seat in seats if scores[seat] == top)


def settlement(rules: Rules, scores: Sequence[int], won: Sequence[int]) -> tuple[int, ...] | None:
    """Shortfall settlement: each loser pays every winner what the loser lacks to the target
    (nothing if at or above it); ``None`` when the rules do not settle."""
    if rules.settlement is Settlement.NONE:
        return None
    due = [0 if seat in won else max(0, rules.target - score) for seat, score in enumerate(scores)]
    return tuple(sum(due) if seat in won else -due[seat] * len(won) for seat in range(len(scores)))
