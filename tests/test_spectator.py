"""The public spectator views of both games: what they hold at each moment, that nothing
reachable from them is a card hidden at that moment, and the steps they tell a game in."""

from __future__ import annotations

import enum
import itertools
import pickle
import random
import re
from collections.abc import Iterator

import attrs
import pytest

import thousand
from thousand import (
    Card,
    Concession,
    Determiniser,
    Discard,
    GameState,
    Give,
    Phase,
    Play,
    Redeal,
    Rules,
    SetAside,
    Suit,
    bluff,
    parse_action,
)
from thousand.bluff import spectator as bluff_spectator
from thousand.classic import scoring, spectator
from thousand.classic.rules import Endgame

PRESETS = Rules.preset_names()
TABLES = (2, 3, 4, 6)
NOT_NEXT = f"^{re.escape('after must be the state that follows before by exactly one action')}$"


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
    with pytest.raises(ValueError, match=NOT_NEXT):
        spectator.between(states[0], states[2])
    game = bluff.new_game(bluff.Rules(players=3), seed=1)
    later = game.apply(game.legal_actions()[0])
    with pytest.raises(ValueError, match=NOT_NEXT):
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
    with pytest.raises(ValueError, match=NOT_NEXT):
        bluff_spectator.between(other, after)


def test_a_deal_end_is_refused_from_a_state_further_back_than_its_last_action() -> None:
    """The action that ends a deal follows only the state just before it: neither a state two
    actions back nor a deal later (a deal played in between, not thrown in as dealt) follows."""
    states = thousand_playout(Rules.preset("russian"), 1)
    first_end = next(i for i, state in enumerate(states) if len(state.deals) == 1)
    second_end = next(i for i, state in enumerate(states) if len(state.deals) == 2)
    assert spectator.between(states[first_end - 1], states[first_end])
    with pytest.raises(ValueError, match=NOT_NEXT):
        spectator.between(states[first_end - 2], states[first_end])
    with pytest.raises(ValueError, match=NOT_NEXT):
        spectator.between(states[first_end - 1], states[second_end])


def test_a_conceded_deal_ends_on_its_points_with_the_cards_set_aside() -> None:
    """A concession completes no trick: its last table holds the deal's points as scored (here
    the four cards out of play, credited to the declarer), and its score says conceded, not
    made, with the winning bid and no contract."""
    rules = attrs.evolve(
        Rules.preset("polish-2p"), set_aside=SetAside.DECLARER, concession=Concession.PENALTY
    )
    state = thousand.new_deal(rules, seed=1)
    for text in ("pass", "take 1", "discard KH", "discard QH"):
        state = state.apply(parse_action(text))
    step, end = spectator.between(state, state.apply(parse_action("concede")))
    assert step.trick is None
    assert step.before.points == (0, 0)
    assert (step.after.points, step.after.player, step.after.musik) == ((0, 9), None, 1)
    assert end.score == spectator.DealScore(
        number=0,
        dealer=0,
        sitter=None,
        declarer=1,
        bid=100,
        contract=None,
        thrown_in=None,
        conceded=True,
        made=False,
        points=(0, 9),
        deal_scores=(50, -100),
        scores=(50, -100),
        barrel=(None, None),
        bolts=(0, 0),
        falls=(0, 0),
    )
    assert end.after.result == end.score


def test_a_deal_result_without_bolt_or_fall_counts_shows_zero_of_each() -> None:
    """A ``DealResult`` holding no bolt or fall counts (their default) scores as zero of each
    per seat."""
    deal = thousand_playout(Rules.preset("russian"), 0)[-1].deals[0]
    score = spectator.DealScore.of(attrs.evolve(deal, bolts=(), falls=()))
    assert (score.bolts, score.falls) == ((0, 0, 0), (0, 0, 0))
    assert score == attrs.evolve(spectator.DealScore.of(deal), bolts=(0, 0, 0), falls=(0, 0, 0))


