"""House rules (HOUSE-RULES.md, Part 4): the samosval (§4.3), the gold set (§4.5), what a fall
from the barrel costs and the barrel without a time limit (§4.6), on explicit deals, and their
invariants (§4.11, items 7, 9 and 10) over random matches."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import thousand
from tests.support import play
from tests.test_scoring import ENDING, RUSSIAN, autopilot, ending_start, play_ending
from thousand import (
    BarrelCapacity,
    BarrelFallPenalty,
    BoltCounting,
    DealResult,
    Layout,
    MatchResult,
    Redeal,
    Rules,
    RulesError,
    Samosval,
    Sitter,
)
from thousand.classic import scoring
from thousand.classic.engine import start_of_deal
from thousand.classic.redeals import ThrowIn, hand_worth
from thousand.classic.state import Origin

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


def test_a_seat_mounting_a_barrel_set_at_555_is_emptied_and_off_the_barrel() -> None:
    """With the barrel at 555, seat 2 at 530 takes 25 and mounts it at 555, the very score the
    samosval empties: back to 0, and no longer on the barrel."""
    rules = attrs.evolve(BOTH, barrel_threshold=555)
    state = play_ending(ending_start(rules, (0, 0, 530)), 100, *FAILS)
    assert state.deals[0].deal_scores[2] == 25
    assert (state.scores[2], state.barrel[2]) == (0, None)


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


# Four seats (§4.1) -----------------------------------------------------------------------------

RUSSIAN_4 = Rules.preset("russian-4")
POLISH_4 = Rules.preset("polish-4")


def four_seats(talon: str, sitter: int) -> Layout:
    """A four-seat layout with this talon: the other 21 cards dealt in order to the seats
    taking part, the sitter's hand empty."""
    rest = [card for card in thousand.DECK if str(card) not in talon.split()]
    hands: list[list[thousand.Card]] = [[] for _ in range(4)]
    active = [seat for seat in range(4) if seat != sitter]
    for position, card in enumerate(rest):
        hands[active[position // 7]].append(card)
    return Layout(hands=hands, talon=talon)


def dealt(
    rules: Rules,
    layout: Layout,
    dealer: int,
    scores: tuple[int, ...],
    barrel: tuple[int | None, ...] | None = None,
    bolts: tuple[int, ...] | None = None,
    falls: tuple[int, ...] | None = None,
) -> thousand.GameState:
    """A match at the auction of a deal dealt ``layout``, with the match so far as given
    (barrel places, bolt and fall counts), as no starting position of ``new_match`` can say."""
    players = rules.players
    origin = Origin(5, dealer, scores, layout, False)
    return start_of_deal(
        rules,
        origin,
        0,
        dealer,
        scores,
        barrel or (None,) * players,
        (),
        layout,
        bolts,
        falls,
    )


def finish(state: thousand.GameState) -> thousand.GameState:
    """Play the current deal to its end with the first legal action each time."""
    number = state.deal_number
    while state.deal_number == number and not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state


def test_a_seat_sits_out_only_at_four_seats() -> None:
    """With four seats the seat right of the dealer (by default) sits the deal out; with two or
    three no seat does, which the rules say as -1."""
    for name in ("russian", "polish", "polish-2p"):
        rules = Rules.preset(name)
        assert [rules.sitter_of(dealer) for dealer in range(rules.players)] == [-1] * rules.players
    assert [RUSSIAN_4.sitter_of(dealer) for dealer in range(4)] == [3, 0, 1, 2]


def test_four_seat_presets_switch_on_only_the_four_seat_rules() -> None:
    assert attrs.evolve(RUSSIAN, players=4, sitter=Sitter.RIGHT_OF_DEALER, sitter_bonus=40) == (
        RUSSIAN_4
    )
    polish = Rules.preset("polish")
    assert attrs.evolve(polish, players=4, sitter=Sitter.DEALER, sitter_bonus=50) == POLISH_4
    assert (RUSSIAN_4.hand_size, RUSSIAN_4.tricks_per_deal, RUSSIAN_4.active_players) == (7, 8, 3)
    assert RUSSIAN_4.preset_name() == "russian-4"
    assert RUSSIAN_4.to_dict()["sitter"] == "right_of_dealer"
    assert Rules.from_dict(POLISH_4.to_dict()) == POLISH_4


@pytest.mark.parametrize(
    ("sitter", "dealer", "seat"),
    [
        (Sitter.DEALER, 2, 2),
        (Sitter.RIGHT_OF_DEALER, 2, 1),
        (Sitter.RIGHT_OF_DEALER, 0, 3),
        (Sitter.OPPOSITE_DEALER, 3, 1),
    ],
)
def test_the_sitter_is_placed_from_the_dealer(sitter: Sitter, dealer: int, seat: int) -> None:
    rules = attrs.evolve(RUSSIAN_4, sitter=sitter)
    state = thousand.new_match(rules, seed=3, dealer=dealer)
    assert state.sitter == seat
    assert state.hands[seat] == ()
    forehand = (dealer + 1) % 4
    assert forehand != seat
    assert state.bidder == forehand
    assert state.current_player not in (seat, forehand)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 5}, "'players' must be 2 to 4, not 5"),
        ({"sitter": "dealer", "sitter_bonus": 40}, "sitter_bonus applies to four seats only"),
        ({"sitter": "opposite_dealer"}, "sitter applies to four seats only"),
    ],
)
def test_four_seat_fields_are_refused_with_fewer_seats(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_dict({"preset": "russian", **changes})


def test_a_four_seat_layout_must_leave_the_sitter_empty() -> None:
    with pytest.raises(thousand.LayoutError, match="exactly one hand empty"):
        Layout(hands=["", "", "", ""], talon="9C 9D JD")
    layout = four_seats("AS AD 9H", sitter=0)
    with pytest.raises(thousand.LayoutError, match="seat 3 sits out"):
        thousand.new_match(RUSSIAN_4, seed=1, dealer=0, layout=layout)


E1 = Layout(
    hands=["AC TC KC QC JC 9S TS", "", "TD KD QD JD KS QS JS", "AH TH KH QH JH 9D 9C"],
    talon="AS AD 9H",
)


def test_e1_four_seats_a_concession_pays_the_active_opponents_and_the_sitter_his_bonus() -> None:
    """Dealer 2, so seat 1 sits out and seat 3 is the forehand; seat 0 bids 105 and concedes."""
    state = thousand.new_match(RUSSIAN_4, seed=1, dealer=2, layout=E1)
    assert (state.sitter, state.context.active, state.current_player) == (1, (3, 0, 2), 0)
    state = play(state, "bid 105", "pass", "pass")
    assert state.declarer == 0
    assert state.observation(1).sitter_bonus == 80
    state = play(state, "give 9S 2", "give TS 3", "concede")
    deal = state.deals[0]
    assert deal.deal_scores == (-105, 80, 55, 55)
    assert state.scores == (-105, 80, 55, 55)
    assert (state.dealer, state.sitter) == (3, 2)


def test_e1_the_sitter_sees_only_what_the_table_sees() -> None:
    state = play(thousand.new_match(RUSSIAN_4, seed=1, dealer=2, layout=E1), "bid 105")
    seen = state.observation(1)
    assert seen.hand == ()
    assert seen.legal_actions == ()
    assert seen.hand_sizes == (7, 0, 7, 7)
    assert seen.talon == ()
    assert seen.sitter_bonus == 0
    state = play(state, "pass", "pass", "give 9S 2")
    seen = state.observation(1)
    assert [str(card) for card in seen.talon] == ["AS", "AD", "9H"]
    assert seen.received is None
    assert seen.given == ()
    assert (str(seen.history[-1][0]), str(seen.history[-1][1])) == ("0", "give ?? 2")


def test_every_seat_sits_out_once_in_four_scored_deals() -> None:
    state = thousand.new_match(RUSSIAN_4, seed=8, dealer=1)
    sitters = []
    for _ in range(8):
        sitters.append(state.sitter)
        assert state.current_player != state.sitter
        state = finish(state)
    assert sitters == [0, 1, 2, 3, 0, 1, 2, 3]


@pytest.mark.parametrize(
    ("rules", "start", "after"),
    [
        pytest.param(POLISH_4, 700, 850, id="polish-700"),
        pytest.param(POLISH_4, 810, 810, id="polish-locked"),
    ],
)
def test_e2_the_polish_sitter_and_the_lock(rules: Rules, start: int, after: int) -> None:
    """Dealer 0 sits out; the talon KH QH AC is worth 50 + 100 to him."""
    layout = four_seats("KH QH AC", sitter=0)
    state = finish(
        thousand.new_match(rules, seed=2, dealer=0, layout=layout, scores=(start, 0, 0, 0))
    )
    assert state.deals[0].deal_scores[0] == 150
    assert state.scores[0] == after


def test_e2_the_russian_sitter_gets_40_an_ace() -> None:
    layout = four_seats("KH QH AC", sitter=3)
    state = finish(thousand.new_match(RUSSIAN_4, seed=2, dealer=0, layout=layout))
    assert state.deals[0].deal_scores[3] == 140


@pytest.mark.parametrize(
    ("rules", "used", "score", "after"),
    [
        pytest.param(RUSSIAN_4, 2, 760, None, id="third-deal-times-out"),
        pytest.param(RUSSIAN_4, 1, 880, 2, id="second-deal"),
        pytest.param(attrs.evolve(RUSSIAN_4, barrel_deals=0), 2, 880, 3, id="no-time-limit"),
    ],
)
def test_e3_a_sitter_on_the_barrel_counts_the_deal_and_ignores_the_bonus(
    rules: Rules, used: int, score: int, after: int | None
) -> None:
    layout = four_seats("AH AD 9C", sitter=1)
    state = dealt(rules, layout, 2, (0, 880, 0, 0), barrel=(None, used, None, None))
    assert state.sitter == 1
    state = finish(state)
    assert state.deals[0].deal_scores[1] == 80
    assert (state.scores[1], state.barrel[1]) == (score, after)


# Bolts (§4.2) ----------------------------------------------------------------------------------

BOLTS = attrs.evolve(RUSSIAN, bolts=3)
ROTATED = Layout(hands=[ENDING.hands[2], ENDING.hands[0], ENDING.hands[1]], talon=ENDING.talon)
"""The ending deal turned one seat: seat 1 holds the hearts and declares when dealer 0's
forehand (seat 1) is passed to."""


def defend(rules: Rules, scores: tuple[int, ...], bolts: tuple[int, ...], kind: str) -> Any:
    """One deal of E4 for seat 1 (seat 0 declares 100 in the ending deal unless seat 1 does)."""
    if kind == "declares":
        state = dealt(rules, ROTATED, 0, scores, bolts=bolts)
        state = play(state, "pass", "pass", "give 9D 2", "give JD 0", "contract 100")
        return finish(state)
    state = dealt(rules, ENDING, 2, scores, bolts=bolts)
    if kind == "2 points":
        return play_ending(state, 100, "JC JD", "9D AD", gives=("JD", "9D"))
    if kind == "14 points":
        return play_ending(state, 100, "AS TD", "KC KD")
    return play_ending(state, 100, *FAILS)


@pytest.mark.parametrize(
    ("counting", "last_score", "counts"),
    [
        pytest.param(BoltCounting.CUMULATIVE, 295, [1, 1, 2, 2, 0], id="cumulative"),
        pytest.param(BoltCounting.CONSECUTIVE, 415, [1, 0, 1, 0, 1], id="consecutive"),
    ],
)
def test_e4_bolts(counting: BoltCounting, last_score: int, counts: list[int]) -> None:
    rules = attrs.evolve(BOLTS, bolt_counting=counting)
    scores, bolts = (0, 300, 0), (0, 0, 0)
    seen = []
    kinds = ["2 points", "14 points", "no trick", "declares", "no trick"]
    for kind in kinds:
        state = defend(rules, scores, bolts, kind)
        deal = state.deals[-1]
        if kind == "2 points":
            assert deal.points[1] == 2
        if kind == "14 points":
            assert deal.points[1] == 14
        if kind == "declares":
            assert deal.declarer == 1
            assert deal.made
        scores = tuple(score if seat == 1 else 0 for seat, score in enumerate(state.scores))
        bolts = state.bolts
        seen.append((scores[1], bolts[1]))
    assert [score for score, _ in seen] == [300, 315, 315, 415, last_score]
    assert [count for _, count in seen] == counts
    assert state.deals[-1].bolts == state.bolts


def test_e4_no_bolt_on_the_barrel() -> None:
    state = dealt(BOLTS, ENDING, 2, (0, 880, 0), barrel=(None, 0, None), bolts=(0, 2, 0))
    state = play_ending(state, 100, *FAILS)
    assert (state.scores[1], state.barrel[1], state.bolts[1]) == (880, 1, 2)


def test_a_declarer_on_the_barrel_leaves_the_defender_after_it_its_bolt() -> None:
    """The declarer (seat 0, the forehand) sits on the barrel: it gets no bolt, and seat 1, who
    takes no trick after it, still gets its third bolt."""
    state = dealt(BOLTS, ENDING, 2, (880, 0, 0), barrel=(0, None, None), bolts=(0, 2, 0))
    state = play_ending(state, 100, *FAILS)
    assert state.deals[0].points[1] == 0
    assert state.deals[0].deal_scores[1] == -120
    assert (state.scores[1], state.bolts[1]) == (-120, 0)


def test_no_bolt_for_the_declarer_even_conceding_free_nor_for_the_sitter() -> None:
    free = attrs.evolve(BOLTS, concession=thousand.Concession.FREE)
    state = play(dealt(free, ENDING, 2, (0, 0, 0), bolts=(2, 0, 0)), "pass", "pass")
    state = play(state, "give 9D 1", "give JD 2", "concede")
    assert state.deals[0].deal_scores == (0, 50, 50)
    assert state.bolts == (2, 0, 0)
    four = attrs.evolve(RUSSIAN_4, bolts=1)
    layout = four_seats("9H 9D 9C", sitter=1)
    state = finish(dealt(four, layout, 2, (0, 0, 0, 0)))
    assert state.deals[0].deal_scores[1] == 0
    assert state.scores[1] == 0
    assert state.bolts[1] == 0


def test_no_bolt_above_the_lock() -> None:
    rules = attrs.evolve(BOLTS, endgame=thousand.Endgame.LOCK)
    state = play_ending(dealt(rules, ENDING, 2, (0, 810, 0), bolts=(0, 2, 0)), 100, *FAILS)
    assert (state.scores[1], state.bolts[1]) == (810, 2)


def test_e5d_a_third_bolt_landing_on_555_drops_to_0() -> None:
    rules = attrs.evolve(BOLTS, samosval=Samosval.BOTH)
    state = play_ending(dealt(rules, ENDING, 2, (0, 675, 0), bolts=(0, 2, 0)), 100, *FAILS)
    assert state.deals[0].deal_scores[1] == -120
    assert (state.scores[1], state.bolts[1]) == (0, 0)


# The end-of-deal order, all options on (§4.9) ----------------------------------------------------

COMBINED = Layout(
    hands=["TH KH QH JH 9H AC KD", "TD AS TS JS 9S TC KC", "AD QC JC 9C QD JD 9D", ""],
    talon="AH KS QS",
)


def combined(fall: BarrelFallPenalty) -> thousand.GameState:
    rules = attrs.evolve(
        RUSSIAN_4,
        bolts=3,
        samosval=Samosval.BOTH,
        barrel_reset_falls=3,
        barrel_fall_penalty=fall,
    )
    state = dealt(
        rules, COMBINED, 0, (880, 675, 440, 800), barrel=(1, None, None, None), bolts=(0, 2, 0, 0)
    )
    assert (state.sitter, state.bidder, state.current_player) == (3, 1, 2)
    state = play(state, "pass", "bid 120", "pass", "give KS 1", "give QS 2", "contract 120")
    kept = {1: "TD", 2: "AD"}
    for lead in ["AH", "TH", "KH", "QH", "JH", "9H", "AC", "KD"]:
        state = play(state, f"play {lead}")
        for seat in (1, 2):
            legal = state.legal_actions()
            choice = next((a for a in legal if str(a.card) != kept[seat]), legal[0])
            state = state.apply(choice)
    return state


def test_the_end_of_deal_order_with_every_option() -> None:
    state = combined(BarrelFallPenalty.CONTRACT)
    deal = state.deals[0]
    assert deal.points == (95, 0, 25, 0)
    assert deal.deal_scores == (-120, -120, 25, 80)
    assert state.scores == (760, 0, 465, 880)
    assert state.barrel == (None, None, None, 0)
    assert (state.bolts, state.falls) == ((0, 0, 0, 0), (1, 0, 0, 0))
    assert (state.dealer, state.sitter) == (1, 0)
    assert combined(BarrelFallPenalty.BOTH).scores[0] == 640


def test_e8_the_third_fall_resets_the_score() -> None:
    rules = attrs.evolve(RUSSIAN, barrel_reset_falls=3)
    for fall in BarrelFallPenalty:
        state = dealt(
            attrs.evolve(rules, barrel_fall_penalty=fall),
            ENDING,
            2,
            (880, 0, 0),
            barrel=(1, None, None),
            falls=(2, 0, 0),
        )
        state = play_ending(state, 130, "QD AS", "KD JD")
        assert (state.scores[0], state.barrel[0], state.falls[0]) == (0, None, 0)
    state = dealt(rules, ENDING, 2, (880, 0, 0), barrel=(1, None, None), falls=(1, 0, 0))
    state = play_ending(state, 130, "QD AS", "KD JD")
    assert (state.scores[0], state.falls[0]) == (750, 2)


def test_a_seat_knocked_off_a_single_barrel_counts_a_fall() -> None:
    """Where the barrel holds one seat, seat 0 mounting knocks seat 1 off: that is a fall, its
    second counted as such and its third resetting the score."""
    rules = attrs.evolve(RUSSIAN, barrel_capacity=BarrelCapacity.SINGLE, barrel_reset_falls=3)
    for before, score, falls in (((0, 1, 0), 760, (0, 2, 0)), ((0, 2, 0), 0, (0, 0, 0))):
        state = dealt(rules, ENDING, 2, (800, 880, 0), barrel=(None, 1, None), falls=before)
        state = play_ending(state, 100, "QD AS", "KD JD")
        assert state.scores == (880, score, 0)
        assert state.barrel == (0, None, None)
        assert state.falls == falls


def test_the_deal_that_ends_the_match_keeps_its_bolts_and_falls() -> None:
    """Seat 0 climbs from the barrel to 1000 in the deal where seat 1's barrel time runs out
    (its second fall) and seat 2 takes no trick (its second bolt): the match over shows both,
    and the deal among those scored."""
    rules = attrs.evolve(RUSSIAN, bolts=3, barrel_reset_falls=3)
    state = dealt(rules, ENDING, 2, (900, 880, 0), (0, 2, None), bolts=(0, 0, 1), falls=(0, 1, 0))
    state = play_ending(state, 100, "JC QD", "TS JD")
    assert isinstance(state.result, MatchResult)
    assert state.result.winners == (0,)
    assert state.scores == (1000, 760, 0)
    assert (state.bolts, state.falls) == ((0, 0, 2), (0, 2, 0))
    assert (state.deals[-1].bolts, state.deals[-1].falls) == (state.bolts, state.falls)
    assert state.observation(2).scored_deals == 1


# Throw-ins (§4.4) ------------------------------------------------------------------------------

NINES = Layout(
    hands=["AH TH KH QH JH AC TC", "KC QC JC AD TD QD JD", "9S 9C 9D 9H AS TS KD"],
    talon="KS QS JS",
)


def test_e6a_four_nines_dealt_are_thrown_in_before_any_bid() -> None:
    rules = attrs.evolve(RUSSIAN, redeal_nines=Redeal.DEALT)
    state = thousand.new_match(rules, seed=1, dealer=0, layout=NINES, scores=(100, 200, 300))
    (thrown,) = state.deals
    assert thrown.thrown_in == ThrowIn(2, "four nines", Redeal.DEALT)
    assert thrown.actions == ()
    assert not thrown.conceded
    assert (state.deal_number, state.dealer, state.scores) == (1, 0, (100, 200, 300))
    assert state.layout != NINES
    assert str(thrown.thrown_in) == "thrown in: seat 2 holds four nines as dealt"


NINES_AFTER = Layout(
    hands=["AC TC KC QC JC JH JS", "TH QH AD TD JD QS KS", "9S 9C 9D AS TS KD QD"],
    talon="9H AH KH",
)


def exchange_nines(rules: Rules) -> thousand.GameState:
    state = thousand.new_match(rules, seed=1, dealer=0, layout=NINES_AFTER)
    return play(state, "pass", "bid 105", "bid 110", "pass", "give 9H 2", "give JD 0")


def test_e6b_four_nines_after_the_exchange_throw_the_contract_in() -> None:
    rules = attrs.evolve(RUSSIAN, redeal_nines=Redeal.AFTER_EXCHANGE)
    state = exchange_nines(rules)
    (thrown,) = state.deals
    assert thrown.thrown_in == ThrowIn(2, "four nines", Redeal.AFTER_EXCHANGE)
    assert (thrown.bid, thrown.contract, thrown.deal_scores) == (110, None, (0, 0, 0))
    assert (state.deal_number, state.dealer, state.scores) == (1, 0, (0, 0, 0))
    dealt_only = exchange_nines(attrs.evolve(RUSSIAN, redeal_nines=Redeal.DEALT))
    assert dealt_only.phase is thousand.Phase.CONTRACT


def test_e6b_a_throw_in_cancels_the_sitters_bonus() -> None:
    rules = attrs.evolve(RUSSIAN_4, redeal_nines=Redeal.AFTER_EXCHANGE)
    layout = Layout(hands=[*NINES_AFTER.hands, ""], talon=NINES_AFTER.talon)
    state = thousand.new_match(rules, seed=1, dealer=0, layout=layout)
    state = play(state, "pass", "bid 105", "bid 110", "pass", "give 9H 2", "give JD 0")
    assert state.deals[0].thrown_in is not None
    assert state.scores == (0, 0, 0, 0)
    assert (state.dealer, state.sitter) == (0, 3)


@pytest.mark.parametrize(("given", "thrown"), [("9H", False), ("AH", True)])
def test_e6c_the_declarer_keeping_four_nines_throws_in(given: str, thrown: bool) -> None:
    rules = attrs.evolve(RUSSIAN, redeal_nines=Redeal.AFTER_EXCHANGE)
    layout = Layout(
        hands=["AC TC KC QC JC JH JS", "9S 9C 9D AS TS KD QD", "TH QH AD TD JD QS KS"],
        talon="9H AH KH",
    )
    state = play(thousand.new_match(rules, seed=1, dealer=0, layout=layout), "pass", "pass")
    state = play(state, f"give {given} 2", "give KH 0")
    assert (state.deal_number == 1) is thrown
    assert (state.phase is thousand.Phase.CONTRACT) is not thrown


WEAK = attrs.evolve(RUSSIAN, redeal_weak_hand=13)


@pytest.mark.parametrize(
    ("hand", "worth"),
    [
        ("9S 9C JD JH QC 9D KH", 11),
        ("JH JD JC QC KD 9S 9C", 13),
        ("9S 9C 9D JH JD KS QS", 51),
    ],
)
def test_e7_what_a_hand_is_worth(hand: str, worth: int) -> None:
    assert hand_worth(WEAK, sum(card.bit for card in thousand.cards(hand))) == worth


def test_e7_a_weak_hand_is_thrown_in_and_the_first_qualifying_seat_is_named() -> None:
    layout = Layout(
        hands=["AH TH AD TD AC TC AS", "9S 9C JD JH QC 9D KH", "9H JC QD KD TS KS QS"],
        talon="QH JS KC",
    )
    rules = attrs.evolve(WEAK, redeal_jacks=Redeal.DEALT)
    state = thousand.new_match(rules, seed=1, dealer=0, layout=layout)
    assert state.deals[0].thrown_in == ThrowIn(1, "weak hand", Redeal.DEALT)


def test_a_throw_in_says_who_holds_what_and_when() -> None:
    """A throw-in reads as the seat, what it holds ("a weak hand" for a weak one) and when."""
    layout = Layout(
        hands=["AH TH AD TD AC TC AS", "9S 9C JD JH QC 9D KH", "9H JC QD KD TS KS QS"],
        talon="QH JS KC",
    )
    weak = thousand.new_match(WEAK, seed=1, dealer=0, layout=layout).deals[0].thrown_in
    assert str(weak) == "thrown in: seat 1 holds a weak hand as dealt"
    rules = attrs.evolve(RUSSIAN, redeal_nines=Redeal.AFTER_EXCHANGE)
    nines = exchange_nines(rules).deals[0].thrown_in
    assert str(nines) == "thrown in: seat 2 holds four nines after the exchange"


def test_a_weak_hand_is_checked_as_dealt_only() -> None:
    """Seat 1 is worth 20 as dealt; after taking 9D QC QD and giving away AS and QH it holds 12,
    under the threshold of 13, yet the deal goes on: only the nines are checked after the
    exchange."""
    layout = Layout(
        hands=["TS KS QS JS AH TH KH", "AS 9S 9C JH JD JC QH", "AC TC KC AD TD KD 9H"],
        talon="9D QC QD",
    )
    rules = attrs.evolve(WEAK, redeal_nines=Redeal.AFTER_EXCHANGE)
    state = thousand.new_match(rules, seed=1, dealer=0, layout=layout)
    state = play(state, "pass", "pass", "give AS 2", "give QH 0")
    assert hand_worth(rules, sum(card.bit for card in state.hands[1])) == 12
    assert state.deals == ()
    assert (state.phase, state.declarer) == (thousand.Phase.CONTRACT, 1)


def test_the_deal_after_a_throw_in_after_the_exchange_is_checked_as_dealt() -> None:
    """E6 b) under a weak-hand threshold of 28 too (seed 2): the deal the same dealer deals next
    holds a weak hand, so it is thrown in as dealt before any bid, and play goes on with the
    deal after it."""
    rules = attrs.evolve(RUSSIAN, redeal_nines=Redeal.AFTER_EXCHANGE, redeal_weak_hand=28)
    state = thousand.new_match(rules, seed=2, dealer=0, layout=NINES_AFTER)
    state = play(state, "pass", "bid 105", "bid 110", "pass", "give 9H 2", "give JD 0")
    assert [deal.thrown_in for deal in state.deals] == [
        ThrowIn(2, "four nines", Redeal.AFTER_EXCHANGE),
        ThrowIn(1, "weak hand", Redeal.DEALT),
    ]
    assert (state.deal_number, state.dealer, state.phase) == (2, 0, thousand.Phase.AUCTION)
    assert all(hand_worth(rules, sum(card.bit for card in hand)) >= 28 for hand in state.hands)


def test_throw_ins_do_not_count_towards_the_gold_set() -> None:
    layout = Layout(
        hands=["AH TH AD TD AC TC AS", "9S 9C JD JH QC 9D KH", "9H JC QD KD TS KS QS"],
        talon="QH JS KC",
    )
    rules = attrs.evolve(WEAK, gold_set=1)
    state = thousand.new_match(rules, seed=1, dealer=0, layout=layout)
    assert state.deals[0].thrown_in is not None
    assert (state.deal_number, state.context.scored_deals, state.bid) == (1, 0, 120)
    assert state.observation(0).scored_deals == 0


def test_a_deal_limit_ends_even_endless_throw_ins() -> None:
    rules = attrs.evolve(RUSSIAN, redeal_weak_hand=1000, max_deals=7)
    state = thousand.new_match(rules, seed=1)
    assert state.is_over
    assert isinstance(state.result, MatchResult)
    assert state.result.adjudicated
    assert state.result.deals == 7
    assert all(deal.thrown_in for deal in state.deals)
    assert state.scores == (0, 0, 0)


def test_the_longest_deal_limit_ends_endless_throw_ins_too() -> None:
    """With every hand weak and the most deals the rules allow, the match still ends with all
    10,000 deals thrown in, however long the run of throw-ins."""
    rules = attrs.evolve(RUSSIAN, redeal_weak_hand=1000, max_deals=10_000)
    state = thousand.new_match(rules, seed=1)
    assert isinstance(state.result, MatchResult)
    assert (state.result.deals, state.result.adjudicated) == (10_000, True)
    assert len(state.deals) == 10_000
    assert all(deal.thrown_in for deal in state.deals)


@pytest.mark.parametrize(
    ("scores", "setting"),
    [([], Samosval.NONE), ([555], Samosval.POSITIVE), ([-555, 555], Samosval.BOTH)],
)
def test_a_rules_file_may_give_the_samosval_as_its_scores(
    scores: list[int], setting: Samosval
) -> None:
    rules = Rules.from_json(f'{{"preset": "russian", "samosval": {scores}}}')
    assert rules.samosval is setting
    assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(RulesError, match=r"\[-555\] is not a Samosval setting"):
        Rules.from_json('{"preset": "russian", "samosval": [-555]}')


def test_the_end_of_deal_steps_are_a_pure_function() -> None:
    """§4.11 item 12: scoring a finished deal twice gives the same standing, the one the engine
    recorded, and changes nothing (E1's concession, with bolts on)."""
    rules = attrs.evolve(RUSSIAN_4, bolts=1, samosval=Samosval.BOTH)
    state = thousand.new_match(rules, seed=1, dealer=2, layout=E1)
    state = play(state, "bid 105", "pass", "pass", "give 9S 2", "give TS 3")
    kept = attrs.evolve(state)
    points = scoring.deal_points(state)
    deal = scoring.deal_scores(state, points, conceded=True)
    standing = scoring.end_of_deal(state, deal, points, True)
    assert scoring.end_of_deal(state, deal, points, True) == standing
    assert state == kept
    recorded = play(state, "concede").deals[0]
    assert standing.deal_scores == recorded.deal_scores == (-105, 80, 55, 55)
    assert (standing.scores, standing.bolts) == (recorded.scores, recorded.bolts)
