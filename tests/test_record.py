"""Match records: JSON round trips, files, exact replays, and tamper detection with messages that
name the offending entry."""

from __future__ import annotations

import functools
import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from thousand import (
    DealResult,
    GameState,
    Layout,
    MatchResult,
    Record,
    RecordedDeal,
    RecordError,
    Rules,
    dump_record,
    load_record,
    new_deal,
    new_match,
    replay,
)
from thousand.classic.redeals import ThrowIn
from thousand.classic.rules import Redeal

from .strategies import PRESET_NAMES, VARIANTS
from .support import play

LAYOUT_3 = Layout(
    hands=["AH TH KH QH JH 9H AD", "TD KD QD JD 9D AC TC", "KC QC JC 9C AS TS KS"],
    talon="QS JS 9S",
)
LAYOUT_2 = Layout(
    hands=["AH TH KH QH JH 9H AD TD KD QD", "JD 9D AC TC KC QC JC 9C AS TS"],
    talon="KS QS | JS 9S",
)


def play_out(state: GameState, seed: int, limit: int | None = None) -> GameState:
    """Play random legal actions chosen by ``random.Random(seed)``, at most ``limit`` of them."""
    rng = random.Random(seed)
    steps = 0
    while not state.is_over and (limit is None or steps < limit):
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return state


def short_match(name: str, seed: int, max_deals: int = 3) -> GameState:
    """A finished match of a few deals (the deal cap ends it)."""
    rules = attrs.evolve(Rules.preset(name), max_deals=max_deals)
    return play_out(new_match(rules, seed=seed), seed)


def layout_for(rules: Rules, dealer: int) -> Layout:
    """A hand-given layout for the rules' table: ``LAYOUT_2`` for two seats, ``LAYOUT_3`` for
    three, and for four ``LAYOUT_3``'s hands with an empty one for the seat that sits out."""
    if rules.players == 2:
        return LAYOUT_2
    if rules.players == 3:
        return LAYOUT_3
    hands = list(LAYOUT_3.hands)
    hands.insert(rules.sitter_of(dealer), ())
    return Layout(hands=hands, talon=LAYOUT_3.talon)


SAMPLE_KINDS = (
    "match",
    "match-begun",
    "deal",
    "deal-begun",
    "match-by-hand",
    "deal-by-hand",
    "new",
)
"""The kinds of state sampled for every preset: finished and unfinished matches and deals, some
started by hand, and a match not yet begun."""


@functools.cache
def sample_state(name: str, kind: str) -> GameState:
    """One sampled state of the preset ``name``, built the first time a test asks for it (so that
    a broken engine fails the tests that use it, not the whole module's import)."""
    number = PRESET_NAMES.index(name)
    rules = Rules.preset(name)
    scores = [700, 0, 120, 45][: rules.players]
    if kind == "match":
        return short_match(name, number)
    if kind == "match-begun":
        return play_out(new_match(rules, seed=number), number, limit=70)
    if kind == "deal":
        return play_out(new_deal(rules, seed=number), number)
    if kind == "deal-begun":
        return play_out(new_deal(rules, seed=number, dealer=1), number, limit=9)
    if kind == "match-by-hand":
        start = new_match(rules, seed=5, dealer=1, scores=scores, layout=layout_for(rules, 1))
        return play_out(start, 5, 60)
    if kind == "deal-by-hand":
        return play_out(new_deal(rules, seed=5, layout=layout_for(rules, 0), scores=scores), 5)
    return new_match(rules, seed=number)


@pytest.fixture(
    params=[(name, kind) for name in PRESET_NAMES for kind in SAMPLE_KINDS],
    ids=lambda sample: "-".join(sample),
)
def state(request: pytest.FixtureRequest) -> GameState:
    """Each sampled state of every preset in turn."""
    return sample_state(*request.param)


def test_replay_shows_every_state_to_a_watcher(state: GameState) -> None:
    """The watcher sees the start and then each state in turn: each one action after the one
    before, the last the replayed state."""
    record = Record.from_state(state)
    seen: list[GameState] = []
    final = replay(record, watch=seen.append)
    actions = [step for deal in record.deals for step in deal.actions]
    assert len(seen) == len(actions) + 1
    assert seen[-1] is final
    for before, after, (seat, action) in zip(seen, seen[1:], actions, strict=False):
        assert before.current_player == seat
        assert before.apply(action) == after


