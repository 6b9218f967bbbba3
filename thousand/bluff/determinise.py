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
unseen: they may have been drawn by anyone since.

Every face-down card the seat never saw is filled in from the world (the card now on the table
or in the discard pile at its place), so the world's history holds only real actions. Until the
discards are first reshuffled the world also has its deal, worked back from the sampled hands
(which cards each draw brought): ``world.origin.layout`` and the history replay to the world, as
a Thousand world's do. A reshuffle follows a seed no seat knows, so a world after one has no
deal (``origin.layout`` is ``None``), and the face-down cards played before the last reshuffle
are filled in with unseen cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from thousand.bluff.actions import Action, Challenge, Hide, Play
from thousand.bluff.layout import Layout
from thousand.bluff.observation import Observation
from thousand.bluff.rules import ChallengeRestart
from thousand.bluff.state import Entry, Origin, Phase, State, public_history
from thousand.bluff.tracking import Draw, track
from thousand.errors import NoWorldError

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
        tracked = track(observation, draws=True)
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
        self._draws = tracked.draws
        self._actions = history
        self._places = _face_down_places(history, tracked.draws)
        # The history up to the first card to fill in is the same in every world.
        first = self._places[0][0] if self._places else len(history)
        self._shared = public_history(history[:first], players=rules.players)
        self._first = first

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
        actions = self._filled(discards, table, rng)
        history, own_hides = public_history(actions[self._first :], *self._shared)
        layout = None
        drawn: tuple[int, ...] = ()
        if not self._reshuffles:
            layout, drawn = self._dealt(hands, pile, restart, actions, rng)
        return State(
            rules=rules,
            origin=Origin(rng.getrandbits(63), observation.dealer, layout),
            phase=observation.phase,
            player=-1 if player is None else player,
            hand_kinds=tuple(hands),
            pile=drawn + pile,
            pile_position=len(drawn),
            discards=tuple(discards),
            table_entries=tuple(table),
            restart_kinds=restart,
            reshuffles=self._reshuffles,
            turns=observation.turns,
            result=None,
            own_hides=own_hides,
            history=history,
        )

    def _filled(
        self, discards: Sequence[int], table: Sequence[Entry], rng: random.Random
    ) -> list[tuple[int, Action]]:
        """The history with every face-down card this seat never saw taken from the world:
        from its place on the table or in the discards, or (reshuffled away) any unseen card."""
        actions = list(self._actions)
        hides = self.observation.rules.kinds.hides
        for position, on_table, discarded in self._places:
            if on_table is not None:
                kind = table[on_table][0]
            elif discarded is not None:
                kind = discards[discarded]
            else:
                kind = rng.choice(self._unseen)
            actions[position] = (actions[position][0], hides[kind])
        return actions

    def _dealt(
        self,
        hands: Sequence[tuple[int, ...]],
        pile: tuple[int, ...],
        restart: tuple[int, ...] | None,
        actions: Sequence[tuple[int, Action]],
        rng: random.Random,
    ) -> tuple[Layout, tuple[int, ...]]:
        """The deal that ``actions`` lead from to the sampled ``hands`` and ``pile``, and the
        cards drawn since, in order: worked back from the end, each draw taking back cards of
        the drawer's hand (after a lost challenge, the restarting card among them)."""
        rules = self.observation.rules
        kinds = rules.kinds
        number = kinds.number
        restarts = rules.challenge_restart is ChallengeRestart.DRAWN_CARD
        held = [list(hand) for hand in hands]
        drawn: list[int] = []
        last = len(actions) - 1
        for position in range(last, -1, -1):
            actor, action = actions[position]
            draw = self._draws[position]
            if draw is None:
                if isinstance(action, Play | Hide) and action.card is not None:
                    held[actor].append(number[action.card])
                continue
            if not draw.cards:
                continue
            hand = held[draw.seat]
            if restarts and isinstance(action, Challenge):
                # The restarting card was one of the penalty cards just drawn.
                if position == last:
                    cards = list(restart or ())
                else:
                    start = actions[position + 1][1]
                    assert isinstance(start, Play)
                    first = number[start.card]
                    rest = list(hand)
                    rest.remove(first)
                    cards = [first, *rng.sample(rest, draw.cards - 1)]
                rng.shuffle(cards)
            else:
                cards = rng.sample(hand, draw.cards)
            for kind in cards:
                hand.remove(kind)
            drawn[:0] = cards
        deck = kinds.cards
        layout = Layout(
            hands=[[deck[kind] for kind in sorted(hand)] for hand in held],
            draw_pile=[deck[kind] for kind in (*drawn, *pile)],
        )
        return layout, tuple(drawn)


def _face_down_places(
    history: Sequence[tuple[int, Action]], draws: Sequence[Draw | None]
) -> tuple[tuple[int, int | None, int | None], ...]:
    """Each face-down card the seat never saw (``hide ??``) as its position in the history and
    where it is now: its place on the table, or in the discards, or neither (it went to the
    discards before they were last reshuffled)."""
    table: list[int] = []
    discards: list[int] = []
    for position, ((_, action), draw) in enumerate(zip(history, draws, strict=True)):
        if isinstance(action, Play | Hide):
            table.append(position)
        elif draw is not None:
            if draw.reshuffled:
                discards = []
            if draw.cleared:
                discards += table
                table = []
    on_table = {position: index for index, position in enumerate(table)}
    discarded = {position: index for index, position in enumerate(discards)}
    return tuple(
        (position, on_table.get(position), discarded.get(position))
        for position, (_, action) in enumerate(history)
        if isinstance(action, Hide) and action.card is None
    )
