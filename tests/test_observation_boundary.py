"""Observations hold only what their seat may see.

Every object reachable from an observation (private attributes included, and whatever those hold
in turn) is walked, after every field has been read, and must name no card the seat cannot know
and hold no part of the state it was taken from. The walk stops only at classes, modules,
functions and the rules (public, shared by every seat).
"""

from __future__ import annotations

import enum
import gc
import pickle
import random
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import thousand
from tests.strategies import PRESET_NAMES, scaled, seeded_playout
from tests.support import knowable_cards, play, shown_talon
from tests.test_bluff_climb import THREE, act, deal
from thousand import Card, Determiniser, GameState, Layout, Origin, Rules, bluff, new_deal
from thousand.bluff import Challenge, Hide, Play

STOPS = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    enum.Enum,
    Rules,
    bluff.Rules,
)
"""Where the walk does not go on: code, enumerations and the public rules."""
MASK_FLOOR = 1 << 13
"""Hidden card masks at least this large cannot be mistaken for a score or a point count."""


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` by references, ``root`` included."""
    seen: set[int] = set()
    found: list[object] = []
    stack = [root]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        found.append(item)
        if item is not root and isinstance(item, STOPS):
            continue
        stack.extend(gc.get_referents(item))
    return found


def read_whole(observation: Any) -> list[object]:
    """The objects reachable from ``observation`` once every field has been read."""
    observation.fields()
    return reachable(observation)


def check_thousand(state: GameState, seat: int) -> None:
    objects = read_whole(state.observation(seat))
    knowable = knowable_cards(state, seat)
    cards = {item for item in objects if isinstance(item, Card)}
    assert cards <= knowable, f"seat {seat} can reach {sorted(map(str, cards - knowable))}"
    assert not [item for item in objects if isinstance(item, (GameState, Layout, Origin))]
    hidden_containers = [state.hand_masks, state.talon_masks, state.exchange_seen]
    hidden_containers += [seen for other, seen in enumerate(state.exchange_seen) if other != seat]
    hidden_masks = {
        mask for other, mask in enumerate(state.hand_masks) if other != seat and mask >= MASK_FLOOR
    }
    if not shown_talon(state):
        hidden_masks |= {mask for mask in state.talon_masks if mask >= MASK_FLOOR}
    for item in objects:
        assert not any(item is container and container for container in hidden_containers)
        assert not (type(item) is int and item in hidden_masks), f"a hidden hand mask {item}"


def bluff_knowable(state: bluff.State, seat: int) -> set[bluff.Card]:
    """The 1000? cards a seat may know of: its hand, every card played face up, its own
    face-down cards and those a challenge revealed."""
    known = set(state.hands[seat])
    actions = state.actions
    for position, (actor, action) in enumerate(actions):
        revealed = position + 1 < len(actions) and isinstance(actions[position + 1][1], Challenge)
        if isinstance(action, Play) or (isinstance(action, Hide) and (actor == seat or revealed)):
            assert action.card is not None
            known.add(action.card)
    return known


def check_bluff(state: bluff.State, seat: int) -> None:
    objects = read_whole(state.observation(seat))
    knowable = bluff_knowable(state, seat)
    cards = {item for item in objects if isinstance(item, bluff.Card)}
    assert cards <= knowable, f"seat {seat} can reach {sorted(map(str, cards - knowable))}"
    assert not [item for item in objects if isinstance(item, (bluff.State, bluff.Layout))]
    hidden_containers: list[object] = [
        state.pile,
        state.discards,
        state.table_entries,
        state.hand_kinds,
        state.own_hides,
    ]
    hidden_containers += [hand for other, hand in enumerate(state.hand_kinds) if other != seat]
    hidden_containers += [own for other, own in enumerate(state.own_hides) if other != seat]
    face_down = {entry for entry in state.table_entries if entry[2] and entry[1] != seat}
    for item in objects:
        assert not any(item is container and container for container in hidden_containers)
        assert not (type(item) is tuple and item in face_down), f"a face-down card {item}"


@settings(max_examples=scaled(1.5), deadline=None)
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32), whole=st.booleans())
def test_a_thousand_observation_reaches_no_hidden_card(preset: str, seed: int, whole: bool) -> None:
    """Over random playouts of every preset (single deals and matches), no observation of any
    seat reaches a card it may not know or a piece of the state."""
    rules = Rules.preset(preset)
    start = (thousand.new_match if whole else new_deal)(rules, seed=seed)
    for position, state in enumerate(seeded_playout(start, seed, max_actions=150)):
        if position % 3 == 0 or state.is_over:
            for seat in range(rules.players):
                check_thousand(state, seat)


@settings(max_examples=scaled(1), deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_a_1000_observation_reaches_no_hidden_card(players: int, seed: int) -> None:
    """Over random playouts of 1000? for two to six players, no observation reaches another
    seat's face-down card, hand, the draw pile or the discards."""
    state = bluff.new_game(bluff.Rules(players=players), seed=seed)
    rng = random.Random(seed)
    turn = 0
    while True:
        if turn % 5 == 0 or state.is_over:
            for seat in range(players):
                check_bluff(state, seat)
        if state.is_over or turn >= 120:
            break
        state = state.apply(rng.choice(state.legal_actions()))
        turn += 1


def test_the_state_is_not_behind_an_observation() -> None:
    """What once leaked: an observation's own attributes hold no state, so another seat's
    hand is not one attribute away."""
    state = play(new_deal(Rules.preset("russian"), seed=7), "bid 105", "pass", "pass")
    observation = state.observation(1)
    assert not [value for value in vars(observation).values() if isinstance(value, GameState)]
    assert not set(state.hands[0]) & {
        item for item in read_whole(observation) if isinstance(item, Card)
    } - knowable_cards(state, 1)


def test_a_card_given_face_down_is_seen_by_its_receiver_alone() -> None:
    """Three players: the declarer and the receiver see the card given; the third seat sees a
    card go, and cannot reach it."""
    state = play(new_deal(Rules.preset("russian"), seed=3), "bid 105", "pass", "pass")
    card = state.layout.hands[state.declarer][0]
    receiver = (state.declarer + 1) % 3
    third = (state.declarer + 2) % 3
    state = state.apply(thousand.Give(card, receiver))
    assert state.observation(receiver).received == card
    assert state.observation(state.declarer).given == ((card, receiver),)
    seen_by_third = state.observation(third)
    assert seen_by_third.history[-1] == (state.declarer, thousand.Give(None, receiver))
    assert card not in {item for item in read_whole(seen_by_third) if isinstance(item, Card)}
    assert state.actions[-1] == (state.declarer, thousand.Give(card, receiver))


def test_a_face_down_card_is_seen_by_its_owner_until_a_challenge_shows_everyone() -> None:
    """1000?: the owner sees its face-down card, the others see ``hide ??`` and cannot reach it;
    after a challenge every seat sees it in the history."""
    state = act(deal(*THREE), "play 06", "hide 25")
    hidden = bluff.Card.parse("25")
    owner, other = state.observation(1), state.observation(2)
    assert owner.table[-1].card == hidden
    assert owner.history[-1] == (1, Hide(hidden))
    assert other.table[-1].card is None
    assert other.history[-1] == (1, Hide(None))
    assert hidden not in {item for item in read_whole(other) if isinstance(item, bluff.Card)}
    challenged = state.apply(Challenge())
    assert challenged.observation(0).history[-2] == (1, Hide(hidden))
    assert challenged.actions[-2] == (1, Hide(hidden))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_observations_pickle_and_compare_by_what_they_hold(preset: str) -> None:
    """An observation survives pickling equal and with the same hash, and so does that of a
    world sampled to agree with it: equal information, equal observations."""
    start = thousand.new_match(Rules.preset(preset), seed=11)
    for position, state in enumerate(seeded_playout(start, 11, max_actions=60)):
        if position % 5:
            continue
        seat = (state.player + 1) % state.rules.players
        observation = state.observation(seat)
        again = pickle.loads(pickle.dumps(observation))
        assert again == observation
        assert hash(again) == hash(observation)
        if not state.is_over:
            world = Determiniser(observation).sample(random.Random(position))
            seen = world.observation(seat)
            assert seen == observation
            assert hash(seen) == hash(observation)
            assert pickle.loads(pickle.dumps(seen)) == observation


def test_1000_observations_pickle_and_compare_by_what_they_hold() -> None:
    """The same for 1000?, over a long game (pickling does not follow the history's links)."""
    state = bluff.new_game(bluff.Rules(players=4), seed=5)
    rng = random.Random(5)
    while not state.is_over:
        if state.turns % 7 == 0:
            observation = state.observation(state.player)
            again = pickle.loads(pickle.dumps(observation))
            assert again == observation
            assert hash(again) == hash(observation)
            world = bluff.Determiniser(observation).sample(rng)
            assert world.observation(state.player) == observation
        state = state.apply(rng.choice(state.legal_actions()))
