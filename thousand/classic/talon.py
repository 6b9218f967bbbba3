"""After the auction: the talon (prikup) or a musik, the exchange, the contract or concession."""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from thousand.classic.actions import Action, Concede, Contract, Discard, Give, Take
from thousand.classic.cards import DECK, Card, indices
from thousand.classic.marriages import ceiling
from thousand.classic.rules import Concession, Rules
from thousand.common.state_base import fast_updater

TAKES: tuple[Action, ...] = (Take(1), Take(2))
CONCEDE = Concede()
_GIVES = {(index, seat): Give(DECK[index], seat) for index in range(24) for seat in range(4)}
_DISCARDS = {index: Discard(DECK[index]) for index in range(24)}
_UNSEEN_GIVES = tuple(Give(None, seat) for seat in range(4))
"""A card given to each seat, as the deal's public history holds it."""
_UNSEEN_DISCARD = Discard(None)
"""A card laid aside, as the deal's public history holds it."""


def shown_talon(state: GameState) -> tuple[Card, ...]:
    """The talon once the auction is over (three players), or the musik taken (two): what the
    whole table has been shown of the cards not dealt."""
    if state.phase is _AUCTION:
        return ()
    talon = state.context.layout.talon
    if len(talon) == 1:  # the talon of three or four players
        return talon[0]
    return talon[state.musik - 1] if state.musik else ()


def open_talon(state: GameState) -> GameState:
    """The auction is over: three players take the talon into the declarer's hand; two players
    go on to choose a musik."""
    if state.rules.players == 2:
        return _musik_choice(state, phase=Phase.MUSIK)
    hands = list(state.hand_masks)
    hands[state.bidder] |= state.talon_masks[0]
    return _talon_taken(state, phase=Phase.EXCHANGE, hand_masks=tuple(hands), talon_masks=(0,))


def legal_takes(state: GameState) -> tuple[Action, ...]:
    """Take musik 1 or musik 2."""
    return TAKES


def take(state: GameState, action: Take) -> GameState:
    """The declarer takes the chosen musik (shown to the opponent) into hand."""
    chosen = action.musik - 1
    hands = list(state.hand_masks)
    hands[state.player] |= state.talon_masks[chosen]
    talon = tuple(0 if pile == chosen else mask for pile, mask in enumerate(state.talon_masks))
    return _musik_taken(
        state,
        phase=Phase.EXCHANGE,
        hand_masks=tuple(hands),
        talon_masks=talon,
        musik=action.musik,
        history=(state.history, state.player, action),
    )


def _waiting(state: GameState) -> tuple[int, ...]:
    """Opponents who have not yet received a card from the declarer."""
    size = state.rules.hand_size
    return tuple(
        seat
        for seat, hand in enumerate(state.hand_masks)
        if seat != state.player and hand.bit_count() == size
    )


def legal_exchange(state: GameState) -> tuple[Action, ...]:
    """Give any card to an opponent still waiting for one (3 players), or lay any card aside."""
    hand = state.hand_masks[state.player]
    if state.rules.players == 2:
        return tuple(_DISCARDS[index] for index in indices(hand))
    waiting = _waiting(state)
    return (
        _suit_gives(3, hand >> 18, waiting)
        + _suit_gives(2, hand >> 12 & 63, waiting)
        + _suit_gives(1, hand >> 6 & 63, waiting)
        + _suit_gives(0, hand & 63, waiting)
    )


@lru_cache(maxsize=2048)
def _suit_gives(suit: int, pattern: int, waiting: tuple[int, ...]) -> tuple[Action, ...]:
    """The gives of one suit's cards (6-bit ``pattern``), high rank first, each card to every
    waiting seat in turn."""
    return tuple(
        _GIVES[6 * suit + rank, seat]
        for rank in reversed(range(6))
        if pattern >> rank & 1
        for seat in waiting
    )


