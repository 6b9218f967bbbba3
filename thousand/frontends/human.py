"""A person playing at the terminal: a player like any bot, that shows the table and asks.

At each decision it prints the table as the person's seat sees it and the numbered legal
actions, then reads an answer: a number from the list, a card (``KH``, ``10h``, ``k♥``; in
1000? its label, ``06``), a word such as ``pass``, or ``?`` for help. Anything else gets a short
hint and the question again. ``quit`` or the end of the input stops the game as Ctrl-C does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import attrs

from thousand import (
    Bid,
    Card,
    Concede,
    Contract,
    Discard,
    Give,
    NotationError,
    Observation,
    Play,
    SeatedPlayer,
    Take,
    ThousandError,
    bluff,
    parse_action,
)
from thousand.classic.actions import Action
from thousand.common.notation import whole_number
from thousand.frontends.faces import bluff_face, face, faces
from thousand.frontends.screen import (
    action_text,
    bluff_action_text,
    bluff_table,
    menu_lines,
    thousand_table,
)
from thousand.games import BLUFF, THOUSAND, AnyGame, AnyObservation, game_observed
from thousand.players import StopMatch

__all__ = ["Hint", "TerminalPlayer", "bluff_answer", "thousand_answer"]

T = TypeVar("T")
O = TypeVar("O")  # noqa: E741

QUIT_WORDS = frozenset({"quit", "exit", "q"})
DECLARE_WORDS = frozenset({"m", "marriage", "declare", "+"})
PLAIN_WORDS = frozenset({"-", "no", "plain", "nodeclare"})


@attrs.frozen
class Hint:
    """An answer that picks no action: what to tell the person before asking again."""

    text: str


THOUSAND_HELP = """\
Type the number of a choice from the list, or:
  a card to play, give or lay aside: KH, 10h, k♥ (rank 9 J Q K 10 A, suit S C D H or a symbol)
    leading a king or queen whose partner you hold declares the marriage; add "-" to lead it
    without declaring (KH -); in the exchange the first card goes to the player on your left,
    or name the seat: KH 2
  an amount to bid or to fix the contract: 120
  pass, concede, take 1 / take 2 (the musik)
  quit (or Ctrl-C) stops the game; the game so far is saved."""

BLUFF_HELP = """\
Type the number of a choice from the list (also #N), or:
  a card's label to play it face up: 06, 1000
  hide 06 to play it face down (claiming it beats the top card)
  pass (draw a card), believe, challenge
  quit (or Ctrl-C) stops the game; the game so far is saved."""


class TerminalPlayer(SeatedPlayer[AnyObservation]):
    """A person at the terminal, for either game.

    Args:
        names: every seat's name, for the table and the choices (the person's seat shows
            as "you").
        read: asks a question and returns the answer (``input`` by default).
        write: shows one line (``print`` by default).
        colour: whether hearts and diamonds are drawn in red.
    """

    def __init__(
        self,
        names: Sequence[str],
        read: Callable[[str], str] = input,
        write: Callable[[str], object] = print,
        colour: bool = False,
    ) -> None:
        self.names = tuple(names)
        self.read = read
        self.write = write
        self.colour = colour

    def act(self, observation: AnyObservation) -> object:
        """Show the table and the choices, and ask until the answer is one of them."""
        front: _Front[Any] = FRONTS[game_observed(observation)]
        legal = observation.legal_actions
        table = front.table(self, observation)
        choices = [front.choice(self, action) for action in legal]
        self.write("")
        for line in table:
            self.write(line)
        self.write("Your choices:")
        for line in menu_lines(choices):
            self.write(line)
        while True:
            try:
                text = self.read("> ")
            except EOFError:
                raise StopMatch from None
            if text.strip().lower() in QUIT_WORDS:
                raise StopMatch
            answer = front.answer(self, text, observation)
            if not isinstance(answer, Hint):
                return answer
            if answer.text == "?":
                self.write(front.help)
                for line in menu_lines(choices):
                    self.write(line)
            else:
                self.write(answer.text)


def _pick(text: str, legal: Sequence[T]) -> T | None:
    """The menu entry for ``N`` or ``#N``, else ``None``."""
    number = whole_number(text[1:] if text.startswith("#") else text)
    if number is not None and 1 <= number <= len(legal):
        return legal[number - 1]
    return None


