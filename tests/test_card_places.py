"""The learned readings of hidden cards. Thousand: the facts the card-places model reads in a
written deal, placements drawn in proportion to card weights, the determiniser following an
affinity, a shortened training run that repeats bit for bit, the shipped models,
``pimc(worlds=...)`` and the ``train-inference`` command. 1000?: the bluff model's reading of a
written climb, its training and shipped models, and the weights pimc gives its worlds.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support import play
from tests.test_bluff_climb import THREE, act, deal
from tests.test_cli import run_installed
from thousand import BotSpecError, Card, Determiniser, Layout, Rules, bluff, load_player, new_deal
from thousand.bluff.challenge import is_honest
from thousand.bots import IsmctsPlayer, PimcPlayer, bluff_strategy
from thousand.bots.bluff_odds import FEATURES as BLUFF_FEATURES
from thousand.bots.bluff_odds import BluffOddsModels, read
from thousand.bots.bluff_odds import Reading as BluffReading
from thousand.bots.bluff_odds import shipped as shipped_bluffs
from thousand.bots.bluff_odds import train as train_bluffs
from thousand.bots.card_places import (
    FEATURES,
    CardPlaces,
    CardPlacesModels,
    facts,
    shipped,
    train,
)
from thousand.bots.search import OTHERS_STRAY, searches_for_worlds
from thousand.classic.sampling import NoPlacement, Placement, WeightedPlacement
from thousand.classic.state import GameState
from thousand.errors import ModelError
from thousand.games import BLUFF, THOUSAND
from tournament.cli import app

runner = CliRunner()
RUSSIAN = Rules.preset("russian")
SHORT = 20
"""Deals in a shortened training run."""


def first_trick() -> GameState:
    """Russian, seat 0 dealing: seat 1 holds the opening 100 as both others pass, takes the
    talon JH 9H TH, gives JH to seat 0 and 9H to seat 2 and keeps TH; it leads AS, seat 2 (no
    spade) discards 9C, seat 0 follows with 9S."""
    layout = Layout(
        hands=["KS QS JS 9S AC KC KD", "AH KH QH AD TD AS TS", "JD QD 9D QC JC TC 9C"],
        talon="JH 9H TH",
    )
    state = new_deal(RUSSIAN, layout=layout, dealer=0)
    state = play(state, "pass", "pass", "give JH 0", "give 9H 2", "contract 100")
    return play(state, "play AS", "play 9C", "play 9S")


def named(found: tuple[int, ...]) -> set[str]:
    return {FEATURES[index] for index in found}


def index(text: str) -> int:
    return Card.parse(text).index


@pytest.fixture(scope="module")
def short_run() -> CardPlaces:
    return train(RUSSIAN, seed=5, deals=SHORT)


# What the model reads


def test_the_facts_of_a_written_deal() -> None:
    """Seen by seat 2: seat 0 followed the declarer's ace with its nine, below cards that could
    not have won either; the declarer, holding the opening bid made for it (which says nothing
    of its hand), led the ace above the rest of the spades; the talon's ten, kept by the
    declarer, may be the card seat 0 got unseen (as may the king of spades)."""
    found = facts(first_trick().observation(2))
    king = found.cards[index("KS")]
    assert named(king[0]) == {
        "defender: king",
        "no bid: king",
        "no bid: king of a marriage still possible",
        "played one of its suit: king",
        "defender followed lower where it would not have won: king",
        "was given a card unseen: king",
    }
    assert named(king[1]) == {
        "declarer: king",
        "no bid: king",
        "no bid: king of a marriage still possible",
        "played one of its suit: king",
        "declarer led its suit: king",
        "declarer led a higher card of its suit: king",
    }
    ten = found.cards[index("TH")]
    assert "was in the talon: ten" in named(ten[1])
    assert {"was in the talon: ten", "was given a card unseen: ten"} <= named(ten[0])
    # Fourteen cards are unseen by seat 2, seven in each other hand and none elsewhere.
    assert found.room == {0: 7, 1: 7}
    assert found.hidden == 0
    assert len(found.cards) == 14


def test_a_seat_that_showed_out_of_a_suit_gets_no_facts_for_it() -> None:
    """Seen by seat 0, seat 2 (which discarded on a spade) may hold no spade: the one unseen
    spade has facts for the declarer only, a club for both."""
    found = facts(first_trick().observation(0))
    assert index("AS") not in found.cards  # played
    assert set(found.cards[index("TS")]) == {1}
    assert set(found.cards[index("QC")]) == {1, 2}


def test_a_bid_and_a_broken_marriage() -> None:
    """Seat 2 bid 120 over the opening: its kings and queens of a marriage still possible carry
    that bid's fact; of the spade marriage, whose queen seat 1 holds, they do not."""
    layout = Layout(
        hands=["AS TS KS AC TC KC QC", "9S JS QS 9C JC 9D JD", "AH TH KH QH AD TD KD"],
        talon="QD JH 9H",
    )
    state = play(new_deal(RUSSIAN, layout=layout, dealer=0), "bid 120")
    found = facts(state.observation(1))
    assert "bid to 125: king of a marriage still possible" in named(found.cards[index("KH")][2])
    assert "bid to 125: king" in named(found.cards[index("KS")][2])
    assert not any("marriage" in fact for fact in named(found.cards[index("KS")][2]))
    # Before the exchange three unseen cards lie in the talon.
    assert found.hidden == 3


