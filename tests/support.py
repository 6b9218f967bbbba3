"""Helpers shared by the tests: play actions written as text."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from thousand import GameState, IllegalActionError, parse_action


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
    seat and the phase with ``reason``; the state is intact and still plays on."""
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
    assert reason in error.reason
    assert state == before
    assert state.legal_actions() == allowed
    assert state.apply(allowed[0]) == before.apply(allowed[0])
