"""A reference loop for engine speed: one Thousand deal in plain, mutable Python.

Speeds measured on the machines here differ several-fold from run to run, so the engine's speed
is reported as a ratio to this loop, run in the same process. It plays the shape of a full
three-player deal behind the same two calls as the engine (``legal_actions()`` and
``apply(action)``, driven by ``random.Random.choice``), with none of the engine's duties: no
checks, no immutable states, no history, no records. Cards are ints ``6 * suit + rank`` (rank
0..5 = 9 J Q K 10 A), actions are ints: cards, or bids and contracts (100..300), ``PASS`` = 0.

    python benchmarks/reference.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator

from interleave import Meter

PASS = 0
CARD_POINTS = (0, 2, 3, 4, 10, 11) * 4
MARRIAGE_POINTS = (40, 60, 80, 100)
RAISES = {bid: (PASS, *range(bid + 10, 310, 10)) for bid in range(100, 310, 10)}
CONTRACTS = {bid: tuple(range(bid, 310, 10)) for bid in range(100, 310, 10)}
AUCTION, GIVE, CONTRACT, PLAY, OVER = range(5)
LEFT = (1, 2, 0)


class Deal:
    """A three-player deal, changed in place by :meth:`apply`."""

    __slots__ = (
        "bid",
        "contract",
        "declarer",
        "gave",
        "hands",
        "leader",
        "passed",
        "passes",
        "phase",
        "player",
        "points",
        "talon",
        "trick",
        "tricks",
        "trump",
    )  # fmt: skip

    def __init__(self, rng: random.Random) -> None:
        deck = list(range(24))
        rng.shuffle(deck)
        self.hands = [deck[0:7], deck[7:14], deck[14:21]]
        self.talon = deck[21:]
        self.phase = AUCTION
        self.player = 1
        self.bid = 100
        self.declarer = 0
        self.passed = [False, False, False]
        self.passes = 0
        self.gave = 0
        self.contract = 0
        self.trick: list[int] = []
        self.leader = 0
        self.tricks = 0
        self.trump = -1
        self.points = [0, 0, 0]

    def legal_actions(self) -> list[int] | tuple[int, ...]:
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[self.player]
            if self.trick:
                suit = self.trick[0] // 6
                same = [card for card in hand if card // 6 == suit]
                if same:
                    return same
                trumps = [card for card in hand if card // 6 == self.trump]
                if trumps:
                    return trumps
            return hand[:]
        if phase == AUCTION:
            return RAISES[self.bid]
        if phase == GIVE:
            return self.hands[self.declarer][:]
        if phase == CONTRACT:
            return CONTRACTS[self.bid]
        return ()

    def apply(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(action)
        elif phase == AUCTION:
            self._bid(action)
        elif phase == GIVE:
            declarer = self.declarer
            self.hands[declarer].remove(action)
            self.hands[(declarer + 1 + self.gave) % 3].append(action)
            self.gave += 1
            if self.gave == 2:
                self.phase = CONTRACT
        else:
            self.contract = action
            self.phase = PLAY
            self.player = self.leader = self.declarer

    def _bid(self, action: int) -> None:
        seat = self.player
        if action == PASS:
            self.passed[seat] = True
            self.passes += 1
        else:
            self.bid = action
            self.declarer = seat
        if self.passes == 2:
            self.hands[self.declarer].extend(self.talon)
            self.talon = []
            self.phase = GIVE
            self.player = self.declarer
            return
        seat = LEFT[seat]
        while self.passed[seat]:
            seat = LEFT[seat]
        self.player = seat

    def _play(self, card: int) -> None:
        seat = self.player
        hand = self.hands[seat]
        hand.remove(card)
        trick = self.trick
        if not trick and self.tricks and card % 6 in (2, 3) and (card ^ 1) in hand:
            self.trump = card // 6
            self.points[seat] += MARRIAGE_POINTS[self.trump]
        trick.append(card)
        if len(trick) < 3:
            self.player = LEFT[seat]
            return
        best = 0
        for position in (1, 2):
            other, top = trick[position], trick[best]
            if other // 6 == top // 6:
                if other > top:
                    best = position
            elif other // 6 == self.trump:
                best = position
        winner = (self.leader + best) % 3
        self.points[winner] += CARD_POINTS[trick[0]] + CARD_POINTS[trick[1]] + CARD_POINTS[trick[2]]
        self.trick = []
        self.tricks += 1
        self.player = self.leader = winner
        if self.tricks == 8:
            self.phase = OVER

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        """The deal's scores: the declarer's contract won or lost, the others' points rounded."""
        scores = [(points + 5) // 10 * 10 for points in self.points]
        made = self.points[self.declarer] >= self.contract
        scores[self.declarer] = self.contract if made else -self.contract
        return scores


def reference_deals(seed: int = 0) -> Iterator[int]:
    """Random deals through the reference loop, one after another: yields each deal's
    decisions."""
    rng = random.Random(seed)
    choice = rng.choice
    while True:
        deal = Deal(rng)
        decisions = 0
        while not deal.is_over:
            deal.apply(choice(deal.legal_actions()))
            decisions += 1
        deal.scores()
        yield decisions


def reference_speed(seconds: float, seed: int = 0) -> float:
    """Decisions per second of random deals through the reference loop."""
    meter = Meter(reference_deals(seed))
    meter.run(seconds)
    return meter.speed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"reference loop: {reference_speed(args.seconds):,.0f} decisions/s")


if __name__ == "__main__":
    main()
