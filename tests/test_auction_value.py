"""The learned bidding models: their features on written hands, a shortened training run that
repeats bit for bit, the shipped models for every preset, how ``pimc`` starts a bid from them and
spends its larger budget on the decisions that shape a deal, and the ``train-bidding`` command.

Deals are dealt from written layouts with seat 0 dealing, so seat 2 speaks first.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_cli import run_installed
from thousand import Bid, GameState, Layout, Pass, Phase, Rules, new_deal, parse_action
from thousand.bots import PimcPlayer, search
from thousand.bots.auction_value import (
    FEATURES,
    AuctionValue,
    AuctionValues,
    features,
    shipped,
)
from thousand.errors import ModelError
from tournament.cli import app

runner = CliRunner()
RUSSIAN = Rules.preset("russian")
HANDS = [
    "AS TS KS AC TC KC QC",
    "9S JS QS 9C JC 9D JD",
    "AH TH KH QH AD TD KD",
]
"""Seat 2, first to speak, holds the hearts marriage, two aces and two tens."""
SHORT = 30
"""Decisions in a shortened training run."""


def auction() -> GameState:
    return new_deal(RUSSIAN, layout=Layout(hands=HANDS, talon="QD JH 9H"), dealer=0)


def constant_model(advantage: float, worlds: float, rules: Rules = RUSSIAN) -> AuctionValues:
    """Models that value a raise at ``advantage`` whatever the hand."""
    weights = (advantage,) + (0.0,) * (len(FEATURES) - 1)
    model = AuctionValue(rules=rules, weights=weights, decisions=1, worlds=worlds)
    return AuctionValues(seed=0, models=(model,))


@pytest.fixture(scope="module")
def short_run() -> AuctionValue:
    return search.train_bidding(RUSSIAN, seed=5, decisions=SHORT)


# Features


def test_features_of_a_written_hand() -> None:
    """The marriage of hearts (100), two aces; nobody has spoken; the greedy evaluation less the
    bid of 105, in tens."""
    from thousand.bots.thousand_strategy import bidding_estimate
    from thousand.classic.cards import mask_of

    observation = auction().observation(2)
    values = dict(zip(FEATURES, features(observation, 105), strict=True))
    margin = (bidding_estimate(RUSSIAN, mask_of(observation.hand)) - 105) / 10
    assert values["constant"] == 1.0
    assert values["margin"] == pytest.approx(margin)
    assert values["margin above 0"] == pytest.approx(max(0.0, margin))
    assert values["bid above 100"] == pytest.approx(0.05)
    assert values["marriages held"] == 1.0
    assert values["aces held"] == 0.5
    assert values["passes so far"] == values["bids so far"] == 0.0


def test_features_count_the_passes_and_the_others_bids() -> None:
    state = auction()
    for text in ("bid 105", "pass"):
        state = state.apply(parse_action(text))
    values = dict(zip(FEATURES, features(state.observation(1), 110), strict=True))
    assert values["passes so far"] == 0.5
    assert values["bids so far"] == pytest.approx(1 / 3)


# Training


def test_a_shortened_training_run_repeats_bit_for_bit(short_run: AuctionValue) -> None:
    again = search.train_bidding(RUSSIAN, seed=5, decisions=SHORT)
    assert (
        AuctionValues(seed=5, models=(again,)).to_json()
        == AuctionValues(seed=5, models=(short_run,)).to_json()
    )
    assert short_run.rules == RUSSIAN
    assert short_run.decisions == SHORT
    assert len(short_run.weights) == len(FEATURES)
    assert short_run.worlds > 0


def test_another_seed_gives_another_model(short_run: AuctionValue) -> None:
    assert search.train_bidding(RUSSIAN, seed=6, decisions=SHORT).weights != short_run.weights


def test_too_few_decisions_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 26 decisions"):
        search.train_bidding(RUSSIAN, seed=1, decisions=10)


def test_models_round_trip_through_their_file(short_run: AuctionValue, tmp_path: Path) -> None:
    models = AuctionValues(seed=5, models=(short_run,))
    path = tmp_path / "bidding.json"
    path.write_text(models.to_json(), encoding="utf-8")
    assert AuctionValues.load(path) == models
    assert models.for_rules(RUSSIAN) == short_run
    assert models.for_rules(Rules.preset("polish")) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "not a file of bidding models"),
        ('{"format": 9, "seed": 1, "models": []}', "format 9"),
        ('{"format": 1, "seed": 1, "models": [{"rules": {}}]}', "not a bidding model"),
        ("{", "not a file of bidding models"),
    ],
)
def test_a_bad_model_file_is_one_clear_error(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "bidding.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ModelError, match=message) as caught:
        AuctionValues.load(path)
    assert "\n" not in str(caught.value)


def test_shipped_models_cover_every_preset() -> None:
    models = shipped()
    for name in Rules.preset_names():
        model = models.for_rules(Rules.preset(name))
        assert model is not None, name
        assert model.decisions >= 10_000
        assert model.worlds > 1


def test_the_shipped_model_values_a_strong_hand_above_a_weak_one() -> None:
    """The hearts marriage with aces and tens is a better raise than nines and jacks."""
    model = shipped().for_rules(RUSSIAN)
    assert model is not None
    state = auction()
    strong = model.advantage(state.observation(2), 105)
    weak = model.advantage(state.observation(1), 105)
    assert strong > weak + 0.5


# How pimc uses them


def test_pimc_starts_a_bid_from_the_model(tmp_path: Path) -> None:
    """Seat 0, after seat 2's pass: with a single playout against a model worth a thousand sampled
    deals, the model decides, a raise valued far above the pass is made and one far below is
    not."""
    state = auction()
    state = state.apply(Pass())
    for advantage, expected in ((5.0, Bid(105)), (-5.0, Pass())):
        path = tmp_path / f"{advantage}.json"
        path.write_text(constant_model(advantage, 1000.0).to_json(), encoding="utf-8")
        player = PimcPlayer(steps=1, deal_steps=1, bidding=str(path))
        seat = state.current_player
        player.start(seat, RUSSIAN, random.Random(0))
        assert player.act(state.observation(seat)) == expected


def test_pimc_without_a_model_for_the_rules_searches_alone(tmp_path: Path) -> None:
    """Models for other rules say nothing: the marriage bids as the search finds."""
    path = tmp_path / "polish.json"
    path.write_text(constant_model(-5.0, 1000.0, Rules.preset("polish")).to_json(), "utf-8")
    player = PimcPlayer(steps=300, bidding=str(path))
    player.start(2, RUSSIAN, random.Random(0))
    assert player.act(auction().observation(2)) == Bid(105)


def test_a_missing_model_file_is_refused_in_the_spec() -> None:
    from thousand import BotSpecError, load_player

    with pytest.raises(BotSpecError, match="cannot read the bidding models") as caught:
        load_player("pimc(bidding=no/such.json)")
    assert "\n" not in str(caught.value)


@pytest.fixture
def spent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Phase, int]]:
    """The phase of each decision pimc searches and the steps its budget counted."""
    counts: list[tuple[Phase, int]] = []
    original = PimcPlayer.search

    def counting(self: PimcPlayer, game: Any, observation: Any, choices: Any) -> object:
        answer = original(self, game, observation, choices)
        budget = self.deal_budget if game.shapes_deal(observation) else self.budget
        counts.append((observation.phase, budget.spent))
        return answer

    monkeypatch.setattr(PimcPlayer, "search", counting)
    return counts


def test_the_decisions_that_shape_a_deal_get_the_larger_budget(
    spent: list[tuple[Phase, int]],
) -> None:
    """Seat 2 opens 105 and the others pass: the cards it gives and its contract each spend about
    ``deal_steps``, its first card about ``steps``."""
    player = PimcPlayer(steps=40, deal_steps=400)
    player.start(2, RUSSIAN, random.Random(0))
    state = auction()
    state = state.apply(Bid(105))
    while state.phase is not Phase.PLAY or state.current_player != 2:
        seat = state.current_player
        legal = state.legal_actions()
        if seat == 2:
            answer = player.act(state.observation(seat))
        else:
            answer = Pass() if Pass() in legal else legal[0]
        state = state.apply(answer)  # type: ignore[arg-type]
    player.act(state.observation(2))
    assert state.declarer == 2
    phases = [phase for phase, _ in spent]
    assert phases == [Phase.EXCHANGE, Phase.EXCHANGE, Phase.CONTRACT, Phase.PLAY]
    assert all(count >= 400 for _, count in spent[:3])
    assert 40 <= spent[3][1] < 400


def test_by_default_a_decision_that_shapes_the_deal_gets_two_and_a_half_times_the_budget() -> None:
    player = PimcPlayer(steps=70, seconds=0.25)
    assert (player.deal_budget.steps, player.deal_budget.seconds) == (175, 0.625)
    assert PimcPlayer(steps=1).deal_budget.steps == 2
    default = PimcPlayer()
    assert (default.budget.steps, default.deal_budget.steps) == (3000, 7500)
    assert default.bluff_budget.steps == 1000
    assert PimcPlayer(steps=70).bluff_budget.steps == 70


@pytest.mark.parametrize("budget", [{"deal_steps": 0}, {"deal_seconds": -1.0}])
def test_an_empty_deal_budget_is_refused(budget: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="budget"):
        PimcPlayer(**budget)


def test_either_musik_is_taken_without_a_search() -> None:
    """Both musiki are unseen, so the first is as good as the other."""
    state = new_deal(Rules.preset("polish-2p"), seed=3)
    while state.phase is Phase.AUCTION:
        state = state.apply(Pass())
    assert state.phase is Phase.MUSIK
    observation = state.observation(state.current_player)
    assert (
        search.ThousandSearch().choices(observation, observation.legal_actions)
        == (observation.legal_actions[:1])
    )


# The command


def test_train_bidding_command_saves_models(tmp_path: Path) -> None:
    out = tmp_path / "bidding.json"
    result = runner.invoke(
        app,
        [
            "train-bidding",
            "--rules",
            "russian",
            "--decisions",
            str(SHORT),
            "--seed",
            "5",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "russian: 30 decisions, worth " in result.output
    models = AuctionValues.load(out)
    assert [model.rules for model in models.models] == [RUSSIAN]
    assert models.seed == 5


def test_installed_train_bidding_command_and_its_errors(tmp_path: Path) -> None:
    out = tmp_path / "bidding.json"
    result = run_installed(
        "train-bidding", "-r", "polish-2p", "--decisions", "26", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(out.read_text("utf-8"))["models"][0]["decisions"] == 26
    bad = run_installed("train-bidding", "-r", "no-such-rules", "--out", str(out))
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1
    assert "no-such-rules" in bad.stderr
    missing = run_installed("train-bidding", "--decisions", "26", "--out", "no/such/dir/x.json")
    assert missing.returncode == 2
    assert "no such folder" in missing.stderr
