"""The greedy bot's Thousand play: a quick hand evaluation drives the auction, the exchange, the
contract and the concession; trick play follows card-counting rules of thumb.

The evaluation estimates the deal points a declarer makes with a hand: each card's chance to win a
trick (from the higher cards still out against it), what the tricks it wins capture, the trump its
marriages give, and the marriages it can declare. Its constants make the estimate about right on
average, under every preset, for deals this bot plays out. Trick play reads what has been played
and who showed out of a suit, and weighs each card by its chance to win the trick.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from thousand.classic.actions import Action, Bid, Concede, Contract, Discard, Give, Pass, Play
from thousand.classic.cards import (
    ACES_MASK,
    DECK,
    DECK_POINTS,
    FULL_MASK,
    MARRIAGE_MASKS,
    MARRIED_RANKS,
    RANK_MASKS,
    SUIT_MASKS,
    Card,
    Rank,
    indices,
    mask_of,
)
from thousand.classic.inference import deduce
from thousand.classic.marriages import MARRIAGE_POINTS
from thousand.classic.observation import Observation
from thousand.classic.rules import Concession, Rules, SetAside, above_lock
from thousand.classic.scoring import concession_share
from thousand.classic.state import GameState, Phase
from thousand.classic.tricks import above, beats

__all__ = ["bidding_estimate", "choose", "defence_counts", "evaluate", "play_in_view"]

# The hand evaluation. A card wins a trick for sure when no higher card of its suit is out against
# it; otherwise its chance depends on how many higher cards are out against how many the hand
# holds above it.
_GUARDED = 0.6
"""Chance for a card with no more higher cards out against it than the hand holds above it."""
_TRUMP_LENGTH = 0.55
"""Chance for a low trump when the hand holds more of the rest of the trumps than the opponents."""
_RUFFED = 0.9
"""What is left of a side-suit winner's chance once an opponent may have run out of the suit."""
_CAPTURE = {3: 5.1, 2: 4.0}
"""Card points the opponents add to each trick the declarer wins, by table size."""
_DECLARE = (0.97, 0.75, 0.3)
"""Chances of declaring the first, second and any further marriage of the hand."""
_NO_TRICK_YET = 0.2
"""Where a marriage needs a trick won first, what is left of the chances without an ace."""

# The auction, the contract and the exchange.
_BID_SPREAD = 28.0
"""Before the talon the chance of making a bid is about ``sigmoid((estimate - bid) / spread)``:
the cards still to come make the spread wide."""
_FINAL_SPREAD = 15.0
"""The same after the exchange, with the hand known."""
_BID_CONFIDENCE = 0.8
"""The chance of making it that the bot wants before it bids: the forehand is held to the
opening bid when everybody passes, so passing with a fair hand often pays."""
_STUCK_CONFIDENCE = 0.35
"""The same when defending scores nothing (on the barrel, or locked near the target): only the
bot's own contracts count then."""
_GIVE_WEIGHT = 0.3
"""How much the card points handed to an opponent count against a card given away."""

# Trick play.
_KEEP_MARRIAGE = 20.0
"""What keeping a card of a marriage still to declare is worth, beyond its points."""
_KEEP_MASTER = 16.0
"""What keeping the highest card still out in a suit is worth."""
_KEEP_TRUMP = 4.0
"""What keeping a trump is worth (plus its rank)."""
_SAFE = 0.3
"""A partner's card that is beaten with less than this chance is left to win, and fed points."""
_FOLLOWING = 3.0
"""Points each player still to play is expected to add to a trick."""
_LEAD_CAPTURE = 0.8
"""The share of the usual capture that a winner led is expected to take."""
_DRAW = 6.0
"""What the declarer adds to a trump lead that is likely to win while the opponents may still
hold trumps (drawing them protects its side-suit winners)."""

_POINTS = tuple(card.points for card in DECK[:6])
_TENS = RANK_MASKS[Rank.TEN]


