"""Games told in words for people: the deals, bids, cards, tricks and scores of a Thousand match,
and the climbs of a 1000? game, either with every card shown or as one player saw them.

Each function returns plain lines of text. The lines of a deal (or of a 1000? game) are indented
by two spaces under its heading; the result of the game comes last, unindented. Cards look as in
:mod:`thousand.frontends.faces`, and the seat of the ``viewer`` is called "you" (with every card
shown, so is the seat of the person a record names ``you``).
"""

from __future__ import annotations

import itertools
import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from thousand import (
    Bid,
    Card,
    Concede,
    Contract,
    DealResult,
    Discard,
    GameState,
    Give,
    MatchResult,
    Pass,
    Phase,
    Play,
    Record,
    SeatError,
    Take,
    ThrowIn,
    bluff,
    replay,
)
from thousand.bluff import spectator as bluff_spectator
from thousand.classic import spectator
from thousand.classic.marriages import meld_points
from thousand.classic.rules import BoltCounting, Redeal, Rules
from thousand.classic.seating import seating
from thousand.common.text import printable
from thousand.frontends.faces import (
    bluff_face,
    bluff_faces,
    face,
    faces,
    labelled,
    short_names,
    who,
)
from thousand.games import BLUFF, THOUSAND, AnyGame, ordinal, per_game

__all__ = [
    "bluff_event",
    "bluff_start",
    "header",
    "held",
    "joined",
    "replay_lines",
    "replay_names",
    "seat_labels",
    "thousand_event",
    "thousand_start",
]

PERSON = "you"
"""How a record names a person who played at the terminal."""
HUMAN = "human"
"""How a replay seen from another seat names that person."""
INDENT = "  "
"""How the lines of a deal (or of a 1000? game) sit under its heading."""
WIDTH = 99
"""Longer lines are wrapped (a hand of many cards, a table of many players), unless a
function is given another ``width`` (``None``: no wrapping)."""

_STANDS = "The card stands, and {} no cards left."
_SECOND_PERSON = {"has": "have", "is": "are", "was": "were"}
_THOUSAND_PHASES = {
    Phase.AUCTION: "during the auction",
    Phase.MUSIK: "while the declarer chooses a musik",
    Phase.EXCHANGE: "during the exchange of cards",
    Phase.CONTRACT: "before the contract is fixed",
    Phase.PLAY: "during the trick play",
}
_BLUFF_PHASES = {
    bluff.Phase.START: "as a new climb is about to start",
    bluff.Phase.CLIMB: "during a climb",
    bluff.Phase.RESPONSE: "as a card played face down awaits its answer",
}


class _Voice:
    """How seats, verbs and cards are written for one reader."""

    def __init__(
        self, names: Sequence[str], players: int, viewer: int | None, colour: bool = False
    ) -> None:
        if len(names) != players:
            raise ValueError(f"{players} names are needed, one per seat, not {len(names)}")
        if viewer is not None and not 0 <= viewer < players:
            raise SeatError(f"seats at this table are 0 to {players - 1}, not {viewer}")
        self.names = [printable(name) for name in names]
        self.viewer = viewer
        # The seat told in the second person: the viewer's, or with every card shown, the seat
        # of the person a record names "you" (who may be reading their own game).
        self.you = viewer
        if viewer is None and self.names.count(PERSON) == 1:
            self.you = self.names.index(PERSON)
        self.colour = colour

    def sees_all(self, *seats: int) -> bool:
        """Whether the reader sees what these seats see: everything, or it is one of them."""
        return self.viewer is None or self.viewer in seats

    def name(self, seat: int) -> str:
        """The seat as an object or after a colon: ``you`` or the player's name."""
        return who(seat, self.names, self.you)

    def subject(self, seat: int) -> str:
        """The seat at the start of a sentence: ``You`` or the player's name."""
        return "You" if seat == self.you else self.names[seat]

    def says(self, seat: int, verb: str, start: bool = True) -> str:
        """Subject and verb agreeing: ``Anna bids`` or ``You bid`` (``verb`` in the third
        person)."""
        subject = self.subject(seat) if start else self.name(seat)
        return f"{subject} {self.verb(verb, seat == self.you)}"

    @staticmethod
    def verb(verb: str, plural: bool) -> str:
        """``verb`` (third person singular) for "you" or several people when ``plural``."""
        if not plural:
            return verb
        if verb in _SECOND_PERSON:
            return _SECOND_PERSON[verb]
        if verb.endswith("es") and verb[:-2].endswith(("ss", "sh", "ch", "x")):
            return verb[:-2]
        return verb[:-1]

    def group(self, seats: Sequence[int], verb: str, start: bool = True) -> str:
        """Several seats as the subject of ``verb``: ``Anna and you win``, ``You win``."""
        subject = joined([self.name(seat) for seat in seats])
        if start and subject.startswith("you"):
            subject = "Y" + subject[1:]
        plural = len(seats) > 1 or seats[0] == self.you
        return f"{subject} {self.verb(verb, plural)}"

    def possessive(self, seat: int, start: bool = False) -> str:
        """``your`` (``Your`` at the start of a sentence) or ``Anna's``."""
        if seat == self.you:
            return "Your" if start else "your"
        return f"{self.names[seat]}'s"

    def card(self, card: Card) -> str:
        return face(card, self.colour)

    def cards(self, cards: Iterable[Card], sort: bool = False) -> str:
        return faces(cards, self.colour, sort)

    def per_seat(self, values: Sequence[int], signed: bool = False) -> str:
        """``Anna 240, Boris 35, you 20``; a name ending in a digit takes a colon:
        ``seat 0: 240``."""
        form = "{:+d}" if signed else "{:d}"
        return ", ".join(
            labelled(self.name(seat), form.format(value)) for seat, value in enumerate(values)
        )


