"""Observations: what one seat may know, as a frozen value.

Two states that differ only in what a seat cannot see (other hands, the unseen musik, cards given
or laid aside face down, the seed behind future deals) give that seat equal observations. An
observation copies only what its seat may see out of the state, and computes its fields from
those values when first read (see :mod:`thousand.common.view`), so taking one is cheap and nothing
hidden can be reached from it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, cast

import attrs

from thousand.classic import scoring
from thousand.classic.actions import Action, Discard, Give, Play, parse_action
from thousand.classic.cards import Card, Suit, cards_of, points_of
from thousand.classic.marriages import ACES
from thousand.classic.rules import Rules
from thousand.classic.state import DealContext, GameState, Phase, PublicDeal, trick_seats
from thousand.classic.talon import shown_talon
from thousand.classic.tricks import trick_winner
from thousand.common.history import entries_after, history_tuple
from thousand.common.json_values import optional_whole, whole, wholes
from thousand.common.knowledge import ACTIONS, HISTORY, RULES, VALUE, parts
from thousand.common.view import View, check_seat, field

_read_action = functools.lru_cache(maxsize=4096)(parse_action)
""":func:`parse_action`, remembering the texts it read (actions are values, so sharing them is
safe): a bot in another process reads the whole history again at each decision."""

__all__ = ["Observation", "Trick", "observe"]


@attrs.frozen
class Trick:
    """A finished trick of the current deal."""

    leader: int
    cards: tuple[Card, ...]
    """The cards in the order played, the leader's first."""
    winner: int


