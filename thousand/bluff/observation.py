"""What one seat may know of a 1000? game: its own hand, the sizes of the others, the climb with
every face-down card hidden unless it is the seat's own or was revealed by a challenge."""

from __future__ import annotations

import attrs

from thousand.bluff.actions import Action, Challenge, Hide
from thousand.bluff.cards import Card
from thousand.bluff.rules import Rules
from thousand.bluff.state import Phase, State, TableCard
from thousand.errors import SeatError

__all__ = ["Observation", "observe"]


@attrs.frozen
class Observation:
    """One seat's view of a 1000? game at one moment."""

    seat: int
    rules: Rules
    phase: Phase
    current_player: int | None
    dealer: int
    hand: tuple[Card, ...]
    """The observer's cards, lowest first."""
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    discard_pile_size: int
    table: tuple[TableCard, ...]
    """The current climb, bottom first; a face-down card shows ``None`` unless it is the
    observer's own."""
    must_start_with: tuple[Card, ...]
    """After the observer lost a challenge: the cards just drawn, one of which starts the new
    climb; else empty."""
    turns: int
    history: tuple[tuple[int, Action], ...]
    """Every action so far; another seat's face-down card is ``hide ??`` unless a challenge
    revealed it."""
    legal_actions: tuple[Action, ...]
    """The observer's legal actions (empty when it is not the observer's turn)."""


def observe(state: State, seat: int) -> Observation:
    """The observation of ``seat`` in ``state``."""
    rules = state.rules
    if not 0 <= seat < rules.players:
        raise SeatError(f"seats at this table are 0 to {rules.players - 1}, not {seat}")
    cards = state.kinds.cards
    history = state.actions
    revealed = {
        position - 1
        for position, (_, action) in enumerate(history)
        if isinstance(action, Challenge)
    }
    shown = tuple(
        (actor, Hide(None))
        if isinstance(action, Hide) and actor != seat and position not in revealed
        else (actor, action)
        for position, (actor, action) in enumerate(history)
    )
    # A challenge that ends the game leaves the revealed card on the table.
    top_revealed = bool(history) and isinstance(history[-1][1], Challenge)
    last = len(state.table_entries) - 1
    table = tuple(
        TableCard(
            None
            if face_down and owner != seat and not (top_revealed and position == last)
            else cards[kind],
            owner,
            face_down,
            believed,
        )
        for position, (kind, owner, face_down, believed) in enumerate(state.table_entries)
    )
    mine = state.player == seat
    return Observation(
        seat=seat,
        rules=rules,
        phase=state.phase,
        current_player=state.current_player,
        dealer=state.origin.dealer,
        hand=state.hands[seat],
        hand_sizes=tuple(len(hand) for hand in state.hand_kinds),
        draw_pile_size=len(state.pile) - state.pile_position,
        discard_pile_size=len(state.discards),
        table=table,
        must_start_with=tuple(cards[kind] for kind in state.restart_kinds or ()) if mine else (),
        turns=state.turns,
        history=shown,
        legal_actions=state.legal_actions() if mine else (),
    )