def _suit_table(trump: bool) -> tuple[tuple[tuple[float, float], ...], ...]:
    """``table[mine][theirs]``: the expected card points of the hand's own cards in the tricks they
    win, and the expected number of those tricks, in one suit, from the 6-bit rank patterns held
    by the hand and against it."""
    table = []
    for mine in range(64):
        row = []
        for theirs in range(64):
            mine_count = mine.bit_count()
            their_count = (theirs & ~mine).bit_count()
            my_above = their_above = 0
            points = tricks = 0.0
            for rank in range(5, -1, -1):
                if mine >> rank & 1:
                    if their_above == 0:
                        chance = 1.0
                    elif their_above <= my_above:
                        chance = _GUARDED
                    elif trump and mine_count - my_above > their_count - their_above:
                        chance = _TRUMP_LENGTH
                    else:
                        chance = 0.0
                    if not trump and their_count and my_above * 2 >= their_count:
                        chance *= _RUFFED
                    points += chance * _POINTS[rank]
                    tricks += chance
                    my_above += 1
                elif theirs >> rank & 1:
                    their_above += 1
            row.append((points, tricks))
        table.append(tuple(row))
    return tuple(table)


_PLAIN = _suit_table(trump=False)
_TRUMP = _suit_table(trump=True)


def evaluate(rules: Rules, hand: int, outside: int = 0) -> float:
    """The deal points a declarer leading with ``hand`` (a card mask) may expect: card points of
    the tricks it wins and the marriages it declares. ``outside`` holds cards known to be out of
    play; every other card is taken to be against the hand."""
    theirs = FULL_MASK & ~hand & ~outside
    capture = _CAPTURE[rules.active_players]
    own = tricks = best_trump = melds = 0.0
    declared = 0
    for suit in range(3, -1, -1):
        shift = 6 * suit
        mine = hand >> shift & 63
        against = theirs >> shift & 63
        points, won = _PLAIN[mine][against]
        own += points
        tricks += won
        pair = MARRIAGE_MASKS[suit]
        if hand & pair == pair:
            trump_points, trump_won = _TRUMP[mine][against]
            gain = trump_points - points + capture * (trump_won - won)
            best_trump = max(best_trump, gain)
            melds += MARRIAGE_POINTS[suit] * _DECLARE[min(declared, len(_DECLARE) - 1)]
            declared += 1
    if rules.marriage_requires_trick and not hand & ACES_MASK:
        melds *= _NO_TRICK_YET
    # The four aces need a trick won with another card first: a ten (sure with its ace) does it.
    if rules.ace_marriage and hand & ACES_MASK == ACES_MASK and hand & _TENS:
        melds += rules.ace_marriage
    return min(float(DECK_POINTS), own + capture * tricks + best_trump) + melds


def bidding_estimate(rules: Rules, hand: int) -> float:
    """The evaluation of a hand that is still to take the talon (or a musik) and give two cards
    back: its own value, plus what each unseen card would add times its chance to come, less what
    its two weakest cards are worth."""
    base = evaluate(rules, hand)
    unseen = list(indices(FULL_MASK & ~hand))
    gains = sum(evaluate(rules, hand | 1 << index) - base for index in unseen)
    drawn = 2 if rules.players == 2 else 3
    losses = sorted(base - evaluate(rules, hand & ~(1 << index)) for index in indices(hand))
    return base + drawn * gains / len(unseen) - sum(losses[:2])


def choose(observation: Observation, rng: random.Random) -> Action:
    """The greedy bot's action in a Thousand deal: one of ``observation.legal_actions``."""
    phase = observation.phase
    legal = observation.legal_actions
    if phase is Phase.PLAY:
        return _play(observation, legal)
    if phase is Phase.AUCTION:
        return _auction(observation, legal)
    if phase is Phase.MUSIK:
        # Both musiki are unseen: either is as good.
        return rng.choice(legal)
    if phase is Phase.EXCHANGE:
        return _exchange(observation, legal)
    return _contract(observation, legal)


# The auction, the exchange and the contract -------------------------------------------------


def _chance(estimate: float, amount: int, spread: float) -> float:
    """The chance of making ``amount`` with this estimate."""
    return 1.0 / (1.0 + math.exp((amount - estimate) / spread))


def defence_counts(observation: Observation) -> bool:
    """Whether the seat's defence points would count: not on the barrel, nor above the lock."""
    rules = observation.rules
    seat = observation.seat
    if observation.barrel[seat] is not None:
        return False
    return not above_lock(rules, observation.scores[seat])


