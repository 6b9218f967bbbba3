"""The rules configuration: one frozen value holding every choice on which traditions differ.

Start from a preset and change fields with ``attrs.evolve``::

    >>> import attrs
    >>> rules = attrs.evolve(Rules.preset("russian"), concession=Concession.FREE)
    >>> rules.bid_step, rules.concession.value
    (5, 'free')

The defaults are the Russian preset. A house rule added later comes as a new field whose default
switches it off, so existing configurations and records keep their meaning.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from typing import Any

import attrs

from thousand.common.config import (
    bool_field,
    enum_field,
    int_field,
    json_object,
    only_known_fields,
    parse_json,
)
from thousand.errors import RulesError

__all__ = [
    "BarrelCapacity",
    "BarrelFallPenalty",
    "BoltCounting",
    "Concession",
    "Endgame",
    "MarriageDeclaration",
    "Redeal",
    "Rules",
    "Samosval",
    "SetAside",
    "Settlement",
    "Sitter",
    "above_lock",
]


class Concession(enum.Enum):
    """Whether the declarer may give up the deal instead of fixing a contract (*роспись*)."""

    NONE = "none"
    """Not allowed."""
    FREE = "free"
    """Allowed; the declarer scores 0."""
    PENALTY = "penalty"
    """Allowed; the declarer scores minus the winning bid."""


class MarriageDeclaration(enum.Enum):
    """How leading a king or queen with its partner in hand declares the marriage."""

    OPTIONAL = "optional"
    """The player chooses: ``play KH`` and ``play KH marriage`` are distinct actions."""
    AUTOMATIC = "automatic"
    """Leading it always declares: only ``play KH marriage`` is legal."""


class Endgame(enum.Enum):
    """What happens near the target score."""

    NONE = "none"
    """Nothing special: the first to reach the target wins."""
    BARREL = "barrel"
    """The Russian barrel (*бочка*): scores stop at ``barrel_threshold`` until a contract wins."""
    LOCK = "lock"
    """The Polish lock: above ``lock_threshold`` only one's own contracts score."""


class BarrelCapacity(enum.Enum):
    """How many players may sit on the barrel at once."""

    MULTIPLE = "multiple"
    """Any number."""
    SINGLE = "single"
    """One: a newcomer knocks the sitter off; two arriving together both fall off."""


class Sitter(enum.Enum):
    """Four seats: who sits out each deal, counted from the dealer."""

    DEALER = "dealer"
    """The dealer."""
    RIGHT_OF_DEALER = "right_of_dealer"
    """The seat before the dealer (to the dealer's right)."""
    OPPOSITE_DEALER = "opposite_dealer"
    """The seat across the table from the dealer."""


class BoltCounting(enum.Enum):
    """How bolts (deals a defender scores exactly 0) add up towards their penalty."""

    CUMULATIVE = "cumulative"
    """Every bolt counts, however far apart."""
    CONSECUTIVE = "consecutive"
    """A scored deal played without a bolt sets the count back to 0."""


class Redeal(enum.Enum):
    """When a hand holding four nines (or four jacks) gets the deal thrown in."""

    NONE = "none"
    """Never."""
    DEALT = "dealt"
    """When the hand is dealt, before the first bid."""
    AFTER_EXCHANGE = "after_exchange"
    """When the exchange is over, before the contract."""


class Samosval(enum.Enum):
    """The dump truck (*самосвал*): a score landing exactly on 555 (or −555) drops to 0."""

    NONE = "none"
    """Off."""
    POSITIVE = "positive"
    """A score of exactly 555 after a deal becomes 0."""
    BOTH = "both"
    """A score of exactly 555 or −555 after a deal becomes 0."""


_SAMOSVAL_SCORES = {(): Samosval.NONE, (555,): Samosval.POSITIVE, (-555, 555): Samosval.BOTH}


def _samosval_scores(value: Any) -> Any:
    """A samosval setting written as the scores that drop to 0, in any order: ``[]``, ``[555]``
    or ``[555, -555]``; any other value is returned as it is."""
    if isinstance(value, list) and all(type(score) is int for score in value):
        return _SAMOSVAL_SCORES.get(tuple(sorted(value)), value)
    return value