def test_json_round_trip(state: GameState) -> None:
    """A record survives JSON unchanged, result included, and says what it is."""
    record = Record.from_state(state)
    text = record.to_json()
    again = Record.from_json(text)
    assert again == record
    assert again.result == record.result
    assert again.to_json() == text
    data = json.loads(text)
    assert data["format"] == "thousand-record"
    assert data["version"] == 1
    assert Rules.from_dict(data["rules"]) == state.rules


def test_replay_rebuilds_the_state(state: GameState) -> None:
    """Replaying a record (through JSON) gives a state equal to the recorded one."""
    again = replay(Record.from_json(Record.from_state(state).to_json()))
    assert again == state
    assert again.legal_actions() == state.legal_actions()
    for seat in range(state.rules.players):
        assert again.observation(seat) == state.observation(seat)


def test_dump_and_load_through_paths(tmp_path: Path) -> None:
    """``dump_record`` and ``load_record`` work with path objects and path strings."""
    samples = [sample_state(name, kind) for name in PRESET_NAMES for kind in SAMPLE_KINDS]
    for number, state in enumerate(samples):
        record = Record.from_state(state)
        path = tmp_path / f"record-{number}.json"
        dump_record(record, path)
        assert load_record(path) == record
        assert load_record(str(path)).result == record.result
        dump_record(record, str(path))
        assert replay(load_record(path)) == state
        assert json.loads(path.read_text(encoding="utf-8")) == record.to_dict()


def test_dump_and_load_through_file_objects(tmp_path: Path) -> None:
    """``dump_record`` and ``load_record`` work with open text files and in-memory streams."""
    state = sample_state(PRESET_NAMES[0], SAMPLE_KINDS[0])
    record = Record.from_state(state)
    stream = io.StringIO()
    dump_record(record, stream)
    stream.seek(0)
    assert load_record(stream) == record
    path = tmp_path / "record.json"
    with path.open("w", encoding="utf-8") as file:
        dump_record(record, file)
    with path.open(encoding="utf-8") as file:
        assert replay(load_record(file)) == state


def test_load_of_a_missing_file_raises(tmp_path: Path) -> None:
    """Loading a file that does not exist raises ``RecordError``."""
    with pytest.raises(RecordError, match="cannot read the record"):
        load_record(tmp_path / "absent.json")


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_replay_of_full_random_matches(name: str) -> None:
    """Whole random matches of each preset (up to the deal cap) replay exactly."""
    for seed in range(2):
        state = play_out(new_match(Rules.preset(name), seed=seed), seed)
        assert isinstance(state.result, MatchResult)
        record = Record.from_json(Record.from_state(state).to_json())
        assert len(record.deals) == state.result.deals
        again = replay(record)
        assert again == state
        assert again.result == state.result


def test_replay_of_single_deals_of_every_configuration() -> None:
    """Single deals of every configuration replay exactly, finished or not."""
    for name, rules in VARIANTS.items():
        for seed in range(3):
            for limit in (None, 5 + 7 * seed):
                state = play_out(
                    new_deal(rules, seed=seed, dealer=seed % rules.players), seed, limit
                )
                record = Record.from_state(state)
                assert record.single_deal
                assert replay(Record.from_json(record.to_json())) == state, name


@pytest.mark.slow
def test_replay_of_matches_started_with_scores_and_layout() -> None:
    """A match started from given scores, dealer and first layout keeps them in its record."""
    for name in PRESET_NAMES:
        rules = Rules.preset(name)
        layout = layout_for(rules, 1)
        scores = [880, 500, -120, 0][: rules.players]
        state = play_out(new_match(rules, seed=11, dealer=1, scores=scores, layout=layout), 11)
        record = Record.from_json(Record.from_state(state).to_json())
        assert record.start_layout == layout
        assert record.scores == tuple(scores)
        assert record.dealer == 1
        assert record.deals[0].layout == layout
        assert replay(record) == state


def test_replay_of_every_prefix() -> None:
    """Every prefix of a short match replays to the state it recorded."""
    for name in PRESET_NAMES:
        rules = attrs.evolve(Rules.preset(name), max_deals=2)
        rng = random.Random(3)
        state = new_match(rules, seed=3)
        while True:
            assert replay(Record.from_json(Record.from_state(state).to_json())) == state
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))


