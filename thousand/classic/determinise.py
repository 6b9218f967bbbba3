"""The determiniser: full game states consistent with everything one seat has seen.

A search bot cannot look at the other hands, so it imagines them: it samples complete states
("worlds") that agree with its observation, searches each as if the cards were face up, and
combines the answers. A sampled world respects the seat's own hand, the talon or musik it was
shown, the cards it gave or received, every card played, the suits and cards other seats showed
they lack (by not following, not trumping, not beating where they had to, leading a king or queen
without declaring), the marriages declared (the rest of the marriage stays in hand until
played), the bids (a bid above the cap base needs its marriages in the hand dealt) and the
contract (one above the winning bid needs its marriages in the declarer's hand after the
exchange). Every placement of the unseen cards that is consistent with all of that is equally
likely, unless a bot brings its own weights for where each card lies (``affinity``).

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

from thousand.classic import redeals
from thousand.classic.actions import Action, Bid, Discard, Give, Take
from thousand.classic.cards import (
    DECK,
    FULL_MASK,
    Card,
    cards_of,
    indices,
    mask_of,
)
from thousand.classic.engine import start_of_deal
from thousand.classic.inference import deduce
from thousand.classic.layout import Layout
from thousand.classic.marriages import ceiling, marriages
from thousand.classic.observation import Observation
from thousand.classic.rules import Rules
from thousand.classic.sampling import NoPlacement, Placement, WeightedPlacement, weighted_index
from thousand.classic.state import GameState, Origin, Phase
from thousand.errors import IllegalActionError, NoWorldError

__all__ = ["Determiniser"]

Needs = tuple[tuple[int, int], ...]
"""Cards a hand needs, as (a mask of the places that may hold them, the unseen cards)."""

ATTEMPTS = 10_000
"""Samples tried before giving up on an observation that no world seems to fit."""
MISSES_BEFORE_MARRIAGES = 100
"""Attempts that found no world before the marriages that bids and the contract need (and the
cards given unseen) are placed first."""


class Determiniser:
    """Samples full states consistent with one seat's observation of a Thousand deal.

    Args:
        observation: what the seat has seen.
        affinity: a bot's belief about where the unseen cards lie, as a weight per card index
            and seat (positive; the talon, musik or cards laid aside weigh 1): placements are
            then drawn in proportion to the product of their cards' weights rather than all
            alike (see :mod:`thousand.bots.card_places`).

    Raises:
        NoWorldError: the game is over, or nothing consistent can be dealt (an observation that
            no real game produces).
    """

    def __init__(
        self,
        observation: Observation,
        affinity: Sequence[Sequence[float]] | None = None,
    ) -> None:
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
        self._set_aside_place: int | None = None
        if declarer is None or observation.phase is Phase.MUSIK:
            piles = [2, 2] if players == 2 else [3]
            sizes += piles
            allowed += [FULL_MASK] * len(piles)
        elif seat == declarer:
            # A card given and not played since is known, and left out of its receiver's hand
            # (the replay of the deal puts it there).
            known |= talon | mask_of(observation.set_aside)
            for card, to in observation.given:
                if not deductions.played & card.bit:
                    sizes[others.index(to)] -= 1
                    known |= card.bit
            if players == 2:
                sizes.append(2)
                allowed.append(FULL_MASK)
        else:
            owner = others.index(declarer)
            # Talon cards stay with the declarer unless given away (3 players) or laid aside.
            for position, other in enumerate(others):
                if position != owner and other not in self._hidden_to:
                    allowed[position] &= ~talon
            if players == 2:
                sizes += [2, self._discards]
                allowed += [FULL_MASK & ~talon, FULL_MASK]
                self._set_aside_place = len(others) + 1
        # The rest of a marriage a seat declared, not played since, is still in its hand.
        for position, other in enumerate(others):
            for place in range(len(allowed)):
                if place != position:
                    allowed[place] &= ~deductions.holds[other]
        self._pool = FULL_MASK & ~known
        self._misses = 0
        self._declarer = declarer
        self._hand = hand
        self._contract = observation.contract or 0
        if self._contract <= max(observation.bid, rules.cap_base):
            self._contract = 0
        self._marriage_sets: list[tuple[Placement, Needs]] | None = None
        try:
            self._placement: Placement | WeightedPlacement = Placement(self._pool, sizes, allowed)
            if affinity is not None:
                weights = [[1.0] * len(sizes) for _ in range(24)]
                for position, other in enumerate(others):
                    for index in range(24):
                        weights[index][position] = affinity[index][other]
                self._placement = WeightedPlacement(self._pool, sizes, allowed, weights)
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
        likely (or in proportion to the affinity, if one was given); the deal's hidden actions
        (cards given or laid aside unseen) are filled in.

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
            self._misses += 1
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
            current[other] = places[position]
        # What each seat received after the deal, and what it gave away or laid aside.
        received = [0] * players
        gave = [0] * players
        declarer = self._declarer
        talon_piles: list[tuple[Card, ...]]
        hidden: list[int] = []
        first_hidden = len(self._others)
        if declarer is None or observation.phase is Phase.MUSIK:
            talon_piles = [cards_of(pile) for pile in places[first_hidden:]]
        else:
            assert declarer is not None
            received[declarer] = self._talon
            if (
                self._contract
                and ceiling(rules, current[declarer] | self._played_by[declarer]) < self._contract
            ):
                return None
            if players != 2:
                talon_piles = [observation.talon]
                for card, to in observation.given:
                    gave[seat] |= card.bit
                    received[to] |= card.bit
                if observation.received is not None:
                    gave[declarer] |= observation.received.bit
                    received[seat] |= observation.received.bit
                if self._hidden_to:
                    gifts = self._unseen_gives(current, gave, received, rng)
                    if gifts is None:
                        return None
                    for receiver, given in zip(self._hidden_to, gifts, strict=True):
                        gave[declarer] |= given
                        received[receiver] |= given
                    hidden = gifts
            else:
                unseen = places[first_hidden]
                if seat == declarer:
                    gave[seat] = mask_of(observation.set_aside)
                else:
                    laid = places[first_hidden + 1]  # after the unseen musik
                    gave[declarer] = laid
                    hidden = [1 << index for index in _shuffled(laid, rng)]
                musiki = [observation.talon, cards_of(unseen)]
                talon_piles = musiki if self._musik == 1 else musiki[::-1]
        dealt = self._dealt(current, gave, received)
        if not self._fits(dealt):
            return None
        if likelihood is not None and rng.random() >= likelihood(tuple(dealt)):
            return None
        return self._replay(dealt, talon_piles, hidden, rng)

    def _dealt(
        self, current: Sequence[int], gave: Sequence[int], received: Sequence[int]
    ) -> list[int]:
        """Each seat's hand as dealt: what it holds and played and gave, less what it got."""
        return [
            (current[other] | self._played_by[other] | gave[other]) & ~received[other]
            for other in range(self.rules.players)
        ]

    def _fits(self, dealt: Sequence[int]) -> bool:
        """Whether hands dealt so allow every bid made with them and throw nothing in."""
        rules = self.rules
        for other, bid in enumerate(self._bids):
            if bid > rules.cap_base and ceiling(rules, dealt[other]) < bid:
                return False
        return not (
            redeals.checks_at_deal(rules) and redeals.at_deal(rules, dealt, self.observation.active)
        )

    def _places(self, rng: random.Random) -> list[int] | None:
        """The unseen cards placed uniformly (or as the affinity weighs them). Once many
        placements have been turned away, the marriages that bids and the contract above the cap
        base need, and the cards given unseen, are placed first, uniformly even with an
        affinity (Karp and Luby's way
        of drawing uniformly from a union: draw a choice of them in proportion to its
        placements, then keep the placement with one chance in the number of choices it meets),
        so that rare hands are still found."""
        if self._misses < MISSES_BEFORE_MARRIAGES:
            return self._placement.sample(rng)
        if self._marriage_sets is None:
            self._marriage_sets = self._marriage_placements()
        options = self._marriage_sets
        if not options:
            return self._placement.sample(rng)
        chosen = options[weighted_index(rng, [placement.count for placement, _ in options])][0]
        places = chosen.sample(rng)
        met = sum(_holds(places, needs) for _, needs in options)
        return places if rng.randrange(met) == 0 else None

    def _ceiling_needs(self) -> list[list[Needs]]:
        """The hands that must hold marriages, each as its choices of the fewest marriages that
        do, a choice written as where their unseen cards go: a bid above the cap base needs them
        in the hand that was dealt, a contract above the winning bid in the declarer's hand after
        the exchange. Where the declarer gave cards this seat did not see, the choices of where
        they came from (:meth:`_gift_choices`) join in."""
        rules = self.rules
        observation = self.observation
        declarer = self._declarer
        after_talon = declarer is not None and observation.phase is not Phase.MUSIK
        outside = 0 if observation.received is None else observation.received.bit
        families = []
        dealt_declarer: list[Needs] | None = None
        for position, other in enumerate(self._others):
            played = self._played_by[other]
            bid = self._bids[other]
            if bid > rules.cap_base:
                if not after_talon:
                    families.append(self._choices(bid, 1 << position, 0, 0))
                elif other != declarer:
                    families.append(self._choices(bid, 1 << position, played, self._talon))
                else:
                    places = 1 << position
                    if self._set_aside_place is not None:
                        places |= 1 << self._set_aside_place
                    known = played | outside  # and a gift that its receiver played
                    for receiver in self._hidden_to:
                        known |= self._played_by[receiver]
                    dealt_declarer = self._choices(bid, places, known, self._talon)
            if other == declarer and self._contract:
                families.append(self._choices(self._contract, 1 << position, played, 0))
        if after_talon and self._hidden_to:
            families.append(self._gift_choices(dealt_declarer))
        elif dealt_declarer is not None:
            families.append(dealt_declarer)
        return families

    def _choices(self, amount: int, places: int, known: int, barred: int) -> list[Needs]:
        """The fewest marriages that let a hand bid ``amount``, each with its unseen cards in
        ``places`` (a mask of places); its other cards must be among ``known``, none among
        ``barred``."""
        return [
            ((places, cards & self._pool),)
            for cards in _fewest_marriages(self.rules, amount)
            if not cards & barred and not cards & ~self._pool & ~known
        ]

    def _gift_choices(self, dealt: list[Needs] | None) -> list[Needs]:
        """Where the cards the declarer gave unseen came from, the choices excluding each other:
        to each seat that got one, one of the talon cards (those not given stay with the
        declarer) or of the marriages the declarer's bid needs in its hand as dealt (``dealt``:
        their choices; those not given stay with the declarer too), or another card."""
        declarer = 1 << self._others.index(self._declarer or 0)
        receivers = [1 << self._others.index(receiver) for receiver in self._hidden_to]
        talon = self._talon & self._pool
        choices: list[Needs] = []
        for ((places, cards),) in dealt or [((declarer, 0),)]:
            singles = [0, *(1 << index for index in indices(talon | cards))]
            for gifts in itertools.product(singles, repeat=len(receivers)):
                given = _distinct(gifts)
                if given is None:
                    continue
                kept = ((places, cards & ~given), (declarer, talon & ~given))
                gifted = tuple(
                    (to, gift) for to, gift in zip(receivers, gifts, strict=True) if gift
                )
                choices.append((*kept, *gifted))
        return choices

    def _marriage_placements(self) -> list[tuple[Placement, Needs]]:
        """For every choice of marriages that would let each hand of :meth:`_ceiling_needs`
        allow its bid or contract (and of where unseen gifts came from): the placements that put
        their unseen cards where the choice says, and those (places, cards)."""
        options = []
        for choices in itertools.product(*self._ceiling_needs()):
            needs = tuple(need for choice in choices for need in choice)
            allowed = list(self._allowed)
            for places, cards in needs:
                for place in range(len(allowed)):
                    if not places >> place & 1:
                        allowed[place] &= ~cards
            try:
                placement = Placement(self._pool, self._sizes, allowed)
            except NoPlacement:
                continue
            options.append((placement, needs))
        return options

    def _unseen_gives(
        self,
        current: Sequence[int],
        gave: Sequence[int],
        received: Sequence[int],
        rng: random.Random,
    ) -> list[int] | None:
        """The cards the declarer gave, unseen by this seat, to the seats in ``_hidden_to`` (in
        that order): to each a talon card if it holds or played one, else any card it has held
        since. Drawn, each choice as likely, among the choices that leave the hands as dealt
        allowing their bids and throwing nothing in (with both gifts unseen, as by the seat
        sitting out, they are chosen together); ``None`` when there is none."""
        rules = self.rules
        declarer = self._declarer
        assert declarer is not None
        options = []
        for receiver in self._hidden_to:
            had = current[receiver] | self._played_by[receiver]
            from_talon = had & self._talon
            if from_talon.bit_count() > 1:
                return None
            cards = [1 << index for index in indices(from_talon or had)]
            bid = self._bids[receiver]
            if bid > rules.cap_base:
                cards = [card for card in cards if ceiling(rules, had & ~card) >= bid]
            if not cards:
                return None
            options.append(cards)
        kept = (current[declarer] | self._played_by[declarer] | gave[declarer]) & ~self._talon
        bid = self._bids[declarer]
        if not redeals.checks_at_deal(rules) and (
            bid <= rules.cap_base or ceiling(rules, kept) >= bid
        ):
            return [rng.choice(cards) for cards in options]
        fitting = []
        for gifts in itertools.product(*options):
            gave_now = list(gave)
            received_now = list(received)
            for receiver, given in zip(self._hidden_to, gifts, strict=True):
                gave_now[declarer] |= given
                received_now[receiver] |= given
            if self._fits(self._dealt(current, gave_now, received_now)):
                fitting.append(list(gifts))
        return rng.choice(fitting) if fitting else None

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


