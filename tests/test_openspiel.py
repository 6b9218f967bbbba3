"""Both games as OpenSpiel games: registered and loaded by name, OpenSpiel's own random
simulation test (with and without serialising) for every preset (the four-seat ones too) and for
1000? at 2, 4 and 6 players, the deal by chance leaving the sitter without cards, OpenSpiel's
IS-MCTS playing whole games, nothing hidden in a seat's tensor or strings (the sitter's
included), and OpenSpiel's bot entering a tournament by its spec."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts as spiel_ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts as spiel_mcts  # noqa: E402

import thousand  # noqa: E402
from thousand import bluff  # noqa: E402
from thousand.classic.cards import Card  # noqa: E402
from thousand.classic.scoring import sitter_bonus  # noqa: E402
from thousand.rl.codec import ActionCodec  # noqa: E402
from thousand.rl.openspiel import GAME_NAMES, register_games  # noqa: E402
from tournament.runner.options import Options, configure  # noqa: E402
from tournament.runner.run import run_tournament  # noqa: E402

register_games()

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("python_thousand_russian", {}),
    ("python_thousand_polish", {}),
    ("python_thousand_polish_2p", {}),
    ("python_thousand_russian_4", {}),
    ("python_thousand_polish_4", {}),
    ("python_thousand_bluff", {"players": 2}),
    ("python_thousand_bluff", {"players": 4}),
    ("python_thousand_bluff", {"players": 6}),
]


def deal(game: Any, cards: Sequence[int]) -> Any:
    """The state after dealing ``cards`` (chance outcomes) in order."""
    state = game.new_initial_state()
    for card in cards:
        assert state.is_chance_node()
        assert card in dict(state.chance_outcomes())
        state.apply_action(card)
    return state


def play_out(state: Any, rng: random.Random) -> Any:
    """Chance and every seat drawing at random until the game is over."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_registering_twice_changes_nothing() -> None:
    register_games()
    assert set(GAME_NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_openspiel_random_simulation_test_passes(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_the_game_describes_itself(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    rules = game.spec.rules
    assert game.num_players() == rules.players == params.get("players", rules.players)
    assert game.num_distinct_actions() == ActionCodec.for_rules(rules).size
    state = play_out(game.new_initial_state(), random.Random(3))
    returns = state.returns()
    assert all(game.min_utility() <= value <= game.max_utility() for value in returns)
    if isinstance(rules, bluff.Rules):
        assert max(returns) == 0.0 or state.engine.result.adjudicated
    assert (
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[
            1
        ].history()
        == state.history()
    )


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(thousand.RulesError, match="2 to 6 players, not 7"):
        pyspiel.load_game("python_thousand_bluff", {"players": 7})


@pytest.mark.parametrize(("name", "params"), [GAMES[2], GAMES[5]])
def test_openspiel_ismcts_plays_a_whole_game_against_random(
    name: str, params: dict[str, Any]
) -> None:
    """IS-MCTS searches worlds drawn by the state's own resample_from_infostate."""
    game = pyspiel.load_game(name, params)
    numbers = np.random.RandomState(5)
    bot = spiel_ismcts.ISMCTSBot(
        game,
        spiel_mcts.RandomRolloutEvaluator(1, numbers),
        uct_c=100.0,
        max_simulations=15,
        random_state=numbers,
    )
    rng = random.Random(5)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert searched > 0
    assert len(state.returns()) == game.num_players()


def thousand_cards(layout: thousand.Layout) -> list[int]:
    return [card.index for pile in (*layout.hands, *layout.talon) for card in pile]


def bluff_cards(
    rules: bluff.Rules, hands: Sequence[Sequence[str]], pile: Sequence[str]
) -> list[int]:
    number = rules.kinds.number
    return [number[bluff.Card.parse(label)] for part in (*hands, pile) for label in part]


def test_a_seat_sees_nothing_of_the_thousand_hands_hidden_from_it() -> None:
    """Seats 1 and 2 swap hands: seat 0's tensors and strings stay the same, theirs change."""
    game = pyspiel.load_game("python_thousand_russian")
    hands = ["AH TH KH QH JH 9H AD", "TD KD QD JD 9D AC TC", "KC QC JC 9C AS TS KS"]
    talon = "QS JS 9S"
    one = deal(game, thousand_cards(thousand.Layout(hands=hands, talon=talon)))
    swapped = [hands[0], hands[2], hands[1]]
    other = deal(game, thousand_cards(thousand.Layout(hands=swapped, talon=talon)))
    for state in (one, other):  # the same public actions: bid 110, then both pass
        for text in ("bid 110", "pass", "pass"):
            state.apply_action(game.spec.codec.index(thousand.parse_action(text)))
    assert str(one) != str(other)
    assert_same_for(one, other, seat=0)
    assert one.observation_tensor(1) != other.observation_tensor(1)
    assert one.information_state_string(2) != other.information_state_string(2)


def test_a_seat_sees_nothing_of_the_1000_cards_hidden_from_it() -> None:
    """Seat 2's hand and the top of the draw pile swap: seats 0 and 1 see the same, seat 2
    does not."""
    game = pyspiel.load_game("python_thousand_bluff", {"players": 3})
    rules = game.spec.rules
    labels = [card.label for card in rules.deck]
    hands = [labels[0:7], labels[7:14], labels[14:21]]
    pile = labels[21:]
    one = deal(game, bluff_cards(rules, hands, pile))
    other = deal(game, bluff_cards(rules, [hands[0], hands[1], pile[:7]], hands[2] + pile[7:]))
    assert one.current_player() == 1  # the seat after the dealer starts the climb
    for state in (one, other):
        state.apply_action(game.spec.codec.index(bluff.Play(bluff.Card.parse(hands[1][0]))))
    assert_same_for(one, other, seat=0)
    assert_same_for(one, other, seat=1)
    assert one.observation_tensor(2) != other.observation_tensor(2)


def assert_same_for(one: Any, other: Any, *, seat: int) -> None:
    assert one.observation_tensor(seat) == other.observation_tensor(seat)
    assert one.information_state_tensor(seat) == other.information_state_tensor(seat)
    assert one.observation_string(seat) == other.observation_string(seat)
    assert one.information_state_string(seat) == other.information_state_string(seat)
    assert one.legal_actions(seat) == other.legal_actions(seat)


def test_a_card_dealt_is_never_dealt_again() -> None:
    game = pyspiel.load_game("python_thousand_polish_2p")
    state = deal(game, [Card.parse("AH").index])
    assert Card.parse("AH").index not in dict(state.chance_outcomes())
    assert sum(chance for _, chance in state.chance_outcomes()) == pytest.approx(1.0)
    assert state.observation_string(0) == "seat 0: the cards are being dealt"


@pytest.mark.parametrize("action", [1.5, float("nan"), float("inf"), None, True, 2.0])
def test_an_action_that_is_no_whole_number_is_refused_naming_it(action: object) -> None:
    """Neither rounded nor taken as 1 (a bool), nor OpenSpiel's own TypeError."""
    state = pyspiel.load_game("python_thousand_russian").new_initial_state()
    for _ in range(3):
        with pytest.raises(thousand.InvalidActionError, match="is no action number"):
            state.apply_action(action)
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    while state.is_chance_node():
        state.apply_action(np.int64(state.chance_outcomes()[0][0]))
    before = str(state)
    with pytest.raises(thousand.InvalidActionError, match=f"^{re.escape(repr(action))} is no"):
        state.apply_action(action)
    assert str(state) == before
    state.apply_action(np.int64(state.legal_actions()[0]))


@pytest.mark.parametrize(
    ("game", "rules", "specs"),
    [
        ("thousand", "polish-2p", ["openspiel:ismcts(simulations=20)", "random"]),
        ("thousand", "russian", ["openspiel:ismcts(simulations=20, uct_c=50)", "random", "random"]),
        ("bluff", None, ["openspiel:ismcts(max_simulations=20)", "random"]),
    ],
)
def test_openspiel_bots_enter_a_tournament_by_their_spec(
    game: str, rules: str | None, specs: list[str]
) -> None:
    per_table = 2 if game == "bluff" else len(specs)
    options = Options(
        specs=tuple(specs),
        game=game,
        rules=rules,
        deals=per_table if game == "thousand" else None,
        games=per_table if game == "bluff" else None,
        seed=1,
        isolate=False,
    )
    summary = run_tournament(configure(options), workers=1)
    assert not any(count for row in summary.standings for _, count in row.faults)


def test_the_openspiel_player_searches_a_deal_of_a_match_as_a_game() -> None:
    """In a match the bot searches the deal in progress, scored by its deal scores."""
    from thousand.rl.openspiel import ismcts

    rules = thousand.Rules.preset("polish-2p")
    player = ismcts(simulations=10)
    player.start(0, rules, random.Random(1))
    state = thousand.new_match(rules, seed=1)
    rng = random.Random(2)
    while len(state.deals) < 1 or state.player != 0:
        state = state.apply(rng.choice(state.legal_actions()))
    for _ in range(3):
        while state.player != 0:
            state = state.apply(rng.choice(state.legal_actions()))
        state = state.apply(player.act(thousand.observe(state, 0)))
    assert state.deal_number >= 1


def test_resampling_keeps_what_the_seat_has_seen() -> None:
    game = pyspiel.load_game("python_thousand_bluff", {"players": 2})
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.chance_outcomes()[0][0])
    early = state.resample_from_infostate(0, random.Random(1))
    assert early.is_chance_node()
    assert len(early.history()) == 5
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    world = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(1) == state.information_state_string(1)
    assert world.observation_tensor(1) == state.observation_tensor(1)


def play_until(game: Any, rng: random.Random, *, actions: int) -> Any:
    """The deal dealt at random, then ``actions`` random actions (fewer if it ends)."""
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, chances = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, chances)[0])
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    ("name", "sitter"), [("python_thousand_russian_4", 3), ("python_thousand_polish_4", 0)]
)
def test_chance_deals_the_sitter_no_cards(name: str, sitter: int) -> None:
    """Seat 0 deals; the cards go to the seats taking part in seat order, then to the talon, as
    in ``Layout.shuffled(4, rng, sitter)``."""
    game = pyspiel.load_game(name)
    order = list(range(24))
    random.Random(2).shuffle(order)
    state = deal(game, order[:23])
    assert len(state.chance_outcomes()) == 1
    state.apply_action(order[23])
    engine = state.engine
    assert (engine.dealer, engine.sitter) == (0, sitter)
    assert [len(hand) for hand in engine.layout.hands] == [
        0 if seat == sitter else 7 for seat in range(4)
    ]
    players = [seat for seat in range(4) if seat != sitter]
    for place, seat in enumerate(players):
        dealt = [Card.parse(str(card)).index for card in engine.layout.hands[seat]]
        assert sorted(dealt) == sorted(order[place * 7 : (place + 1) * 7])
    assert sorted(card.index for card in engine.layout.talon[0]) == sorted(order[21:])
    assert engine.hands[sitter] == ()
    assert state.current_player() != sitter
    hands = str(state).splitlines()[0].removeprefix("hands: ").split(" | ")
    assert hands[sitter] == "-"