def _needed(observation: Observation) -> int:
    """The smallest contract worth making: on the barrel, one that reaches the target."""
    if observation.barrel[observation.seat] is None:
        return 0
    return observation.rules.target - observation.scores[observation.seat]


def would_bid(rules: Rules, hand: int, amount: int) -> bool:
    """Whether this strategy, holding ``hand`` as dealt, bids ``amount`` when defending counts
    (off the barrel and below the lock)."""
    return bids_with(bidding_estimate(rules, hand), amount)


def bids_with(estimate: float, amount: int) -> bool:
    """:func:`would_bid` for a hand whose :func:`bidding_estimate` is ``estimate``."""
    return _chance(estimate, amount, _BID_SPREAD) >= _BID_CONFIDENCE


def _auction(observation: Observation, legal: Sequence[Action]) -> Action:
    """The lowest bid the hand is likely enough to make (and, on the barrel, the contract that
    would win), else pass."""
    bids = [action for action in legal if isinstance(action, Bid)]
    if bids:
        estimate = bidding_estimate(observation.rules, mask_of(observation.hand))
        amount = max(bids[0].amount, _needed(observation))
        wanted = _BID_CONFIDENCE if defence_counts(observation) else _STUCK_CONFIDENCE
        if _chance(estimate, amount, _BID_SPREAD) >= wanted:
            return bids[0]
    return Pass()


def _exchange(observation: Observation, legal: Sequence[Action]) -> Action:
    """Give away (or lay aside) the cards whose loss costs the evaluation least: on the first of
    the two, the best pair is chosen and its card with fewer points goes first."""
    rules = observation.rules
    hand = mask_of(observation.hand)
    aside = mask_of(observation.set_aside)
    if rules.players == 2:
        remaining = 2 - len(observation.set_aside)
    else:
        remaining = len(observation.hand) - rules.hand_size - 1
    cards = list(indices(hand))
    groups: list[tuple[int, ...]] = [(a,) for a in cards]
    if remaining >= 2:
        groups = [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]
    credited = rules.set_aside is SetAside.DECLARER

    def value(group: tuple[int, ...]) -> float:
        out = sum(1 << index for index in group)
        points = sum(DECK[index].points for index in group)
        if rules.players == 2:
            return evaluate(rules, hand & ~out, aside | out) + (points if credited else 0)
        return evaluate(rules, hand & ~out) - _GIVE_WEIGHT * points

    best = max(groups, key=value)
    card = DECK[min(best, key=lambda index: DECK[index].points)]
    return next(
        action for action in legal if isinstance(action, (Give, Discard)) and action.card == card
    )


def _contract(observation: Observation, legal: Sequence[Action]) -> Action:
    """The contract with the best expected score (won or lost in full; on the barrel a contract
    too small to win gains nothing), at least the bid; or concede when that leaves the declarer
    better placed against the opponents than playing."""
    rules = observation.rules
    estimate = evaluate(rules, mask_of(observation.hand), mask_of(observation.set_aside))
    needed = _needed(observation)

    def expected(action: Contract) -> float:
        chance = _chance(estimate, action.amount, _FINAL_SPREAD)
        made = action.amount if action.amount >= needed else 0
        return chance * made - (1 - chance) * action.amount

    choice = max((action for action in legal if isinstance(action, Contract)), key=expected)
    if Concede() in legal:
        # Playing on, each opponent takes an even share of the card points the declarer does not.
        theirs = max(0.0, DECK_POINTS - estimate) / (rules.active_players - 1)
        own = -observation.bid
        if rules.concession is Concession.FREE and observation.barrel[observation.seat] is None:
            own = 0
        if own - concession_share(observation.bid) > expected(choice) - theirs:
            return Concede()
    return choice


# Trick play ---------------------------------------------------------------------------------


