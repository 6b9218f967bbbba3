"""One conformance suite for both games of the library: Thousand (the five presets, through
``thousand.new_match``) and 1000? (2, 3, 4 and 6 players, through ``thousand.bluff.new_game``).

Each game is seen through a small adapter (:class:`Game`): how to start it from a seed, its record
module, its action text, the actions worth trying on a state, and which cards a seat may know.
The checks are the game interface's promises: random playouts finish, a player who must act always
has a legal action, legal actions come in a fixed order, ``apply`` never mutates, illegal actions
raise ``IllegalActionError`` and change nothing, a finished game accepts nothing, a seed and the
actions reproduce a game, records replay exactly, and observations name no card a seat cannot know.
"""

from __future__ import annotations

import collections
import copy
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import attrs
import pytest

import thousand
from thousand import bluff
from thousand.common.view import View

from .strategies import PRESET_NAMES, VARIANTS


@dataclass(frozen=True)
class Game:
    """One game configuration as the conformance checks see it."""

    name: str
    start: Callable[[int], Any]
    """A whole game from a seed (a match for Thousand)."""
    short: Callable[[int], Any]
    """A short game from a seed, for sampling states (Thousand caps the match at two deals)."""
    fresh: Callable[[int | None], Any]
    """A game from a seed, or from a seed it draws itself when given ``None``."""
    source: str
    """Python text of ``start`` for another interpreter: an expression of ``seed``."""
    parse_action: Callable[[str], Any]
    record_of: Callable[[Any], Any]
    record_from_json: Callable[[str], Any]
    replay: Callable[[Any], Any]
    candidates: Callable[[Any], list[object]]
    """Actions of every kind, most of them illegal in the state, and values that are no action."""
    knowable: Callable[[Any], list[set[str]]]
    """Per seat, the labels of every card that seat may know in the state."""
    card_type: type
    check_finished: Callable[[Any], None]
    phase_kinds: Mapping[Any, tuple[type, ...]]
    """The kinds of action each phase offers."""
    over: Any
    """The phase of a finished game."""

    def __str__(self) -> str:
        return self.name


def playout(state: Any, seed: int, limit: int | None = None) -> Iterator[Any]:
    """Every state of a playout whose players choose uniformly with ``random.Random(seed)``."""
    rng = random.Random(seed)
    yield state
    steps = 0
    while not state.is_over and (limit is None or steps < limit):
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1
        yield state


def last(states: Iterator[Any]) -> Any:
    """The final state of a playout."""
    return collections.deque(states, maxlen=1)[0]


# Thousand ---------------------------------------------------------------------------------


def check_finished_match(state: thousand.GameState) -> None:
    """The end of a Thousand match: a result, its winners, scores and settlement."""
    rules = state.rules
    result = state.result
    assert isinstance(result, thousand.MatchResult)
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
    if rules.settlement is thousand.Settlement.NONE:
        assert result.settlement is None
    else:
        assert result.settlement is not None
        assert sum(result.settlement) == 0
    if rules.endgame is thousand.Endgame.BARREL:
        for deal in state.deals:
            assert not any(rules.barrel_threshold < s < rules.target for s in deal.scores)


def thousand_candidates(state: thousand.GameState) -> list[object]:
    """Thousand actions of every kind, 1000? actions, and values that are no action."""
    bid = state.bid
    amounts = [0, 5, bid - 10, bid - 5, bid, bid + 1, bid + 3, bid + 5, bid + 10, 305, 400, 1000]
    actions: list[object] = [thousand.Pass(), thousand.Concede(), None, "pass", 42]
    actions += [thousand.Bid(amount) for amount in amounts]
    actions += [thousand.Contract(amount) for amount in amounts]
    actions += [thousand.Take(musik) for musik in (0, 1, 2, 3)]
    actions += [thousand.Give(None, 1), thousand.Discard(None)]
    for card in thousand.DECK:
        actions += [thousand.Play(card), thousand.Play(card, marriage=True)]
        actions += [thousand.Play(card, aces=True), thousand.Discard(card)]
        actions += [thousand.Give(card, seat) for seat in range(-1, 4)]
    actions += [bluff.Play(bluff.Card("06")), bluff.Hide(None), bluff.Believe(), bluff.Challenge()]
    return actions


