"""Property tests of the Thousand invariants (RULES.md Part 3, items 1-10) over random playouts.

The checks below rebuild each deal from its layout and actions with an independent model of the
rules (:class:`Umpire`), written from the rule book, and compare it with the engine's states,
legal actions and results. The model knows the four-seat table (HOUSE-RULES.md 4.1) and the
house rules that change a deal's course or its scoring: bolts, falls from the barrel, the
samosval, the gold set and throw-ins (4.2-4.6, 4.9).
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

import attrs
import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from thousand import (
    DECK,
    Action,
    BarrelCapacity,
    Bid,
    Card,
    Concede,
    Concession,
    Contract,
    DealResult,
    Discard,
    Endgame,
    GameState,
    Give,
    IllegalActionError,
    Layout,
    MarriageDeclaration,
    MatchResult,
    Observation,
    Pass,
    Phase,
    Play,
    Record,
    Rules,
    SetAside,
    Settlement,
    Take,
    new_deal,
    new_match,
    replay,
)
from thousand.classic.redeals import ThrowIn
from thousand.classic.rules import (
    BarrelFallPenalty,
    BoltCounting,
    Redeal,
    Samosval,
    Sitter,
)

from .strategies import (
    VARIANTS,
    deals,
    draw_action,
    layout_from_deck,
    matches,
    random_playout,
    rules_layouts,
    scaled,
    seeded_playout,
    start_scores,
    variants,
)

# The rule book's card facts, written out independently of the engine's card module.
ORDER = "9JQKTA"
"""Ranks in trick order, low to high."""
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
MARRIAGE = {"S": 40, "C": 60, "D": 80, "H": 100}
ALL_CARDS = frozenset(DECK)
GAME_FIELDS = [field.name for field in attrs.fields(GameState) if field.name != "legal_cache"]

BARREL_RULES = [rules for rules in VARIANTS.values() if rules.endgame is Endgame.BARREL]


def rank_of(card: Card) -> str:
    """The rank letter of a card."""
    return str(card)[0]


def suit_of(card: Card) -> str:
    """The suit letter of a card."""
    return str(card)[1]


def height(card: Card) -> int:
    """The card's place in trick order within its suit."""
    return ORDER.index(rank_of(card))


def card_points(cards: Iterable[Card]) -> int:
    """Card points of some cards."""
    return sum(POINTS[rank_of(card)] for card in cards)


def marriages_in(rules: Rules, hand: Iterable[Card]) -> int:
    """The value of the marriages (and, where enabled, the four aces) in a hand."""
    names = {str(card) for card in hand}
    value = sum(points for suit, points in MARRIAGE.items() if {"K" + suit, "Q" + suit} <= names)
    if rules.ace_marriage and {"A" + suit for suit in MARRIAGE} <= names:
        value += rules.ace_marriage
    return value


def meld_value(rules: Rules, meld: str) -> int:
    """What a declared meld scores: a suit letter for a marriage, ``"aces"`` for the four aces."""
    return rules.ace_marriage if meld == "aces" else MARRIAGE[meld]


SITTER_STEP = {Sitter.DEALER: 0, Sitter.RIGHT_OF_DEALER: -1, Sitter.OPPOSITE_DEALER: 2}
"""HOUSE-RULES.md 4.1: the sitter is seat dealer, dealer - 1 or dealer + 2 (mod 4)."""


def sitter_seat(rules: Rules, dealer: int) -> int | None:
    """The seat sitting out the deal ``dealer`` deals (four seats), else ``None``."""
    if rules.players < 4:
        return None
    return (dealer + SITTER_STEP[rules.sitter]) % 4


def active_seats(rules: Rules, dealer: int) -> list[int]:
    """The seats taking part in the deal, clockwise from the forehand (the dealer's left)."""
    n = rules.players
    sitter = sitter_seat(rules, dealer)
    return [seat for seat in ((dealer + 1 + step) % n for step in range(n)) if seat != sitter]


def sitter_bonus(rules: Rules, talon: Iterable[Card]) -> int:
    """HOUSE-RULES.md 4.1: ``sitter_bonus`` per ace in the talon, plus the talon's marriage."""
    names = {str(card) for card in talon}
    aces = sum(rank_of(card) == "A" for card in talon)
    pairs = sum(points for suit, points in MARRIAGE.items() if {"K" + suit, "Q" + suit} <= names)
    return rules.sitter_bonus * aces + pairs if rules.sitter_bonus else 0


def opening_of(rules: Rules, deals: Sequence[DealResult]) -> int:
    """The compulsory bid after ``deals``: ``cap_base`` in the gold set's scored deals."""
    scored = sum(deal.thrown_in is None for deal in deals)
    return rules.cap_base if scored < rules.gold_set else rules.opening_bid


def qualifying_hand(
    rules: Rules, hands: Sequence[Iterable[Card]], order: Sequence[int], when: Redeal
) -> tuple[int, str] | None:
    """HOUSE-RULES.md 4.4: the first hand clockwise from the forehand that calls for a throw-in
    at the check point ``when``, with the reason (nines, then jacks, then a weak hand)."""
    for seat in order:
        hand = set(hands[seat])
        ranks = [rank_of(card) for card in hand]
        if rules.redeal_nines is when and ranks.count("9") == 4:
            return seat, "four nines"
        if rules.redeal_jacks is when and ranks.count("J") == 4:
            return seat, "four jacks"
        worth = card_points(hand) + marriages_in(rules, hand)
        if when is Redeal.DEALT and rules.redeal_weak_hand and worth < rules.redeal_weak_hand:
            return seat, "weak hand"
    return None


def mask(cards: Iterable[Card]) -> int:
    """Cards as the engine's bit mask."""
    return sum(1 << card.index for card in cards)


def from_mask(bits: int) -> set[Card]:
    """The cards of a bit mask."""
    return {card for card in DECK if bits >> card.index & 1}


def round_half_up(points: int, step: int) -> int:
    """Defence rounding: to the nearest multiple of ``step``, a half rounding up."""
    low = points - points % step
    return low + step if 2 * (points % step) >= step else low


