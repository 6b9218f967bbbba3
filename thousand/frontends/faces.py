"""How cards and seats look on a person's screen: suit symbols, tens as ``10``, hearts and
diamonds in red when the output is a colour terminal, 1000? cards in brackets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from thousand import Card, Suit, bluff
from thousand.common.text import printable

__all__ = [
    "bluff_face",
    "bluff_faces",
    "face",
    "faces",
    "labelled",
    "short_names",
    "sorted_hand",
    "who",
]

RED = "\x1b[31m"
RESET = "\x1b[0m"
_RANK_FACES = ("9", "J", "Q", "K", "10", "A")


def face(card: Card, colour: bool = False) -> str:
    """A Thousand card as a player writes it: ``10♥``, ``K♠``; red suits in red on request."""
    text = _RANK_FACES[card.rank] + card.suit.symbol
    if colour and card.suit in (Suit.HEARTS, Suit.DIAMONDS):
        return f"{RED}{text}{RESET}"
    return text


def sorted_hand(cards: Iterable[Card]) -> list[Card]:
    """Cards by suit (♥ ♦ ♣ ♠, the marriage order) and, within a suit, high to low."""
    return sorted(cards, key=lambda card: (-card.suit, -card.rank))


def faces(cards: Iterable[Card], colour: bool = False, sort: bool = False) -> str:
    """Several cards, space-separated (sorted as a hand when asked); ``-`` when there are none."""
    chosen = sorted_hand(cards) if sort else list(cards)
    return " ".join(face(card, colour) for card in chosen) or "-"


def bluff_face(card: bluff.Card | None) -> str:
    """A 1000? card in brackets, ``[06]``, or ``[??]`` face down and unseen."""
    return f"[{card.label if card is not None else '??'}]"


def bluff_faces(cards: Iterable[bluff.Card], sort: bool = False) -> str:
    """Several 1000? cards (by value when asked); ``-`` when there are none."""
    chosen = sorted(cards, key=lambda card: card.value) if sort else list(cards)
    return " ".join(bluff_face(card) for card in chosen) or "-"


def who(seat: int, names: Sequence[str], viewer: int | None = None) -> str:
    """How a seat is named: ``you`` for the viewer, else its player's name."""
    return "you" if seat == viewer else names[seat]


def labelled(name: str, value: object) -> str:
    """A name and its number, ``Anna 240``; a colon keeps two numbers apart: ``seat 0: 240``."""
    return f"{name}{':' if name[-1:].isdigit() else ''} {value}"


def short_names(names: Sequence[str]) -> list[str]:
    """Seats' names as a person reads them: a bot spec cut to its bot's name (``pimc(steps=50)``
    is ``pimc``, ``cmd:./mybot --fast`` is ``mybot``), control characters shown as ``?``, and a
    name that comes twice lettered: ``greedy A``, ``greedy B``."""
    shorts = [printable(_short(name)) for name in names]
    return [
        f"{short} {'ABCDEF'[shorts[:index].count(short)]}" if shorts.count(short) > 1 else short
        for index, short in enumerate(shorts)
    ]


def _short(spec: str) -> str:
    """A bot spec's name without options or paths: ``pimc(steps=50)`` is ``pimc``."""
    name = spec.split("(", 1)[0]
    if name.startswith("cmd:"):
        words = name[4:].split()
        return Path(words[0]).name if words else "program"
    return name.rsplit(":", 1)[-1].rsplit(".", 1)[-1] or spec