def _unknown(text: str, count: int) -> Hint:
    return Hint(
        f"'{text}' is not one of your choices: type a number from 1 to {count}, or ? for help."
    )


class _Front(Generic[O]):
    """How one game is shown to the person and how their answers are read."""

    help: str

    def table(self, player: TerminalPlayer, observation: O) -> list[str]:
        """The table as the person's seat sees it."""
        raise NotImplementedError

    def choice(self, player: TerminalPlayer, action: Any) -> str:
        """A legal action as offered in the list of choices."""
        raise NotImplementedError

    def answer(self, player: TerminalPlayer, text: str, observation: O) -> object:
        """The action ``text`` asks for, or a :class:`Hint`."""
        raise NotImplementedError


class _ThousandFront(_Front[Observation]):
    help = THOUSAND_HELP

    def table(self, player: TerminalPlayer, observation: Observation) -> list[str]:
        return thousand_table(observation, player.names, player.colour)

    def choice(self, player: TerminalPlayer, action: Action) -> str:
        return action_text(action, player.names, player.seat, player.colour)

    def answer(self, player: TerminalPlayer, text: str, observation: Observation) -> object:
        return thousand_answer(text, observation, player.colour)


class _BluffFront(_Front[bluff.Observation]):
    help = BLUFF_HELP

    def table(self, player: TerminalPlayer, observation: bluff.Observation) -> list[str]:
        return bluff_table(observation, player.names)

    def choice(self, player: TerminalPlayer, action: bluff.Action) -> str:
        return bluff_action_text(action)

    def answer(self, player: TerminalPlayer, text: str, observation: bluff.Observation) -> object:
        return bluff_answer(text, observation)


FRONTS: dict[AnyGame, _Front[Any]] = {THOUSAND: _ThousandFront(), BLUFF: _BluffFront()}
"""Each game's front at the terminal."""


def thousand_answer(text: str, observation: Observation, colour: bool = False) -> Action | Hint:
    """The Thousand action ``text`` asks for, or a hint saying why it is none."""
    legal = observation.legal_actions
    words = text.strip().lower().split()
    if not words:
        return Hint("Type a number from the list, a card such as KH, or ? for help.")
    if words == ["?"] or words[0] == "help":
        return Hint("?")
    amount = whole_number(words[0]) if len(words) == 1 else None
    if amount is not None:
        for action in legal:
            if isinstance(action, Bid | Contract) and action.amount == amount:
                return action
        picked = _pick(words[0], legal)
        if picked is not None:
            return picked
        return _amount_hint(amount, legal, observation.rules.bid_step)
    if len(words) == 1 and words[0].startswith("#"):
        picked = _pick(words[0], legal)
        return picked if picked is not None else _unknown(text.strip(), len(legal))
    try:
        card = Card.parse(words[0])
    except NotationError:
        card = None
    if card is not None:
        return _card_answer(card, words[1:], observation, colour)
    try:
        action = parse_action(" ".join(words))
    except ThousandError:
        return _unknown(text.strip(), len(legal))
    if action in legal:
        return action
    return Hint(f"'{text.strip()}' is not allowed now; your choices are listed above.")


def _amount_hint(amount: int, legal: Sequence[Action], step: int) -> Hint:
    amounts = [action.amount for action in legal if isinstance(action, Bid | Contract)]
    if amounts:
        return Hint(
            f"{amount} is not allowed: you can say {amounts[0]} to {amounts[-1]} "
            f"in steps of {step}, "
            "or a number from the list."
        )
    return Hint(f"{amount} is not a choice: type a number from 1 to {len(legal)}.")