def thousand_knowable(state: thousand.GameState) -> list[set[str]]:
    """Per seat: its dealt hand, the talon once shown to it (RULES.md 1.4; to the sitter too,
    HOUSE-RULES.md 4.1), the card given to it and every card played to a trick in this deal."""
    layout = state.layout
    public: set[thousand.Card] = set()
    if state.phase is not thousand.Phase.AUCTION:
        if state.rules.players != 2:
            public |= set(layout.talon[0])
        elif state.musik:
            public |= set(layout.talon[state.musik - 1])
    known = [set(hand) | public for hand in layout.hands]
    for _, action in state.actions:
        if isinstance(action, thousand.Play):
            for cards in known:
                cards.add(action.card)
        elif isinstance(action, thousand.Give) and action.card is not None:
            known[action.to].add(action.card)
    return [{str(card) for card in cards} for cards in known]


def thousand_game(name: str, rules: thousand.Rules) -> Game:
    """The adapter of a Thousand configuration."""
    capped = attrs.evolve(rules, max_deals=2)
    return Game(
        name=name,
        start=lambda seed: thousand.new_match(rules, seed=seed),
        short=lambda seed: thousand.new_match(capped, seed=seed),
        fresh=lambda seed: thousand.new_deal(rules, seed=seed),
        source=f"thousand.new_match(thousand.Rules.from_json({rules.to_json()!r}), seed=seed)",
        parse_action=thousand.parse_action,
        record_of=thousand.Record.from_state,
        record_from_json=thousand.Record.from_json,
        replay=thousand.replay,
        candidates=thousand_candidates,
        knowable=thousand_knowable,
        card_type=thousand.Card,
        check_finished=check_finished_match,
        phase_kinds={
            thousand.Phase.AUCTION: (thousand.Pass, thousand.Bid),
            thousand.Phase.MUSIK: (thousand.Take,),
            thousand.Phase.EXCHANGE: (thousand.Give, thousand.Discard),
            thousand.Phase.CONTRACT: (thousand.Contract, thousand.Concede),
            thousand.Phase.PLAY: (thousand.Play,),
        },
        over=thousand.Phase.OVER,
    )


# 1000? ------------------------------------------------------------------------------------


def check_finished_bluff(state: bluff.State) -> None:
    """The end of a 1000? game: one winner with an empty hand, or the fewest cards at the cap."""
    rules = state.rules
    result = state.result
    assert isinstance(result, bluff.Result)
    assert state.current_player is None
    assert state.legal_actions() == ()
    assert result.turns == state.turns == len(state.actions) <= rules.max_turns
    assert result.hand_sizes == tuple(len(hand) for hand in state.hands)
    assert result.winners
    assert set(result.winners) <= set(range(rules.players))
    if result.adjudicated:
        assert result.turns == rules.max_turns
        held = list(result.hand_sizes)
        if isinstance(state.actions[-1][1], bluff.Hide):
            held[state.actions[-1][0]] += 1  # an unanswered face-down card counts as held
        assert result.winners == tuple(seat for seat, size in enumerate(held) if size == min(held))
    else:
        assert len(result.winners) == 1
        assert result.hand_sizes[result.winners[0]] == 0


def bluff_candidates(state: bluff.State) -> list[object]:
    """1000? actions with every card of the deck and some that are not in it, Thousand actions,
    and values that are no action."""
    actions: list[object] = [bluff.Pass(), bluff.Believe(), bluff.Challenge(), bluff.Hide(None)]
    actions += [None, "pass", 42, thousand.Bid(105), thousand.Concede()]
    actions += [thousand.Play(thousand.DECK[0]), thousand.Take(1)]
    for card in (*sorted(set(state.rules.deck), key=str), bluff.Card("99"), bluff.Card("7")):
        actions += [bluff.Play(card), bluff.Hide(card)]
    return actions


