"""Property tests of the house rules and the four-seat table (HOUSE-RULES.md 4.11, invariants 1-6,
8 and 11) over random playouts: every preset, two, three and four seats, random combinations of
the house rules, and random legal actions.

Each match is refereed step by step by the independent model of tests/test_properties.py (its
:class:`~tests.test_properties.Referee`), which re-derives legality, the sitter, the order of play,
throw-ins and every end-of-deal step from the rule book; the tests below add the invariants that
span deals.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
from hypothesis import event, given, settings
from hypothesis import strategies as st

from thousand import (
    DealResult,
    Endgame,
    GameState,
    MatchResult,
    Play,
    Rules,
    new_deal,
    new_match,
)
from thousand.classic.rules import BarrelFallPenalty, BoltCounting, Redeal, Samosval, Sitter

from .strategies import rules_layouts, scaled, start_scores
from .test_properties import (
    Before,
    Referee,
    active_seats,
    check_conservation,
    hidden_twins,
    sitter_bonus,
    sitter_seat,
    start_of_match,
    step_one_scores,
)


@st.composite
def house_rules(draw: st.DrawFn, four_seats: bool | None = None) -> Rules:
    """A preset (all five, or those of four seats only, or of two and three) with a random
    combination of house rules and a small deal cap."""
    names = [
        name
        for name in Rules.preset_names()
        if four_seats is None or (Rules.preset(name).players == 4) == four_seats
    ]
    rules = Rules.preset(draw(st.sampled_from(names), label="preset"))
    changes = dict(
        bolts=draw(st.sampled_from([0, 0, 1, 2, 3])),
        bolt_penalty=draw(st.sampled_from([120, 50])),
        bolt_counting=draw(st.sampled_from(BoltCounting)),
        samosval=draw(st.sampled_from(Samosval)),
        redeal_nines=draw(st.sampled_from(Redeal)),
        redeal_jacks=draw(st.sampled_from(Redeal)),
        redeal_weak_hand=draw(st.sampled_from([0, 0, 13, 22, 28])),
        gold_set=draw(st.sampled_from([0, rules.players])),
        barrel_fall_penalty=draw(st.sampled_from(BarrelFallPenalty)),
        barrel_deals=draw(st.sampled_from([0, 1, 3])),
        barrel_reset_falls=draw(st.sampled_from([0, 1, 2])),
        max_deals=draw(st.integers(1, 9)),
    )
    if rules.players == 4:
        changes.update(
            sitter=draw(st.sampled_from(Sitter)), sitter_bonus=draw(st.sampled_from([0, 40, 50]))
        )
    return attrs.evolve(rules, **changes)


def scores_for(rules: Rules) -> st.SearchStrategy[tuple[int, ...] | None]:
    """Legal starting scores (none the samosval would empty), biased towards the thresholds."""
    return st.none() | start_scores(rules).map(
        lambda scores: tuple(score - 5 if abs(score) == 555 else score for score in scores)
    )


def after_deal(deal: DealResult) -> Before:
    """The match after ``deal``, as the next deal starts from it."""
    return Before(deal.scores, deal.barrel, deal.bolts, deal.falls)


def refereed_match(start: GameState, seed: int) -> GameState:
    """A random playout of the match from ``start``, refereed on every step."""
    rng = random.Random(seed)
    referee = Referee(start, deep=False)
    while not referee.state.is_over:
        referee.apply(rng.choice(referee.state.legal_actions()))
    return referee.state


@given(
    data=st.data(),
    rules=house_rules(),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=scaled(2))
def test_house_rules_over_refereed_matches(data: st.DataObject, rules: Rules, seed: int) -> None:
    """Invariants 1, 3, 5, 6, 8 and 11 over whole random matches (the referee checks each step
    against the model: legality, the sitter and the order of play, throw-ins and every
    end-of-deal step), and what spans deals: bolt counts in range, each penalty exactly when a
    count is full, paid for every ``bolts`` bolts, on no exempt seat; the sitter's bonus; a
    finished match within ``max_deals`` deal numbers whose settlement sums to zero."""
    scores = data.draw(scores_for(rules), label="scores")
    dealer = data.draw(st.integers(0, rules.players - 1), label="dealer")
    start = new_match(rules, seed=seed, dealer=dealer, scores=scores)
    final = refereed_match(start, seed)
    result = final.result
    assert isinstance(result, MatchResult)
    # Invariant 11: the match ends within max_deals deal numbers, whatever the throw-ins.
    assert result.deals == len(final.deals) <= rules.max_deals
    if result.settlement is not None:
        assert sum(result.settlement) == 0
    before = start_of_match(start)
    bolts_made = [0] * rules.players
    paid = [0] * rules.players
    for deal in final.deals:
        if deal.thrown_in is not None:
            event(f"thrown in: {deal.thrown_in.reason} {deal.thrown_in.when.value}")
            # Invariant 8: scores, counts and dealer unchanged; the next deal number follows.
            assert (deal.scores, deal.barrel, deal.bolts, deal.falls) == tuple(before)
            before = after_deal(deal)
            continue
        check_scored_deal(rules, deal, before, bolts_made, paid)
        before = after_deal(deal)
    # Invariant 6: with cumulative counting, k bolts have cost floor(k / bolts) penalties.
    if rules.bolts and rules.bolt_counting is BoltCounting.CUMULATIVE:
        for seat in range(rules.players):
            assert paid[seat] == bolts_made[seat] // rules.bolts * rules.bolt_penalty
    event(f"{rules.players} seats")


def check_scored_deal(
    rules: Rules, deal: DealResult, before: Before, bolts_made: list[int], paid: list[int]
) -> None:
    """Invariants 1, 3 and 5 on one scored deal; counts the bolts made and paid for."""
    sitter = sitter_seat(rules, deal.dealer)
    # Invariant 1: the sitter holds no card and never acts; a played deal has 8 tricks of 3.
    plays = [seat for seat, action in deal.actions if isinstance(action, Play)]
    assert sitter not in {seat for seat, _ in deal.actions}
    if sitter is not None:
        assert deal.layout.hands[sitter] == ()
        assert sorted(len(hand) for hand in deal.layout.hands) == [0, 7, 7, 7]
        assert len(deal.layout.talon[0]) == 3
        if not deal.conceded:
            assert len(plays) == 24
            assert Counter(plays) == dict.fromkeys(active_seats(rules, deal.dealer), 8)
            taken = [seat for seat, points in enumerate(deal.points) if points]
            assert sitter not in taken
    step_one = step_one_scores(deal, rules)
    # Invariant 3: the sitter's step-1 score is the bonus of the talon; on the barrel or above
    # the lock it changes nothing.
    if sitter is not None:
        talon = deal.layout.talon[0]
        bonus = rules.sitter_bonus * sum(str(card)[0] == "A" for card in talon)
        pairs = {str(card) for card in talon}
        bonus += sum(
            value
            for suit, value in zip("HDCS", (100, 80, 60, 40), strict=True)
            if {"K" + suit, "Q" + suit} <= pairs
        )
        assert step_one[sitter] == (bonus if rules.sitter_bonus else 0)
        assert sitter_bonus(rules, talon) == step_one[sitter] <= 150
        assert deal.deal_scores[sitter] == step_one[sitter]
        if before.barrel[sitter] is not None:
            assert deal.scores[sitter] in (
                rules.barrel_threshold,
                rules.barrel_threshold - rules.barrel_penalty,
                0,
            )
        if rules.endgame is Endgame.LOCK and before.scores[sitter] > rules.lock_threshold:
            assert deal.scores[sitter] == before.scores[sitter]
    # Invariant 5: counts stay below ``bolts``; a penalty exactly when a count fills up, never
    # on the declarer, the sitter, a seat on the barrel or a locked one.
    for seat in range(rules.players):
        penalty = step_one[seat] - deal.deal_scores[seat]
        assert penalty in (0, rules.bolt_penalty)
        # Sitting out, on the barrel or above the lock: no bolt, the count stays.
        out = (
            seat == sitter
            or before.barrel[seat] is not None
            or (rules.endgame is Endgame.LOCK and before.scores[seat] > rules.lock_threshold)
        )
        if not rules.bolts:
            assert deal.bolts[seat] == 0
            assert penalty == 0
            continue
        assert 0 <= deal.bolts[seat] < rules.bolts
        made = not out and seat != deal.declarer and step_one[seat] == 0
        if out:
            assert penalty == 0
            assert deal.bolts[seat] == before.bolts[seat]
        elif made:
            full = before.bolts[seat] + 1 == rules.bolts
            assert deal.bolts[seat] == (0 if full else before.bolts[seat] + 1)
            assert (penalty > 0) == (full and rules.bolt_penalty > 0)
        else:
            assert penalty == 0
            kept = rules.bolt_counting is BoltCounting.CUMULATIVE
            assert deal.bolts[seat] == (before.bolts[seat] if kept else 0)
        bolts_made[seat] += made
        paid[seat] += penalty
    if rules.bolts and any(paid):
        event("bolt penalty paid")


@given(rules=house_rules(four_seats=True), seed=st.integers(0, 2**32))
@settings(max_examples=scaled(1))
def test_four_seat_positions_over_long_matches(rules: Rules, seed: int) -> None:
    """Invariants 1 and 2: at every deal the sitter is seat dealer, dealer - 1 or dealer + 2 as
    configured, holds no card and is never to act; the forehand is the dealer's left and
    active; three hands of 7 and a talon of 3 hold the deck; throw-ins keep the dealer and the
    sitter; in any four consecutive scored deals each seat sits out exactly once."""
    rules = attrs.evolve(rules, max_deals=14, redeal_weak_hand=min(rules.redeal_weak_hand, 22))
    rng = random.Random(seed)
    state = new_match(rules, seed=seed, dealer=seed % 4)
    step = {Sitter.DEALER: 0, Sitter.RIGHT_OF_DEALER: 3, Sitter.OPPOSITE_DEALER: 2}[rules.sitter]
    while not state.is_over:
        sitter = (state.dealer + step) % 4
        assert state.sitter == sitter
        assert state.current_player != sitter
        assert state.hands[sitter] == ()
        assert (state.dealer + 1) % 4 != sitter
        if state.deals and state.deals[-1].thrown_in is not None:
            assert state.dealer == state.deals[-1].dealer
        if not state.actions:
            # The forehand holds the compulsory bid; the next active seat clockwise acts.
            second = (state.dealer + 2) % 4
            if second == sitter:
                second = (second + 1) % 4
            assert (state.bidder, state.current_player) == ((state.dealer + 1) % 4, second)
            assert sorted(len(hand) for hand in state.hands) == [0, 7, 7, 7]
            assert len(state.talon[0]) == 3
        check_conservation(state)
        state = state.apply(rng.choice(state.legal_actions()))
    scored = [deal for deal in state.deals if deal.thrown_in is None]
    sitters = [(deal.dealer + step) % 4 for deal in scored]
    for window in range(len(sitters) - 3):
        assert sorted(sitters[window : window + 4]) == [0, 1, 2, 3]
    for earlier, later in zip(state.deals, state.deals[1:], strict=False):
        expected = earlier.dealer if earlier.thrown_in else (earlier.dealer + 1) % 4
        assert later.dealer == expected
    event(f"{len(scored)} scored deals")


@given(data=st.data(), rules=house_rules(four_seats=True))
@settings(max_examples=scaled(2))
def test_the_sitter_sees_only_what_is_public(data: st.DataObject, rules: Rules) -> None:
    """Invariant 4: the sitter's observation is the same in every state that differs only in
    the active hands, the cards passed, or the talon before it is shown: the cards the sitter
    has not seen are exchanged among themselves (the exchange of passed cards following), and
    each state of the playout replayed on those cards looks the same to the sitter.

    Throw-ins are left out: a thrown-in hand is shown to the table."""
    rules = attrs.evolve(
        rules, redeal_nines=Redeal.NONE, redeal_jacks=Redeal.NONE, redeal_weak_hand=0
    )
    dealer = data.draw(st.integers(0, 3), label="dealer")
    layout = data.draw(rules_layouts(rules, dealer), label="layout")
    start = new_deal(rules, seed=1, layout=layout, dealer=dealer)
    sitter = sitter_seat(rules, dealer)
    assert sitter is not None
    assert start.sitter == sitter
    limit = data.draw(st.integers(0, 40), label="prefix length")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    states = [start]
    while not states[-1].is_over and len(states) <= limit:
        states.append(states[-1].apply(rng.choice(states[-1].legal_actions())))
    twins = hidden_twins(data, states, sitter)
    if twins is None:
        event("no exchange keeps the actions legal")
        return
    event("hands differ" if twins[0].layout != start.layout else "only the talon differs")
    for state, twin in zip(states, twins, strict=True):
        assert twin.observation(sitter) == state.observation(sitter)
        assert twin.observation(sitter).hand == ()
