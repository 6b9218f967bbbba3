"""The game interface both games' states share: whose turn it is, the legal actions (computed
once per state), and applying an action through the game's dispatcher."""

from __future__ import annotations

from typing import Generic, TypeVar

A = TypeVar("A")


class Playable(Generic[A]):
    """Mixed into a frozen state class that has ``player`` (-1 once over) and ``legal_cache``
    fields and computes its legal actions in ``compute_legal_actions``."""

    __slots__ = ()
    player: int
    legal_cache: tuple[A, ...] | None

    def compute_legal_actions(self) -> tuple[A, ...]:
        """The legal actions, computed afresh by the game's dispatcher."""
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is, or ``None`` when the game is over."""
        return None if self.player < 0 else self.player

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.player < 0

    def legal_actions(self) -> tuple[A, ...]:
        """The current player's legal actions in a fixed order; empty once the game is over."""
        legal = self.legal_cache
        if legal is None:
            legal = self.compute_legal_actions()
            object.__setattr__(self, "legal_cache", legal)
        return legal

    def is_legal(self, action: A) -> bool:
        """Whether ``action`` is one of :meth:`legal_actions`."""
        return action in self.legal_actions()
