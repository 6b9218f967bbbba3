"""The written-out shuffle gives the order the standard library's shuffle gives."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from thousand.common.shuffling import shuffle


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=60))
def test_it_matches_random_shuffle(seed: int, length: int) -> None:
    ours, theirs = list(range(length)), list(range(length))
    shuffle(ours, random.Random(seed))
    random.Random(seed).shuffle(theirs)
    assert ours == theirs


def test_it_leaves_the_generator_where_random_shuffle_does() -> None:
    ours, theirs = random.Random(7), random.Random(7)
    shuffle(list(range(24)), ours)
    theirs.shuffle(list(range(24)))
    assert ours.random() == theirs.random()