def bluff_knowable(state: bluff.State) -> list[set[str]]:
    """Per seat: every card it has held, every card played face up, its own face-down cards and
    those a challenge turned over (RULES.md 2.2, hidden information)."""
    origin = state.origin
    game = bluff.new_game(state.rules, seed=origin.seed, layout=origin.layout, dealer=origin.dealer)
    known = [set(hand) for hand in game.hands]
    actions = state.actions
    for position, (actor, action) in enumerate(actions):
        challenged = position + 1 < len(actions) and isinstance(
            actions[position + 1][1], bluff.Challenge
        )
        if isinstance(action, bluff.Play) or (isinstance(action, bluff.Hide) and challenged):
            for cards in known:
                cards.add(action.card)
        elif isinstance(action, bluff.Hide):
            known[actor].add(action.card)
        game = game.apply(action)
        for cards, hand in zip(known, game.hands, strict=True):
            cards.update(hand)
    assert game == state
    return [{str(card) for card in cards} for cards in known]


def bluff_game(name: str, rules: bluff.Rules) -> Game:
    """The adapter of a 1000? configuration."""
    return Game(
        name=name,
        start=lambda seed: bluff.new_game(rules, seed=seed),
        short=lambda seed: bluff.new_game(rules, seed=seed, dealer=seed % rules.players),
        fresh=lambda seed: bluff.new_game(rules, seed=seed),
        source=f"thousand.bluff.new_game(thousand.bluff.Rules.from_json({rules.to_json()!r}), "
        "seed=seed)",
        parse_action=bluff.parse_action,
        record_of=bluff.Record.from_state,
        record_from_json=bluff.Record.from_json,
        replay=bluff.replay,
        candidates=bluff_candidates,
        knowable=bluff_knowable,
        card_type=bluff.Card,
        check_finished=check_finished_bluff,
        phase_kinds={
            bluff.Phase.START: (bluff.Play,),
            bluff.Phase.CLIMB: (bluff.Play, bluff.Hide, bluff.Pass),
            bluff.Phase.RESPONSE: (bluff.Believe, bluff.Challenge),
        },
        over=bluff.Phase.OVER,
    )


GAMES: list[Game] = [
    *(thousand_game(name, VARIANTS[name]) for name in PRESET_NAMES),
    *(bluff_game(f"1000?-{players}p", bluff.Rules(players=players)) for players in (2, 3, 4, 6)),
]
"""The configurations every check runs on."""

SMALL_DECK = "01 02 06 10 12 16 20 21 23 26 32 36 60 61 62 1000 1000"
VARIANT_GAMES: list[Game] = [
    *(thousand_game(name, rules) for name, rules in VARIANTS.items() if name not in PRESET_NAMES),
    bluff_game("1000?-5p", bluff.Rules(players=5)),
    bluff_game(
        "1000?-3p-any-card",
        bluff.Rules(players=3, challenge_restart=bluff.ChallengeRestart.ANY_CARD),
    ),
    bluff_game(
        "1000?-4p-no-reshuffle",
        bluff.Rules(players=4, empty_draw_pile=bluff.EmptyDrawPile.NO_RESHUFFLE),
    ),
    bluff_game(
        "1000?-2p-last-card-wins",
        bluff.Rules(players=2, last_card_face_down=bluff.LastCardFaceDown.WINS),
    ),
    bluff_game("1000?-6p-turn-cap", bluff.Rules(players=6, max_turns=40)),
    bluff_game("1000?-2p-small-deck", bluff.Rules(players=2, hand_size=3, deck=SMALL_DECK)),
    bluff_game(
        "1000?-4p-small-deck-no-reshuffle",
        bluff.Rules(
            players=4,
            hand_size=3,
            deck=SMALL_DECK,
            empty_draw_pile=bluff.EmptyDrawPile.NO_RESHUFFLE,
        ),
    ),
]
"""More configurations of both games."""

ALL_GAMES = GAMES + VARIANT_GAMES

PLAYOUTS = {thousand.GameState: 12, bluff.State: 80}
"""Whole random games per configuration (Thousand matches are far longer)."""


def sample_states(game: Game, games: int = 2, stride: int = 3) -> Iterator[Any]:
    """Every ``stride``-th state of a few short random games, and every state of a rare phase."""
    for seed in range(games):
        start = game.short(seed)
        for index, state in enumerate(playout(start, seed)):
            if index % stride == 0 or state.phase is not start.phase or state.is_over:
                yield state


