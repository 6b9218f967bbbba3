"""1000? game records: JSON round trips, files, exact replays of finished and unfinished games and
of games dealt by hand, and tamper detection whose ``RecordError`` names the offending entry."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import thousand
from thousand import LayoutError, RecordError
from thousand.bluff import (
    ChallengeRestart,
    EmptyDrawPile,
    LastCardFaceDown,
    Layout,
    Record,
    Rules,
    State,
    dump_record,
    load_record,
    new_game,
    parse_action,
    replay,
)

SMALL_RULES = Rules(players=3, hand_size=3, deck="03 05 06 09 16 19 23 26 29 33 40 46 1000 1000")
SMALL_LAYOUT = Layout(hands=["23 29 1000", "05 06 26", "03 09 16"], draw_pile="19 40 46 1000 33")


def play_out(state: Any, seed: int, limit: int | None = None) -> Any:
    """Random legal actions chosen by ``random.Random(seed)``, at most ``limit`` of them."""
    rng = random.Random(seed)
    steps = 0
    while not state.is_over and (limit is None or steps < limit):
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return state


def shuffled_layout(rules: Rules, seed: int) -> Layout:
    """The whole deck of ``rules`` dealt by hand from an ordering chosen by ``seed``."""
    order = list(rules.deck)
    random.Random(seed).shuffle(order)
    size = rules.hand_size
    hands = [order[seat * size : (seat + 1) * size] for seat in range(rules.players)]
    return Layout(hands=hands, draw_pile=order[rules.players * size :])


def sample_states() -> list[State]:
    """Finished and unfinished games of 2 to 6 players, of every reading of the decided rules,
    shuffled by the seed or dealt by hand, one ended by the turn cap."""
    states = []
    for players in (2, 3, 4, 5, 6):
        rules = Rules(players=players)
        states += [
            play_out(new_game(rules, seed=players), players),
            play_out(new_game(rules, seed=players, dealer=players - 1), players, limit=9),
            play_out(new_game(rules, seed=players, layout=shuffled_layout(rules, players)), 1),
        ]
    variants = [
        Rules(players=3, challenge_restart=ChallengeRestart.ANY_CARD),
        Rules(players=4, empty_draw_pile=EmptyDrawPile.NO_RESHUFFLE),
        Rules(players=2, last_card_face_down=LastCardFaceDown.WINS),
        Rules(players=6, max_turns=25),
    ]
    states += [play_out(new_game(rules, seed=11), 11) for rules in variants]
    states += [
        play_out(new_game(SMALL_RULES, seed=1, layout=SMALL_LAYOUT, dealer=2), 3),
        play_out(new_game(SMALL_RULES, seed=1, layout=SMALL_LAYOUT), 4, limit=6),
        new_game(SMALL_RULES, seed=1, layout=SMALL_LAYOUT),
        new_game(Rules(players=4), seed=0),
    ]
    return states


STATES = sample_states()


def test_samples_cover_finished_unfinished_by_hand_and_capped_games() -> None:
    """The sample holds finished, unfinished, hand-dealt, reshuffled and adjudicated games."""
    assert any(state.is_over for state in STATES)
    assert any(not state.is_over and state.actions for state in STATES)
    assert any(state.origin.layout is not None for state in STATES)
    assert any(state.reshuffles for state in STATES)
    assert any(state.result is not None and state.result.adjudicated for state in STATES)


@pytest.mark.parametrize("state", STATES)
def test_replay_shows_every_state_to_a_watcher(state: State) -> None:
    """The watcher sees the start and then each state in turn, the last the replayed state."""
    record = Record.from_state(state)
    seen: list[State] = []
    final = replay(record, watch=seen.append)
    assert len(seen) == len(record.actions) + 1
    assert seen[-1] is final
    for before, after, (seat, action) in zip(seen, seen[1:], record.actions, strict=False):
        assert before.current_player == seat
        assert before.apply(action) == after


@pytest.mark.parametrize("state", STATES)
def test_json_round_trip(state: State) -> None:
    """A record survives JSON unchanged, result included, and says what it is."""
    record = Record.from_state(state)
    text = record.to_json()
    again = Record.from_json(text)
    assert again == record
    assert again.result == record.result
    assert again.to_json() == text
    data = json.loads(text)
    assert data["format"] == "thousand-1000?-record"
    assert data["version"] == 1
    assert Rules.from_dict(data["rules"]) == state.rules
    assert data["seed"] == state.origin.seed
    assert data["dealer"] == state.origin.dealer
    layout = state.origin.layout
    assert data["layout"] == (None if layout is None else layout.to_dict())
    assert data["actions"] == [[seat, str(action)] for seat, action in state.actions]


def test_rules_json_is_an_object_indented_by_two_that_reads_back() -> None:
    """Rules are written as a JSON object of every field, indented by two spaces, and read back
    as the same rules; fields left out of the text take their defaults."""
    text = SMALL_RULES.to_json()
    assert text == (
        "{\n"
        '  "players": 3,\n'
        '  "hand_size": 3,\n'
        '  "deck": "03 05 06 09 16 19 23 26 29 33 40 46 1000 1000",\n'
        '  "challenge_restart": "drawn_card",\n'
        '  "empty_draw_pile": "reshuffle",\n'
        '  "last_card_face_down": "challengeable",\n'
        '  "max_turns": 2000\n'
        "}"
    )
    assert Rules.from_json(text) == SMALL_RULES
    assert Rules.from_json('{"players": 4, "max_turns": 30}') == Rules(players=4, max_turns=30)


@pytest.mark.parametrize("state", STATES)
def test_replay_rebuilds_the_state(state: State) -> None:
    """Replaying a record (through JSON) gives a state equal to the recorded one."""
    again = replay(Record.from_json(Record.from_state(state).to_json()))
    assert again == state
    assert again.result == state.result
    assert again.legal_actions() == state.legal_actions()
    for seat in range(state.rules.players):
        assert again.observation(seat) == state.observation(seat)


def test_dump_and_load_through_paths(tmp_path: Path) -> None:
    """``dump_record`` and ``load_record`` work with path objects and path strings."""
    for number, state in enumerate(STATES):
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
    for state in STATES[:3]:
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


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_replay_of_whole_random_games(players: int) -> None:
    """Whole random games replay exactly, their result included."""
    for seed in range(5):
        state = play_out(new_game(Rules(players=players), seed=seed, dealer=seed % players), seed)
        assert state.result is not None
        again = replay(Record.from_json(Record.from_state(state).to_json()))
        assert again == state
        assert again.result == state.result


def test_replay_of_every_prefix() -> None:
    """Every prefix of a game replays to the state it recorded, shuffled or dealt by hand."""
    starts = [
        new_game(Rules(players=3), seed=3),
        new_game(SMALL_RULES, seed=5, layout=SMALL_LAYOUT, dealer=1),
    ]
    for start in starts:
        rng = random.Random(3)
        state = start
        while True:
            assert replay(Record.from_json(Record.from_state(state).to_json())) == state
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))


def test_replay_of_games_dealt_by_hand() -> None:
    """A game dealt from a written layout keeps it in its record and replays it."""
    for seed in range(6):
        rules = Rules(players=2 + seed % 5)
        layout = shuffled_layout(rules, seed)
        for limit in (None, 4):
            state = play_out(new_game(rules, seed=seed, layout=layout, dealer=1), seed, limit)
            record = Record.from_json(Record.from_state(state).to_json())
            assert record.layout == layout
            assert record.dealer == 1
            again = replay(record)
            assert again == state
            assert again.origin.layout == layout


def test_reshuffles_replay_the_same_draws() -> None:
    """Games in which the discards were reshuffled draw the same cards again on replay."""
    reshuffled = 0
    for seed in range(10):
        state = play_out(new_game(SMALL_RULES, seed=seed, layout=SMALL_LAYOUT), seed)
        again = replay(Record.from_json(Record.from_state(state).to_json()))
        assert again == state
        assert again.draw_pile == state.draw_pile
        assert again.hands == state.hands
        reshuffled += state.reshuffles > 0
    assert reshuffled


# Tampering --------------------------------------------------------------------------------

FINISHED = play_out(new_game(Rules(players=3), seed=2), 2)
FINISHED_2P = play_out(new_game(Rules(players=2), seed=6, dealer=1), 6)
BY_HAND = play_out(new_game(SMALL_RULES, seed=1, layout=SMALL_LAYOUT), 4)
UNFINISHED = play_out(new_game(Rules(players=4), seed=8), 8, limit=15)
TAMPERED = [FINISHED, FINISHED_2P, BY_HAND, UNFINISHED]
TAMPERED_IDS = ["3p", "2p", "by-hand", "unfinished"]


def record_data(state: State) -> dict[str, Any]:
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
    for state in TAMPERED:
        assert replay(Record.from_json(json.dumps(record_data(state)))) == state
    assert FINISHED.is_over
    assert FINISHED_2P.is_over
    assert BY_HAND.is_over
    assert not UNFINISHED.is_over


@pytest.mark.parametrize("state", TAMPERED, ids=TAMPERED_IDS)
def test_changed_action_is_named(state: State) -> None:
    """An action changed to a forbidden one is reported with its position, text and seat."""
    # A card nobody holds, a card outside the deck, and an answer with nothing to answer (or a
    # pass while answering).
    data = record_data(state)
    for position in (0, 3, len(data["actions"]) - 1):
        seat, original = data["actions"][position]
        answering = original in ("believe", "challenge")
        for text in ("play 99", "hide 1001", "pass" if answering else "believe"):
            copy = json.loads(json.dumps(data))
            copy["actions"][position][1] = text
            error = assert_rejected(copy, f"action {position} ('{text}' by seat {seat})")
            assert "may not" in str(error)


def test_unreadable_action_is_named() -> None:
    """An action text that spells no action, or a malformed entry, is reported where it is."""
    for bad in ("jump", "play XX", "hide", "play ??"):
        data = record_data(FINISHED)
        data["actions"][2][1] = bad
        assert_rejected(data, "actions, action 2", bad)
    for entry in ([0], "pass", [0, "pass", 1], ["x", "pass"], [None, "pass"], [0, 5]):
        data = record_data(FINISHED)
        data["actions"][4] = entry
        assert_rejected(data, "actions, action 4")


def test_action_replaced_by_another_legal_one_is_caught() -> None:
    """An action swapped for another legal one never replays to the recorded state."""
    # The record holds no hands, so a different game may replay; it then differs from FINISHED.
    state = new_game(Rules(players=3), seed=2)
    messages = []
    for position, (_, action) in enumerate(FINISHED.actions):
        for other in state.legal_actions():
            if other == action:
                continue
            data = record_data(FINISHED)
            data["actions"][position][1] = str(other)
            try:
                replayed = replay(Record.from_json(json.dumps(data)))
            except RecordError as error:
                messages.append(str(error))
                continue
            assert replayed != FINISHED
            assert replayed.actions[position][1] == other
        state = state.apply(action)
    assert len(messages) > 50
    assert all("action" in message or "result" in message for message in messages)


@pytest.mark.parametrize("state", TAMPERED, ids=TAMPERED_IDS)
def test_wrong_seat_is_named(state: State) -> None:
    """An action credited to the wrong seat is reported with its position and both seats."""
    players = state.rules.players
    data = record_data(state)
    for position in (0, len(data["actions"]) // 2):
        right = data["actions"][position][0]
        for seat in ((right + 1) % players, players, -1):
            copy = json.loads(json.dumps(data))
            copy["actions"][position][0] = seat
            assert_rejected(
                copy, f"action {position} (", f"by seat {seat})", f"seat {right}'s turn"
            )


def test_a_replay_error_starts_with_the_action_it_names() -> None:
    """The whole message of an action by the wrong seat is the action's position, text and seat,
    then whose turn it was, with nothing before it."""
    record = Record(
        rules=SMALL_RULES,
        seed=1,
        dealer=0,
        layout=SMALL_LAYOUT,
        actions=((0, parse_action("play 23")),),
        result=None,
    )
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert str(caught.value) == "action 0 ('play 23' by seat 0): it is seat 1's turn"


def test_action_after_the_end_is_named() -> None:
    """An action added after the end of a finished game is refused, naming it."""
    data = record_data(FINISHED)
    count = len(data["actions"])
    data["actions"].append([0, "pass"])
    assert_rejected(data, f"action {count} ('pass' by seat 0)")


def test_removed_actions_are_caught() -> None:
    """Dropping the last action or one in the middle breaks the replay or its result."""
    data = record_data(FINISHED)
    del data["actions"][-1]
    assert_rejected(data, "result")
    data = record_data(FINISHED)
    del data["actions"][1]
    assert_rejected(data, "action 1 (")


def swap_in_layout(layout: dict[str, Any], card: str, seat: int) -> None:
    """Exchange ``card`` in its hand with the first card of ``seat``'s hand."""
    hands = [hand.split() for hand in layout["hands"]]
    owner = next(number for number, hand in enumerate(hands) if card in hand)
    other = hands[seat][0]
    hands[owner][hands[owner].index(card)], hands[seat][0] = other, card
    layout["hands"] = [" ".join(hand) for hand in hands]


