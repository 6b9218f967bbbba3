"""The ``ismcts`` bot: information-set Monte Carlo tree search, for both games.

One tree is grown over the decisions that follow, from its own seat's point of view. Each
iteration samples a full state consistent with what its seat has seen (see
:func:`thousand.determinise`), walks down the tree choosing among the actions legal in that world
by the UCB rule (each action's count of chances to be chosen stands in for the parent's visits,
since a different world allows different actions), adds one new action, plays the rest out with
the ``greedy`` strategy and credits the result to every seat's choices on the way. It then plays
the action chosen most often at the root.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from thousand.bots.search import Budget, Search, SearchPlayer, playout, searches_for_worlds
from thousand.games import ActionT as A
from thousand.games import ObservationT as O
from thousand.games import StateT as S

__all__ = ["IsmctsPlayer"]

DEFAULT_STEPS = 1000


class _Node:
    """An action in the tree: who took it, how often it was tried and available, its value."""

    __slots__ = ("available", "children", "player", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[object, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


class IsmctsPlayer(SearchPlayer):
    """Information-set Monte Carlo tree search over sampled worlds, with greedy playouts.

    Args:
        steps: simulated actions per decision (tree steps and playouts together).
        seconds: think this long per decision instead (decisions then depend on the machine);
            the first iteration is always finished, so a decision takes at least that long.
        exploration: the UCB constant; values are about -1 to 1.
        worlds: how Thousand worlds are drawn: ``"rules"`` (every deal the rules allow alike,
            but for the bids), ``"learned"`` (as the shipped learned model places the unseen
            cards), or a file of such models (``thousand train-inference``). Its tree counts
            every world alike, so the bluff model plays no part in 1000?.
    """

    def __init__(
        self,
        steps: int = DEFAULT_STEPS,
        seconds: float | None = None,
        exploration: float = 0.7,
        worlds: str = "rules",
    ) -> None:
        self.budget = Budget(steps, seconds)
        self.exploration = exploration
        self.searches = searches_for_worlds(worlds)

    def search(self, game: Search[S, O, A], observation: O, choices: Sequence[A]) -> A:
        """The root action tried most often."""
        sample = game.worlds(observation)
        rng = self.rng
        budget = self.budget
        exploration = self.exploration
        root = _Node(observation.seat)
        budget.start()
        while True:
            state = sample(rng)
            node = root
            path = []
            steps = 0
            while not state.is_over:
                legal = game.choices(state, state.legal_actions())
                children = node.children
                untried = [action for action in legal if action not in children]
                for action in legal:
                    child = children.get(action)
                    if child is not None:
                        child.available += 1
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    child = children[action] = _Node(state.player)
                    child.available = 1
                    path.append(child)
                    state = state.apply(action)
                    steps += 1
                    break
                best = None
                score = -math.inf
                for action in legal:
                    child = children[action]
                    value = child.total / child.visits + exploration * math.sqrt(
                        math.log(child.available) / child.visits
                    )
                    if value > score:
                        best, score = action, value
                node = children[best]
                path.append(node)
                state = state.apply(best)
                steps += 1
            end, more = playout(game, state, rng, observation.seat)
            values = game.values(end, observation)
            for child in path:
                child.visits += 1
                child.total += values[child.player]
            budget.spend(steps + more)
            if budget.used >= 1:
                break
        return max(choices, key=lambda action: _visits(root, action))


def _visits(root: _Node, action: object) -> int:
    child = root.children.get(action)
    return child.visits if child is not None else -1