# Throw-ins (HOUSE-RULES.md 4.4) -------------------------------------------------------------

WEAK = attrs.evolve(Rules.preset("russian"), redeal_weak_hand=28)
"""Throws in about a third of the deals as dealt (a hand worth less than 28)."""
NINES = attrs.evolve(Rules.preset("russian"), redeal_nines=Redeal.AFTER_EXCHANGE)
# E6 b): dealer 0, forehand 1; seat 2 holds three nines and the talon the fourth.
NINES_LAYOUT = Layout(
    hands=["AC TC KC QC JC QS JS", "TH QH JH AD TD JD KS", "9S 9C 9D AS TS KD QD"],
    talon="9H AH KH",
)
NINES_ACTIONS = ("pass", "bid 105", "bid 110", "pass", "give 9H 2", "give JD 0")


def thrown_in_as_dealt(deals: tuple[DealResult, ...]) -> list[DealResult]:
    """The deals of a match the engine threw in as dealt."""
    return [deal for deal in deals if deal.thrown_in and deal.thrown_in.when is Redeal.DEALT]


def test_records_keep_deals_thrown_in_as_dealt_without_actions() -> None:
    """Random matches with many weak hands: every deal thrown in as dealt is in the record with
    its cards and no action, and the record replays (through JSON) to the same state."""
    thrown = played = 0
    for seed in range(6):
        state = play_out(new_match(attrs.evolve(WEAK, max_deals=6), seed=seed), seed)
        record = Record.from_json(Record.from_state(state).to_json())
        assert len(record.deals) == len(state.deals) == 6
        for recorded, deal in zip(record.deals, state.deals, strict=True):
            assert recorded.layout == deal.layout
            assert recorded.actions == deal.actions
            assert (recorded.actions == ()) == (deal in thrown_in_as_dealt(state.deals))
        thrown += len(thrown_in_as_dealt(state.deals))
        played += sum(deal.thrown_in is None for deal in state.deals)
        again = replay(record)
        assert again == state
        assert again.deals == state.deals
        assert Record.from_state(again).to_json() == Record.from_state(state).to_json()
    assert thrown >= 6
    assert played >= 6


def test_every_prefix_of_a_match_with_throw_ins_replays() -> None:
    """Also a prefix ending just after throw-ins (the engine already dealt the next deal) or at
    the start of a match whose first deals were thrown in."""
    rng = random.Random(4)
    state = new_match(attrs.evolve(WEAK, max_deals=5), seed=4)
    assert state.deal_number == 2  # the first two deals of seed 4 are thrown in
    while True:
        assert replay(Record.from_json(Record.from_state(state).to_json())) == state
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    assert thrown_in_as_dealt(state.deals)


def test_a_single_deal_thrown_in_as_dealt() -> None:
    """E7: a hand worth 11 under a threshold of 13. The deal is over before any action; its
    record holds the cards alone and replays to the thrown-in result."""
    rules = attrs.evolve(Rules.preset("russian"), redeal_weak_hand=13)
    layout = Layout(
        hands=["AH TH AD TD KD QD AC", "9S 9C JD JH QC 9D KH", "TC KC JC AS TS KS QS"],
        talon="QH JS 9H",
    )
    state = new_deal(rules, seed=3, layout=layout)
    assert state.is_over
    result = state.result
    assert isinstance(result, DealResult)
    assert result.thrown_in == ThrowIn(1, "weak hand", Redeal.DEALT)
    record = Record.from_state(state)
    assert record.deals == (RecordedDeal(layout, ()),)
    assert record.result == {"deal_scores": [0, 0, 0], "scores": [0, 0, 0]}
    seen: list[GameState] = []
    assert replay(Record.from_json(record.to_json()), watch=seen.append) == state
    assert seen == [state]


