"""Hypothesis strategies for Thousand: rules (the presets and evolved variants), layouts drawn as
permutations of the deck, starting scores, starting states, and random playouts."""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
from hypothesis import settings
from hypothesis import strategies as st

from thousand import (
    DECK,
    Action,
    BarrelCapacity,
    Card,
    Concession,
    Endgame,
    GameState,
    Layout,
    MarriageDeclaration,
    Rules,
    SetAside,
    new_deal,
    new_match,
)
from thousand.classic.rules import Sitter

_RUSSIAN = Rules.preset("russian")
_POLISH = Rules.preset("polish")
_POLISH_2P = Rules.preset("polish-2p")
_RUSSIAN_4 = Rules.preset("russian-4")
_POLISH_4 = Rules.preset("polish-4")

VARIANTS: dict[str, Rules] = {
    "russian": _RUSSIAN,
    "polish": _POLISH,
    "polish-2p": _POLISH_2P,
    "russian-4": _RUSSIAN_4,
    "polish-4": _POLISH_4,
    "russian-concession-free": attrs.evolve(_RUSSIAN, concession=Concession.FREE),
    "russian-overtrump": attrs.evolve(_RUSSIAN, must_overtrump=True),
    "russian-single-barrel": attrs.evolve(_RUSSIAN, barrel_capacity=BarrelCapacity.SINGLE),
    "russian-automatic": attrs.evolve(
        _RUSSIAN, marriage_declaration=MarriageDeclaration.AUTOMATIC, ace_marriage=0
    ),
    "russian-2p": attrs.evolve(_RUSSIAN, players=2),
    "polish-concession-penalty": attrs.evolve(_POLISH, concession=Concession.PENALTY),
    "polish-concession-free": attrs.evolve(_POLISH, concession=Concession.FREE),
    "polish-overtrump": attrs.evolve(_POLISH, must_overtrump=True),
    "polish-no-must-trump": attrs.evolve(_POLISH, must_trump=False),
    "polish-no-endgame": attrs.evolve(_POLISH, endgame=Endgame.NONE),
    "polish-2p-set-aside-declarer": attrs.evolve(_POLISH_2P, set_aside=SetAside.DECLARER),
    "polish-2p-set-aside-last-trick": attrs.evolve(
        _POLISH_2P, set_aside=SetAside.LAST_TRICK_WINNER
    ),
    "polish-2p-optional-trick": attrs.evolve(
        _POLISH_2P,
        marriage_declaration=MarriageDeclaration.OPTIONAL,
        marriage_requires_trick=True,
        concession=Concession.PENALTY,
    ),
    "russian-4-opposite-single-barrel": attrs.evolve(
        _RUSSIAN_4,
        sitter=Sitter.OPPOSITE_DEALER,
        sitter_bonus=0,
        barrel_capacity=BarrelCapacity.SINGLE,
    ),
    "polish-4-right-of-dealer-free": attrs.evolve(
        _POLISH_4, sitter=Sitter.RIGHT_OF_DEALER, concession=Concession.FREE
    ),
}
"""Named rules configurations: the five presets and variants evolved from them."""

PRESET_NAMES: tuple[str, ...] = Rules.preset_names()
"""The built-in presets: three seats, two, and four with one sitting out."""


def scaled(factor: float) -> int:
    """``factor`` times the loaded profile's ``max_examples`` (40 under "ci")."""
    current = settings.default
    assert current is not None
    return max(1, round(current.max_examples * factor))


def presets() -> st.SearchStrategy[Rules]:
    """One of the built-in presets."""
    return st.sampled_from([VARIANTS[name] for name in PRESET_NAMES])


def variants() -> st.SearchStrategy[Rules]:
    """Any named configuration (presets first, so they are what shrinking aims for)."""
    return st.sampled_from(list(VARIANTS.values()))


def layout_from_deck(deck: Sequence[Card], players: int, sitter: int | None = None) -> Layout:
    """Deal a full ordering of the 24 cards: hands first, then the talon (or the two musiki).
    With four seats the ``sitter`` gets no cards and the other three hands are dealt in seat
    order as at a table of three."""
    dealt = 2 if players == 2 else 3
    size = 10 if players == 2 else 7
    hands = [tuple(deck[seat * size : (seat + 1) * size]) for seat in range(dealt)]
    if players == 4:
        assert sitter is not None, "a four-seat layout needs its sitter"
        hands.insert(sitter, ())
    rest = tuple(deck[dealt * size :])
    talon = [rest] if players != 2 else [rest[:2], rest[2:]]
    return Layout(hands=hands, talon=talon)


def layouts(players: int, sitter: int | None = None) -> st.SearchStrategy[Layout]:
    """A layout for 2, 3 or 4 seats (with four, ``sitter``'s hand empty) from a random
    permutation of the deck."""
    return st.permutations(DECK).map(lambda deck: layout_from_deck(deck, players, sitter))


def rules_layouts(rules: Rules, dealer: int) -> st.SearchStrategy[Layout]:
    """A layout for the deal ``dealer`` deals under ``rules`` (the sitter's hand empty)."""
    sitter = rules.sitter_of(dealer)
    return layouts(rules.players, None if sitter < 0 else sitter)


