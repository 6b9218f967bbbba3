"""The greedy bot's 1000? play.

It starts a climb with the card it would find hardest to play later and climbs with the lowest
card that beats the top. When it cannot beat the top (or only with a 1000 it would rather keep) it
bluffs: a card played face down leaves the hand if believed and, if caught, costs no more than
drawing would have (three cards drawn, one of them played to start the next climb). Against a
player who challenges often it plays honest cards face down as traps. It answers a face-down card
by counting how many of the cards it has not seen could honestly have been played there.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from thousand.bluff.actions import Action, Believe, Challenge, Hide, Pass, Play
from thousand.bluff.cards import Card, beats
from thousand.bluff.observation import Observation
from thousand.bluff.state import Phase
from thousand.bluff.tracking import track

__all__ = ["choose", "unseen_cards"]

_PRIOR = (1.0, 4.0)
"""Challenges and answers counted for every player before its own: a player not yet seen
answering is taken to challenge one time in four."""
_DOUBT = 0.75
"""How sure of a bluff the bot must be to challenge a single opponent. Believing costs the
believer nothing (it then plays any card on the hidden one); a challenge sets the hider back
three cards when right and the challenger when wrong."""
_DOUBT_LEADER = 0.9
"""With several opponents a right challenge helps the others as much as the challenger, so the
bot challenges only the player with the fewest cards, and only when nearly sure."""
_CLOSE = 2
"""A player with this many cards or fewer is close to winning: any likely bluff is challenged."""
_RACE = 2
"""Once a player is down to this many cards (or the bot to one more), it spends even its only
1000 rather than bluff."""


@lru_cache(maxsize=16)
def usefulness(deck: tuple[Card, ...]) -> dict[Card, int]:
    """For each card of the deck, how many cards of the deck it may be played on face up: cards
    that go on few others are the ones to get rid of first."""
    return {card: sum(beats(card, top) for top in deck) for card in set(deck)}


def choose(observation: Observation) -> Action:
    """The greedy bot's action in a 1000? game: one of ``observation.legal_actions``."""
    legal = observation.legal_actions
    if observation.phase is Phase.RESPONSE:
        return _respond(observation)
    plays = [action for action in legal if isinstance(action, Play)]
    if observation.phase is Phase.START:
        return _start(observation, plays)
    return _climb(observation, plays)


def _start(observation: Observation, plays: list[Play]) -> Action:
    """Open a climb with the card that is least use later (never a 1000 while another will do)."""
    useful = usefulness(observation.rules.deck)
    return min(plays, key=lambda play: (play.card.is_thousand, useful[play.card], play.card.value))


def _climb(observation: Observation, plays: list[Play]) -> Action:
    """Beat the top with the lowest card that does, with a 1000 only when holding several or in a
    race; else bluff with the least useful card. On a 1000 or a believed card anything goes: the
    least useful card. A last card is played if it may be, else hidden."""
    hand = observation.hand
    if len(hand) == 1:
        return plays[0] if plays else Hide(hand[0])
    useful = usefulness(observation.rules.deck)
    top = observation.table[-1]
    if top.believed or (top.card is not None and top.card.is_thousand):
        worst = min(hand, key=lambda card: (card.is_thousand, useful[card], card.value))
        return _show_or_trap(observation, worst)
    numbers = [play.card for play in plays if not play.card.is_thousand]
    if numbers:
        return _show_or_trap(observation, min(numbers, key=lambda card: card.value))
    thousands = [card for card in hand if card.is_thousand]
    racing = min(observation.hand_sizes) <= _RACE or len(hand) <= _RACE + 1
    if thousands and (racing or len(thousands) > 1):
        return _show_or_trap(observation, thousands[0])
    others = [card for card in hand if not card.is_thousand]
    if not others:
        return Pass()
    return Hide(min(others, key=lambda card: (useful[card], card.value)))


def _show_or_trap(observation: Observation, card: Card) -> Action:
    """Play an honest card face up, or face down as a trap. Face down, the next player draws
    three when challenging it and plays anything on it when believing it; face up, they must beat
    it. So the trap pays against a player who challenges often, or when the card is easy to beat
    anyway."""
    unseen = unseen_cards(observation)
    total = sum(unseen.values())
    beating = sum(count for other, count in unseen.items() if beats(other, card))
    following = observation.hand_sizes[(observation.seat + 1) % observation.rules.players]
    easy = 1.0 - (1.0 - beating / total) ** following if total else 1.0
    return Hide(card) if _challenge_rate(observation) > (1.0 - easy) / 2 else Play(card)


def _challenge_rate(observation: Observation) -> float:
    """How often the next player has challenged the face-down cards it had to answer."""
    following = (observation.seat + 1) % observation.rules.players
    challenges, answers = _PRIOR
    for actor, action in observation.history:
        if actor == following and isinstance(action, (Believe, Challenge)):
            answers += 1
            challenges += isinstance(action, Challenge)
    return challenges / answers


def _respond(observation: Observation) -> Action:
    """Believe unless the unseen cards make a bluff likely enough (or the hider would win)."""
    table = observation.table
    hidden = table[-1]
    below = table[-2]
    if below.believed or (below.card is not None and below.card.is_thousand):
        return Believe()
    assert below.card is not None
    owner = hidden.owner
    if observation.hand_sizes[owner] == 0:
        return Challenge()
    unseen = unseen_cards(observation)
    total = sum(unseen.values())
    honest = sum(count for card, count in unseen.items() if beats(card, below.card))
    bluff = 1.0 - honest / total if total else 0.0
    sizes = observation.hand_sizes
    if observation.rules.players == 2 or sizes[owner] <= _CLOSE:
        return Challenge() if bluff > _DOUBT else Believe()
    leader = all(size >= sizes[owner] for size in sizes)
    return Challenge() if leader and bluff > _DOUBT_LEADER else Believe()


def unseen_cards(observation: Observation) -> Counter[Card]:
    """The cards this seat cannot place: the deck less its own hand, the cards showing on the
    table, and the cards it saw go to the discard pile since it was last shuffled."""
    unseen = Counter(observation.rules.deck)
    unseen.subtract(observation.hand)
    unseen.subtract(entry.card for entry in observation.table if entry.card is not None)
    unseen.subtract(card for card in track(observation).discards if card is not None)
    return +unseen