def test_a_deal_thrown_in_after_the_exchange_ends_with_its_last_give() -> None:
    """E6 b): the declarer passes the fourth nine to seat 2; the deal ends with that give and
    the same dealer deals the next. The record holds the deal's actions, and replay checks
    that the engine throws it in."""
    state = play(new_match(NINES, seed=6, dealer=0, layout=NINES_LAYOUT), *NINES_ACTIONS)
    (deal,) = state.deals
    assert deal.thrown_in == ThrowIn(2, "four nines", Redeal.AFTER_EXCHANGE)
    assert (state.deal_number, state.dealer, state.actions) == (1, 0, ())
    record = Record.from_state(state)
    assert [str(action) for _, action in record.deals[0].actions] == list(NINES_ACTIONS)
    assert record.deals[1] == RecordedDeal(state.layout, ())
    seen: list[GameState] = []
    assert replay(Record.from_json(record.to_json()), watch=seen.append) == state
    assert len(seen) == len(NINES_ACTIONS) + 1
    finished = play_out(state, 6)
    assert replay(Record.from_json(Record.from_state(finished).to_json())) == finished
    single = play(new_deal(NINES, seed=6, layout=NINES_LAYOUT), *NINES_ACTIONS)
    assert single.is_over
    assert replay(Record.from_json(Record.from_state(single).to_json())) == single


def test_a_throw_in_after_the_exchange_that_the_engine_does_not_make_is_refused() -> None:
    """The declarer keeps the nine in the tampered record: no throw-in, so the deal's actions
    no longer finish it; without its last give the deal is not over either."""
    state = play(new_match(NINES, seed=6, dealer=0, layout=NINES_LAYOUT), *NINES_ACTIONS)
    data = record_data(state)
    data["deals"][0]["actions"][-2:] = [[1, "give 9H 0"], [1, "give JD 2"]]
    assert_rejected(data, "deal 1:", "did not finish")
    data = record_data(state)
    del data["deals"][0]["actions"][-1]
    assert_rejected(data, "deal 1:", "did not finish")


def test_actions_in_a_deal_thrown_in_as_dealt_are_refused() -> None:
    """A deal the engine throws in as dealt takes no action: a record giving it one, other
    cards, or leaving it out does not replay; nor does a record claiming throw-ins under rules
    that make none."""
    state = play_out(new_match(attrs.evolve(WEAK, max_deals=4), seed=4), 4)
    number = state.deals.index(thrown_in_as_dealt(state.deals)[0])
    played = next(deal for deal in state.deals if deal.thrown_in is None)
    data = record_data(state)
    data["deals"][number]["actions"] = [[1, "pass"]]
    assert_rejected(data, f"deal {number}:", "thrown in", "as dealt", "1")
    data = record_data(state)
    data["deals"][number]["layout"] = played.layout.to_dict()
    assert_rejected(data, f"deal {number}:", "not the cards of this deal")
    data = record_data(state)
    del data["deals"][number]
    with pytest.raises(RecordError):
        replay(Record.from_json(json.dumps(data)))
    data = record_data(state)
    data["rules"].pop("redeal_weak_hand")
    assert_rejected(data, "did not finish")


def test_a_played_deal_folded_into_the_one_before_is_refused() -> None:
    """Deal 1's actions moved to the end of deal 0's: replaying deal 0 plays deal 1 too, and
    deal 1, left with its cards alone, is one the engine did not throw in as dealt."""
    state = recorded("3p")
    data = record_data(state)
    assert state.deals[1].thrown_in is None
    data["deals"][0]["actions"] += data["deals"][1]["actions"]
    data["deals"][1]["actions"] = []
    with pytest.raises(RecordError) as caught:
        replay(Record.from_json(json.dumps(data)))
    assert str(caught.value) == "deal 1: the engine finished this deal before its first action"


def test_a_deal_thrown_in_after_the_exchange_folded_into_the_one_before_is_refused() -> None:
    """The same with deal 1 thrown in after the exchange (seed 49): the engine finished it, but
    only after its actions, so a record giving it none does not replay."""
    state = play_out(new_match(attrs.evolve(NINES, max_deals=2), seed=49), 49)
    assert state.deals[0].thrown_in is None
    assert state.deals[1].thrown_in is not None
    assert state.deals[1].thrown_in.when is Redeal.AFTER_EXCHANGE
    data = record_data(state)
    data["deals"][0]["actions"] += data["deals"][1]["actions"]
    data["deals"][1]["actions"] = []
    with pytest.raises(RecordError) as caught:
        replay(Record.from_json(json.dumps(data)))
    assert str(caught.value) == "deal 1: the engine finished this deal before its first action"


