"""Uniformly random placements of unseen cards into hidden places of known sizes, each card
allowed only in some of them (a seat that showed out of a suit cannot hold it).

Cards allowed in the same places are interchangeable, so the placements are counted class by class
and drawn with exactly their share: every consistent placement is equally likely. A bot with a
belief about where each card lies draws from :class:`WeightedPlacement` instead: each placement
in proportion to the product of its cards' weights in their places.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Iterable, Iterator, Sequence

from thousand.classic.cards import indices

__all__ = ["NoPlacement", "Placement", "WeightedPlacement", "weighted_index"]


class NoPlacement(ValueError):
    """No placement satisfies the constraints."""


class Placement:
    """Places the cards of ``pool`` into places of the given ``sizes``; a card may go to place
    ``p`` only if it is in ``allowed[p]``."""

    def __init__(self, pool: int, sizes: Sequence[int], allowed: Sequence[int]) -> None:
        if sum(sizes) != pool.bit_count():
            raise NoPlacement(f"{pool.bit_count()} cards for {sum(sizes)} places")
        classes: dict[int, list[int]] = {}
        for index in indices(pool):
            places = sum(1 << place for place, mask in enumerate(allowed) if mask >> index & 1)
            if not places:
                raise NoPlacement("a card has no place it may go")
            classes.setdefault(places, []).append(index)
        self._classes = sorted(classes.items(), key=lambda item: item[0].bit_count())
        self._sizes = tuple(sizes)
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        if not self._count(0, self._sizes):
            raise NoPlacement("no placement satisfies the constraints")

    @property
    def count(self) -> int:
        """How many placements there are."""
        return self._count(0, self._sizes)

    def sample(self, rng: random.Random) -> list[int]:
        """One placement, as a card mask per place, every consistent placement equally likely."""
        places = [0] * len(self._sizes)
        room = self._sizes
        for position, (signature, cards) in enumerate(self._classes):
            options = [
                (split, self._weight(split) * self._count(position + 1, _less(room, split)))
                for split in _splits(len(cards), signature, room)
            ]
            chosen = options[weighted_index(rng, [weight for _, weight in options])][0]
            order = list(cards)
            rng.shuffle(order)
            start = 0
            for place, count in enumerate(chosen):
                for index in order[start : start + count]:
                    places[place] |= 1 << index
                start += count
            room = _less(room, chosen)
        return places

    def _count(self, position: int, room: tuple[int, ...]) -> int:
        """The placements of the classes from ``position`` on into ``room``."""
        if position == len(self._classes):
            return 1  # every card is placed, and the sizes add up to the pool: no room is left
        key = (position, room)
        ways = self._ways.get(key)
        if ways is None:
            signature, cards = self._classes[position]
            ways = sum(
                self._weight(split) * self._count(position + 1, _less(room, split))
                for split in _splits(len(cards), signature, room)
            )
            self._ways[key] = ways
        return ways

    @staticmethod
    def _weight(split: tuple[int, ...]) -> int:
        """The ways to deal a class's cards into places in these numbers."""
        ways = 1
        left = sum(split)
        for count in split:
            ways *= math.comb(left, count)
            left -= count
        return ways


class WeightedPlacement:
    """Places the cards of ``pool`` as :class:`Placement` does, each placement drawn in
    proportion to the product over its cards of ``weights[card][place]`` (all positive).

    The placements are summed card by card over the room left in each place, so a draw takes a
    step per card, whatever the weights.
    """

    def __init__(
        self,
        pool: int,
        sizes: Sequence[int],
        allowed: Sequence[int],
        weights: Sequence[Sequence[float]],
    ) -> None:
        if sum(sizes) != pool.bit_count():
            raise NoPlacement(f"{pool.bit_count()} cards for {sum(sizes)} places")
        self._cards = tuple(indices(pool))
        self._options = tuple(
            tuple(
                (place, weights[card][place])
                for place, mask in enumerate(allowed)
                if mask >> card & 1
            )
            for card in self._cards
        )
        self._sizes = tuple(sizes)
        self._totals: dict[tuple[int, tuple[int, ...]], float] = {}
        if not self._total(0, self._sizes) > 0:
            raise NoPlacement("no placement satisfies the constraints")

    def sample(self, rng: random.Random) -> list[int]:
        """One placement, as a card mask per place, drawn in proportion to its weight."""
        places = [0] * len(self._sizes)
        room = self._sizes
        for position, card in enumerate(self._cards):
            pick = rng.random() * self._total(position, room)
            chosen: tuple[int, tuple[int, ...]] | None = None
            for place, weight in self._options[position]:
                if not room[place]:
                    continue
                rest = _less_one(room, place)
                share = weight * self._total(position + 1, rest)
                if share > 0:
                    # Rounding may leave the pick past the last share: that place takes it.
                    chosen = place, rest
                    if pick < share:
                        break
                    pick -= share
            assert chosen is not None, "a positive total has a positive share"
            place, room = chosen
            places[place] |= 1 << card
        return places

    def _total(self, position: int, room: tuple[int, ...]) -> float:
        """The summed weight of the placements of the cards from ``position`` on into
        ``room``."""
        if position == len(self._cards):
            return 0.0 if any(room) else 1.0
        key = (position, room)
        total = self._totals.get(key)
        if total is None:
            total = 0.0
            for place, weight in self._options[position]:
                if room[place]:
                    total += weight * self._total(position + 1, _less_one(room, place))
            self._totals[key] = total
        return total


def weighted_index(rng: random.Random, weights: Iterable[int]) -> int:
    """An index drawn in proportion to its whole-number weight (at least one positive)."""
    ends = list(itertools.accumulate(weights))
    return bisect.bisect_right(ends, rng.randrange(ends[-1]))


def _less_one(room: tuple[int, ...], place: int) -> tuple[int, ...]:
    return (*room[:place], room[place] - 1, *room[place + 1 :])


def _less(room: tuple[int, ...], split: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(free - used for free, used in zip(room, split, strict=True))


def _splits(count: int, signature: int, room: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to share ``count`` cards among the places in ``signature`` within ``room``."""
    places = [place for place in range(len(room)) if signature >> place & 1]

    def share(rest: int, which: int, split: list[int]) -> Iterator[tuple[int, ...]]:
        place = places[which]
        if which == len(places) - 1:
            if rest <= room[place]:
                split[place] = rest
                yield tuple(split)
            return
        for count in range(min(rest, room[place]) + 1):
            split[place] = count
            yield from share(rest - count, which + 1, split)

    yield from share(count, 0, [0] * len(room))