def run_playout(game: Game, seed: int) -> Any:
    """A random game played to its end, checking that whoever must act has a legal action."""
    state = None
    for state in playout(game.start(seed), seed):
        if state.is_over:
            break
        assert state.current_player is not None
        assert state.legal_actions(), f"{game}: no legal action in the {state.phase}"
    assert state is not None
    assert state.phase is game.over
    game.check_finished(state)
    return state


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=str)
def test_random_playouts_finish(game: Game) -> None:
    """Random players always finish a game, with a legal action whenever someone must act."""
    first = game.start(0)
    for seed in range(PLAYOUTS[type(first)]):
        run_playout(game, seed)


@pytest.mark.slow
@pytest.mark.parametrize("game", VARIANT_GAMES, ids=str)
def test_random_playouts_of_variants_finish(game: Game) -> None:
    """Random games of the other configurations of both games finish too (fewer of them)."""
    count = 3 if isinstance(game.start(0), thousand.GameState) else 40
    for seed in range(count):
        run_playout(game, 1000 + seed)


@pytest.mark.slow
@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_legal_actions_are_deterministic(game: Game) -> None:
    """The same state, however it was reached, lists the same legal actions in the same order."""
    for state in sample_states(game):
        first = state.legal_actions()
        assert state.legal_actions() == first
        rebuilt = copy.deepcopy(state)
        object.__setattr__(rebuilt, "legal_cache", None)
        assert rebuilt == state
        assert rebuilt.legal_actions() == first
        assert len(set(first)) == len(first)
        assert all(state.is_legal(action) for action in first)


ORDER_SCRIPT = """
import json, random, sys, thousand, thousand.bluff
for source in json.loads(sys.argv[1]):
    lines, seed = [], 5
    while len(lines) < 150:
        rng = random.Random(seed)
        state = eval(source)
        while not state.is_over:
            legal = state.legal_actions()
            lines.append(" ".join(map(str, legal)))
            state = state.apply(rng.choice(legal))
        seed += 1
    print("\\n".join(lines))
"""


