"""The game objects: each game is found from its rules, observations, states and names, and
starts, records, replays and reads its JSON through one interface."""

from __future__ import annotations

import json
import random
import re

import pytest

from thousand import Rules, RulesError, bluff
from thousand.bots import GreedyPlayer
from thousand.games import BLUFF, GAMES, THOUSAND, AnyGame, game_named, game_observed, game_of

RULES: list[tuple[AnyGame, Rules | bluff.Rules]] = [
    (THOUSAND, Rules.preset("russian")),
    (BLUFF, bluff.Rules(players=4)),
]


def _half_played(game: AnyGame, rules: Rules | bluff.Rules) -> object:
    """A play of ``rules`` 30 actions in, by the greedy bot in every seat."""
    state = game.start(game.own_rules(rules), seed=5, layout=None, dealer=None, single_deal=False)
    bot = GreedyPlayer()
    bot.start(0, rules, random.Random(1))
    for _ in range(30):
        state = state.apply(bot.act(game.observe(state, state.player)))
    return state


@pytest.mark.parametrize(("game", "rules"), RULES, ids=lambda value: str(getattr(value, "key", "")))
def test_a_game_is_found_from_its_values_and_names(
    game: AnyGame, rules: Rules | bluff.Rules
) -> None:
    state = game.start(game.own_rules(rules), seed=3, layout=None, dealer=None, single_deal=False)
    observation = game.observe(state, 1)
    assert game_of(rules) is game_of(state) is game_of(observation) is game
    assert game_observed(observation) is game
    assert game_named(game.name) is game_named(game.key) is game


def test_other_values_and_names_are_refused() -> None:
    with pytest.raises(
        RulesError, match=re.escape("expected thousand.Rules or thousand.bluff.Rules")
    ):
        game_of("russian")
    with pytest.raises(TypeError, match="Thousand and 1000"):
        game_observed(Rules.preset("russian"))
    with pytest.raises(
        ValueError, match=re.escape("unknown game 'chess'; expected one of thousand, 1000?")
    ):
        game_named("chess")
    with pytest.raises(RulesError, match="expected Rules, not Rules"):
        BLUFF.own_rules(Rules.preset("russian"))
    assert [game.key for game in GAMES] == ["thousand", "bluff"]


@pytest.mark.parametrize(("game", "rules"), RULES, ids=lambda value: str(getattr(value, "key", "")))
def test_records_and_observations_round_trip_through_the_game(
    game: AnyGame, rules: Rules | bluff.Rules
) -> None:
    """A play half done, its record and an observation go to JSON data and back through the
    game object, and the record replays to the same state."""
    state = _half_played(game, rules)
    record = game.record_from_dict(game.record(state).to_dict())
    assert game.replay(record) == state
    observation = game.seen_from(state, 2)
    assert game.observation_from_dict(observation.to_dict()) == observation
    assert game.rules_from_dict(rules.to_dict()) == rules
    assert game.actions_played(state) == 30
    world = game.determinise(observation, random.Random(2))
    assert game.observe(world, 2) == observation


NUMBER_PLACES = {
    "thousand": [("seat",), ("dealer",), ("current_player",), ("scores", 1), ("hand_sizes", 0)],
    "bluff": [("seat",), ("turns",), ("current_player",), ("hand_sizes", 2), ("table", 0, "owner")],
}
"""Per game, where a whole number stands in observation JSON (a key, or a path into lists)."""


@pytest.mark.parametrize("bad", [1.5, 105.0, True, "1"], ids=repr)
@pytest.mark.parametrize(("game", "rules"), RULES, ids=lambda value: str(getattr(value, "key", "")))
def test_observation_json_with_a_number_that_is_not_whole_is_refused(
    game: AnyGame, rules: Rules | bluff.Rules, bad: object
) -> None:
    """A seat number, count or score written as a fraction, a boolean or text is malformed
    observation JSON: ``ValueError`` naming the value, never a number near it."""
    observation = game.seen_from(_half_played(game, rules), 2)
    for path in NUMBER_PLACES[game.key]:
        data = json.loads(json.dumps(observation.to_dict()))
        *within, last = path
        place = data
        for step in within:
            place = place[step]
        place[last] = bad
        with pytest.raises(ValueError, match=re.escape(f"expected a whole number, not {bad!r}")):
            game.observation_from_dict(data)


@pytest.mark.parametrize("bad", ["false", 0, None])
def test_bluff_observation_json_with_a_face_down_flag_that_is_not_true_or_false_is_refused(
    bad: object,
) -> None:
    """A 1000? table card's ``face_down`` and ``believed`` are true or false, nothing else."""
    observation = BLUFF.seen_from(_half_played(BLUFF, bluff.Rules(players=4)), 2)
    for flag in ("face_down", "believed"):
        data = json.loads(json.dumps(observation.to_dict()))
        data["table"][0][flag] = bad
        with pytest.raises(ValueError, match=re.escape(f"expected true or false, not {bad!r}")):
            BLUFF.observation_from_dict(data)


@pytest.mark.parametrize(
    ("game", "players", "expected"),
    [
        (THOUSAND, None, Rules.preset("russian")),
        (THOUSAND, 2, Rules.preset("polish-2p")),
        (THOUSAND, 3, Rules.preset("russian")),
        (THOUSAND, 4, Rules.preset("russian-4")),
        (BLUFF, None, bluff.Rules(players=4)),
        (BLUFF, 2, bluff.Rules(players=2)),
        (BLUFF, 6, bluff.Rules(players=6)),
    ],
)
def test_each_game_knows_its_default_rules_for_a_table(
    game: AnyGame, players: int | None, expected: Rules | bluff.Rules
) -> None:
    """The rules a game is played by unless others are chosen: Russian for three, two-player
    Polish for two, Russian for four; 1000? at four seats unless told."""
    assert game.default_rules(players) == expected


@pytest.mark.parametrize(("game", "players"), [(THOUSAND, 5), (THOUSAND, 1), (BLUFF, 7)])
def test_no_default_rules_for_a_table_the_game_is_not_played_at(
    game: AnyGame, players: int
) -> None:
    """A table size the game is not played at is refused with the number."""
    with pytest.raises(RulesError, match=str(players)):
        game.default_rules(players)
