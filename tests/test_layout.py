"""Deal layouts: explicit layouts, validation, and seeded deals (RULES.md 1.2)."""

from __future__ import annotations

import random

import attrs
import pytest

from thousand import DECK, Layout, LayoutError, Rules, cards, new_deal, new_match
from thousand.classic.engine import deal_as_dealt

HANDS_3P = ["AH TH KH QH JH 9H AD", "TD KD QD JD 9D AC TC", "KC QC JC 9C AS TS KS"]


def test_three_player_layout_accepts_text_or_cards() -> None:
    """Hands and talon may be notation text, a list of card words or card values; the talon is
    one pile of 3."""
    by_text = Layout(hands=HANDS_3P, talon="QS JS 9S")
    by_cards = Layout(hands=[cards(hand) for hand in HANDS_3P], talon=cards("QS JS 9S"))
    assert by_text == by_cards
    assert Layout(hands=HANDS_3P, talon=["QS", "JS", "9S"]) == by_text
    assert by_text.talon == (cards("QS JS 9S"),)


def test_two_player_layout_has_two_musiki() -> None:
    """Two players: 10 cards each and two musiki of two, written as a list or split by '|'."""
    deck = [str(card) for card in DECK]
    hands = [" ".join(deck[:10]), " ".join(deck[10:20])]
    listed = Layout(hands=hands, talon=[" ".join(deck[20:22]), " ".join(deck[22:])])
    split = Layout(hands=hands, talon=" ".join(deck[20:22]) + " | " + " ".join(deck[22:]))
    assert listed == split
    assert [len(pile) for pile in listed.talon] == [2, 2]


FOUR_SEATS = "a layout for four seats leaves exactly one hand empty (the seat sitting out)"


@pytest.mark.parametrize(
    ("hands", "talon", "message"),
    [
        (HANDS_3P[:2], "QS JS 9S", "hand 0 has 7 cards; with 2 players each holds 10"),
        (
            [HANDS_3P[0], HANDS_3P[1], "KC QC JC 9C AS TS"],
            "KS QS JS 9S",
            "hand 2 has 6 cards; with 3 players each holds 7",
        ),
        (HANDS_3P, "QS JS", "with 3 players the layout needs one talon of 3 cards"),
        (
            ["AH TH KH QH JH 9H AD TD KD QD", "JD 9D AC TC KC QC JC 9C AS TS"],
            "KS QS JS 9S",
            "with 2 players the layout needs two musiki of 2 cards each",
        ),
        ([HANDS_3P[0], HANDS_3P[1], "KC QC JC 9C AS TS AH"], "QS JS 9S", "card(s) dealt twice: AH"),
        (
            [HANDS_3P[0], HANDS_3P[1], "KC QC JC 9C AS AD AH"],
            "QS JS 9S",
            "card(s) dealt twice: AD AH",
        ),
        (
            [HANDS_3P[0], HANDS_3P[1], "KC QC JC 9C AS TS", ""],
            "KS QS JS 9S",
            "hand 2 has 6 cards; with 4 players each holds 7",
        ),
        (
            HANDS_3P,
            "QS JS XX",
            "bad card in layout: 'XX' is not a card: write the rank (9 J Q K T A, or 10) then the "
            "suit (S C D H, or ♠ ♣ ♦ ♥), as in 'TH' for the ten of hearts",
        ),
        (["AH"], "QS", "a layout has 2, 3 or 4 hands, not 1"),
        ([*HANDS_3P, "9D"], "QS JS 9S", f"{FOUR_SEATS}, not 0"),
        ([*HANDS_3P[:2], "", ""], "QS JS 9S", f"{FOUR_SEATS}, not 2"),
    ],
)
def test_bad_layouts_raise_layout_error(hands: list[str], talon: str, message: str) -> None:
    """Wrong sizes, repeated cards and bad notation raise LayoutError (a ValueError) saying
    what is wrong."""
    with pytest.raises(LayoutError) as caught:
        Layout(hands=hands, talon=talon)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == message


def test_layout_must_fit_the_rules() -> None:
    """A three-hand layout cannot start a two-player deal."""
    layout = Layout(hands=HANDS_3P, talon="QS JS 9S")
    with pytest.raises(LayoutError, match="3 hands but the rules have 2"):
        new_deal(Rules.preset("polish-2p"), layout=layout)


def test_seeded_deals_are_reproducible_and_differ_between_deals() -> None:
    """The same seed gives the same deal; each deal of a match has its own cards."""
    assert Layout.from_seed(3, 11, 0) == Layout.from_seed(3, 11, 0)
    assert Layout.from_seed(3, 11, 0) != Layout.from_seed(3, 11, 1)
    assert Layout.from_seed(3, 11, 0) != Layout.from_seed(3, 12, 0)
    state = new_match(Rules.preset("russian"), seed=11)
    assert state.layout == Layout.from_seed(3, 11, 0)