class Observation(View):
    """One seat's view of the game at one moment.

    It holds plain values copied for its seat when it is made, never the state: the public facts
    of the deal, the seat's own hand and what it saw of the exchange. Its fields are computed
    from those when first read.
    """

    _known: tuple[Any, ...]
    """What the seat knows, in the order of the ``_RULES`` ... ``_DEAL`` indexes: the state's
    public fields, then the seat, its hand as a mask, the exchange as it saw it (see
    ``GameState.exchange_seen``) and the public facts of the match around the deal (see
    ``DealContext.seen``)."""

    @classmethod
    def of_player(cls, state: GameState, seat: int) -> Observation:
        # Taken at every decision: the fields are read one by one, which is faster than
        # operator.attrgetter or a helper function.
        view = _new_view(cls)
        fields = view.__dict__
        context = state.context
        fields["_known"] = (
            state.rules,
            state.phase,
            state.player,
            state.bid,
            state.bidder,
            state.passed_mask,
            state.contract_amount,
            state.trick_cards,
            state.taken_masks,
            state.melds,
            state.trump_suit,
            state.history,
            seat,
            state.hand_masks[seat],
            state.exchange_seen[seat],
            context.seen or _seen_of(context),
        )
        if state.player == seat:
            fields["legal_actions"] = state.legal_actions()
        if state.phase is not _AUCTION:
            fields["talon"] = shown_talon(state)
        return view

    @field
    def seat(self) -> int:
        """The observing seat."""
        return self._known[_SEAT]  # type: ignore[no-any-return]

    @field
    def rules(self) -> Rules:
        """The rules in force."""
        return self._known[_RULES]  # type: ignore[no-any-return]

    @field
    def phase(self) -> Phase:
        """The stage of the deal."""
        return self._known[_PHASE]  # type: ignore[no-any-return]

    @field
    def current_player(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        player: int = self._known[_PLAYER]
        return None if player < 0 else player

    @field
    def dealer(self) -> int:
        """This deal's dealer."""
        return self._known[_DEAL][_DEALER]  # type: ignore[no-any-return]

    @field
    def deal_number(self) -> int:
        """The deal's number in the match, from 0."""
        return self._known[_DEAL][_DEAL_NUMBER]  # type: ignore[no-any-return]

    @field
    def scores(self) -> tuple[int, ...]:
        """Match scores per seat before this deal is scored."""
        return self._known[_DEAL][_SCORES]  # type: ignore[no-any-return]

    @field
    def barrel(self) -> tuple[int | None, ...]:
        """Per seat: ``None`` off the barrel, else the deals already spent on it."""
        return self._known[_DEAL][_BARREL]  # type: ignore[no-any-return]

    @field
    def active(self) -> tuple[int, ...]:
        """The seats taking part in this deal, clockwise from the forehand (all seats, but the
        one sitting out at a table of four)."""
        return self._known[_DEAL][_ACTIVE]  # type: ignore[no-any-return]

    @field
    def sitter(self) -> int | None:
        """Four seats: the seat sitting out this deal (it holds no cards and never acts)."""
        sitter: int = self._known[_DEAL][_SITTER]
        return None if sitter < 0 else sitter

    @field
    def sitter_bonus(self) -> int:
        """Four seats: what the seat sitting out will score for the talon, once it is shown
        (per ace, plus a marriage in it); 0 before that or without a bonus."""
        return scoring.sitter_bonus(self.rules, sum(card.bit for card in self.talon))

    @field
    def bolts(self) -> tuple[int, ...]:
        """Per seat, the bolts counted towards the next penalty (house rule ``bolts``)."""
        return self._known[_DEAL][_BOLTS]  # type: ignore[no-any-return]

    @field
    def falls(self) -> tuple[int, ...]:
        """Per seat, the falls from the barrel counted towards a reset (``barrel_reset_falls``)."""
        return self._known[_DEAL][_FALLS]  # type: ignore[no-any-return]

    @field
    def scored_deals(self) -> int:
        """The match's deals scored before this one (thrown-in deals not counted)."""
        return self._known[_DEAL][_SCORED_DEALS]  # type: ignore[no-any-return]

    @field
    def hand(self) -> tuple[Card, ...]:
        """The observer's own cards."""
        return cards_of(self._known[_HAND_MASK])

    @field
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        known = self._known
        rules: Rules = known[_RULES]
        if known[_PHASE] is Phase.PLAY:
            # The exchange is over: each seat taking part began the play with a card per
            # trick, and has played one to each finished trick and perhaps to this one.
            active = known[_DEAL][_ACTIVE]
            finished = sum(mask.bit_count() for mask in known[_TAKEN_MASKS]) // len(active)
            sizes = [0] * rules.players
            for seat in active:
                sizes[seat] = rules.tricks_per_deal - finished
            for seat, _ in trick_seats(active, known[_PLAYER], known[_TRICK_CARDS]):
                sizes[seat] -= 1
            return tuple(sizes)
        sizes = [rules.hand_size] * rules.players
        if self.sitter is not None:
            sizes[self.sitter] = 0
        declarer = self.declarer
        if declarer is not None:
            sizes[declarer] += len(self.talon)
        for actor, action in history_tuple(self._known[_HISTORY]):
            if isinstance(action, (Play, Give, Discard)):
                sizes[actor] -= 1
            if isinstance(action, Give):
                sizes[action.to] += 1
        return tuple(sizes)

    @field
    def bid(self) -> int:
        """The highest bid so far (the winning bid after the auction)."""
        return self._known[_BID]  # type: ignore[no-any-return]

    @field
    def bidder(self) -> int:
        """Who holds the highest bid (the declarer after the auction)."""
        return self._known[_BIDDER]  # type: ignore[no-any-return]

    @field
    def passed(self) -> tuple[int, ...]:
        """Seats that have passed in this deal's auction."""
        mask = self._known[_PASSED_MASK]
        return tuple(seat for seat in range(self.rules.players) if mask >> seat & 1)

    @field
    def declarer(self) -> int | None:
        """The auction's winner, once the auction is over."""
        return None if self.phase is Phase.AUCTION else self.bidder

    @field
    def contract(self) -> int | None:
        """The contract once fixed."""
        return self._known[_CONTRACT] or None

    @field
    def talon(self) -> tuple[Card, ...]:
        """The talon (3 players) or the chosen musik (2 players) once shown; before that empty."""
        return ()

    @field
    def received(self) -> Card | None:
        """Three players: the card the declarer gave this seat, once given."""
        seat = self.seat
        return next(
            (
                gift.card
                for gift in self._known[_EXCHANGE]
                if isinstance(gift, Give) and gift.to == seat
            ),
            None,
        )

    @field
    def given(self) -> tuple[tuple[Card, int], ...]:
        """The declarer's own view of the cards it gave, as ``(card, seat)``."""
        seat = self.seat
        return tuple(
            (cast(Card, gift.card), gift.to)
            for gift in self._known[_EXCHANGE]
            if isinstance(gift, Give) and gift.to != seat
        )

    @field
    def set_aside(self) -> tuple[Card, ...]:
        """Two players, the declarer only: the cards it laid aside."""
        return cards_of(
            sum(
                cast(Card, laid.card).bit
                for laid in self._known[_EXCHANGE]
                if isinstance(laid, Discard)
            )
        )

    @field
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as ``(seat, card)``."""
        known = self._known
        return trick_seats(known[_DEAL][_ACTIVE], known[_PLAYER], known[_TRICK_CARDS])

    @field
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks of this deal."""
        return tuple(self._tricks_from(0))

    def _tricks_from(self, first: int) -> list[Trick]:
        """The finished tricks of this deal from the ``first``."""
        plays = self._plays
        players = self.rules.active_players
        finished = len(plays) - len(plays) % players
        tricks = []
        for start in range(first * players, finished, players):
            chunk = plays[start : start + players]
            cards = tuple([action.card for _, action in chunk])
            if start + players < len(plays):
                winner = plays[start + players][0]
            elif self.current_player is None:
                trump = -1 if self.trump is None else self.trump.value
                winner = chunk[trick_winner(tuple(card.index for card in cards), trump)][0]
            else:
                winner = self.current_player
            tricks.append(Trick(chunk[0][0], cards, winner))
        return tricks

    @field
    def points_taken(self) -> tuple[int, ...]:
        """Card points each seat has won in tricks this deal (marriages not included)."""
        return tuple(points_of(mask) for mask in self._known[_TAKEN_MASKS])

    @field
    def melds(self) -> tuple[tuple[int, Suit | None], ...]:
        """Declared marriages as ``(seat, suit)``; ``None`` for the four aces."""
        return tuple(
            (seat, None if suit == ACES else Suit(suit)) for seat, suit in self._known[_MELDS]
        )

    @field
    def trump(self) -> Suit | None:
        """The trump suit, once a marriage has set one."""
        suit: int = self._known[_TRUMP_SUIT]
        return None if suit < 0 else Suit(suit)

    @field
    def history(self) -> tuple[tuple[int, Action], ...]:
        """This deal's actions as ``(seat, action)``; cards this seat did not see are ``None``."""
        public = history_tuple(self._known[_HISTORY])
        if not self._known[_EXCHANGE]:
            return public
        seat = self.seat
        own = iter(self._known[_EXCHANGE])
        seen: list[tuple[int, Action]] = []
        for actor, action in public:
            mine = actor == seat and isinstance(action, (Give, Discard))
            if mine or (isinstance(action, Give) and action.to == seat):
                action = next(own)
            seen.append((actor, action))
        return tuple(seen)

    @property
    def card_plays(self) -> tuple[tuple[int, Play], ...]:
        """This deal's card plays in order, each with the seat that played it: what the other
        seats' hands can be deduced from."""
        return self._plays

    @field
    def _plays(self) -> tuple[tuple[int, Play], ...]:
        """This deal's card plays in order, read from the end of the history (they are public,
        so nothing needs filling in, and the auction and exchange are not walked through)."""
        known = self.__dict__.get("_known")
        if known is None:
            return tuple(
                (actor, action) for actor, action in self.history if isinstance(action, Play)
            )
        history = known[_HISTORY]
        count = len(known[_TRICK_CARDS]) + sum(mask.bit_count() for mask in known[_TAKEN_MASKS])
        plays: list[tuple[int, Play]] = []
        for _ in range(count):
            history, actor, action = history
            plays.append((actor, action))
        plays.reverse()
        return tuple(plays)

    @field
    def legal_actions(self) -> tuple[Action, ...]:
        """The observer's legal actions (empty when it is not the observer's turn)."""
        return ()

    def to_dict(self, *, with_rules: bool = True) -> dict[str, Any]:
        """The observation as plain JSON data: cards and actions in their text form (the rules
        left out when ``with_rules`` is false)."""
        data = {name: write(self) for name, (_, write) in _WRITERS.items()}
        if with_rules:
            data["rules"] = self.rules.to_dict()
        return data

    def data_since(self, previous: View, data: dict[str, Any]) -> dict[str, Any]:
        """:meth:`to_dict` without the rules, given ``data``, that of ``previous``, an earlier
        observation of the same seat in the same match: the fields made only of what is the
        same since are taken from ``data``, and a history that grew is extended, with the
        tricks finished since (a bot out of this process is sent an observation at each of its
        decisions, most of it unchanged)."""
        before = previous.__dict__.get("_known") if type(previous) is Observation else None
        if before is None:
            return self.to_dict(with_rules=False)
        now = self._known
        stale = set(_ALWAYS_WRITTEN)
        for index, part in enumerate(now):
            if part is not before[index]:
                stale |= _WRITTEN_FROM[index]
        added = (
            None
            if now[_EXCHANGE] is not before[_EXCHANGE]
            else entries_after(now[_HISTORY], before[_HISTORY])
        )
        fresh = dict(data)
        for name in stale:
            if added is not None and name == "history":
                fresh[name] = data[name] + added
            elif added is not None and name == "tricks":
                fresh[name] = data[name] + _write_tricks(self._tricks_from(len(data[name])))
            else:
                fresh[name] = _WRITERS[name][1](self)
        return fresh

    @classmethod
    def from_dict(cls, data: dict[str, Any], rules: Rules | None = None) -> Observation:
        """The observation written by :meth:`to_dict`, with ``rules`` when they were left out
        (raises ``KeyError``, ``TypeError`` or ``ValueError`` on malformed data). The fields
        of four seats and house rules may be missing, as older observations leave them out."""
        if rules is None:
            rules = Rules.from_dict(data["rules"])
        seats = rules.players
        if not data.keys() >= _LATER_FIELDS:
            data = {
                "active": _clockwise(whole(data["dealer"]), seats),
                "sitter": None,
                "sitter_bonus": 0,
                "bolts": (0,) * seats,
                "falls": (0,) * seats,
                "scored_deals": data["deal_number"],
                **data,
            }
        fields = {name: read(data[name]) for name, read in cls.READERS.items()}
        return cls.from_fields(rules=rules, **fields)


_LATER_FIELDS = frozenset({"active", "sitter", "sitter_bonus", "bolts", "falls", "scored_deals"})
"""The fields of four seats and house rules, which older observations leave out."""


def _clockwise(dealer: int, seats: int) -> tuple[int, ...]:
    """Every seat clockwise from the forehand: what ``active`` is without a seat sitting out."""
    forehand = (dealer + 1) % seats
    return tuple((forehand + step) % seats for step in range(seats))


def _cards(texts: Any) -> tuple[Card, ...]:
    return tuple([Card.parse(text) for text in texts])


def _suit(text: Any) -> Suit:
    if not isinstance(text, str) or len(text) != 1 or text not in "SCDH":
        raise ValueError(f"{text!r} is not a suit (S, C, D or H)")
    return Suit("SCDH".index(text))


def observe(state: GameState, seat: int) -> Observation:
    """The observation of ``seat`` in ``state``; raises ``SeatError`` when there is no such seat."""
    check_seat(state.rules.players, seat)
    return Observation.of_player(state, seat)


(
    _RULES,
    _PHASE,
    _PLAYER,
    _BID,
    _BIDDER,
    _PASSED_MASK,
    _CONTRACT,
    _TRICK_CARDS,
    _TAKEN_MASKS,
    _MELDS,
    _TRUMP_SUIT,
    _HISTORY,
    _SEAT,
    _HAND_MASK,
    _EXCHANGE,
    _DEAL,
) = range(16)
(
    _DEALER,
    _DEAL_NUMBER,
    _SCORES,
    _BARREL,
    _ACTIVE,
    _SITTER,
    _BOLTS,
    _FALLS,
    _SCORED_DEALS,
) = range(9)
"""The parts of ``_known[_DEAL]``: the public facts of the match around the deal."""


def _seen_of(context: DealContext) -> PublicDeal:
    """The public facts of the match around the deal, in the order of the ``_DEALER`` ...
    ``_SCORED_DEALS`` indexes, made once per deal and kept in ``context.seen``."""
    seen: PublicDeal = (
        context.dealer,
        context.deal_number,
        context.scores,
        context.barrel,
        context.active,
        context.sitter,
        context.bolts,
        context.falls,
        context.scored_deals,
    )
    object.__setattr__(context, "seen", seen)
    return seen


_new_view = object.__new__
_AUCTION = Phase.AUCTION


def _texts(cards: Any) -> list[str]:
    return [card.text for card in cards]


def _optional_text(card: Card | None) -> str | None:
    return None if card is None else card.text


def _write_tricks(tricks: Iterable[Trick]) -> list[dict[str, Any]]:
    return [{"leader": t.leader, "cards": _texts(t.cards), "winner": t.winner} for t in tricks]


def _write_history(view: Observation) -> list[list[Any]]:
    return [[seat, str(action)] for seat, action in view.history]


_WRITERS: dict[str, tuple[frozenset[int] | None, Callable[[Observation], Any]]] = {
    "seat": (frozenset({_SEAT}), lambda view: view.seat),
    "phase": (frozenset({_PHASE}), lambda view: view.phase.value),
    "current_player": (frozenset({_PLAYER}), lambda view: view.current_player),
    "dealer": (frozenset({_DEAL}), lambda view: view.dealer),
    "deal_number": (frozenset({_DEAL}), lambda view: view.deal_number),
    "scores": (frozenset({_DEAL}), lambda view: list(view.scores)),
    "barrel": (frozenset({_DEAL}), lambda view: list(view.barrel)),
    "hand": (frozenset({_HAND_MASK}), lambda view: _texts(view.hand)),
    "hand_sizes": (None, lambda view: list(view.hand_sizes)),
    "bid": (frozenset({_BID}), lambda view: view.bid),
    "bidder": (frozenset({_BIDDER}), lambda view: view.bidder),
    "passed": (frozenset({_PASSED_MASK, _RULES}), lambda view: list(view.passed)),
    "declarer": (frozenset({_PHASE, _BIDDER}), lambda view: view.declarer),
    "contract": (frozenset({_CONTRACT}), lambda view: view.contract),
    "talon": (None, lambda view: _texts(view.talon)),
    "received": (frozenset({_EXCHANGE, _SEAT}), lambda view: _optional_text(view.received)),
    "given": (
        frozenset({_EXCHANGE, _SEAT}),
        lambda view: [[card.text, to] for card, to in view.given],
    ),
    "set_aside": (frozenset({_EXCHANGE}), lambda view: _texts(view.set_aside)),
    "trick": (
        frozenset({_DEAL, _PLAYER, _TRICK_CARDS}),
        lambda view: [[seat, card.text] for seat, card in view.trick],
    ),
    # The finished tricks change only as a trick is taken, and so the masks of cards taken.
    "tricks": (
        frozenset({_TAKEN_MASKS}),
        lambda view: _write_tricks(view.tricks),
    ),
    "points_taken": (frozenset({_TAKEN_MASKS}), lambda view: list(view.points_taken)),
    "melds": (
        frozenset({_MELDS}),
        lambda view: [[seat, None if suit is None else str(suit)] for seat, suit in view.melds],
    ),
    "trump": (
        frozenset({_TRUMP_SUIT}),
        lambda view: None if view.trump is None else str(view.trump),
    ),
    "history": (frozenset({_HISTORY, _EXCHANGE}), _write_history),
    "legal_actions": (None, lambda view: [str(action) for action in view.legal_actions]),
    "active": (frozenset({_DEAL}), lambda view: list(view.active)),
    "sitter": (frozenset({_DEAL}), lambda view: view.sitter),
    "sitter_bonus": (None, lambda view: view.sitter_bonus),
    "bolts": (frozenset({_DEAL}), lambda view: list(view.bolts)),
    "falls": (frozenset({_DEAL}), lambda view: list(view.falls)),
    "scored_deals": (frozenset({_DEAL}), lambda view: view.scored_deals),
}
"""Per field, in the order of the JSON data: the parts of what the seat knows (``_known``) it
is made of alone (``None``: others too), and how it is written."""
_ALWAYS_WRITTEN = frozenset(name for name, (uses, _) in _WRITERS.items() if uses is None)
"""The fields written again for every observation (made of more than what the seat knows)."""
_WRITTEN_FROM = tuple(
    frozenset(name for name, (uses, _) in _WRITERS.items() if uses is not None and index in uses)
    for index in range(_DEAL + 1)
)
"""Per part of what the seat knows, the fields written again when it changes."""


Observation.READERS = {
    "seat": whole,
    "phase": Phase,
    "current_player": optional_whole,
    "dealer": whole,
    "deal_number": whole,
    "scores": wholes,
    "barrel": lambda deals: tuple([optional_whole(each) for each in deals]),
    "hand": _cards,
    "hand_sizes": wholes,
    "bid": whole,
    "bidder": whole,
    "passed": wholes,
    "declarer": optional_whole,
    "contract": optional_whole,
    "talon": _cards,
    "received": lambda text: None if text is None else Card.parse(text),
    "given": lambda given: tuple([(Card.parse(text), whole(seat)) for text, seat in given]),
    "set_aside": _cards,
    "trick": lambda trick: tuple([(whole(seat), Card.parse(text)) for seat, text in trick]),
    "tricks": lambda tricks: tuple(
        [Trick(whole(t["leader"]), _cards(t["cards"]), whole(t["winner"])) for t in tricks]
    ),
    "points_taken": wholes,
    "melds": lambda melds: tuple(
        [(whole(seat), None if suit is None else _suit(suit)) for seat, suit in melds]
    ),
    "trump": lambda text: None if text is None else _suit(text),
    "history": lambda history: tuple([(whole(seat), _read_action(text)) for seat, text in history]),
    "legal_actions": lambda texts: tuple([_read_action(text) for text in texts]),
    "active": wholes,
    "sitter": optional_whole,
    "sitter_bonus": whole,
    "bolts": wholes,
    "falls": wholes,
    "scored_deals": whole,
}
Observation.PARTS = parts(
    ("rules", RULES),
    ("phase", Phase),
    ("player", VALUE),
    ("bid", VALUE),
    ("bidder", VALUE),
    ("passed_mask", VALUE),
    ("contract", VALUE),
    ("trick_cards", VALUE),
    ("taken_masks", VALUE),
    ("melds", VALUE),
    ("trump_suit", VALUE),
    ("history", HISTORY),
    ("seat", VALUE),
    ("hand_mask", VALUE),
    ("exchange", ACTIONS),
    ("deal", VALUE),
)
Observation.SENT_WITH = {
    "legal_actions": lambda actions: [str(action) for action in actions],
    "talon": _texts,
}
Observation.read_action = staticmethod(_read_action)  # type: ignore[method-assign]
