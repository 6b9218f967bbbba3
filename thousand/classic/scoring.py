"""Scoring: deal points, the declarer's and defenders' deal scores, the sitter's bonus, bolts, the
barrel and the lock, the samosval, the winner of the match, and the settlement.

A finished deal is scored in one order (:func:`end_of_deal`): deal scores, bolts, barrel or
lock, samosval; the engine then checks for a winner and settles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from thousand.classic.cards import ACES_MASK, points_of
from thousand.classic.marriages import SUIT_MARRIAGES, marriages_value, meld_points
from thousand.classic.rules import (
    BarrelCapacity,
    BarrelFallPenalty,
    BoltCounting,
    Concession,
    Endgame,
    Rules,
    Samosval,
    SetAside,
    Settlement,
    above_lock,
)
from thousand.classic.state import GameState


def round_defence(points: int, step: int) -> int:
    """Round to a multiple of ``step``, halves up (step 5: 1-2 down, 3-4 up; step 10: 0-4 down,
    5-9 up)."""
    return (points + step // 2) // step * step


def concession_share(bid: int) -> int:
    """What each opponent scores when the declarer concedes: half the bid, up to a multiple of 5."""
    return -(-bid // 10) * 5


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


def sitter_bonus(rules: Rules, talon: int) -> int:
    """What the seat sitting out scores for a talon (a card mask): ``sitter_bonus`` per ace, plus
    the value of a marriage lying in it; 0 when the rules give no bonus."""
    if not rules.sitter_bonus:
        return 0
    bonus = rules.sitter_bonus * (talon & ACES_MASK).bit_count()
    return bonus + marriages_value(SUIT_MARRIAGES, talon)


def deal_scores(state: GameState, points: Sequence[int], conceded: bool) -> tuple[int, ...]:
    """What the deal scores per seat before bolts and barrel or lock rules: the declarer's
    ±contract (or concession value), the defenders' rounded points or concession shares, the
    sitter's bonus."""
    rules = state.rules
    declarer = state.bidder
    sitter = state.context.sitter
    scores = []
    for seat in range(rules.players):
        if seat == declarer:
            if conceded:
                score = -state.bid if rules.concession is Concession.PENALTY else 0
            else:
                contract = state.contract_amount
                score = contract if points[seat] >= contract else -contract
        elif seat == sitter:
            score = sitter_bonus(rules, state.layout.talon_masks()[0])
        elif conceded:
            score = concession_share(state.bid)
        else:
            score = round_defence(points[seat], rules.rounding)
        scores.append(score)
    return tuple(scores)


class Standing(NamedTuple):
    """The match after the end-of-deal steps of one deal."""

    deal_scores: tuple[int, ...]
    """The deal scores with any bolt penalties taken off."""
    scores: tuple[int, ...]
    barrel: tuple[int | None, ...]
    bolts: tuple[int, ...]
    falls: tuple[int, ...]


def end_of_deal(
    state: GameState, deal: Sequence[int], points: Sequence[int], conceded: bool
) -> Standing:
    """The match after the finished deal of ``state``, whose deal scores are ``deal``: bolts
    and their penalties, then the barrel (with falls and their reset) or the lock, then the
    samosval. A pure function of its arguments."""
    rules = state.rules
    context = state.context
    bolts = context.bolts
    if rules.bolts:
        deal, bolts = _bolts(state, deal)
    if rules.endgame is Endgame.BARREL:
        scores, barrel, falls = _barrel(state, deal, points, conceded)
    else:
        scores_list = list(context.scores)
        for seat in range(rules.players):
            if seat == state.bidder or not above_lock(rules, context.scores[seat]):
                scores_list[seat] += deal[seat]
        scores, barrel, falls = tuple(scores_list), context.barrel, context.falls
    if rules.samosval is not Samosval.NONE:
        scores, barrel = _samosval(rules, scores, barrel)
    return Standing(tuple(deal), scores, barrel, bolts, falls)


def _bolts(state: GameState, deal: Sequence[int]) -> tuple[list[int], tuple[int, ...]]:
    """Record the bolts of the deal (an active defender scoring exactly 0, unless on the barrel
    or locked before the deal) and take ``bolt_penalty`` off the deal score of each player
    whose count reaches ``bolts``."""
    rules = state.rules
    context = state.context
    scores = list(deal)
    counts = list(context.bolts)
    consecutive = rules.bolt_counting is BoltCounting.CONSECUTIVE
    for seat in context.active:
        if context.barrel[seat] is not None or above_lock(rules, context.scores[seat]):
            continue
        if seat != state.bidder and deal[seat] == 0:
            counts[seat] += 1
            if counts[seat] >= rules.bolts:
                scores[seat] -= rules.bolt_penalty
                counts[seat] = 0
        elif consecutive:
            counts[seat] = 0
    return scores, tuple(counts)


SAMOSVAL = 555
"""The score the dump truck empties."""


def samosval_hits(rules: Rules, score: int) -> bool:
    """Whether the samosval drops this score to 0 under ``rules``."""
    if rules.samosval is Samosval.NONE:
        return False
    return score == SAMOSVAL or (rules.samosval is Samosval.BOTH and score == -SAMOSVAL)


def _samosval(
    rules: Rules, scores: tuple[int, ...], barrel: tuple[int | None, ...]
) -> tuple[tuple[int, ...], tuple[int | None, ...]]:
    """Scores of exactly 555 (or −555) become 0; such a seat is off the barrel."""
    hit = [samosval_hits(rules, score) for score in scores]
    if not any(hit):
        return scores, barrel
    return (
        tuple(0 if dropped else score for score, dropped in zip(scores, hit, strict=True)),
        tuple(None if dropped else used for used, dropped in zip(barrel, hit, strict=True)),
    )


def _barrel(
    state: GameState, deal: Sequence[int], points: Sequence[int], conceded: bool
) -> tuple[tuple[int, ...], tuple[int | None, ...], tuple[int, ...]]:
    """Scores, barrel places and fall counts after the barrel rules: failed contracts,
    time-outs and knock-offs are falls, and the ``barrel_reset_falls``-th sets the score to 0."""
    rules = state.rules
    context = state.context
    threshold = rules.barrel_threshold
    scores = list(context.scores)
    barrel = list(context.barrel)
    mounted = []
    fallen = []
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
                fallen.append(seat)
                continue
            if scores[seat] + contract >= rules.target:
                scores[seat] += contract
                barrel[seat] = None
                continue
        used += 1
        if rules.barrel_deals and used >= rules.barrel_deals:
            scores[seat] -= rules.barrel_penalty
            barrel[seat] = None
            fallen.append(seat)
        else:
            barrel[seat] = used
    if rules.barrel_capacity is BarrelCapacity.SINGLE and mounted:
        knocked = [seat for seat in range(rules.players) if barrel[seat] is not None]
        if len(mounted) == 1:
            knocked.remove(mounted[0])
        for seat in knocked:
            scores[seat] -= rules.barrel_penalty
            barrel[seat] = None
            fallen.append(seat)
    falls = context.falls
    if rules.barrel_reset_falls and fallen:
        counts = list(falls)
        for seat in fallen:
            counts[seat] += 1
            if counts[seat] >= rules.barrel_reset_falls:
                scores[seat] = 0
                counts[seat] = 0
        falls = tuple(counts)
    return tuple(scores), tuple(barrel), falls


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
