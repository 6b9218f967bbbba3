"""Frozen values whose fields are computed on first read.

An observation is made at every decision, but most bots read only a few of its fields. A
:class:`View` costs almost nothing to make: each field is a ``functools.cached_property``
computed from a private source the first time it is read, then kept. Equality, hashing and the
text form use every field, so a view behaves like any other frozen value.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar, TypeVar

import attrs

from thousand.errors import SeatError

__all__ = ["View"]

V = TypeVar("V", bound="View")


class View:
    """A frozen value: its public fields are the cached properties of the subclass."""

    FIELDS: ClassVar[tuple[str, ...]] = ()
    """The field names, in the order the class defines them."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.FIELDS = tuple(
            name
            for name, value in vars(cls).items()
            if isinstance(value, cached_property) and not name.startswith("_")
        )

    @classmethod
    def seen_from(cls: type[V], state: Any, seat: int) -> V:
        """The view of ``seat`` in ``state``, computed from the state as its fields are read."""
        players = state.rules.players
        if not 0 <= seat < players:
            raise SeatError(f"seats at this table are 0 to {players - 1}, not {seat}")
        view = cls.__new__(cls)
        fields = view.__dict__
        fields["_state"] = state
        fields["_seat"] = seat
        return view

    @classmethod
    def from_fields(cls: type[V], **fields: Any) -> V:
        """A view holding the given field values (every field must be given)."""
        missing = set(cls.FIELDS) - fields.keys()
        unknown = fields.keys() - set(cls.FIELDS)
        if missing or unknown:
            raise TypeError(
                f"{cls.__name__} needs exactly the fields {', '.join(cls.FIELDS)}; "
                f"missing {sorted(missing)}, unknown {sorted(unknown)}"
            )
        view = cls.__new__(cls)
        view.__dict__.update(fields)
        return view

    def fields(self) -> dict[str, Any]:
        """Every field by name."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in self.FIELDS))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"
