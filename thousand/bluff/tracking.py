"""What every seat can follow of a 1000? game from its history: the climb on the table, the
discard pile since the draw pile was last made from it, and the penalty draw of a challenge.

Cards seen going to the discard pile are known to be there until the discards are shuffled into
a new draw pile; from then on they could be anywhere unseen. Shared by the ``greedy`` bot's card
counting and by the determiniser.
"""

from __future__ import annotations

import attrs

from thousand.bluff.actions import Believe, Challenge, Hide, Pass, Play
from thousand.bluff.cards import Card, beats
from thousand.bluff.challenge import PENALTY
from thousand.bluff.observation import Observation
from thousand.bluff.rules import EmptyDrawPile

__all__ = ["Draw", "Tracked", "track"]


@attrs.frozen
class Draw:
    """What a pass or a challenge did besides itself, as every seat saw it."""

    seat: int
    """The seat that drew."""
    cards: int
    """How many cards it drew."""
    reshuffled: bool
    """Whether the discards became the draw pile during the draw."""
    cleared: bool
    """Whether the climb then went to the discards."""


@attrs.frozen
class Tracked:
    """The public course of a game, as one seat saw it."""

    discards: tuple[Card | None, ...]
    """The discard pile since the last reshuffle, oldest first; ``None`` for a face-down card
    this seat never saw."""
    reshuffles: int
    """How many times the discards became the draw pile."""
    penalty: tuple[int, int] | None
    """After a challenge: the seat that drew the penalty and how many cards it got."""
    draws: tuple[Draw | None, ...] = ()
    """Per action of the history when asked for: its :class:`Draw` (``None`` for a card played
    or believed)."""


def track(observation: Observation, draws: bool = False) -> Tracked:
    """Follow ``observation``'s history: climbs cleared to the discards, draws, reshuffles (and
    each action's draw, when ``draws``)."""
    rules = observation.rules
    players = rules.players
    reshuffle = rules.empty_draw_pile is EmptyDrawPile.RESHUFFLE
    pile = len(rules.deck) - players * rules.hand_size
    discards: list[Card | None] = []
    reshuffles = 0
    table: list[tuple[Card | None, int, bool]] = []
    penalty: tuple[int, int] | None = None
    steps: list[Draw | None] = []

    def draw(count: int) -> int:
        nonlocal pile, discards, reshuffles
        drawn = min(count, pile)
        pile -= drawn
        if drawn < count and reshuffle and discards:
            pile, discards, reshuffles = len(discards), [], reshuffles + 1
            more = min(count - drawn, pile)
            pile -= more
            drawn += more
        return drawn

    for actor, action in observation.history:
        penalty = None
        before = reshuffles
        step = None
        if isinstance(action, Play | Hide):
            table.append((action.card, actor, False))
        elif isinstance(action, Believe):
            card, owner, _ = table[-1]
            table[-1] = (card, owner, True)
        elif isinstance(action, Challenge):
            shown, owner, _ = table[-1]
            below, _, believed = table[-2]
            honest = believed or (shown is not None and below is not None and beats(shown, below))
            loser = actor if honest else owner
            penalty = (loser, draw(PENALTY))
            if draws:
                step = Draw(loser, penalty[1], reshuffles > before, True)
            discards.extend(card for card, _, _ in table)
            table.clear()
        elif isinstance(action, Pass):
            drawn = draw(1)
            cleared = table[-1][1] == (actor + 1) % players
            if draws:
                step = Draw(actor, drawn, reshuffles > before, cleared)
            if cleared:
                discards.extend(card for card, _, _ in table)
                table.clear()
        if draws:
            steps.append(step)
    return Tracked(tuple(discards), reshuffles, penalty, tuple(steps))