# Placements drawn by weight


def test_weighted_placements_are_drawn_in_proportion_to_their_weight() -> None:
    """Four cards into two places of two: each of the six placements comes up in proportion to
    the product of its cards' weights (fixed seed, tolerance of three standard deviations)."""
    weights = [[1.0, 1.0] for _ in range(24)]
    weights[0] = [6.0, 1.0]
    weights[1] = [1.0, 3.0]
    weights[2] = [0.5, 2.0]
    placement = WeightedPlacement(0b1111, [2, 2], [0b1111, 0b1111], weights)
    exact: dict[int, float] = {}
    for first in itertools.combinations(range(4), 2):
        chosen = sum(1 << card for card in first)
        weight = 1.0
        for card in range(4):
            weight *= weights[card][0 if chosen >> card & 1 else 1]
        exact[chosen] = weight
    total = sum(exact.values())
    draws = 20_000
    rng = random.Random(3)
    counts = Counter(placement.sample(rng)[0] for _ in range(draws))
    assert set(counts) == set(exact)
    for chosen, weight in exact.items():
        share = weight / total
        spread = 3 * (share * (1 - share) / draws) ** 0.5
        assert abs(counts[chosen] / draws - share) < spread, (bin(chosen), counts[chosen])


def test_weighted_placements_keep_the_sizes_and_the_allowed_places() -> None:
    weights = [[1.0, 50.0, 1.0] for _ in range(24)]
    allowed = [0b111111, 0b000111, 0b111000]
    placement = WeightedPlacement(0b111111, [3, 2, 1], allowed, weights)
    rng = random.Random(1)
    for _ in range(200):
        places = placement.sample(rng)
        assert [place.bit_count() for place in places] == [3, 2, 1]
        assert all(place & ~mask == 0 for place, mask in zip(places, allowed, strict=True))
        assert places[0] | places[1] | places[2] == 0b111111
    with pytest.raises(NoPlacement):
        WeightedPlacement(0b111, [1, 1], [0b111, 0b111], weights)
    with pytest.raises(NoPlacement):
        WeightedPlacement(0b11, [1, 1], [0b11, 0b00], weights)


class Draws(random.Random):
    """A generator whose ``random()`` gives the listed values in turn."""

    def __init__(self, *draws: float) -> None:
        super().__init__(0)
        self._draws = iter(draws)

    def random(self) -> float:
        return next(self._draws)


@pytest.mark.parametrize(
    ("draws", "places"),
    [
        ((0.0, 0.0, 0.0), [0b100, 0b010, 0b001]),
        ((0.5, 0.5, 0.5), [0b001, 0b100, 0b010]),
        ((0.9, 0.1, 0.0), [0b010, 0b001, 0b100]),
    ],
)
def test_a_weighted_draw_takes_the_place_whose_share_holds_it(
    draws: tuple[float, ...], places: list[int]
) -> None:
    """Cards 2, 1, 0 (placed in that order) into three places of one, every weight 1: each
    card's draw falls in one of the places' shares laid end to end, each share half-open, so a
    draw on a boundary belongs to the later place (0.5 puts card 2 in the middle place, then
    card 1, between places 0 and 2, in place 2)."""
    weights = [[1.0, 1.0, 1.0] for _ in range(24)]
    placement = WeightedPlacement(0b111, [1, 1, 1], [0b111, 0b111, 0b111], weights)
    assert placement.sample(Draws(*draws)) == places