def joined(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _numbers(values: Iterable[int]) -> str:
    return ", ".join(str(value) for value in values)


def _fit(lines: Iterable[str], width: int | None = WIDTH) -> list[str]:
    """Wrap any line longer than ``width`` at spaces, continuing it a little further in."""
    if width is None:
        return list(lines)
    fitted: list[str] = []
    for line in lines:
        if len(line) <= width:
            fitted.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        fitted.extend(
            textwrap.wrap(
                line,
                width,
                subsequent_indent=indent + "    ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return fitted


def _indented(lines: Iterable[str]) -> list[str]:
    return [INDENT + line for line in lines]


# --- Thousand ----------------------------------------------------------------------------------


def thousand_start(
    state: GameState,
    names: Sequence[str],
    viewer: int | None = None,
    colour: bool = False,
    width: int | None = WIDTH,
) -> list[str]:
    """The lines that open the deal ``state`` is at the start of: its number, the dealer, the
    scores before it, who is on the barrel, who sits out (four seats), and the cards dealt
    (every hand and the talon or musiki, or only the viewer's hand when there is a viewer).

    A game whose first deals were thrown in as dealt starts past them (the engine deals again
    by itself): for its first state those deals are told first, and when they ended the game,
    its result."""
    rules = state.rules
    voice = _Voice(names, rules.players, viewer, colour)
    return _fit(_opening_lines(state, voice), width)


def _opening_lines(state: GameState, voice: _Voice) -> list[str]:
    """The game's first state told: any deals thrown in as dealt, then the first deal played
    (or the result, when those deals ended the game)."""
    lines: list[str] = []
    for deal in state.deals if spectator.opening(state) else ():
        lines.extend([*_thrown_deal_lines(spectator.dealt_again(state, deal), deal, voice), ""])
    if isinstance(state.result, MatchResult):
        return [*lines, *_match_lines(state.result, state, voice)]
    if isinstance(state.result, DealResult):
        return [*lines, f"Deal scores: {_numbers(state.result.deal_scores)}"]
    return [*lines, *_start_lines(state, voice)]


def _thrown_deal_lines(start: GameState, deal: DealResult, voice: _Voice) -> list[str]:
    """A deal thrown in as dealt, told from ``start``, its cards as dealt."""
    assert deal.thrown_in is not None
    heading, *body = _start_lines(start, voice, committed=False)
    return [heading, *body, INDENT + _thrown_in_text(deal.thrown_in, voice)]


def held(thrown: ThrowIn) -> str:
    """What the hand that threw a deal in held, and when: ``a weak hand as dealt``, ``four
    nines after the exchange``."""
    holding = "a weak hand" if thrown.reason == "weak hand" else thrown.reason
    moment = "as dealt" if thrown.when is Redeal.DEALT else "after the exchange"
    return f"{holding} {moment}"


def _thrown_in_text(thrown: ThrowIn, voice: _Voice) -> str:
    holds = voice.says(thrown.seat, "holds", start=False)
    return f"The deal is thrown in: {holds} {held(thrown)}, and nobody scores."


def _start_lines(state: GameState, voice: _Voice, committed: bool = True) -> list[str]:
    rules = state.rules
    body = [f"Scores: {voice.per_seat(state.scores)}"]
    sitting = [
        f"{voice.name(seat)} ({used} of {_plural(rules.barrel_deals, 'deal')} used)"
        for seat, used in enumerate(state.barrel)
        if used is not None
    ]
    if sitting:
        body.append(f"On the barrel: {', '.join(sitting)}")
    body.extend(_count_lines(rules, state.bolts, state.falls, voice))
    sitter = state.sitter
    if sitter is not None:
        if sitter == voice.you:
            body.append("You sit out this deal: it plays on without you.")
        else:
            body.append(f"{voice.says(sitter, 'sits')} out this deal.")
    layout = state.layout
    for seat, hand in enumerate(layout.hands):
        if seat != sitter and voice.sees_all(seat):
            body.append(f"{voice.says(seat, 'holds')}: {voice.cards(hand, sort=True)}")
    if voice.viewer is None:
        if len(layout.talon) == 1:
            body.append(f"Talon: {voice.cards(layout.talon[0])}")
        else:
            musiki = [
                f"musik {number}: {voice.cards(pile)}"
                for number, pile in enumerate(layout.talon, 1)
            ]
            text = "; ".join(musiki)
            body.append(text[0].upper() + text[1:])
    if committed:
        context = state.context
        forehand = seating(rules, state.dealer).forehand
        first = context.turn[forehand]
        bid = rules.opening_bid_of(context.scored_deals)
        gold = ""
        if context.scored_deals < rules.gold_set:
            gold = f" (a gold-set deal, {context.scored_deals + 1} of {rules.gold_set})"
        body.append(
            f"{voice.says(forehand, 'is')} committed to {bid}{gold}; "
            f"{voice.name(first)} {voice.verb('speaks', first == voice.you)} first."
        )
    heading = f"Deal {state.deal_number + 1}, dealt by {voice.name(state.dealer)}"
    return [heading, *_indented(body)]


def _count_lines(
    rules: Rules, bolts: Sequence[int], falls: Sequence[int], voice: _Voice
) -> list[str]:
    """The bolt and fall counts, where the rules keep them and someone has one."""
    lines = []
    if rules.bolts and any(bolts):
        if rules.bolt_counting is BoltCounting.CONSECUTIVE:
            rule = f"{rules.bolts} in a row cost {rules.bolt_penalty}"
        else:
            rule = f"every {ordinal(rules.bolts)} costs {rules.bolt_penalty}"
        lines.append(f"Bolts: {voice.per_seat(bolts)} ({rule})")
    if rules.barrel_reset_falls and any(falls):
        rule = f"the {ordinal(rules.barrel_reset_falls)} sets the score to 0"
        lines.append(f"Falls from the barrel: {voice.per_seat(falls)} ({rule})")
    return lines


def thousand_event(
    before: GameState,
    after: GameState,
    names: Sequence[str],
    viewer: int | None = None,
    colour: bool = False,
    width: int | None = WIDTH,
) -> list[str]:
    """The lines telling the one action that led from ``before`` to ``after`` (``after`` is
    ``before.apply(action)``) as ``viewer`` saw it, ``None`` showing every card.

    A completed trick adds who won it; the end of a deal adds its summary; in a match the next
    deal's opening follows (``after`` is then at its start), or the match's result."""
    voice = _Voice(names, before.rules.players, viewer, colour)
    step, *ended = spectator.between(before, after)
    body = _action_lines(before, after, step, voice)
    if ended:
        body.extend(_summary_lines(step.before, ended[0].score, voice))
    lines = _indented(body)
    # Deals thrown in as dealt after this one: the engine dealt them again by itself.
    for deal in after.deals[len(before.deals) + 1 :]:
        dealt = spectator.dealt_again(after, deal)
        lines.extend(["", *_thrown_deal_lines(dealt, deal, voice)])
    if isinstance(after.result, MatchResult):
        lines.extend(["", *_match_lines(after.result, before, voice)])
    elif isinstance(after.result, DealResult):
        lines.extend(["", f"Deal scores: {_numbers(after.result.deal_scores)}"])
    elif ended:
        lines.extend(["", *_start_lines(after, voice)])
    return _fit(lines, width)


def _action_lines(
    before: GameState, after: GameState, step: spectator.Step, voice: _Voice
) -> list[str]:
    seat, action = step.seat, step.action
    says = voice.says
    if isinstance(action, Bid):
        return [f"{says(seat, 'bids')} {action.amount}"]
    if isinstance(action, Pass):
        lines = [says(seat, "passes")]
        if step.after.phase not in (Phase.AUCTION, Phase.OVER):
            lines.extend(_auction_won(step.after, voice))
        return lines
    if isinstance(action, Take):
        return [f"{says(seat, 'takes')} musik {action.musik}: {voice.cards(step.after.talon)}"]
    if isinstance(action, Give):
        if voice.sees_all(seat):
            card = voice.card(_card_gone(before, after, seat))
            return [f"{says(seat, 'gives')} {card} to {voice.name(action.to)}"]
        if voice.viewer == action.to:
            card = voice.card(_card_gone(before, after, seat))
            return [f"{says(seat, 'gives')} you {card}"]
        return [f"{says(seat, 'gives')} a card to {voice.name(action.to)}"]
    if isinstance(action, Discard):
        shown = voice.card(_card_gone(before, after, seat)) if voice.sees_all(seat) else "a card"
        return [f"{says(seat, 'lays')} {shown} aside"]
    if isinstance(action, Contract):
        lines = [f"{says(seat, 'fixes')} the contract at {action.amount}"]
        if voice.viewer is not None and after.hands[voice.viewer]:
            hand = after.hands[voice.viewer]
            lines.append(f"{says(voice.viewer, 'holds')}: {voice.cards(hand, sort=True)}")
        return lines
    if isinstance(action, Concede):
        return [f"{says(seat, 'concedes')} the deal (bid {step.before.bid})"]
    assert isinstance(action, Play)
    return _play_lines(step, action, voice)


def _card_gone(before: GameState, after: GameState, seat: int) -> Card:
    """The card that left ``seat``'s hand between the two states (a gift, a card laid aside)."""
    if len(after.deals) > len(before.deals):  # the deal was thrown in after the exchange
        _, action = after.deals[len(before.deals)].actions[-1]  # its card shown
        assert isinstance(action, (Give, Discard))
        assert action.card is not None
        return action.card
    (card,) = set(before.hands[seat]) - set(after.hands[seat])
    return card


def _auction_won(table: spectator.Spectator, voice: _Voice) -> list[str]:
    declarer = table.bidder
    won = f"{voice.says(declarer, 'wins')} the auction at {table.bid}"
    if table.rules.players == 2:
        return [f"{won} and {voice.verb('chooses', declarer == voice.you)} a musik."]
    takes = voice.says(declarer, "takes", start=False)
    lines = [f"{won}.", f"The talon is shown: {voice.cards(table.talon)}; {takes} it into hand."]
    sitter = table.sitter
    if sitter is not None and table.rules.sitter_bonus:
        scores = voice.verb("scores", sitter == voice.you)
        bonus = table.sitter_bonus
        lines.append(
            f"Sitting out, {voice.name(sitter)} {scores} {bonus} for it"
            f"{'' if bonus else ' (no ace and no marriage in it)'}."
        )
    return lines


def _play_lines(step: spectator.Step, action: Play, voice: _Voice) -> list[str]:
    seat, card, table = step.seat, action.card, step.before
    lead = not table.trick
    text = f"{voice.says(seat, 'leads' if lead else 'plays', start=not lead)} {voice.card(card)}"
    declares = voice.verb("declares", seat == voice.you)
    if action.marriage:
        symbol = card.suit.symbol
        value = meld_points(table.rules, card.suit)
        text += f" and {declares} the {symbol} marriage ({value}): trump is {symbol}"
    elif action.aces:
        text += f" and {declares} the four aces ({table.rules.ace_marriage})"
    if lead:
        text = f"Trick {table.trick_number}: {text}"
    lines = [text]
    if step.trick is not None:
        cards = step.trick.cards
        points = sum(c.points for c in cards)
        lines.append(
            f"{voice.says(step.trick.winner, 'wins')} the trick: {voice.cards(cards)} "
            f"({_plural(points, 'point')})"
        )
    return lines


def _summary_lines(
    table: spectator.Spectator, deal: spectator.DealScore, voice: _Voice
) -> list[str]:
    """The end of a deal (``table`` is the deal before its last action): the contract made,
    failed or given up, the deal's points and scores, the lock and the barrel, the scores after
    it."""
    rules = table.rules
    declarer = deal.declarer
    if deal.thrown_in is not None:
        return [_thrown_in_text(deal.thrown_in, voice)]
    lines = []
    if deal.contract is not None:
        points = deal.points[declarer]
        verdict = "makes" if deal.made else "fails"
        lines.append(
            f"{voice.says(declarer, verdict)} the contract of {deal.contract} "
            f"with {_plural(points, 'point')}."
        )
        lines.append(f"Points: {voice.per_seat(deal.points)}")
    lines.append(f"This deal: {voice.per_seat(deal.deal_scores, signed=True)}")
    if deal.sitter is not None and rules.sitter_bonus:
        lines.append(
            f"{voice.subject(deal.sitter)} sat out: "
            f"{deal.deal_scores[deal.sitter]:+d} for the talon."
        )
    lines.extend(_bolt_lines(table, deal, voice))
    for seat in range(rules.players):
        if table.locked[seat] and seat != declarer and deal.deal_scores[seat] != 0:
            lines.append(
                f"{voice.possessive(seat, start=True)} {deal.deal_scores[seat]:+d} does not "
                f"count: above {rules.lock_threshold} only one's own contracts score."
            )
    lines.extend(_barrel_lines(table, deal, voice))
    lines.extend(_fall_lines(table, deal, voice))
    lines.append(f"Scores: {voice.per_seat(deal.scores)}")
    return lines


def _bolt_lines(table: spectator.Spectator, deal: spectator.DealScore, voice: _Voice) -> list[str]:
    """The bolts taken in the deal (a defender scoring nothing) and the penalties they cost."""
    rules = table.rules
    if not rules.bolts:
        return []
    lines = []
    for seat, (was, now) in enumerate(zip(table.bolts, deal.bolts, strict=True)):
        if now == was + 1:
            lines.append(
                f"{voice.says(seat, 'takes')} a bolt: {now} of {rules.bolts} towards a penalty."
            )
        elif (
            now == 0
            and was == rules.bolts - 1
            and seat != deal.declarer
            and deal.deal_scores[seat] == -rules.bolt_penalty
        ):
            lines.append(
                f"{voice.says(seat, 'takes')} a {ordinal(rules.bolts)} bolt and "
                f"{voice.verb('loses', seat == voice.you)} {rules.bolt_penalty}."
            )
    return lines


def _fall_lines(table: spectator.Spectator, deal: spectator.DealScore, voice: _Voice) -> list[str]:
    """The falls from the barrel the deal counted, and any that reset a score to 0."""
    rules = table.rules
    limit = rules.barrel_reset_falls
    if not limit:
        return []
    lines = []
    for seat, (was, now) in enumerate(zip(table.falls, deal.falls, strict=True)):
        if now == was + 1:
            lines.append(f"That is {voice.possessive(seat)} fall {now} of {limit} from the barrel.")
        elif now < was:
            lines.append(
                f"That is {voice.possessive(seat)} {ordinal(limit)} fall from the barrel: "
                f"{voice.possessive(seat)} score goes back to 0."
            )
    return lines


def _barrel_lines(
    table: spectator.Spectator, deal: spectator.DealScore, voice: _Voice
) -> list[str]:
    rules = table.rules
    lines = []
    for seat, (was, now) in enumerate(zip(table.barrel, deal.barrel, strict=True)):
        if was is None and now is not None:
            lines.append(
                f"{voice.says(seat, 'reaches')} {rules.barrel_threshold} and "
                f"{voice.verb('gets', seat == voice.you)} on the barrel."
            )
        elif was is not None and now is None and deal.scores[seat] < rules.target:
            lines.append(f"{voice.says(seat, 'falls')} off the barrel.")
        elif was is not None and now is not None:
            lines.append(
                f"{voice.says(seat, 'stays')} on the barrel "
                f"({now} of {_plural(rules.barrel_deals, 'deal')} used)."
            )
    return lines


def _match_lines(result: MatchResult, before: GameState, voice: _Voice) -> list[str]:
    rules = before.rules
    deals = _plural(result.deals, "deal")
    if result.adjudicated:
        won = f"No one reached {rules.target} in {deals}: "
        won += f"{voice.group(result.winners, 'wins', start=False)} on the highest score."
    elif len(result.winners) > 1:
        won = f"{voice.group(result.winners, 'shares')} the win after {deals}."
    else:
        won = f"{voice.group(result.winners, 'wins')} the match after {deals}."
    lines = [won]
    if result.settlement is not None:
        lines.append(f"Settlement: {voice.per_seat(result.settlement, signed=True)}")
    lines.append(f"Final scores: {_numbers(result.scores)}")
    return lines


def _thousand_stop(state: GameState, voice: _Voice) -> list[str]:
    where = "" if state.origin.single_deal else f", in deal {state.deal_number + 1}"
    phase = _THOUSAND_PHASES[state.phase]
    if state.phase is Phase.PLAY:
        phase += f" (trick {spectator.spectate(state).trick_number})"
    return [
        f"The record stops here{where}, {phase}.",
        f"Scores so far: {_numbers(state.scores)}",
    ]


# --- 1000? -------------------------------------------------------------------------------------


def bluff_start(
    state: bluff.State,
    names: Sequence[str],
    viewer: int | None = None,
    width: int | None = WIDTH,
) -> list[str]:
    """The lines that open a 1000? game: the dealer, the cards each, the draw pile, the hands
    (every hand, or only the viewer's) and who starts."""
    voice = _Voice(names, state.rules.players, viewer)
    return _fit(_bluff_start_lines(state, voice), width)


def _bluff_start_lines(state: bluff.State, voice: _Voice) -> list[str]:
    table = bluff_spectator.spectate(state)
    body = [
        f"{voice.says(seat, 'holds')}: {bluff_faces(hand, sort=True)}"
        for seat, hand in enumerate(state.hands)
        if voice.sees_all(seat)
    ]
    if table.player is not None:
        body.append(f"{voice.says(table.player, 'plays')} first.")
    heading = (
        f"Dealt by {voice.name(table.dealer)}: {table.rules.hand_size} cards each, "
        f"{table.draw_pile} in the draw pile"
    )
    return [heading, *_indented(body)]


def bluff_event(
    before: bluff.State,
    after: bluff.State,
    names: Sequence[str],
    viewer: int | None = None,
    width: int | None = WIDTH,
) -> list[str]:
    """The lines telling the one action that led from ``before`` to ``after`` as ``viewer`` saw
    it (``None`` showing every card); the game's result when it ends."""
    voice = _Voice(names, before.rules.players, viewer)
    step, *ended = bluff_spectator.between(before, after)
    lines = _indented(_bluff_action_lines(before, after, step, voice))
    if ended:
        lines.extend(["", *_bluff_result_lines(ended[0].result, voice)])
    return _fit(lines, width)


def _drawn(before: bluff.State, after: bluff.State, seat: int) -> list[bluff.Card]:
    """The cards ``seat`` drew between the two states, in the deck's order."""
    gained = Counter(after.hands[seat]) - Counter(before.hands[seat])
    return sorted(gained.elements(), key=before.rules.kinds.number.__getitem__)


def _top(table: bluff_spectator.Spectator) -> str:
    top = table.table[-1]
    return "the face-down card" if top.card is None else bluff_face(top.card)


def _bluff_action_lines(
    before: bluff.State, after: bluff.State, step: bluff_spectator.Step, voice: _Voice
) -> list[str]:
    says = voice.says
    seat, action = step.seat, step.action
    lines: list[str] = []
    if isinstance(action, (bluff.Play, bluff.Hide)):
        if isinstance(action, bluff.Hide):
            card = bluff_face(_hidden(before, after, seat)) if voice.sees_all(seat) else "a card"
            lines.append(f"{says(seat, 'plays')} {card} face down on {_top(step.before)}.")
        elif step.before.phase is bluff.Phase.START:
            lines.append(f"{says(seat, 'starts')} a climb with {bluff_face(action.card)}.")
        else:
            lines.append(f"{says(seat, 'plays')} {bluff_face(action.card)} on {_top(step.before)}.")
        if not step.after.hand_sizes[seat]:
            lines.append(f"It is {voice.possessive(seat)} last card.")
        return lines
    owner = step.before.table[-1].owner if step.before.table else -1
    if isinstance(action, bluff.Believe):
        lines.append(f"{says(seat, 'believes')} {voice.possessive(owner)} card.")
        result = step.after.result
        if result is not None and not result.adjudicated:
            lines.append(_STANDS.format(voice.says(owner, "has", start=False)))
        return lines
    if isinstance(action, bluff.Challenge):
        return _challenge_lines(before, after, step, owner, voice)
    return _pass_lines(before, after, step, voice)


def _hidden(before: bluff.State, after: bluff.State, seat: int) -> bluff.Card:
    """The card ``seat`` played face down between the two states."""
    (card,) = (Counter(before.hands[seat]) - Counter(after.hands[seat])).elements()
    return card


def _challenge_lines(
    before: bluff.State,
    after: bluff.State,
    step: bluff_spectator.Step,
    owner: int,
    voice: _Voice,
) -> list[str]:
    assert step.revealed is not None
    seat, honest = step.seat, step.honest
    verdict = "an honest card" if honest else "a bluff"
    lines = [
        f"{voice.says(seat, 'challenges')}: {voice.possessive(owner)} card is "
        f"{bluff_face(step.revealed)}, {verdict}."
    ]
    table = step.after
    if table.result is not None and not table.result.adjudicated:
        lines.append(_STANDS.format(voice.says(owner, "has", start=False)))
        return lines
    loser = seat if honest else owner
    lines.extend(_reshuffle_lines(step))
    drawn = table.hand_sizes[loser] - step.before.hand_sizes[loser]
    if not drawn:
        lines.append(f"There is nothing left to draw for {voice.name(loser)}.")
    elif voice.sees_all(loser):
        lines.append(f"{voice.says(loser, 'draws')} {bluff_faces(_drawn(before, after, loser))}.")
    else:
        lines.append(f"{voice.says(loser, 'draws')} {_plural(drawn, 'card')}.")
    lines.append("The table is cleared.")
    if table.result is None:
        starter = table.player
        assert starter is not None
        if starter != loser:
            lines.append(
                f"{voice.says(loser, 'has')} no card to start with; "
                f"{voice.says(starter, 'starts', start=False)} the next climb."
            )
        elif table.restart:
            lines.append(
                f"{voice.says(starter, 'starts')} the next climb with one of the cards drawn."
            )
        lines.append(_bluff_status(table, voice))
    return lines


def _reshuffle_lines(step: bluff_spectator.Step) -> list[str]:
    if step.after.reshuffles > step.before.reshuffles:
        return ["The draw pile is empty: the discards are shuffled into a new one."]
    return []


def _pass_lines(
    before: bluff.State, after: bluff.State, step: bluff_spectator.Step, voice: _Voice
) -> list[str]:
    seat, table = step.seat, step.after
    lines = _reshuffle_lines(step)
    if table.hand_sizes[seat] == step.before.hand_sizes[seat]:
        lines.append(f"{voice.says(seat, 'passes')}; there is nothing to draw.")
    elif voice.sees_all(seat):
        lines.append(
            f"{voice.says(seat, 'passes')} and {voice.verb('draws', seat == voice.you)} "
            f"{bluff_faces(_drawn(before, after, seat))}."
        )
    else:
        lines.append(f"{voice.says(seat, 'passes')} and draws a card.")
    if table.phase is bluff.Phase.START:
        starter = table.player
        assert starter is not None
        lines.append(
            f"Everyone else has passed on {voice.possessive(starter)} card: the table is "
            f"cleared, and {voice.says(starter, 'starts', start=False)} again."
        )
        lines.append(_bluff_status(table, voice))
    return lines


def _bluff_status(table: bluff_spectator.Spectator, voice: _Voice) -> str:
    return f"Cards in hand: {voice.per_seat(table.hand_sizes)}; {table.draw_pile} in the draw pile."


def _bluff_result_lines(result: bluff.Result, voice: _Voice) -> list[str]:
    turns = _plural(result.turns, "turn")
    lines = []
    if result.adjudicated:
        lines.append(f"The game stops at its limit of {turns}: the fewest cards in hand win.")
    if len(result.winners) > 1:
        lines.append(f"{voice.group(result.winners, 'shares')} the win after {turns}.")
    else:
        lines.append(f"{voice.group(result.winners, 'wins')} the game after {turns}.")
    lines.append(f"Cards left: {_numbers(result.hand_sizes)}")
    return lines


def _bluff_stop(state: bluff.State) -> list[str]:
    table = bluff_spectator.spectate(state)
    return [
        f"The record stops here, after {_plural(table.turns, 'turn')}, "
        f"{_BLUFF_PHASES[table.phase]}.",
        f"Cards in hand so far: {_numbers(table.hand_sizes)}",
    ]


# --- whole records -----------------------------------------------------------------------------


def replay_lines(
    record: Record | bluff.Record,
    names: Sequence[str] | None = None,
    viewer: int | None = None,
    colour: bool = False,
) -> list[str]:
    """The whole recorded game told step by step (as ``viewer`` saw it, or with every card when
    ``None``), replayed with the library's checks; the seats are called by ``names``, by default
    as :func:`replay_names` calls them.

    The last lines give the result: ``Final scores: ...`` in seat order after a Thousand match,
    ``Deal scores: ...`` after a single deal, ``Cards left: ...`` after a 1000? game; a record
    of a game stopped half-way ends by saying where it stops, with the scores (or the cards in
    hand) so far.

    Raises:
        RecordError: the record does not replay (an illegal action, a wrong seat, other cards,
            another result).
    """
    players = record.rules.players
    seats = list(names) if names is not None else replay_names(record, viewer)
    voice = _Voice(seats, players, viewer, colour)
    opening = [header(record, voice.names if names is not None else seat_labels(record, seats))]
    if viewer is not None:
        opening.append(f"As seen by {voice.names[viewer]}: the cards others held stay hidden.")
    opening.append("")
    story: Callable[[Any, _Voice], list[str]] = per_game(_STORIES, record, "narration")
    return _fit([*opening, *story(record, voice)])


def replay_names(record: Record | bluff.Record, viewer: int | None = None) -> list[str]:
    """How a replay names each seat: by its recorded player, cut to the bot's name (see
    :func:`~thousand.frontends.faces.short_names`), or ``seat 0``, ``seat 1``... when the
    record does not name its players. Seen from another seat, the person a record names
    ``you`` is called ``human``."""
    if record.players is None:
        return [f"seat {seat}" for seat in range(record.rules.players)]
    return short_names(
        [
            HUMAN if name == PERSON and viewer not in (None, seat) else name
            for seat, name in enumerate(record.players)
        ]
    )


def seat_labels(record: Record | bluff.Record, names: Sequence[str]) -> list[str]:
    """The seats' ``names`` (as :func:`replay_names` gives them) for the header: when the record
    names its players, each with its seat, and with its recorded name when the shown one is cut
    from it: ``you (seat 0)``, ``pimc (seat 1: pimc(steps=50))``."""
    if record.players is None:
        return list(names)
    return [
        _seat_label(seat, name, printable(recorded))
        for seat, (name, recorded) in enumerate(zip(names, record.players, strict=True))
    ]


def header(record: Record | bluff.Record, names: Sequence[str]) -> str:
    """The line that names the game, its rules and its players (``names`` by seat)."""
    return per_game(_HEADERS, record, "narration")(record, joined(list(names)))


def _thousand_header(record: Record, players: str) -> str:
    preset = record.rules.preset_name()
    rules = f"{preset} rules" if preset is not None else "house rules"
    kind = "a single deal" if record.single_deal else f"a match to {record.rules.target}"
    return f"Thousand ({rules}), {kind}: {players}"


def _bluff_header(record: bluff.Record, players: str) -> str:
    return f"1000? for {record.rules.players} players: {players}"


_HEADERS: dict[AnyGame, Callable[[Any, str], str]] = {
    THOUSAND: _thousand_header,
    BLUFF: _bluff_header,
}
"""The line that names each game's record and its players."""


def _seat_label(seat: int, name: str, recorded: str) -> str:
    """``greedy (seat 0)``, ``random B (seat 2)``; ``pimc (seat 1: pimc(steps=50))`` when the
    name shown is not the recorded one (with or without a letter)."""
    if name == recorded or name.startswith(recorded + " "):
        return f"{name} (seat {seat})"
    return f"{name} (seat {seat}: {recorded})"


def _thousand_story(record: Record, voice: _Voice) -> list[str]:
    states: list[GameState] = []
    final = replay(record, watch=states.append)
    lines = _opening_lines(states[0], voice)
    for before, after in itertools.pairwise(states):
        lines.extend(thousand_event(before, after, voice.names, voice.viewer, voice.colour))
    if not final.is_over:
        lines.extend(["", *_thousand_stop(final, voice)])
    return lines


def _bluff_story(record: bluff.Record, voice: _Voice) -> list[str]:
    states: list[bluff.State] = []
    final = bluff.replay(record, watch=states.append)
    lines = _bluff_start_lines(states[0], voice)
    for before, after in itertools.pairwise(states):
        lines.extend(bluff_event(before, after, voice.names, voice.viewer))
    if final.result is None:
        lines.extend(["", *_bluff_stop(final)])
    return lines


_STORIES: dict[AnyGame, Callable[[Any, _Voice], list[str]]] = {
    THOUSAND: _thousand_story,
    BLUFF: _bluff_story,
}
"""How each game's record is told, as seen by a voice."""
