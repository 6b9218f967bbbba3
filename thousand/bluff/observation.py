"""What one seat may know of a 1000? game: its own hand, the sizes of the others, the climb with
every face-down card hidden unless it is the seat's own or was revealed by a challenge. An
observation copies only what its seat may see out of the state and computes its fields from those
values when first read (see :mod:`thousand.common.view`), so taking one is cheap and nothing hidden
can be reached from it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

from thousand.bluff.actions import Action, Believe, Hide, Play, parse_action
from thousand.bluff.cards import Card
from thousand.bluff.rules import Rules
from thousand.bluff.state import Phase, State, TableCard
from thousand.common.json_values import optional_whole, truth, whole, wholes
from thousand.common.knowledge import HISTORY, RULES, VALUE, parts
from thousand.common.view import View, check_seat, field

__all__ = ["Observation", "observe"]


class Observation(View):
    """One seat's view of a 1000? game at one moment.

    It holds plain values copied for its seat when it is made, never the state: the public
    history (face-down cards hidden), the seat's own hand and face-down cards, and the sizes of
    hands and piles. Its fields are computed from those when first read.
    """

    _known: tuple[Any, ...]
    """What the seat knows, in the order of the ``_RULES`` ... ``_RESTART_KINDS`` indexes: the
    state's public fields, then the seat, its own face-down cards that no challenge has revealed
    (newest first), its hand, the sizes of hands, piles and table, and the kinds it must start
    a climb with."""

    @classmethod
    def of_player(cls, state: State, seat: int) -> Observation:
        # Taken at every decision: the fields are read one by one, the fastest way.
        view = _new_view(cls)
        fields = view.__dict__
        to_act = state.player == seat
        fields["_known"] = (
            state.rules,
            state.phase,
            state.player,
            state.turns,
            state.history,
            state.origin.dealer,
            seat,
            state.own_hides[seat],
            state.hand_kinds[seat],
            _HAND_SIZES_AT[len(state.hand_kinds)](state.hand_kinds),
            len(state.pile) - state.pile_position,
            len(state.discards),
            len(state.table_entries),
            state.restart_kinds if to_act else None,
        )
        if to_act:
            fields["legal_actions"] = state.legal_actions()
        return view

    @field
    def seat(self) -> int:
        """The observing seat."""
        return self._known[_SEAT]  # type: ignore[no-any-return]

    @field
    def rules(self) -> Rules:
        """The rules in force."""
        return self._known[_RULES]  # type: ignore[no-any-return]

    @field
    def phase(self) -> Phase:
        """What the player to act must do."""
        return self._known[_PHASE]  # type: ignore[no-any-return]

    @field
    def current_player(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        player: int = self._known[_PLAYER]
        return None if player < 0 else player

    @field
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._known[_DEALER]  # type: ignore[no-any-return]

    @field
    def hand(self) -> tuple[Card, ...]:
        """The observer's cards, lowest first."""
        cards = self.rules.kinds.cards
        return tuple(cards[kind] for kind in self._known[_HAND_KINDS])

    @field
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return self._known[_HAND_SIZES]  # type: ignore[no-any-return]

    @field
    def draw_pile_size(self) -> int:
        """Cards left to draw."""
        return self._known[_DRAW_PILE_SIZE]  # type: ignore[no-any-return]

    @field
    def discard_pile_size(self) -> int:
        """Cards discarded since the last reshuffle."""
        return self._known[_DISCARD_PILE_SIZE]  # type: ignore[no-any-return]

    @field
    def table(self) -> tuple[TableCard, ...]:
        """The current climb, bottom first; a face-down card shows ``None`` unless it is the
        observer's own or a challenge revealed it."""
        seat = self.seat
        own = self._known[_OWN_HIDES]
        node = self._known[_HISTORY]
        believed = False
        table: list[TableCard] = []
        while len(table) < self._known[_TABLE_SIZE]:
            node, actor, action = node
            if isinstance(action, Play):
                table.append(TableCard(action.card, actor, False, False))
            elif isinstance(action, Hide):
                card = action.card
                if card is None and actor == seat:
                    assert own is not None
                    own, _, hidden = own
                    card = cast(Hide, hidden).card
                table.append(TableCard(card, actor, True, believed))
            believed = isinstance(action, Believe)
        table.reverse()
        return tuple(table)

    @field
    def must_start_with(self) -> tuple[Card, ...]:
        """After the observer lost a challenge: the cards just drawn, one of which starts the new
        climb; else empty."""
        cards = self.rules.kinds.cards
        return tuple(cards[kind] for kind in self._known[_RESTART_KINDS] or ())

    @field
    def turns(self) -> int:
        """Actions taken so far."""
        return self._known[_TURNS]  # type: ignore[no-any-return]

    @field
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action so far; another seat's face-down card is ``hide ??`` unless a challenge
        revealed it."""
        seat = self.seat
        own = self._known[_OWN_HIDES]
        node = self._known[_HISTORY]
        actions: list[tuple[int, Action]] = []
        while node is not None:
            node, actor, action = node
            if actor == seat and isinstance(action, Hide) and action.card is None:
                assert own is not None
                own, _, action = own
            actions.append((actor, action))
        actions.reverse()
        return tuple(actions)

    @field
    def legal_actions(self) -> tuple[Action, ...]:
        """The observer's legal actions (empty when it is not the observer's turn)."""
        return ()

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
        if rules is None:
            rules = Rules.from_dict(data["rules"])
        fields = {name: read(data[name]) for name, read in cls.READERS.items()}
        return cls.from_fields(rules=rules, **fields)


def _cards(texts: Any) -> tuple[Card, ...]:
    return tuple([Card.parse(text) for text in texts])


def _table_card(entry: Any) -> TableCard:
    card = entry["card"]
    return TableCard(
        None if card is None else Card.parse(card),
        whole(entry["owner"]),
        truth(entry["face_down"]),
        truth(entry["believed"]),
    )


Observation.READERS = {
    "seat": whole,
    "phase": Phase,
    "current_player": optional_whole,
    "dealer": whole,
    "hand": _cards,
    "hand_sizes": wholes,
    "draw_pile_size": whole,
    "discard_pile_size": whole,
    "table": lambda table: tuple([_table_card(entry) for entry in table]),
    "must_start_with": _cards,
    "turns": whole,
    "history": lambda history: tuple([(whole(seat), parse_action(text)) for seat, text in history]),
    "legal_actions": lambda texts: tuple([parse_action(text) for text in texts]),
}


(
    _RULES,
    _PHASE,
    _PLAYER,
    _TURNS,
    _HISTORY,
    _DEALER,
    _SEAT,
    _OWN_HIDES,
    _HAND_KINDS,
    _HAND_SIZES,
    _DRAW_PILE_SIZE,
    _DISCARD_PILE_SIZE,
    _TABLE_SIZE,
    _RESTART_KINDS,
) = range(14)
_new_view = object.__new__
_HAND_SIZES_AT: dict[int, Callable[[tuple[tuple[int, ...], ...]], tuple[int, ...]]] = {
    2: lambda hands: (len(hands[0]), len(hands[1])),
    3: lambda hands: (len(hands[0]), len(hands[1]), len(hands[2])),
    4: lambda hands: (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3])),
    5: lambda hands: (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3]), len(hands[4])),
    6: lambda hands: (
        len(hands[0]),
        len(hands[1]),
        len(hands[2]),
        len(hands[3]),
        len(hands[4]),
        len(hands[5]),
    ),
}
"""The sizes of the hands at a table of each size, written out: three times as fast as
``tuple(map(len, hands))`` on CPython 3.11, and taken at every decision."""


def observe(state: State, seat: int) -> Observation:
    """The observation of ``seat`` in ``state``; raises ``SeatError`` when there is no such seat."""
    check_seat(state.rules.players, seat)
    return Observation.of_player(state, seat)


Observation.PARTS = parts(
    ("rules", RULES),
    ("phase", Phase),
    ("player", VALUE),
    ("turns", VALUE),
    ("history", HISTORY),
    ("dealer", VALUE),
    ("seat", VALUE),
    ("own_hides", HISTORY),
    ("hand_kinds", VALUE),
    ("hand_sizes", VALUE),
    ("draw_pile_size", VALUE),
    ("discard_pile_size", VALUE),
    ("table_size", VALUE),
    ("restart_kinds", VALUE),
)
Observation.SENT_WITH = {"legal_actions": lambda actions: [str(action) for action in actions]}
Observation.read_action = staticmethod(functools.lru_cache(maxsize=4096)(parse_action))  # type: ignore[method-assign]