def concession_share(bid: int) -> int:
    """Half the winning bid, rounded up to a multiple of 5."""
    half = Fraction(bid, 2)
    return -(-half // 5) * 5


def may_follow(
    rules: Rules, hand: set[Card], trick: Sequence[Card], trump: str | None
) -> set[Card]:
    """The cards of ``hand`` the following rules (RULES.md 1.5) allow after ``trick``."""
    led = suit_of(trick[0])
    same = {card for card in hand if suit_of(card) == led}
    if same:
        trumped = trump not in (None, led) and any(suit_of(card) == trump for card in trick)
        if rules.must_beat and not trumped:
            best = max(height(card) for card in trick if suit_of(card) == led)
            higher = {card for card in same if height(card) > best}
            if higher:
                return higher
        return same
    if rules.must_trump and trump is not None:
        trumps = {card for card in hand if suit_of(card) == trump}
        if trumps:
            played = [height(card) for card in trick if suit_of(card) == trump]
            if rules.must_overtrump and played:
                higher = {card for card in trumps if height(card) > max(played)}
                if higher:
                    return higher
            return trumps
    return set(hand)


def trick_winner(trick: Sequence[tuple[int, Card]], trump: str | None) -> int:
    """The seat winning a trick: the highest trump if any was played, else the highest card of
    the led suit."""
    trumps = [(height(card), seat) for seat, card in trick if suit_of(card) == trump]
    if trumps:
        return max(trumps)[1]
    led = suit_of(trick[0][1])
    return max((height(card), seat) for seat, card in trick if suit_of(card) == led)[1]


class Umpire:
    """An independent model of one deal, driven by the same actions as the engine.

    It knows what is legal (:meth:`allowed`), asserts each action against the rule book
    (:meth:`step`), and compares its card zones with a state (:meth:`compare`).
    """

    def __init__(
        self, rules: Rules, layout: Layout, dealer: int, opening: int | None = None
    ) -> None:
        self.rules = rules
        self.players = n = rules.players
        self.layout = layout
        self.dealer = dealer
        self.sitter = sitter_seat(rules, dealer)
        self.order = active_seats(rules, dealer)
        """The seats taking part, clockwise from the forehand."""
        self.hands = [set(hand) for hand in layout.hands]
        if self.sitter is not None:
            assert not self.hands[self.sitter], "the sitter was dealt cards"
        self.piles = [set(pile) for pile in layout.talon]
        self.phase = "auction"
        self.bid = rules.opening_bid if opening is None else opening
        self.bidder = self.order[0]
        self.passed: set[int] = set()
        self.to_act = self.order[1]
        self.musik = 0
        self.received: dict[int, Card] = {}
        self.set_aside: set[Card] = set()
        self.contract: int | None = None
        self.conceded = False
        self.trick: list[tuple[int, Card]] = []
        self.won: list[set[Card]] = [set() for _ in range(n)]
        self.clean: set[int] = set()
        self.trump: str | None = None
        self.melds: list[tuple[int, str]] = []
        self.last_winner: int | None = None
        self.log: list[tuple[int, Action]] = []
        self.thrown_in: tuple[int, str] | None = None
        """After the exchange: the hand and reason that threw the deal in."""

    @classmethod
    def of(cls, state: GameState) -> Umpire:
        """An umpire at the start of the state's deal, brought up to the state's actions."""
        umpire = cls(state.rules, state.layout, state.dealer, opening_of(state.rules, state.deals))
        for seat, action in state.actions:
            umpire.step(seat, action)
        return umpire

    @property
    def ceiling(self) -> int:
        """The highest bid or contract the player to act may name."""
        return self.rules.cap_base + marriages_in(self.rules, self.hands[self.to_act])

    def allowed(self) -> set[Action]:
        """Every action the rule book allows the player to act."""
        rules, seat = self.rules, self.to_act
        hand = self.hands[seat]
        step = rules.bid_step
        if self.phase == "auction":
            return {Pass(), *(Bid(a) for a in range(self.bid + step, self.ceiling + 1, step))}
        if self.phase == "musik":
            return {Take(1), Take(2)}
        if self.phase == "exchange":
            if self.players == 2:
                return {Discard(card) for card in hand}
            waiting = [s for s in self.order if s != seat and s not in self.received]
            return {Give(card, to) for card in hand for to in waiting}
        if self.phase == "contract":
            top = max(self.bid, self.ceiling)
            allowed: set[Action] = {Contract(a) for a in range(self.bid, top + 1, step)}
            if rules.concession is not Concession.NONE:
                allowed.add(Concede())
            return allowed
        if self.phase == "play":
            if self.trick:
                trick = [card for _, card in self.trick]
                return {Play(card) for card in may_follow(rules, hand, trick, self.trump)}
            return self.leads()
        return set()

    def leads(self) -> set[Action]:
        """The leads allowed: any card, with the declarations the rule book permits."""
        rules, seat = self.rules, self.to_act
        hand = self.hands[seat]
        names = {str(card) for card in hand}
        may_marry = not rules.marriage_requires_trick or bool(self.won[seat])
        may_aces = (
            rules.ace_marriage > 0 and {"A" + s for s in MARRIAGE} <= names and seat in self.clean
        )
        automatic = rules.marriage_declaration is MarriageDeclaration.AUTOMATIC
        leads: set[Action] = set()
        for card in hand:
            rank, suit = rank_of(card), suit_of(card)
            declaration: Action | None = None
            if rank in "KQ" and may_marry and {"K" + suit, "Q" + suit} <= names:
                declaration = Play(card, marriage=True)
            elif rank == "A" and may_aces:
                declaration = Play(card, aces=True)
            if declaration is not None:
                leads.add(declaration)
            if declaration is None or not automatic:
                leads.add(Play(card))
        return leads

    def step(self, seat: int, action: Action) -> None:
        """Take one action, asserting that the rule book allows it."""
        rules = self.rules
        where = f"{self.phase}, action {len(self.log)} ({action} by seat {seat})"
        assert seat == self.to_act, f"{where}: seat {self.to_act} was to act"
        assert seat != self.sitter, f"{where}: the sitter acted"
        assert action in self.allowed(), f"{where}: the rule book does not allow it"
        self.log.append((seat, action))
        if self.phase == "auction":
            assert seat not in self.passed, f"{where}: a passed player acted again"
            if isinstance(action, Bid):
                step = rules.bid_step
                assert action.amount > self.bid, f"{where}: not above {self.bid}"
                assert (action.amount - self.bid) % step == 0, f"{where}: not in steps of {step}"
                top = rules.cap_base + marriages_in(rules, self.hands[seat])
                assert action.amount <= top, f"{where}: above the hand's ceiling {top}"
                self.bid, self.bidder = action.amount, seat
            else:
                self.passed.add(seat)
            if len(self.passed) == len(self.order) - 1:
                (last,) = set(self.order) - self.passed
                assert last == self.bidder, f"{where}: the last bidder is not the declarer"
                self.to_act = last
                if self.players != 2:
                    self.hands[last] |= self.piles[0]
                    self.piles[0] = set()
                    self.phase = "exchange"
                else:
                    self.phase = "musik"
            else:
                self.to_act = self._next_bidder(seat)
        elif isinstance(action, Take):
            self.musik = action.musik
            self.hands[seat] |= self.piles[action.musik - 1]
            self.piles[action.musik - 1] = set()
            self.phase = "exchange"
        elif isinstance(action, Give):
            assert action.card is not None
            self.hands[seat].remove(action.card)
            self.hands[action.to].add(action.card)
            self.received[action.to] = action.card
            if len(self.received) == 2:
                self._exchanged()
        elif isinstance(action, Discard):
            assert action.card is not None
            self.hands[seat].remove(action.card)
            self.set_aside.add(action.card)
            if len(self.set_aside) == 2:
                self._exchanged()
        elif isinstance(action, Contract):
            assert action.amount >= self.bid, f"{where}: contract below the winning bid"
            self.contract = action.amount
            self.phase = "play"
        elif isinstance(action, Concede):
            self.conceded = True
            self.phase = "over"
        else:
            assert isinstance(action, Play)
            self._play(seat, action)

    def _exchanged(self) -> None:
        """The exchange is over: the contract follows, unless a hand throws the deal in."""
        self.thrown_in = qualifying_hand(self.rules, self.hands, self.order, Redeal.AFTER_EXCHANGE)
        self.phase = "contract" if self.thrown_in is None else "over"

    def _next_active(self, seat: int) -> int:
        """The next seat taking part, clockwise."""
        return self.order[(self.order.index(seat) + 1) % len(self.order)]

    def _next_bidder(self, seat: int) -> int:
        seat = self._next_active(seat)
        while seat in self.passed:
            seat = self._next_active(seat)
        return seat

    def _play(self, seat: int, action: Play) -> None:
        card = action.card
        self.hands[seat].remove(card)
        if action.marriage:
            self.trump = suit_of(card)
            self.melds.append((seat, suit_of(card)))
        elif action.aces:
            self.melds.append((seat, "aces"))
        self.trick.append((seat, card))
        if len(self.trick) < len(self.order):
            self.to_act = self._next_active(seat)
            return
        winner = trick_winner(self.trick, self.trump)
        self.won[winner] |= {card for _, card in self.trick}
        if rank_of(dict(self.trick)[winner]) != "A":
            self.clean.add(winner)
        self.trick = []
        self.to_act = self.last_winner = winner
        if not any(self.hands):
            self.phase = "over"

    @property
    def declarer(self) -> int | None:
        """The declarer once the auction is over."""
        return None if self.phase == "auction" else self.bidder

    def trump_suit(self) -> str | None:
        """The suit of the most recent declared marriage, read from the action log."""
        marriages = [a.card for _, a in self.log if isinstance(a, Play) and a.marriage]
        return suit_of(marriages[-1]) if marriages else None

    def compare(self, state: GameState) -> None:
        """Assert that the state's zones, auction and trump match the umpire's."""
        assert state.hand_masks == tuple(mask(hand) for hand in self.hands)
        assert state.talon_masks == tuple(mask(pile) for pile in self.piles)
        assert state.trick_cards == tuple(card.index for _, card in self.trick)
        assert state.taken_masks == tuple(mask(won) for won in self.won)
        assert state.set_aside_mask == mask(self.set_aside)
        assert state.bid == self.bid
        assert state.declarer == self.declarer
        assert state.contract == self.contract
        assert state.passed_mask == mask_of_seats(self.passed)
        assert (None if state.trump is None else str(state.trump)) == self.trump
        melds = [(seat, 4 if meld == "aces" else "SCDH".index(meld)) for seat, meld in self.melds]
        assert list(state.melds) == melds
        if not state.is_over:
            assert state.current_player == self.to_act
            assert state.phase.name.lower() == self.phase

    def points(self) -> list[int]:
        """Deal points per seat: won card points, declared melds, credited set-aside cards."""
        points = [card_points(won) for won in self.won]
        for seat, meld in self.melds:
            points[seat] += meld_value(self.rules, meld)
        credit = self.rules.set_aside
        if self.players == 2 and credit is not SetAside.NOBODY and not self.conceded:
            credited = self.bidder if credit is SetAside.DECLARER else self.last_winner
            assert credited is not None
            points[credited] += card_points(self.out_of_play())
        return points

    def out_of_play(self) -> set[Card]:
        """Two players: the four cards set aside, the two laid away and the untaken musik."""
        return self.set_aside | set().union(*self.piles) if self.players == 2 else set()


def mask_of_seats(seats: Iterable[int]) -> int:
    """Seats as bits."""
    return sum(1 << seat for seat in seats)


# Invariant 1 -------------------------------------------------------------------------------


def check_conservation(state: GameState) -> None:
    """Hands, talon piles, the current trick, won tricks and set-aside cards hold the deck once."""
    assert len(set(state.trick_cards)) == len(state.trick_cards), "a card twice in the trick"
    zones = [
        *state.hand_masks,
        *state.talon_masks,
        sum(1 << index for index in state.trick_cards),
        *state.taken_masks,
        state.set_aside_mask,
    ]
    seen = 0
    for zone in zones:
        assert seen & zone == 0, f"cards in two zones: {sorted(from_mask(seen & zone), key=str)}"
        seen |= zone
    assert seen == (1 << 24) - 1, (
        f"cards missing: {sorted(from_mask(~seen & (1 << 24) - 1), key=str)}"
    )
    views = [card for hand in state.hands for card in hand]
    views += [card for pile in state.talon for card in pile]
    views += [card for _, card in state.trick] + list(state.set_aside)
    views += [card for won in state.taken_masks for card in from_mask(won)]
    assert sorted(views, key=lambda card: card.index) == list(DECK)


# Invariant 5 -------------------------------------------------------------------------------


def check_trump(state: GameState) -> None:
    """Trump is the suit of the deal's most recent declared marriage, or none."""
    marriages = [a.card for _, a in state.actions if isinstance(a, Play) and a.marriage]
    expected = suit_of(marriages[-1]) if marriages else None
    assert (None if state.trump is None else str(state.trump)) == expected


def check_trump_change(before: GameState, action: Action, after: GameState) -> None:
    """Within a deal the trump changes only when a marriage is declared on a lead."""
    if after.deal_number != before.deal_number or len(after.deals) != len(before.deals):
        return
    if after.trump != before.trump:
        assert isinstance(action, Play), f"trump changed on {action}"
        assert action.marriage, f"trump changed on a play without a marriage: {action}"
        assert not before.trick_cards, "trump changed on a card that was not a lead"


# Invariant 3 -------------------------------------------------------------------------------


def check_auction(state: GameState) -> None:
    """The deal's auction so far: raises in steps above the previous bid within the real hand's
    ceiling, passes final, and the contract at least the winning bid."""
    rules = state.rules
    # Once the game is over, the last of the deals is the state's own.
    bid, passed = opening_of(rules, state.deals[:-1] if state.is_over else state.deals), set()
    hands = state.layout.hands
    for seat, action in state.actions:
        if isinstance(action, Bid):
            assert seat not in passed, f"seat {seat} bid after passing"
            assert action.amount > bid
            assert (action.amount - bid) % rules.bid_step == 0
            assert action.amount <= rules.cap_base + marriages_in(rules, hands[seat])
            bid = action.amount
        elif isinstance(action, Pass):
            assert seat not in passed, f"seat {seat} passed twice"
            passed.add(seat)
        elif isinstance(action, Contract):
            assert action.amount >= bid
            assert (action.amount - bid) % rules.bid_step == 0
    assert state.bid == bid
    if state.contract is not None:
        assert state.contract >= state.bid


# Invariants 2, 6, 7, 8 ---------------------------------------------------------------------


class Before(NamedTuple):
    """The match before a deal: what its end-of-deal steps start from."""

    scores: tuple[int, ...]
    barrel: tuple[int | None, ...]
    bolts: tuple[int, ...]
    falls: tuple[int, ...]


def before_of(state: GameState) -> Before:
    """The match before the state's deal."""
    return Before(state.scores, state.barrel, state.bolts, state.falls)


def fresh(scores: tuple[int, ...], barrel: tuple[int | None, ...]) -> Before:
    """Scores and barrel places with no bolt or fall counted."""
    zeros = (0,) * len(scores)
    return Before(scores, barrel, zeros, zeros)


def check_deal_result(
    result: DealResult,
    umpire: Umpire,
    scores: tuple[int, ...],
    barrel: tuple[int | None, ...],
    before: Before | None = None,
) -> None:
    """A finished deal against the umpire's model: actions, points, deal scores, endgame."""
    rules = umpire.rules
    before = before or fresh(scores, barrel)
    assert umpire.phase == "over"
    assert list(result.actions) == umpire.log
    assert result.layout == umpire.layout
    assert result.dealer == umpire.dealer
    assert result.declarer == umpire.bidder
    assert result.bid == umpire.bid
    if umpire.thrown_in is not None:
        check_thrown_in(result, before)
        seat, reason = umpire.thrown_in
        assert result.thrown_in == ThrowIn(seat, reason, Redeal.AFTER_EXCHANGE)
        return
    assert result.thrown_in is None
    assert result.contract == (None if umpire.conceded else umpire.contract)
    assert result.conceded == umpire.conceded
    melds = sum(meld_value(rules, meld) for _, meld in umpire.melds)
    cards_won = sum(card_points(won) for won in umpire.won)
    if umpire.conceded:
        assert cards_won == 0
        assert all(
            points == 0 for seat, points in enumerate(result.points) if seat != umpire.bidder
        )
    else:
        # Invariant 2: the won tricks hold every card point in play.
        aside = card_points(umpire.out_of_play())
        assert cards_won == 120 - aside
        credited = aside if rules.players == 2 and rules.set_aside is not SetAside.NOBODY else 0
        assert sum(result.points) - melds == cards_won + credited
        assert list(result.points) == umpire.points()
    check_deal_scores(result, rules, before)
    check_endgame(result, rules, *before)


def check_thrown_in(result: DealResult, before: Before) -> None:
    """HOUSE-RULES.md 4.4: a thrown-in deal scores nothing and moves no score or counter."""
    assert result.thrown_in is not None
    assert result.contract is None
    assert not result.conceded
    assert not result.made
    assert set(result.points) == set(result.deal_scores) == {0}
    assert (result.scores, result.barrel) == (before.scores, before.barrel)
    assert (result.bolts, result.falls) == (before.bolts, before.falls)


def step_one_scores(result: DealResult, rules: Rules) -> list[int]:
    """HOUSE-RULES.md 4.9 step 1 (RULES.md 1.6): the declarer's ±contract or concession value,
    the defenders' rounded points or concession shares, the sitter's bonus."""
    sitter = sitter_seat(rules, result.dealer)
    scores = []
    for seat in range(rules.players):
        if seat == result.declarer:
            if result.conceded:
                score = -result.bid if rules.concession is Concession.PENALTY else 0
            else:
                assert result.contract is not None
                made = result.points[seat] >= result.contract
                score = result.contract if made else -result.contract
        elif seat == sitter:
            score = sitter_bonus(rules, result.layout.talon[0])
        elif result.conceded:
            score = concession_share(result.bid)
        else:
            score = round_half_up(result.points[seat], rules.rounding)
        scores.append(score)
    return scores


def locked(rules: Rules, score: int) -> bool:
    """Whether a seat with this score before the deal is above the lock."""
    return rules.endgame is Endgame.LOCK and score > rules.lock_threshold


def bolt_step(
    result: DealResult, rules: Rules, before: Before, step_one: Sequence[int]
) -> tuple[list[int], tuple[int, ...]]:
    """HOUSE-RULES.md 4.2, step 2: an active defender scoring exactly 0 at step 1 records a
    bolt (not on the barrel, not above the lock before the deal); the count reaching ``bolts``
    costs ``bolt_penalty`` and starts again; ``consecutive`` counting starts again after a
    deal taken part in without a bolt. The deal scores after it and the counts."""
    deal, counts = list(step_one), list(before.bolts)
    if not rules.bolts:
        return deal, tuple(counts)
    for seat in active_seats(rules, result.dealer):
        if before.barrel[seat] is not None or locked(rules, before.scores[seat]):
            continue
        if seat != result.declarer and step_one[seat] == 0:
            counts[seat] += 1
            if counts[seat] == rules.bolts:
                deal[seat] -= rules.bolt_penalty
                counts[seat] = 0
        elif rules.bolt_counting is BoltCounting.CONSECUTIVE:
            counts[seat] = 0
    return deal, tuple(counts)


def check_deal_scores(result: DealResult, rules: Rules, before: Before | None = None) -> None:
    """Invariant 6: the declarer scores ±contract or the concession value; defenders score
    their rounded points, non-negative multiples of the rounding step; the sitter its bonus
    (Part 4 invariant 3); bolt penalties (with ``before``) come off after that."""
    declarer = result.declarer
    sitter = sitter_seat(rules, result.dealer)
    step_one = step_one_scores(result, rules)
    for seat, score in enumerate(step_one):
        if seat == declarer and not result.conceded:
            assert result.made == (score > 0)
        elif seat != declarer:
            assert score >= 0
            if seat != sitter and not result.conceded:
                assert score % rules.rounding == 0
    if before is None:
        assert not rules.bolts, "bolts need the counts before the deal"
        assert list(result.deal_scores) == step_one
        return
    deal, counts = bolt_step(result, rules, before, step_one)
    assert list(result.deal_scores) == deal
    assert result.bolts == counts


def check_endgame(
    result: DealResult,
    rules: Rules,
    scores: tuple[int, ...],
    barrel: tuple[int | None, ...],
    bolts: tuple[int, ...] | None = None,
    falls: tuple[int, ...] | None = None,
) -> None:
    """The scores after the deal under the rules' endgame (invariant 7 for the barrel), then
    the samosval (Part 4 invariant 7); the fall counts."""
    zeros = (0,) * rules.players
    before = Before(scores, barrel, bolts or zeros, falls or zeros)
    deal = result.deal_scores
    seats = range(rules.players)
    expected_falls = before.falls
    if rules.endgame is Endgame.NONE:
        after = tuple(scores[s] + deal[s] for s in seats)
        places = barrel
    elif rules.endgame is Endgame.LOCK:
        counted = [s == result.declarer or not locked(rules, scores[s]) for s in seats]
        after = tuple(scores[s] + (deal[s] if counted[s] else 0) for s in seats)
        places = barrel
    else:
        after, places, expected_falls = barrel_scores(result, rules, before)
    after, places = samosval(rules, after, places)
    assert (result.scores, result.barrel) == (after, places)
    if falls is not None:
        assert result.falls == expected_falls
    for score in result.scores:
        if rules.samosval is not Samosval.NONE:
            assert score != 555
        if rules.samosval is Samosval.BOTH:
            assert score != -555
    if rules.endgame is not Endgame.BARREL:
        return
    threshold, target = rules.barrel_threshold, rules.target
    for seat in seats:
        score, place = result.scores[seat], result.barrel[seat]
        assert not threshold < score < target, f"seat {seat} at {score} after deal {result.number}"
        assert (place is not None) == (score == threshold)
        assert place is None or 0 <= place < (rules.barrel_deals or place + 1)
    if rules.barrel_capacity is BarrelCapacity.SINGLE and sum(p is not None for p in barrel) <= 1:
        assert sum(place is not None for place in result.barrel) <= 1


def samosval(
    rules: Rules, scores: tuple[int, ...], barrel: tuple[int | None, ...]
) -> tuple[tuple[int, ...], tuple[int | None, ...]]:
    """HOUSE-RULES.md 4.3, step 4: a score of exactly 555 (or -555 under ``both``) becomes 0,
    and such a seat is off the barrel."""
    if rules.samosval is Samosval.NONE:
        return scores, barrel
    hit = {555, -555} if rules.samosval is Samosval.BOTH else {555}
    return (
        tuple(0 if score in hit else score for score in scores),
        tuple(None if score in hit else place for score, place in zip(scores, barrel, strict=True)),
    )


def barrel_scores(
    result: DealResult, rules: Rules, before: Before
) -> tuple[tuple[int, ...], tuple[int | None, ...], tuple[int, ...]]:
    """Scores, barrel places and fall counts after a deal, from RULES.md 1.7 and HOUSE-RULES.md
    4.6: what a failed contract on the barrel costs, the barrel without a time limit, and the
    reset at the ``barrel_reset_falls``-th fall."""
    threshold = rules.barrel_threshold
    after, places = list(before.scores), list(before.barrel)
    mounted, fallen = [], []
    for seat in range(rules.players):
        place = places[seat]
        if place is None:
            after[seat] += result.deal_scores[seat]
            if after[seat] >= threshold:
                after[seat], places[seat] = threshold, 0
                mounted.append(seat)
            continue
        if seat == result.declarer:
            if result.conceded or not result.made:
                lost = result.bid if result.conceded else result.contract or 0
                cost = {
                    BarrelFallPenalty.CONTRACT: lost,
                    BarrelFallPenalty.PENALTY: rules.barrel_penalty,
                    BarrelFallPenalty.BOTH: lost + rules.barrel_penalty,
                }[rules.barrel_fall_penalty]
                after[seat] -= cost
                places[seat] = None
                fallen.append(seat)
                continue
            assert result.contract is not None
            if threshold + result.contract >= rules.target:
                after[seat] += result.contract
                places[seat] = None
                continue
        if rules.barrel_deals and place + 1 >= rules.barrel_deals:
            after[seat] -= rules.barrel_penalty
            places[seat] = None
            fallen.append(seat)
        else:
            places[seat] = place + 1
    if rules.barrel_capacity is BarrelCapacity.SINGLE and mounted:
        for seat in range(rules.players):
            if places[seat] is not None and (len(mounted) > 1 or seat not in mounted):
                after[seat] -= rules.barrel_penalty
                places[seat] = None
                fallen.append(seat)
    falls = list(before.falls)
    if rules.barrel_reset_falls:
        for seat in fallen:
            falls[seat] += 1
            if falls[seat] == rules.barrel_reset_falls:
                after[seat], falls[seat] = 0, 0
    return tuple(after), tuple(places), tuple(falls)


def check_match_end(state: GameState) -> None:
    """Invariant 8: a match goes on exactly until a winner or the deal cap; a finished match has
    one result naming its winners, and settlements sum to zero."""
    rules = state.rules
    if not state.deals or state.origin.single_deal:
        return
    last = state.deals[-1]
    crossed = [seat for seat, score in enumerate(last.scores) if score >= rules.target]
    capped = len(state.deals) >= rules.max_deals
    assert state.is_over == bool(crossed or capped)
    assert all(deal.number == number for number, deal in enumerate(state.deals))
    if not state.is_over:
        assert state.result is None
        return
    result = state.result
    assert isinstance(result, MatchResult)
    assert state.current_player is None
    assert state.legal_actions() == ()
    assert result.scores == last.scores
    assert result.deals == len(state.deals)
    assert result.winners
    assert list(result.winners) == sorted(set(result.winners))
    if crossed:
        assert not result.adjudicated
        if len(crossed) == 1:
            expected = crossed
        elif last.declarer in crossed:
            expected = [last.declarer]
        else:
            top = max(last.scores[seat] for seat in crossed)
            expected = [seat for seat in crossed if last.scores[seat] == top]
    else:
        assert result.adjudicated
        top = max(last.scores)
        expected = [seat for seat, score in enumerate(last.scores) if score == top]
    assert list(result.winners) == expected
    if rules.settlement is Settlement.NONE:
        assert result.settlement is None
        return
    assert result.settlement is not None
    assert sum(result.settlement) == 0
    dues = [max(0, rules.target - score) for score in result.scores]
    for seat, amount in enumerate(result.settlement):
        if seat in result.winners:
            others = [dues[s] for s in range(rules.players) if s not in result.winners]
            assert amount == sum(others)
        else:
            assert amount == -dues[seat] * len(result.winners)


# Invariant 9 -------------------------------------------------------------------------------


def snapshot(state: GameState) -> tuple[object, ...]:
    """The state's fields, to check by identity that nothing was replaced in place."""
    return tuple(getattr(state, name) for name in GAME_FIELDS)


def dealer_after(rules: Rules, deal: DealResult) -> int:
    """Who deals after ``deal``: the same dealer after a throw-in, else the next seat left."""
    return deal.dealer if deal.thrown_in else (deal.dealer + 1) % rules.players


def start_of_match(state: GameState) -> Before:
    """The match before its first deal, from how it began."""
    rules, scores = state.rules, state.origin.scores
    on_barrel = rules.endgame is Endgame.BARREL
    barrel = tuple(0 if on_barrel and score == rules.barrel_threshold else None for score in scores)
    return fresh(scores, barrel)


def check_thrown_in_as_dealt(rules: Rules, deal: DealResult, dealer: int, before: Before) -> None:
    """HOUSE-RULES.md 4.4 (Part 4 invariant 8): a deal thrown in as dealt takes no action, is
    dealt by ``dealer``, changes nothing, and names the first qualifying hand."""
    assert deal.thrown_in is not None
    assert deal.thrown_in.when is Redeal.DEALT
    assert deal.actions == ()
    assert deal.dealer == dealer
    check_thrown_in(deal, before)
    found = qualifying_hand(rules, deal.layout.hands, active_seats(rules, dealer), Redeal.DEALT)
    assert found is not None, f"deal {deal.number} was thrown in, but no hand qualifies"
    assert deal.thrown_in == ThrowIn(*found, Redeal.DEALT)


def check_deal_start(state: GameState, previous: DealResult | None) -> None:
    """A deal being played: dealt by the right seat from the match after the previous deal,
    the sitter's hand empty, and no hand qualifying for a throw-in as dealt."""
    rules = state.rules
    if previous is not None:
        assert state.deal_number == previous.number + 1
        assert state.dealer == dealer_after(rules, previous)
        after = Before(previous.scores, previous.barrel, previous.bolts, previous.falls)
        assert before_of(state) == after
    sitter = sitter_seat(rules, state.dealer)
    assert state.sitter == sitter
    if sitter is not None:
        assert not state.layout.hands[sitter]
    order = active_seats(rules, state.dealer)
    assert qualifying_hand(rules, state.layout.hands, order, Redeal.DEALT) is None


class Referee:
    """Plays actions on a state and checks every invariant on every transition and state."""

    def __init__(self, state: GameState, deep: bool = True) -> None:
        self.state = state
        self.deep = deep
        self.umpire = Umpire.of(state)
        # A state reached by the engine alone: the deals it threw in as dealt.
        before, dealer = start_of_match(state), state.origin.dealer
        for deal in state.deals:
            check_thrown_in_as_dealt(state.rules, deal, dealer, before)
        self.stale = bool(state.deals) and state.is_over
        """Whether the game ended on a deal thrown in as dealt (no umpire follows it)."""
        if not state.is_over:
            check_deal_start(state, state.deals[-1] if state.deals else None)
        self.check(state)

    def apply(self, action: Action) -> GameState:
        """Apply ``action``, checking the transition and the new state."""
        before = self.state
        seat = before.current_player
        assert seat is not None
        deep = copy.deepcopy(before) if self.deep else None
        fields, digest = snapshot(before), hash(before)
        after = before.apply(action)
        replaced = [a is not b for a, b in zip(snapshot(before), fields, strict=True)]
        assert not any(replaced), "apply replaced a field of its input"
        assert hash(before) == digest
        if deep is not None:
            assert before == deep
        self.umpire.step(seat, action)
        check_trump_change(before, action, after)
        new = after.deals[len(before.deals) :]
        if new:
            result, *skipped = new
            if after.is_over and not skipped:
                self.umpire.compare(after)
            check_deal_result(result, self.umpire, before.scores, before.barrel, before_of(before))
            previous = result
            for deal in skipped:
                after_previous = Before(
                    previous.scores, previous.barrel, previous.bolts, previous.falls
                )
                check_thrown_in_as_dealt(
                    after.rules, deal, dealer_after(after.rules, previous), after_previous
                )
                previous = deal
            check_match_end(after)
            if not after.is_over:
                check_deal_start(after, previous)
                opening = opening_of(after.rules, after.deals)
                self.umpire = Umpire(after.rules, after.layout, after.dealer, opening)
            elif after.origin.single_deal:
                assert after.result == result
            self.stale = bool(skipped) and after.is_over
        self.state = after
        self.check(after)
        return after

    def check(self, state: GameState) -> None:
        """Every per-state invariant."""
        check_conservation(state)
        check_trump(state)
        check_auction(state)
        if not self.stale:
            self.umpire.compare(state)
        if state.is_over:
            assert state.legal_actions() == ()
            assert state.current_player is None
        else:
            legal = state.legal_actions()
            assert legal
            assert len(set(legal)) == len(legal)
            assert set(legal) == self.umpire.allowed(), "legal actions differ from the rule book"
            assert state.current_player != sitter_seat(state.rules, state.dealer)


def leaning_choice(state: GameState, rng: random.Random) -> Action:
    """A policy that passes, contracts low and plays high half of the time, so that contracts
    are made and matches reach their end."""
    legal = state.legal_actions()
    if rng.random() < 0.5:
        return rng.choice(legal)
    if state.phase in (Phase.AUCTION, Phase.CONTRACT):
        return legal[0]
    if state.phase is Phase.PLAY:
        declared = [a for a in legal if isinstance(a, Play) and (a.marriage or a.aces)]
        if declared:
            return declared[-1]
        return max(legal, key=lambda a: height(a.card) if isinstance(a, Play) else 0)
    return rng.choice(legal)


# The tests ---------------------------------------------------------------------------------


@pytest.mark.slow
@given(start=deals(), data=st.data())
@settings(max_examples=scaled(3))
def test_card_conservation(start: GameState, data: st.DataObject) -> None:
    """Every reachable state of a deal holds each of the 24 cards in exactly one zone."""
    for state in random_playout(data, start):
        check_conservation(state)


@given(start=matches(max_deals=st.integers(1, 4)), seed=st.integers(0, 2**32))
@settings(max_examples=scaled(1))
def test_card_conservation_across_deals(start: GameState, seed: int) -> None:
    """Card conservation also holds through the automatic dealing of later deals."""
    for state in seeded_playout(start, seed):
        check_conservation(state)


@pytest.mark.slow
@given(start=deals(with_scores=False), data=st.data())
@settings(max_examples=scaled(3))
def test_trick_points_total(start: GameState, data: st.DataObject) -> None:
    """Won tricks hold 120 card points (2 players: minus the set-aside cards unless credited)."""
    final = random_playout(data, start)[-1]
    result = final.result
    assert isinstance(result, DealResult)
    umpire = Umpire.of(final)
    melds = sum(meld_value(final.rules, meld) for _, meld in umpire.melds)
    taken = sum(final.points_taken)
    if result.conceded:
        assert taken == 0
        assert melds == 0
        return
    aside = card_points(final.set_aside) + sum(card_points(pile) for pile in final.talon)
    expected = 120 - aside
    assert taken == expected
    credited = final.rules.players == 2 and final.rules.set_aside is not SetAside.NOBODY
    assert sum(result.points) - melds == expected + (aside if credited else 0)


@given(start=deals(), data=st.data())
@settings(max_examples=scaled(3))
def test_auction_and_contract(start: GameState, data: st.DataObject) -> None:
    """Bids rise in steps within the hand's ceiling, passes are final, contracts fit the rules."""
    umpire = Umpire(start.rules, start.layout, start.dealer)
    state = start
    while not state.is_over and state.phase in (Phase.AUCTION, Phase.MUSIK, Phase.EXCHANGE):
        seat, action = state.current_player, draw_action(data, state)
        assert seat is not None
        umpire.step(seat, action)
        state = state.apply(action)
        check_auction(state)
    if state.phase is Phase.CONTRACT:
        rules = state.rules
        declarer = state.declarer
        assert declarer is not None
        hand = state.hands[declarer]
        top = max(state.bid, rules.cap_base + marriages_in(rules, hand))
        amounts = {a.amount for a in state.legal_actions() if isinstance(a, Contract)}
        assert amounts == set(range(state.bid, top + 1, rules.bid_step))
        action = draw_action(data, state)
        state = state.apply(action)
        if isinstance(action, Contract):
            assert state.contract == action.amount >= state.bid
        check_auction(state)
    order = active_seats(start.rules, start.dealer)
    forehand = order[0]
    assert forehand == (start.dealer + 1) % start.rules.players
    if all(isinstance(a, Pass) for _, a in state.actions[: len(order) - 1]):
        assert state.declarer == forehand
        assert state.bid == start.rules.opening_bid


@pytest.mark.slow
@given(start=deals(), data=st.data())
@settings(max_examples=scaled(3))
def test_every_card_follows_the_rules(start: GameState, data: st.DataObject) -> None:
    """Every card played and every set of playable cards agrees with the rule book's reading."""
    umpire = Umpire(start.rules, start.layout, start.dealer)
    state = start
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = set(state.legal_actions())
        if state.phase is Phase.PLAY:
            assert legal == umpire.allowed()
        action = draw_action(data, state)
        if isinstance(action, Play) and umpire.trick:
            trick = [card for _, card in umpire.trick]
            hand = umpire.hands[seat]
            assert action.card in may_follow(state.rules, hand, trick, umpire.trump)
        umpire.step(seat, action)
        state = state.apply(action)


@st.composite
def trick_situations(draw: st.DrawFn) -> tuple[GameState, Umpire]:
    """A player to act in trick play with a drawn hand, trick so far, trump and won tricks: the
    engine's state and the umpire's, built side by side. The following rules are drawn freely,
    and the hands are slanted towards the cases each rule decides."""
    focus = draw(st.sampled_from(["lead", "any", "follow", "void", "overtrump"]))
    rules = draw(variants())
    must_trump = draw(st.booleans())
    rules = attrs.evolve(
        rules,
        must_beat=draw(st.booleans()),
        must_trump=must_trump or focus == "overtrump",
        must_overtrump=(must_trump and draw(st.booleans())) or focus == "overtrump",
        marriage_requires_trick=draw(st.booleans()),
        marriage_declaration=draw(st.sampled_from(MarriageDeclaration)),
        ace_marriage=draw(st.sampled_from([0, 200])),
    )
    if focus == "overtrump" and rules.players == 2:
        rules = attrs.evolve(rules, players=3, set_aside=SetAside.NOBODY)
    players = rules.players
    active = 2 if players == 2 else 3
    played = {"lead": 0, "overtrump": 2}.get(focus)
    if played is None:
        played = draw(st.integers(1, active - 1))
    trick = draw(st.lists(st.sampled_from(DECK), min_size=played, max_size=played, unique=True))
    suits = sorted({suit_of(card) for card in trick[1:]}) or list("SCDH")
    trump = draw(st.none() | st.sampled_from("SCDH") | st.sampled_from(suits))
    if focus == "overtrump":
        trump = draw(st.sampled_from([s for s in "SCDH" if s != suit_of(trick[0])]))
        pool = [c for c in DECK if suit_of(c) == trump and c not in trick]
        trick[1] = draw(st.sampled_from(pool))
    size = draw(st.integers(1, rules.tricks_per_deal))
    others = st.sampled_from([card for card in DECK if card not in trick])
    hand = draw(st.lists(others, min_size=size, max_size=size, unique=True))

    def add(suit: str | None, least: int) -> list[Card]:
        pool = [c for c in DECK if suit_of(c) == suit and c not in trick and c not in hand]
        if not pool:
            return []
        return draw(st.lists(st.sampled_from(pool), min_size=least, max_size=3, unique=True))

    if focus == "lead":
        # Marriages and the four aces, where the declaration rules apply.
        marriages = draw(st.lists(st.sampled_from("SCDH"), max_size=2, unique=True))
        wanted = [Card.parse(rank + suit) for suit in marriages for rank in "KQ"]
        if draw(st.booleans()):
            wanted += [Card.parse("A" + suit) for suit in "SCDH"]
        hand += [card for card in wanted if card not in hand and card not in trick]
    elif focus == "follow":
        hand += add(suit_of(trick[0]), 1)
    elif focus in ("void", "overtrump"):
        hand = [card for card in hand if suit_of(card) != suit_of(trick[0])]
        if trump != suit_of(trick[0]):
            hand += add(trump, 1 if focus == "overtrump" else 0)
    if not hand:
        hand = [next(card for card in reversed(DECK) if card not in trick)]
    deck = trick + hand + [card for card in DECK if card not in trick and card not in hand]
    has_won = draw(st.booleans())
    seat = played
    won = {deck[-1]} if has_won else set()
    # The dealer whose sitter (four seats) is the last seat: seats 0, 1, 2 play in order.
    dealer = players - 1
    if players == 4:
        dealer = next(d for d in range(4) if sitter_seat(rules, d) == 3)
    layout = layout_from_deck(deck, players, sitter_seat(rules, dealer))
    start = new_deal(rules, layout=layout, dealer=dealer)
    state = attrs.evolve(
        start,
        phase=Phase.PLAY,
        player=seat,
        bidder=0,
        contract_amount=rules.opening_bid,
        hand_masks=tuple(mask(hand) if s == seat else 0 for s in range(players)),
        talon_masks=(0,) * len(start.talon_masks),
        trick_cards=tuple(card.index for card in trick),
        taken_masks=tuple(mask(won) if s == seat else 0 for s in range(players)),
        trump_suit=-1 if trump is None else "SCDH".index(trump),
    )
    umpire = Umpire(rules, start.layout, dealer)
    umpire.phase, umpire.to_act, umpire.trump = "play", seat, trump
    umpire.hands = [set(hand) if s == seat else set() for s in range(players)]
    umpire.trick = list(enumerate(trick))
    umpire.won[seat] = won
    # The won card is not in the hand, so a hand of four aces has won with another card.
    umpire.clean = {seat} if has_won else set()
    return state, umpire


@pytest.mark.slow
@given(situation=trick_situations())
@settings(max_examples=scaled(8))
def test_following_rules_in_any_situation(situation: tuple[GameState, Umpire]) -> None:
    """In any hand, trick and trump situation the legal plays are exactly the rule book's."""
    state, umpire = situation
    assert set(state.legal_actions()) == umpire.allowed()
    assert len(set(state.legal_actions())) == len(state.legal_actions())


@pytest.mark.slow
@given(start=deals(), data=st.data())
@settings(max_examples=scaled(3))
def test_trump_follows_marriages(start: GameState, data: st.DataObject) -> None:
    """Trump is the suit of the latest declared marriage and changes only on a lead."""
    states = random_playout(data, start)
    for before, after in itertools.pairwise(states):
        check_trump(after)
        action = after.actions[-1][1] if after.actions else None
        if action is not None and len(after.deals) == len(before.deals):
            check_trump_change(before, action, after)


@pytest.mark.slow
@given(start=deals(), data=st.data())
@settings(max_examples=scaled(3))
def test_deal_scores(start: GameState, data: st.DataObject) -> None:
    """Declarer scores ±contract (or concession value), defenders rounded non-negative points."""
    final = random_playout(data, start)[-1]
    result = final.result
    assert isinstance(result, DealResult)
    check_deal_scores(result, final.rules)
    check_endgame(result, final.rules, start.scores, start.barrel)


CONCEDING_RULES = [rules for rules in VARIANTS.values() if rules.concession is not Concession.NONE]


@given(start=deals(rules=st.sampled_from(CONCEDING_RULES)), data=st.data())
@settings(max_examples=scaled(2))
def test_concession_scores(start: GameState, data: st.DataObject) -> None:
    """A concession ends the deal: declarer 0 or minus the bid, opponents half the bid up to 5."""
    state = start
    while state.phase is not Phase.CONTRACT:
        state = state.apply(draw_action(data, state))
    before = state
    state = state.apply(Concede())
    result = state.result
    assert isinstance(result, DealResult)
    assert result.conceded
    assert not result.made
    assert result.bid == before.bid
    check_deal_scores(result, state.rules)
    check_endgame(result, state.rules, start.scores, start.barrel)
    umpire = Umpire.of(state)
    check_deal_result(result, umpire, start.scores, start.barrel)


@given(
    start=st.one_of(
        matches(rules=st.sampled_from(BARREL_RULES), max_deals=st.integers(1, 15)),
        matches(rules=st.sampled_from(BARREL_RULES), max_deals=st.integers(1, 15), near_end=True),
    ),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=scaled(1.5))
def test_barrel_never_between_threshold_and_target(start: GameState, seed: int) -> None:
    """Under barrel rules no score lies strictly between 880 and 1000 after any deal."""
    rng = random.Random(seed)
    state = start
    while not state.is_over:
        state = state.apply(leaning_choice(state, rng))
    previous = (start.scores, start.barrel)
    for result in state.deals:
        for score in result.scores:
            assert not 880 < score < 1000
        check_endgame(result, state.rules, *previous)
        previous = (result.scores, result.barrel)


@given(
    start=st.one_of(matches(max_deals=st.integers(1, 20)), matches(near_end=True)),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=scaled(1.5))
def test_match_has_one_winner_set(start: GameState, seed: int) -> None:
    """A finished match has exactly one winner set, by the rule book, and settlements sum to 0."""
    rng = random.Random(seed)
    state = start
    while not state.is_over:
        assert state.result is None
        after = state.apply(leaning_choice(state, rng))
        if len(after.deals) > len(state.deals):
            check_match_end(after)
        state = after
    check_match_end(state)
    assert isinstance(state.result, MatchResult)
    event("adjudicated" if state.result.adjudicated else "won")
    with pytest.raises(IllegalActionError):
        state.apply(Pass())


@pytest.mark.slow
@given(start=deals(), data=st.data())
@settings(max_examples=scaled(1.5))
def test_apply_does_not_mutate(start: GameState, data: st.DataObject) -> None:
    """``apply`` leaves its input equal to a deep copy, with the same hash and field objects."""
    state = start
    while not state.is_over:
        action = draw_action(data, state)
        deep, fields, digest = copy.deepcopy(state), snapshot(state), hash(state)
        after = state.apply(action)
        assert state == deep
        assert hash(state) == digest
        assert all(a is b for a, b in zip(snapshot(state), fields, strict=True))
        assert after != state
        state = after


@given(start=matches(max_deals=st.integers(1, 3)), data=st.data())
@settings(max_examples=scaled(1))
def test_same_seed_same_states(start: GameState, data: st.DataObject) -> None:
    """Starting again with the same seed and taking the same actions gives equal states."""
    limit = data.draw(st.integers(0, 120), label="playout length")
    states, actions = [start], list[Action]()
    while not states[-1].is_over and len(actions) < limit:
        actions.append(draw_action(data, states[-1]))
        states.append(states[-1].apply(actions[-1]))
    origin = start.origin
    again = new_match(
        start.rules,
        seed=origin.seed,
        dealer=origin.dealer,
        scores=origin.scores,
        layout=origin.layout,
    )
    assert again == start
    assert hash(again) == hash(start)
    for action, expected in zip(actions, states[1:], strict=True):
        again = again.apply(action)
        assert again == expected
        assert hash(again) == hash(expected)
        assert again.legal_actions() == expected.legal_actions()


# Invariant 10 ------------------------------------------------------------------------------


def visible_cards(state: GameState, seat: int) -> set[Card]:
    """The cards of the current deal that ``seat`` has seen: its hand as dealt, the talon or the
    chosen musik once shown, every played card, cards it gave, received or laid aside."""
    layout = state.layout
    seen = set(layout.hands[seat])
    if state.rules.players != 2 and state.phase is not Phase.AUCTION:
        seen |= set(layout.talon[0])
    for actor, action in state.actions:
        if isinstance(action, Take):
            seen |= set(layout.talon[action.musik - 1])
        elif isinstance(action, (Play, Give, Discard)) and action.card is not None:
            face_up = isinstance(action, Play)
            received = isinstance(action, Give) and action.to == seat
            if face_up or received or actor == seat:
                seen.add(action.card)
    return seen


def observed_cards(observation: Observation) -> set[Card]:
    """Every card named anywhere in an observation."""
    found = set(observation.hand) | set(observation.talon) | set(observation.set_aside)
    found |= {card for card, _ in observation.given}
    found |= {card for _, card in observation.trick}
    found |= {card for trick in observation.tricks for card in trick.cards}
    if observation.received is not None:
        found.add(observation.received)
    actions = [a for _, a in observation.history] + list(observation.legal_actions)
    for action in actions:
        card = getattr(action, "card", None)
        if card is not None:
            found.add(card)
    return found


def relabel(layout: Layout, mapping: dict[Card, Card]) -> Layout:
    """The layout with cards exchanged according to ``mapping``."""
    return Layout(
        hands=[[mapping.get(card, card) for card in hand] for hand in layout.hands],
        talon=[[mapping.get(card, card) for card in pile] for pile in layout.talon],
    )


def relabel_action(action: Action, mapping: dict[Card, Card]) -> Action:
    """A give or discard of a hidden card, with the card exchanged."""
    if isinstance(action, Give) and action.card is not None:
        return Give(mapping.get(action.card, action.card), action.to)
    if isinstance(action, Discard) and action.card is not None:
        return Discard(mapping.get(action.card, action.card))
    return action


def twin_states(states: list[GameState], mapping: dict[Card, Card]) -> list[GameState] | None:
    """The playout replayed on the layout with hidden cards exchanged (and gives or discards of
    them exchanged too); ``None`` when the exchange makes one of the actions illegal."""
    start = states[0]
    origin = start.origin
    twin = new_deal(
        start.rules,
        seed=origin.seed,
        layout=relabel(start.layout, mapping),
        dealer=origin.dealer,
        scores=origin.scores,
    )
    twins = [twin]
    for seat, action in states[-1].actions:
        assert twin.current_player == seat
        try:
            twin = twin.apply(relabel_action(action, mapping))
        except IllegalActionError:
            return None
        twins.append(twin)
    return twins


def hidden_twins(data: st.DataObject, states: list[GameState], seat: int) -> list[GameState] | None:
    """The same states with cards ``seat`` cannot see exchanged (a few tries: a permutation of
    all of them, then two of them), the actions still legal; ``None`` if none was found."""
    hidden = sorted(ALL_CARDS - visible_cards(states[-1], seat), key=lambda card: card.index)
    note(f"hidden from seat {seat}: {' '.join(map(str, hidden))}")
    for _ in range(4):
        order = data.draw(st.permutations(hidden), label="exchange of hidden cards")
        if order == hidden and len(hidden) > 1:
            shift = data.draw(st.integers(1, len(hidden) - 1), label="rotation of hidden cards")
            order = hidden[shift:] + hidden[:shift]
        twins = twin_states(states, dict(zip(hidden, order, strict=True)))
        if twins is not None:
            return twins
        if len(hidden) >= 2:
            first, second = data.draw(
                st.lists(st.sampled_from(hidden), min_size=2, max_size=2, unique=True),
                label="two hidden cards",
            )
            twins = twin_states(states, {first: second, second: first})
            if twins is not None:
                return twins
    return None


@pytest.mark.slow
@given(start=deals(), data=st.data())
@settings(max_examples=scaled(4))
def test_observation_ignores_hidden_cards(start: GameState, data: st.DataObject) -> None:
    """Exchanging cards a seat cannot see leaves every observation of that seat unchanged."""
    limit = data.draw(st.integers(0, 36), label="prefix length")
    states = random_playout(data, start, max_actions=limit)
    if states[-1].is_over:
        states.pop()
    seat = data.draw(st.integers(0, start.rules.players - 1), label="observer")
    twins = hidden_twins(data, states, seat)
    event("twin found" if twins is not None else "no twin keeps the actions legal")
    if twins is None:
        return
    pairs = zip(states[0].hand_masks, twins[0].hand_masks, strict=True)
    event(f"{sum(a != b for a, b in pairs)} hands differ")
    for state, twin in zip(states, twins, strict=True):
        assert twin.observation(seat) == state.observation(seat)


@pytest.mark.slow
@given(start=deals(), data=st.data())
@settings(max_examples=scaled(2))
def test_observation_shows_only_visible_cards(start: GameState, data: st.DataObject) -> None:
    """An observation names only cards its seat has held, seen shown or played, given or got."""
    for state in random_playout(data, start):
        for seat in range(state.rules.players):
            observation = state.observation(seat)
            shown = observed_cards(observation)
            assert shown <= visible_cards(state, seat), sorted(
                shown - visible_cards(state, seat), key=str
            )
            assert set(observation.hand) == set(state.hands[seat])
            assert observation.hand_sizes == tuple(len(hand) for hand in state.hands)


# Records -----------------------------------------------------------------------------------


@given(start=st.one_of(deals(), matches(max_deals=st.integers(1, 3))), data=st.data())
@settings(max_examples=scaled(1))
def test_record_round_trip_replays_prefix(start: GameState, data: st.DataObject) -> None:
    """Any playout prefix survives record JSON and replays to an equal state."""
    limit = data.draw(st.integers(0, 90), label="prefix length")
    state = random_playout(data, start, max_actions=limit)[-1]
    text = Record.from_state(state).to_json()
    again = replay(Record.from_json(text))
    assert again == state
    assert Record.from_state(again).to_json() == text


# All invariants at once, in a state machine --------------------------------------------


def declares(action: Action) -> bool:
    """Whether an action declares a marriage or the four aces."""
    return isinstance(action, Play) and (action.marriage or action.aces)


class ThousandMachine(RuleBasedStateMachine):
    """Single deals and short matches of every configuration, refereed on every step."""

    referee: Referee

    @initialize(start=st.one_of(deals(), matches(max_deals=st.integers(1, 2))))
    def begin(self, start: GameState) -> None:
        """Start a deal or a match."""
        self.referee = Referee(start)

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """Apply a drawn legal action, leaning now and then towards declarations and
        concessions; after the end, start a fresh deal of a drawn configuration."""
        state = self.referee.state
        if state.is_over:
            rules = data.draw(st.sampled_from(list(VARIANTS.values())), label="rules")
            layout = data.draw(rules_layouts(rules, 0), label="layout")
            scores = data.draw(start_scores(rules), label="scores")
            self.referee = Referee(new_deal(rules, layout=layout, seed=1, scores=scores))
            return
        legal = state.legal_actions()
        lean = data.draw(st.sampled_from(["any", "declare", "concede"]), label="lean")
        leaning: dict[str, list[Action]] = {
            "declare": [a for a in legal if declares(a)],
            "concede": [a for a in legal if isinstance(a, Concede)],
        }
        options = leaning.get(lean) or list(legal)
        self.referee.apply(data.draw(st.sampled_from(options), label="action"))

    @invariant()
    def cards_are_conserved(self) -> None:
        """Invariant 1."""
        check_conservation(self.referee.state)

    @invariant()
    def trump_is_latest_marriage(self) -> None:
        """Invariant 5."""
        check_trump(self.referee.state)

    @invariant()
    def auction_is_sound(self) -> None:
        """Invariant 3."""
        check_auction(self.referee.state)

    @invariant()
    def observations_hide_cards(self) -> None:
        """Invariant 10: no observation names a card its seat has not seen."""
        state = self.referee.state
        for seat in range(state.rules.players):
            assert observed_cards(state.observation(seat)) <= visible_cards(state, seat)


# The profile's examples, not more: the machine deep-copies the state at every step.
ThousandMachine.TestCase.settings = settings(max_examples=scaled(1), stateful_step_count=80)
TestThousandMachine = pytest.mark.slow(ThousandMachine.TestCase)
