"""The table as one player sees it, drawn as lines of text for the terminal game, and the menu of
that player's legal actions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from thousand import (
    Bid,
    Card,
    Concede,
    Contract,
    Discard,
    Give,
    Observation,
    Pass,
    Phase,
    Play,
    Suit,
    Take,
    bluff,
)
from thousand.bluff import spectator as bluff_spectator
from thousand.classic import spectator as thousand_spectator
from thousand.classic.actions import Action
from thousand.classic.rules import BoltCounting, above_lock
from thousand.classic.seating import seating
from thousand.frontends.faces import (
    bluff_face,
    bluff_faces,
    face,
    faces,
    labelled,
    sorted_hand,
    who,
)
from thousand.games import BLUFF, THOUSAND, AnyGame, AnyObservation, AnyState, per_game

__all__ = [
    "action_text",
    "bluff_action_text",
    "bluff_table",
    "choice_text",
    "menu_lines",
    "public_lines",
    "seat_lines",
    "thousand_table",
]


def thousand_table(
    observation: Observation, names: Sequence[str], colour: bool = False
) -> list[str]:
    """What the observing seat sees of a Thousand deal: scores (with bolts and falls where the
    rules count them), who sits out (four seats), the auction, the talon and the sitter's bonus,
    the contract, trump and marriages, tricks taken, the trick in progress and its own hand."""
    seat = observation.seat
    rules = observation.rules
    seats = range(rules.players)
    sitter = observation.sitter
    playing = [other for other in seats if other != sitter]

    def name(other: int) -> str:
        return who(other, names, seat)

    def cards(shown: Sequence[Card], sort: bool = False) -> str:
        return faces(shown, colour, sort)

    lines = [
        f"Deal {observation.deal_number + 1}, dealt by {name(observation.dealer)}"
        f" ({observation.phase.value})"
    ]
    scores = []
    for other in seats:
        text = labelled(name(other), observation.scores[other])
        spent = observation.barrel[other]
        if spent is not None:
            text += f" (on the barrel, deal {spent + 1} of {rules.barrel_deals})"
        elif above_lock(rules, observation.scores[other]):
            text += f" (above {rules.lock_threshold}: only own contracts count)"
        scores.append(text)
    lines.append("Scores: " + ", ".join(scores))
    if rules.bolts and any(observation.bolts):
        counts = ", ".join(labelled(name(other), observation.bolts[other]) for other in seats)
        row = " in a row" if rules.bolt_counting is BoltCounting.CONSECUTIVE else ""
        lines.append(f"Bolts: {counts} (a penalty of {rules.bolt_penalty} at {rules.bolts}{row})")
    if rules.barrel_reset_falls and any(observation.falls):
        counts = ", ".join(labelled(name(other), observation.falls[other]) for other in seats)
        lines.append(f"Falls from the barrel: {counts} (back to 0 at {rules.barrel_reset_falls})")
    if sitter is not None:
        lines.append(f"Sitting out: {name(sitter)}")
    lines.append("Bids: " + ", ".join(_bids(observation, name)))
    declarer = observation.declarer
    if declarer is not None:
        label = "Musik" if rules.players == 2 else "Talon"
        if observation.talon:
            lines.append(f"{label}: {cards(observation.talon)} (taken by {name(declarer)})")
            if sitter is not None and rules.sitter_bonus:
                scores_verb = "score" if sitter == seat else "scores"
                lines.append(
                    f"Sitting out, {name(sitter)} {scores_verb} {observation.sitter_bonus} for it"
                )
        contract = observation.contract
        terms = f"contract {contract}" if contract is not None else f"bid {observation.bid}"
        lines.append(f"Declarer: {name(declarer)}, {terms}")
    if observation.received is not None:
        lines.append(f"You received {face(observation.received, colour)}")
    for card, to in observation.given:
        lines.append(f"You gave {face(card, colour)} to {name(to)}")
    if observation.set_aside:
        lines.append(f"You laid aside {cards(observation.set_aside)}")
    if observation.melds or observation.trump is not None:
        trump = observation.trump
        marriages = ", ".join(
            f"{name(owner)} {_marriage(suit)}" for owner, suit in observation.melds
        )
        lines.append(
            f"Trump: {trump.symbol if trump is not None else 'none'}"
            + (f"; marriages: {marriages}" if marriages else "")
        )
    if observation.phase is Phase.PLAY or observation.tricks:
        taken = [0] * rules.players
        for trick in observation.tricks:
            taken[trick.winner] += 1
        lines.append(
            "Tricks: "
            + ", ".join(
                labelled(name(other), f"{taken[other]} ({observation.points_taken[other]} points)")
                for other in playing
            )
        )
        if observation.trick:
            played = ", ".join(
                f"{name(owner)} {face(card, colour)}" for owner, card in observation.trick
            )
            lines.append(f"On the table: {played}")
    others = ", ".join(
        labelled(name(other), observation.hand_sizes[other]) for other in playing if other != seat
    )
    lines.append(f"Cards in hand: {others}")
    lines.append(f"Your hand: {_grouped(observation.hand, colour)}")
    return lines


def bluff_table(observation: bluff.Observation, names: Sequence[str]) -> list[str]:
    """What the observing seat sees of a 1000? game: hand sizes, the piles, the climb on the
    table (face-down cards as ``[??]`` unless its own) and its own hand."""
    seat = observation.seat
    seats = range(observation.rules.players)
    sizes = ", ".join(
        labelled(who(other, names, seat), observation.hand_sizes[other]) for other in seats
    )
    lines = [
        f"Cards in hand: {sizes}",
        f"Draw pile: {observation.draw_pile_size}, discards: {observation.discard_pile_size}",
    ]
    if observation.table:
        climb = []
        for entry in observation.table:
            text = f"{bluff_face(entry.card)} by {who(entry.owner, names, seat)}"
            if entry.face_down:
                text += " (face down, believed)" if entry.believed else " (face down)"
            climb.append(text)
        lines.append("Climb, bottom first: " + ", ".join(climb))
        lines.append(f"Top card: {bluff_face(observation.table[-1].card)}")
    else:
        lines.append("The table is empty: a new climb starts.")
    if observation.must_start_with:
        lines.append(f"Start with one of: {bluff_faces(observation.must_start_with)}")
    lines.append(f"Your hand: {bluff_faces(observation.hand, sort=True)}")
    return lines


def action_text(action: Action, names: Sequence[str], seat: int, colour: bool = False) -> str:
    """A Thousand action offered to ``seat``, in words."""
    if isinstance(action, Play):
        text = f"play {face(action.card, colour)}"
        if action.marriage:
            text += f" and declare the {action.card.suit.symbol} marriage"
        elif action.aces:
            text += " and declare the four aces"
        return text
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Give):
        assert action.card is not None
        return f"give {face(action.card, colour)} to {who(action.to, names, seat)}"
    if isinstance(action, Discard):
        assert action.card is not None
        return f"lay {face(action.card, colour)} aside"
    if isinstance(action, Take):
        return f"take musik {action.musik}"
    if isinstance(action, Contract):
        return f"contract {action.amount}"
    assert isinstance(action, Concede)
    return "concede (give up the deal)"


def bluff_action_text(action: bluff.Action) -> str:
    """A 1000? action offered to a player, in words."""
    if isinstance(action, bluff.Play):
        return f"play {bluff_face(action.card)} face up"
    if isinstance(action, bluff.Hide):
        return f"play {bluff_face(action.card)} face down"
    if isinstance(action, bluff.Believe):
        return "believe the face-down card"
    if isinstance(action, bluff.Challenge):
        return "challenge: turn the card over"
    return "pass and draw a card"


def menu_lines(texts: Sequence[str], width: int = 78) -> list[str]:
    """The numbered choices in order, in columns, as many to a line as fit in ``width``
    columns; a choice much longer than most gets a line of its own."""
    cells = [f"{number:>2}. {text}" for number, text in enumerate(texts, start=1)]
    sizes = sorted(len(_visible(cell)) for cell in cells)
    usual = sizes[len(sizes) // 2] * 3 // 2
    column = max(size for size in sizes if size <= usual) + 3
    per_line = max(1, width // column)
    lines: list[str] = []
    row: list[str] = []

    def flush() -> None:
        if row:
            padded = [cell + " " * (column - len(_visible(cell))) for cell in row[:-1]]
            lines.append("  " + "".join([*padded, row[-1]]))
            row.clear()

    for cell in cells:
        if len(_visible(cell)) > usual:
            flush()
            lines.append("  " + cell)
            continue
        row.append(cell)
        if len(row) == per_line:
            flush()
    flush()
    return lines


def _visible(text: str) -> str:
    """``text`` without its colour codes, to measure its width on screen."""
    return text.replace("\x1b[31m", "").replace("\x1b[0m", "")


def _bids(observation: Observation, name: Callable[[int], str]) -> list[str]:
    """Each seat's last bid or pass in the auction, in the order they first spoke (the
    forehand's opening bid first)."""
    forehand = seating(observation.rules, observation.dealer).forehand
    said = {forehand: str(observation.rules.opening_bid_of(observation.scored_deals))}
    for actor, action in observation.history:
        if isinstance(action, Bid):
            said[actor] = str(action.amount)
        elif isinstance(action, Pass):
            said[actor] = "passed"
    return [f"{name(actor)} {text}" for actor, text in said.items()]


