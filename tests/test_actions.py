"""Action notation: every action's text round-trips through parse_action."""

from __future__ import annotations

import pytest

from thousand import (
    Bid,
    Card,
    Concede,
    Contract,
    Discard,
    Give,
    InvalidActionError,
    Pass,
    Play,
    Take,
    parse_action,
)

EXAMPLES = [
    ("pass", Pass()),
    ("bid 125", Bid(125)),
    ("take 2", Take(2)),
    ("give QS 1", Give(Card.parse("QS"), 1)),
    ("discard 9H", Discard(Card.parse("9H"))),
    ("contract 130", Contract(130)),
    ("concede", Concede()),
    ("play KH", Play(Card.parse("KH"))),
    ("play KH marriage", Play(Card.parse("KH"), marriage=True)),
    ("play AH aces", Play(Card.parse("AH"), aces=True)),
    ("give ?? 2", Give(None, 2)),
    ("discard ??", Discard(None)),
]


@pytest.mark.parametrize(("text", "action"), EXAMPLES, ids=[text for text, _ in EXAMPLES])
def test_text_round_trips(text: str, action: object) -> None:
    """parse_action(text) gives the action, and str(action) gives the text back."""
    assert parse_action(text) == action
    assert str(action) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [("  BID   120 ", "bid 120"), ("Play 10h Marriage", "play TH marriage"), ("PASS", "pass")],
)
def test_parsing_ignores_case_and_spacing(text: str, expected: str) -> None:
    """Case and extra spaces do not matter; 10 is accepted for the ten."""
    assert str(parse_action(text)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not an action"),
        ("bid", "is not an action"),
        ("bid 12x", "not a whole number"),
        ("fold", "is not an action"),
        ("play ZZ", "is not a card"),
        ("play KH trumps", "only 'marriage' or 'aces'"),
        ("play ??", "always face up"),
        ("give QS one", "not a whole number"),
        ("give XX 1", "is not a card"),
    ],
)
def test_malformed_text_raises_invalid_action_error(text: str, message: str) -> None:
    """Malformed text raises InvalidActionError (a ValueError) that quotes the text."""
    with pytest.raises(InvalidActionError, match=message) as caught:
        parse_action(text)
    assert isinstance(caught.value, ValueError)
    assert repr(text)[1:-1] in str(caught.value) or text == ""


def test_actions_are_hashable_values() -> None:
    """Actions compare by value and can be used in sets and dict keys."""
    assert {Bid(120), Bid(120), Pass()} == {Bid(120), Pass()}
