"""Action notation: every action's text round-trips through parse_action."""

from __future__ import annotations

import pytest

from tests.support import assert_refused
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
    Rules,
    Take,
    new_deal,
    parse_action,
)
from thousand.classic.actions import seen_by

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
        ("contract 13o", "not a whole number"),
        ("take one", "not a whole number"),
        ("fold", "is not an action"),
        ("play ZZ", "is not a card"),
        ("play KH trumps", "only 'marriage' or 'aces'"),
        ("play ??", "always face up"),
        ("give QS one", "not a whole number"),
        ("give XX 1", "is not a card"),
        ("discard ZZ", "is not a card"),
        ("fold KH", "is not an action"),
        ("bid 120 130", "is not an action"),
    ],
)
def test_malformed_text_raises_invalid_action_error(text: str, message: str) -> None:
    """Malformed text raises InvalidActionError (a ValueError) that quotes the text."""
    with pytest.raises(InvalidActionError, match=message) as caught:
        parse_action(text)
    assert isinstance(caught.value, ValueError)
    assert repr(text)[1:-1] in str(caught.value) or text == ""


@pytest.mark.parametrize(("value", "kind"), [(125, "int"), (None, "NoneType"), (["pass"], "list")])
def test_an_action_that_is_not_text_is_refused_naming_what_it_was(value: object, kind: str) -> None:
    """Only text is read as an action (a bot's reply decoded from JSON may be anything)."""
    with pytest.raises(InvalidActionError) as caught:
        parse_action(value)  # type: ignore[arg-type]
    assert str(caught.value) == f"an action is written as text, not {kind}"


def test_actions_are_hashable_values() -> None:
    """Actions compare by value and can be used in sets and dict keys."""
    assert {Bid(120), Bid(120), Pass()} == {Bid(120), Pass()}


@pytest.mark.parametrize(
    ("viewer", "sees_the_gift", "sees_the_discard"),
    [
        pytest.param(0, True, True, id="declarer"),
        pytest.param(1, True, False, id="receiver"),
        pytest.param(2, False, False, id="other-defender"),
        pytest.param(None, False, False, id="spectator"),
    ],
)
def test_a_card_given_is_seen_by_both_seats_and_one_laid_aside_by_the_declarer_alone(
    viewer: int | None, sees_the_gift: bool, sees_the_discard: bool
) -> None:
    """Seat 0 gives the queen of spades to seat 1 and lays aside the nine of hearts: each viewer
    sees the card or only that one was given (to whom) or laid aside; a bid is seen by all."""
    give = Give(Card.parse("QS"), 1)
    discard = Discard(Card.parse("9H"))
    assert seen_by(give, 0, viewer) == (give if sees_the_gift else Give(None, 1))
    assert seen_by(discard, 0, viewer) == (discard if sees_the_discard else Discard(None))
    assert seen_by(Bid(120), 0, viewer) == Bid(120)


@pytest.mark.parametrize(
    ("offered", "name"),
    [
        pytest.param("pass", "str", id="text"),
        pytest.param(Card.parse("KH"), "Card", id="card"),
        pytest.param(Pass, "type", id="action-class"),
    ],
)
def test_an_object_that_is_not_an_action_is_refused_naming_its_type(offered, name) -> None:
    """Text, a card or an action class offered to a Thousand game is refused, naming the
    object's type and showing how to read action text with the parser."""
    reason = (
        f"{name} is not an action; read text with parse_action(), "
        "as in state.apply(parse_action('pass'))"
    )
    assert_refused(new_deal(Rules.preset("russian"), seed=1), offered, reason)
