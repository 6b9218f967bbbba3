"""Thousand-specific parts of the game interface: matches started near the target end with a
winner, single deals end with a deal result, illegal auction actions say why, the seed fixes
the dealer and every deal's cards, a state works out its legal actions once, and what is not
rules or not a seat is refused in words. The checks both games share are in
``test_conformance.py``."""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

from thousand import (
    BarrelCapacity,
    DealResult,
    Endgame,
    IllegalActionError,
    Layout,
    LayoutError,
    MatchResult,
    Rules,
    RulesError,
    Samosval,
    new_deal,
    new_match,
    parse_action,
)

from .strategies import PRESET_NAMES, VARIANTS
from .test_conformance import check_finished_match


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_matches_near_the_target_end_with_a_winner(name: str) -> None:
    """Matches started close to the target finish, some of them with a real winner."""
    rules = Rules.preset(name)
    start = rules.barrel_threshold if rules.endgame is Endgame.BARREL else rules.target - 10
    won = 0
    # At a table of four everyone starts on the barrel and a seat sits out each deal: wins by
    # this policy are rarer, so more matches are played.
    for seed in range(10 if rules.players < 4 else 20):
        rng = random.Random(seed)
        state = new_match(rules, seed=seed, scores=[start] * rules.players)
        while not state.is_over:
            legal = state.legal_actions()
            # Players lean towards passing and the lowest contract, so contracts get made.
            state = state.apply(legal[0] if rng.random() < 0.5 else rng.choice(legal))
        check_finished_match(state)
        assert isinstance(state.result, MatchResult)
        won += not state.result.adjudicated
    assert won


def test_single_deals_end_with_a_deal_result() -> None:
    """A single deal ends after scoring, its result a ``DealResult`` that is also its only deal."""
    for name, rules in VARIANTS.items():
        for seed in range(5):
            rng = random.Random(seed)
            state = new_deal(rules, seed=seed)
            while not state.is_over:
                assert state.legal_actions(), name
                state = state.apply(rng.choice(state.legal_actions()))
            assert isinstance(state.result, DealResult)
            assert state.deals == (state.result,)
            assert state.legal_actions() == ()
            assert state.current_player is None


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("bid 103", "steps of 5"),
        ("bid 100", "above the current bid"),
        ("bid 500", "allows bids up to"),
        ("play AH", "in the auction a player bids or passes"),
    ],
)
def test_illegal_auction_actions_say_why(text: str, phrase: str) -> None:
    """The reason of an illegal auction action says what is wrong."""
    state = new_match(Rules.preset("russian"), seed=3, dealer=0)
    with pytest.raises(IllegalActionError, match=phrase) as caught:
        state.apply(parse_action(text))
    assert caught.value.seat == 2
    assert caught.value.phase == "auction"


def test_seed_fixes_dealer_and_layouts() -> None:
    """The seed alone fixes the first dealer and every deal's cards; other seeds deal others."""
    for name in PRESET_NAMES:
        rules = Rules.preset(name)
        dealers = {new_match(rules, seed=seed).dealer for seed in range(30)}
        assert dealers == set(range(rules.players))
        for seed in range(10):
            one, two = new_match(rules, seed=seed), new_match(rules, seed=seed)
            assert one == two
            assert one.layout == Layout.from_seed(rules.players, seed, 0, one.sitter)
        layouts = {new_match(rules, seed=seed, dealer=0).layout for seed in range(20)}
        assert len(layouts) == 20


def test_legal_actions_are_worked_out_once_per_state() -> None:
    """Asking a state for its legal actions again hands back the very tuple worked out the first
    time, in every phase of a deal of every preset."""
    rng = random.Random(4)
    for name in PRESET_NAMES:
        state = new_deal(Rules.preset(name), seed=4)
        while not state.is_over:
            legal = state.legal_actions()
            assert state.legal_actions() is legal
            state = state.apply(rng.choice(legal))
        assert state.legal_actions() == ()


