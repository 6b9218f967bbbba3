"""The public spectator views of both games: what they hold at each moment, that nothing
reachable from them is a card hidden at that moment, and the steps they tell a game in."""

from __future__ import annotations

import enum
import itertools
import pickle
import random
from collections.abc import Iterator

import attrs
import pytest

import thousand
from thousand import Card, Discard, GameState, Give, Phase, Play, Rules, bluff
from thousand.bluff import spectator as bluff_spectator
from thousand.classic import scoring, spectator
from thousand.classic.rules import Endgame

PRESETS = Rules.preset_names()
TABLES = (2, 3, 4, 6)


def reachable_cards(value: object) -> Iterator[object]:
    """Every card reachable from ``value`` (private attributes included); the rules, which hold
    only the deck's make-up, are not walked."""
    seen: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(
            item, (str, int, float, type(None), enum.Enum, Rules, bluff.Rules)
        ):
            continue
        seen.add(id(item))
        if isinstance(item, (Card, bluff.Card)):
            yield item
            continue
        if isinstance(item, (tuple, list, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        else:
            stack.extend(getattr(item, name) for name in getattr(item, "__slots__", ()))
            stack.extend(vars(item).values() if hasattr(item, "__dict__") else ())


def thousand_public(state: GameState) -> set[Card]:
    """The cards every seat has seen by ``state``: those played this deal and the talon (or the
    musik) once turned up."""
    shown = {action.card for _, action in state.actions if isinstance(action, Play)}
    if state.phase is not Phase.AUCTION:
        if state.rules.players != 2:
            shown.update(state.layout.talon[0])
        elif state.musik:
            shown.update(state.layout.talon[state.musik - 1])
    return shown


def thousand_playout(rules: Rules, seed: int) -> list[GameState]:
    """A random game: a single deal for seed 0, else a match stopped after three deals."""
    rng = random.Random(seed)
    state = (
        thousand.new_deal(rules, seed=seed) if seed == 0 else thousand.new_match(rules, seed=seed)
    )
    states = [state]
    while not state.is_over and len(state.deals) < 3:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(3))
def test_a_thousand_spectator_never_reaches_a_hidden_card(preset: str, seed: int) -> None:
    states = thousand_playout(Rules.preset(preset), seed)
    for before, after in itertools.pairwise(states):
        public = thousand_public(before) | thousand_public(after)
        assert set(reachable_cards(spectator.spectate(before))) <= thousand_public(before)
        steps = spectator.between(before, after)
        step = steps[0]
        if isinstance(step.action, Play):
            public.add(step.action.card)
        assert set(reachable_cards(steps)) <= public, step.action


@pytest.mark.parametrize("players", TABLES)
@pytest.mark.parametrize("seed", range(3))
def test_a_1000_spectator_never_reaches_a_hidden_card(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = bluff.new_game(bluff.Rules(players=players), seed=seed)
    while not state.is_over:
        after = state.apply(rng.choice(state.legal_actions()))
        steps = bluff_spectator.between(state, after)
        view = bluff_spectator.spectate(state)
        face_up = {entry.card for entry in view.table if not entry.face_down}
        assert set(reachable_cards(view)) <= face_up
        public = face_up | {entry.card for entry in steps[0].after.table}
        action = steps[0].action
        public |= {action.card} if isinstance(action, bluff.Play) else set()
        public |= {steps[0].revealed} - {None}
        assert set(reachable_cards(steps)) <= public, action
        state = after


def test_cards_given_or_laid_aside_show_as_none() -> None:
    for preset in ("russian", "polish-2p"):
        record = thousand.play(
            ["greedy"] * Rules.preset(preset).players,
            Rules.preset(preset),
            seed=1,
            single_deal=True,
        ).record
        told = [step for step in spectator.steps(record) if isinstance(step, spectator.Step)]
        actions = [action for _, action in record.deals[0].actions]
        hidden = 0
        for step, action in zip(told, actions, strict=True):
            if isinstance(action, (Give, Discard)):
                hidden += 1
                assert step.action == attrs.evolve(action, card=None)
            else:
                assert step.action == action
        assert hidden == 2


def test_a_face_down_card_shows_as_none_until_a_challenge_turns_it_over() -> None:
    rng = random.Random(5)
    state = bluff.new_game(bluff.Rules(players=3), seed=5)
    challenged = 0
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        after = state.apply(action)
        step = bluff_spectator.between(state, after)[0]
        if isinstance(action, bluff.Hide):
            assert step.action == bluff.Hide(None)
            assert step.after.table[-1].card is None
        if isinstance(action, bluff.Challenge):
            challenged += 1
            assert step.revealed == state.table[-1].card
            assert step.honest is not None
        state = after
    assert challenged


def test_a_1000_spectator_sees_believed_cards_and_the_result() -> None:
    """Every card on the table carries whether it was believed, as the state has it, and the
    finished game's view holds its result."""
    rng = random.Random(7)
    state = bluff.new_game(bluff.Rules(players=3), seed=7)
    believed = 0
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        view = bluff_spectator.spectate(state)
        assert [card.believed for card in view.table] == [entry[3] for entry in state.table_entries]
        believed += sum(card.believed for card in view.table)
        assert (view.result is None) is not state.is_over
    assert believed
    assert bluff_spectator.spectate(state).result == state.result is not None


def test_thousand_steps_tell_every_action_and_each_deal_end_once() -> None:
    record = thousand.play(["greedy"] * 3, Rules.preset("russian"), seed=4).record
    told = list(spectator.steps(record))
    ends = [step for step in told if isinstance(step, spectator.DealEnd)]
    actions = [step for step in told if isinstance(step, spectator.Step)]
    assert len(actions) == sum(len(deal.actions) for deal in record.deals)
    final = thousand.replay(record)
    assert [end.score.scores for end in ends] == [deal.scores for deal in final.deals]
    assert ends[-1].after.result == final.result
    assert ends[0].after.deal_number == 1
    for end, step in zip(ends, [told[told.index(end) - 1] for end in ends], strict=True):
        assert isinstance(step, spectator.Step)
        assert step.after.points == end.score.points
        assert step.after.player is None


def test_a_finished_trick_is_counted_once_and_the_next_is_numbered() -> None:
    states = thousand_playout(Rules.preset("russian"), 2)
    for before, after in itertools.pairwise(states):
        step, *ended = spectator.between(before, after)
        if step.trick is None:
            continue
        assert not step.after.trick
        assert step.after.tricks[-1] == step.trick
        assert step.after.trick_number == step.before.trick_number + 1
        assert sum(step.after.tricks_won) == len(step.after.tricks)
        if not ended:
            assert step.after.player == step.trick.winner


def test_the_talon_is_shown_once_the_auction_is_won() -> None:
    states = thousand_playout(Rules.preset("russian"), 3)
    for state in states[:40]:
        view = spectator.spectate(state)
        if state.deal_number == 0:
            expected = () if state.phase is Phase.AUCTION else state.layout.talon[0]
            assert view.talon == expected
            assert view.declarer == (None if state.phase is Phase.AUCTION else state.bidder)


def test_the_lock_flags_seats_above_the_threshold() -> None:
    rules = attrs.evolve(Rules.preset("russian"), endgame=Endgame.LOCK)
    state = thousand.new_match(rules, seed=1, scores=(rules.lock_threshold + 5, 0, 100))
    assert spectator.spectate(state).locked == (True, False, False)
    barrel = Rules.preset("russian")
    state = thousand.new_match(barrel, seed=1, scores=(barrel.lock_threshold + 5, 0, 100))
    assert spectator.spectate(state).locked == (False, False, False)


def test_views_are_frozen_values_that_pickle() -> None:
    record = thousand.play(["greedy"] * 2, Rules.preset("polish-2p"), seed=2).record
    for step in itertools.islice(spectator.steps(record), 60):
        assert pickle.loads(pickle.dumps(step)) == step
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        step.after.scores = ()  # type: ignore[misc]
    game = thousand.play(["greedy"] * 4, bluff.Rules(players=4), seed=2).record
    told = list(bluff_spectator.steps(game))
    assert isinstance(told[-1], bluff_spectator.GameEnd)
    assert told[-1].result == bluff.replay(game).result
    assert pickle.loads(pickle.dumps(told)) == told


def test_states_more_than_one_action_apart_are_refused() -> None:
    states = thousand_playout(Rules.preset("russian"), 1)
    with pytest.raises(ValueError, match="exactly one action"):
        spectator.between(states[0], states[2])
    game = bluff.new_game(bluff.Rules(players=3), seed=1)
    later = game.apply(game.legal_actions()[0])
    with pytest.raises(ValueError, match="exactly one action"):
        bluff_spectator.between(later, game)


FOUR_SEATS = ("russian-4", "polish-4")
# Russian rules under which most hands are too weak to keep: many deals are thrown in as dealt.
THROWN_IN = attrs.evolve(Rules.preset("russian"), redeal_weak_hand=40, max_deals=15)


@pytest.mark.parametrize("preset", FOUR_SEATS)
@pytest.mark.parametrize("seed", range(4))
def test_the_sitter_holds_nothing_and_scores_the_talon_once_shown(preset: str, seed: int) -> None:
    rules = Rules.preset(preset)
    states = thousand_playout(rules, seed)
    for before, after in itertools.pairwise(states):
        view = spectator.spectate(before)
        sitter = view.sitter
        assert sitter == before.layout.sitter
        assert sitter is not None
        assert view.hand_sizes[sitter] == 0
        assert view.player != sitter
        bonus = scoring.sitter_bonus(rules, sum(card.bit for card in before.layout.talon[0]))
        assert view.sitter_bonus == (0 if view.phase is Phase.AUCTION else bonus)
        step, *ended = spectator.between(before, after)
        if step.trick is not None:
            assert len(step.trick.cards) == 3
            assert sitter not in {seat for seat, _ in step.before.trick}
        if ended:
            score = ended[0].score
            assert score.sitter == sitter
            assert score.deal_scores[sitter] == bonus


def test_a_single_deal_thrown_in_as_dealt_is_one_deal_end() -> None:
    record = thousand.play(["random"] * 3, THROWN_IN, seed=0, single_deal=True).record
    assert isinstance(record, thousand.Record)
    (end,) = spectator.steps(record)
    assert isinstance(end, spectator.DealEnd)
    assert end.score.thrown_in is not None
    assert end.score.thrown_in.reason == "weak hand"
    assert end.score.deal_scores == (0, 0, 0)
    assert end.after.result == end.score


@pytest.mark.parametrize("seed", range(3))
def test_every_deal_ends_once_even_when_thrown_in_as_dealt(seed: int) -> None:
    record = thousand.play(["random"] * 3, THROWN_IN, seed=seed).record
    assert isinstance(record, thousand.Record)
    told = list(spectator.steps(record))
    ends = [step for step in told if isinstance(step, spectator.DealEnd)]
    final = thousand.replay(record)
    assert [end.score.number for end in ends] == list(range(len(final.deals)))
    assert [end.score.thrown_in for end in ends] == [deal.thrown_in for deal in final.deals]
    assert any(end.score.thrown_in for end in ends)
    scores = final.origin.scores
    for end in ends:
        if end.score.thrown_in is not None:
            assert end.score.scores == scores
            assert set(end.score.deal_scores) == {0}
            assert end.after.dealer == end.score.dealer
        if end.after.result is None:
            assert end.after.deal_number == end.score.number + 1
            assert end.after.phase is Phase.AUCTION
        scores = end.score.scores
    assert ends[-1].after.result == final.result


def test_a_1000_state_of_another_climb_does_not_follow() -> None:
    """Two games that part at the first card, each then playing a card face down: a state of
    one does not follow the other's, though both last played a card face down (a spectator,
    who cannot see which card that was, may not tell two face-down cards apart, but can tell
    the cards before them)."""
    start = bluff.new_game(bluff.Rules(players=3), seed=5)
    plays = [a for a in start.legal_actions() if isinstance(a, bluff.Play)]
    one, other = (start.apply(play) for play in plays[:2])
    one = one.apply(next(a for a in one.legal_actions() if isinstance(a, bluff.Hide)))
    other = other.apply(next(a for a in other.legal_actions() if isinstance(a, bluff.Hide)))
    after = one.apply(one.legal_actions()[0])
    assert bluff_spectator.between(one, after)
    with pytest.raises(ValueError, match="exactly one action"):
        bluff_spectator.between(other, after)
