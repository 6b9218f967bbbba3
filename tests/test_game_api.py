"""Conformance of the game interface: random matches end, legal actions are never empty and come
in a fixed order, illegal actions raise a clear error and change nothing, a finished game accepts
nothing, and a seed reproduces a match exactly."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator

import attrs
import pytest

from thousand import (
    DECK,
    Action,
    Bid,
    Concede,
    Contract,
    DealResult,
    Discard,
    Endgame,
    GameState,
    Give,
    IllegalActionError,
    Layout,
    MatchResult,
    Pass,
    Phase,
    Play,
    Rules,
    Settlement,
    Take,
    new_deal,
    new_match,
    parse_action,
)

from .strategies import PRESET_NAMES, VARIANTS

MATCHES_PER_PRESET = 30
MATCHES_PER_VARIANT = 3


def random_match(rules: Rules, seed: int) -> Iterator[GameState]:
    """Every state of a match whose players choose uniformly with ``random.Random(seed)``."""
    rng = random.Random(seed)
    state = new_match(rules, seed=seed)
    yield state
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        yield state


def check_finished_match(state: GameState) -> None:
    """The end of a match: a result, its winners, scores and settlement."""
    rules = state.rules
    result = state.result
    assert isinstance(result, MatchResult)
    assert state.current_player is None
    assert state.legal_actions() == ()
    assert result.deals == len(state.deals) <= rules.max_deals
    assert result.scores == state.scores == state.deals[-1].scores
    assert result.winners
    assert set(result.winners) <= set(range(rules.players))
    if result.adjudicated:
        assert result.deals == rules.max_deals
        assert max(result.scores) < rules.target
        assert all(result.scores[seat] == max(result.scores) for seat in result.winners)
    else:
        assert all(result.scores[seat] >= rules.target for seat in result.winners)
    if rules.settlement is Settlement.NONE:
        assert result.settlement is None
    else:
        assert result.settlement is not None
        assert sum(result.settlement) == 0
    if rules.endgame is Endgame.BARREL:
        for deal in state.deals:
            assert not any(rules.barrel_threshold < s < rules.target for s in deal.scores)


def run_match(rules: Rules, seed: int) -> GameState:
    """Play a random match to its end, checking the interface on every state."""
    state = None
    for state in random_match(rules, seed):
        if state.is_over:
            break
        assert state.current_player is not None
        assert state.legal_actions(), f"no legal action in the {state.phase}"
    assert state is not None
    check_finished_match(state)
    return state


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_random_matches_of_presets_finish(name: str) -> None:
    """Random players always finish a match of each preset, with legal actions at every turn."""
    rules = Rules.preset(name)
    for seed in range(MATCHES_PER_PRESET):
        run_match(rules, seed)


@pytest.mark.parametrize("name", [name for name in VARIANTS if name not in PRESET_NAMES])
def test_random_matches_of_variants_finish(name: str) -> None:
    """Random matches of the evolved configurations finish too."""
    for seed in range(MATCHES_PER_VARIANT):
        run_match(VARIANTS[name], 1000 + seed)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_matches_near_the_target_end_with_a_winner(name: str) -> None:
    """Matches started close to the target finish, some of them with a real winner."""
    rules = Rules.preset(name)
    start = rules.barrel_threshold if rules.endgame is Endgame.BARREL else rules.target - 10
    won = 0
    for seed in range(10):
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


def sample_states(per_rules: int = 2, stride: int = 3) -> Iterator[GameState]:
    """States from the first deals of random matches of every configuration, every phase."""
    for number, rules in enumerate(VARIANTS.values()):
        for seed in range(per_rules):
            capped = attrs.evolve(rules, max_deals=2)
            for index, state in enumerate(random_match(capped, 100 * number + seed)):
                if index % stride == 0 or state.phase is not Phase.PLAY:
                    yield state


def test_legal_actions_are_deterministic() -> None:
    """The same state, however it was reached, lists the same legal actions in the same order."""
    for state in sample_states():
        first = state.legal_actions()
        assert state.legal_actions() == first
        rebuilt = copy.deepcopy(state)
        object.__setattr__(rebuilt, "legal_cache", None)
        assert rebuilt == state
        assert rebuilt.legal_actions() == first
        assert len(set(first)) == len(first)
        assert all(state.is_legal(action) for action in first)


ORDER_SCRIPT = """
import random, thousand
lines = []
for name in thousand.Rules.preset_names():
    rng = random.Random(5)
    state = thousand.new_match(thousand.Rules.preset(name), seed=5)
    for _ in range(150):
        legal = state.legal_actions()
        lines.append(" ".join(map(str, legal)))
        state = state.apply(rng.choice(legal))
