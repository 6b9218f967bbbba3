"""House rules (HOUSE-RULES.md, Part 4): the samosval (§4.3), the gold set (§4.5), what a fall
from the barrel costs and the barrel without a time limit (§4.6), on explicit deals, and their
invariants (§4.11, items 7, 9 and 10) over random matches."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import thousand
from tests.support import play
from tests.test_scoring import RUSSIAN, autopilot, ending_start, play_ending
from thousand import (
    BarrelFallPenalty,
    DealResult,
    MatchResult,
    Rules,
    RulesError,
    Samosval,
)

BOTH = attrs.evolve(RUSSIAN, samosval=Samosval.BOTH)
POSITIVE = attrs.evolve(RUSSIAN, samosval=Samosval.POSITIVE)

# In the ending deal (tests/test_scoring.py) seat 0 declares; with the defenders keeping AS KS and
# KC KD it takes 97 card points, seat 1 none and seat 2 23 (rounded to 25).
FAILS = ("AS KS", "KC KD")


def test_presets_keep_every_house_rule_off() -> None:
    for name in Rules.preset_names():
        rules = Rules.preset(name)
        assert rules.samosval is Samosval.NONE
        assert rules.barrel_fall_penalty is BarrelFallPenalty.CONTRACT
        assert rules.preset_name() == name
        # Written as before the house rules existed, so old records and configs stay the same.
        assert not {"samosval", "barrel_fall_penalty", "gold_set"} & set(rules.to_dict())


def test_e5a_a_defender_landing_on_555_drops_to_0() -> None:
    state = play_ending(ending_start(BOTH, (0, 0, 530)), 100, *FAILS)
    deal = state.deals[0]
    assert deal.points == (97, 0, 23)
    assert deal.deal_scores == (-100, 0, 25)
    assert state.scores == (-100, 0, 0)


@pytest.mark.parametrize(
    ("rules", "after"),
    [pytest.param(BOTH, 0, id="both"), pytest.param(POSITIVE, -555, id="positive")],
)
def test_e5b_a_declarer_falling_to_minus_555(rules: Rules, after: int) -> None:
    state = play_ending(ending_start(rules, (-455, 0, 0)), 100, *FAILS)
    assert state.scores == (after, 0, 25)


@pytest.mark.parametrize(
    ("fall", "after"),
    [
        pytest.param(BarrelFallPenalty.BOTH, 0, id="both-lands-on-555"),
        pytest.param(BarrelFallPenalty.CONTRACT, 675, id="contract"),
    ],
)
def test_e5c_a_fall_from_the_barrel_onto_555(fall: BarrelFallPenalty, after: int) -> None:
    """Seat 0 on the barrel holds the hearts marriage (ceiling 220) and fails 205."""
    rules = attrs.evolve(BOTH, barrel_fall_penalty=fall)
    state = play_ending(ending_start(rules, (880, 0, 0)), 205, *FAILS, marriage=True)
    assert state.deals[0].points[0] == 97 + 100
    assert state.scores[0] == after
    assert state.barrel[0] is None


def test_the_score_after_the_deal_counts_not_one_passed_through() -> None:
    """Passing 555 within a deal's steps is nothing: only the final score is checked."""
    state = play_ending(ending_start(BOTH, (0, 0, 540)), 100, *FAILS)
    assert state.scores[2] == 565


@pytest.mark.parametrize(
    ("fall", "failed", "conceded"),
    [
        pytest.param(BarrelFallPenalty.CONTRACT, 750, 755, id="contract"),
        pytest.param(BarrelFallPenalty.PENALTY, 760, 760, id="penalty"),
        pytest.param(BarrelFallPenalty.BOTH, 630, 635, id="both"),
    ],
)
def test_e8_what_a_fall_from_the_barrel_costs(
    fall: BarrelFallPenalty, failed: int, conceded: int
) -> None:
    """Seat 0 on the barrel at 880 fails a contract of 130, or concedes at a bid of 125."""
    rules = attrs.evolve(RUSSIAN, barrel_fall_penalty=fall)
    state = play_ending(ending_start(rules, (880, 0, 0)), 130, "QD AS", "KD JD")
    assert state.deals[0].points[0] < 130
    assert (state.scores[0], state.barrel[0]) == (failed, None)
    state = play(ending_start(rules, (880, 0, 0)), "bid 120", "pass", "bid 125", "pass")
    state = play(state, "give 9D 1", "give JD 2", "concede")
    assert state.deals[0].bid == 125
    assert (state.scores[0], state.barrel[0]) == (conceded, None)


def test_e8_the_lviv_barrel_has_no_time_limit() -> None:
    """Threshold 900 and no time limit: a defender at 870 taking 35 passes 900 and stops there,
    and stays deal after deal; on the barrel at 900 a made contract of 100 wins."""
    lviv = attrs.evolve(RUSSIAN, barrel_threshold=900, barrel_deals=0)
    state = play_ending(ending_start(lviv, (0, 870, 0)), 100, "QC AS", "TS AD")
    assert state.deals[0].points[1] == 35
    assert (state.scores[1], state.barrel[1]) == (900, 0)
    for used in range(1, 6):
        state = autopilot(state, 1)
        assert state.scores[1] == 900
        assert state.barrel[1] == used
    won = play_ending(ending_start(lviv, (900, 0, 0)), 100, "QD AS", "KD JD")
    assert isinstance(won.result, MatchResult)
    assert won.result.winners == (0,)
    assert won.result.scores[0] == 1000


