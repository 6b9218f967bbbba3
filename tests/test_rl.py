"""Both games as learning environments: the action numbering both ways, the observation encoding
(nothing hidden in it, the sitter's view included), PettingZoo's and Gymnasium's own checks for
every preset (the four-seat ones and a table of house rules too) and for 1000? at 2, 4 and 6
players, and the registered Gymnasium ids."""

from __future__ import annotations

import random
import re
import shlex
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import thousand
from thousand import Bid, Give, Layout, Play, Rules, bluff
from thousand.errors import IllegalActionError, InvalidActionError
from thousand.rl import (
    GYM_IDS,
    ActionCodec,
    ObservationEncoder,
    SeatEnv,
    TableEnv,
    gym_env,
    pettingzoo_env,
)

ROOT = Path(__file__).resolve().parent.parent
SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("russian", {}),
    ("polish", {}),
    ("polish-2p", {}),
    ("russian-4", {}),
    ("polish-4", {}),
    ("russian", {"single_deal": True}),
    ("russian-4", {"single_deal": True}),
    ("polish-4", {"single_deal": True}),
    ("bluff", {"players": 2}),
    ("bluff", {"players": 4}),
    ("bluff", {"players": 6}),
]
IDS = [
    f"{rules}{'-deal' if options.get('single_deal') else ''}{options.get('players', '')}"
    for rules, options in SETTINGS
]


def every_rules() -> list[Rules | bluff.Rules]:
    return [Rules.preset(name) for name in Rules.preset_names()] + [
        bluff.Rules(players=players) for players in (2, 4, 6)
    ]


@pytest.mark.parametrize("rules", every_rules(), ids=str)
def test_every_action_has_one_number_and_back(rules: Rules | bluff.Rules) -> None:
    codec = ActionCodec.for_rules(rules)
    assert len(set(codec.actions)) == codec.size
    for index, action in enumerate(codec.actions):
        assert codec.index(action) == index
        assert codec.action(index) == action
    # Every legal action of random games has a number, and the mask marks exactly them.
    rng = random.Random(3)
    game = thousand.games.game_of(rules)
    for seed in range(2):
        state = (
            game.start(rules, seed=seed, layout=None, dealer=None, single_deal=True)
            if isinstance(rules, Rules)
            else game.start(rules, seed=seed, layout=None, dealer=None, single_deal=False)
        )
        while not state.is_over:
            legal = state.legal_actions()
            mask = codec.mask(legal)
            assert [codec.actions[index] for index, flag in enumerate(mask) if flag] == sorted(
                set(legal), key=codec.index
            )
            state = state.apply(rng.choice(legal))


def test_the_numbering_is_documented_by_text() -> None:
    codec = ActionCodec.for_rules(Rules.preset("russian"))
    described = codec.describe()
    assert described[:3] == ["pass", "bid 100", "bid 105"]
    assert described[-1] == "play AH aces"
    assert "give QS 2" in described
    assert codec.index(Bid(120)) == described.index("bid 120")


def test_an_unknown_action_or_number_is_refused_clearly() -> None:
    codec = ActionCodec.for_rules(Rules.preset("russian"))
    with pytest.raises(InvalidActionError, match="bid 123 is no action of these rules"):
        codec.index(Bid(123))
    with pytest.raises(InvalidActionError, match="action number 312 is out of range"):
        codec.action(312)


LAYOUT = Layout(
    hands=["AH TH KH QH JH 9H AD", "TD KD QD JD 9D AC TC", "KC QC JC 9C AS TS KS"],
    talon="QS JS 9S",
)
SWAPPED = Layout(
    hands=["AH TH KH QH JH 9H AD", "KC QC JC 9C AS TS KS", "TD KD QD JD 9D AC TC"],
    talon="QS JS 9S",
)
"""The same deal for seat 0, with the other two hands exchanged."""


