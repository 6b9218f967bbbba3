"""A recorded game as one self-contained HTML page that steps through it action by action.

The frames are computed here by replaying the record with the library: frame 0 is the start,
then one frame per action, each holding what a spectator of the whole game sees after that
action (every hand, the talon, the trick, the scores) and the lines telling what happened, as
:mod:`thousand.frontends.narration` tells them with every card shown. The page embeds them as
compact JSON and draws them with a little inline script: no network, no external fonts, scripts
or images.

    >>> import thousand
    >>> record = thousand.play(
    ...     ["greedy", "random", "random"], thousand.Rules.preset("russian"),
    ...     seed=3, single_deal=True).record
    >>> steps = frames(record)
    >>> len(steps) == 1 + len(record.deals[0].actions)
    True
    >>> steps[-1].scores == tuple(record.result["scores"])
    True
    >>> html_page(record).startswith("<!DOCTYPE html>")
    True
"""

from __future__ import annotations

import html
import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import attrs

from thousand import (
    DECK,
    Card,
    Discard,
    GameState,
    Give,
    MatchResult,
    Phase,
    Play,
    Record,
    Suit,
    Trick,
    bluff,
    replay,
)
from thousand.bluff import spectator as bluff_spectator
from thousand.classic import spectator
from thousand.classic.marriages import meld_points
from thousand.classic.rules import Redeal
from thousand.classic.seating import seating
from thousand.common.text import printable
from thousand.frontends.faces import bluff_face, face, sorted_hand
from thousand.frontends.narration import (
    bluff_event,
    bluff_start,
    header,
    held,
    joined,
    replay_names,
    seat_labels,
    thousand_event,
    thousand_start,
)
from thousand.games import BLUFF, THOUSAND, AnyGame, game_of, per_game

__all__ = ["Frame", "frames", "html_page"]

Item: TypeAlias = "int | str"
"""One piece of a displayed row: a card number (negative: the card lies face down) or text."""
Row: TypeAlias = "list[Any]"
"""A labelled row of the table area: ``[label, [item, ...]]``."""

_SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")


@attrs.frozen
class Frame:
    """One step of the replay: the lines telling the action that led here, the scores shown
    after it, the winners once the game is over, and the page's drawing data."""

    description: str
    """The narration's lines, unindented and unwrapped, joined by newlines (an empty line
    between the action and what follows it: the next deal's opening, the game's result)."""
    scores: tuple[int, ...]
    """Match scores (Thousand) or cards left in hand (1000?) per seat."""
    winners: tuple[int, ...]
    view: dict[str, Any] = attrs.field(eq=False, repr=False)
    """Compact drawing data: ``g`` heading, ``a`` acting seat, ``n`` seat to act next,
    ``s`` per seat ``[hand items, info]``, ``t`` table rows, ``x`` per seat score notes."""


def frames(record: Record | bluff.Record, names: Sequence[str] | None = None) -> list[Frame]:
    """The replay's frames: the start, then one per recorded action.

    Raises:
        RecordError: the record does not replay (an illegal action, a wrong result...).
        ValueError: ``names`` does not name every seat.
    """
    seats = _names(record, names)
    framed: Callable[[Any, list[str]], list[Frame]] = per_game(_FRAMES, record, "replay")
    return framed(record, seats)


def html_page(
    record: Record | bluff.Record,
    names: Sequence[str] | None = None,
    title: str | None = None,
) -> str:
    """The whole replay as one HTML page (inline style, script and data).

    Args:
        record: a Thousand record (a match or a single deal) or a 1000? record.
        names: the players' names by seat; by default the record's players (``seat 0``,
            ``seat 1``... in a record that does not name them).
        title: the page title; by default the game and the players.
    """
    seats = _names(record, names)
    steps = frames(record, seats)
    game = game_of(record)
    cards = per_game(_CARD_FACES, game, "replay")(record)
    heading = title if title is not None else f"{game.title}: {', '.join(seats)}"
    labels = seats if names is not None else seat_labels(record, seats)
    data = {
        "names": seats,
        "cards": cards,
        "frames": [
            {**step.view, "d": step.description, "c": list(step.scores), "w": list(step.winners)}
            for step in steps
        ],
    }
    return (
        _TEMPLATE.replace("@TITLE@", html.escape(heading))
        .replace("@SUMMARY@", html.escape(header(record, labels)))
        .replace("@STYLE@", _STYLE)
        .replace("@SCRIPT@", _SCRIPT)
        .replace("@DATA@", _script_json(data))
    )


