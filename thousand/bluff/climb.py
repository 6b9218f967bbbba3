"""Climbing: starting a climb, playing face up or face down, passing, and the end of a climb."""

from __future__ import annotations

from typing import cast

from thousand.bluff.actions import Action, Hide, Pass, Play
from thousand.bluff.cards import Card
from thousand.bluff.pile import draw
from thousand.bluff.results import Result
from thousand.bluff.rules import LastCardFaceDown
from thousand.bluff.state import FACE_DOWN, Entry, History, Phase, State
from thousand.common.state_base import fast_updater

PASS = Pass()


def without(hand: tuple[int, ...], kind: int) -> tuple[int, ...]:
    """The hand with one card of ``kind`` removed."""
    position = hand.index(kind)
    return hand[:position] + hand[position + 1 :]


def tops_anything(entry: Entry) -> bool:
    """Whether a table card lets anything follow: a believed face-down card counts as a 1000."""
    return entry[3]


def legal_starts(state: State) -> tuple[Action, ...]:
    """Any card of the hand face up, or after a lost challenge one of the cards just drawn."""
    plays = state.rules.kinds.plays
    allowed = state.restart_kinds
    if allowed is None:
        allowed = state.hand_kinds[state.player]
    starts = []
    last = -1
    for kind in allowed:  # sorted: equal cards are neighbours
        if kind != last:
            starts.append(plays[kind])
            last = kind
    return tuple(starts)


def legal_climb(state: State) -> tuple[Action, ...]:
    """Face up every card that beats the top, then face down any card, then pass."""
    kinds = state.rules.kinds
    plays, hides = kinds.plays, kinds.hides
    top = state.table_entries[-1]
    row = None if tops_anything(top) else kinds.beats[top[0]]
    ups: list[Action] = []
    downs: list[Action] = []
    last = -1
    for kind in state.hand_kinds[state.player]:  # sorted: equal cards are neighbours
        if kind != last:
            if row is None or row[kind]:
                ups.append(plays[kind])
            downs.append(hides[kind])
            last = kind
    ups += downs
    ups.append(PASS)
    return tuple(ups)


def _place(
    state: State, kind: int, face_down: bool
) -> tuple[tuple[tuple[int, ...], ...], tuple[Entry, ...]]:
    hands = list(state.hand_kinds)
    hands[state.player] = without(hands[state.player], kind)
    return tuple(hands), (*state.table_entries, (kind, state.player, face_down, False))


def play(state: State, action: Play) -> State:
    """Play a card face up (starting a climb or on the top card); an empty hand wins."""
    kind = state.kinds.number_by_label[action.card.label]
    hands, table = _place(state, kind, face_down=False)
    if not hands[state.player]:
        return won(state, action, hands, table, state.player)
    player = state.player
    return _played(
        state,
        (player + 1) % state.rules.players,
        hands,
        table,
        state.turns + 1,
        (state.history, player, action),
    )


def hide(state: State, action: Hide) -> State:
    """Play a card face down; the next player must believe or challenge it."""
    kind = state.kinds.number_by_label[cast(Card, action.card).label]
    hands, table = _place(state, kind, face_down=True)
    player = state.player
    hidden = list(state.own_hides)
    hidden[player] = (hidden[player], player, action)
    if not hands[player] and state.rules.last_card_face_down is LastCardFaceDown.WINS:
        return won(state, FACE_DOWN, hands, table, player, tuple(hidden))
    return _hidden(
        state,
        (player + 1) % state.rules.players,
        hands,
        table,
        state.turns + 1,
        tuple(hidden),
        (state.history, player, FACE_DOWN),
    )


def pass_turn(state: State, action: Action) -> State:
    """Draw one card; the turn goes left. If it comes back to the owner of the top card, the
    climb is over: the table is discarded and that player starts a new climb."""
    drawn = draw(state, 1, state.discards)
    hands = list(state.hand_kinds)
    hands[state.player] = tuple(sorted(hands[state.player] + drawn.cards))
    following = (state.player + 1) % state.rules.players
    ended = following == state.table_entries[-1][1]
    discards = drawn.discards
    if ended:
        discards = discards + tuple(entry[0] for entry in state.table_entries)
    return _passed(
        state,
        phase=Phase.START if ended else Phase.CLIMB,
        player=following,
        hand_kinds=tuple(hands),
        pile=drawn.pile,
        pile_position=drawn.pile_position,
        discards=discards,
        table_entries=() if ended else state.table_entries,
        reshuffles=drawn.reshuffles,
        turns=state.turns + 1,
        history=(state.history, state.player, action),
    )


def won(
    state: State,
    action: Action,
    hands: tuple[tuple[int, ...], ...],
    table: tuple[Entry, ...],
    winner: int,
    own_hides: tuple[History, ...] | None = None,
    revealing: bool = False,
) -> State:
    """The final state: ``winner`` has emptied their hand (``action`` as the history records
    it; see :meth:`State.advance` for ``revealing``)."""
    result = Result(
        winners=(winner,),
        hand_sizes=tuple(len(hand) for hand in hands),
        turns=state.turns + 1,
    )
    return state.advance(
        action,
        phase=Phase.OVER,
        player=-1,
        hand_kinds=hands,
        table_entries=table,
        result=result,
        own_hides=own_hides,
        revealing=revealing,
    )


# The copies each move makes of the state (every move counts a turn and extends the history).
_played = fast_updater(
    State,
    "player", "hand_kinds", "table_entries", "turns", "history",
    phase=Phase.CLIMB, restart_kinds=None,
)  # fmt: skip
_hidden = fast_updater(
    State,
    "player", "hand_kinds", "table_entries", "turns", "own_hides", "history",
    phase=Phase.RESPONSE,
)  # fmt: skip
_passed = fast_updater(
    State,
    "phase", "player", "hand_kinds", "pile", "pile_position", "discards", "table_entries",
    "reshuffles", "turns", "history",
)  # fmt: skip