# Tampering --------------------------------------------------------------------------------

TAMPERED: dict[str, Callable[[], GameState]] = {
    "3p": lambda: short_match("russian", 1, max_deals=3),
    "2p": lambda: short_match("polish-2p", 2, max_deals=2),
    "4p": lambda: short_match("russian-4", 3, max_deals=3),
    "by-hand": lambda: play_out(
        new_match(Rules.preset("polish"), seed=4, layout=LAYOUT_3), 4, limit=40
    ),
    "deal": lambda: play_out(new_deal(Rules.preset("russian"), seed=8), 8),
}
"""The states whose records are tampered with below: finished matches of three, two and four
seats, an unfinished match started by hand and a finished single deal."""


@functools.cache
def recorded(name: str) -> GameState:
    """The state of :data:`TAMPERED` named ``name``, built the first time a test asks for it."""
    return TAMPERED[name]()


def record_data(state: GameState) -> dict[str, Any]:
    """A state's record as JSON-ready values, for tampering."""
    data: dict[str, Any] = json.loads(Record.from_state(state).to_json())
    return data


def assert_rejected(data: Any, *phrases: str) -> RecordError:
    """Reading and replaying ``data`` as JSON raises ``RecordError`` naming every phrase."""
    with pytest.raises(RecordError) as caught:
        replay(Record.from_json(json.dumps(data)))
    message = str(caught.value)
    for phrase in phrases:
        assert phrase in message, f"{phrase!r} not in {message!r}"
    return caught.value


def test_untampered_records_replay() -> None:
    """The records tampered with below replay when left alone."""
    for name in TAMPERED:
        state = recorded(name)
        assert replay(Record.from_json(json.dumps(record_data(state)))) == state


@pytest.mark.parametrize("name", ["3p", "2p", "4p", "deal"])
def test_changed_action_is_named(name: str) -> None:
    """An action changed to one the rules forbid is reported with its deal and position."""
    state = recorded(name)
    data = record_data(state)
    for number, deal in enumerate(data["deals"]):
        for position in (0, 3, len(deal["actions"]) - 1):
            copy = json.loads(json.dumps(data))
            copy["deals"][number]["actions"][position][1] = "contract 5"
            error = assert_rejected(copy, f"deal {number}, action {position}", "'contract 5'")
            assert "may not" in str(error)


def test_unreadable_action_is_named() -> None:
    """An action text that spells no action, or a malformed entry, is reported where it is."""
    for bad in ("bid twelve", "jump", "play XX"):
        data = record_data(recorded("3p"))
        data["deals"][1]["actions"][2][1] = bad
        assert_rejected(data, "deal 1, action 2", bad)
    for entry in ([0], "pass", [0, "pass", 1], ["x", "pass"], [None, "pass"], [0, 5]):
        data = record_data(recorded("3p"))
        data["deals"][0]["actions"][4] = entry
        assert_rejected(data, "deal 0, action 4")


def test_action_replaced_by_another_legal_one_is_caught() -> None:
    """An action swapped for another legal one breaks the replay at a later action or the result."""
    state = new_deal(Rules.preset("russian"), seed=8)
    texts = [str(action) for _, action in recorded("deal").actions]
    for position, text in enumerate(texts):
        others = [str(a) for a in state.legal_actions() if str(a) != text]
        if others:
            data = record_data(recorded("deal"))
            data["deals"][0]["actions"][position][1] = others[0]
            with pytest.raises(RecordError):
                replay(Record.from_json(json.dumps(data)))
        state = state.apply(recorded("deal").actions[position][1])