class _Deal:
    """What one seat knows during trick play: the cards still out, and for each other seat the
    cards it cannot hold (suits it showed out of, higher cards it would have had to play), the
    cards it is known to hold (given by the declarer) and its chance of holding any other card."""

    __slots__ = (
        "aces",
        "chance",
        "hand",
        "known",
        "lacks",
        "order",
        "out",
        "partner",
        "seat",
        "trump",
    )

    def __init__(self, observation: Observation) -> None:
        rules = observation.rules
        players = rules.players
        seat = observation.seat
        hand = mask_of(observation.hand)
        self._seat(rules, seat, hand, observation.active, observation.declarer)
        deductions = deduce(observation)
        played = deductions.played
        lacks = list(deductions.lacks)
        self.trump = deductions.trump
        out = self.out = FULL_MASK & ~hand & ~played & ~mask_of(observation.set_aside)
        known = [0] * players
        for card, to in observation.given:
            known[to] |= card.bit & out
        everyone = 0
        for cards in known:
            everyone |= cards
        self.chance = [0.0] * players
        for other in self.order:
            possible = out & ~lacks[other] & ~everyone
            slots = observation.hand_sizes[other] - known[other].bit_count()
            count = possible.bit_count()
            self.chance[other] = min(1.0, slots / count) if count else 0.0
            lacks[other] = FULL_MASK & ~(possible | known[other])
        self.lacks = lacks
        self.known = known

    def _seat(
        self, rules: Rules, seat: int, hand: int, active: tuple[int, ...], declarer: int | None
    ) -> None:
        """The seat's own part: its hand, whether it holds the four aces, its partner against
        the declarer (at a table of three) and the others in playing order."""
        self.seat = seat
        self.hand = hand
        self.aces = bool(rules.ace_marriage) and hand & ACES_MASK == ACES_MASK
        self.partner = -1
        if len(active) == 3 and declarer is not None and declarer != seat:
            self.partner = next(other for other in active if other not in (seat, declarer))
        at = active.index(seat)
        self.order = active[at + 1 :] + active[:at]

    @classmethod
    def in_view(cls, state: GameState) -> _Deal:
        """What the seat to play would know if every hand were face up: each other seat holds
        exactly its cards."""
        deal = cls.__new__(cls)
        rules = state.rules
        seat = state.player
        deal._seat(rules, seat, state.hand_masks[seat], state.context.active, state.bidder)
        deal.trump = state.trump_suit
        deal.known = [0] * rules.players
        out = 0
        for other in deal.order:
            deal.known[other] = state.hand_masks[other]
            out |= state.hand_masks[other]
        deal.out = out
        deal.lacks = [FULL_MASK & ~cards for cards in deal.known]
        deal.chance = [0.0] * rules.players
        return deal

    def holds_any(self, seat: int, cards: int) -> float:
        """The chance that ``seat`` holds at least one of ``cards``."""
        if self.known[seat] & cards:
            return 1.0
        count = (cards & ~self.lacks[seat]).bit_count()
        return 1.0 - (1.0 - self.chance[seat]) ** count

    def beaten_by(self, seat: int, best: Card, led: int) -> float:
        """The chance that ``seat``, still to play to a trick led in ``led``, beats ``best``."""
        trump = self.trump
        higher = self.holds_any(seat, self.out & above(best.index))
        if best.suit == led and (trump < 0 or led == trump):
            return higher
        void = 1.0 - self.holds_any(seat, self.out & SUIT_MASKS[led])
        if best.suit != led:
            # ``best`` is a trump on another suit's lead.
            return void * higher
        ruff = void * self.holds_any(seat, self.out & SUIT_MASKS[trump])
        return 1.0 - (1.0 - higher) * (1.0 - ruff)

    def master(self, card: Card) -> bool:
        """Whether no card still out is higher in the card's suit, while some are out in it."""
        return not self.out & above(card.index) and bool(self.out & SUIT_MASKS[card.suit])

    def in_marriage(self, card: Card) -> bool:
        """Whether the card belongs to a marriage still in hand: a king or queen with its
        partner, or an ace while all four are held."""
        if card.rank == Rank.ACE:
            return self.aces
        pair = MARRIAGE_MASKS[card.suit]
        return card.rank in MARRIED_RANKS and self.hand & pair == pair

    def keep_value(self, card: Card) -> float:
        """What a card is worth keeping beyond its points: marriages still to declare, winners
        and trumps."""
        value = 0.0
        if self.in_marriage(card):
            value += _KEEP_MARRIAGE
        if self.master(card):
            value += _KEEP_MASTER
        if card.suit == self.trump:
            value += _KEEP_TRUMP + card.rank
        return value

    def win_chance(self, card: Card) -> float:
        """The chance that ``card``, led, wins the trick for the leader's side."""
        keep = 1.0
        for seat in self.order:
            if seat != self.partner:
                keep *= 1.0 - self.beaten_by(seat, card, card.suit)
        return keep