def _fewest_marriages(rules: Rules, amount: int) -> list[int]:
    """The card masks of each set of marriages (the four aces among them where they count)
    that lets a hand bid ``amount``, no marriage of it to spare."""
    groups = marriages(rules)
    need = amount - rules.cap_base
    found = []
    for chosen in itertools.product((False, True), repeat=len(groups)):
        picked = [group for group, take in zip(groups, chosen, strict=True) if take]
        value = sum(points for points, _ in picked)
        if value >= need and all(value - points < need for points, _ in picked):
            cards = 0
            for _, pair in picked:
                cards |= pair
            found.append(cards)
    return found


def _holds(places: Sequence[int], needs: Needs) -> bool:
    """Whether a placement puts each set of cards in one of its places."""
    for allowed, cards in needs:
        held = 0
        for place, mask in enumerate(places):
            if allowed >> place & 1:
                held |= mask
        if cards & ~held:
            return False
    return True


def _distinct(cards: Sequence[int]) -> int | None:
    """The cards (single-card masks, 0 for none) together, or ``None`` if one comes twice."""
    together = 0
    for card in cards:
        if together & card:
            return None
        together |= card
    return together


def __getattr__(name: str) -> object:
    """``determinise()``, which serves either game, lives in :mod:`thousand.games`; code written
    when it was defined here still finds it by this module."""
    if name == "determinise":
        from thousand.games import determinise

        return determinise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