def test_the_encoding_holds_no_hidden_card() -> None:
    """Two deals that differ only in cards seat 0 cannot see encode the same for it, move for
    move, until a hidden card is shown; and differ for the seats that hold them."""
    rules = Rules.preset("russian")
    encoder = ObservationEncoder.for_rules(rules)
    first = thousand.new_deal(rules, layout=LAYOUT)
    second = thousand.new_deal(rules, layout=SWAPPED)
    assert np.array_equal(
        encoder.encode(thousand.observe(first, 0)), encoder.encode(thousand.observe(second, 0))
    )
    assert not np.array_equal(
        encoder.encode(thousand.observe(first, 1)), encoder.encode(thousand.observe(second, 1))
    )
    # Through the auction (seat 1 bids first, both others pass), both deals stay alike for seat 0.
    for text in ("bid 105", "pass", "pass"):
        action = thousand.parse_action(text)
        first, second = first.apply(action), second.apply(action)
        assert np.array_equal(
            encoder.encode(thousand.observe(first, 0)),
            encoder.encode(thousand.observe(second, 0)),
        )


def test_the_encoding_holds_no_hidden_1000_card() -> None:
    """1000?: two deals that differ only in the other hands and the draw pile encode the same
    for seat 0."""
    rules = bluff.Rules(players=2, hand_size=3)
    encoder = ObservationEncoder.for_rules(rules)
    deck = [str(card) for card in rules.deck]
    mine = deck[:3]
    rest = deck[3:]
    one = bluff.Layout(hands=[mine, rest[:3]], draw_pile=rest[3:])
    other = bluff.Layout(hands=[mine, rest[-3:]], draw_pile=rest[:-3])
    first = bluff.new_game(rules, seed=1, layout=one)
    second = bluff.new_game(rules, seed=1, layout=other)
    assert np.array_equal(
        encoder.encode(bluff.observe(first, 0)), encoder.encode(bluff.observe(second, 0))
    )
    assert not np.array_equal(
        encoder.encode(bluff.observe(first, 1)), encoder.encode(bluff.observe(second, 1))
    )


@pytest.mark.parametrize(("rules", "options"), SETTINGS, ids=IDS)
def test_pettingzoo_api_test(rules: str, options: dict[str, Any]) -> None:
    env = pettingzoo_env(rules, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=300)


@pytest.mark.parametrize(("rules", "options"), SETTINGS, ids=IDS)
def test_pettingzoo_seed_test(rules: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: pettingzoo_env(rules, **options), num_cycles=100)


def play_out(
    env: TableEnv, seed: int, each: Callable[[str, Any], None] | None = None
) -> dict[str, float]:
    """A whole game with random legal actions; each agent's total reward. ``each`` sees every
    agent asked to act, with its observation, before it acts."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if each is not None:
            each(agent, observation)
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return totals


def test_pettingzoo_rewards_add_up_to_the_scores() -> None:
    """A single deal's rewards are its deal scores; a match's add up to the final scores; a
    1000? game's are minus the cards left (0 for the winner)."""
    deal = pettingzoo_env("russian", single_deal=True)
    totals = play_out(deal, 5)
    assert list(totals.values()) == list(deal.table.state.result.deal_scores)
    match = pettingzoo_env("polish-2p")
    totals = play_out(match, 6)
    assert list(totals.values()) == list(match.table.state.result.scores)
    game = pettingzoo_env("bluff", players=4)
    totals = play_out(game, 7)
    assert sorted(totals.values())[-1] == 0
    assert [-len(hand) for hand in game.table.state.hand_kinds] == list(totals.values())
    normalised = pettingzoo_env("russian", single_deal=True, normalise=True)
    scaled = play_out(normalised, 5)
    assert list(scaled.values()) == pytest.approx([value / 600 for value in totals_of(5)])


def totals_of(seed: int) -> list[float]:
    return list(play_out(pettingzoo_env("russian", single_deal=True), seed).values())


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = pettingzoo_env("russian")
    env.reset(seed=1)
    before = env.table.state
    codec = env.table.codec
    with pytest.raises(IllegalActionError, match="play AH"):
        env.step(codec.index(Play(thousand.Card.parse("AH"))))
    assert env.table.state is before


