"""The determiniser: full game states consistent with everything one seat has seen.

A search bot cannot look at the other hands, so it imagines them: it samples complete states
("worlds") that agree with its observation, searches each as if the cards were face up, and
combines the answers. A sampled world respects the seat's own hand, the talon or musik it was
shown, the cards it gave or received, every card played, the suits and cards other seats showed
they lack (by not following, not trumping, not beating where they had to, leading a king or queen
without declaring), the marriages declared, and the bids (a bid above the cap base needs its
marriages). Every placement of the unseen cards that is consistent with all of that is equally
likely.

    >>> import random
    >>> from thousand import Rules, new_deal, parse_action
    >>> state = new_deal(Rules.preset("russian"), seed=7)
    >>> state = state.apply(parse_action("bid 110"))
    >>> seen = state.observation(2)
    >>> world = Determiniser(seen).sample(random.Random(1))
    >>> world.observation(2) == seen, world.hands[2] == state.hands[2]
    (True, True)

The world is the rest of the current deal: earlier deals are not part of the observation, so the
sampled game ends with this deal (its ``result`` is then the deal's :class:`DealResult`, with the
match scores and barrel rules applied).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, overload

from thousand import redeals
from thousand.actions import Action, Bid, Discard, Give, Take
from thousand.cards import ACES_MASK, DECK, FULL_MASK, MARRIAGE_MASKS, Card, cards_of, mask_of
from thousand.engine import start_of_deal
from thousand.errors import IllegalActionError, NoWorldError
from thousand.inference import deduce
from thousand.layout import Layout
from thousand.marriages import MARRIAGE_POINTS, ceiling
from thousand.observation import Observation
from thousand.sampling import NoPlacement, Placement
from thousand.state import GameState, Origin, Phase

if TYPE_CHECKING:
    from thousand import bluff

__all__ = ["Determiniser", "determinise"]

ATTEMPTS = 10_000
"""Samples tried before giving up on an observation that no world seems to fit."""
MISSES_BEFORE_MARRIAGES = 100
"""Placements turned away by bid ceilings before the needed marriages are placed first."""


@overload
def determinise(observation: Observation, rng: random.Random) -> GameState: ...


@overload
def determinise(observation: bluff.Observation, rng: random.Random) -> bluff.State: ...


def determinise(
    observation: Observation | bluff.Observation, rng: random.Random
) -> GameState | bluff.State:
    """One full state consistent with ``observation`` (of either game), drawn with ``rng``.

    To draw many worlds for the same observation, make one :class:`Determiniser` (or
    :class:`thousand.bluff.Determiniser`) and call its ``sample`` repeatedly: the constraints are
    worked out once.
    """
    from thousand.games import game_observed  # the games module builds on this one

    return game_observed(observation).determinise(observation, rng)


class Determiniser:
    """Samples full states consistent with one seat's observation of a Thousand deal.

    Raises:
        NoWorldError: the game is over, or nothing consistent can be dealt (an observation that
            no real game produces).
    """

    def __init__(self, observation: Observation) -> None:
        if observation.phase is Phase.OVER:
            raise NoWorldError("the game is over: there is nothing left to sample")
        self.observation = observation
        rules = self.rules = observation.rules
        players = rules.players
        seat = observation.seat
        declarer = observation.declarer
        deductions = deduce(observation)
        self._played_by = deductions.played_by
        hand = mask_of(observation.hand)
        talon = mask_of(observation.talon)
        self._talon = talon
        self._bids = _highest_bids(observation, players)
        history = observation.history
        self._musik = next((a.musik for _, a in history if isinstance(a, Take)), 0)
        # Three active players, an opponent (or the seat sitting out) observing: the seats the
        # declarer gave a card face down, unseen by this seat, in the order given.
        self._hidden_to = [
            action.to for _, action in history if isinstance(action, Give) and action.card is None
        ]
        self._discards = sum(isinstance(action, Discard) for _, action in history)
        known = hand | deductions.played
        others = [
            other for other in range(players) if other != seat and other in observation.active
        ]
        sizes = [observation.hand_sizes[other] for other in others]
        allowed = [FULL_MASK & ~deductions.lacks[other] for other in others]
        # Places: the other hands first, then the hidden talon piles or set-aside cards.
        self._others = others
        self._talon_places = 0
        self._set_aside_place = -1

        self._forced = [0] * players
        if declarer is None or observation.phase is Phase.MUSIK:
            piles = 2 if players == 2 else 1
            self._talon_places = piles
            sizes += [2, 2] if players == 2 else [3]
            allowed += [FULL_MASK] * piles
        elif seat == declarer:
            known |= talon | mask_of(observation.set_aside)
            for card, to in observation.given:
                if not deductions.played & card.bit:
                    sizes[others.index(to)] -= 1
                    self._forced[to] |= card.bit
                    known |= card.bit
            if players == 2:
                self._talon_places = 1
                sizes.append(2)
                allowed.append(FULL_MASK)
        else:
            received = observation.received
            if received is not None:
                known |= received.bit
            owner = others.index(declarer)
            # Talon cards stay with the declarer unless given away (3 players) or laid aside.
            for position, other in enumerate(others):
                if position != owner and other not in self._hidden_to:
                    allowed[position] &= ~talon
            if players == 2:
                self._talon_places = 1
                sizes += [2, self._discards]
                allowed += [FULL_MASK & ~talon, FULL_MASK]
                self._set_aside_place = len(others) + 1
        self._pool = FULL_MASK & ~known
        self._before_talon = declarer is None or observation.phase is Phase.MUSIK
        self._misses = 0
        self._marriage_sets: list[tuple[Placement, tuple[tuple[int, int], ...]]] | None = None
        self._declarer = declarer
        self._hand = hand
        try:
            self._placement = Placement(self._pool, sizes, allowed)
            self._sizes = sizes
            self._allowed = allowed
        except NoPlacement as error:
            raise NoWorldError(f"no deal agrees with this observation: {error}") from None

    def sample(
        self,
        rng: random.Random,
        likelihood: Callable[[tuple[int, ...]], float] | None = None,
    ) -> GameState:
        """One consistent full state, every consistent placement of the unseen cards equally
        likely; the deal's hidden actions (cards given or laid aside unseen) are filled in.

        Args:
            rng: draws the placement.
            likelihood: a bot's own belief about the deal: given the hands as dealt (a card
                mask per seat), the chance, from 0 to 1, that the others would have acted as
                they did. Deals are then drawn in proportion to it (by rejection), so a bot can
                read the bids, say, as its opponents' habits suggest.

        Raises:
            NoWorldError: no consistent state was found in many attempts.
        """
        for _ in range(ATTEMPTS):
            world = self._attempt(rng, likelihood)
            if world is not None:
                return world
        raise NoWorldError(f"no deal agrees with this observation after {ATTEMPTS} tries")

    def _attempt(
        self, rng: random.Random, likelihood: Callable[[tuple[int, ...]], float] | None
    ) -> GameState | None:
        observation = self.observation
        rules = self.rules
        players = rules.players
        seat = observation.seat
        places = self._places(rng)
        if places is None:
            return None
        current = [0] * players
        current[seat] = self._hand
        for position, other in enumerate(self._others):
            current[other] = places[position] | self._forced[other]
        # What each seat received after the deal, and what it gave away or laid aside.
        received = [0] * players
        gave = [0] * players
        declarer = self._declarer
        talon_piles: list[tuple[Card, ...]]
        hidden: list[int] = []
        first_hidden = len(self._others)
        if declarer is None or observation.phase is Phase.MUSIK:
            talon_piles = [
                cards_of(pile) for pile in places[first_hidden : first_hidden + self._talon_places]
            ]
        else:
            assert declarer is not None
            received[declarer] = self._talon
            if players != 2:
                talon_piles = [observation.talon]
                for card, to in observation.given:
                    gave[seat] |= card.bit
                    received[to] |= card.bit
                if observation.received is not None:
                    gave[declarer] |= observation.received.bit
                    received[seat] |= observation.received.bit
                for receiver in self._hidden_to:
                    last = receiver == self._hidden_to[-1]
                    given = self._unseen_give(receiver, current, gave[declarer], rng, last)
                    if given is None:
                        return None
                    gave[declarer] |= given
                    received[receiver] |= given
                    hidden.append(given)
            else:
                unseen = places[first_hidden]
                if seat == declarer:
                    gave[seat] = mask_of(observation.set_aside)
                else:
                    laid = places[self._set_aside_place]
                    gave[declarer] = laid
                    hidden = [1 << index for index in _shuffled(laid, rng)]
                musiki = [observation.talon, cards_of(unseen)]
                talon_piles = musiki if self._musik == 1 else musiki[::-1]
        dealt = [
            (current[other] | self._played_by[other] | gave[other]) & ~received[other]
            for other in range(players)
        ]
        for other, bid in enumerate(self._bids):
            if bid > rules.cap_base and ceiling(rules, dealt[other]) < bid:
                self._misses += 1
                return None
        if likelihood is not None and rng.random() >= likelihood(tuple(dealt)):
            return None
        return self._replay(dealt, talon_piles, hidden, rng)

    def _places(self, rng: random.Random) -> list[int] | None:
        """The unseen cards placed uniformly. Before the talon is shown, once bids above the cap
        base have turned many placements away, the marriages those bids need are placed first
        (Karp and Luby's way of drawing uniformly from a union: draw a set of marriages in
        proportion to its placements, then keep the placement with one chance in the number of
        such sets it satisfies), so that rare hands are still found."""
        if self._misses < MISSES_BEFORE_MARRIAGES or not self._before_talon:
            return self._placement.sample(rng)
        if self._marriage_sets is None:
            self._marriage_sets = self._bid_marriages()
        options = self._marriage_sets
        if not options:
            return self._placement.sample(rng)
        pick = rng.randrange(sum(placement.count for placement, _ in options))
        chosen = options[-1][0]
        for placement, _ in options:
            if pick < placement.count:
                chosen = placement
                break
            pick -= placement.count
        places = chosen.sample(rng)
        met = sum(
            all(places[position] & cards == cards for position, cards in needs)
            for _, needs in options
        )
        return places if rng.randrange(met) == 0 else None

    def _bid_marriages(self) -> list[tuple[Placement, tuple[tuple[int, int], ...]]]:
        """For every choice of marriages that would let each other bidder make its bid: the
        placements that put them in its hand, and the marriage cards per place."""
        rules = self.rules
        groups = list(zip(MARRIAGE_POINTS, MARRIAGE_MASKS, strict=True))
        if rules.ace_marriage:
            groups.append((rules.ace_marriage, ACES_MASK))
        families: list[list[tuple[int, int]]] = []
        for position, other in enumerate(self._others):
            need = self._bids[other] - rules.cap_base
            if need <= 0:
                continue
            choices = []
            for chosen in itertools.product((False, True), repeat=len(groups)):
                picked = [group for group, take in zip(groups, chosen, strict=True) if take]
                value = sum(points for points, _ in picked)
                cards = 0
                for _, pair in picked:
                    cards |= pair
                if value >= need and not cards & ~self._pool:
                    choices.append((position, cards))
            families.append(choices)
        options = []
        for needs in itertools.product(*families):
            allowed = list(self._allowed)
            for position, cards in needs:
                for place in range(len(allowed)):
                    if place != position:
                        allowed[place] &= ~cards
            if any(cards & ~allowed[position] for position, cards in needs):
                continue
            try:
                placement = Placement(self._pool, self._sizes, allowed)
            except NoPlacement:
                continue
            options.append((placement, needs))
        return options

    def _unseen_give(
        self, receiver: int, current: Sequence[int], gave: int, rng: random.Random, last: bool
    ) -> int | None:
        """The card the declarer gave ``receiver``, unseen by this seat: a talon card if the
        receiver holds or played one, else any card it has held since, as long as the
        receiver's hand as dealt allows the bids made with it, and, for the ``last`` unseen
        gift, the declarer's too (``gave``: the declarer's other gifts; the seat sitting out saw
        neither gift, and the declarer's hand is known only once both are placed). Every such
        card is as likely; ``None`` when there is none."""
        declarer = self._declarer
        assert declarer is not None
        had = current[receiver] | self._played_by[receiver]
        from_talon = had & self._talon
        if from_talon.bit_count() > 1:
            return None
        rules = self.rules
        kept = (current[declarer] | self._played_by[declarer] | gave) & ~self._talon
        need_receiver = self._bids[receiver] if self._bids[receiver] > rules.cap_base else 0
        need_declarer = (
            self._bids[declarer] if last and self._bids[declarer] > rules.cap_base else 0
        )
        choices = [
            index
            for index in _shuffled(from_talon or had, rng)
            if (not need_receiver or ceiling(rules, had & ~(1 << index)) >= need_receiver)
            and (not need_declarer or ceiling(rules, kept | (1 << index)) >= need_declarer)
        ]
        return 1 << choices[0] if choices else None

    def _replay(
        self,
        dealt: Sequence[int],
        talon: Sequence[tuple[Card, ...]],
        hidden: Sequence[int],
        rng: random.Random,
    ) -> GameState | None:
        """The deal replayed from the sampled layout with the hidden actions filled in, or
        ``None`` if the rules refuse one of its actions or would have thrown the deal in."""
        observation = self.observation
        rules = self.rules
        if redeals.checks_at_deal(rules) and redeals.at_deal(rules, dealt, observation.active):
            return None
        layout = Layout(hands=[cards_of(mask) for mask in dealt], talon=talon)
        origin = Origin(
            seed=rng.getrandbits(63),
            dealer=observation.dealer,
            scores=observation.scores,
            layout=layout,
            single_deal=True,
        )
        state = start_of_deal(
            rules,
            origin,
            observation.deal_number,
            observation.dealer,
            observation.scores,
            observation.barrel,
            (),
            layout,
            observation.bolts,
            observation.falls,
            observation.scored_deals,
        )
        filled = iter(hidden)
        try:
            for _, action in observation.history:
                state = state.apply(_filled(action, filled))
        except IllegalActionError:
            return None
        return state if state.phase is observation.phase else None


def _filled(action: Action, hidden: Iterator[int]) -> Action:
    """The action with its unseen card taken from ``hidden`` (card masks, in order)."""
    if isinstance(action, Give) and action.card is None:
        return Give(DECK[next(hidden).bit_length() - 1], action.to)
    if isinstance(action, Discard) and action.card is None:
        return Discard(DECK[next(hidden).bit_length() - 1])
    return action


def _shuffled(mask: int, rng: random.Random) -> list[int]:
    order = [index for index in range(24) if mask >> index & 1]
    rng.shuffle(order)
    return order


def _highest_bids(observation: Observation, players: int) -> tuple[int, ...]:
    """Each seat's highest bid in this deal's auction (0 for none)."""
    bids = [0] * players
    for actor, action in observation.history:
        if isinstance(action, Bid):
            bids[actor] = max(bids[actor], action.amount)
    return tuple(bids)
