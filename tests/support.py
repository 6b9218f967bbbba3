"""Helpers shared by the tests: play actions written as text."""

from __future__ import annotations

from thousand import GameState, parse_action


def play(state: GameState, *texts: str) -> GameState:
    """Apply each action text in turn (``"bid 105"``, ``"play KH marriage"``...)."""
    for text in texts:
        state = state.apply(parse_action(text))
    return state


def legal_texts(state: GameState) -> list[str]:
    """The legal actions as text, in the engine's order."""
    return [str(action) for action in state.legal_actions()]
