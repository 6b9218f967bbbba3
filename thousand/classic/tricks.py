"""Trick play: which cards may be played, marriages and trump changes, and who wins a trick."""

from __future__ import annotations

from thousand.classic.actions import Action, Play
from thousand.classic.cards import (
    ACES_MASK,
    DECK,
    MARRIAGE_MASKS,
    MARRIED_RANKS,
    SUIT_MASKS,
    Rank,
    Suit,
    indices,
)
from thousand.classic.marriages import ACES
from thousand.classic.rules import MarriageDeclaration, Rules
from thousand.common.state_base import fast_updater

_PLAIN = tuple(Play(card) for card in DECK)
_MARRIAGE = {card.index: Play(card, marriage=True) for card in DECK if card.rank in MARRIED_RANKS}
_ACES = {card.index: Play(card, aces=True) for card in DECK if card.rank == Rank.ACE}
# The plain plays of each 6-bit suit pattern, high rank first; then of each 12-bit pattern of
# two suits (hearts and diamonds, clubs and spades), so a hand's plays are two look-ups.
_SUIT_PLAYS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(
        tuple(_PLAIN[6 * suit + rank] for rank in reversed(range(6)) if pattern >> rank & 1)
        for pattern in range(64)
    )
    for suit in range(4)
)
_HIGH_PLAYS, _LOW_PLAYS = (
    tuple(
        _SUIT_PLAYS[high][pattern >> 6] + _SUIT_PLAYS[low][pattern & 63] for pattern in range(4096)
    )
    for high, low in ((3, 2), (1, 0))
)


def plain_plays(mask: int) -> tuple[Action, ...]:
    """``play CARD`` for every card of the mask, in display order (hearts to spades, high to
    low)."""
    return _HIGH_PLAYS[mask >> 12] + _LOW_PLAYS[mask & 4095]


def following(rules: Rules, trick: tuple[int, ...], trump: int) -> tuple[int, ...]:
    """What the following rules demand of a card played to ``trick`` (a non-empty tuple of card
    indices): card masks, most demanding first. A hand must play from the first mask it holds a
    card of, and may play any card when it holds none of them.

    The led suit comes first (a higher card of it first where the rules say to beat), then,
    where trumping is compulsory, the trump suit (a higher trump first where the rules say to
    overtrump). ``playable``, ``why_illegal`` and :func:`thousand.classic.inference.deduce` all
    read the rules through this one definition."""
    key = (trick, trump, rules.must_beat, rules.must_trump, rules.must_overtrump)
    try:
        return _FOLLOWING[key]
    except KeyError:
        demands = _FOLLOWING[key] = _demands(rules, trick, trump)
        return demands


_FOLLOWING: dict[tuple[tuple[int, ...], int, bool, bool, bool], tuple[int, ...]] = {}
"""The demands computed so far, by trick, trump and the rules that matter (a few thousand at
most: tricks of up to two cards, five trump states)."""