def test_a_draw_rounded_past_the_last_share_goes_to_a_place_that_can_be_filled() -> None:
    """Card 2 (placed first) may go anywhere, card 1 only to places 0 and 1, card 0 only to
    place 2, so card 2 cannot go to place 2. With card 2 weighing 0.7 in place 0 and 3 in place
    1, the largest draw below 1 is left, after rounding, at 3 past place 0's share: not below
    place 1's; place 1, the last place card 2 can take, gets it, and the placement is
    complete."""
    weights = [[1.0, 1.0, 1.0] for _ in range(24)]
    weights[2] = [0.7, 3.0, 1.0]
    placement = WeightedPlacement(0b111, [1, 1, 1], [0b110, 0b110, 0b101], weights)
    assert placement.sample(Draws(1 - 2**-53, 0.0, 0.0)) == [0b010, 0b100, 0b001]


def test_only_the_ratios_of_the_weights_count() -> None:
    """Every weight divided by 1024 (so every placement weighs far less than 1) draws the very
    placements the weights as they were draw with the same seed."""
    weights = [[1.0, 1.0] for _ in range(24)]
    weights[0] = [6.0, 1.0]
    weights[1] = [1.0, 3.0]
    weights[2] = [0.5, 2.0]
    small = [[weight / 1024 for weight in row] for row in weights]
    pool, sizes, allowed = 0b1111, [2, 2], [0b1111, 0b1111]
    plain, scaled = random.Random(4), random.Random(4)
    placement = WeightedPlacement(pool, sizes, allowed, weights)
    scaled_placement = WeightedPlacement(pool, sizes, allowed, small)
    for _ in range(50):
        assert scaled_placement.sample(scaled) == placement.sample(plain)


def test_weights_near_the_largest_float_still_draw_both_placements() -> None:
    """Two cards into two places of one, card 0 weighing 8e307 in either: the summed weight,
    1.6e308, is still a number, and card 0 goes to each place about half the time."""
    weights = [[1.0, 1.0] for _ in range(24)]
    weights[0] = [8e307, 8e307]
    placement = WeightedPlacement(0b11, [1, 1], [0b11, 0b11], weights)
    rng = random.Random(5)
    first = sum(placement.sample(rng)[0] == 0b01 for _ in range(200))
    assert 70 < first < 130


def test_weighted_placement_errors_are_exact() -> None:
    """Cards and places that do not add up, and places no placement fills (a card allowed in
    neither place of one, or a negative size), are refused with these messages, the latter as
    the uniform :class:`Placement` refuses it."""
    weights = [[1.0, 1.0] for _ in range(24)]
    with pytest.raises(NoPlacement) as error:
        WeightedPlacement(0b111, [1, 1], [0b111, 0b111], weights)
    assert str(error.value) == "3 cards for 2 places"
    none = "no placement satisfies the constraints"
    with pytest.raises(NoPlacement) as error:
        WeightedPlacement(0b11, [1, 1], [0b11, 0b00], weights)
    assert str(error.value) == none
    with pytest.raises(NoPlacement) as error:
        WeightedPlacement(0b1, [2, -1], [0b1, 0b1], weights)
    assert str(error.value) == none
    with pytest.raises(NoPlacement) as error:
        Placement(0b1, [2, -1], [0b1, 0b1])
    assert str(error.value) == none


def test_the_determiniser_follows_an_affinity_within_the_rules() -> None:
    """Seen by seat 2, the talon's ten may be with the declarer or with seat 0: a weight of a
    thousand puts it almost always where it weighs, and every world still looks to seat 2 as
    the deal does; seat 2 itself, void in spades, never gets one however its spades weigh."""
    observation = first_trick().observation(2)
    ten = index("TH")
    for seat in (0, 1):
        affinity = [[1.0, 1.0, 1.0] for _ in range(24)]
        affinity[ten][seat] = 1000.0
        determiniser = Determiniser(observation, affinity)
        rng = random.Random(seat)
        worlds = [determiniser.sample(rng) for _ in range(100)]
        assert all(world.observation(2) == observation for world in worlds)
        held = sum(world.hand_masks[seat] >> ten & 1 for world in worlds)
        assert held >= 95
    seen_by_zero = first_trick().observation(0)
    affinity = [[1.0, 1.0, 1000.0] for _ in range(24)]
    determiniser = Determiniser(seen_by_zero, affinity)
    rng = random.Random(2)
    spades = sum(Card.parse(rank + "S").bit for rank in "9JQKTA")
    for _ in range(50):
        assert determiniser.sample(rng).hand_masks[2] & spades == 0


# Training and the shipped models


