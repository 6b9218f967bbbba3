"""Every parser of outside text, fed arbitrary text and JSON: actions, cards, records, rules, the
bot protocol's observations and the terminal player's answers either read it or raise only the
library's documented errors."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import thousand
from thousand import (
    Card,
    InvalidActionError,
    NotationError,
    Observation,
    RecordError,
    Rules,
    RulesError,
    bluff,
    load_record,
    new_match,
    parse_action,
)
from thousand.common.config import MAX_DEPTH
from thousand.frontends.human import Hint, bluff_answer, thousand_answer
from thousand.games import record_from_json

# Digits that str.isdigit() accepts and int() rejects or reads: superscripts, circled digits,
# Arabic-Indic and full-width digits.
FOREIGN_DIGITS = ["²", "①", "٣٣", "１２０", "߁", "𝟙"]

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
"""Any JSON value (floats include infinities and NaN, which Python's JSON reads and writes)."""

WORDS = st.sampled_from(
    ["bid", "play", "give", "take", "hide", "pass", "contract", "KH", "10h", "06", "1000", "??"]
)
NOTATION = st.lists(WORDS | st.text(max_size=6), max_size=4).map(" ".join) | st.text()
"""Text near the notation (its words in any order, among arbitrary words) or arbitrary text."""


@given(NOTATION)
@example("bid ²")
@example("bid " + "9" * 5000)
def test_thousand_actions_parse_or_raise_invalid_action(text: str) -> None:
    """Any text is an action that round-trips, or an InvalidActionError."""
    try:
        action = parse_action(text)
    except InvalidActionError:
        return
    assert parse_action(str(action)) == action


@given(NOTATION)
@example("play ٣٣")
@example("hide " + "0" * 5000)
def test_bluff_actions_parse_or_raise_invalid_action(text: str) -> None:
    """Any text is a 1000? action that round-trips, or an InvalidActionError."""
    try:
        action = bluff.parse_action(text)
    except InvalidActionError:
        return
    assert bluff.parse_action(str(action)) == action


@pytest.mark.parametrize("digits", FOREIGN_DIGITS)
@pytest.mark.parametrize("verb", ["bid", "contract", "take", "give KH"])
def test_numbers_are_ascii_digits_only(verb: str, digits: str) -> None:
    """A number in notation is written in the digits 0-9, not in other scripts' digits."""
    with pytest.raises(InvalidActionError, match="is not a whole number"):
        parse_action(f"{verb} {digits}")


def test_a_number_thousands_of_digits_long_is_not_an_amount() -> None:
    with pytest.raises(InvalidActionError, match="up to 9 digits"):
        parse_action("bid " + "1" * 5000)


@given(JSON_VALUES | NOTATION)
def test_thousand_cards_parse_or_raise_notation_error(value: Any) -> None:
    """Anything, text or not, is one of the 24 cards or a NotationError."""
    try:
        card = Card.parse(value)
    except NotationError:
        return
    assert card in thousand.DECK


@given(JSON_VALUES | NOTATION | st.text("0123456789", min_size=1))
@example("9" * 5000)
@example("٣٣")
def test_bluff_cards_parse_or_raise_notation_error(value: Any) -> None:
    """Anything is a 1000? card with a value, or a NotationError: a card always has a value."""
    try:
        card = bluff.Card.parse(value)
    except NotationError:
        return
    assert 0 <= card.value <= 9999
    assert bluff.Card.parse(str(card)) == card


def record_document(game: str) -> dict[str, Any]:
    """A real record of a short game, as JSON data."""
    if game == "bluff":
        outcome = thousand.play(["random"] * 3, bluff.Rules(players=3), seed=3)
    else:
        outcome = thousand.play(["random"] * 3, Rules(), seed=3, single_deal=True)
    return json.loads(outcome.record.to_json())  # type: ignore[no-any-return]


RECORDS = {game: record_document(game) for game in ("thousand", "bluff")}


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document, as the keys and indices that lead there."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


def replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``data`` with ``value`` at ``path``."""
    if not path:
        return value
    copy = json.loads(json.dumps(data))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return copy


def read_and_replay(text: str) -> None:
    """What ``thousand replay`` does with a file's text."""
    record = record_from_json(text)
    record_type = type(record)
    assert record_type in (thousand.Record, bluff.Record)
    if isinstance(record, bluff.Record):
        bluff.replay(record)
    else:
        thousand.replay(record)


@given(st.data(), st.sampled_from(sorted(RECORDS)), JSON_VALUES)
@example(None, "thousand", [2, "AH"]).via("a hand holding a number")
def test_records_with_any_value_anywhere_read_or_raise_record_error(
    data: st.DataObject | None, game: str, value: Any
) -> None:
    """A real record with any JSON value put in any place reads and replays, or raises only
    RecordError."""
    document = RECORDS[game]
    if data is None:
        path: tuple[Any, ...] = ("deals", 0, "layout", "hands", 0)
    else:
        path = data.draw(st.sampled_from(paths(document)))
    text = json.dumps(replaced(document, path, value))
    with contextlib.suppress(RecordError):
        read_and_replay(text)


@given(st.text())
def test_any_text_is_a_record_or_a_record_error(text: str) -> None:
    with contextlib.suppress(RecordError):
        read_and_replay(text)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_deeply_nested_json_is_a_record_error(depth: int) -> None:
    with pytest.raises(RecordError, match="nested more than 64 levels deep"):
        record_from_json("[" * depth + "]" * depth)
    with pytest.raises(RulesError, match="nested more than 64 levels deep"):
        Rules.from_json('{"players": ' + "[" * depth + "]" * depth + "}")


def test_a_hand_holding_a_number_is_a_record_error() -> None:
    document = replaced(RECORDS["thousand"], ("deals", 0, "layout", "hands", 0), [2, "AH"])
    with pytest.raises(RecordError, match="'2' is not a card"):
        record_from_json(json.dumps(document))


def test_a_file_that_is_not_utf8_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(b'{"format": "thousand-record", "name": "\xff\xfe"}')
    with pytest.raises(RecordError, match="not UTF-8 text"):
        load_record(path)
    with pytest.raises(RecordError, match="not UTF-8 text"):
        bluff.load_record(path)


BOUNDED_FIELDS = [
    (Rules, name) for name, value in Rules().to_dict().items() if type(value) is int
] + [(bluff.Rules, name) for name, value in bluff.Rules().to_dict().items() if type(value) is int]


@pytest.mark.parametrize(("rules_type", "name"), BOUNDED_FIELDS)
def test_every_whole_number_field_is_bounded(rules_type: type[Any], name: str) -> None:
    """A field set to a billion, or below its range, is a RulesError naming the field and its
    range, before any game is built."""
    for value in (10**9, -1):
        with pytest.raises(RulesError, match=f"rules field '{name}' must be .* to "):
            rules_type.from_dict({name: value})


def test_a_huge_cap_in_a_record_is_refused_before_playing() -> None:
    document = replaced(RECORDS["thousand"], ("rules", "cap_base"), 10**9)
    with pytest.raises(RecordError, match="'cap_base' must be 1 to 1,000"):
        record_from_json(json.dumps(document))


def test_a_deck_of_more_than_a_thousand_cards_is_refused() -> None:
    with pytest.raises(RulesError, match="at most 1,000 cards"):
        bluff.Rules(deck="01 " * 1001)


RULES_FIELDS = st.sampled_from(
    [*attrs.fields_dict(Rules), *attrs.fields_dict(bluff.Rules), "preset", "other"]
)


@given(st.dictionaries(RULES_FIELDS, JSON_VALUES | st.integers(), max_size=4))
def test_rules_from_any_json_object_or_a_rules_error(values: dict[str, Any]) -> None:
    for rules_type in (Rules, bluff.Rules):
        with contextlib.suppress(RulesError):
            rules_type.from_dict(values)


@given(JSON_VALUES | st.text())
def test_rules_from_any_json_text_or_a_rules_error(value: Any) -> None:
    text = value if isinstance(value, str) else json.dumps(value)
    for rules_type in (Rules, bluff.Rules):
        with contextlib.suppress(RulesError):
            rules_type.from_json(text)


def observation_documents() -> dict[str, dict[str, Any]]:
    """A mid-game observation of each game, as the protocol sends it."""
    state = new_match(Rules(), seed=5)
    for _ in range(12):
        state = state.apply(state.legal_actions()[0])
    game = bluff.new_game(bluff.Rules(players=3), seed=5)
    for _ in range(5):
        game = game.apply(game.legal_actions()[-1])
    return {
        "thousand": state.observation(state.current_player).to_dict(),
        "1000?": game.observation(game.current_player).to_dict(),
    }


OBSERVATIONS = observation_documents()


@given(st.data(), st.sampled_from(sorted(OBSERVATIONS)), JSON_VALUES)
def test_protocol_observations_read_or_raise_documented_errors(
    data: st.DataObject, game: str, value: Any
) -> None:
    """A protocol observation with any JSON value put in any place reads, or raises one of the
    errors ``Observation.from_dict`` documents: KeyError, TypeError or ValueError."""
    document = OBSERVATIONS[game]
    path = data.draw(st.sampled_from(paths(document)))
    changed = replaced(document, path, value)
    observation_type = Observation if game == "thousand" else bluff.Observation
    with contextlib.suppress(KeyError, TypeError, ValueError):
        observation_type.from_dict(changed)


@given(NOTATION | st.sampled_from(FOREIGN_DIGITS))
@example("²")
@example("٣٣")
@example("#٣")
def test_terminal_answers_are_actions_or_hints(text: str) -> None:
    """Whatever a person types at the terminal is a legal action or a hint to ask again."""
    state = new_match(Rules(), seed=2)
    for answer_of, observation in [
        (thousand_answer, state.observation(state.current_player)),
        (bluff_answer, bluff.new_game(bluff.Rules(), seed=2).observation(0)),
    ]:
        answer = answer_of(text, observation)  # type: ignore[operator]
        assert isinstance(answer, Hint) or answer in observation.legal_actions
