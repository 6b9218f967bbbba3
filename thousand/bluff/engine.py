"""Starting a 1000? game, and the dispatcher where its phase modules meet.

:func:`legal_actions` is the single source of legality; :func:`apply` accepts exactly the actions
it lists and hands each to the module of the current phase.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter

import attrs

from thousand.bluff import challenge, climb
from thousand.bluff.actions import ACTION_TYPES, Action, Believe, Hide, Play
from thousand.bluff.layout import Layout
from thousand.bluff.results import Result
from thousand.bluff.rules import Rules
from thousand.bluff.state import NOBODY, Origin, Phase, State, build_state
from thousand.common.shuffling import shuffle
from thousand.errors import IllegalActionError, LayoutError, RulesError

__all__ = ["new_game"]


def new_game(
    rules: Rules,
    *,
    seed: int | None = None,
    layout: Layout | None = None,
    dealer: int = 0,
) -> State:
    """A 1000? game at its first move: the player left of the dealer starts a climb.

    Args:
        rules: e.g. ``Rules(players=4)``.
        seed: shuffles the deal (unless ``layout`` is given) and every later reshuffle of the
            discards; without one a random seed is drawn and kept in ``state.origin.seed``.
        layout: the hands and draw pile, written by hand.
        dealer: the dealer's seat.
    """
    if not isinstance(rules, Rules):
        raise RulesError(f"expected thousand.bluff.Rules, not {type(rules).__name__}")
    if not 0 <= dealer < rules.players:
        raise RulesError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer}")
    if seed is None:
        seed = secrets.randbits(63)
    if layout is None:
        hands, pile = _shuffled_deal(rules, random.Random(f"thousand-1000?:{seed}"))
    else:
        _check_layout(rules, layout)
        number = rules.kinds.number
        hands = tuple(tuple(sorted(number[card] for card in hand)) for hand in layout.hands)
        pile = tuple(number[card] for card in layout.draw_pile)
    return build_state(
        rules=rules,
        origin=Origin(seed, dealer, layout),
        phase=Phase.START,
        player=(dealer + 1) % rules.players,
        hand_kinds=hands,
        pile=pile,
        pile_position=0,
        discards=(),
        table_entries=(),
        restart_kinds=None,
        reshuffles=0,
        turns=0,
        result=None,
        own_hides=(None,) * rules.players,
        history=None,
    )


def _shuffled_deal(
    rules: Rules, rng: random.Random
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Shuffle the deck and deal ``hand_size`` cards to each player, the rest to the draw pile:
    the hands as sorted kind numbers, the draw pile in order."""
    order = list(rules.kinds.deck)
    shuffle(order, rng)
    size = rules.hand_size
    hands = tuple(
        tuple(sorted(order[seat * size : (seat + 1) * size])) for seat in range(rules.players)
    )
    return hands, tuple(order[rules.players * size :])


def _check_layout(rules: Rules, layout: Layout) -> None:
    if len(layout.hands) != rules.players:
        raise LayoutError(
            f"the layout has {len(layout.hands)} hands but the rules have {rules.players} players"
        )
    for seat, hand in enumerate(layout.hands):
        if len(hand) != rules.hand_size:
            raise LayoutError(
                f"hand {seat} of the layout has {len(hand)} cards; the rules deal "
                f"{rules.hand_size} to each player"
            )
    dealt = Counter(card for hand in (*layout.hands, layout.draw_pile) for card in hand)
    if dealt != Counter(rules.deck):
        extra = sorted((dealt - Counter(rules.deck)).elements(), key=lambda card: card.value)
        missing = sorted((Counter(rules.deck) - dealt).elements(), key=lambda card: card.value)
        problems = []
        if extra:
            problems.append("not in the deck (or too many): " + " ".join(map(str, extra)))
        if missing:
            problems.append("missing: " + " ".join(map(str, missing)))
        raise LayoutError("the layout does not hold the deck of the rules; " + "; ".join(problems))