def test_changed_layout_is_named() -> None:
    """A layout with the first card played moved to another hand breaks the first action."""
    data = record_data(BY_HAND)
    seat, text = data["actions"][0]
    card = text.split()[1]
    swap_in_layout(data["layout"], card, (seat + 1) % 3)
    assert_rejected(data, f"action 0 ('{text}' by seat {seat})", "not in this player's hand")


@pytest.mark.parametrize(
    ("damage", "phrase"),
    [
        (lambda layout: layout.__setitem__("draw_pile", layout["draw_pile"][3:]), "missing"),
        (lambda layout: layout.__setitem__("draw_pile", layout["draw_pile"] + " 50"), "not in"),
        (lambda layout: layout.__setitem__("hands", layout["hands"][:2]), "2 hands"),
        (
            lambda layout: layout.__setitem__("hands", ["23 29", "05 06 26 1000", "03 09 16"]),
            "hand 0",
        ),
        (lambda layout: layout.__setitem__("hands", ["23 29", "05 06 26", "03 09 16"]), "hand 0"),
        (lambda layout: layout.__setitem__("hands", "03 05"), "layout"),
        (lambda layout: layout.__setitem__("hands", ["03 XY", "", ""]), "layout"),
        (lambda layout: layout.pop("draw_pile"), "layout"),
        (lambda layout: layout.__setitem__("talon", ""), "layout"),
    ],
)
def test_broken_layout_is_named(damage: Callable[[dict[str, Any]], Any], phrase: str) -> None:
    """A layout that does not hold the deck, or is no layout at all, is refused, naming it."""
    data = record_data(BY_HAND)
    damage(data["layout"])
    assert_rejected(data, "layout", phrase)


