"""The 1000? determiniser: full game states consistent with everything one seat has seen.

A sampled world keeps the seat's own hand and its own face-down cards, every card face up on the
table, the cards revealed by challenges and the cards it saw go to the discard pile, the hand
sizes and the size of both piles; the cards it has not seen (other hands, the draw pile, other
seats' face-down cards) are shuffled into those places, every arrangement equally likely. Passing
and playing face down are always allowed, so play reveals nothing more about a hand.

    >>> import random
    >>> from thousand.bluff import Rules, new_game
    >>> state = new_game(Rules(players=3), seed=4)
    >>> seen = state.observation(1)
    >>> world = Determiniser(seen).sample(random.Random(1))
    >>> world.observation(1) == seen, world.hands[1] == state.hands[1]
    (True, True)

Cards seen going to the discard pile before it was last shuffled into the draw pile count as
unseen: they may have been drawn by anyone since. The world's history is the observation's: a
face-down card it never saw stays ``hide ??`` there.
"""

from __future__ import annotations

import random
from collections import Counter

from thousand.bluff.actions import Challenge
from thousand.bluff.observation import Observation
from thousand.bluff.rules import ChallengeRestart
from thousand.bluff.state import Origin, Phase, State
from thousand.bluff.tracking import track
from thousand.errors import NoWorldError
from thousand.history import Linked

__all__ = ["Determiniser", "determinise"]


def determinise(observation: Observation, rng: random.Random) -> State:
    """One full state consistent with ``observation``, drawn with ``rng`` (see
    :class:`Determiniser` to draw many)."""
    return Determiniser(observation).sample(rng)


class Determiniser:
    """Samples full states consistent with one seat's observation of a 1000? game.

    Raises:
        NoWorldError: the game is over, or the observation's cards do not add up.
    """

    def __init__(self, observation: Observation) -> None:
        if observation.phase is Phase.OVER:
            raise NoWorldError("the game is over: there is nothing left to sample")
        self.observation = observation
        rules = observation.rules
        number = rules.kinds.number
        tracked = track(observation)
        unseen = Counter(number[card] for card in rules.deck)
        unseen.subtract(number[card] for card in observation.hand)
        unseen.subtract(number[entry.card] for entry in observation.table if entry.card)
        unseen.subtract(number[card] for card in tracked.discards if card is not None)
        if any(count < 0 for count in unseen.values()):
            raise NoWorldError("the observation shows more copies of a card than the deck has")
        self._unseen = sorted(unseen.elements())
        seat = observation.seat
        self._others = [other for other in range(rules.players) if other != seat]
        sizes = observation.hand_sizes
        self._pile_size = observation.draw_pile_size
        self._hidden_table = sum(entry.card is None for entry in observation.table)
        self._discards = tracked.discards
        places = (
            sum(sizes[other] for other in self._others)
            + self._pile_size
            + sum(card is None for card in tracked.discards)
            + self._hidden_table
        )
        if places != len(self._unseen):
            raise NoWorldError(
                f"{len(self._unseen)} unseen cards for {places} places: the observation does not "
                "add up"
            )
        self._reshuffles = tracked.reshuffles
        self._restart: tuple[int, ...] | None = None
        self._restart_draw = 0
        history = observation.history
        restarting = (
            rules.challenge_restart is ChallengeRestart.DRAWN_CARD
            and observation.phase is Phase.START
            and bool(history)
            and isinstance(history[-1][1], Challenge)
            and tracked.penalty is not None
            and tracked.penalty[0] == observation.current_player
        )
        if restarting and observation.must_start_with:
            self._restart = tuple(sorted(number[card] for card in observation.must_start_with))
        elif restarting and tracked.penalty is not None and tracked.penalty[1]:
            self._restart_draw = tracked.penalty[1]
        linked: Linked[object] = None
        for actor, action in history:
            linked = (linked, actor, action)
        self._history = linked

    def sample(self, rng: random.Random) -> State:
        """One consistent full state, every arrangement of the unseen cards equally likely."""
        observation = self.observation
        rules = observation.rules
        number = rules.kinds.number
        cards = list(self._unseen)
        rng.shuffle(cards)
        hands: list[tuple[int, ...]] = [()] * rules.players
        hands[observation.seat] = tuple(sorted(number[card] for card in observation.hand))
        start = 0
        for other in self._others:
            size = observation.hand_sizes[other]
            hands[other] = tuple(sorted(cards[start : start + size]))
            start += size
        pile = tuple(cards[start : start + self._pile_size])
        start += self._pile_size
        discards = []
        for card in self._discards:
            if card is None:
                discards.append(cards[start])
                start += 1
            else:
                discards.append(number[card])
        table = []
        for entry in observation.table:
            if entry.card is None:
                kind = cards[start]
                start += 1
            else:
                kind = number[entry.card]
            table.append((kind, entry.owner, entry.face_down, entry.believed))
        restart = self._restart
        player = observation.current_player
        if self._restart_draw and player is not None:
            restart = tuple(sorted(rng.sample(hands[player], self._restart_draw)))
        return State(
            rules=rules,
            origin=Origin(rng.getrandbits(63), observation.dealer, None),
            phase=observation.phase,
            player=-1 if player is None else player,
            hand_kinds=tuple(hands),
            pile=pile,
            pile_position=0,
            discards=tuple(discards),
            table_entries=tuple(table),
            restart_kinds=restart,
            reshuffles=self._reshuffles,
            turns=observation.turns,
            result=None,
            history=self._history,  # type: ignore[arg-type]
        )