@pytest.mark.slow
def test_legal_action_order_does_not_depend_on_hashing() -> None:
    """Interpreters with different hash seeds list every game's legal actions in the same order."""
    sources = json.dumps([game.source for game in GAMES])
    outputs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", ORDER_SCRIPT, sources],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") >= 150 * len(GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_apply_never_mutates(game: Game) -> None:
    """Applying any legal action leaves the state equal to a deep copy taken before, same hash."""
    applied = 0
    for state in sample_states(game, games=1, stride=4):
        before, digest = copy.deepcopy(state), hash(state)
        for action in state.legal_actions()[:12]:
            after = state.apply(action)
            assert after != state
            assert state == before
            assert hash(state) == digest
            applied += 1
        assert state.actions == before.actions
        assert state.legal_actions() == before.legal_actions()
    assert applied > 20


@pytest.mark.slow
@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_illegal_actions_raise_and_change_nothing(game: Game) -> None:
    """Unlisted actions raise IllegalActionError naming action, seat and phase; state unchanged."""
    checked = 0
    for state in sample_states(game, games=1, stride=5):
        if state.is_over:
            continue
        legal = set(state.legal_actions())
        before, digest = copy.deepcopy(state), hash(state)
        for action in game.candidates(state):
            if action in legal:
                continue
            with pytest.raises(thousand.IllegalActionError) as caught:
                state.apply(action)
            error = caught.value
            assert error.action == action
            assert error.seat == state.current_player
            assert error.phase == str(state.phase)
            assert error.reason
            message = str(error)
            assert f"'{action}'" in message
            assert f"seat {state.current_player}" in message
            assert str(state.phase) in message
            assert not state.is_legal(action)
            checked += 1
        assert state == before
        assert hash(state) == digest
        assert state.legal_actions() == before.legal_actions()
    assert checked > 300


def finished_states(game: Game) -> Iterator[Any]:
    """Finished games: short ones, and single ones started with ``fresh``."""
    for seed in (7, 8):
        yield last(playout(game.short(seed), seed))
        yield last(playout(game.fresh(seed), seed))


@pytest.mark.slow
@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_finished_game_accepts_no_action(game: Game) -> None:
    """After the end every action raises, naming no seat and the end of the game."""
    for state in finished_states(game):
        assert state.phase is game.over
        assert state.current_player is None
        assert state.legal_actions() == ()
        before, digest = copy.deepcopy(state), hash(state)
        for action in game.candidates(state):
            with pytest.raises(thousand.IllegalActionError, match="the game is over") as caught:
                state.apply(action)
            assert caught.value.action == action
            assert caught.value.seat is None
            assert caught.value.phase == str(game.over)
            assert "nobody may act" in str(caught.value)
            assert not state.is_legal(action)
        assert state == before
        assert hash(state) == digest


@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_same_seed_reproduces_identical_states(game: Game) -> None:
    """Two games from the same seed with the same choices pass through equal states."""
    for seed in (0, 1, 2**40 + 3):
        first = list(playout(game.short(seed), seed))
        second = list(playout(game.short(seed), seed))
        assert len(first) == len(second)
        for one, two in zip(first, second, strict=True):
            assert one == two
            assert hash(one) == hash(two)
            assert one.legal_actions() == two.legal_actions()
        for seat in range(first[-1].rules.players):
            assert first[-1].observation(seat) == second[-1].observation(seat)


@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_unseeded_game_keeps_the_drawn_seed(game: Game) -> None:
    """A game started without a seed keeps the seed it drew, which starts the same game."""
    for _ in range(3):
        state = game.fresh(None)
        assert game.fresh(state.origin.seed) == state


@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_records_replay_exactly(game: Game) -> None:
    """Record -> JSON -> record -> replay gives the recorded state, finished or not."""
    for seed in range(2):
        for index, state in enumerate(playout(game.short(seed), seed)):
            if index % 9 and not state.is_over:
                continue
            record = game.record_of(state)
            text = record.to_json()
            again = game.record_from_json(text)
            assert again == record
            assert again.to_json() == text
            replayed = game.replay(again)
            assert replayed == state
            assert replayed.legal_actions() == state.legal_actions()
            for seat in range(state.rules.players):
                assert replayed.observation(seat) == state.observation(seat)


def named_cards(value: Any, card_type: type) -> Iterator[str]:
    """The labels of every card an observation names, its rules (the whole deck) left out."""
    if isinstance(value, card_type):
        yield str(value)
    elif isinstance(value, View):
        for name, field in value.fields().items():
            if name != "rules":
                yield from named_cards(field, card_type)
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            if field.name != "rules":
                yield from named_cards(getattr(value, field.name), card_type)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from named_cards(item, card_type)


@pytest.mark.slow
@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_observations_name_only_knowable_cards(game: Game) -> None:
    """No observation names a card its seat cannot know (others' hands, unseen cards)."""
    # Cards are compared by label; the twin tests of test_bluff_properties.py go further.
    named = 0
    for state in sample_states(game, stride=4):
        knowable = game.knowable(state)
        for seat in range(state.rules.players):
            observation = state.observation(seat)
            cards = set(named_cards(observation, game.card_type))
            assert {str(card) for card in observation.hand} <= cards
            assert cards <= knowable[seat], (seat, sorted(cards - knowable[seat]))
            named += len(cards)
    assert named > 100


@pytest.mark.slow
@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_observations_are_values(game: Game) -> None:
    """Observations of every seat are equal for equal states and their history is JSON text."""
    for state in sample_states(game, games=1, stride=7):
        for seat in range(state.rules.players):
            observation = state.observation(seat)
            assert observation == copy.deepcopy(state).observation(seat)
            assert observation.seat == seat
            assert observation.current_player == state.current_player
            assert observation.phase == state.phase
            mine = state.current_player == seat
            assert observation.legal_actions == (state.legal_actions() if mine else ())
            history = [[actor, str(action)] for actor, action in observation.history]
            assert json.loads(json.dumps(history)) == history
        with pytest.raises(thousand.SeatError):
            state.observation(state.rules.players)


@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_action_texts_round_trip(game: Game) -> None:
    """Every legal action's text parses back to the same action."""
    for state in sample_states(game, games=1, stride=2):
        for action in state.legal_actions():
            assert game.parse_action(str(action)) == action


@pytest.mark.parametrize("game", ALL_GAMES, ids=str)
def test_legal_actions_have_the_phase_kinds(game: Game) -> None:
    """Each phase offers only its own kinds of action."""
    seen = set()
    for state in sample_states(game, stride=2):
        if state.is_over:
            continue
        kinds = game.phase_kinds[state.phase]
        assert all(isinstance(action, kinds) for action in state.legal_actions())
        seen.add(state.phase)
    assert len(seen) >= 3
