"""Observations: what one seat may know, as a value with no link back to the state.

Two states that differ only in what a seat cannot see (other hands, the unseen musik, cards given
or laid aside face down, the seed behind future deals) give that seat equal observations.
"""

from __future__ import annotations

from typing import cast

import attrs

from thousand.actions import Action, Discard, Give, Play
from thousand.cards import Card, Suit, cards_of
from thousand.errors import SeatError
from thousand.rules import Rules
from thousand.state import ACES, GameState, Phase
from thousand.tricks import trick_winner

__all__ = ["Observation", "Trick", "observe"]


@attrs.frozen
class Trick:
    """A finished trick of the current deal."""

    leader: int
    cards: tuple[Card, ...]
    """The cards in the order played, the leader's first."""
    winner: int


@attrs.frozen
class Observation:
    """One seat's view of the game at one moment."""

    seat: int
    """The observing seat."""
    rules: Rules
    phase: Phase
    current_player: int | None
    dealer: int
    deal_number: int
    scores: tuple[int, ...]
    barrel: tuple[int | None, ...]
    """Per seat: ``None`` off the barrel, else the deals already spent on it."""
    hand: tuple[Card, ...]
    """The observer's own cards."""
    hand_sizes: tuple[int, ...]
    bid: int
    """The highest bid so far (the winning bid after the auction)."""
    bidder: int
    """Who holds the highest bid (the declarer after the auction)."""
    passed: tuple[int, ...]
    """Seats that have passed in this deal's auction."""
    declarer: int | None
    contract: int | None
    talon: tuple[Card, ...]
    """The talon (3 players) or the chosen musik (2 players) once shown; before that empty."""
    received: Card | None
    """Three players: the card the declarer gave this seat, once given."""
    given: tuple[tuple[Card, int], ...]
    """The declarer's own view of the cards it gave, as ``(card, seat)``."""
    set_aside: tuple[Card, ...]
    """Two players, the declarer only: the cards it laid aside."""
    trick: tuple[tuple[int, Card], ...]
    """The current trick as ``(seat, card)``."""
    tricks: tuple[Trick, ...]
    """The finished tricks of this deal."""
    points_taken: tuple[int, ...]
    """Card points each seat has won in tricks this deal (marriages not included)."""
    melds: tuple[tuple[int, Suit | None], ...]
    """Declared marriages as ``(seat, suit)``; ``None`` for the four aces."""
    trump: Suit | None
    history: tuple[tuple[int, Action], ...]
    """This deal's actions as ``(seat, action)``; cards this seat did not see are ``None``."""
    legal_actions: tuple[Action, ...]
    """The observer's legal actions (empty when it is not the observer's turn)."""


def observe(state: GameState, seat: int) -> Observation:
    """The observation of ``seat`` in ``state``."""
    rules = state.rules
    if not 0 <= seat < rules.players:
        raise SeatError(f"seats at this table are 0 to {rules.players - 1}, not {seat}")
    history = state.actions
    declarer = state.declarer
    shown: tuple[Card, ...] = ()
    if declarer is not None:
        piles = state.layout.talon
        if rules.players == 3:
            shown = piles[0]
        elif state.musik:
            shown = piles[state.musik - 1]
    # The deal's actions are the auction and exchange, then one play per card played.
    played = len(state.trick_cards) + sum(mask.bit_count() for mask in state.taken_masks)
    opening = history[: len(history) - played]
    plays = history[len(history) - played :]
    received = None
    given: list[tuple[Card, int]] = []
    seen: list[tuple[int, Action]] = []
    for actor, action in opening:
        if isinstance(action, Give) and action.card is not None and actor != seat:
            if action.to == seat:
                received = action.card
            else:
                action = Give(None, action.to)
        elif isinstance(action, Give) and action.card is not None:
            given.append((action.card, action.to))
        elif isinstance(action, Discard) and actor != seat:
            action = Discard(None)
        seen.append((actor, action))
    return _observation(state, seat, shown, received, given, (*seen, *plays), _tricks(state, plays))


def _tricks(state: GameState, plays: tuple[tuple[int, Action], ...]) -> tuple[Trick, ...]:
    """The finished tricks among the deal's plays: each trick's winner leads the next one."""
    players = state.rules.players
    leaders = [plays[start][0] for start in range(0, len(plays), players)]
    tricks = []
    for number in range(len(plays) // players):
        chunk = plays[number * players : (number + 1) * players]
        cards = tuple(cast(Play, action).card for _, action in chunk)
        if number + 1 < len(leaders):
            winner = leaders[number + 1]
        elif state.phase is Phase.OVER:
            winner = chunk[trick_winner(tuple(card.index for card in cards), state.trump_suit)][0]
        else:
            winner = state.player
        tricks.append(Trick(leaders[number], cards, winner))
    return tuple(tricks)


def _observation(
    state: GameState,
    seat: int,
    shown: tuple[Card, ...],
    received: Card | None,
    given: list[tuple[Card, int]],
    history: tuple[tuple[int, Action], ...],
    tricks: tuple[Trick, ...],
) -> Observation:
    rules = state.rules
    declarer = state.declarer
    return Observation(
        seat=seat,
        rules=rules,
        phase=state.phase,
        current_player=state.current_player,
        dealer=state.dealer,
        deal_number=state.deal_number,
        scores=state.scores,
        barrel=state.barrel,
        hand=cards_of(state.hand_masks[seat]),
        hand_sizes=tuple(mask.bit_count() for mask in state.hand_masks),
        bid=state.bid,
        bidder=state.bidder,
        passed=tuple(s for s in range(rules.players) if state.passed_mask >> s & 1),
        declarer=declarer,
        contract=state.contract,
        talon=shown,
        received=received,
        given=tuple(given),
        set_aside=cards_of(state.set_aside_mask) if seat == declarer else (),
        trick=state.trick,
        tricks=tricks,
        points_taken=state.points_taken,
        melds=tuple((s, None if suit == ACES else Suit(suit)) for s, suit in state.melds),
        trump=state.trump,
        history=history,
        legal_actions=state.legal_actions() if state.player == seat else (),
    )
