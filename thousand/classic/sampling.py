"""Uniformly random placements of unseen cards into hidden places of known sizes, each card
allowed only in some of them (a seat that showed out of a suit cannot hold it).

Cards allowed in the same places are interchangeable, so the placements are counted class by class
and drawn with exactly their share: every consistent placement is equally likely.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence

from thousand.classic.cards import indices

__all__ = ["NoPlacement", "Placement"]


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
            pick = rng.randrange(sum(weight for _, weight in options))
            chosen = options[-1][0]
            for split, weight in options:
                if pick < weight:
                    chosen = split
                    break
                pick -= weight
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
            return 0 if any(room) else 1
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
                split[place] = 0
            return
        for count in range(min(rest, room[place]) + 1):
            split[place] = count
            yield from share(rest - count, which + 1, split)
        split[place] = 0

    yield from share(count, 0, [0] * len(room))