def test_a_training_run_repeats_bit_for_bit(short_run: CardPlaces) -> None:
    again = train(RUSSIAN, seed=5, deals=SHORT)
    assert again == short_run
    assert short_run.deals == SHORT
    assert short_run.cards > 1000
    assert train(RUSSIAN, seed=6, deals=SHORT).weights != short_run.weights
    with pytest.raises(ValueError, match="at least 1 deal"):
        train(RUSSIAN, seed=1, deals=0)


def test_models_round_trip_through_their_file(short_run: CardPlaces, tmp_path: Path) -> None:
    models = CardPlacesModels(seed=5, models=(short_run,))
    path = tmp_path / "places.json"
    path.write_text(models.to_json(), encoding="utf-8")
    assert CardPlacesModels.load(path) == models
    assert CardPlacesModels.load(path).to_json() == models.to_json()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": 9, "seed": 1, "models": []}', "format 9"),
        ("[1, 2]", "not a file of card-places models"),
        (
            '{"format": 1, "seed": 1, "models": [{"rules": {}, "deals": 1, "cards": 1,'
            ' "weights": {"no such fact": 1.0}}]}',
            "no fact 'no such fact'",
        ),
    ],
)
def test_a_bad_model_file_is_refused_in_one_line(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ModelError, match=message) as caught:
        CardPlacesModels.load(path)
    assert "\n" not in str(caught.value)
    with pytest.raises(ModelError, match="cannot read"):
        CardPlacesModels.load(tmp_path / "missing.json")


def test_the_shipped_models_cover_every_preset_and_read_the_habits_of_greedy() -> None:
    """One model per preset; in the Russian one a high bid makes a king of a marriage still
    possible likelier, and a defender that followed low under a trick it could have taken
    from an opponent likely lacks the ace there."""
    models = shipped()
    assert [model.rules for model in models.models] == [
        Rules.preset(name) for name in Rules.preset_names()
    ]
    russian = models.for_rules(RUSSIAN)
    assert russian is not None
    weight = dict(zip(FEATURES, russian.weights, strict=True))
    assert weight["bid to 175: king of a marriage still possible"] > 0
    assert weight["defender followed lower where it would have beaten an opponent: ace"] < 0


def test_the_shipped_russian_model_comes_from_the_documented_command() -> None:
    """``thousand train-inference --seed 1 --deals 3000`` gives the shipped Russian model bit for
    bit."""
    russian = shipped().for_rules(RUSSIAN)
    assert russian is not None
    assert shipped().seed == 1
    assert russian.deals == 3000
    assert train(RUSSIAN, seed=1, deals=3000) == russian


# The bots


def test_the_search_bots_draw_their_worlds_as_they_are_told(
    short_run: CardPlaces, tmp_path: Path
) -> None:
    path = tmp_path / "places.json"
    path.write_text(CardPlacesModels(seed=5, models=(short_run,)).to_json(), encoding="utf-8")
    state = first_trick()
    for bot in (PimcPlayer, IsmctsPlayer):
        for worlds in ("rules", "learned", str(path)):
            player = bot(steps=200, worlds=worlds)
            player.start(1, RUSSIAN, random.Random(0))
            action = player.act(state.observation(1))
            assert action in state.observation(1).legal_actions
    unreadable = "cannot read the card-places or bluff models no/such.json: No such file"
    with pytest.raises(BotSpecError, match=re.escape(unreadable)) as caught:
        load_player("pimc(worlds=no/such.json)")
    assert "\n" not in str(caught.value)
    neither = tmp_path / "neither.json"
    neither.write_text('{"format": 1, "seed": 1, "models": [{"deals": 1}]}', encoding="utf-8")
    with pytest.raises(BotSpecError, match="holds neither card-places models") as caught:
        load_player(f"pimc(worlds={neither})")
    assert "\n" not in str(caught.value)


# The command


