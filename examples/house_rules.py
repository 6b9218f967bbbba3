"""A home game: four friends at a table of four, one sitting out each deal, with bolts, the
samosval and four nines thrown in.

Usage::

    python examples/house_rules.py                  # russian-4 with house rules, seed 1
    python examples/house_rules.py --seed 7 --deals 30

Starts from the ``russian-4`` preset, switches house rules on the way a rules file would, lets
four ``greedy`` bots play, and prints one line per deal: who dealt and who sat out, the sitter's
bonus, the deal scores, the match scores and the bolts counted, and any throw-in.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import thousand
from thousand import MatchResult, Rules

HOUSE = {
    "preset": "russian-4",
    "bolts": 3,
    "samosval": [555, -555],
    "redeal_nines": "dealt",
    "barrel_reset_falls": 3,
}
"""The table's agreement, as a rules file would hold it."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=20, help="deal limit (default 20)")
    options = parser.parse_args(argv)
    rules = Rules.from_dict({**HOUSE, "max_deals": options.deals})
    print(f"russian-4 with bolts, samosval, four nines and the third fall, seed {options.seed}")
    outcome = thousand.play(["greedy"] * 4, rules, seed=options.seed)
    assert isinstance(outcome.record, thousand.Record)
    final = thousand.replay(outcome.record)
    print("deal  dealer  sits out  bonus  deal scores           scores                bolts")
    for deal in final.deals:
        sitter = deal.layout.sitter
        if deal.thrown_in is not None:
            print(f"{deal.number:4}  {deal.dealer:6}  {sitter:8}  {deal.thrown_in}")
            continue
        bonus = deal.deal_scores[sitter] if sitter is not None else 0
        print(
            f"{deal.number:4}  {deal.dealer:6}  {sitter:8}  {bonus:5}  "
            f"{_row(deal.deal_scores):20}  {_row(deal.scores):20}  {_row(deal.bolts)}"
        )
    result = final.result
    assert isinstance(result, MatchResult)
    ended = "adjudicated on the highest score" if result.adjudicated else "reached 1000"
    winners = ", ".join(map(str, result.winners))
    print(f"winner: seat {winners} ({ended}) with {max(result.scores)}")
    return 0


def _row(values: Sequence[int]) -> str:
    return " ".join(f"{value:4}" for value in values)


if __name__ == "__main__":
    sys.exit(main())