class BarrelFallPenalty(enum.Enum):
    """What a player on the barrel loses for failing (or conceding) a contract."""

    CONTRACT = "contract"
    """The contract (the bid, when conceding), as off the barrel."""
    PENALTY = "penalty"
    """``barrel_penalty`` instead."""
    BOTH = "both"
    """The contract and ``barrel_penalty``."""


class Settlement(enum.Enum):
    """What the losers pay at the end of a match."""

    NONE = "none"
    """Nothing: the result is the scores."""
    SHORTFALL = "shortfall"
    """Every loser pays each winner what they lack to the target."""


class SetAside(enum.Enum):
    """Who scores the card points of the four cards out of play in the two-player game."""

    NOBODY = "nobody"
    DECLARER = "declarer"
    LAST_TRICK_WINNER = "last_trick_winner"


_PRESETS: dict[str, dict[str, Any]] = {}


@attrs.frozen(kw_only=True, cache_hash=True)
class Rules:
    """Every rule of a Thousand match that a table might agree differently.

    Construct with keywords, take a preset with :meth:`preset`, change with ``attrs.evolve``.
    An inconsistent combination raises :class:`~thousand.RulesError` at construction.
    """

    players: int = int_field(3, 2, 4)
    """Seats at the table: 2, 3, or 4 (three play each deal while the fourth sits out)."""
    opening_bid: int = int_field(100, 1, 1000)
    """The bid the forehand is committed to, and the contract when everybody else passes."""
    bid_step: int = int_field(5, 1, 100)
    """Bids and contracts go up in multiples of this."""
    cap_base: int = int_field(120, 1, 1000)
    """Bids and contracts above this need marriages in hand: the ceiling is this plus them."""
    concession: Concession = enum_field(Concession, Concession.PENALTY)
    """Whether the declarer may concede the deal after the exchange, and at what cost."""
    must_beat: bool = bool_field(False)
    """Following suit, play a higher card than the best of the led suit when able."""
    must_trump: bool = bool_field(True)
    """Void in the led suit, play a trump when holding one."""
    must_overtrump: bool = bool_field(False)
    """When trumping, beat the highest trump already in the trick if able."""
    marriage_requires_trick: bool = bool_field(True)
    """A marriage may be declared only by a player who has already won a trick in the deal."""
    marriage_declaration: MarriageDeclaration = enum_field(
        MarriageDeclaration, MarriageDeclaration.OPTIONAL
    )
    """Whether leading a king or queen of a held marriage declares it always or by choice."""
    ace_marriage: int = int_field(200, 0, 1000)
    """Value of the four-ace marriage; 0 switches it off."""
    rounding: int = int_field(5, 1, 100)
    """Defenders' deal points are rounded to this step, halves up (5: 1-2 down, 3-4 up)."""
    endgame: Endgame = enum_field(Endgame, Endgame.BARREL)
    """The barrel, the lock, or neither."""
    barrel_threshold: int = int_field(880, 1, 100_000)
    """Scores reaching this stop at it, and the player is on the barrel."""
    barrel_deals: int = int_field(3, 0, 100)
    """Deals a player may stay on the barrel, counted from the deal after mounting; 0 for no
    limit."""
    barrel_penalty: int = int_field(120, 0, 100_000)
    """Lost when falling off the barrel by running out of deals or being knocked off."""
    barrel_capacity: BarrelCapacity = enum_field(BarrelCapacity, BarrelCapacity.MULTIPLE)
    """Whether several players may sit on the barrel at once."""
    lock_threshold: int = int_field(800, 1, 100_000)
    """Above this score (before the deal) only one's own contracts count."""
    target: int = int_field(1000, 1, 100_000)
    """The score that wins the match."""
    settlement: Settlement = enum_field(Settlement, Settlement.SHORTFALL)
    """What the losers pay the winner at the end."""
    set_aside: SetAside = enum_field(SetAside, SetAside.NOBODY)
    """Two players: who scores the points of the cards out of play."""
    max_deals: int = int_field(400, 1, 10_000)
    """A match still undecided after this many deals is adjudicated to the highest score."""
    sitter: Sitter = enum_field(Sitter, Sitter.DEALER)
    """Four seats: who sits out each deal (the dealer, the seat before the dealer, or the seat
    opposite)."""
    sitter_bonus: int = int_field(0, 0, 1000)
    """Four seats: what the seat sitting out scores per ace in the talon, plus the talon's
    marriage; 0 for nothing."""
    bolts: int = int_field(0, 0, 100)
    """House rule: after this many bolts (deals a defender scores exactly 0) the player loses
    ``bolt_penalty``; 0 for no bolts."""
    bolt_penalty: int = int_field(120, 0, 100_000)
    """House rule: what the last bolt of a count costs."""
    bolt_counting: BoltCounting = enum_field(BoltCounting, BoltCounting.CUMULATIVE)
    """House rule: whether every bolt counts, or only bolts in a row."""
    samosval: Samosval = enum_field(Samosval, Samosval.NONE, also=_samosval_scores)
    """House rule: a score landing exactly on 555 (``positive``), or on 555 or −555 (``both``),
    after a deal drops to 0; a rules file may also give the scores, ``[555, -555]``."""
    redeal_nines: Redeal = enum_field(Redeal, Redeal.NONE)
    """House rule: a hand holding all four nines gets the deal thrown in, when dealt or after
    the exchange."""
    redeal_jacks: Redeal = enum_field(Redeal, Redeal.NONE)
    """House rule: a hand holding all four jacks gets the deal thrown in, when dealt or after
    the exchange."""
    redeal_weak_hand: int = int_field(0, 0, 1000)
    """House rule: a dealt hand worth less than this (card points plus marriages held) gets the
    deal thrown in; 0 for never."""
    gold_set: int = int_field(0, 0, 100)
    """House rule: the first this many scored deals of a match open at ``cap_base`` (120)
    instead of ``opening_bid``; 0 for none."""
    barrel_fall_penalty: BarrelFallPenalty = enum_field(
        BarrelFallPenalty, BarrelFallPenalty.CONTRACT
    )
    """House rule: what failing or conceding a contract on the barrel costs: the contract (the
    bid when conceding), ``barrel_penalty``, or both."""
    barrel_reset_falls: int = int_field(0, 0, 100)
    """House rule: a player's this-many-th fall from the barrel sets their score to 0; 0 for
    never."""

    def __attrs_post_init__(self) -> None:
        problems = list(self._problems())
        if problems:
            raise RulesError("inconsistent rules: " + "; ".join(problems))

    def _problems(self) -> list[str]:
        found = []
        if self.opening_bid % self.bid_step:
            found.append(
                f"opening_bid {self.opening_bid} is not a multiple of bid_step {self.bid_step}"
            )
        if self.cap_base < self.opening_bid:
            found.append(f"cap_base {self.cap_base} is below opening_bid {self.opening_bid}")
        if self.gold_set and self.cap_base % self.bid_step:
            found.append(
                f"gold_set needs cap_base {self.cap_base} to be a multiple of bid_step "
                f"{self.bid_step}"
            )
        if self.must_overtrump and not self.must_trump:
            found.append("must_overtrump needs must_trump")
        if self.players != 2 and self.set_aside is not SetAside.NOBODY:
            found.append("set_aside applies to the two-player game only; keep it 'nobody'")
        if self.players < 4 and self.sitter is not Sitter.DEALER:
            found.append("sitter applies to four seats only; keep it 'dealer'")
        if self.players < 4 and self.sitter_bonus:
            found.append("sitter_bonus applies to four seats only; keep it 0")
        if self.endgame is Endgame.BARREL and self.barrel_threshold >= self.target:
            found.append(
                f"barrel_threshold {self.barrel_threshold} must be below target {self.target}"
            )
        if self.endgame is Endgame.LOCK and self.lock_threshold >= self.target:
            found.append(f"lock_threshold {self.lock_threshold} must be below target {self.target}")
        return found

    @property
    def active_players(self) -> int:
        """Players taking part in each deal: 2, or 3 (with four seats one sits out)."""
        return 2 if self.players == 2 else 3

    @property
    def hand_size(self) -> int:
        """Cards dealt to each active player: 7 for three, 10 for two."""
        return 10 if self.players == 2 else 7

    @property
    def tricks_per_deal(self) -> int:
        """Tricks in a deal: 8 for three active players, 10 for two."""
        return 10 if self.players == 2 else 8

    def sitter_of(self, dealer: int) -> int:
        """The seat that sits out the deal ``dealer`` deals; -1 with fewer than four seats."""
        if self.players < 4:
            return -1
        return (dealer + _SITTER_OFFSET[self.sitter]) % 4

    def opening_bid_of(self, scored_deals: int) -> int:
        """The bid the forehand is committed to after ``scored_deals`` scored deals of the
        match: ``cap_base`` in the gold set's deals, else ``opening_bid``."""
        return self.cap_base if scored_deals < self.gold_set else self.opening_bid

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named tradition: ``russian``, ``polish``, ``polish-2p``, or the
        four-seat ``russian-4`` and ``polish-4``.

        Examples:
            >>> Rules.preset("polish-2p").players
            2
        """
        try:
            return cls(**_PRESETS[name])
        except KeyError:
            raise RulesError(
                f"no preset named '{name}'; choose one of {', '.join(cls.preset_names())}"
            ) from None

    @staticmethod
    def preset_names() -> tuple[str, ...]:
        """Names of the built-in presets."""
        return tuple(_PRESETS)

    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, or ``None`` for a custom configuration."""
        for name in _PRESETS:
            if Rules.preset(name) == self:
                return name
        return None

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON-ready values (enums as their string values). A house rule
        left at its default (off) is left out, so that rules, records and tournaments written
        before the house rules existed are written the same."""
        return {
            field.name: (value.value if isinstance(value, enum.Enum) else value)
            for field in attrs.fields(Rules)
            for value in [getattr(self, field.name)]
            if field.name not in HOUSE_RULES or value != field.default
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output; missing fields take their defaults.

        A ``"preset"`` key names the preset the other keys modify.
        """
        values = dict(json_object(data))
        base: dict[str, Any] = {}
        if "preset" in values:
            base = Rules.preset(str(values.pop("preset"))).to_dict()
        only_known_fields(cls, values)
        return cls(**{**base, **values})

    def to_json(self) -> str:
        """The rules as a JSON object."""
        return json.dumps(self.to_dict(), indent=2)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        """Rules from :meth:`to_json` text."""
        return cls.from_dict(parse_json(text))


