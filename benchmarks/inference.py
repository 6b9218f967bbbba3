"""How well a seat can tell where the cards it has not seen are: the baselines a learned model of
card locations has to beat.

Deals of ``--rules`` are played by ``greedy`` in every seat (a single deal each, from seeds
``--seed`` on, which nothing is tuned on). At every decision of the trick play, for the seat to
act, each card that is neither in its hand nor played yet is placed by each predictor: in one of
the other seats' hands, or elsewhere (the talon, the musik, the cards laid aside). Four
predictors are measured against where the card really is:

* ``uniform``: each place in proportion to the cards it holds, knowing nothing else;
* ``deductions``: the worlds today's determiniser draws (the rules' deductions from the bids,
  the talon, the exchange and the play), the share of ``--worlds`` worlds that put the card in
  each place (with half a world added to every place, so that nothing has probability 0);
* ``search``: the same with the worlds the search bots draw, which also read the other seats'
  bids (a deal where a seat did not bid as ``greedy`` would have counts for a fifth);
* ``learned``: the same with the worlds ``pimc(worlds=learned)`` draws, weighed by the shipped
  model of where unseen cards lie (:mod:`thousand.bots.card_places`).

Printed per predictor: the mean log-likelihood of the true places (nats per card, higher is
better), the share of cards whose likeliest place is the true one, and the cards scored.

With ``--rules bluff`` it measures 1000? for four instead: at every decision where the seat to
act may challenge a face-down card, whether that card is a bluff, by ``base rate`` (the share
of bluffs among such cards in ``--deals`` other games, the first ones) and by ``deductions``
(the share of the determiniser's worlds in which it is one).

    python benchmarks/inference.py [--deals 100] [--worlds 100] [--rules russian|bluff]
        [--seed 1000]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Iterator
from typing import cast

from thousand import Rules, bluff
from thousand.bluff.challenge import is_honest
from thousand.bots import bluff_odds, card_places
from thousand.bots.greedy import GreedyPlayer
from thousand.bots.search import ThousandSearch
from thousand.classic.actions import Action
from thousand.classic.cards import FULL_MASK
from thousand.classic.inference import deduce
from thousand.classic.state import GameState, Phase
from thousand.games import BLUFF, THOUSAND

SMOOTHING = 0.5
"""Worlds added to every place before the shares are taken."""


def places(state: GameState) -> list[int]:
    """Each card's place in ``state``: the seat whose hand holds it, or ``players`` for
    anywhere else (the talon or musik, the cards laid aside, the tricks)."""
    players = state.rules.players
    where = [players] * 24
    for seat, mask in enumerate(state.hand_masks):
        for card in range(24):
            if mask >> card & 1:
                where[card] = seat
    return where


def decisions(rules: Rules, deals: int, seed: int) -> Iterator[tuple[GameState, int]]:
    """Every decision of the trick play of ``deals`` deals played by ``greedy``: the true state,
    and the seat to act."""
    for deal in range(deals):
        state = THOUSAND.start(rules, seed=seed + deal, layout=None, dealer=None, single_deal=True)
        players = [GreedyPlayer() for _ in range(rules.players)]
        for seat, player in enumerate(players):
            player.start(seat, rules, random.Random(seed + deal + seat))
        while not state.is_over:
            seat = state.player
            observation = THOUSAND.seen_from(state, seat)
            if state.phase is Phase.PLAY:
                yield state, seat
            state = state.apply(cast("Action", players[seat].act(observation)))


class Score:
    """The log-likelihood and the hits of one predictor."""

    def __init__(self) -> None:
        self.log_likelihood = 0.0
        self.hits = 0
        self.cards = 0

    def add(self, shares: list[float], truth: int) -> None:
        self.log_likelihood += math.log(shares[truth])
        self.hits += max(range(len(shares)), key=shares.__getitem__) == truth
        self.cards += 1


def measure(rules: Rules, deals: int, worlds: int, seed: int) -> dict[str, Score]:
    scores = {
        "uniform": Score(),
        "deductions": Score(),
        "search": Score(),
        "learned": Score(),
    }
    rng = random.Random(seed)
    players = rules.players
    searching = ThousandSearch()
    reading = ThousandSearch(card_places.shipped())
    for state, seat in decisions(rules, deals, seed):
        observation = THOUSAND.seen_from(state, seat)
        truth = places(state)
        unseen = FULL_MASK & ~state.hand_masks[seat] & ~deduce(observation).played
        cards = [card for card in range(24) if unseen >> card & 1]
        held = [0] * (players + 1)
        for card in cards:
            held[truth[card]] += 1
        for name, sample in (
            ("deductions", THOUSAND.worlds(observation)),
            ("search", searching.worlds(observation)),
            ("learned", reading.worlds(observation)),
        ):
            counts = [[SMOOTHING] * (players + 1) for _ in range(24)]
            for _ in range(worlds):
                world = places(sample(rng))
                for card in cards:
                    counts[card][world[card]] += 1
            for card in cards:
                drawn = sum(counts[card])
                scores[name].add([count / drawn for count in counts[card]], truth[card])
        for card in cards:
            uniform = [held[place] / len(cards) or 1e-9 for place in range(players + 1)]
            uniform[seat] = 1e-9  # never in the seat's own hand: it would know
            total = sum(uniform)
            scores["uniform"].add([share / total for share in uniform], truth[card])
    return scores


def bluff_decisions(games: int, seed: int) -> Iterator[bluff.State]:
    """Every state of ``games`` games of 1000? for four played by ``greedy`` in which the seat
    to act may challenge the face-down card on top."""
    for game in range(games):
        state = bluff.new_game(bluff.Rules(players=4), seed=seed + game)
        players = [GreedyPlayer() for _ in range(4)]
        for seat, player in enumerate(players):
            player.start(seat, state.rules, random.Random(seed + game + seat))
        while not state.is_over:
            observation = state.observation(state.player)
            if any(isinstance(action, bluff.Challenge) for action in observation.legal_actions):
                yield state
            state = state.apply(cast("bluff.Action", players[state.player].act(observation)))


def measure_bluffs(games: int, worlds: int, seed: int) -> dict[str, Score]:
    """Whether each face-down card a seat may challenge is a bluff, by the base rate learned
    from other games and by the determiniser's worlds."""
    learned = [not is_honest(state) for state in bluff_decisions(games, seed + games)]
    rate = (sum(learned) + SMOOTHING) / (len(learned) + 2 * SMOOTHING)
    scores = {"base rate": Score(), "deductions": Score(), "learned": Score()}
    rng = random.Random(seed)
    model = bluff_odds.shipped().for_rules(bluff.Rules(players=4))
    assert model is not None
    for state in bluff_decisions(games, seed):
        truth = int(not is_honest(state))
        scores["base rate"].add([1 - rate, rate], truth)
        observation = state.observation(state.player)
        sample = BLUFF.worlds(observation)
        bluffs = sum(not is_honest(sample(rng)) for _ in range(worlds))
        share = (bluffs + SMOOTHING) / (worlds + 2 * SMOOTHING)
        scores["deductions"].add([1 - share, share], truth)
        reading = bluff_odds.read(observation)
        if reading is not None:
            share = model.chance(reading)
        scores["learned"].add([1 - share, share], truth)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--rules", default="russian")
    parser.add_argument("--seed", type=int, default=1000)
    options = parser.parse_args()
    began = time.perf_counter()
    if options.rules == "bluff":
        scores = measure_bluffs(options.deals, options.worlds, options.seed)
    else:
        scores = measure(Rules.preset(options.rules), options.deals, options.worlds, options.seed)
    print(f"{'predictor':<12} {'nats/card':>10} {'likeliest right':>16} {'cards':>8}")
    for name, score in scores.items():
        print(
            f"{name.replace(' ', '-'):<12} {score.log_likelihood / score.cards:>10.3f} "
            f"{score.hits / score.cards:>16.1%} {score.cards:>8}"
        )
    print(f"({options.deals} deals of {options.rules}, {time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