def _play(observation: Observation, legal: Sequence[Action]) -> Action:
    return _card(_Deal(observation), observation.trick, observation.declarer, legal)


def play_in_view(state: GameState) -> Action:
    """The greedy trick play of the seat to play in ``state`` with every hand face up: how the
    search bots' playouts play a sampled deal, where every hand is known. It plays by the same
    rules of thumb, judging each card by the cards truly out against it rather than by chances,
    and it needs no reading of the deal so far, which makes it about twice as fast."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    return _card(_Deal.in_view(state), state.trick, state.bidder, legal)


def _card(
    deal: _Deal,
    trick: Sequence[tuple[int, Card]],
    declarer: int | None,
    legal: Sequence[Action],
) -> Action:
    """Follow to the trick, or lead to a new one, as ``deal`` sees it."""
    plays = [action for action in legal if isinstance(action, Play)]
    if trick:
        return _follow(trick, deal, plays)
    return _lead(declarer, deal, plays)


def _follow(trick: Sequence[tuple[int, Card]], deal: _Deal, plays: list[Play]) -> Action:
    """Feed points to a partner who is winning the trick safely; else win the trick with the card
    that gains most when winning is worth it; else play the cheapest card (one of ``plays``, the
    engine's own actions, which it takes without looking them up)."""
    cards = [play.card for play in plays]
    play_of = {play.card: play for play in plays}
    trump = deal.trump
    led = trick[0][1].suit
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if beats(card.index, best.index, trump):
            best_seat, best = seat, card
    after = deal.order[: len(deal.order) - len(trick)]
    opponents_after = [seat for seat in after if seat != deal.partner]
    on_table = sum(card.points for _, card in trick)

    def lost_to_them(card: Card) -> float:
        keep = 1.0
        for seat in opponents_after:
            keep *= 1.0 - deal.beaten_by(seat, card, led)
        return 1.0 - keep

    partner_wins = best_seat == deal.partner
    if partner_wins and lost_to_them(best) < _SAFE:
        fed = max(cards, key=lambda card: (card.points - deal.keep_value(card), card.rank))
        return play_of[fed]
    choice: Card | None = None
    best_gain = 0.0
    for card in sorted(cards, key=lambda card: card.rank):
        if not beats(card.index, best.index, trump):
            continue
        risk = lost_to_them(card)
        # Winning takes the table and secures the card's own points (a master's are safe anyway);
        # losing hands them over.
        own = 0 if deal.master(card) else card.points
        gain = (1 - risk) * (on_table + own + _FOLLOWING * len(after)) - risk * card.points
        gain -= deal.keep_value(card) / 2
        if partner_wins:
            gain -= on_table
        if choice is None or gain > best_gain:
            choice, best_gain = card, gain
    if choice is not None and (best_gain > 0 or not opponents_after):
        return play_of[choice]
    return play_of[min(cards, key=lambda card: (card.points + deal.keep_value(card), card.rank))]


def _lead(declarer: int | None, deal: _Deal, plays: list[Play]) -> Action:
    """Declare the four aces, or the most valuable marriage (leading its queen), when able; else
    lead the card with the best expected gain: winners are cashed, the declarer draws trumps, and
    otherwise a low card goes."""
    aces = [play for play in plays if play.aces]
    if aces:
        return max(aces, key=lambda play: deal.win_chance(play.card))
    marriages = [play for play in plays if play.marriage]
    if marriages:
        return max(marriages, key=lambda play: (play.card.suit, -play.card.rank))
    drawing = declarer == deal.seat and deal.trump >= 0 and bool(deal.out & SUIT_MASKS[deal.trump])
    capture = _CAPTURE[len(deal.order) + 1] * _LEAD_CAPTURE

    def value(play: Play) -> float:
        card = play.card
        chance = deal.win_chance(card)
        gain = chance * (card.points + capture) - (1 - chance) * card.points
        gain -= deal.keep_value(card) * (1 - chance)
        if deal.in_marriage(card):
            gain -= _KEEP_MARRIAGE
        if card.suit == deal.trump:
            gain += _DRAW * chance - _KEEP_TRUMP if drawing else -_KEEP_TRUMP
        return gain

    return max(plays, key=value)