def _refusal(start: Callable[[], object], error: type[Exception] = RulesError) -> str:
    """The words of the ``error`` that ``start`` raises."""
    with pytest.raises(error) as caught:
        start()
    return str(caught.value)


@pytest.mark.parametrize("start", [new_match, new_deal])
def test_a_match_refuses_what_is_not_rules_naming_what_it_was_given(start) -> None:
    """A preset's name is not yet its rules: the refusal names the type given."""
    assert _refusal(lambda: start("russian", seed=0)) == "expected a Rules value, not str"


@pytest.mark.parametrize(("name", "dealer"), [("russian", -1), ("russian", 3), ("russian-4", 4)])
def test_a_dealer_outside_the_table_is_refused_naming_the_seats(name: str, dealer: int) -> None:
    """The dealer must be one of the seats, numbered from 0."""
    rules = Rules.preset(name)
    assert _refusal(lambda: new_match(rules, seed=0, dealer=dealer)) == (
        f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer}"
    )


@pytest.mark.parametrize("score", [1000, 1005])
def test_a_starting_score_at_the_target_is_refused_as_already_won(score: int) -> None:
    """A seat starting at 1000 or more would have won before the first card: refused."""
    assert _refusal(lambda: new_match(Rules.preset("russian"), seed=0, scores=(0, score, 0))) == (
        "a starting score of 1000 or more has already won"
    )
    assert new_match(Rules.preset("russian"), seed=0, scores=(0, 875, 0)).scores == (0, 875, 0)


def test_a_match_started_from_what_the_rules_cannot_hold_is_refused_in_words() -> None:
    """Scores of the wrong count or not whole, a layout for another table or another sitter,
    a start on a samosval score, above the barrel, or two on a barrel for one are each refused
    saying what is wrong."""
    russian, four = Rules.preset("russian"), Rules.preset("russian-4")
    assert _refusal(lambda: new_match(russian, seed=0, scores=(0, 0))) == (
        "scores must be 3 whole numbers, not [0, 0]"
    )
    assert _refusal(lambda: new_match(russian, seed=0, scores=(0, 0.5, 0))) == (
        "scores must be 3 whole numbers, not [0, 0.5, 0]"
    )
    three_hands = Layout.from_seed(3, 1, 0)
    assert (
        _refusal(lambda: new_deal(Rules.preset("polish-2p"), layout=three_hands), LayoutError)
        == "the layout has 3 hands but the rules have 2"
    )
    seat_0_out = Layout.from_seed(4, 1, 0, sitter=0)
    assert _refusal(lambda: new_match(four, seed=0, dealer=0, layout=seat_0_out), LayoutError) == (
        "the layout leaves seat 0 without cards, but with dealer 0 seat 3 sits out "
        "(sitter 'right_of_dealer')"
    )
    positive = attrs.evolve(russian, samosval=Samosval.POSITIVE)
    both = attrs.evolve(russian, samosval=Samosval.BOTH)
    assert _refusal(lambda: new_match(positive, seed=0, scores=(0, 555, 0))) == (
        "with samosval 'positive' no score may start at 555"
    )
    assert new_match(positive, seed=0, scores=(0, -555, 0)).scores == (0, -555, 0)
    assert _refusal(lambda: new_match(both, seed=0, scores=(-555, 0, 0))) == (
        "with samosval 'both' no score may start at 555 or -555"
    )
    assert _refusal(lambda: new_match(russian, seed=0, scores=(0, 885, 0))) == (
        "under barrel rules no score lies between 880 and 1000"
    )
    single = attrs.evolve(russian, barrel_capacity=BarrelCapacity.SINGLE)
    assert new_match(single, seed=0, scores=(0, 880, 0)).barrel == (None, 0, None)
    assert _refusal(lambda: new_match(single, seed=0, scores=(880, 880, 0))) == (
        "with single barrel capacity only one player may start at 880"
    )