NOT_A_LAYOUT = "a layout is an object with exactly the keys 'hands' and 'draw_pile'"


@pytest.mark.parametrize(
    "data",
    [
        pytest.param("23 29 1000", id="text"),
        pytest.param([["23 29 1000"], "19"], id="list"),
        pytest.param({"hands": ["23 29 1000", "05 06 26", "03 09 16"]}, id="no-draw-pile"),
        pytest.param(
            {"hands": ["23", "05", "03"], "draw_pile": "", "talon": ""}, id="an-extra-key"
        ),
    ],
)
def test_a_layout_without_exactly_hands_and_draw_pile_is_refused(data: Any) -> None:
    """A layout must be an object of exactly 'hands' and 'draw_pile'; anything else is refused
    with that sentence, and a record holding it names the layout."""
    with pytest.raises(LayoutError, match=f"^{re.escape(NOT_A_LAYOUT)}$"):
        Layout.from_dict(data)
    record = record_data(BY_HAND)
    record["layout"] = data
    assert str(assert_rejected(record)) == f"layout: {NOT_A_LAYOUT}"


def test_layout_given_to_a_shuffled_game_is_caught() -> None:
    """A shuffled game's record given another deal no longer replays."""
    data = record_data(FINISHED)
    rules = Rules(players=3)
    data["layout"] = shuffled_layout(rules, 99).to_dict()
    assert_rejected(data, "action")