@pytest.mark.parametrize("name", ["3p", "2p", "4p", "deal"])
def test_changed_seat_is_named(name: str) -> None:
    """An action credited to the wrong seat is reported with its deal and position."""
    state = recorded(name)
    players = state.rules.players
    data = record_data(state)
    for number, deal in enumerate(data["deals"]):
        for position in (0, len(deal["actions"]) // 2):
            for seat in (deal["actions"][position][0] + 1) % players, players, -1:
                copy = json.loads(json.dumps(data))
                copy["deals"][number]["actions"][position][0] = seat
                assert_rejected(copy, f"deal {number}, action {position}", f"seat {seat}", "turn")


def swap_cards(layout: dict[str, list[str]], first: int, second: int) -> None:
    """Exchange the first cards of two hands of a layout written as JSON."""
    hands = [hand.split() for hand in layout["hands"]]
    hands[first][0], hands[second][0] = hands[second][0], hands[first][0]
    layout["hands"] = [" ".join(hand) for hand in hands]


@pytest.mark.parametrize("name", ["3p", "2p", "4p"])
def test_changed_layout_is_named(name: str) -> None:
    """A layout with exchanged cards is reported as not this deal's cards, naming the deal."""
    state = recorded(name)
    data = record_data(state)
    for number in range(len(data["deals"])):
        copy = json.loads(json.dumps(data))
        layout = copy["deals"][number]["layout"]
        first, second = [seat for seat, hand in enumerate(layout["hands"]) if hand][:2]
        swap_cards(layout, first, second)
        assert_rejected(copy, f"deal {number}:", "not the cards of this deal")
        copy = json.loads(json.dumps(data))
        swap_with_talon(copy["deals"][number]["layout"])
        assert_rejected(copy, f"deal {number}:", "not the cards of this deal")


def swap_with_talon(layout: dict[str, list[str]]) -> None:
    """Exchange the first card of the first dealt hand with the first card of the last talon
    pile."""
    seat = next(seat for seat, hand in enumerate(layout["hands"]) if hand)
    hand, pile = layout["hands"][seat].split(), layout["talon"][-1].split()
    hand[0], pile[0] = pile[0], hand[0]
    layout["hands"][seat], layout["talon"][-1] = " ".join(hand), " ".join(pile)


def test_invalid_layout_is_named() -> None:
    """A layout that is no layout (a card twice, a short hand, wrong keys) names its deal."""
    data = record_data(recorded("3p"))
    first = data["deals"][1]["layout"]["hands"][0].split()[0]
    broken: list[Callable[[dict[str, Any]], None]] = [
        lambda layout: layout["hands"].__setitem__(1, f"{first} " + layout["hands"][1][3:]),
        lambda layout: layout["hands"].__setitem__(2, layout["hands"][2][3:]),
        lambda layout: layout.pop("talon"),
        lambda layout: layout.__setitem__("hands", "AH"),
    ]
    for damage in broken:
        copy = json.loads(json.dumps(data))
        damage(copy["deals"][1]["layout"])
        assert_rejected(copy, "deal 1")


def test_changed_start_layout_is_caught() -> None:
    """A match started by hand whose start layout was changed or broken does not replay."""
    data = record_data(recorded("by-hand"))
    assert data["start_layout"] is not None
    swap_cards(data["start_layout"], 0, 2)
    assert_rejected(data, "deal 0")
    data = record_data(recorded("by-hand"))
    data["start_layout"]["hands"] = data["start_layout"]["hands"][:2]
    assert_rejected(data, "start_layout")


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("winners", lambda winners: [seat for seat in range(3) if seat not in winners][:1]),
        ("scores", lambda scores: [scores[0] + 10, *scores[1:]]),
        ("settlement", lambda settlement: None),
        ("deals", lambda deals: deals + 1),
        ("adjudicated", lambda adjudicated: not adjudicated),
    ],
)
def test_changed_match_result_is_caught(key: str, change: Callable[[Any], Any]) -> None:
    """A match result that the replay does not reproduce is reported."""
    data = record_data(recorded("3p"))
    value = change(data["result"][key])
    assert data["result"][key] != value
    data["result"][key] = value
    assert_rejected(data, "result")


def test_changed_deal_result_is_caught() -> None:
    """A single deal's result that the replay does not reproduce is reported."""
    for key in ("deal_scores", "scores"):
        data = record_data(recorded("deal"))
        data["result"][key] = [score + 5 for score in data["result"][key]]
        assert_rejected(data, "result")
    data = record_data(recorded("deal"))
    data["result"] = None
    assert_rejected(data, "result")


def test_a_record_object_of_another_format_is_refused_as_no_thousand_record() -> None:
    """``Record.from_dict`` given a record object of another format says it is not a Thousand
    record and names the format it reads."""
    data = record_data(recorded("3p"))
    data["format"] = "thousand-1000?-record"
    with pytest.raises(RecordError) as caught:
        Record.from_dict(data)
    assert str(caught.value) == "not a Thousand record (its 'format' is not 'thousand-record')"