HOUSE_RULES = frozenset(
    {
        "sitter",
        "sitter_bonus",
        "bolts",
        "bolt_penalty",
        "bolt_counting",
        "samosval",
        "redeal_nines",
        "redeal_jacks",
        "redeal_weak_hand",
        "gold_set",
        "barrel_fall_penalty",
        "barrel_reset_falls",
    }
)
"""The fields of the house rules and the four-seat game, each off at its default."""

_SITTER_OFFSET = {Sitter.DEALER: 0, Sitter.RIGHT_OF_DEALER: -1, Sitter.OPPOSITE_DEALER: 2}

_PRESETS["russian"] = {}
_PRESETS["polish"] = dict(
    bid_step=10,
    concession=Concession.NONE,
    must_beat=True,
    marriage_requires_trick=False,
    marriage_declaration=MarriageDeclaration.AUTOMATIC,
    ace_marriage=0,
    rounding=10,
    endgame=Endgame.LOCK,
    settlement=Settlement.NONE,
)
_PRESETS["polish-2p"] = dict(_PRESETS["polish"], players=2)
_PRESETS["russian-4"] = dict(players=4, sitter=Sitter.RIGHT_OF_DEALER, sitter_bonus=40)
_PRESETS["polish-4"] = dict(_PRESETS["polish"], players=4, sitter=Sitter.DEALER, sitter_bonus=50)


def above_lock(rules: Rules, score: int) -> bool:
    """Whether a seat with this match score is locked: under the lock endgame, above its
    threshold only the seat's own contracts score."""
    return rules.endgame is Endgame.LOCK and score > rules.lock_threshold