def _card_answer(
    card: Card, extra: Sequence[str], observation: Observation, colour: bool
) -> Action | Hint:
    """The play, give or discard of ``card`` (with an optional word after it)."""
    legal = observation.legal_actions
    shown = face(card, colour)
    matching = [
        action
        for action in legal
        if isinstance(action, Play | Give | Discard) and action.card == card
    ]
    if not matching:
        if card not in observation.hand:
            return Hint(f"You do not hold {shown}.")
        playable = [action.card for action in legal if isinstance(action, Play)]
        if playable:
            return Hint(f"{shown} cannot be played now: you may play {faces(playable, colour)}.")
        return Hint(f"A card is not what is asked now: {_asked(legal)}.")
    word = extra[0] if extra else ""
    if isinstance(matching[0], Give):
        seat = whole_number(word)
        if seat is not None:
            for action in matching:
                if isinstance(action, Give) and action.to == seat:
                    return action
            return Hint(f"Seat {word} cannot receive a card now.")
        return min(
            matching,
            key=lambda action: (action.to - observation.seat) % observation.rules.players,  # type: ignore[union-attr]
        )
    if isinstance(matching[0], Discard):
        return matching[0]
    plays = [action for action in matching if isinstance(action, Play)]
    declaring = [action for action in plays if action.marriage or action.aces]
    plain = [action for action in plays if not (action.marriage or action.aces)]
    if word in PLAIN_WORDS:
        return plain[0] if plain else Hint(f"{shown} must be played declaring.")
    if word in DECLARE_WORDS or word == "aces":
        return declaring[0] if declaring else Hint(f"Leading {shown} declares nothing now.")
    if word:
        return Hint("After the card only '-' (do not declare) or 'm' (declare) may follow.")
    return declaring[0] if declaring else plain[0]


def _asked(legal: Sequence[Action]) -> str:
    if any(isinstance(action, Bid) for action in legal):
        return "bid or pass"
    if any(isinstance(action, Contract) for action in legal):
        return "fix the contract" + (" or concede" if Concede() in legal else "")
    if any(isinstance(action, Take) for action in legal):
        return "take a musik"
    return "choose from the list"


def bluff_answer(text: str, observation: bluff.Observation) -> bluff.Action | Hint:
    """The 1000? action ``text`` asks for, or a hint saying why it is none."""
    legal = observation.legal_actions
    words = text.strip().lower().split()
    if not words:
        return Hint("Type a number from the list, a card such as 06, or ? for help.")
    if words == ["?"] or words[0] == "help":
        return Hint("?")
    aliases = {"draw": "pass", "p": "pass", "b": "believe", "c": "challenge"}
    if len(words) == 1 and words[0] in aliases:
        words = [aliases[words[0]]]
    if words[0] in ("down", "h"):
        words[0] = "hide"
    if len(words) == 1:
        word = words[0]
        if word.isdigit() and any(card.label == word for card in observation.hand):
            # A card's label wins over a choice number: #N picks from the list.
            words = ["play", word]
        elif word.startswith("#") or word.isdigit():
            picked = _pick(word, legal)
            if picked is not None:
                return picked
            if len(word) >= 2:
                with contextlib.suppress(NotationError):
                    return Hint(f"You do not hold {bluff_face(bluff.Card(word))}.")
            return _unknown(text.strip(), len(legal))
    try:
        action = bluff.parse_action(" ".join(words))
    except ThousandError:
        return _unknown(text.strip(), len(legal))
    if action in legal:
        return action
    if isinstance(action, bluff.Play | bluff.Hide) and action.card not in observation.hand:
        return Hint(f"You do not hold {bluff_face(action.card)}.")
    if isinstance(action, bluff.Play) and bluff.Hide(action.card) in legal:
        top = observation.table[-1].card if observation.table else None
        return Hint(
            f"{bluff_face(action.card)} does not beat {bluff_face(top)} face up; "
            f"type 'hide {action.card.label}' to play it face down."
        )
    return Hint(f"'{text.strip()}' is not allowed now; your choices are listed above.")