def test_train_inference_command_saves_models(tmp_path: Path) -> None:
    out = tmp_path / "places.json"
    arguments = ["train-inference", "-r", "russian", "--deals", "3", "--seed", "5"]
    result = runner.invoke(app, [*arguments, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "russian: 3 deals," in result.output
    models = CardPlacesModels.load(out)
    assert [model.rules for model in models.models] == [RUSSIAN]
    assert models.seed == 5
    assert models.models[0] == train(RUSSIAN, seed=5, deals=3)


def test_installed_train_inference_command_and_its_errors(tmp_path: Path) -> None:
    out = tmp_path / "places.json"
    result = run_installed("train-inference", "-r", "polish-2p", "--deals", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert json.loads(out.read_text("utf-8"))["models"][0]["deals"] == 2
    bad = run_installed("train-inference", "-r", "no-such-rules", "--out", str(out))
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1
    assert "no-such-rules" in bad.stderr
    missing = run_installed("train-inference", "--deals", "2", "--out", "no/such/dir/x.json")
    assert missing.returncode == 2
    assert "no such folder" in missing.stderr


# 1000?: whether a face-down card is a bluff


def test_the_reading_of_a_face_down_card() -> None:
    """Seat 0 plays 06 and seat 1 hides a card. Seat 2 has not seen 16, 25, 33, 40, 41, 44, 47,
    48 and the 1000; of those only 16, 40 and the 1000 beat 06, so blindly the card is a bluff
    six times in nine. Seat 1 itself, and anyone once the card is believed, has nothing to
    read."""
    hidden = act(deal(*THREE), "play 06", "hide 25")
    reading = read(hidden.observation(2))
    assert reading is not None
    assert reading.blind == pytest.approx(6 / 9)
    assert {BLUFF_FEATURES[index] for index in reading.facts} == {
        "holds two cards after it",
        "on a card 1 to 10",
        "the second card of the climb",
        "blind share three to four fifths",
    }
    assert read(hidden.observation(1)) is None
    assert read(act(hidden, "believe").observation(0)) is None
    assert read(act(deal(*THREE), "play 06").observation(1)) is None


def test_bluff_models_train_repeatably_and_are_shipped_for_two_to_six_players() -> None:
    four = bluff.Rules(players=4)
    model = train_bluffs(four, seed=3, games=40)
    assert model == train_bluffs(four, seed=3, games=40)
    assert model.cards > 50
    models = shipped_bluffs()
    assert [odds.players for odds in models.models] == [2, 3, 4, 5, 6]
    assert models.for_rules(four) is not None
    assert models.for_rules(bluff.Rules(players=4, hand_size=5)) is None
    again = BluffOddsModels.from_json(models.to_json())
    assert again == models


def test_the_shipped_bluff_model_reads_a_last_card_hidden_as_likelier_a_bluff() -> None:
    """Greedy hides its last card whatever it is (a believed last card wins): the model makes a
    card hidden with nothing left in hand likelier a bluff than the same card from a full hand."""
    model = shipped_bluffs().for_rules(bluff.Rules(players=4))
    assert model is not None
    facts = (
        "on a card 21 to 30",
        "the second card of the climb",
        "blind share two to three fifths",
    )
    base = tuple(BLUFF_FEATURES.index(fact) for fact in facts)
    last = BluffReading(0.5, (BLUFF_FEATURES.index("holds no card after it"), *base))
    full = BluffReading(0.5, (BLUFF_FEATURES.index("holds five to seven cards after it"), *base))
    assert model.chance(last) > model.chance(full)


def test_pimc_weighs_worlds_by_the_bluff_model() -> None:
    """Answering a face-down card, learned worlds count a bluff as the model's chance against the
    blind share; plain worlds as greedy would have hidden."""
    rules = bluff.Rules(players=4)
    state = bluff.new_game(rules, seed=11)
    while state.phase is not bluff.Phase.RESPONSE or read(state.observation(state.player)) is None:
        state = state.apply(bluff_strategy.choose(state.observation(state.player)))
    observation = state.observation(state.player)
    reading = read(observation)
    model = shipped_bluffs().for_rules(rules)
    assert reading is not None
    assert model is not None
    learned = searches_for_worlds("learned")[BLUFF].weighing(observation)
    chance = model.chance(reading)
    expected = (1 - chance) / (1 - reading.blind) if is_honest(state) else chance / reading.blind
    assert learned(state) == pytest.approx(expected)
    plain = searches_for_worlds("rules")[BLUFF].weighing(observation)
    assert plain(state) in (1.0, OTHERS_STRAY)


def test_train_bluffs_command_and_a_file_of_either_kind_for_pimc(tmp_path: Path) -> None:
    out = tmp_path / "bluffs.json"
    result = runner.invoke(app, ["train-bluffs", "-p", "3", "--games", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 players: 4 games," in result.output
    models = BluffOddsModels.load(out)
    assert models.models == (train_bluffs(bluff.Rules(players=3), seed=1, games=4),)
    searches = searches_for_worlds(str(out))
    assert searches[BLUFF].bluff_odds == models
    assert searches[THOUSAND].card_places == shipped()
    bad = run_installed("train-bluffs", "-p", "9", "--out", str(out))
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1
    assert "--players" in bad.stderr