print("\\n".join(lines))
"""


def test_legal_action_order_does_not_depend_on_hashing() -> None:
    """Two interpreters with different hash seeds list the legal actions in the same order."""
    outputs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", ORDER_SCRIPT],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") >= 400


def candidate_actions(state: GameState) -> list[object]:
    """Actions of every kind, many of them illegal here, plus values that are not actions."""
    bid = state.bid
    amounts = [0, 5, bid - 10, bid - 5, bid, bid + 1, bid + 3, bid + 5, bid + 10, 305, 400, 1000]
    actions: list[object] = [Pass(), Concede(), None, "pass", 42]
    actions += [Bid(amount) for amount in amounts] + [Contract(amount) for amount in amounts]
    actions += [Take(musik) for musik in (0, 1, 2, 3)]
    actions += [Give(None, 1), Discard(None)]
    for card in DECK:
        actions += [Play(card), Play(card, marriage=True), Play(card, aces=True), Discard(card)]
        actions += [Give(card, seat) for seat in range(-1, 4)]
    return actions


def test_illegal_actions_raise_and_change_nothing() -> None:
    """Unlisted actions raise IllegalActionError naming action, seat and phase; state unchanged."""
    checked = 0
    for state in sample_states(per_rules=1, stride=5):
        if state.is_over:
            continue
        legal = set(state.legal_actions())
        before, digest = copy.deepcopy(state), hash(state)
        for action in candidate_actions(state):
            if action in legal:
                continue
            with pytest.raises(IllegalActionError) as caught:
                state.apply(action)  # type: ignore[arg-type]
            error = caught.value
            assert error.action == action
            assert error.seat == state.current_player
            assert error.phase == str(state.phase)
            assert error.reason
            message = str(error)
            assert f"'{action}'" in message
            assert f"seat {state.current_player}" in message
            assert str(state.phase) in message
            assert not state.is_legal(action)  # type: ignore[arg-type]
            checked += 1
        assert state == before
        assert hash(state) == digest
        assert state.legal_actions() == before.legal_actions()
    assert checked > 10_000


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


def finished_states() -> Iterator[GameState]:
    """Finished single deals and matches of every preset."""
    for name in PRESET_NAMES:
        rules = Rules.preset(name)
        for game in ("deal", "match"):
            rng = random.Random(7)
            if game == "deal":
                state = new_deal(rules, seed=7)
            else:
                state = new_match(attrs.evolve(rules, max_deals=2), seed=7)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_actions()))
            yield state


def test_finished_game_accepts_no_action() -> None:
    """After the end every action raises, naming no seat and the end of the game."""
    for state in finished_states():
        assert state.phase is Phase.OVER
        assert state.legal_actions() == ()
        before = copy.deepcopy(state)
        actions: list[Action] = [Pass(), Bid(105), Play(DECK[0]), Contract(100), Concede(), Take(1)]
        for action in actions:
            with pytest.raises(IllegalActionError, match="the game is over") as caught:
                state.apply(action)
            assert caught.value.seat is None
            assert caught.value.phase == str(Phase.OVER)
            assert "nobody may act" in str(caught.value)
            assert not state.is_legal(action)
        assert state == before


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_same_seed_reproduces_identical_states(name: str) -> None:
    """Two matches from the same seed with the same choices pass through equal states."""
    rules = attrs.evolve(Rules.preset(name), max_deals=20)
    for seed in (0, 1, 2**40 + 3):
        first = list(random_match(rules, seed))
        second = list(random_match(rules, seed))
        assert len(first) == len(second)
        for one, two in zip(first, second, strict=True):
            assert one == two
            assert hash(one) == hash(two)
            assert one.legal_actions() == two.legal_actions()
        for seat in range(rules.players):
            assert first[-1].observation(seat) == second[-1].observation(seat)


def test_seed_fixes_dealer_and_layouts() -> None:
    """The seed alone fixes the first dealer and every deal's cards; other seeds deal others."""
    for name in PRESET_NAMES:
        rules = Rules.preset(name)
        dealers = {new_match(rules, seed=seed).dealer for seed in range(30)}
        assert dealers == set(range(rules.players))
        for seed in range(10):
            one, two = new_match(rules, seed=seed), new_match(rules, seed=seed)
            assert one == two
            assert one.layout == Layout.from_seed(rules.players, seed, 0)
        layouts = {new_match(rules, seed=seed, dealer=0).layout for seed in range(20)}
        assert len(layouts) == 20


def test_new_deal_without_seed_keeps_the_drawn_seed() -> None:
    """A deal shuffled without a seed keeps the seed it drew, which deals the same cards."""
    for name in PRESET_NAMES:
        rules = Rules.preset(name)
        state = new_deal(rules)
        again = new_deal(rules, seed=state.origin.seed)
        assert again == state


def test_action_texts_round_trip_in_playouts() -> None:
    """Every legal action's text parses back to the same action."""
    for state in sample_states(per_rules=1, stride=4):
        for action in state.legal_actions():
            assert parse_action(str(action)) == action


def test_states_serialise_their_observations() -> None:
    """Observations of every seat are values: equal for equal states and JSON-describable."""
    for state in sample_states(per_rules=1, stride=7):
        for seat in range(state.rules.players):
            observation = state.observation(seat)
            assert observation == copy.deepcopy(state).observation(seat)
            assert observation.seat == seat
            assert observation.current_player == state.current_player
            history = [[actor, str(action)] for actor, action in observation.history]
            assert json.loads(json.dumps(history)) == history


def _all_actions_are_typed(actions: tuple[Action, ...]) -> bool:
    return all(
        isinstance(action, (Pass, Bid, Take, Give, Discard, Contract, Concede, Play))
        for action in actions
    )


def test_legal_actions_have_the_phase_kinds() -> None:
    """Each phase offers only its own kinds of action."""
    kinds = {
        Phase.AUCTION: (Pass, Bid),
        Phase.MUSIK: (Take,),
        Phase.EXCHANGE: (Give, Discard),
        Phase.CONTRACT: (Contract, Concede),
        Phase.PLAY: (Play,),
    }
    for state in sample_states(per_rules=1, stride=2):
        legal = state.legal_actions()
        assert _all_actions_are_typed(legal)
        if not state.is_over:
            assert all(isinstance(action, kinds[state.phase]) for action in legal)
