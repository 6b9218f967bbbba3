"""Climbing: starting a climb, playing face up or face down, passing, and the end of a climb."""

from __future__ import annotations

from typing import cast

from thousand.bluff.actions import Action, Hide, Pass, Play
from thousand.bluff.cards import Card
from thousand.bluff.pile import draw
from thousand.bluff.results import Result
from thousand.bluff.rules import LastCardFaceDown
from thousand.bluff.state import FACE_DOWN, Entry, History, Phase, State

PASS = Pass()


def without(hand: tuple[int, ...], kind: int) -> tuple[int, ...]:
    """The hand with one card of ``kind`` removed."""
    position = hand.index(kind)
    return hand[:position] + hand[position + 1 :]


def distinct(hand: tuple[int, ...]) -> list[int]:
    """The different kinds in a sorted hand, lowest first."""
    return sorted(set(hand))


def tops_anything(entry: Entry) -> bool:
    """Whether a table card lets anything follow: a believed face-down card counts as a 1000."""
    return entry[3]


def legal_starts(state: State) -> tuple[Action, ...]:
    """Any card of the hand face up, or after a lost challenge one of the cards just drawn."""
    plays = state.kinds.plays
    allowed = (
        state.restart_kinds if state.restart_kinds is not None else state.hand_kinds[state.player]
    )
    return tuple(plays[kind] for kind in distinct(allowed))


def legal_climb(state: State) -> tuple[Action, ...]:
    """Face up every card that beats the top, then face down any card, then pass."""
    kinds = state.kinds
    hand = distinct(state.hand_kinds[state.player])
    top = state.table_entries[-1]
    if tops_anything(top):
        ups = [kinds.plays[kind] for kind in hand]
    else:
        row = kinds.beats[top[0]]
        ups = [kinds.plays[kind] for kind in hand if row[kind]]
    return (*ups, *(kinds.hides[kind] for kind in hand), PASS)


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
    return state.advance(
        action,
        phase=Phase.CLIMB,
        player=(state.player + 1) % state.rules.players,
        hand_kinds=hands,
        table_entries=table,
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
    return state.advance(
        FACE_DOWN,
        phase=Phase.RESPONSE,
        player=(player + 1) % state.rules.players,
        hand_kinds=hands,
        table_entries=table,
        own_hides=tuple(hidden),
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
    return state.advance(
        action,
        phase=Phase.START if ended else Phase.CLIMB,
        player=following,
        hand_kinds=tuple(hands),
        pile=drawn.pile,
        pile_position=drawn.pile_position,
        discards=discards,
        table_entries=() if ended else state.table_entries,
        reshuffles=drawn.reshuffles,
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
