"""Play one match between players who choose uniformly at random among their legal actions.

Usage::

    python examples/random_match.py                      # Russian rules, seed 1
    python examples/random_match.py polish --seed 7
    python examples/random_match.py polish-2p --max-deals 20 --record match.json

Prints one line per deal (dealer, declarer, winning bid, contract, deal scores, match scores) and
the result. Random players overbid wildly, so a match usually runs to the deal limit and is then
adjudicated to the highest score; ``--max-deals`` shortens it.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

import attrs

from thousand import (
    DealResult,
    GameState,
    MatchResult,
    Record,
    Rules,
    ThousandError,
    dump_record,
    new_match,
)


def play_random_match(rules: Rules, seed: int) -> GameState:
    """Play a whole match; the seed fixes both the deals and the players' choices."""
    rng = random.Random(seed)
    state = new_match(rules, seed=seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def slashed(values: Sequence[int]) -> str:
    """Numbers as a compact ``a / b / c`` column."""
    return " / ".join(f"{value:5d}" for value in values)


def header(players: int) -> str:
    """The table heading, aligned with :func:`deal_line`."""
    width = 8 * players - 3
    return f"deal  dealer  declarer  bid  {'contract':<13}  {'deal scores':<{width}}  scores"


def deal_line(deal: DealResult) -> str:
    """One table row for a finished deal."""
    if deal.contract is None:
        contract = "conceded"
    else:
        contract = f"{deal.contract} {'made' if deal.made else 'down'}"
    return (
        f"{deal.number + 1:4d}  {deal.dealer:6d}  {deal.declarer:8d}  {deal.bid:3d}  "
        f"{contract:<13}  {slashed(deal.deal_scores)}  {slashed(deal.scores)}"
    )


def result_lines(result: MatchResult) -> list[str]:
    """A few lines describing the end of the match."""
    winners = " and ".join(f"seat {seat}" for seat in result.winners)
    lines = [
        f"winner: {winners} after {result.deals} deals",
        f"final scores: {' / '.join(str(score) for score in result.scores)}",
    ]
    if result.adjudicated:
        lines.append("nobody reached the target: the deal limit ended the match")
    if result.settlement is not None:
        amounts = " / ".join(f"{amount:+d}" for amount in result.settlement)
        lines.append(f"settlement: {amounts}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Run the script; returns the exit status."""
    parser = argparse.ArgumentParser(description="Play one random-versus-random Thousand match.")
    parser.add_argument(
        "preset",
        nargs="?",
        default="russian",
        choices=Rules.preset_names(),
        help="the rules preset (default: russian)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the match seed (default: 1)")
    parser.add_argument(
        "--max-deals",
        type=int,
        default=None,
        metavar="N",
        help="adjudicate the match after N deals (default: the preset's limit)",
    )
    parser.add_argument("--record", metavar="PATH", help="write the match record to PATH")
    args = parser.parse_args(argv)

    try:
        rules = Rules.preset(args.preset)
        if args.max_deals is not None:
            rules = attrs.evolve(rules, max_deals=args.max_deals)
    except ThousandError as error:
        parser.error(str(error))

    state = play_random_match(rules, args.seed)
    result = state.result
    assert isinstance(result, MatchResult)

    print(f"{args.preset} rules, seed {args.seed}")
    print(header(rules.players))
    for deal in state.deals:
        print(deal_line(deal))
    print()
    for line in result_lines(result):
        print(line)

    if args.record:
        try:
            dump_record(Record.from_state(state), args.record)
        except OSError as error:
            print(f"error: cannot write {args.record}: {error}", file=sys.stderr)
            return 1
        print(f"record written to {args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
