"""Rate a bot of your own on the reference scale, from Python.

The bot below always takes the first legal action. It plays a table with ``random`` and
``greedy``, two bots of the ladder, every deal under every seating; the ratings are then read
with ``greedy``, the ladder's fixed point, held at its reference rating, so the bot's rating
can be set beside any other rating on that scale (``thousand ladder`` lists the ladder).

Usage::

    python examples/ladder_rating.py                 # 40 deals under every seating, seed 1
    python examples/ladder_rating.py --deals 200 --seed 7

``thousand ladder path/to/bot.py:Class`` does the same from the command line, against the whole
ladder.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import thousand
from thousand import Observation
from tournament.runner.ladder import reference_interval, reference_scale
from tournament.runner.options import Options, configure
from tournament.runner.run import run_tournament


class FirstLegal(thousand.SeatedPlayer[Observation]):
    """Always takes the first legal action: passes when it may, plays its lowest card."""

    def act(self, observation: Observation) -> object:
        return observation.legal_actions[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    spec = f"{Path(__file__).resolve()}:FirstLegal"
    config = configure(Options(specs=(spec, "random", "greedy"), deals=args.deals, seed=args.seed))
    scale = reference_scale(config)
    assert scale is not None, "random and greedy are bots of the ladder"
    anchor, ladder = scale
    summary = run_tournament(config, workers=1, anchor=anchor)
    print(
        f"first-legal bot, random and greedy: {args.deals} deals under every seating, "
        f"seed {args.seed}"
    )
    anchored = [entrant.spec for entrant in config.entrants if entrant.name in dict(anchor)]
    for standing in summary.standings:
        assert standing.rating is not None
        assert standing.rating_interval is not None
        if standing.name == config.entrants[0].name:
            low, high = reference_interval(
                standing.rating, standing.rating_interval, ladder, anchored
            )
            print(
                f"first-legal bot rates {standing.rating:.0f} (95% interval {low:.0f} to "
                f"{high:.0f}) on the reference scale of {ladder.title}"
            )
        else:
            rung = ladder.rung(standing.name)
            assert rung is not None
            print(
                f"{standing.name} rates {standing.rating:.0f} here; its reference rating is "
                f"{rung.rating:.0f}"
            )


if __name__ == "__main__":
    main()