def test_the_table_after_a_deal_starts_from_the_scores_and_counts_the_deal_left() -> None:
    """Each deal's end shows its bolts, falls and barrel as the match has them, and the table
    that follows (the next deal as dealt, one thrown in as dealt included) starts from them."""
    rules = attrs.evolve(THROWN_IN, bolts=3, barrel_reset_falls=2, max_deals=25)
    rng = random.Random(13)
    state = thousand.new_match(rules, seed=13, scores=(880, 0, 0))
    counted = 0
    while not state.is_over:
        after = state.apply(rng.choice(state.legal_actions()))
        ended = spectator.between(state, after)[1:]
        finished = after.deals[len(state.deals) :]
        for end, deal in zip(ended, finished, strict=True):
            assert isinstance(end, spectator.DealEnd)
            assert (end.score.bolts, end.score.falls) == (deal.bolts, deal.falls)
            if end.after.result is None:
                table = end.after
                assert (table.scores, table.barrel) == (deal.scores, deal.barrel)
                assert (table.bolts, table.falls) == (deal.bolts, deal.falls)
                counted += end is not ended[-1] and any(deal.bolts) and any(deal.falls)
        state = after
    assert counted


def test_a_spectator_sees_the_musik_taken_the_trump_and_the_marriage_declared() -> None:
    """Two seats: the table shows which musik the declarer took, the trump a marriage made, the
    marriage by seat and suit, the opening bid and the (zero) bolt and fall counts."""
    rules = Rules.preset("polish-2p")
    state = thousand.new_deal(rules, seed=1)
    for text in ("bid 120", "pass", "take 2", "discard TH", "discard TS", "contract 240"):
        state = state.apply(parse_action(text))
    view = spectator.spectate(state.apply(parse_action("play KS marriage")))
    assert (view.musik, view.trump, view.melds) == (2, Suit.SPADES, ((0, Suit.SPADES),))
    assert (view.opening_bid, view.bolts, view.falls) == (100, (0, 0), (0, 0))
    assert view.points == (40, 0)


def test_only_a_deal_thrown_in_is_dealt_again() -> None:
    state = thousand_playout(Rules.preset("russian"), 0)[-1]
    with pytest.raises(
        ValueError, match=f"^{re.escape('only a deal thrown in is dealt again from its result')}$"
    ):
        spectator.dealt_again(state, state.deals[0])


JACKS_AFTER_EXCHANGE = attrs.evolve(Rules.preset("russian"), redeal_jacks=Redeal.AFTER_EXCHANGE)


def test_a_deal_thrown_in_after_the_exchange_is_dealt_again_as_it_began() -> None:
    """Dealing again a deal thrown in after the exchange gives the very state the game was in
    at the start of that deal."""
    states = thousand_playout(JACKS_AFTER_EXCHANGE, 15)
    deal = states[-1].deals[2]
    assert deal.thrown_in == thousand.ThrowIn(2, "four jacks", Redeal.AFTER_EXCHANGE)
    start = next(state for state in states if state.deal_number == 2 and not state.actions)
    assert spectator.dealt_again(states[-1], deal) == start


def test_a_deal_is_dealt_again_with_its_own_cards_not_those_of_the_seed() -> None:
    """A determinised world's deal is dealt by hand, not by its seed: the world's deal thrown
    in after the exchange is dealt again with its own cards."""
    states = thousand_playout(JACKS_AFTER_EXCHANGE, 15)
    before = states[-2]
    assert before.phase is Phase.EXCHANGE
    assert len(before.hands[2]) == 7
    world = Determiniser(before.observation(2)).sample(random.Random(0))
    over = world.apply(world.legal_actions()[0])
    (deal,) = over.deals
    assert deal.thrown_in == thousand.ThrowIn(2, "four jacks", Redeal.AFTER_EXCHANGE)
    assert deal.layout != thousand.Layout.from_seed(3, world.origin.seed, deal.number, None)
    again = spectator.dealt_again(over, deal)
    assert (again.layout, again.hands, again.origin) == (
        deal.layout,
        deal.layout.hands,
        over.origin,
    )