def _script_json(data: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` appear literally."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, escaped)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _names(record: Record | bluff.Record, names: Sequence[str] | None) -> list[str]:
    """The seats' names as the page shows them, control characters as ``?``: ``names``, or as
    the terminal replay calls them."""
    players = record.rules.players
    if names is None:
        return replay_names(record)
    if len(names) != players:
        raise ValueError(f"the game has {players} seats but {len(names)} names were given")
    return [printable(str(name)) for name in names]


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _description(lines: Sequence[str]) -> str:
    """Narration lines as a frame's text: each line unindented; at most one empty line between
    paragraphs, none at either end."""
    return "\n".join(line.strip() for line in lines).strip("\n")


# Thousand --------------------------------------------------------------------------------------


def _thousand_frames(record: Record, names: list[str]) -> list[Frame]:
    states: list[GameState] = []
    replay(record, watch=states.append)  # checks every action and the recorded result
    start = states[0]
    opening = _description(thousand_start(start, names, width=None))
    table = spectator.spectate(start)
    shown = [_thousand_frame(table, table, start, start.hands, names, opening, actor=-1)]
    for before, after in itertools.pairwise(states):
        shown.append(_thousand_step(before, after, names))
    return shown


def _thousand_step(before: GameState, after: GameState, names: list[str]) -> Frame:
    """The frame after the action that led from ``before`` to ``after``."""
    text = _description(thousand_event(before, after, names, width=None))
    step, *ended = spectator.between(before, after)
    if not ended:
        return _thousand_frame(
            step.after,
            step.after,
            after,
            after.hands,
            names,
            text,
            actor=step.seat,
            taken=step.trick,
        )
    # The engine scores a finished deal and deals the next one in the same step: show the
    # finished deal (its last trick collected, or its last card given where a throw-in ended
    # it after the exchange) with the scores it left.
    _, action = after.deals[len(before.deals)].actions[-1]  # its card shown
    hands = [list(hand) for hand in before.hands]
    if isinstance(action, Play | Give | Discard) and action.card is not None:
        hands[step.seat].remove(action.card)
        if isinstance(action, Give):
            hands[action.to].append(action.card)
    return _thousand_frame(
        step.after,
        ended[0].after,
        before,
        hands,
        names,
        text,
        actor=step.seat,
        finished=ended[0].score,
        taken=step.trick,
    )


def _thousand_frame(
    table: spectator.Spectator,
    following: spectator.Spectator,
    deal: GameState,
    hands: Sequence[Sequence[Card]],
    names: list[str],
    text: str,
    *,
    actor: int,
    finished: spectator.DealScore | None = None,
    taken: Trick | None = None,
) -> Frame:
    """A frame drawing the deal at ``table`` with the scores and result of ``following``,
    showing every hand (``hands``) and the cards of ``deal`` kept face down: ``finished`` is
    the deal's result when the action ended it, ``taken`` the trick the action completed."""
    rules = table.rules
    players = rules.players
    auction = table.phase is Phase.AUCTION
    if finished is None and isinstance(table.result, spectator.DealScore):
        finished = table.result  # a single deal thrown in as dealt: over from the start
    thrown_in = finished.thrown_in if finished is not None else None
    unheld = thrown_in is not None and thrown_in.when is Redeal.DEALT  # no auction was held
    seats: list[list[Any]] = []
    for seat in range(players):
        info = []
        if seat == table.dealer:
            info.append("dealer")
        if seat == table.sitter:
            info.append("sits out")
            if table.talon and rules.sitter_bonus and thrown_in is None:
                info.append(f"bonus {table.sitter_bonus} for the talon")
        elif not unheld and auction:
            if seat == table.bidder:
                info.append(f"high bid {table.bid}")
            elif table.passed[seat]:
                info.append("passed")
        elif not unheld and seat == table.bidder:
            info.append("declarer")
        if seat != table.sitter and (
            table.phase is Phase.PLAY or (finished is not None and thrown_in is None)
        ):
            tricks = table.tricks_won[seat]
            info.append(f"{tricks} trick{'s' if tricks != 1 else ''}, {table.points[seat]} points")
        hand = [card.index for card in sorted_hand(hands[seat])]
        seats.append([hand, " · ".join(info)])
    rows = _thousand_rows(table, deal, names, finished, taken)
    next_seat = -1 if finished is not None or following.player is None else following.player
    heading = f"Deal {table.deal_number + 1}, dealt by {names[table.dealer]}"
    phase = str(table.phase)
    if finished is not None:
        phase = "deal over" if thrown_in is None else "deal thrown in"
    if table.phase is Phase.PLAY and finished is None:
        phase += f", trick {table.trick_number} of {rules.tricks_per_deal}"
    notes = []
    for seat in range(players):
        note = []
        if finished is not None:
            note.append(f"deal {_signed(finished.deal_scores[seat])}")
        spent = following.barrel[seat]
        if spent is not None:
            used = f"{spent} of {rules.barrel_deals}" if rules.barrel_deals else str(spent)
            note.append(f"on the barrel, {used} deals used")
        if rules.bolts and following.bolts[seat]:
            note.append(f"bolts {following.bolts[seat]} of {rules.bolts}")
        if rules.barrel_reset_falls and following.falls[seat]:
            note.append(f"falls {following.falls[seat]} of {rules.barrel_reset_falls}")
        notes.append(", ".join(note))
    result = following.result
    winners = result.winners if isinstance(result, MatchResult) else ()
    view = {
        "g": f"{heading} · {phase}",
        "a": actor,
        "n": next_seat,
        "s": seats,
        "t": rows,
        "x": notes,
    }
    return Frame(text, following.scores, winners, view)


def _cards(cards: Sequence[Card]) -> list[Item]:
    return [card.index for card in sorted_hand(cards)]


def _thousand_rows(
    table: spectator.Spectator,
    deal: GameState,
    names: list[str],
    finished: spectator.DealScore | None,
    taken: Trick | None,
) -> list[Row]:
    rules = table.rules
    auction = table.phase is Phase.AUCTION
    declarer = names[table.bidder]
    thrown_in = finished.thrown_in if finished is not None else None
    rows: list[Row] = []
    if table.sitter is not None:
        rows.append(["Sitting out", [names[table.sitter]]])
    if thrown_in is not None and thrown_in.when is Redeal.DEALT:
        rows.append(["Auction", ["not held"]])
        auction = True  # the talon stays face down
    elif auction:
        passed = [names[seat] for seat in range(rules.players) if table.passed[seat]]
        text = f"high bid {table.bid} by {declarer}"
        if passed:
            text += f"; passed: {joined(passed)}"
        rows.append(["Auction", [text]])
    else:
        rows.append(["Auction", [f"won by {declarer} at {table.bid}"]])
    if rules.players != 2:
        status = "face down" if auction else f"shown, taken by {declarer}"
        rows.append(["Talon", [*_cards(deal.layout.talon[0]), status]])
        if table.sitter is not None and rules.sitter_bonus and not auction:
            bonus = "cancelled" if thrown_in is not None else str(table.sitter_bonus)
            rows.append(["Sitter's bonus", [f"{bonus} for {names[table.sitter]}"]])
    else:
        for pile, cards in enumerate(deal.layout.talon):
            if table.musik == 0:
                status = "face down"
            elif table.musik == pile + 1:
                status = f"shown, taken by {declarer}"
            else:
                status = "stays face down"
            rows.append([f"Musik {pile + 1}", [*_cards(cards), status]])
    gifts: list[Item] = []
    for _, action in deal.actions:
        if isinstance(action, Give) and action.card is not None:
            gifts += [action.card.index, f"to {names[action.to]}"]
    if gifts:
        rows.append(["Given", gifts])
    if deal.set_aside:
        rows.append(["Laid aside", [*_cards(deal.set_aside), f"by {declarer}"]])
    if thrown_in is not None:
        rows.append(["Thrown in", [f"{names[thrown_in.seat]} holds {held(thrown_in)}"]])
    elif finished is not None and finished.conceded:
        rows.append(["Contract", [f"conceded by {declarer}"]])
    elif table.contract is not None:
        rows.append(["Contract", [f"{table.contract} by {declarer}"]])
    trump = table.trump
    rows.append(
        ["Trump", [f"{trump.symbol} {_SUIT_NAMES[trump]}" if trump is not None else "none"]]
    )
    marriages = [
        f"{names[seat]}: four aces ({rules.ace_marriage})"
        if suit is None
        else f"{names[seat]}: {suit.symbol} ({meld_points(rules, suit)})"
        for seat, suit in table.melds
    ]
    if marriages:
        rows.append(["Marriages", ["; ".join(marriages)]])
    rows.append(["Trick", _trick_items(table, names, taken)])
    return rows


def _trick_items(table: spectator.Spectator, names: list[str], taken: Trick | None) -> list[Item]:
    """The trick in progress, or the trick just completed and who took it."""
    items: list[Item] = []
    played = list(table.trick)
    if taken is not None:
        turn = seating(table.rules, table.dealer).turn
        seat = taken.leader
        played = []
        for card in taken.cards:
            played.append((seat, card))
            seat = turn[seat]
    for seat, card in played:
        items += [f"{names[seat]}:", card.index]
    if taken is not None:
        items.append(f"→ {names[taken.winner]} takes it")
    return items or ["-"]


# 1000? -----------------------------------------------------------------------------------------


def _bluff_frames(record: bluff.Record, names: list[str]) -> list[Frame]:
    states: list[bluff.State] = []
    bluff.replay(record, watch=states.append)  # checks every action and the recorded result
    opening = _description(bluff_start(states[0], names, width=None))
    shown = [_bluff_frame(states[0], names, opening, actor=-1)]
    for (before, after), (seat, _) in zip(itertools.pairwise(states), record.actions, strict=True):
        text = _description(bluff_event(before, after, names, width=None))
        shown.append(_bluff_frame(after, names, text, actor=seat))
    return shown


def _bluff_frame(state: bluff.State, names: list[str], text: str, *, actor: int) -> Frame:
    """A frame showing every hand and every card of the climb, with the public table's counts."""
    table = bluff_spectator.spectate(state)
    rules = table.rules
    number = rules.kinds.number
    seats: list[list[Any]] = []
    for seat, hand in enumerate(state.hands):
        info = []
        if seat == table.dealer:
            info.append("dealer")
        size = table.hand_sizes[seat]
        info.append(f"{size} card{'s' if size != 1 else ''}")
        ordered = sorted(hand, key=lambda card: (card.value, card.label))
        seats.append([[number[card] for card in ordered], " · ".join(info)])
    climb: list[Item] = []
    for entry in state.table:
        kind = number[entry.card] if entry.card is not None else 0
        climb += [f"{names[entry.owner]}:", -kind - 1 if entry.face_down else kind]
        if entry.believed:
            climb.append("(believed)")
    rows: list[Row] = [["Climb", climb or ["empty"]]]
    restart = state.must_start_with
    if restart is not None and table.player is not None:
        rows.append(["Must start with", [number[card] for card in restart]])
    rows.append(["Draw pile", [f"{table.draw_pile} cards"]])
    rows.append(["Discards", [f"{table.discards} cards"]])
    sizes = table.hand_sizes
    winners: tuple[int, ...] = ()
    notes = [""] * rules.players
    if table.result is not None:
        winners = table.result.winners
        sizes = table.result.hand_sizes
    heading = f"Turn {table.turns} · {table.phase}"
    next_seat = -1 if table.player is None else table.player
    view = {"g": heading, "a": actor, "n": next_seat, "s": seats, "t": rows, "x": notes}
    return Frame(text, sizes, winners, view)


# The page --------------------------------------------------------------------------------------

_STYLE = """
:root { color-scheme: light; --red: #c62828; --ink: #1d2430; --mute: #5b6472; --line: #d5dae1; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 12px 16px; color: var(--ink);
  font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f6f7f9; }
h1 { font-size: 20px; margin: 0 0 2px; }
.summary { color: var(--mute); margin: 0 0 10px; font-size: 13px; }
.controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 8px; }
button { font: inherit; padding: 4px 12px; border: 1px solid #9aa4b2; border-radius: 6px;
  background: #fff; cursor: pointer; }
button:disabled { opacity: .45; cursor: default; }
#step { margin-left: 8px; font-variant-numeric: tabular-nums; color: var(--mute); }
.hint { color: var(--mute); font-size: 12px; margin-left: auto; }
#description { background: #fff; border: 1px solid var(--line); border-left: 4px solid #3a6ea5;
  border-radius: 6px; padding: 8px 10px; margin: 0 0 8px; min-height: 2.6em;
  white-space: pre-line; }
#heading { font-weight: 600; margin: 4px 0 6px; }
#scores { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 8px; }
.score { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 3px 10px; }
.score b { font-variant-numeric: tabular-nums; }
.score .note { color: var(--mute); font-size: 12px; margin-left: 6px; }
.score.winner { border-color: #b8860b; background: #fff8dc; }
#seats { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 8px; }
.seat { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 6px 8px; }
.seat.actor { border-color: #3a6ea5; box-shadow: 0 0 0 1px #3a6ea5 inset; }
.seat .name { font-weight: 600; }
.seat .info { color: var(--mute); font-size: 13px; margin-left: 6px; }
.seat .turn { color: #2e7d32; font-size: 12px; margin-left: 6px; }
.hand { margin-top: 4px; min-height: 28px; }
.card { display: inline-block; min-width: 2.1em; padding: 1px 4px; margin: 1px 2px;
  border: 1px solid #8d96a3; border-radius: 4px; background: #fff; text-align: center;
  font-weight: 600; }
.card.down { border-style: dashed; background: #eef1f5; font-style: italic; }
.red { color: var(--red); }
table { border-collapse: collapse; margin-top: 8px; background: #fff; width: 100%;
  border: 1px solid var(--line); border-radius: 8px; }
th { text-align: left; color: var(--mute); font-weight: 500; width: 9em; vertical-align: top; }
th, td { padding: 3px 8px; border-top: 1px solid #eef0f3; }
.empty { color: var(--mute); }
"""

_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var frames = data.frames, cards = data.cards, names = data.names;
  var last = frames.length - 1, current = 0;
  function byId(id) { return document.getElementById(id); }
  function make(tag, className) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    return node;
  }
  function addText(parent, text) {
    String(text).split(/([\\u2665\\u2666])/).forEach(function (part) {
      if (!part) { return; }
      if (part === "\\u2665" || part === "\\u2666") {
        var red = make("span", "red");
        red.textContent = part;
        parent.appendChild(red);
      } else {
        parent.appendChild(document.createTextNode(part));
      }
    });
  }
  function addCard(parent, id) {
    var down = id < 0, entry = cards[down ? -id - 1 : id];
    var node = make("span", "card" + (entry[1] ? " red" : "") + (down ? " down" : ""));
    node.textContent = entry[0];
    if (down) { node.title = "face down"; }
    parent.appendChild(node);
  }
  function addItems(parent, items) {
    items.forEach(function (item, index) {
      if (typeof item === "number") { addCard(parent, item); return; }
      addText(parent, (index ? " " : "") + item + " ");
    });
  }
  function show(step) {
    current = Math.max(0, Math.min(last, step));
    var frame = frames[current];
    byId("step").textContent = "step " + current + " of " + last;
    var description = byId("description");
    description.textContent = "";
    addText(description, frame.d);
    byId("heading").textContent = frame.g;
    var scores = byId("scores");
    scores.textContent = "";
    frame.c.forEach(function (value, seat) {
      var won = frame.w.indexOf(seat) >= 0;
      var node = make("span", "score" + (won ? " winner" : ""));
      node.setAttribute("data-seat", String(seat));
      node.setAttribute("data-score", String(value));
      addText(node, (won ? "\\u2605 " : "") + names[seat] + ": ");
      var number = make("b");
      number.textContent = String(value);
      node.appendChild(number);
      if (frame.x[seat]) {
        var note = make("span", "note");
        note.textContent = frame.x[seat];
        node.appendChild(note);
      }
      scores.appendChild(node);
    });
    var seats = byId("seats");
    seats.textContent = "";
    frame.s.forEach(function (seatData, seat) {
      var box = make("div", "seat" + (seat === frame.a ? " actor" : ""));
      box.setAttribute("data-seat", String(seat));
      var name = make("span", "name");
      name.textContent = names[seat];
      box.appendChild(name);
      if (seatData[1]) {
        var info = make("span", "info");
        addText(info, seatData[1]);
        box.appendChild(info);
      }
      if (seat === frame.n) {
        var turn = make("span", "turn");
        turn.textContent = "\\u25b6 to act";
        box.appendChild(turn);
      }
      var hand = make("div", "hand");
      if (seatData[0].length) {
        seatData[0].forEach(function (id) { addCard(hand, id); });
      } else {
        hand.appendChild(make("span", "empty")).textContent = "no cards";
      }
      box.appendChild(hand);
      seats.appendChild(box);
    });
    var table = byId("table");
    table.textContent = "";
    frame.t.forEach(function (row) {
      var line = make("tr"), label = make("th"), cell = make("td");
      label.textContent = row[0];
      addItems(cell, row[1]);
      line.appendChild(label);
      line.appendChild(cell);
      table.appendChild(line);
    });
    byId("first").disabled = byId("prev").disabled = current === 0;
    byId("next").disabled = byId("last").disabled = current === last;
  }
  byId("first").addEventListener("click", function () { show(0); });
  byId("prev").addEventListener("click", function () { show(current - 1); });
  byId("next").addEventListener("click", function () { show(current + 1); });
  byId("last").addEventListener("click", function () { show(last); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
    if (Object.prototype.hasOwnProperty.call(moves, event.key)) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
  show(0);
})();
"""

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>@STYLE@</style>
</head>
<body>
<h1>@TITLE@</h1>
<p class="summary">@SUMMARY@</p>
<div class="controls">
<button type="button" id="first">&laquo; First</button>
<button type="button" id="prev">&lsaquo; Previous</button>
<button type="button" id="next">Next &rsaquo;</button>
<button type="button" id="last">Last &raquo;</button>
<span id="step"></span>
<span class="hint">keys: &larr; &rarr; Home End</span>
</div>
<p id="description"></p>
<div id="scores"></div>
<div id="heading"></div>
<div id="seats"></div>
<table><tbody id="table"></tbody></table>
<noscript><p>This replay needs JavaScript to step through the game.</p></noscript>
<script type="application/json" id="replay-data">@DATA@</script>
<script>@SCRIPT@</script>
</body>
</html>
"""


def _thousand_faces(record: Record) -> list[list[Any]]:
    return [[face(card), card.suit in (Suit.HEARTS, Suit.DIAMONDS)] for card in DECK]


def _bluff_faces(record: bluff.Record) -> list[list[Any]]:
    return [[bluff_face(card), False] for card in record.rules.kinds.cards]


_FRAMES: dict[AnyGame, Callable[[Any, list[str]], list[Frame]]] = {
    THOUSAND: _thousand_frames,
    BLUFF: _bluff_frames,
}
"""How each game's record becomes frames."""
_CARD_FACES: dict[AnyGame, Callable[[Any], list[list[Any]]]] = {
    THOUSAND: _thousand_faces,
    BLUFF: _bluff_faces,
}
"""Each game's cards as the page draws them: the face, and whether it is red."""
