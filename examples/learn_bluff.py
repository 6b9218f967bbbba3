"""A policy that learns 1000? from scratch, in plain numpy: REINFORCE on the Gymnasium
environment, one seat against a bot that plays at random.

The policy is linear: a score for every action from the seat's encoded observation, a softmax
over the legal actions only (the action mask). After each game every decision of the game is
made more likely if the game went better than usual (the reward is minus the cards left in hand
at the end, 0 for the winner) and less likely if it went worse.

Usage::

    python examples/learn_bluff.py                  # 5,000 games of training, about 15 seconds
    python examples/learn_bluff.py --games 300 --evaluate 100

Needs the rl extra: ``python -m pip install ".[rl]"`` in a checkout of thousand. Prints how
often the policy beats the random bot before and after training.
"""

from __future__ import annotations

import argparse

import numpy as np
import numpy.typing as npt

from thousand.rl import SeatEnv, gym_env

Array = npt.NDArray[np.float64]


class LinearPolicy:
    """Action scores ``observation @ weights + bias``, a softmax over the legal ones."""

    def __init__(self, observations: int, actions: int) -> None:
        self.weights = np.zeros((observations, actions))
        self.bias = np.zeros(actions)

    def probabilities(self, observation: Array, mask: Array) -> Array:
        scores = observation @ self.weights + self.bias
        scores = np.where(mask > 0, scores, -np.inf)
        scores -= scores.max()
        exponentials = np.exp(scores)
        return exponentials / exponentials.sum()  # type: ignore[no-any-return]

    def choose(self, observation: Array, mask: Array, rng: np.random.Generator) -> int:
        return int(rng.choice(len(mask), p=self.probabilities(observation, mask)))

    def learn(self, steps: list[tuple[Array, Array, int]], advantage: float, rate: float) -> None:
        """Move every decision of a game along the gradient of its log-probability, scaled by
        how much better than usual the game went."""
        for observation, mask, action in steps:
            gradient = -self.probabilities(observation, mask)
            gradient[action] += 1.0
            self.weights += rate * advantage * np.outer(observation, gradient)
            self.bias += rate * advantage * gradient


def play(
    env: SeatEnv, policy: LinearPolicy, rng: np.random.Generator, seed: int
) -> tuple[float, list[tuple[Array, Array, int]]]:
    """One game; its reward and the policy's decisions."""
    observation, _ = env.reset(seed=seed)
    steps: list[tuple[Array, Array, int]] = []
    total, done = 0.0, False
    while not done:
        vector = observation["observation"].astype(np.float64)
        mask = observation["action_mask"].astype(np.float64)
        action = policy.choose(vector, mask, rng)
        steps.append((vector, mask, action))
        observation, reward, done, _, _ = env.step(action)
        total += reward
    return total, steps


def win_rate(env: SeatEnv, policy: LinearPolicy, games: int, seed: int) -> float:
    """The share of ``games`` the policy wins (ends with no card left)."""
    rng = np.random.default_rng(seed)
    wins = sum(play(env, policy, rng, seed + game)[0] == 0 for game in range(games))
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="training games")
    parser.add_argument("--evaluate", type=int, default=400, help="games to measure the win rate")
    parser.add_argument("--rate", type=float, default=0.05, help="learning rate")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = gym_env("bluff", players=2, opponents=["random"], normalise=True)
    policy = LinearPolicy(env.table.encoder.size, env.table.codec.size)
    before = win_rate(env, policy, args.evaluate, 10_000_000)
    print(f"1000? for 2 against random: {args.games} games of training, seed {args.seed}")
    print(f"wins before training: {before:.0%}")
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    for game in range(args.games):
        reward, steps = play(env, policy, rng, args.seed * 1_000_000 + game)
        policy.learn(steps, reward - baseline, args.rate)
        baseline += 0.05 * (reward - baseline)
    after = win_rate(env, policy, args.evaluate, 10_000_000)
    print(f"wins after training: {after:.0%}")


if __name__ == "__main__":
    main()
