"""Answering a face-down card: believe it (it counts as a 1000) or challenge it (the wrong one
draws three and starts a new climb)."""

from __future__ import annotations

from collections.abc import Sequence

from thousand.bluff.actions import Action, Believe, Challenge
from thousand.bluff.climb import tops_anything, won
from thousand.bluff.pile import draw
from thousand.bluff.rules import ChallengeRestart
from thousand.bluff.state import Phase, State
from thousand.common.state_base import fast_updater

ANSWERS: tuple[Action, ...] = (Believe(), Challenge())
PENALTY = 3


def legal_answers(state: State) -> tuple[Action, ...]:
    """Believe or challenge."""
    return ANSWERS


def is_honest(state: State) -> bool:
    """Whether the face-down top card could have been played face up on the card below it."""
    kind = state.table_entries[-1][0]
    below = state.table_entries[-2]
    return tops_anything(below) or state.kinds.beats[below[0]][kind]


def believe(state: State, action: Action) -> State:
    """The card stays hidden and counts as a 1000; the believer takes a normal turn. A believed
    last card wins for its owner."""
    kind, owner, _, _ = state.table_entries[-1]
    table = (*state.table_entries[:-1], (kind, owner, True, True))
    if not state.hand_kinds[owner]:
        return won(state, action, state.hand_kinds, table, owner)
    return _believed(state, table, state.turns + 1, (state.history, state.player, action))


def challenge(state: State, action: Action) -> State:
    """Reveal the card. An honest card (whose owner has no cards left) wins; otherwise whoever was
    wrong draws three, then the table is discarded and that player starts a new climb. (A bluffer
    caught on their last card with nothing left to draw has no card to start with: the next
    player with cards starts instead.)"""
    owner = state.table_entries[-1][1]
    honest = is_honest(state)
    if honest and not state.hand_kinds[owner]:
        return won(state, action, state.hand_kinds, state.table_entries, owner, revealing=True)
    loser = state.player if honest else owner
    drawn = draw(state, PENALTY, state.discards)
    hands = list(state.hand_kinds)
    hands[loser] = tuple(sorted(hands[loser] + drawn.cards))
    restart = None
    if state.rules.challenge_restart is ChallengeRestart.DRAWN_CARD and drawn.cards:
        restart = tuple(sorted(drawn.cards))
    starter = next_with_cards(hands, loser)
    return state.advance(
        action,
        phase=Phase.START,
        player=starter,
        hand_kinds=tuple(hands),
        pile=drawn.pile,
        pile_position=drawn.pile_position,
        discards=drawn.discards + tuple(entry[0] for entry in state.table_entries),
        table_entries=(),
        restart_kinds=restart,
        reshuffles=drawn.reshuffles,
        revealing=True,
    )


_believed = fast_updater(State, "table_entries", "turns", "history", phase=Phase.CLIMB)
"""The believer takes a normal turn on the believed card."""


def next_with_cards(hands: Sequence[tuple[int, ...]], seat: int) -> int:
    """``seat``, or the first seat after it clockwise, that holds a card."""
    players = len(hands)
    for step in range(players):
        starter = (seat + step) % players
        if hands[starter]:
            return starter
    raise RuntimeError(f"no seat holds a card after the challenge, from seat {seat} round")
