"""Thousand and 1000? for learning: a fixed numbering of every action (:mod:`thousand.rl.codec`),
a fixed-size numeric encoding of a seat's observation (:mod:`thousand.rl.encoding`), and both
games as PettingZoo and Gymnasium environments (:mod:`thousand.rl.environments`) and as OpenSpiel
games (:mod:`thousand.rl.openspiel`, imported on its own).

Needs the ``rl`` extra (``python -m pip install ".[rl]"`` in a checkout of thousand). Importing
this package registers the Gymnasium ids listed in :data:`GYM_IDS`, so that ``gymnasium.make``
knows them::

    >>> import gymnasium
    >>> import thousand.rl
    >>> env = gymnasium.make("thousand/Russian-v0", opponents=["greedy", "random"])
    >>> observation, info = env.reset(seed=1)
    >>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
    ((321,), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as missing:  # pragma: no cover - the plain install
    raise ImportError(
        f"thousand.rl needs the rl extra ({missing.name} is missing): "
        'python -m pip install ".[rl]" in a checkout of thousand, or '
        "python -m pip install numpy gymnasium pettingzoo open_spiel"
    ) from None

from thousand.games import BLUFF
from thousand.rl.codec import ActionCodec
from thousand.rl.encoding import ENCODING_VERSION, ObservationEncoder
from thousand.rl.environments import SeatEnv, TableEnv

__all__ = [
    "ENCODING_VERSION",
    "GYM_IDS",
    "ActionCodec",
    "ObservationEncoder",
    "SeatEnv",
    "TableEnv",
    "gym_env",
    "pettingzoo_env",
]

GYM_IDS: dict[str, dict[str, Any]] = {
    "thousand/Russian-v0": {"rules": "russian"},
    "thousand/Polish-v0": {"rules": "polish"},
    "thousand/Polish2p-v0": {"rules": "polish-2p"},
    "thousand/Russian4-v0": {"rules": "russian-4"},
    "thousand/Polish4-v0": {"rules": "polish-4"},
    "thousand/RussianDeal-v0": {"rules": "russian", "single_deal": True},
    "thousand/PolishDeal-v0": {"rules": "polish", "single_deal": True},
    "thousand/Polish2pDeal-v0": {"rules": "polish-2p", "single_deal": True},
    "thousand/Russian4Deal-v0": {"rules": "russian-4", "single_deal": True},
    "thousand/Polish4Deal-v0": {"rules": "polish-4", "single_deal": True},
    **{f"thousand/Bluff{n}-v0": {"rules": BLUFF.key, "players": n} for n in range(2, 7)},
}
"""The registered Gymnasium ids and the arguments of :class:`SeatEnv` each stands for."""


def pettingzoo_env(rules: Any = "russian", **options: Any) -> TableEnv:
    """Every seat of a game as a PettingZoo AEC environment: ``rules`` a Thousand preset's
    name, ``bluff`` for 1000? (``players=2`` to ``6``), or rules; ``single_deal=True`` for one
    Thousand deal instead of a match; ``normalise=True`` for rewards in game units."""
    return TableEnv(rules, **options)


def gym_env(
    rules: Any = "russian", *, seat: int = 0, opponents: Sequence[Any] | None = None, **options: Any
) -> SeatEnv:
    """One seat of a game as a Gymnasium environment, the others played by ``opponents`` (bot
    specs such as ``"greedy"`` or ``"pimc(steps=250)"``, or Player objects; ``random`` by
    default). Options as for :func:`pettingzoo_env`, and ``illegal`` (``lose``: an illegal
    action ends the episode with the worst reward; ``raise``)."""
    return SeatEnv(rules, seat=seat, opponents=opponents, **options)


for _id, _arguments in GYM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id, entry_point="thousand.rl.environments:SeatEnv", kwargs=_arguments
        )