def _demands(rules: Rules, trick: tuple[int, ...], trump: int) -> tuple[int, ...]:
    led_suit = trick[0] // 6
    demands = []
    if rules.must_beat and not (
        trump >= 0 and trump != led_suit and any(card // 6 == trump for card in trick)
    ):
        best = max(card for card in trick if card // 6 == led_suit)
        demands.append(above(best))
    demands.append(SUIT_MASKS[led_suit])
    if rules.must_trump and trump >= 0:
        if rules.must_overtrump:
            played = [card for card in trick if card // 6 == trump]
            if played:
                demands.append(above(max(played)))
        demands.append(SUIT_MASKS[trump])
    return tuple(demands)


def above(index: int) -> int:
    """The cards of the same suit ranked above the card with this index."""
    return SUIT_MASKS[index // 6] & ~((2 << index) - 1)


def playable(rules: Rules, hand: int, trick: tuple[int, ...], trump: int) -> int:
    """The cards of ``hand`` that may follow to ``trick`` (a non-empty tuple of card indices)."""
    for cards in following(rules, trick, trump):
        if hand & cards:
            return hand & cards
    return hand


def may_declare_marriage(state: GameState) -> bool:
    """Whether the player on lead may declare a marriage now (some rules need a won trick)."""
    return not state.rules.marriage_requires_trick or state.taken_masks[state.player] != 0


def may_declare_aces(state: GameState, hand: int) -> bool:
    """Whether the player on lead may declare the four aces: all held, and a trick already won
    (necessarily with a card other than an ace, since all four are still in hand)."""
    return bool(
        state.rules.ace_marriage
        and hand & ACES_MASK == ACES_MASK
        and state.taken_masks[state.player]
    )


def _lead_actions(state: GameState, hand: int) -> tuple[Action, ...]:
    marriages = 0
    if may_declare_marriage(state):
        for pair in MARRIAGE_MASKS:
            if hand & pair == pair:
                marriages |= pair
    aces = ACES_MASK if may_declare_aces(state, hand) else 0
    if not marriages | aces:
        return plain_plays(hand)
    automatic = state.rules.marriage_declaration is MarriageDeclaration.AUTOMATIC
    actions: list[Action] = []
    for index in indices(hand):
        bit = 1 << index
        special = _MARRIAGE[index] if marriages & bit else _ACES[index] if aces & bit else None
        if special is None or not automatic:
            actions.append(_PLAIN[index])
        if special is not None:
            actions.append(special)
    return tuple(actions)


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every card on a lead (with its declarations), else the cards the following rules allow."""
    hand = state.hand_masks[state.player]
    trick = state.trick_cards
    if not trick:
        return _lead_actions(state, hand)
    return plain_plays(playable(state.rules, hand, trick, state.trump_suit))


def beats(card: int, best: int, trump: int) -> bool:
    """Whether the card with index ``card`` beats ``best``, the trick's winning card so far: a
    higher card of the same suit, or a trump on another suit."""
    suit = card // 6
    return (suit == best // 6 and card > best) or (suit == trump and best // 6 != trump)


def trick_winner(trick: tuple[int, ...], trump: int) -> int:
    """The position in ``trick`` of the winning card: the highest trump, else the highest card
    of the led suit."""
    beaten_by = _BEATEN_BY[trump]
    best = trick[0]
    winner = 0
    for position in range(1, len(trick)):
        card = trick[position]
        if beaten_by[best] >> card & 1:
            best = card
            winner = position
    return winner


_BEATEN_BY: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << card for card in range(24) if beats(card, best, trump)) for best in range(24))
    for trump in (0, 1, 2, 3, -1)
)
"""Per trump suit (index -1, the last row: no trump yet) and card, the mask of the cards that
:func:`beats` says beat it."""


def trick_complete(rules: Rules, cards: int) -> bool:
    """Whether a trick of ``cards`` cards is complete: one card from each seat in play."""
    return cards == rules.active_players


def tricks_in(rules: Rules, cards: int) -> int:
    """How many whole tricks ``cards`` cards played (or taken) in a deal make."""
    return cards // rules.active_players


def trump_after(action: Play, trump: int) -> int:
    """The trump suit number once ``action`` is played: a declared marriage makes its own suit
    trump (the four aces change nothing)."""
    return action.card.index // 6 if action.marriage else trump


def tricks_won(state: GameState) -> tuple[int, ...]:
    """How many tricks each seat has won this deal."""
    rules = state.rules
    return tuple(tricks_in(rules, mask.bit_count()) for mask in state.taken_masks)


def play(state: GameState, action: Play) -> GameState:
    """Play a card; a declared marriage scores and sets trump at once; a full trick is
    collected by its winner, who leads next."""
    seat = state.player
    index = action.card.index
    hands = list(state.hand_masks)
    hands[seat] ^= 1 << index
    melds = state.melds
    trump = state.trump_suit
    if action.marriage:
        trump = trump_after(action, trump)
        melds = (*melds, (seat, trump))
    elif action.aces:
        melds = (*melds, (seat, ACES))
    trick = (*state.trick_cards, index)
    history = (state.history, seat, action)
    context = state.context
    active = context.active
    if len(trick) < len(active):
        return _next_card(state, context.turn[seat], tuple(hands), trick, melds, trump, history)
    winner = active[(active.index(seat) + 1 + trick_winner(trick, trump)) % len(active)]
    taken = list(state.taken_masks)
    for card in trick:
        taken[winner] |= 1 << card
    return _trick_taken(state, winner, tuple(hands), (), tuple(taken), melds, trump, history)


def why_illegal(state: GameState, action: Action) -> str:
    """Why ``action`` is not a legal play here, in the words of the following rules."""
    if not isinstance(action, Play):
        return "in trick play the only action is playing a card ('play CARD')"
    rules = state.rules
    hand = state.hand_masks[state.player]
    card = action.card
    if not hand & card.bit:
        return f"{card} is not in this player's hand"
    trick = state.trick_cards
    if action.marriage or action.aces:
        if trick:
            return "only the player leading to a trick may declare"
        if action.marriage:
            if card.rank not in MARRIED_RANKS:
                return "a marriage is declared by leading its king or queen"
            if hand & MARRIAGE_MASKS[card.suit] != MARRIAGE_MASKS[card.suit]:
                return f"the partner of {card} is not in hand, so there is no marriage to declare"
            return "these rules allow a marriage only after the player has won a trick"
        if card.rank != Rank.ACE or hand & ACES_MASK != ACES_MASK:
            return "the ace marriage is declared by leading an ace while holding all four"
        if not rules.ace_marriage:
            return "these rules have no ace marriage"
        return "the ace marriage needs a trick already won with a card other than an ace"
    if not trick:
        kind = "the four aces" if card.rank == Rank.ACE else "the marriage"
        return (
            f"under these rules leading {card} here declares {kind} automatically: "
            f"'{(_ACES if card.rank == Rank.ACE else _MARRIAGE)[card.index]}'"
        )
    demand = next(cards for cards in following(rules, trick, state.trump_suit) if hand & cards)
    suit = Suit(DECK[(demand & -demand).bit_length() - 1].suit)
    name = suit.name.lower()
    if suit == DECK[trick[0]].suit:
        if card.suit != suit:
            return f"must follow suit: {DECK[trick[0]]} was led and this hand holds {name}"
        return f"must beat the best {name[:-1]} in the trick with a higher one when able"
    if card.suit != suit:
        led_suit = Suit(DECK[trick[0]].suit).name.lower()
        return f"void in {led_suit}, must play a trump ({name}) when holding one"
    return f"must beat the highest {name[:-1]} already in the trick when able"


# Loading the state loads the dispatcher, which reads this module's functions: they exist by now.
from thousand.classic.state import GameState  # noqa: E402

_next_card = fast_updater(
    GameState, "player", "hand_masks", "trick_cards", "melds", "trump_suit", "history"
)
_trick_taken = fast_updater(
    GameState,
    "player", "hand_masks", "trick_cards", "taken_masks", "melds", "trump_suit", "history",
)  # fmt: skip
