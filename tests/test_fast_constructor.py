"""The fast constructor and updaters the states are built with give exactly the values the class
would."""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest

import thousand.bluff.challenge
import thousand.bluff.climb
import thousand.bluff.engine
import thousand.bluff.state
import thousand.classic.bidding
import thousand.classic.engine
import thousand.classic.state
import thousand.classic.talon
import thousand.classic.tricks
from thousand import Rules, bluff, new_match
from thousand.common.state_base import Playable, fast_constructor, fast_updater

TRANSITION_MODULES = (
    thousand.classic.bidding,
    thousand.classic.talon,
    thousand.classic.tricks,
    thousand.classic.engine,
    thousand.bluff.climb,
    thousand.bluff.challenge,
)


@attrs.frozen(weakref_slot=False)
class Point:
    x: int
    y: tuple[int, ...]
    cache: int | None = attrs.field(default=None, init=False, eq=False)


def test_it_builds_the_value_the_class_builds() -> None:
    build = fast_constructor(Point)
    built = build(3, (1, 2))
    assert type(built) is Point
    assert built == Point(3, (1, 2))
    assert hash(built) == hash(Point(3, (1, 2)))
    assert built.cache is None
    assert pickle.loads(pickle.dumps(built)) == built


def test_the_value_it_builds_is_frozen() -> None:
    built = fast_constructor(Point)(3, (1, 2))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.x = 4  # type: ignore[misc]


def test_it_refuses_a_class_whose_layout_it_cannot_share() -> None:
    @attrs.frozen
    class WithWeakref:
        x: int

    with pytest.raises(TypeError, match="without a weakref slot"):
        fast_constructor(WithWeakref)

    @attrs.frozen(weakref_slot=False)
    class FactoryDefault:
        items: list[int] = attrs.field(factory=list, init=False)

    with pytest.raises(TypeError, match="plain default"):
        fast_constructor(FactoryDefault)

    class Plain:
        pass

    with pytest.raises(TypeError, match="slotted attrs class"):
        fast_constructor(Plain)


def test_an_updater_copies_with_the_changed_and_fixed_fields() -> None:
    start = fast_constructor(Point)(3, (1, 2))
    object.__setattr__(start, "cache", 7)
    move = fast_updater(Point, "y", x=0)
    moved = move(start, (5,))
    assert type(moved) is Point
    assert moved == Point(0, (5,))
    assert moved.cache is None
    assert start == Point(3, (1, 2))
    assert start.cache == 7
    assert fast_updater(Point, "x")(start, 4) == Point(4, (1, 2))


def test_an_updater_refuses_fields_it_cannot_set() -> None:
    for changed, fixed in [(("z",), {}), (("x", "x"), {}), (("x",), {"x": 1}), (("cache",), {})]:
        with pytest.raises(TypeError, match="no field to update"):
            fast_updater(Point, *changed, **fixed)


def slow_twin(update: Any) -> Any:
    """What an updater does, done by ``attrs.evolve`` through the class's own ``__init__``."""
    code = update.__code__
    changed = code.co_varnames[1 : code.co_argcount]
    fixed = {
        name.removeprefix("fixed_"): value
        for name, value in update.__globals__.items()
        if name.startswith("fixed_")
    }

    def evolve(old: Any, *values: Any, **named: Any) -> Any:
        return attrs.evolve(old, **dict(zip(changed, values, strict=False)), **named, **fixed)

    return evolve


def playout(start: Playable[Any], seed: int) -> list[Playable[Any]]:
    rng = random.Random(seed)
    states = [start]
    while not states[-1].is_over:
        states.append(states[-1].apply(rng.choice(states[-1].legal_actions())))
    return states


@pytest.mark.parametrize("game", ["russian", "polish-2p", "1000?"])
def test_transitions_build_the_states_the_class_would(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def start() -> Playable[Any]:
        """A game to play out: a Thousand match of 40 deals that begins near the barrel, so
        that barrels and the end of the match come early (a match of random play runs to
        the 400 deals of the presets)."""
        if game == "1000?":
            return bluff.new_game(bluff.Rules(players=3), seed=2)
        rules = attrs.evolve(Rules.preset(game), max_deals=40)
        return new_match(rules, seed=2, scores=(860, 700, 500)[: rules.players])

    fast = playout(start(), seed=5)
    for module in (thousand.classic.state, thousand.classic.engine):
        monkeypatch.setattr(module, "build_state", thousand.classic.state.GameState)
    for module in (thousand.bluff.state, thousand.bluff.engine):
        monkeypatch.setattr(module, "build_state", thousand.bluff.state.State)
    updaters = 0
    for module in TRANSITION_MODULES:
        for name, value in list(vars(module).items()):
            code = getattr(value, "__code__", None)
            if code is None or code.co_filename != "<string>":
                continue
            if value.__name__ == "update":
                monkeypatch.setattr(module, name, slow_twin(value))
                updaters += 1
            else:  # a fast constructor: the class itself
                monkeypatch.setattr(module, name, value.__globals__["cls"])
    assert updaters >= 10
    slow = playout(start(), seed=5)
    assert len(fast) > 30
    assert fast == slow
    assert [type(state) for state in fast] == [type(state) for state in slow]
