"""A played match as readable text: every deal's cards, every action, every score."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from thousand import MatchResult, Outcome, bluff
from thousand.bluff import spectator as bluff_spectator
from thousand.classic import spectator
from thousand.classic.record import Record
from thousand.common.text import printable, table_lines
from thousand.frontends.narration import held
from thousand.games import BLUFF, THOUSAND, AnyGame, per_game

__all__ = ["match_log", "standings_lines"]


def match_log(outcome: Outcome) -> list[str]:
    """The whole match, deal by deal and action by action, then the standings."""
    names = [printable(name) for name in outcome.players]
    lines = per_game(_LINES, outcome.record, "match log")(outcome.record, names)
    return [*lines, "", *standings_lines(outcome)]


def standings_lines(outcome: Outcome) -> list[str]:
    """The final places, scores and statuses, then each fault."""
    rows = [["place", "seat", "player", "score", "status"]]
    for seat in sorted(range(len(outcome.players)), key=lambda seat: outcome.places[seat]):
        rows.append(
            [
                str(outcome.places[seat]),
                str(seat),
                outcome.players[seat],
                str(outcome.scores[seat]),
                str(outcome.statuses[seat]),
            ]
        )
    lines = table_lines(rows)
    if outcome.forfeited is not None:
        lines.append(printable(f"{outcome.players[outcome.forfeited]} forfeited the match."))
    lines.extend(
        printable(f"fault: {outcome.players[fault.seat]}, {fault}") for fault in outcome.faults
    )
    return lines


def _thousand_lines(record: Record, names: Sequence[str]) -> list[str]:
    ends = [step for step in spectator.steps(record) if isinstance(step, spectator.DealEnd)]
    dealers = [record.dealer, *(end.after.dealer for end in ends)]
    lines: list[str] = []
    for number, deal in enumerate(record.deals):
        lines.append(f"Deal {number + 1}, dealt by {_who(dealers[number], names)}")
        for seat, hand in enumerate(deal.layout.hands):
            if seat == deal.layout.sitter:
                lines.append(f"  {_who(seat, names)} sits out")
            else:
                lines.append(f"  {_who(seat, names)} holds {_cards(hand)}")
        for pile, cards in enumerate(deal.layout.talon):
            label = "talon" if len(deal.layout.talon) == 1 else f"musik {pile + 1}"
            lines.append(f"  {label}: {_cards(cards)}")
        lines.extend(f"  {_who(seat, names)}: {action}" for seat, action in deal.actions)
        if number < len(ends):
            lines.append(f"  {_deal_summary(ends[number].score, names)}")
    result = ends[-1].after.result if ends else None
    if isinstance(result, MatchResult):
        winners = " and ".join(_who(seat, names) for seat in result.winners)
        lines.append(f"The match is won by {winners} after {result.deals} deals.")
    return lines


def _deal_summary(result: spectator.DealScore, names: Sequence[str]) -> str:
    declarer = _who(result.declarer, names)
    if result.thrown_in is not None:
        verdict = f"thrown in: {_who(result.thrown_in.seat, names)} held {held(result.thrown_in)}"
    elif result.conceded:
        verdict = f"{declarer} conceded the bid of {result.bid}"
    else:
        made = "made" if result.made else "failed"
        verdict = (
            f"{declarer} {made} the contract of {result.contract} "
            f"with {result.points[result.declarer]} points"
        )
    sitter = result.sitter
    if sitter is not None and result.deal_scores[sitter]:
        verdict += f"; {_who(sitter, names)} scored {result.deal_scores[sitter]:+d} sitting out"
    scores = " / ".join(str(score) for score in result.scores)
    return f"{verdict}; scores {scores}"


def _bluff_lines(record: bluff.Record, names: Sequence[str]) -> list[str]:
    start = bluff.new_game(
        record.rules, seed=record.seed, layout=record.layout, dealer=record.dealer
    )
    lines = [f"Dealt by {_who(record.dealer, names)}"]
    for seat, hand in enumerate(start.hands):
        lines.append(f"  {_who(seat, names)} holds {_cards(hand)}")
    lines.extend(f"  {_who(seat, names)}: {action}" for seat, action in record.actions)
    for step in bluff_spectator.steps(record):
        if isinstance(step, bluff_spectator.GameEnd):
            result = step.result
            winners = " and ".join(_who(seat, names) for seat in result.winners)
            ending = " (turn limit reached)" if result.adjudicated else ""
            lines.append(f"The game is won by {winners} after {result.turns} turns{ending}.")
    return lines


def _who(seat: int, names: Sequence[str]) -> str:
    return f"seat {seat} ({names[seat]})"


def _cards(cards: Sequence[object]) -> str:
    return " ".join(str(card) for card in cards) or "nothing"


_LINES: dict[AnyGame, Callable[[Any, list[str]], list[str]]] = {
    THOUSAND: _thousand_lines,
    BLUFF: _bluff_lines,
}
"""How each game's match is told, deal by deal or turn by turn."""
