"""Play one 1000? game between players who choose uniformly at random among their legal actions.

Usage::

    python examples/bluff_game.py                        # 4 players, seed 1
    python examples/bluff_game.py --players 3 --seed 7
    python examples/bluff_game.py --record game.json

Prints one line per climb, then the winner. In a climb, ``2:16`` means that seat 2 played 16 face
up and ``0:[23]`` that seat 0 played 23 face down. The script shows every face-down card, though
the players themselves only see one when they challenge it. A face-down card with more cards after
it was believed. Passes, each of which draws a card, are counted. The end of each line says how the
climb ended: everybody else passed, a challenge, or the winner's last card.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections.abc import Sequence

from thousand import ThousandError, bluff


def play_random_game(rules: bluff.Rules, seed: int) -> list[bluff.State]:
    """Every state of one game, first to last; the seed fixes both the deal and the choices."""
    rng = random.Random(seed)
    states = [bluff.new_game(rules, seed=seed)]
    while not states[-1].is_over:
        states.append(states[-1].apply(rng.choice(states[-1].legal_actions())))
    return states


def drawn(before: bluff.State, after: bluff.State, seat: int) -> int:
    """How many cards ``seat`` drew between two states."""
    return len(after.hands[seat]) - len(before.hands[seat])


def ending(
    before: bluff.State, after: bluff.State, seat: int, action: bluff.Action, honest: bool
) -> str:
    """How a climb ended, for the end of its line (``seat`` took ``action``; ``honest`` tells
    whether the last face-down card could have been played face up)."""
    result = after.result
    if result is not None and result.adjudicated:
        return "turn limit reached"
    if isinstance(action, bluff.Challenge):
        hider = before.table[-1].owner
        said = f"seat {seat} challenges {before.table[-1].card}"
        if result is not None:
            return f"{said}: honest, seat {hider} is out of cards"
        loser = seat if honest else hider
        count = drawn(before, after, loser)
        draws = f"draws {count}" if count else "has nothing to draw"
        return f"{said}: {'honest' if honest else 'a bluff'}, seat {loser} {draws}"
    if isinstance(action, bluff.Believe):
        return f"seat {seat} believes it: seat {before.table[-1].owner} is out of cards"
    if result is not None:
        return f"seat {seat} is out of cards"
    return f"all passed, seat {after.current_player} starts"


def climb_lines(states: Sequence[bluff.State]) -> list[str]:
    """One line per climb: the cards played, the passes, and how it ended."""
    lines = ["climb  cards played (seat:card, [card] face down)  ->  how it ended"]
    cards: list[str] = []
    passes = 0
    honest = False
    for before, after in itertools.pairwise(states):
        seat, action = after.actions[-1]
        if isinstance(action, bluff.Play):
            cards.append(f"{seat}:{action.card}")
        elif isinstance(action, bluff.Hide):
            cards.append(f"{seat}:[{action.card}]")
            # Honest means it could have been played face up, as the legal actions tell.
            honest = action.card is not None and bluff.Play(action.card) in before.legal_actions()
        elif isinstance(action, bluff.Pass):
            passes += 1
        if after.is_over or not after.table:
            played = " ".join(cards)
            if passes:
                played += f", {passes} pass{'es' if passes > 1 else ''}"
            end = ending(before, after, seat, action, honest)
            lines.append(f"{len(lines):5d}  {played}  ->  {end}")
            cards, passes = [], 0
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Run the script; returns the exit status."""
    parser = argparse.ArgumentParser(description="Play one random-versus-random 1000? game.")
    parser.add_argument("--players", type=int, default=4, help="players, 2 to 6 (default: 4)")
    parser.add_argument("--seed", type=int, default=1, help="the game seed (default: 1)")
    parser.add_argument("--record", metavar="PATH", help="write the game record to PATH")
    args = parser.parse_args(argv)

    try:
        rules = bluff.Rules(players=args.players)
    except ThousandError as error:
        parser.error(str(error))

    states = play_random_game(rules, args.seed)
    final = states[-1]
    result = final.result
    assert result is not None

    print(f"1000? for {rules.players} players, seed {args.seed}")
    for line in climb_lines(states):
        print(line)
    print()
    winners = " and ".join(f"seat {seat}" for seat in result.winners)
    label = "winner" if len(result.winners) == 1 else "winners (shared)"
    print(f"{label}: {winners} after {result.turns} actions")
    print(f"cards left: {' / '.join(str(size) for size in result.hand_sizes)}")
    if result.adjudicated:
        print("nobody ran out of cards: the turn limit ended the game, fewest cards won")

    if args.record:
        try:
            bluff.dump_record(bluff.Record.from_state(final), args.record)
        except OSError as error:
            print(f"error: cannot write {args.record}: {error}", file=sys.stderr)
            return 1
        print(f"record written to {args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
