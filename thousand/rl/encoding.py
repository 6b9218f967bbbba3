"""A seat's observation as a fixed-size vector of numbers between 0 and 1, for learning.

The vector is built from :class:`~thousand.Observation` (or :class:`thousand.bluff.Observation`)
alone, so it holds nothing the seat may not see. Seats are numbered from the observer: position
0 is the observer, 1 the seat after it, and so on. The layout is a list of named segments (see
``segments``), and :data:`ENCODING_VERSION` changes whenever the layout does. Segments for a
table of four and for house rules come last, and only under the rules that use them, so the
layout of the other rules stays as it was::

    >>> import thousand
    >>> encoder = ObservationEncoder.for_rules(thousand.Rules.preset("russian"))
    >>> state = thousand.new_deal(thousand.Rules.preset("russian"), seed=1)
    >>> vector = encoder.encode(thousand.observe(state, 0))
    >>> vector.shape, vector.dtype.name, encoder.segments[0]
    ((321,), 'float32', ('hand', 24))
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar, overload

import numpy as np
import numpy.typing as npt

from thousand import bluff
from thousand.classic.cards import DECK, DECK_POINTS
from thousand.classic.marriages import highest_ceiling
from thousand.classic.observation import Observation
from thousand.classic.rules import Rules
from thousand.classic.scoring import sitter_bonus
from thousand.classic.state import Phase
from thousand.games import BLUFF, THOUSAND, AnyGame, per_game

__all__ = ["ENCODING_VERSION", "ObservationEncoder"]

ENCODING_VERSION = 1
"""The version of the layout below; it changes whenever a segment of an existing layout is
added, moved or rescaled (segments that appear only under rules which had none before, such as
four seats or bolts, leave it as it is)."""

Vector = npt.NDArray[np.float32]

CARDS = len(DECK)
PHASES = tuple(Phase)
BLUFF_PHASES = tuple(bluff.Phase)
DEAL_POINTS = DECK_POINTS
"""The card points of a Thousand deck: what ``points_taken`` is divided by."""


ObservationT = TypeVar("ObservationT", bound="Observation | bluff.Observation")


class ObservationEncoder(Generic[ObservationT]):
    """Turns one game's observations (the type parameter) into vectors of ``size`` numbers,
    laid out as ``segments`` (name, length) in order."""

    segments: tuple[tuple[str, int], ...]

    def __init__(self, segments: Sequence[tuple[str, int]]) -> None:
        self.segments = tuple(segments)
        self.offsets: dict[str, int] = {}
        start = 0
        for name, length in self.segments:
            self.offsets[name] = start
            start += length
        self.size = start

    @overload
    @staticmethod
    def for_rules(rules: Rules) -> ObservationEncoder[Observation]: ...

    @overload
    @staticmethod
    def for_rules(rules: bluff.Rules) -> ObservationEncoder[bluff.Observation]: ...

    @staticmethod
    def for_rules(
        rules: Rules | bluff.Rules,
    ) -> ObservationEncoder[Observation] | ObservationEncoder[bluff.Observation]:
        """The encoder of a Thousand or 1000? game under ``rules``."""
        encoder: Callable[[Any], ThousandEncoder | BluffEncoder] = per_game(
            _ENCODERS, rules, "encoder"
        )
        return encoder(rules)

    def encode(self, observation: ObservationT) -> Vector:
        """The observation as a vector of ``size`` float32 numbers in [0, 1]."""
        raise NotImplementedError

    def describe(self) -> list[str]:
        """Each segment as ``name: start-end``, for a person reading the layout."""
        return [
            f"{name}: {self.offsets[name]}-{self.offsets[name] + length - 1}"
            for name, length in self.segments
        ]


class ThousandEncoder(ObservationEncoder[Observation]):
    """Thousand: cards as 24 flags each (spades nine first, ace of hearts last), seats relative
    to the observer, amounts divided by the highest possible bid, card points by 120, hand sizes
    by the largest hand, scores as 0.5 + score / (2 × target) clamped to [0, 1].

    At a table of four, ``sitter`` marks the seat sitting out and ``sitter_bonus`` its pending
    bonus (divided by the largest a talon can give). Under the house rules that count them,
    ``bolts`` and ``falls`` hold each seat's count divided by the count that costs, and
    ``scored_deals`` how far the match is through the gold set."""

    def __init__(self, rules: Rules) -> None:
        players = rules.players
        self.rules = rules
        self.highest = highest_ceiling(rules)
        self.highest_bonus = highest_sitter_bonus(rules)
        extra: list[tuple[str, int]] = []
        if players == 4:
            extra += [("sitter", players), ("sitter_bonus", 1)]
        if rules.bolts:
            extra.append(("bolts", players))
        if rules.barrel_reset_falls:
            extra.append(("falls", players))
        if rules.gold_set:
            extra.append(("scored_deals", 1))
        super().__init__(
            [
                ("hand", CARDS),
                ("trick", players * CARDS),
                ("played", CARDS),
                ("talon", CARDS),
                ("received", CARDS),
                ("given", players * CARDS),
                ("set_aside", CARDS),
                ("phase", len(PHASES)),
                ("to_act", players),
                ("dealer", players),
                ("bidder", players),
                ("declarer", players),
                ("passed", players),
                ("bid", 1),
                ("contract", 1),
                ("trump", 4),
                ("melds", players * 5),
                ("points_taken", players),
                ("hand_sizes", players),
                ("scores", players),
                ("on_barrel", players),
                ("barrel_deals", players),
                *extra,
            ]
        )

    def encode(self, observation: Observation) -> Vector:
        rules = self.rules
        players = rules.players
        me = observation.seat
        vector = np.zeros(self.size, dtype=np.float32)
        at = self.offsets

        def seat(name: str, absolute: int, value: float = 1.0) -> None:
            vector[at[name] + (absolute - me) % players] = value

        for card in observation.hand:
            vector[at["hand"] + card.index] = 1
        for player, card in observation.trick:
            vector[at["trick"] + ((player - me) % players) * CARDS + card.index] = 1
        for trick in observation.tricks:
            for card in trick.cards:
                vector[at["played"] + card.index] = 1
        for card in observation.talon:
            vector[at["talon"] + card.index] = 1
        if observation.received is not None:
            vector[at["received"] + observation.received.index] = 1
        for card, to in observation.given:
            vector[at["given"] + ((to - me) % players) * CARDS + card.index] = 1
        for card in observation.set_aside:
            vector[at["set_aside"] + card.index] = 1
        vector[at["phase"] + PHASES.index(observation.phase)] = 1
        if observation.current_player is not None:
            seat("to_act", observation.current_player)
        seat("dealer", observation.dealer)
        if observation.phase is Phase.AUCTION or observation.declarer is not None:
            seat("bidder", observation.bidder)
        if observation.declarer is not None:
            seat("declarer", observation.declarer)
        for player in observation.passed:
            seat("passed", player)
        vector[at["bid"]] = observation.bid / self.highest
        vector[at["contract"]] = (observation.contract or 0) / self.highest
        if observation.trump is not None:
            vector[at["trump"] + observation.trump.value] = 1
        for player, suit in observation.melds:
            offset = at["melds"] + ((player - me) % players) * 5
            vector[offset + (4 if suit is None else suit.value)] = 1
        for player, points in enumerate(observation.points_taken):
            seat("points_taken", player, points / DEAL_POINTS)
        for player, size in enumerate(observation.hand_sizes):
            seat("hand_sizes", player, size / (rules.hand_size + 3))
        for player, score in enumerate(observation.scores):
            seat("scores", player, min(max(score / rules.target, -1.0), 1.0) / 2 + 0.5)
        for player, deals in enumerate(observation.barrel):
            if deals is not None:
                seat("on_barrel", player)
                if rules.barrel_deals:
                    seat(
                        "barrel_deals", player, min(deals, rules.barrel_deals) / rules.barrel_deals
                    )
        if "sitter" in at:
            if observation.sitter is not None:
                seat("sitter", observation.sitter)
            if self.highest_bonus:
                vector[at["sitter_bonus"]] = observation.sitter_bonus / self.highest_bonus
        if rules.bolts:
            for player, count in enumerate(observation.bolts):
                seat("bolts", player, min(count / rules.bolts, 1.0))
        if rules.barrel_reset_falls:
            for player, count in enumerate(observation.falls):
                seat("falls", player, min(count / rules.barrel_reset_falls, 1.0))
        if rules.gold_set:
            vector[at["scored_deals"]] = min(observation.scored_deals, rules.gold_set) / (
                rules.gold_set
            )
        return vector


def highest_sitter_bonus(rules: Rules) -> int:
    """The most any talon can give the seat sitting out (0 without a bonus)."""
    if rules.players < 4 or not rules.sitter_bonus:
        return 0
    return max(
        sitter_bonus(rules, first.bit | second.bit | third.bit)
        for first, second, third in itertools.combinations(DECK, 3)
    )


class BluffEncoder(ObservationEncoder[bluff.Observation]):
    """1000?: cards as counts of each distinct card of the deck, lowest first (divided by the
    copies the deck holds), seats relative to the observer, sizes divided by the deck's."""

    def __init__(self, rules: bluff.Rules) -> None:
        players = rules.players
        kinds = len(rules.kinds.cards)
        self.rules = rules
        self.copies = np.array(
            [rules.deck.count(card) for card in rules.kinds.cards], dtype=np.float32
        )
        super().__init__(
            [
                ("hand", kinds),
                ("must_start_with", kinds),
                ("table_seen", kinds),
                ("top", kinds),
                ("top_hidden", 1),
                ("top_believed", 1),
                ("top_owner", players),
                ("table_size", 1),
                ("table_hidden", 1),
                ("phase", len(BLUFF_PHASES)),
                ("to_act", players),
                ("dealer", players),
                ("hand_sizes", players),
                ("draw_pile", 1),
                ("discard_pile", 1),
                ("turns", 1),
            ]
        )

    def encode(self, observation: bluff.Observation) -> Vector:
        rules = self.rules
        players = rules.players
        me = observation.seat
        number = rules.kinds.number
        deck = len(rules.deck)
        vector = np.zeros(self.size, dtype=np.float32)
        at = self.offsets
        kinds = len(self.copies)
        hand = np.zeros(kinds, dtype=np.float32)
        for card in observation.hand:
            hand[number[card]] += 1
        vector[at["hand"] : at["hand"] + kinds] = hand / self.copies
        for card in observation.must_start_with:
            vector[at["must_start_with"] + number[card]] = 1
        seen = np.zeros(kinds, dtype=np.float32)
        hidden = 0
        for placed in observation.table:
            if placed.card is None:
                hidden += 1
            else:
                seen[number[placed.card]] += 1
        vector[at["table_seen"] : at["table_seen"] + kinds] = seen / self.copies
        if observation.table:
            top = observation.table[-1]
            if top.card is None:
                vector[at["top_hidden"]] = 1
            else:
                vector[at["top"] + number[top.card]] = 1
            vector[at["top_believed"]] = float(top.believed)
            vector[at["top_owner"] + (top.owner - me) % players] = 1
        vector[at["table_size"]] = len(observation.table) / deck
        vector[at["table_hidden"]] = hidden / deck
        vector[at["phase"] + BLUFF_PHASES.index(observation.phase)] = 1
        if observation.current_player is not None:
            vector[at["to_act"] + (observation.current_player - me) % players] = 1
        vector[at["dealer"] + (observation.dealer - me) % players] = 1
        for player, size in enumerate(observation.hand_sizes):
            vector[at["hand_sizes"] + (player - me) % players] = size / deck
        vector[at["draw_pile"]] = observation.draw_pile_size / deck
        vector[at["discard_pile"]] = observation.discard_pile_size / deck
        vector[at["turns"]] = min(observation.turns / rules.max_turns, 1.0)
        return vector


_ENCODERS: dict[AnyGame, Callable[[Any], ThousandEncoder | BluffEncoder]] = {
    THOUSAND: ThousandEncoder,
    BLUFF: BluffEncoder,
}
"""Each game's encoder."""
