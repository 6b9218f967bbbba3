"""The game interface both games' states share: whose turn it is, the legal actions (computed
once per state), and applying an action through the game's dispatcher."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

import attrs

A = TypeVar("A")
T = TypeVar("T")


class Playable(Generic[A]):
    """Mixed into a frozen state class that has ``player`` (-1 once over) and ``legal_cache``
    fields; the game's dispatcher sets ``legal_actions`` on the class."""

    __slots__ = ()
    player: int
    legal_cache: tuple[A, ...] | None
    legal_actions: ClassVar[Callable[[Any], tuple[Any, ...]]]
    """``legal_actions()``: the current player's legal actions in a fixed order, empty once the
    game is over; computed once per state and kept in ``legal_cache``. (The dispatcher's own
    function, set on the class: no call in between.)"""

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is, or ``None`` when the game is over."""
        return None if self.player < 0 else self.player

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.player < 0

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` is one of :meth:`legal_actions` (see :meth:`legal_match`)."""
        return self.legal_match(action) is not None

    def legal_match(self, action: object) -> A | None:
        """The engine's own legal action that ``action`` is, by exact type and value, or ``None``.

        Only the engine's values compare: a look-alike (a subclass, or any object claiming to
        equal everything) never gets to answer, so it cannot pass for a legal action.
        """
        legal: tuple[A, ...] = self.legal_actions()
        for own in legal:
            if own is action:
                return own
        kind = type(action)
        for own in legal:
            if type(own) is kind and same_value(own, action):
                return own
        return None


def same_value(own: object, other: object) -> bool:
    """Whether ``other`` has exactly the type and value of the engine's ``own``, compared field by
    field with ``own``'s code only (``other``'s methods are never called)."""
    if own is other:
        return True
    kind = type(own)
    if type(other) is not kind:
        return False
    if kind not in _COMPARED:
        _COMPARED[kind] = _compared_fields(kind)
    names = _COMPARED[kind]
    if names is None:
        return own == other
    return all(same_value(getattr(own, name), getattr(other, name)) for name in names)


_COMPARED: dict[type, tuple[str, ...] | None] = {}
"""The compared fields of each class seen, as :func:`_compared_fields` found them."""


def _compared_fields(kind: type) -> tuple[str, ...] | None:
    """The fields equality compares on an attrs class; ``None`` for any other class."""
    if not attrs.has(kind):
        return None
    return tuple(field.name for field in attrs.fields(kind) if field.eq)


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A function that builds ``cls`` from its ``init`` fields, given in order, about four times
    as fast as the class itself (a frozen attrs class sets each field through
    ``object.__setattr__``; this one assigns plain slots and only then gives the value its class).

    ``cls`` must be a frozen, slotted attrs class without a weakref slot, so that an open twin
    with the same slots shares its memory layout; fields left out of ``__init__`` take their
    default. Nothing is checked or converted, as in the class's own ``__init__``.
    """
    fields = _fast_fields(cls)
    given = [field.name for field in fields if field.init]
    build = _generate(cls, "build", given, {name: name for name in given}, {})
    build.__doc__ = f"A new {cls.__name__} from its fields in order (see fast_constructor)."
    return build


def _generate(
    cls: type[T],
    name: str,
    parameters: list[str],
    sources: dict[str, str],
    constants: dict[str, Any],
) -> Callable[..., T]:
    """Compile ``name(*parameters)``, which fills an open twin of ``cls`` field by field (each
    ``init`` field from its expression in ``sources``, the others with their defaults) and
    then gives it its class; ``constants`` are the names the expressions may read."""
    lines = [f"def {name}({', '.join(parameters)}):", "    value = new(twin)"]
    namespace: dict[str, Any] = {"new": object.__new__, "twin": _twin(cls), "cls": cls}
    namespace.update(constants)
    for field in _fast_fields(cls):
        if field.init:
            lines.append(f"    value.{field.name} = {sources[field.name]}")
        else:
            namespace[f"default_{field.name}"] = _plain_default(cls, field)
            lines.append(f"    value.{field.name} = default_{field.name}")
    lines += ["    value.__class__ = cls", "    return value"]
    exec("\n".join(lines), namespace)
    function: Callable[..., T] = namespace[name]
    return function


def _fast_fields(cls: type) -> tuple[attrs.Attribute[Any], ...]:
    """The fields of ``cls``, once it is known to be a class the fast functions can build."""
    slots: tuple[str, ...] | None = vars(cls).get("__slots__")
    if not attrs.has(cls) or slots is None or "__weakref__" in slots:
        raise TypeError(f"{cls.__name__} must be a slotted attrs class without a weakref slot")
    fields: tuple[attrs.Attribute[Any], ...] = attrs.fields(cls)
    return fields


_TWINS: dict[type, type] = {}


def _twin(cls: type) -> type:
    """An open class with the slots of ``cls``: its values can be filled in, then made a
    ``cls`` by assigning ``__class__`` (the two share one memory layout)."""
    if cls not in _TWINS:
        _TWINS[cls] = type(
            f"_Open{cls.__name__}", cls.__bases__[:1], {"__slots__": vars(cls)["__slots__"]}
        )
    return _TWINS[cls]


def _plain_default(cls: type, field: attrs.Attribute[Any]) -> Any:
    default = field.default
    if default is attrs.NOTHING or isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        raise TypeError(f"{cls.__name__}.{field.name}: needs a plain default value")
    return default


def fast_updater(cls: type[T], *changed: str, **fixed: Any) -> Callable[..., T]:
    """A function ``update(value, *new_values)`` that copies ``value``, a ``cls``, with the
    ``changed`` fields given new values in that order, the ``fixed`` fields set to the values
    given here, and every field left out of ``__init__`` back at its default: a transition's
    ``attrs.evolve`` without its look-ups, conditionals or checks (see :func:`fast_constructor`
    for what ``cls`` must be)."""
    fields = _fast_fields(cls)
    given = {field.name for field in fields if field.init}
    named = [*changed, *fixed]
    if len(set(named)) != len(named) or not given.issuperset(named):
        raise TypeError(f"{cls.__name__}: no field to update in {', '.join(named)}")
    sources = {name: f"old.{name}" for name in given}
    sources.update({name: name for name in changed})
    sources.update({name: f"fixed_{name}" for name in fixed})
    constants = {f"fixed_{name}": value for name, value in fixed.items()}
    update = _generate(cls, "update", ["old", *changed], sources, constants)
    update.__doc__ = f"A copy of a {cls.__name__} with {', '.join(named)} changed."
    return update