def start_scores(rules: Rules) -> st.SearchStrategy[tuple[int, ...]]:
    """Legal starting scores, biased towards the thresholds where the endgame rules act."""
    if rules.endgame is Endgame.BARREL:
        top = rules.barrel_threshold
        special = [0, top - 120, top - 40, top - 5, top]
    elif rules.endgame is Endgame.LOCK:
        top = rules.target - 1
        special = [0, rules.lock_threshold - 20, rules.lock_threshold, rules.lock_threshold + 5]
        special += [top - 30, top - 5]
    else:
        top = rules.target - 1
        special = [0, top - 60, top - 5]
    one = st.one_of(st.sampled_from(special), st.integers(-300 // 5, top // 5).map(lambda x: 5 * x))
    scores = st.tuples(*[one] * rules.players)
    if rules.endgame is Endgame.BARREL and rules.barrel_capacity is BarrelCapacity.SINGLE:
        scores = scores.map(lambda drawn: _one_on_barrel(drawn, rules.barrel_threshold))
    return scores


def end_scores(rules: Rules) -> st.SearchStrategy[tuple[int, ...]]:
    """Starting scores close to the end, where matches are soon won."""
    if rules.endgame is Endgame.BARREL:
        top = rules.barrel_threshold
        near = [top, top - 5, top - 20]
    elif rules.endgame is Endgame.LOCK:
        near = [rules.lock_threshold, rules.target - 5, rules.target - 30]
    else:
        near = [rules.target - 5, rules.target - 20, rules.target - 60]
    scores = st.tuples(*[st.sampled_from(near)] * rules.players)
    if rules.endgame is Endgame.BARREL and rules.barrel_capacity is BarrelCapacity.SINGLE:
        scores = scores.map(lambda drawn: _one_on_barrel(drawn, rules.barrel_threshold))
    return scores


def _one_on_barrel(scores: tuple[int, ...], threshold: int) -> tuple[int, ...]:
    """Scores with at most one player on a single-seat barrel."""
    seated = [seat for seat, score in enumerate(scores) if score == threshold]
    return tuple(score - 5 if seat in seated[1:] else score for seat, score in enumerate(scores))


@st.composite
def deals(
    draw: st.DrawFn,
    rules: st.SearchStrategy[Rules] | None = None,
    with_scores: bool = True,
) -> GameState:
    """The start of a single deal: drawn rules, layout, dealer and (optionally) scores."""
    chosen = draw(variants() if rules is None else rules)
    dealer = draw(st.integers(0, chosen.players - 1))
    layout = draw(rules_layouts(chosen, dealer))
    scores = draw(start_scores(chosen)) if with_scores else None
    seed = draw(st.integers(0, 2**32))
    return new_deal(chosen, seed=seed, layout=layout, dealer=dealer, scores=scores)


@st.composite
def matches(
    draw: st.DrawFn,
    rules: st.SearchStrategy[Rules] | None = None,
    max_deals: st.SearchStrategy[int] | None = None,
    near_end: bool = False,
) -> GameState:
    """The start of a match: drawn rules (with a small deal cap by default), seed, dealer,
    scores (close to the end if ``near_end``) and, sometimes, a hand-given first layout."""
    chosen = draw(variants() if rules is None else rules)
    cap = draw(st.integers(1, 12) if max_deals is None else max_deals)
    chosen = attrs.evolve(chosen, max_deals=cap)
    seed = draw(st.integers(0, 2**32))
    dealer = draw(st.none() | st.integers(0, chosen.players - 1))
    scores = draw(end_scores(chosen) if near_end else st.none() | start_scores(chosen))
    layout = None
    if dealer is not None or chosen.players < 4:
        # A four-seat layout fits one dealer's sitter only: given with the dealer alone.
        layout = draw(st.none() | rules_layouts(chosen, dealer or 0))
    return new_match(chosen, seed=seed, dealer=dealer, scores=scores, layout=layout)


def draw_action(data: st.DataObject, state: GameState) -> Action:
    """One of the current player's legal actions, drawn as an index into ``legal_actions()``."""
    legal = state.legal_actions()
    return legal[data.draw(st.integers(0, len(legal) - 1), label="action index")]


def random_playout(
    data: st.DataObject, state: GameState, max_actions: int | None = None
) -> list[GameState]:
    """The states of a playout from ``state`` with actions drawn by hypothesis, the first state
    included; it stops when the game is over or after ``max_actions`` actions."""
    states = [state]
    while not state.is_over and (max_actions is None or len(states) <= max_actions):
        state = state.apply(draw_action(data, state))
        states.append(state)
    return states


def seeded_playout(state: GameState, seed: int, max_actions: int | None = None) -> list[GameState]:
    """The states of a playout from ``state`` choosing uniformly with ``random.Random(seed)``."""
    rng = random.Random(seed)
    states = [state]
    while not state.is_over and (max_actions is None or len(states) <= max_actions):
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@st.composite
def playouts(draw: st.DrawFn, start: st.SearchStrategy[GameState] | None = None) -> list[GameState]:
    """A whole single deal played with drawn actions: the list of its states."""
    state = draw(deals() if start is None else start)
    states = [state]
    while not state.is_over:
        legal = state.legal_actions()
        state = state.apply(legal[draw(st.integers(0, len(legal) - 1))])
        states.append(state)
    return states