@pytest.mark.parametrize(
    ("rules", "scores", "message"),
    [
        (POSITIVE, (555, 0, 0), "with samosval 'positive' no score may start at 555"),
        (BOTH, (0, -555, 0), "with samosval 'both' no score may start at 555 or -555"),
    ],
)
def test_starting_scores_the_samosval_would_empty_are_refused(
    rules: Rules, scores: tuple[int, ...], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        thousand.new_match(rules, seed=1, scores=scores)
    thousand.new_match(POSITIVE, seed=1, scores=(-555, 0, 0))


def test_house_rules_are_fields_a_rules_file_can_set_on_a_preset() -> None:
    rules = Rules.from_dict(
        {"preset": "russian", "samosval": "both", "barrel_fall_penalty": "penalty"}
    )
    assert (rules.samosval, rules.barrel_fall_penalty) == (Samosval.BOTH, BarrelFallPenalty.PENALTY)
    assert rules.preset_name() is None
    assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(RulesError, match="'sometimes' is not a Samosval setting"):
        Rules.from_dict({"preset": "russian", "samosval": "sometimes"})
    assert Rules(barrel_deals=0).barrel_deals == 0
    with pytest.raises(RulesError, match="'barrel_deals' must be 0 to 100, not -1"):
        Rules(barrel_deals=-1)


GOLD = attrs.evolve(RUSSIAN, gold_set=3)


@pytest.mark.parametrize(
    ("marriage", "score"),
    [pytest.param(True, 120, id="made"), pytest.param(False, -120, id="failed")],
)
def test_gold_set_the_forehand_is_committed_to_120(marriage: bool, score: int) -> None:
    """Everybody passes: the forehand plays 120, and wins or loses it."""
    state = ending_start(GOLD)
    assert state.bid == 120
    assert 105 not in [
        action.amount for action in state.legal_actions() if hasattr(action, "amount")
    ]
    state = play_ending(state, 120, "QD AS", "KD JD", marriage=marriage)
    deal = state.deals[0]
    assert (deal.bid, deal.contract) == (120, 120)
    assert deal.deal_scores[0] == score


def test_gold_set_a_concession_at_120_gives_each_opponent_60() -> None:
    state = play(ending_start(GOLD), "pass", "pass", "give 9D 1", "give JD 2", "concede")
    assert state.deals[0].deal_scores == (-120, 60, 60)


def test_the_deal_after_the_gold_set_opens_at_100() -> None:
    state = thousand.new_match(GOLD, seed=4)
    for number in range(3):
        assert (state.deal_number, state.bid) == (number, 120)
        state = autopilot(state, -1)
    assert (state.deal_number, state.bid) == (3, 100)


def test_a_gold_set_needs_a_cap_base_on_the_bid_step() -> None:
    with pytest.raises(
        RulesError, match="gold_set needs cap_base 123 to be a multiple of bid_step 5"
    ):
        Rules(gold_set=3, cap_base=123)
    assert Rules(cap_base=123).gold_set == 0


HOUSE = st.builds(
    lambda samosval, fall, deals, endgame, gold: attrs.evolve(
        RUSSIAN,
        samosval=samosval,
        barrel_fall_penalty=fall,
        barrel_deals=deals,
        endgame=endgame,
        gold_set=gold,
    ),
    st.sampled_from(list(Samosval)),
    st.sampled_from(list(BarrelFallPenalty)),
    st.sampled_from([0, 1, 3]),
    st.sampled_from(list(thousand.Endgame)),
    st.sampled_from([0, 3]),
)


@settings(deadline=None)
@given(rules=HOUSE, seed=st.integers(0, 2**32), start=st.sampled_from([0, 400, 540, 800, 860]))
def test_samosval_and_barrel_failures_over_random_matches(
    rules: Rules, seed: int, start: int
) -> None:
    """§4.11 items 7, 9 and 10: no score after a deal is 555 (nor −555 under ``both``); a failed
    or conceded deal on the barrel changes the score by exactly the mode's cost (or leaves 0
    after the samosval); with no time limit nobody leaves the barrel but by declaring; the gold
    set's deals open at 120 and the later ones at 100."""
    rng = random.Random(seed)
    state = thousand.new_match(rules, seed=seed, scores=(start, start - 20, 0))
    before = (state.scores, state.barrel)
    while not state.is_over:
        number = state.deal_number
        state = state.apply(rng.choice(state.legal_actions()))
        if state.deal_number == number and not state.is_over:
            continue
        deal: DealResult = state.deals[-1]
        opening = rules.cap_base if deal.number < rules.gold_set else rules.opening_bid
        assert deal.bid >= opening
        assert deal.contract is None or deal.contract >= opening
        if not state.is_over:
            assert state.bid == (rules.cap_base if state.deal_number < rules.gold_set else 100)
        for score in deal.scores:
            if rules.samosval is not Samosval.NONE:
                assert score != 555
            if rules.samosval is Samosval.BOTH:
                assert score != -555
        scores, barrel = before
        declarer = deal.declarer
        if rules.endgame is thousand.Endgame.BARREL and barrel[declarer] is not None:
            failed = deal.conceded or deal.points[declarer] < (deal.contract or 0)
            if failed:
                amount = deal.bid if deal.conceded else deal.contract
                assert amount is not None
                cost = {
                    BarrelFallPenalty.CONTRACT: amount,
                    BarrelFallPenalty.PENALTY: rules.barrel_penalty,
                    BarrelFallPenalty.BOTH: amount + rules.barrel_penalty,
                }[rules.barrel_fall_penalty]
                assert deal.scores[declarer] in (scores[declarer] - cost, 0)
                assert deal.barrel[declarer] is None
        if rules.endgame is thousand.Endgame.BARREL and rules.barrel_deals == 0:
            for seat in range(rules.players):
                if seat != declarer and barrel[seat] is not None:
                    assert deal.barrel[seat] is not None or deal.scores[seat] == 0
        before = (deal.scores, deal.barrel)