def _marriage(suit: Suit | None) -> str:
    return "the four aces" if suit is None else f"{suit.symbol} marriage"


def _grouped(hand: Sequence[Card], colour: bool) -> str:
    """The hand sorted and split by suit with ``|``."""
    groups: list[list[Card]] = []
    for card in sorted_hand(hand):
        if groups and groups[-1][0].suit == card.suit:
            groups[-1].append(card)
        else:
            groups.append([card])
    return " | ".join(faces(group, colour) for group in groups) or "-"


def seat_lines(observation: AnyObservation, names: Sequence[str]) -> list[str]:
    """What a seat sees, in either game: :func:`thousand_table` or :func:`bluff_table`."""
    lines: Callable[[Any, Sequence[str]], list[str]] = per_game(
        _SEAT_LINES, observation, "table to show"
    )
    return lines(observation, names)


def choice_text(observation: AnyObservation, action: object, names: Sequence[str]) -> str:
    """One of the observing seat's legal actions in words, in either game."""
    text: Callable[[Any, Any, Sequence[str]], str] = per_game(
        _CHOICES, observation, "actions to show"
    )
    return text(observation, action, names)


def public_lines(state: AnyState, names: Sequence[str]) -> list[str]:
    """What anyone watching may see of a game now, in either game: no hand, no hidden card."""
    lines: Callable[[Any, Sequence[str]], list[str]] = per_game(
        _PUBLIC_LINES, state, "table to show"
    )
    return lines(state, names)


