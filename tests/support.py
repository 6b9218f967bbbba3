"""Helpers shared by the tests: play actions written as text."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from thousand import Card, GameState, Give, IllegalActionError, Play, parse_action


def play(state: GameState, *texts: str) -> GameState:
    """Apply each action text in turn (``"bid 105"``, ``"play KH marriage"``...)."""
    for text in texts:
        state = state.apply(parse_action(text))
    return state


def legal_texts(state: GameState) -> list[str]:
    """The legal actions as text, in the engine's order."""
    return [str(action) for action in state.legal_actions()]


def assert_refused(state: Any, action: Any, reason: str) -> None:
    """Applying ``action`` (to a state of either game) raises an error naming the action, the
    seat and the phase, for exactly ``reason``; the state is intact and still plays on."""
    before = copy.deepcopy(state)
    allowed = state.legal_actions()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    error = caught.value
    message = str(error)
    assert error.action == action
    assert error.seat == state.current_player
    assert error.phase == str(state.phase)
    assert f"'{action}'" in message
    assert f"seat {state.current_player}" in message
    assert str(state.phase) in message
    assert error.reason == reason, f"the reason given: {error.reason!r}"
    assert state == before
    assert state.legal_actions() == allowed
    assert state.apply(allowed[0]) == before.apply(allowed[0])


def shown_talon(state: GameState) -> set[Card]:
    """The talon (three or four seats; the sitter sees it too) or the chosen musik (two) once
    shown to the table."""
    layout = state.layout
    if state.declarer is None:
        return set()
    if state.rules.players != 2:
        return set(layout.talon[0])
    return set(layout.talon[state.musik - 1]) if state.musik else set()


def knowable_cards(state: GameState, seat: int) -> set[Card]:
    """The cards a seat may know of in a deal: its own hand as dealt, the talon once shown,
    every card played, and a card given to it."""
    known = set(state.layout.hands[seat]) | shown_talon(state)
    for _, action in state.actions:
        if isinstance(action, Play):
            known.add(action.card)
        if isinstance(action, Give) and action.to == seat and action.card is not None:
            known.add(action.card)
    return known