def test_changed_seed_is_caught() -> None:
    """A shuffled game whose seed was changed deals other cards and fails at an action."""
    data = record_data(FINISHED)
    data["seed"] += 1
    assert_rejected(data, "action 0 (", "not in this player's hand")


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("winners", lambda winners: [(winners[0] + 1) % 3]),
        ("hand_sizes", lambda sizes: [size + 1 for size in sizes]),
        ("turns", lambda turns: turns + 1),
        ("adjudicated", lambda adjudicated: not adjudicated),
    ],
)
def test_changed_result_is_named(key: str, change: Callable[[Any], Any]) -> None:
    """A result that the replay does not reproduce is reported as the result."""
    data = record_data(FINISHED)
    value = change(data["result"][key])
    assert data["result"][key] != value
    data["result"][key] = value
    assert_rejected(data, "recorded result", "differs")


def test_result_of_an_unfinished_game_is_caught() -> None:
    """A finished game recorded without result, or an unfinished one with one, is refused."""
    data = record_data(FINISHED)
    data["result"] = None
    assert_rejected(data, "recorded result None")
    data = record_data(UNFINISHED)
    data["result"] = record_data(FINISHED)["result"]
    assert_rejected(data, "recorded result", "replayed one None")
    data = record_data(FINISHED)
    data["result"] = "won"
    assert_rejected(data, "recorded result won differs")