def test_the_sitter_sees_nothing_of_the_hands_hidden_from_it() -> None:
    """russian-4, seat 3 sitting out: the active hands exchanged and an unshown talon card
    swapped give the sitter the same tensors and strings; the seats holding them differ."""
    game = pyspiel.load_game("python_thousand_russian_4")
    one = deal(
        game,
        thousand_cards(
            thousand.Layout(
                hands=["AH TH KH QH JH 9H AD", "TD KD QD JD 9D AC TC", "KC QC JC 9C AS TS KS", ""],
                talon="QS JS 9S",
            )
        ),
    )
    other = deal(
        game,
        thousand_cards(
            thousand.Layout(
                hands=["TD KD QD JD 9D AC TC", "AH TH KH QH JH 9H AD", "KC QC JC 9C AS TS 9S", ""],
                talon="QS JS KS",
            )
        ),
    )
    assert one.current_player() == other.current_player() == 2  # after the forehand, seat 1
    for state in (one, other):
        for text in ("bid 105", "pass"):
            state.apply_action(game.spec.codec.index(thousand.parse_action(text)))
    assert_same_for(one, other, seat=3)
    for seat in range(3):
        assert one.observation_tensor(seat) != other.observation_tensor(seat)
    assert one.legal_actions(3) == []


@pytest.mark.parametrize("name", ["python_thousand_russian_4", "python_thousand_polish_4"])
def test_resampling_a_four_seat_deal_keeps_what_the_seat_has_seen(name: str) -> None:
    game = pyspiel.load_game(name)
    state = play_until(game, random.Random(3), actions=6)
    for seat in range(4):
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.engine.sitter == state.engine.sitter
        assert world.engine.hands[world.engine.sitter] == ()


def test_openspiel_ismcts_plays_a_four_seat_deal() -> None:
    game = pyspiel.load_game("python_thousand_polish_4")
    numbers = np.random.RandomState(6)
    bot = spiel_ismcts.ISMCTSBot(
        game, spiel_mcts.RandomRolloutEvaluator(1, numbers), 100.0, 10, random_state=numbers
    )
    rng = random.Random(6)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
        elif state.current_player() == 1:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.returns()) == 4


def test_a_four_seat_deal_returns_the_sitters_bonus() -> None:
    """The sitter's return is its bonus for the talon; the seats taking part score the deal."""
    game = pyspiel.load_game("python_thousand_polish_4")
    state = play_out(game.new_initial_state(), random.Random(8))
    engine = state.engine
    result = engine.deals[0]
    talon = sum(card.bit for card in result.layout.talon[0])
    assert state.returns()[0] == sitter_bonus(game.spec.rules, talon)
    assert state.returns() == [float(score) for score in result.deal_scores]
