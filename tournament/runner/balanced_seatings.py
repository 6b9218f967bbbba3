"""The seatings a table plays each set of cards under: a design that balances seats and
neighbours, so that no bot gains from where it sits or from whom it sits after.

A seating lists, seat by seat, which of the table's *k* bots (numbered ``0 .. k-1``) sits there;
seat 0 deals. Every design here has two properties:

* every bot holds every seat equally often;
* for every distance *d* from 1 to *k* − 1, every bot sits *d* seats after every other bot
  equally often (so each follows each other directly, and precedes it, equally often).

Tables of 2, 3 and 4 play every seating (2, 6 and 24). Larger tables play a balanced design of
*k* (*k* − 1) seatings instead of all *k*! (120 at a table of 5, 720 at 6): at a table of 5 the
seatings *seat* ↦ *a* · *seat* + *b* (mod 5), in which every ordered pair of bots also holds every
ordered pair of seats exactly once; at a table of 6, thirty seatings found by integer
programming.
"""

from __future__ import annotations

import functools
import itertools

__all__ = ["MAX_PLAYERS", "seatings"]

MAX_PLAYERS = 6

_EVERY_SEATING_UP_TO = 4

_SIX = (
    "012534 034521 041235 042351 045321 103425 130245 132054 135402 140523 "
    "203154 204315 214503 251430 253140 305412 315204 320154 341502 350142 "
    "401253 421035 425013 450312 453021 512043 513240 524130 524301 532410"
)


@functools.cache
def seatings(players: int) -> tuple[tuple[int, ...], ...]:
    """The seatings of a table of ``players`` bots, in a fixed order (see the module
    docstring for what they balance)."""
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"a table seats 2 to {MAX_PLAYERS} players, not {players}")
    if players <= _EVERY_SEATING_UP_TO:
        return tuple(itertools.permutations(range(players)))
    if players == 5:
        return tuple(
            tuple((step * seat + shift) % 5 for seat in range(5))
            for step in range(1, 5)
            for shift in range(5)
        )
    return tuple(tuple(int(bot) for bot in row) for row in _SIX.split())