@pytest.mark.parametrize("version", [0, 2, "1", None, 1.0, 1.5, True, [1]])
def test_wrong_version_is_named(version: object) -> None:
    """A record of another version is refused, naming the version."""
    data = record_data(FINISHED)
    data["version"] = version
    assert_rejected(data, "version", repr(version))


@pytest.mark.parametrize("format_", ["thousand-record", "thousand", "1000?", None, 1])
def test_wrong_format_is_named(format_: object) -> None:
    """A document of another format is refused, naming the format."""
    data = record_data(FINISHED)
    data["format"] = format_
    assert_rejected(data, "not a 1000? record", "'format'")


TOP_KEYS = list(record_data(FINISHED))


@pytest.mark.parametrize("key", TOP_KEYS)
@pytest.mark.parametrize("state", [FINISHED, BY_HAND], ids=["shuffled", "by-hand"])
def test_missing_key_is_named(state: State, key: str) -> None:
    """A record missing any of its keys is refused, naming the key."""
    data = record_data(state)
    del data[key]
    assert_rejected(data, f"'{key}'" if key != "version" else "version None")


@pytest.mark.parametrize(
    ("key", "value", "phrase"),
    [
        ("seed", "abc", "seed"),
        ("seed", 1.5, "seed"),
        ("seed", None, "seed"),
        ("dealer", "0", "dealer"),
        ("dealer", 7, "dealer"),
        ("dealer", -1, "dealer"),
        ("actions", {}, "actions"),
        ("actions", "pass", "actions"),
        ("layout", "abc", "layout"),
        ("layout", [], "layout"),
        ("rules", {"players": 9}, "rules"),
        ("rules", {"hand_size": "seven"}, "rules"),
        ("rules", {"deck": "01 02"}, "rules"),
        ("rules", {"colour": "red"}, "rules"),
        ("rules", "default", "rules"),
    ],
)
def test_wrong_value_is_named(key: str, value: object, phrase: str) -> None:
    """A value of the wrong type or out of range is refused, naming its key."""
    data = record_data(FINISHED)
    data[key] = value
    assert_rejected(data, phrase)