def test_a_start_layout_of_the_wrong_shape_is_refused_naming_the_field() -> None:
    """A start layout without its talon is refused for its shape, under the field's name."""
    data = record_data(recorded("by-hand"))
    del data["start_layout"]["talon"]
    with pytest.raises(RecordError) as caught:
        Record.from_json(json.dumps(data))
    assert str(caught.value) == (
        "start_layout: a layout is an object with exactly the keys 'hands' and 'talon'"
    )


@pytest.mark.parametrize("version", [0, 2, "1", None, 1.0, 1.5, True, [1]])
def test_wrong_version_is_named(version: object) -> None:
    """A record of another version is refused, naming the version."""
    data = record_data(recorded("3p"))
    data["version"] = version
    assert_rejected(data, "version")


@pytest.mark.parametrize("format_", ["thousand", "1000?-record", None, 1])
def test_wrong_format_is_named(format_: object) -> None:
    """A document of another format is refused, naming the format."""
    data = record_data(recorded("3p"))
    data["format"] = format_
    assert_rejected(data, "format")


TOP_KEYS = [
    "format",
    "version",
    "rules",
    "seed",
    "dealer",
    "scores",
    "start_layout",
    "single_deal",
    "deals",
    "result",
]


@pytest.mark.parametrize("key", TOP_KEYS)
@pytest.mark.parametrize("name", ["3p", "by-hand", "deal"])
def test_missing_key_is_named(name: str, key: str) -> None:
    """A record missing any of its keys is refused, naming the key."""
    state = recorded(name)
    data = record_data(state)
    del data[key]
    assert_rejected(data, key)


@pytest.mark.parametrize("key", ["layout", "actions"])
def test_missing_deal_key_is_named(key: str) -> None:
    """A deal missing its layout or actions is refused, naming the deal."""
    data = record_data(recorded("3p"))
    del data["deals"][2][key]
    assert_rejected(data, "deal 2", key)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("seed", "abc"),
        ("seed", 1.5),
        ("dealer", "0"),
        ("dealer", 7),
        ("scores", "0 0 0"),
        ("scores", ["a", 0, 0]),
        ("scores", [0, 0]),
        ("single_deal", "no"),
        ("deals", {}),
        ("rules", {"players": 5}),
        ("rules", {"bid_step": "five"}),
        ("rules", "russian"),
    ],
)
def test_wrong_value_is_named(key: str, value: object) -> None:
    """A value of the wrong type or out of range is refused, naming its key."""
    data = record_data(recorded("3p"))
    data[key] = value
    assert_rejected(data, key)


def test_changed_seed_is_caught() -> None:
    """A record whose seed was changed no longer matches its first deal's cards."""
    data = record_data(recorded("3p"))
    data["seed"] += 1
    assert_rejected(data, "deal 0:", "not the cards of this deal")


def test_extra_deal_after_the_end_is_named() -> None:
    """A deal added after a finished match is refused, naming it."""
    data = record_data(recorded("3p"))
    count = len(data["deals"])
    data["deals"].append(data["deals"][-1])
    assert_rejected(data, f"deal {count}", "already over")


def test_removed_actions_are_caught() -> None:
    """Dropping an action in a deal's middle or its end breaks the replay, naming where."""
    data = record_data(recorded("3p"))
    del data["deals"][0]["actions"][-1]
    assert_rejected(data, "deal 1", "did not finish")
    data = record_data(recorded("3p"))
    del data["deals"][1]["actions"][3]
    assert_rejected(data, "deal 1, action")
    data = record_data(recorded("3p"))
    del data["deals"][-1]["actions"][-1]
    assert_rejected(data, "result")
    data = record_data(recorded("3p"))
    del data["deals"][-1]
    assert_rejected(data, "result")


@pytest.mark.parametrize("text", ["", "{", "not json", "[]", "42", "null", '"record"', "{}"])
def test_garbage_is_refused(text: str) -> None:
    """Text that is not a record object raises ``RecordError``."""
    with pytest.raises(RecordError):
        Record.from_json(text)


def test_garbage_file_is_refused(tmp_path: Path) -> None:
    """Loading a file that holds no record raises ``RecordError``."""
    path = tmp_path / "garbage.json"
    path.write_text("<html>not a record</html>", encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(path)
