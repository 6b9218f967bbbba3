"""Cards and their notation (RULES.md 1.1)."""

from __future__ import annotations

import pytest

from thousand import DECK, Card, NotationError, Rank, Suit, cards
from thousand.classic.cards import FULL_MASK, cards_of, format_cards, mask_of, points_of


def test_deck_has_24_distinct_cards_worth_120() -> None:
    """A, 10, K, Q, J, 9 in four suits: 24 cards, 30 points a suit, 120 in all."""
    assert len(set(DECK)) == 24
    assert sum(card.points for card in DECK) == 120
    for suit in Suit:
        assert sum(card.points for card in DECK if card.suit == suit) == 30


@pytest.mark.parametrize(
    ("rank", "points"),
    [
        (Rank.ACE, 11),
        (Rank.TEN, 10),
        (Rank.KING, 4),
        (Rank.QUEEN, 3),
        (Rank.JACK, 2),
        (Rank.NINE, 0),
    ],
)
def test_card_points(rank: Rank, points: int) -> None:
    """Card points: A 11, 10 10, K 4, Q 3, J 2, 9 0."""
    assert Card(Suit.CLUBS, rank).points == points


def test_trick_order_is_ace_ten_king_queen_jack_nine() -> None:
    """Within a suit the order is A > 10 > K > Q > J > 9 (higher index beats lower)."""
    order = [Card.parse(text) for text in ("AS", "TS", "KS", "QS", "JS", "9S")]
    assert [card.index for card in order] == sorted((card.index for card in order), reverse=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TH", "TH"),
        ("10H", "TH"),
        ("10♥", "TH"),
        ("th", "TH"),
        (" 9s ", "9S"),
        ("A♠", "AS"),
        ("Q♦", "QD"),
        ("KC", "KC"),
        ("J♣", "JC"),
    ],
)
def test_notation_accepts_ascii_ten_and_symbols(text: str, expected: str) -> None:
    """Ranks 9 J Q K T A (10 accepted), suits S C D H (symbols accepted); output is ASCII."""
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "1H", "TX", "AHH", "11S", "KH KS"])
def test_bad_card_text_raises_notation_error(text: str) -> None:
    """Text that is no card raises NotationError (a ValueError) quoting the text."""
    with pytest.raises(NotationError) as caught:
        Card.parse(text)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == (
        f"'{text}' is not a card: write the rank (9 J Q K T A, or 10) then the suit "
        "(S C D H, or ♠ ♣ ♦ ♥), as in 'TH' for the ten of hearts"
    )


def test_str_parse_and_repr_round_trip() -> None:
    """str(card) parses back to the card, and repr(card) is Python that rebuilds it."""
    for card in DECK:
        assert Card.parse(str(card)) == card
        assert eval(repr(card)) == card


def test_cards_reads_text_and_sequences() -> None:
    """cards() takes notation text, or a sequence of strings and cards."""
    expected = (Card.parse("AH"), Card.parse("TH"), Card.parse("KH"))
    assert cards("AH TH KH") == expected
    assert cards("AH, 10H, KH") == expected
    assert cards(["AH", Card.parse("TH"), "KH"]) == expected


def test_masks_round_trip_and_count_points() -> None:
    """A card set as a bit mask converts back in display order and counts its points."""
    hand = cards("9S AH QD TH")
    mask = mask_of(hand)
    assert cards_of(mask) == cards("AH TH QD 9S")
    assert format_cards(mask) == "AH TH QD 9S"
    assert points_of(mask) == 24
    assert points_of(FULL_MASK) == 120


def test_equal_cards_are_interchangeable() -> None:
    """A card built by hand equals and hashes like the parsed one."""
    built = Card(Suit.HEARTS, Rank.TEN)
    assert built == Card.parse("TH")
    assert hash(built) == hash(Card.parse("TH"))
    assert built.index == Card.parse("TH").index


def test_a_card_built_from_suit_and_rank_writes_its_notation() -> None:
    """Every card built by hand from a suit and a rank reads as rank then suit, as parsed."""
    built = [Card(suit, rank) for suit in Suit for rank in Rank]
    assert " ".join(str(card) for card in built) == (
        "9S JS QS KS TS AS 9C JC QC KC TC AC 9D JD QD KD TD AD 9H JH QH KH TH AH"
    )
    assert repr(Card(Suit.HEARTS, Rank.TEN)) == "Card.parse('TH')"
