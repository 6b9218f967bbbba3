"""The names the Player protocol was first imported by: they are those of
:mod:`thousand.players`, where the protocol lives beside the engines, apart from the driver."""

from thousand.players import AnyPlayer, Player, PlayerError, SeatedPlayer, StopMatch

__all__ = ["AnyPlayer", "Player", "PlayerError", "SeatedPlayer", "StopMatch"]
