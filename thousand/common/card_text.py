"""What the layouts of both games share: reading cards and hands written as text, each problem
reported as a ``LayoutError``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from thousand.errors import LayoutError, NotationError

C = TypeVar("C")


def read_cards(parse: Callable[[Any], tuple[C, ...]], value: Any) -> tuple[C, ...]:
    """``parse(value)``, with a notation error reported as a bad card in the layout."""
    try:
        return parse(value)
    except NotationError as error:
        raise LayoutError(f"bad card in layout: {error}") from None


def read_hands(parse: Callable[[Any], tuple[C, ...]], value: Any) -> tuple[tuple[C, ...], ...]:
    """One entry of cards per player."""
    if isinstance(value, str):
        raise LayoutError("hands must be a list with one entry per player, not one string")
    return tuple(read_cards(parse, hand) for hand in value)