@pytest.mark.parametrize("text", ["", "{", "not json", "[]", "42", "null", '"record"', "{}"])
def test_garbage_is_refused(text: str) -> None:
    """Text that is not a record object raises ``RecordError``."""
    with pytest.raises(RecordError):
        Record.from_json(text)


def test_garbage_file_is_refused(tmp_path: Path) -> None:
    """Loading a file that holds no record raises ``RecordError`` saying it is not JSON."""
    path = tmp_path / "garbage.json"
    path.write_text("<html>not a record</html>", encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(path)


def test_thousand_record_is_refused_by_the_1000_loader(tmp_path: Path) -> None:
    """A Thousand record given to the 1000? loader is refused, naming the format."""
    match = play_out(thousand.new_match(thousand.Rules.preset("russian"), seed=1), 1, limit=30)
    path = tmp_path / "thousand.json"
    thousand.dump_record(thousand.Record.from_state(match), path)
    with pytest.raises(RecordError, match=r"not a 1000\? record .*'format'"):
        load_record(path)
    with pytest.raises(RecordError, match="format"):
        Record.from_dict(json.loads(path.read_text(encoding="utf-8")))


def test_a_record_object_of_another_format_is_refused_as_no_1000_record() -> None:
    """``Record.from_dict`` refuses a document of another format, saying it is not a 1000?
    record and which format it wants."""
    data = record_data(FINISHED)
    data["format"] = "thousand-record"
    with pytest.raises(RecordError) as caught:
        Record.from_dict(data)
    assert str(caught.value) == "not a 1000? record (its 'format' is not 'thousand-1000?-record')"


def test_1000_record_is_refused_by_the_thousand_loader(tmp_path: Path) -> None:
    """A 1000? record given to the Thousand loader is refused, naming the format."""
    path = tmp_path / "bluff.json"
    dump_record(Record.from_state(FINISHED), path)
    with pytest.raises(RecordError, match=r"not a Thousand record .*'format'"):
        thousand.load_record(path)
    with pytest.raises(RecordError, match="format"):
        thousand.Record.from_dict(json.loads(path.read_text(encoding="utf-8")))


def test_a_deck_with_a_card_that_cannot_be_read_is_refused_naming_the_card() -> None:
    """A deck is read card by card; an unreadable label refuses the rules with the reason."""
    with pytest.raises(thousand.RulesError) as caught:
        Rules(players=2, hand_size=1, deck="06 23 1x")
    assert str(caught.value) == (
        "bad deck: '1x' is not a 1000? card: write its printed label, 1 to 4 digits such as "
        "'06' or '1000'"
    )


def test_a_deck_holds_a_thousand_cards_at_most() -> None:
    """A deck of exactly 1,000 cards is accepted; one of 1,001 is refused, saying both sizes."""
    assert len(Rules(deck=["06"] * 1000).deck) == 1000
    with pytest.raises(thousand.RulesError) as caught:
        Rules(deck=["06"] * 1001)
    assert str(caught.value) == "a deck holds at most 1,000 cards, not 1,001"


def test_a_deck_must_deal_every_hand_and_leave_one_card_to_draw() -> None:
    """Three players of three cards need ten cards: ten are accepted, nine (every card dealt,
    none left to draw) and eight are refused, saying why."""
    deck = "03 05 06 09 16 19 23 26 29 33"
    assert len(Rules(players=3, hand_size=3, deck=deck).deck) == 10
    for size in (9, 8):
        with pytest.raises(thousand.RulesError) as caught:
            Rules(players=3, hand_size=3, deck=deck.split()[:size])
        assert str(caught.value) == (
            f"a deck of {size} cards cannot deal 3 to each of 3 players and leave a card to draw"
        )
