"""Observations: what one seat may know, as a frozen value.

Two states that differ only in what a seat cannot see (other hands, the unseen musik, cards given
or laid aside face down, the seed behind future deals) give that seat equal observations. Fields
are computed when first read (see :mod:`thousand.view`), so taking an observation is cheap.
"""

from __future__ import annotations

from typing import Any

import attrs

from thousand.actions import Action, Discard, Give, Play, parse_action
from thousand.cards import Card, Suit, cards_of
from thousand.rules import Rules
from thousand.state import ACES, GameState, Phase
from thousand.tricks import trick_winner
from thousand.view import View, field

__all__ = ["Observation", "Trick", "observe"]


@attrs.frozen
class Trick:
    """A finished trick of the current deal."""

    leader: int
    cards: tuple[Card, ...]
    """The cards in the order played, the leader's first."""
    winner: int


class Observation(View):
    """One seat's view of the game at one moment."""

    _state: GameState
    _seat: int

    @field
    def seat(self) -> int:
        """The observing seat."""
        return self._seat

    @field
    def rules(self) -> Rules:
        """The rules in force."""
        return self._state.rules

    @field
    def phase(self) -> Phase:
        """The stage of the deal."""
        return self._state.phase

    @field
    def current_player(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        return self._state.current_player

    @field
    def dealer(self) -> int:
        """This deal's dealer."""
        return self._state.dealer

    @field
    def deal_number(self) -> int:
        """The deal's number in the match, from 0."""
        return self._state.deal_number

    @field
    def scores(self) -> tuple[int, ...]:
        """Match scores per seat before this deal is scored."""
        return self._state.scores

    @field
    def barrel(self) -> tuple[int | None, ...]:
        """Per seat: ``None`` off the barrel, else the deals already spent on it."""
        return self._state.barrel

    @field
    def hand(self) -> tuple[Card, ...]:
        """The observer's own cards."""
        return cards_of(self._state.hand_masks[self._seat])

    @field
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(mask.bit_count() for mask in self._state.hand_masks)

    @field
    def bid(self) -> int:
        """The highest bid so far (the winning bid after the auction)."""
        return self._state.bid

    @field
    def bidder(self) -> int:
        """Who holds the highest bid (the declarer after the auction)."""
        return self._state.bidder

    @field
    def passed(self) -> tuple[int, ...]:
        """Seats that have passed in this deal's auction."""
        mask = self._state.passed_mask
        return tuple(seat for seat in range(self._state.rules.players) if mask >> seat & 1)

    @field
    def declarer(self) -> int | None:
        """The auction's winner, once the auction is over."""
        return self._state.declarer

    @field
    def contract(self) -> int | None:
        """The contract once fixed."""
        return self._state.contract

    @field
    def talon(self) -> tuple[Card, ...]:
        """The talon (3 players) or the chosen musik (2 players) once shown; before that empty."""
        state = self._state
        if state.declarer is None:
            return ()
        piles = state.layout.talon
        if state.rules.players == 3:
            return piles[0]
        return piles[state.musik - 1] if state.musik else ()

    @field
    def received(self) -> Card | None:
        """Three players: the card the declarer gave this seat, once given."""
        return self._seen[0]

    @field
    def given(self) -> tuple[tuple[Card, int], ...]:
        """The declarer's own view of the cards it gave, as ``(card, seat)``."""
        return self._seen[1]

    @field
    def set_aside(self) -> tuple[Card, ...]:
        """Two players, the declarer only: the cards it laid aside."""
        state = self._state
        return cards_of(state.set_aside_mask) if self._seat == state.declarer else ()

    @field
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as ``(seat, card)``."""
        return self._state.trick

    @field
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks of this deal."""
        return _tricks(self._state, self._seen[3])

    @field
    def points_taken(self) -> tuple[int, ...]:
        """Card points each seat has won in tricks this deal (marriages not included)."""
        return self._state.points_taken

    @field
    def melds(self) -> tuple[tuple[int, Suit | None], ...]:
        """Declared marriages as ``(seat, suit)``; ``None`` for the four aces."""
        return tuple(
            (seat, None if suit == ACES else Suit(suit)) for seat, suit in self._state.melds
        )

    @field
    def trump(self) -> Suit | None:
        """The trump suit, once a marriage has set one."""
        return self._state.trump

    @field
    def history(self) -> tuple[tuple[int, Action], ...]:
        """This deal's actions as ``(seat, action)``; cards this seat did not see are ``None``."""
        return self._seen[2]

    @field
    def _plays(self) -> tuple[tuple[int, Play], ...]:
        """This deal's card plays in order, read from the end of the history (they are public,
        so nothing needs hiding, and the auction and exchange are not walked through)."""
        state: GameState | None = self.__dict__.get("_state")
        if state is None:
            return tuple(
                (actor, action) for actor, action in self.history if isinstance(action, Play)
            )
        count = len(state.trick_cards) + sum(mask.bit_count() for mask in state.taken_masks)
        plays: list[tuple[int, Play]] = []
        node = state.history
        for _ in range(count):
            assert node is not None
            node, actor, action = node
            plays.append((actor, action))  # type: ignore[arg-type]
        plays.reverse()
        return tuple(plays)

    @field
    def legal_actions(self) -> tuple[Action, ...]:
        """The observer's legal actions (empty when it is not the observer's turn)."""
        state = self._state
        return state.legal_actions() if state.player == self._seat else ()

    @field
    def _seen(
        self,
    ) -> tuple[
        Card | None,
        tuple[tuple[Card, int], ...],
        tuple[tuple[int, Action], ...],
        tuple[tuple[int, Action], ...],
    ]:
        """One pass over the deal's actions: the card received, the cards given, the history
        with hidden cards masked, and the plays."""
        state = self._state
        seat = self._seat
        history = state.actions
        # The deal's actions are the auction and exchange, then one play per card played.
        played = len(state.trick_cards) + sum(mask.bit_count() for mask in state.taken_masks)
        plays = history[len(history) - played :]
        received = None
        given: list[tuple[Card, int]] = []
        seen: list[tuple[int, Action]] = []
        for actor, action in history[: len(history) - played]:
            if isinstance(action, Give) and action.card is not None and actor != seat:
                if action.to == seat:
                    received = action.card
                else:
                    action = Give(None, action.to)
            elif isinstance(action, Give) and action.card is not None:
                given.append((action.card, action.to))
            elif isinstance(action, Discard) and actor != seat:
                action = Discard(None)
            seen.append((actor, action))
        return received, tuple(given), (*seen, *plays), plays

    def to_dict(self, *, with_rules: bool = True) -> dict[str, Any]:
        """The observation as plain JSON data: cards and actions in their text form (the rules
        left out when ``with_rules`` is false)."""
        data: dict[str, Any] = {
            "seat": self.seat,
            "phase": self.phase.value,
            "current_player": self.current_player,
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "scores": list(self.scores),
            "barrel": list(self.barrel),
            "hand": [card.text for card in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "bid": self.bid,
            "bidder": self.bidder,
            "passed": list(self.passed),
            "declarer": self.declarer,
            "contract": self.contract,
            "talon": [card.text for card in self.talon],
            "received": None if self.received is None else self.received.text,
            "given": [[card.text, seat] for card, seat in self.given],
            "set_aside": [card.text for card in self.set_aside],
            "trick": [[seat, card.text] for seat, card in self.trick],
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [card.text for card in t.cards],
                    "winner": t.winner,
                }
                for t in self.tricks
            ],
            "points_taken": list(self.points_taken),
            "melds": [[seat, None if suit is None else str(suit)] for seat, suit in self.melds],
            "trump": None if self.trump is None else str(self.trump),
            "history": [[seat, str(action)] for seat, action in self.history],
            "legal_actions": [str(action) for action in self.legal_actions],
        }
        if with_rules:
            data["rules"] = self.rules.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], rules: Rules | None = None) -> Observation:
        """The observation written by :meth:`to_dict`, with ``rules`` when they were left out
        (raises ``KeyError``, ``TypeError`` or ``ValueError`` on malformed data)."""
        card = Card.parse
        return cls.from_fields(
            seat=int(data["seat"]),
            rules=rules if rules is not None else Rules.from_dict(data["rules"]),
            phase=Phase(data["phase"]),
            current_player=_optional_int(data["current_player"]),
            dealer=int(data["dealer"]),
            deal_number=int(data["deal_number"]),
            scores=tuple(int(score) for score in data["scores"]),
            barrel=tuple(_optional_int(deals) for deals in data["barrel"]),
            hand=tuple(card(text) for text in data["hand"]),
            hand_sizes=tuple(int(size) for size in data["hand_sizes"]),
            bid=int(data["bid"]),
            bidder=int(data["bidder"]),
            passed=tuple(int(seat) for seat in data["passed"]),
            declarer=_optional_int(data["declarer"]),
            contract=_optional_int(data["contract"]),
            talon=tuple(card(text) for text in data["talon"]),
            received=None if data["received"] is None else card(data["received"]),
            given=tuple((card(text), int(seat)) for text, seat in data["given"]),
            set_aside=tuple(card(text) for text in data["set_aside"]),
            trick=tuple((int(seat), card(text)) for seat, text in data["trick"]),
            tricks=tuple(
                Trick(int(t["leader"]), tuple(card(c) for c in t["cards"]), int(t["winner"]))
                for t in data["tricks"]
            ),
            points_taken=tuple(int(points) for points in data["points_taken"]),
            melds=tuple(
                (int(seat), None if suit is None else Suit("SCDH".index(suit)))
                for seat, suit in data["melds"]
            ),
            trump=None if data["trump"] is None else Suit("SCDH".index(data["trump"])),
            history=tuple((int(seat), parse_action(text)) for seat, text in data["history"]),
            legal_actions=tuple(parse_action(text) for text in data["legal_actions"]),
        )


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def observe(state: GameState, seat: int) -> Observation:
    """The observation of ``seat`` in ``state``."""
    return Observation.seen_from(state, seat)


def _tricks(state: GameState, plays: tuple[tuple[int, Action], ...]) -> tuple[Trick, ...]:
    """The finished tricks among the deal's plays: each trick's winner leads the next one."""
    players = state.rules.players
    finished = len(plays) - len(plays) % players
    tricks = []
    for start in range(0, finished, players):
        chunk = plays[start : start + players]
        cards = tuple([action.card for _, action in chunk if isinstance(action, Play)])
        if start + players < len(plays):
            winner = plays[start + players][0]
        elif state.phase is Phase.OVER:
            winner = chunk[trick_winner(tuple(card.index for card in cards), state.trump_suit)][0]
        else:
            winner = state.player
        tricks.append(Trick(chunk[0][0], cards, winner))
    return tuple(tricks)