def test_a_deal_without_a_seed_draws_one_that_deals_it_again() -> None:
    """Without a seed one is drawn, kept in the origin, and fits a signed 64-bit integer (as
    records read by other programs need); the same seed deals the same cards."""
    rules = Rules.preset("russian")
    deals = [new_deal(rules) for _ in range(64)]
    seeds = [state.origin.seed for state in deals]
    assert all(isinstance(seed, int) and 0 <= seed < 2**63 for seed in seeds)
    assert len(set(seeds)) == len(seeds)
    for state in deals[:3]:
        assert new_deal(rules, seed=state.origin.seed) == state


def test_seeded_deal_is_a_permutation_of_the_deck() -> None:
    """A seeded layout holds all 24 cards once: 7+7+7+3 or 10+10+2+2."""
    for players in (2, 3):
        layout = Layout.from_seed(players, 5, 3)
        dealt = [card for pile in (*layout.hands, *layout.talon) for card in pile]
        assert sorted(card.index for card in dealt) == list(range(24))


def test_a_shuffled_four_seat_layout_leaves_the_seat_sitting_out_empty() -> None:
    """With four seats the sitter (0 to 3, and it must be given) gets no cards, the others seven
    each; any other count of seats than 2, 3 or 4 is refused."""
    rng = random.Random(1)
    for sitter in range(4):
        layout = Layout.shuffled(4, rng, sitter)
        assert [len(hand) for hand in layout.hands] == [
            0 if seat == sitter else 7 for seat in range(4)
        ]
    for sitter in (None, -1, 4):
        with pytest.raises(LayoutError) as refused:
            Layout.shuffled(4, rng, sitter)
        assert str(refused.value) == "a layout for four seats needs the seat sitting out, 0 to 3"
    with pytest.raises(LayoutError) as refused:
        Layout.shuffled(5, rng)
    assert str(refused.value) == "a layout has 2, 3 or 4 hands, not 5"


def test_seeded_deals_look_uniform() -> None:
    """Over many seeds every card lands in every hand and in the talon (no fixed positions)."""
    seen = {(card, place) for card in DECK for place in range(4)}
    for seed in range(400):
        layout = Layout.from_seed(3, seed, 0)
        for place, pile in enumerate((*layout.hands, *layout.talon)):
            for card in pile:
                seen.discard((card, place))
    assert not seen


def test_layout_dict_round_trip() -> None:
    """to_dict / from_dict preserve a layout; a malformed dict raises LayoutError."""
    layout = Layout.from_seed(2, 3, 0)
    assert Layout.from_dict(layout.to_dict()) == layout
    with pytest.raises(LayoutError, match="exactly the keys"):
        Layout.from_dict({"hands": []})


def test_first_dealer_comes_from_the_seed_unless_given() -> None:
    """new_match draws the first dealer from the seed; dealer= overrides it."""
    rules = Rules.preset("russian")
    dealers = {new_match(rules, seed=seed).dealer for seed in range(30)}
    assert dealers == {0, 1, 2}
    assert new_match(rules, seed=3).dealer == new_match(rules, seed=3).dealer
    assert new_match(rules, seed=3, dealer=2).dealer == 2


def test_dealer_rotates_to_the_left_after_each_deal() -> None:
    """After a deal the next dealer is the seat to the left (clockwise)."""
    rules = Rules.preset("russian")
    state = new_match(rules, seed=9, dealer=1)
    while state.deal_number == 0:
        state = state.apply(state.legal_actions()[0])
    assert state.dealer == 2
    assert state.deals[0].dealer == 1


def test_the_deal_as_dealt_keeps_the_bolt_and_fall_counts_of_the_match_so_far() -> None:
    """``deal_as_dealt`` goes back to the start of the current deal, same cards and same match
    so far, bolt and fall counts included; replaying the deal's actions leads back again."""
    rules = attrs.evolve(Rules.preset("russian"), bolts=3, barrel_reset_falls=3)
    rng = random.Random(159)
    state = new_match(rules, seed=159, scores=(880, 0, 0))
    while state.deal_number == 0:
        state = state.apply(rng.choice(state.legal_actions()))
    start = state
    assert (start.bolts, start.falls) == ((0, 1, 1), (1, 0, 0))
    for _ in range(6):
        state = state.apply(rng.choice(state.legal_actions()))
    dealt = deal_as_dealt(state)
    assert dealt == start
    assert (dealt.bolts, dealt.falls) == ((0, 1, 1), (1, 0, 0))
    for _, action in state.actions:
        dealt = dealt.apply(action)
    assert dealt == state
