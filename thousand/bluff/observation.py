"""What one seat may know of a 1000? game: its own hand, the sizes of the others, the climb with
every face-down card hidden unless it is the seat's own or was revealed by a challenge. Fields
are computed when first read (see :mod:`thousand.view`), so taking an observation is cheap."""

from __future__ import annotations

from typing import Any

from thousand.bluff.actions import Action, Challenge, Hide, parse_action
from thousand.bluff.cards import Card
from thousand.bluff.rules import Rules
from thousand.bluff.state import Phase, State, TableCard
from thousand.view import View, field

__all__ = ["Observation", "observe"]


class Observation(View):
    """One seat's view of a 1000? game at one moment."""

    _state: State
    _seat: int

    @field
    def seat(self) -> int:
        """The observing seat."""
        return self._seat

    @field
    def rules(self) -> Rules:
        """The rules in force."""
        return self._state.rules

    @field
    def phase(self) -> Phase:
        """What the player to act must do."""
        return self._state.phase

    @field
    def current_player(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        return self._state.current_player

    @field
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._state.origin.dealer

    @field
    def hand(self) -> tuple[Card, ...]:
        """The observer's cards, lowest first."""
        state = self._state
        cards = state.kinds.cards
        return tuple(cards[kind] for kind in state.hand_kinds[self._seat])

    @field
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(len(hand) for hand in self._state.hand_kinds)

    @field
    def draw_pile_size(self) -> int:
        """Cards left to draw."""
        state = self._state
        return len(state.pile) - state.pile_position

    @field
    def discard_pile_size(self) -> int:
        """Cards discarded since the last reshuffle."""
        return len(self._state.discards)

    @field
    def table(self) -> tuple[TableCard, ...]:
        """The current climb, bottom first; a face-down card shows ``None`` unless it is the
        observer's own."""
        state = self._state
        seat = self._seat
        cards = state.kinds.cards
        history = state.actions
        # A challenge that ends the game leaves the revealed card on the table.
        top_revealed = bool(history) and isinstance(history[-1][1], Challenge)
        last = len(state.table_entries) - 1
        return tuple(
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

    @field
    def must_start_with(self) -> tuple[Card, ...]:
        """After the observer lost a challenge: the cards just drawn, one of which starts the new
        climb; else empty."""
        state = self._state
        if state.player != self._seat:
            return ()
        return tuple(state.kinds.cards[kind] for kind in state.restart_kinds or ())

    @field
    def turns(self) -> int:
        """Actions taken so far."""
        return self._state.turns

    @field
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action so far; another seat's face-down card is ``hide ??`` unless a challenge
        revealed it."""
        seat = self._seat
        history = self._state.actions
        shown = list(history)
        last = len(history) - 1
        for position, (actor, action) in enumerate(history):
            # A face-down card is revealed by the challenge that answers it.
            if (
                isinstance(action, Hide)
                and actor != seat
                and not (position < last and isinstance(history[position + 1][1], Challenge))
            ):
                shown[position] = (actor, _FACE_DOWN)
        return tuple(shown)

    @field
    def legal_actions(self) -> tuple[Action, ...]:
        """The observer's legal actions (empty when it is not the observer's turn)."""
        state = self._state
        return state.legal_actions() if state.player == self._seat else ()

    def to_dict(self, *, with_rules: bool = True) -> dict[str, Any]:
        """The observation as plain JSON data: cards and actions in their text form (the rules
        left out when ``with_rules`` is false)."""
        data: dict[str, Any] = {
            "seat": self.seat,
            "phase": self.phase.value,
            "current_player": self.current_player,
            "dealer": self.dealer,
            "hand": [str(card) for card in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "draw_pile_size": self.draw_pile_size,
            "discard_pile_size": self.discard_pile_size,
            "table": [
                {
                    "card": None if entry.card is None else str(entry.card),
                    "owner": entry.owner,
                    "face_down": entry.face_down,
                    "believed": entry.believed,
                }
                for entry in self.table
            ],
            "must_start_with": [str(card) for card in self.must_start_with],
            "turns": self.turns,
            "history": [[seat, str(action)] for seat, action in self.history],
            "legal_actions": [str(action) for action in self.legal_actions],
        }
        if with_rules:
            data["rules"] = self.rules.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], rules: Rules | None = None) -> Observation:
        """The observation written by :meth:`to_dict`, with ``rules`` when they were left out
        (raises ``KeyError``, ``TypeError`` or ``ValueError`` on malformed data)."""
        card = Card.parse
        current = data["current_player"]
        return cls.from_fields(
            seat=int(data["seat"]),
            rules=rules if rules is not None else Rules.from_dict(data["rules"]),
            phase=Phase(data["phase"]),
            current_player=None if current is None else int(current),
            dealer=int(data["dealer"]),
            hand=tuple(card(text) for text in data["hand"]),
            hand_sizes=tuple(int(size) for size in data["hand_sizes"]),
            draw_pile_size=int(data["draw_pile_size"]),
            discard_pile_size=int(data["discard_pile_size"]),
            table=tuple(
                TableCard(
                    None if entry["card"] is None else card(entry["card"]),
                    int(entry["owner"]),
                    bool(entry["face_down"]),
                    bool(entry["believed"]),
                )
                for entry in data["table"]
            ),
            must_start_with=tuple(card(text) for text in data["must_start_with"]),
            turns=int(data["turns"]),
            history=tuple((int(seat), parse_action(text)) for seat, text in data["history"]),
            legal_actions=tuple(parse_action(text) for text in data["legal_actions"]),
        )


_FACE_DOWN = Hide(None)
"""Another seat's face-down card, as the observer sees it."""


def observe(state: State, seat: int) -> Observation:
    """The observation of ``seat`` in ``state``."""
    return Observation.seen_from(state, seat)