@pytest.mark.parametrize(("rules", "options"), SETTINGS, ids=IDS)
def test_gymnasium_check_env(rules: str, options: dict[str, Any]) -> None:
    env = gym_env(rules, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


def test_every_registered_id_makes_an_environment() -> None:
    assert "thousand/Russian-v0" in GYM_IDS
    assert "thousand/Bluff4-v0" in GYM_IDS
    for name in GYM_IDS:
        env = gymnasium.make(name)
        observation, _ = env.reset(seed=1)
        assert observation["action_mask"].sum() > 0
        env.close()


def test_the_learner_plays_against_bots_until_the_game_ends() -> None:
    """The other seats are bot specs; each step is the learner's; the rewards add up to its
    score."""
    env = gym_env("polish-2p", seat=1, opponents=["greedy"], single_deal=True)
    observation, _ = env.reset(seed=3)
    rng = random.Random(3)
    total, done = 0.0, False
    while not done:
        assert env.table.state.player == 1
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, truncated, _ = env.step(action)
        total += reward
        assert not truncated
    assert total == env.table.state.result.deal_scores[1]


def test_an_illegal_action_loses_or_raises_as_asked() -> None:
    env = gym_env("russian", opponents=["random", "random"])
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated
    assert reward == -1000
    assert "illegal_action" in info
    strict = gym_env("russian", opponents=["random", "random"], illegal="raise")
    observation, _ = strict.reset(seed=2)
    before = strict.table.state
    with pytest.raises((IllegalActionError, InvalidActionError)):
        strict.step(illegal)
    assert strict.table.state is before


NO_NUMBERS = [1.5, float("nan"), float("inf"), None, True, 2.0, "3", np.float64(1.0)]
"""Actions that are not whole numbers of an integer type: none of them numbers an action."""


@pytest.mark.parametrize("action", NO_NUMBERS, ids=repr)
def test_an_action_that_is_no_whole_number_loses_or_raises_naming_it(action: object) -> None:
    """Not rounded, not a Python error from deep inside: illegal, like any illegal action."""
    env = gym_env("russian", opponents=["random", "random"])
    env.reset(seed=2)
    _, reward, terminated, _, info = env.step(action)
    assert terminated
    assert reward == -1000
    assert info["illegal_action"].startswith(f"{action!r} is no action number")
    strict = gym_env("russian", opponents=["random", "random"], illegal="raise")
    strict.reset(seed=2)
    before = strict.table.state
    with pytest.raises(InvalidActionError, match=f"^{re.escape(repr(action))} is no action number"):
        strict.step(action)
    assert strict.table.state is before
    table = pettingzoo_env("russian")
    table.reset(seed=2)
    before = table.table.state
    with pytest.raises(InvalidActionError, match="no action"):
        table.step(action)
    assert table.table.state is before


def test_numpy_integers_are_action_numbers_and_numpy_bools_are_not() -> None:
    env = gym_env("russian", opponents=["random", "random"], illegal="raise")
    observation, _ = env.reset(seed=2)
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    for kind in (np.int64, np.int32, np.uint8):
        again = gym_env("russian", opponents=["random", "random"], illegal="raise")
        again.reset(seed=2)
        _, _, _, _, info = again.step(kind(legal))
        assert not info
    codec = ActionCodec.for_rules(Rules.preset("russian"))
    assert codec.action(np.int16(5)) == Bid(120)
    with pytest.raises(InvalidActionError, match="no action number"):
        codec.action(np.True_)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"rules": "russian", "players": 2}, "these rules are for 3 players, not 2"),
        ({"rules": "russian", "opponents": ["random"]}, "3 players need 2 opponents, not 1"),
        ({"rules": "russian", "seat": 3}, "seat 3 is not at a table of 3"),
        ({"rules": "polish-4", "opponents": ["random"] * 2}, "4 players need 3 opponents, not 2"),
        ({"rules": "russian-4", "seat": 4}, "seat 4 is not at a table of 4"),
        ({"rules": "bluff", "single_deal": True}, "single_deal is for Thousand"),
        ({"rules": "nonsense"}, "no preset named 'nonsense'"),
        ({"rules": "thousand", "players": 5}, "Thousand is played by 2, 3 or 4 players, not 5"),
    ],
)
def test_bad_settings_are_refused_in_one_line(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(thousand.ThousandError, match=message):
        SeatEnv(**arguments)


def test_only_the_rl_extra_brings_the_learning_libraries() -> None:
    """The plain install depends on none of them, and importing the library loads none."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    learning = ("numpy", "gymnasium", "pettingzoo", "open_spiel")
    assert not [need for need in project["dependencies"] if need.startswith(learning)]
    extra = [need.split(">")[0] for need in project["optional-dependencies"]["rl"]]
    assert sorted(extra) == sorted(learning)
    probe = "import sys, thousand; thousand.new_match; thousand.play; print(*sorted(sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert not [name for name in loaded if name.split(".")[0] in (*learning, "pyspiel")]


def test_opponents_may_be_a_file_or_an_external_program() -> None:
    program = "cmd:" + shlex.join([sys.executable, str(ROOT / "examples" / "external_bot.py")])
    opponents = [program, str(ROOT / "tests" / "bots" / "python_bots.py") + ":Cautious"]
    env = gym_env("russian", opponents=opponents, single_deal=True)
    observation, _ = env.reset(seed=1)
    rng = random.Random(1)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, _, _ = env.step(action)
        total += reward
    assert total == env.table.state.result.deal_scores[0]
    env.close()


def test_the_numbering_of_three_and_two_seats_stays_as_it_was() -> None:
    """Four seats add gifts to seat 3; the presets of two and three seats keep their numbers."""
    sizes = {name: ActionCodec.for_rules(Rules.preset(name)).size for name in Rules.preset_names()}
    assert sizes == {
        "russian": 312,
        "polish": 172,
        "polish-2p": 126,
        "russian-4": 336,
        "polish-4": 196,
    }
    russian = ActionCodec.for_rules(Rules.preset("russian"))
    qs = thousand.Card.parse("QS")
    assert russian.index(Give(qs, 0)) == 104
    assert russian.index(Give(qs, 2)) == 152
    assert russian.index(thousand.parse_action("concede")) == 275
    assert russian.index(Play(thousand.Card.parse("AH"), aces=True)) == 311
    two = ActionCodec.for_rules(Rules.preset("polish-2p")).describe()
    assert two[:3] == ["pass", "bid 100", "bid 110"]
    assert [two.index(text) for text in ("take 1", "discard 9S", "contract 100", "play 9S")] == [
        32,
        34,
        58,
        90,
    ]
    four = ActionCodec.for_rules(Rules.preset("russian-4"))
    assert four.actions[:174] == russian.actions[:174]
    assert [four.index(Give(qs, seat)) for seat in range(4)] == [104, 128, 152, 176]
    assert four.describe()[-1] == "play AH aces"


def test_the_encoding_of_three_and_two_seats_stays_as_it_was() -> None:
    """The segments for four seats and house rules appear only under the rules that use them."""
    sizes = {
        name: ObservationEncoder.for_rules(Rules.preset(name)).size for name in Rules.preset_names()
    }
    assert sizes == {
        "russian": 321,
        "polish": 321,
        "polish-2p": 258,
        "russian-4": 389,
        "polish-4": 389,
    }
    assert thousand.rl.ENCODING_VERSION == 1
    russian = ObservationEncoder.for_rules(Rules.preset("russian")).segments
    assert russian[-2:] == (("on_barrel", 3), ("barrel_deals", 3))
    four = ObservationEncoder.for_rules(Rules.preset("russian-4")).segments
    assert [name for name, _ in four[-3:]] == ["barrel_deals", "sitter", "sitter_bonus"]
    house = attrs.evolve(Rules.preset("russian"), bolts=3, barrel_reset_falls=3, gold_set=3)
    assert ObservationEncoder.for_rules(house).segments[-3:] == (
        ("bolts", 3),
        ("falls", 3),
        ("scored_deals", 1),
    )


E1 = Layout(
    hands=["AC TC KC QC JC 9S TS", "", "TD KD QD JD KS QS JS", "AH TH KH QH JH 9D 9C"],
    talon="AS AD 9H",
)
"""House rules E1 (russian-4, dealer 2): seat 1 sits out, seat 3 is the forehand."""


def test_four_seats_encode_the_sitter_and_its_bonus() -> None:
    rules = Rules.preset("russian-4")
    encoder = ObservationEncoder.for_rules(rules)
    at = encoder.offsets
    state = thousand.new_deal(rules, layout=E1, dealer=2)
    for text in ("bid 105", "pass", "pass"):  # seat 0 bids; seats 2 and 3 pass
        state = state.apply(thousand.parse_action(text))
    for seat in range(4):
        vector = encoder.encode(thousand.observe(state, seat))
        sitter = vector[at["sitter"] : at["sitter"] + 4]
        assert sitter.tolist() == [1.0 if (1 - seat) % 4 == place else 0.0 for place in range(4)]
        assert vector[at["sitter_bonus"]] == pytest.approx(80 / 140)  # two aces of 40
        assert vector[at["dealer"] + (2 - seat) % 4] == 1
    sitter = encoder.encode(thousand.observe(state, 1))
    assert not sitter[at["hand"] : at["hand"] + 24].any()
    assert sitter[at["hand_sizes"]] == 0
    before = thousand.new_deal(rules, layout=E1, dealer=2)
    assert encoder.encode(thousand.observe(before, 0))[at["sitter_bonus"]] == 0  # talon unseen


SITTER_SEES = Layout(
    hands=["AH TH KH QH JH 9H AD", "TD KD QD JD 9D AC TC", "KC QC JC 9C AS TS KS", ""],
    talon="QS JS 9S",
)
SITTER_GUESSES = Layout(
    hands=["TD KD QD JD 9D AC TC", "AH TH KH QH JH 9H AD", "KC QC JC 9C AS TS 9S", ""],
    talon="QS JS KS",
)
"""russian-4, dealer 0, seat 3 sitting out: the active hands exchanged, and a talon card (not
yet shown) swapped with a card in hand."""


def test_the_sitters_encoding_holds_no_hidden_card() -> None:
    """The seat sitting out sees only what is public: the same vector whatever the active hands
    and the unshown talon, until the talon is shown (it then sees a different bonus too)."""
    rules = Rules.preset("russian-4")
    encoder = ObservationEncoder.for_rules(rules)
    first = thousand.new_deal(rules, layout=SITTER_SEES, dealer=0)
    second = thousand.new_deal(rules, layout=SITTER_GUESSES, dealer=0)
    assert first.sitter == second.sitter == 3

    def seen(state: thousand.GameState, seat: int) -> Any:
        return encoder.encode(thousand.observe(state, seat))

    for text in ("bid 105", "pass"):
        assert np.array_equal(seen(first, 3), seen(second, 3))
        for active in range(3):
            assert not np.array_equal(seen(first, active), seen(second, active))
        action = thousand.parse_action(text)
        first, second = first.apply(action), second.apply(action)
    assert np.array_equal(seen(first, 3), seen(second, 3))
    first, second = (state.apply(thousand.parse_action("pass")) for state in (first, second))
    assert first.phase is second.phase is thousand.Phase.EXCHANGE
    bonus = encoder.offsets["sitter_bonus"]
    assert (seen(first, 3)[bonus], seen(second, 3)[bonus]) == (0, pytest.approx(40 / 140))


HOUSE = attrs.evolve(
    Rules.preset("russian-4"),
    redeal_weak_hand=40,
    bolts=3,
    barrel_reset_falls=2,
    gold_set=4,
    samosval=thousand.Samosval.BOTH,
)
"""A table of house rules: most deals are thrown in as dealt (a hand worth less than 40)."""


def test_house_rule_counts_are_encoded_for_every_seat() -> None:
    encoder = ObservationEncoder.for_rules(HOUSE)
    at = encoder.offsets
    rng = random.Random(4)
    state = thousand.new_match(attrs.evolve(HOUSE, redeal_weak_hand=0), seed=4)
    bolted = False
    while not state.is_over and len(state.deals) < 30:
        for seat in range(4):
            observation = thousand.observe(state, seat)
            vector = encoder.encode(observation)
            for player in range(4):
                place = (player - seat) % 4
                assert vector[at["bolts"] + place] == pytest.approx(observation.bolts[player] / 3)
                assert vector[at["falls"] + place] == pytest.approx(observation.falls[player] / 2)
            bolted = bolted or any(observation.bolts)
            assert vector[at["scored_deals"]] == pytest.approx(min(observation.scored_deals, 4) / 4)
        state = state.apply(rng.choice(state.legal_actions()))
    assert bolted


def test_nobody_sitting_out_is_asked_to_act() -> None:
    """A four-seat match: the agent selected is never the deal's sitter, each seat sits out in
    turn, and the rewards add up to the final scores."""
    env = pettingzoo_env("polish-4")
    sitters = set()

    def asked(agent: str, observation: Any) -> None:
        state = env.table.state
        sitters.add(state.sitter)
        assert agent != f"seat_{state.sitter}"
        assert observation["action_mask"].any()

    totals = play_out(env, 2, asked)
    assert sitters == {0, 1, 2, 3}
    assert list(totals.values()) == list(env.table.state.result.scores)


def test_a_house_rules_table_plays_through_thrown_in_deals() -> None:
    """Deals thrown in (as dealt) are skipped by the game itself; a single deal thrown in as
    dealt is dealt again, so every episode has a decision in it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo_env(HOUSE), num_cycles=300)
        api_test(pettingzoo_env(HOUSE, single_deal=True), num_cycles=300)
        check_env(gym_env(HOUSE, single_deal=True), skip_render_check=True)
    match = pettingzoo_env(HOUSE)
    totals = play_out(match, 3)
    deals = match.table.state.deals
    assert any(deal.thrown_in is not None for deal in deals)
    assert any(deal.thrown_in is None for deal in deals)
    assert list(totals.values()) == list(match.table.state.result.scores)
    single = gym_env(HOUSE, single_deal=True)
    for seed in range(5):
        observation, _ = single.reset(seed=seed)
        assert observation["action_mask"].any()
        assert single.table.state.deals == ()