def _hand_sizes(sizes: Sequence[int], names: Sequence[str]) -> str:
    return "Cards in hand: " + ", ".join(
        labelled(name, size) for name, size in zip(names, sizes, strict=True)
    )


def _thousand_public(view: thousand_spectator.Spectator, names: Sequence[str]) -> list[str]:
    seats = range(view.rules.players)
    lines = [
        f"Deal {view.deal_number + 1}, dealt by {names[view.dealer]} ({view.phase.value})",
        "Scores: " + ", ".join(labelled(names[seat], view.scores[seat]) for seat in seats),
    ]
    if view.phase is Phase.AUCTION:
        lines.append(f"Highest bid: {view.bid} by {names[view.bidder]}")
    if view.declarer is not None:
        terms = f"contract {view.contract}" if view.contract is not None else f"bid {view.bid}"
        lines.append(f"Declarer: {names[view.declarer]}, {terms}")
        if view.talon:
            lines.append(f"Talon: {faces(view.talon)}")
    if view.trump is not None:
        lines.append(f"Trump: {view.trump.symbol}")
    if view.trick:
        played = ", ".join(f"{names[owner]} {face(card)}" for owner, card in view.trick)
        lines.append(f"On the table: {played}")
    lines.append(
        "Tricks: " + ", ".join(labelled(names[seat], view.tricks_won[seat]) for seat in seats)
    )
    lines.append(_hand_sizes(view.hand_sizes, names))
    return lines


def _bluff_public(view: bluff_spectator.Spectator, names: Sequence[str]) -> list[str]:
    lines = [
        _hand_sizes(view.hand_sizes, names),
        f"Draw pile: {view.draw_pile}, discards: {view.discards}",
    ]
    if view.table:
        climb = ", ".join(
            f"{bluff_face(entry.card)} by {names[entry.owner]}"
            + (" (face down)" if entry.face_down else "")
            for entry in view.table
        )
        lines.append(f"Climb, bottom first: {climb}")
    return lines


_SEAT_LINES: dict[AnyGame, Callable[[Any, Sequence[str]], list[str]]] = {
    THOUSAND: thousand_table,
    BLUFF: bluff_table,
}
_CHOICES: dict[AnyGame, Callable[[Any, Any, Sequence[str]], str]] = {
    THOUSAND: lambda observation, action, names: action_text(action, names, observation.seat),
    BLUFF: lambda observation, action, names: bluff_action_text(action),
}
_PUBLIC_LINES: dict[AnyGame, Callable[[Any, Sequence[str]], list[str]]] = {
    THOUSAND: lambda state, names: _thousand_public(thousand_spectator.spectate(state), names),
    BLUFF: lambda state, names: _bluff_public(bluff_spectator.spectate(state), names),
}