def legal_actions(state: State) -> tuple[Action, ...]:
    """The current player's legal actions in a fixed order (empty when the game is over),
    computed once per state and kept in its ``legal_cache``."""
    legal = state.legal_cache
    if legal is not None:
        return legal
    phase = state.phase
    if phase is Phase.CLIMB:
        legal = climb.legal_climb(state)
    elif phase is Phase.RESPONSE:
        legal = challenge.legal_answers(state)
    elif phase is Phase.START:
        legal = climb.legal_starts(state)
    else:
        legal = ()
    object.__setattr__(state, "legal_cache", legal)
    return legal


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalActionError`` unless it is legal (it is then
    played as the engine's own instance)."""
    for own in state.legal_cache or legal_actions(state):
        if own is action:
            break
    else:
        action = _own_equal(state, action)
    if isinstance(action, Play):
        after = climb.play(state, action)
    elif isinstance(action, Hide):
        after = climb.hide(state, action)
    elif state.phase is Phase.CLIMB:
        after = climb.pass_turn(state, action)
    elif isinstance(action, Believe):
        after = challenge.believe(state, action)
    else:
        after = challenge.challenge(state, action)
    if after.turns >= state.rules.max_turns and after.result is None:
        return _adjudicate(after)
    return after


def _adjudicate(state: State) -> State:
    """The turn limit is reached: the fewest cards in hand win. A face-down card still waiting
    for its answer counts as held by its owner: it has not yet stood."""
    sizes = tuple(len(hand) for hand in state.hand_kinds)
    held = list(sizes)
    if state.phase is Phase.RESPONSE:
        held[state.table_entries[-1][1]] += 1
    fewest = min(held)
    result = Result(
        winners=tuple(seat for seat, size in enumerate(held) if size == fewest),
        hand_sizes=sizes,
        turns=state.turns,
        adjudicated=True,
    )
    return attrs.evolve(state, phase=Phase.OVER, player=NOBODY, restart_kinds=None, result=result)


def _own_equal(state: State, action: object) -> Action:
    """The engine's own legal action equal to ``action`` (built elsewhere), else the error."""
    own = state.legal_match(action)
    if own is None:
        raise _illegal(state, action)
    return own


def _illegal(state: State, action: object) -> IllegalActionError:
    phase = str(state.phase)
    if state.phase is Phase.OVER:
        return IllegalActionError(
            action, None, phase, "the game is over; start another with new_game()"
        )
    try:
        reason = _why(state, action)
    except Exception:
        reason = f"this {type(action).__name__} holds values no action has"
    return IllegalActionError(action, state.player, phase, reason)


def _why(state: State, action: object) -> str:
    if not any(type(action) is kind for kind in ACTION_TYPES):
        return (
            f"{type(action).__name__} is not an action; read text with "
            "thousand.bluff.parse_action()"
        )
    if state.phase is Phase.RESPONSE:
        return "a card was just played face down: first 'believe' or 'challenge' it"
    if isinstance(action, (Believe,)) or not isinstance(action, (Play, Hide)):
        if state.phase is Phase.START:
            return "a climb starts with a card played face up"
        return "only the player right after a face-down card believes or challenges it"
    card = action.card
    hand = state.hands[state.player]
    if card is None:
        return "name the card to play face down, as in 'hide 23' ('??' is how others see it)"
    if card not in hand:
        return f"{card} is not in this player's hand"
    if state.phase is Phase.START:
        if isinstance(action, Hide):
            return "a climb is never started face down"
        drawn = " ".join(str(state.kinds.cards[kind]) for kind in state.restart_kinds or ())
        return f"after losing a challenge the new climb starts with a card just drawn: {drawn}"
    top = state.kinds.cards[state.table_entries[-1][0]]
    return (
        f"{card} does not beat {top}: it must be higher and share a digit with it "
        "(a 1000 goes on anything); play it face down to claim it does"
    )


# The state class asks this dispatcher directly: no call in between.
State.legal_actions = legal_actions
State.apply = apply