def test_a_single_four_seat_deal_leaves_the_learner_in_play() -> None:
    """In Polish rules the dealer sits out, so seat 0 learns in deals dealt by seat 1."""
    env = gym_env("polish-4", seat=0, single_deal=True)
    observation, _ = env.reset(seed=1)
    assert (env.table.state.dealer, env.table.state.sitter) == (1, 1)
    assert observation["action_mask"].any()
    assert gym_env("russian-4", seat=0, single_deal=True).dealer == 0
    assert gym_env("russian-4", seat=3, single_deal=True).dealer == 1


def test_the_learner_sits_out_deals_of_a_four_seat_match() -> None:
    """The bots play the deals the learner sits out; its rewards add up to its score."""
    env = gym_env("russian-4", seat=2, opponents=["random"] * 3)
    observation, _ = env.reset(seed=5)
    rng = random.Random(5)
    total, done = 0.0, False
    deals_sat_out: set[int] = set()
    while not done:
        state = env.table.state
        assert state.player == 2
        deals_sat_out.update(deal.number for deal in state.deals if deal.dealer == 3)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, _, _ = env.step(action)
        total += reward
    assert deals_sat_out
    assert total == env.table.state.result.scores[2]


@pytest.mark.parametrize(
    ("rules", "players", "expected"),
    [
        ("thousand", 2, Rules.preset("polish-2p")),
        ("thousand", None, Rules.preset("russian")),
        ("1000?", None, bluff.Rules(players=4)),
        ("bluff", 3, bluff.Rules(players=3)),
    ],
)
def test_a_game_named_plays_its_default_rules(
    rules: str, players: int | None, expected: Rules | bluff.Rules
) -> None:
    """An environment given a game's name plays that game's default rules for its seats."""
    assert SeatEnv(rules=rules, players=players).table.rules == expected