def exchange(state: GameState, action: Give | Discard) -> GameState:
    """Move one card out of the declarer's hand; once the exchange is complete, the contract."""
    bit = cast(Card, action.card).bit
    declarer = state.player
    hands = list(state.hand_masks)
    hands[declarer] &= ~bit
    seen = list(state.exchange_seen)
    seen[declarer] += (action,)
    if isinstance(action, Give):
        hands[action.to] |= bit
        seen[action.to] = (action,)
        done = hands[declarer].bit_count() == state.rules.hand_size + 1
        return _given(
            state,
            phase=Phase.CONTRACT if done else Phase.EXCHANGE,
            hand_masks=tuple(hands),
            exchange_seen=tuple(seen),
            history=(state.history, declarer, _UNSEEN_GIVES[action.to]),
        )
    set_aside = state.set_aside_mask | bit
    return _laid_aside(
        state,
        phase=Phase.CONTRACT if set_aside.bit_count() == 2 else Phase.EXCHANGE,
        hand_masks=tuple(hands),
        set_aside_mask=set_aside,
        exchange_seen=tuple(seen),
        history=(state.history, declarer, _UNSEEN_DISCARD),
    )


@lru_cache(maxsize=1024)
def _contracts(low: int, high: int, step: int, concede: bool) -> tuple[Action, ...]:
    amounts = tuple(Contract(amount) for amount in range(low, high + 1, step))
    return (*amounts, CONCEDE) if concede else amounts


def contract_ceiling(rules: Rules, state: GameState) -> int:
    """The highest contract: the cap base plus the marriages now in the declarer's hand, and
    never below the winning bid (a declarer who gave away part of a marriage may still play it)."""
    return max(state.bid, ceiling(rules, state.hand_masks[state.player]))


def legal_contracts(state: GameState) -> tuple[Action, ...]:
    """Every contract from the winning bid to the ceiling, then ``concede`` where allowed."""
    rules = state.rules
    return _contracts(
        state.bid,
        contract_ceiling(rules, state),
        rules.bid_step,
        rules.concession is not Concession.NONE,
    )


def fix_contract(state: GameState, action: Contract) -> GameState:
    """The declarer fixes the contract and leads the first trick."""
    return _contract_fixed(
        state,
        phase=Phase.PLAY,
        contract_amount=action.amount,
        history=(state.history, state.player, action),
    )


def why_illegal(state: GameState, action: Action) -> str:
    """Why ``action`` is not legal in the musik choice, exchange or contract phase."""
    rules = state.rules
    hand = state.hand_masks[state.player]
    if state.phase is Phase.MUSIK:
        return "choose a musik with 'take 1' or 'take 2'"
    if state.phase is Phase.EXCHANGE:
        if rules.players == 2:
            if not isinstance(action, Discard):
                return "the declarer now lays two cards aside, as in 'discard 9S'"
            return f"{action.card} is not in the declarer's hand"
        if not isinstance(action, Give):
            return "the declarer now gives one card to each opponent, as in 'give 9S 1'"
        if action.card is None or not hand & action.card.bit:
            return f"{action.card} is not in the declarer's hand"
        waiting = _waiting(state)
        return f"seat {action.to} is not waiting for a card; give to seat " + " or ".join(
            map(str, waiting)
        )
    if isinstance(action, Concede):
        return "these rules do not allow conceding"
    if not isinstance(action, Contract):
        return "the declarer now fixes the contract ('contract N')" + (
            " or concedes" if rules.concession is not Concession.NONE else ""
        )
    if action.amount < state.bid:
        return f"the contract may not be below the winning bid of {state.bid}"
    if action.amount % rules.bid_step:
        return f"contracts go in steps of {rules.bid_step}"
    return (
        f"the contract may not exceed {contract_ceiling(rules, state)} "
        f"({rules.cap_base} plus the marriages in hand)"
    )


# Loading the state loads the dispatcher, which reads this module's functions: they exist by now.
from thousand.classic.state import GameState, Phase  # noqa: E402

_AUCTION = Phase.AUCTION
"""Read at every observation: a name of the module is found faster than an enum's member."""

_musik_choice = fast_updater(GameState, "phase")
_talon_taken = fast_updater(GameState, "phase", "hand_masks", "talon_masks")
_musik_taken = fast_updater(GameState, "phase", "hand_masks", "talon_masks", "musik", "history")
_given = fast_updater(GameState, "phase", "hand_masks", "exchange_seen", "history")
_laid_aside = fast_updater(
    GameState, "phase", "hand_masks", "set_aside_mask", "exchange_seen", "history"
)
_contract_fixed = fast_updater(GameState, "phase", "contract_amount", "history")