def test_a_deal_won_on_its_last_trick_ends_with_every_hand_empty() -> None:
    """The last table of a deal whose last trick is played shows no card in any hand (the
    sitter's included)."""
    checked = 0
    for seed in range(1, 3):
        states = thousand_playout(Rules.preset("russian-4"), seed)
        for before, after in itertools.pairwise(states):
            step, *ended = spectator.between(before, after)
            if ended and step.trick is not None:
                checked += 1
                assert sorted(step.before.hand_sizes) == [0, 0, 0, 1]
                assert step.after.hand_sizes == (0, 0, 0, 0)
    assert checked


def test_a_challenge_that_ends_the_game_turns_over_only_the_challenged_card() -> None:
    """An honest last card challenged wins the game and stays on the table turned over; the
    face-down card believed below it stays hidden, the face-up cards show."""
    rules = bluff.Rules(players=3, hand_size=2, deck="05 12 13 23 40 41 44")
    layout = bluff.Layout(hands=["13 41", "12 40", "05 23"], draw_pile="44")
    state = bluff.new_game(rules, layout=layout)
    for text in ("play 12", "hide 05", "believe", "play 13", "pass", "hide 23"):
        state = state.apply(bluff.parse_action(text))
    before = bluff_spectator.spectate(state)
    over = state.apply(bluff.parse_action("challenge"))
    step, end = bluff_spectator.between(state, over)
    twelve, thirteen, twenty_three = bluff.cards("12 13 23")
    assert step.after.table == (
        bluff.TableCard(twelve, 1, face_down=False, believed=False),
        bluff.TableCard(None, 2, face_down=True, believed=True),
        bluff.TableCard(thirteen, 0, face_down=False, believed=False),
        bluff.TableCard(twenty_three, 2, face_down=True, believed=False),
    )
    assert before.table[-1] == bluff.TableCard(None, 2, face_down=True, believed=False)
    assert before.table[:3] == step.after.table[:3]
    assert (step.revealed, step.honest) == (twenty_three, True)
    assert end == bluff_spectator.GameEnd(over.result)
    assert over.result is not None
    assert over.result.winners == (2,)
    assert (step.after.player, step.after.draw_pile, step.after.hand_sizes) == (None, 0, (1, 2, 0))


def test_a_lost_challenge_shows_the_penalty_drawn_the_climb_discarded_and_a_restart() -> None:
    """A bluff challenged: the bluffer draws three, the climb goes to the discards, and the
    bluffer must start the next climb with a card just drawn; only the challenge reveals a
    card."""
    rules = bluff.Rules(players=3, hand_size=2, deck="05 12 23 30 31 40 44 45 46 47")
    layout = bluff.Layout(hands=["30 31", "12 40", "05 23"], draw_pile="44 45 46 47")
    states = [bluff.new_game(rules, layout=layout)]
    for text in ("play 12", "hide 05", "challenge"):
        states.append(states[-1].apply(bluff.parse_action(text)))
    twelve, five = bluff.cards("12 05")
    challenged = bluff_spectator.Spectator(
        rules=rules,
        phase=bluff.Phase.RESPONSE,
        dealer=0,
        player=0,
        turns=2,
        hand_sizes=(2, 1, 1),
        draw_pile=4,
        discards=0,
        reshuffles=0,
        table=(
            bluff.TableCard(twelve, 1, face_down=False, believed=False),
            bluff.TableCard(None, 2, face_down=True, believed=False),
        ),
        restart=False,
        result=None,
    )
    restarted = attrs.evolve(
        challenged,
        phase=bluff.Phase.START,
        player=2,
        turns=3,
        hand_sizes=(2, 1, 4),
        draw_pile=1,
        discards=2,
        table=(),
        restart=True,
    )
    told = [bluff_spectator.between(*pair)[0] for pair in itertools.pairwise(states)]
    assert [step.after for step in told[1:]] == [challenged, restarted]
    assert [(step.revealed, step.honest) for step in told] == [(None, None)] * 2 + [(five, False)]
