"""Games told in words (thousand.frontends.narration): every recorded game replays into text
whose last lines state the library's result; a player's view never shows a card that player
did not see; the lines of the auction, the exchange, the tricks and the end of a deal read as
expected."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence

import attrs
import pytest

import thousand
from tests.support import play
from thousand import (
    Card,
    DealResult,
    GameState,
    Layout,
    MatchResult,
    Record,
    RecordError,
    Rules,
    SeatError,
    bluff,
)
from thousand.classic.actions import Discard, Give
from thousand.classic.actions import Play as ThousandPlay
from thousand.classic.rules import Redeal
from thousand.frontends.narration import (
    bluff_event,
    bluff_start,
    held,
    replay_lines,
    thousand_event,
    thousand_start,
)

NAMES = ("Anna", "Boris", "Clara", "Dora", "Emil", "Fay")
THOUSAND_FACE = re.compile(r"(?:10|[9JQKA])[♠♣♦♥]")
BLUFF_FACE = re.compile(r"\[(\d+)\]")
ANSI = re.compile(r"\x1b\[\d+m")
RUSSIAN = Rules.preset("russian")
POLISH = Rules.preset("polish")
POLISH_2P = Rules.preset("polish-2p")
# Russian rules where a marriage may be declared on the first lead.
EARLY = attrs.evolve(RUSSIAN, marriage_requires_trick=False)

SINGLE_DEALS = [(preset, seed) for preset in Rules.preset_names() for seed in (1, 2, 3, 4)]
MATCHES = [(preset, seed) for preset in Rules.preset_names() for seed in (1, 2)]
BLUFF_GAMES = [(players, seed) for players in (2, 3, 4) for seed in (1, 2, 3)]


@functools.cache
def thousand_record(preset: str, seed: int, single_deal: bool) -> Record:
    rules = Rules.preset(preset)
    bots = ["greedy", "greedy", "random", "greedy"][: rules.players]
    record = thousand.play(bots, rules, seed=seed, single_deal=single_deal).record
    assert isinstance(record, Record)
    return record


@functools.cache
def bluff_record(players: int, seed: int) -> bluff.Record:
    bots = ["greedy", "random"] * players
    record = thousand.play(bots[:players], bluff.Rules(players=players), seed=seed).record
    assert isinstance(record, bluff.Record)
    return record


def all_thousand_records() -> list[tuple[str, Record]]:
    return [
        *(
            (f"{preset}-deal-{seed}", thousand_record(preset, seed, True))
            for preset, seed in SINGLE_DEALS
        ),
        *(
            (f"{preset}-match-{seed}", thousand_record(preset, seed, False))
            for preset, seed in MATCHES
        ),
    ]


def thousand_cards(lines: Sequence[str]) -> set[Card]:
    return {Card.parse(text) for line in lines for text in THOUSAND_FACE.findall(line)}


def bluff_labels(lines: Sequence[str]) -> set[str]:
    return {label for line in lines for label in BLUFF_FACE.findall(line)}


def by_deal(lines: Sequence[str]) -> list[list[str]]:
    """The narration cut at each deal's heading (the lines before the first heading dropped)."""
    chunks: list[list[str]] = []
    for line in lines:
        if line.startswith("Deal ") and ", dealt by " in line:
            chunks.append([])
        if chunks:
            chunks[-1].append(line)
    return chunks


def deal_states(record: Record) -> list[list[GameState]]:
    """Every state of every deal of the record, each deal replayed on its own from its layout
    and dealer, so that its last state still shows the final trick."""
    final = thousand.replay(record)
    finished = list(final.deals)
    if isinstance(final.result, DealResult):
        finished.append(final.result)
    deals = []
    for number, deal in enumerate(record.deals):
        dealer = finished[number].dealer if number < len(finished) else final.dealer
        state = thousand.new_deal(record.rules, layout=deal.layout, dealer=dealer)
        states = [state]
        for _, action in deal.actions:
            state = state.apply(action)
            states.append(state)
        deals.append(states)
    return deals


def thousand_seen(states: Sequence[GameState], seat: int) -> set[Card]:
    """Every card ``seat`` was shown during one deal, according to its observations."""
    seen: set[Card] = set()
    for state in states:
        view = state.observation(seat)
        seen.update(view.hand, view.talon, view.set_aside)
        seen.update(card for card, _ in view.given)
        if view.received is not None:
            seen.add(view.received)
        seen.update(card for _, card in view.trick)
        for trick in view.tricks:
            seen.update(trick.cards)
        for _, action in view.history:
            if isinstance(action, (Give, Discard, ThousandPlay)) and action.card is not None:
                seen.add(action.card)
    return seen


def bluff_seen(record: bluff.Record, seat: int) -> set[str]:
    """Every card label ``seat`` was shown in the game, according to its observations."""
    state = bluff.new_game(
        record.rules, seed=record.seed, layout=record.layout, dealer=record.dealer
    )
    states = [state]
    for _, action in record.actions:
        state = state.apply(action)
        states.append(state)
    seen: set[str] = set()
    for state in states:
        view = state.observation(seat)
        seen.update(card.label for card in view.hand)
        seen.update(entry.card.label for entry in view.table if entry.card is not None)
        for _, action in view.history:
            if isinstance(action, (bluff.Play, bluff.Hide)) and action.card is not None:
                seen.add(action.card.label)
    return seen


def numbers(line: str, prefix: str) -> list[int]:
    assert line.startswith(prefix), line
    return [int(word) for word in line[len(prefix) :].split(", ")]


def deal_through(layout: Layout, rules: Rules, dealer: int, *texts: str) -> list[GameState]:
    """The states of a deal from the layout through the actions written as text."""
    states = [thousand.new_deal(rules, layout=layout, dealer=dealer)]
    for text in texts:
        states.append(play(states[-1], text))
    return states


def told(states: Sequence[GameState], viewer: int | None = None) -> list[str]:
    """The start of the deal and every event, as ``viewer`` saw them."""
    lines = thousand_start(states[0], NAMES[:3], viewer)
    for before, after in itertools.pairwise(states):
        lines.extend(thousand_event(before, after, NAMES[:3], viewer))
    return lines


# --- whole records: the result comes last ------------------------------------------------------


@pytest.mark.parametrize(("preset", "seed"), SINGLE_DEALS)
def test_single_deal_ends_with_the_deal_scores(preset: str, seed: int) -> None:
    record = thousand_record(preset, seed, True)
    result = thousand.replay(record).result
    assert isinstance(result, DealResult)
    for viewer in (None, *range(record.rules.players)):
        lines = replay_lines(record, viewer=viewer)
        assert numbers(lines[-1], "Deal scores: ") == list(result.deal_scores)


@pytest.mark.parametrize(("preset", "seed"), MATCHES)
def test_match_ends_with_the_winner_and_final_scores(preset: str, seed: int) -> None:
    record = thousand_record(preset, seed, False)
    result = thousand.replay(record).result
    assert isinstance(result, MatchResult)
    names = NAMES[: record.rules.players]
    lines = replay_lines(record, names)
    assert numbers(lines[-1], "Final scores: ") == list(result.scores)
    winning = next(line for line in lines if "the match after" in line or "the win" in line)
    assert f"after {result.deals} deals" in winning
    assert all(names[seat] in winning for seat in result.winners)
    headings = [line for line in lines if line.startswith("Deal ")]
    assert len(headings) == result.deals


@pytest.mark.parametrize(("players", "seed"), BLUFF_GAMES)
def test_bluff_game_ends_with_the_winner_and_cards_left(players: int, seed: int) -> None:
    record = bluff_record(players, seed)
    result = bluff.replay(record).result
    assert result is not None
    names = NAMES[:players]
    for viewer in (None, *range(players)):
        lines = replay_lines(record, names, viewer=viewer)
        assert numbers(lines[-1], "Cards left: ") == list(result.hand_sizes)
        winners = [name for seat, name in enumerate(names) if seat in result.winners]
        mentioned = [
            seat
            for seat in range(players)
            if f"{names[seat]} " in lines[-2] or (seat == viewer and lines[-2].startswith("You"))
        ]
        assert len(mentioned) == len(winners)
        assert set(mentioned) == set(result.winners)
        assert f"after {result.turns} turns" in lines[-2]


def test_default_names_are_the_seats_in_a_record_without_names() -> None:
    lines = replay_lines(attrs.evolve(thousand_record("russian", 1, True), players=None))
    assert lines[0] == "Thousand (russian rules), a single deal: seat 0, seat 1 and seat 2"
    assert lines[2] == "Deal 1, dealt by seat 0"


def test_lines_are_short_indented_and_free_of_internal_words() -> None:
    records: list[Record | bluff.Record] = [record for _, record in all_thousand_records()]
    records.extend(bluff_record(players, seed) for players, seed in BLUFF_GAMES)
    for record in records:
        for viewer in (None, 0):
            lines = replay_lines(record, NAMES[: record.rules.players], viewer)
            for line in lines:
                assert len(line) < 100, line
                assert not re.search(r"Phase|mask|None|\?\?|_|\(\)", line), line
            last_blank = len(lines) - 1 - lines[::-1].index("")
            story, result = lines[lines.index("") + 1 : last_blank], lines[last_blank + 1 :]
            for line in story:
                is_heading = line.startswith(("Deal ", "Dealt by "))
                assert is_heading or line == "" or line.startswith("  "), line
            assert result
            assert not any(line.startswith(" ") for line in result)


def test_a_thirty_deal_match_narrates_every_deal() -> None:
    record = next(
        thousand_record("polish", seed, False)
        for seed in range(1, 50)
        if len(thousand_record("polish", seed, False).deals) >= 30
    )
    lines = replay_lines(record)
    assert len(by_deal(lines)) == len(record.deals)


# --- what a player may see ----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("name", "record"), all_thousand_records())
def test_thousand_viewer_sees_only_cards_it_was_shown(name: str, record: Record) -> None:
    deals = deal_states(record)
    players = record.rules.players
    for seat in range(players):
        chunks = by_deal(replay_lines(record, NAMES[:players], viewer=seat))
        assert len(chunks) == len(deals)
        for number, (chunk, states) in enumerate(zip(chunks, deals, strict=True)):
            shown = thousand_cards(chunk)
            unseen = shown - thousand_seen(states, seat)
            assert not unseen, f"deal {number + 1}, seat {seat}: {sorted(map(str, unseen))}"
            assert set(states[0].layout.hands[seat]) <= shown


@pytest.mark.parametrize(("name", "record"), all_thousand_records())
def test_thousand_without_viewer_shows_every_hand(name: str, record: Record) -> None:
    chunks = by_deal(replay_lines(record))
    for chunk, deal in zip(chunks, record.deals, strict=True):
        dealt = {card for pile in (*deal.layout.hands, *deal.layout.talon) for card in pile}
        opening = next(n for n, line in enumerate(chunk) if "committed to" in line)
        assert thousand_cards(chunk[:opening]) == dealt


@pytest.mark.parametrize(("players", "seed"), BLUFF_GAMES)
def test_bluff_viewer_sees_only_cards_it_was_shown(players: int, seed: int) -> None:
    record = bluff_record(players, seed)
    start = bluff.new_game(record.rules, seed=record.seed, dealer=record.dealer)
    full = bluff_labels(replay_lines(record, NAMES[:players]))
    assert {card.label for hand in start.hands for card in hand} <= full
    for seat in range(players):
        shown = bluff_labels(replay_lines(record, NAMES[:players], viewer=seat))
        assert shown <= bluff_seen(record, seat), sorted(shown - bluff_seen(record, seat))
        assert {card.label for card in start.hands[seat]} <= shown
    others = [
        card.label
        for seat in range(1, players)
        for card in start.hands[seat]
        if card.label not in bluff_seen(record, 0)
    ]
    assert others, "some card of another hand stays unseen by seat 0"
    assert not set(others) & bluff_labels(replay_lines(record, NAMES[:players], viewer=0))
    assert set(others) <= full


# --- the lines of a deal, on deals laid out by hand ---------------------------------------------

# Dealer 2: seats 1 and 2 pass, seat 0 (Anna) declares 100 with the talon 9D 9S JS, gives 9S to
# seat 1 (Boris) and JS to seat 2 (Clara), fixes 100 and leads KH declaring hearts.
HEARTS = Layout(
    hands=["KH QH AD TD KD QD JD", "9H JH TH AS TS KS QS", "AH AC TC KC QC JC 9C"],
    talon="9D 9S JS",
)
HEARTS_PLAY = ("pass", "pass", "give 9S 1", "give JS 2", "contract 100")


def test_start_of_a_deal_shows_every_hand_or_only_the_viewers() -> None:
    state = thousand.new_deal(RUSSIAN, layout=HEARTS, dealer=2)
    assert thousand_start(state, NAMES[:3]) == [
        "Deal 1, dealt by Clara",
        "  Scores: Anna 0, Boris 0, Clara 0",
        "  Anna holds: K♥ Q♥ A♦ 10♦ K♦ Q♦ J♦",
        "  Boris holds: 10♥ J♥ 9♥ A♠ 10♠ K♠ Q♠",
        "  Clara holds: A♥ A♣ 10♣ K♣ Q♣ J♣ 9♣",
        "  Talon: 9♦ 9♠ J♠",
        "  Anna is committed to 100; Boris speaks first.",
    ]
    assert thousand_start(state, NAMES[:3], viewer=1) == [
        "Deal 1, dealt by Clara",
        "  Scores: Anna 0, you 0, Clara 0",
        "  You hold: 10♥ J♥ 9♥ A♠ 10♠ K♠ Q♠",
        "  Anna is committed to 100; you speak first.",
    ]


def test_auction_won_and_talon_shown_to_everyone() -> None:
    states = deal_through(HEARTS, RUSSIAN, 2, "pass", "pass")
    assert thousand_event(states[1], states[2], NAMES[:3], viewer=1) == [
        "  Clara passes",
        "  Anna wins the auction at 100.",
        "  The talon is shown: 9♦ 9♠ J♠; Anna takes it into hand.",
    ]
    assert thousand_event(states[0], states[1], NAMES[:3], viewer=1) == ["  You pass"]


def test_a_given_card_is_named_only_to_the_giver_and_the_receiver() -> None:
    states = deal_through(HEARTS, RUSSIAN, 2, *HEARTS_PLAY[:3])
    before, after = states[-2], states[-1]
    assert thousand_event(before, after, NAMES[:3]) == ["  Anna gives 9♠ to Boris"]
    assert thousand_event(before, after, NAMES[:3], viewer=0) == ["  You give 9♠ to Boris"]
    assert thousand_event(before, after, NAMES[:3], viewer=1) == ["  Anna gives you 9♠"]
    assert thousand_event(before, after, NAMES[:3], viewer=2) == ["  Anna gives a card to Boris"]


def test_marriage_declaration_and_trick_winner_with_points() -> None:
    states = deal_through(HEARTS, EARLY, 2, *HEARTS_PLAY, "play KH marriage", "play 9H", "play AH")
    lines = told(states[-4:], viewer=2)[-4:]
    assert lines == [
        "  Trick 1: Anna leads K♥ and declares the ♥ marriage (100): trump is ♥",
        "  Boris plays 9♥",
        "  You play A♥",
        "  You win the trick: K♥ 9♥ A♥ (15 points)",
    ]
    assert thousand_event(states[-4], states[-3], NAMES[:3], viewer=0) == [
        "  Trick 1: you lead K♥ and declare the ♥ marriage (100): trump is ♥"
    ]


def test_contract_shows_the_viewers_hand_for_the_play() -> None:
    states = deal_through(HEARTS, RUSSIAN, 2, *HEARTS_PLAY)
    assert thousand_event(states[-2], states[-1], NAMES[:3], viewer=2) == [
        "  Anna fixes the contract at 100",
        "  You hold: A♥ A♣ 10♣ K♣ Q♣ J♣ 9♣ J♠",
    ]
    assert thousand_event(states[-2], states[-1], NAMES[:3]) == ["  Anna fixes the contract at 100"]


def test_concession_ends_the_deal_with_its_scores() -> None:
    states = deal_through(HEARTS, RUSSIAN, 2, *HEARTS_PLAY[:4], "concede")
    assert thousand_event(states[-2], states[-1], NAMES[:3], viewer=1) == [
        "  Anna concedes the deal (bid 100)",
        "  This deal: Anna -100, you +50, Clara +50",
        "  Scores: Anna -100, you 50, Clara 50",
        "",
        "Deal scores: -100, 50, 50",
    ]


def first_legal_to_the_end(state: GameState) -> list[GameState]:
    """The states from ``state`` to the end of the game, always taking the first legal action."""
    states = [state]
    while not states[-1].is_over:
        states.append(states[-1].apply(states[-1].legal_actions()[0]))
    return states


def test_a_whole_deal_ends_with_the_contract_and_the_scores() -> None:
    states = first_legal_to_the_end(deal_through(HEARTS, RUSSIAN, 2, *HEARTS_PLAY)[-1])
    assert told(states)[-8:] == [
        "  Boris plays 9♠",
        "  Clara wins the trick: J♠ 9♦ 9♠ (2 points)",
        "  Anna fails the contract of 100 with 0 points.",
        "  Points: Anna 0, Boris 0, Clara 120",
        "  This deal: Anna -100, Boris +0, Clara +120",
        "  Scores: Anna -100, Boris 0, Clara 120",
        "",
        "Deal scores: -100, 0, 120",
    ]


# Two players, dealer 0: Anna passes, so Boris (the forehand) declares 100 and picks a musik.
TWO = Layout(
    hands=["AH TH KH QH JH 9H AD TD KD QD", "JD 9D AC TC KC QC JC 9C AS TS"],
    talon=["KS QS", "JS 9S"],
)


def test_two_player_musik_is_shown_and_the_cards_laid_aside_are_not() -> None:
    states = deal_through(TWO, POLISH_2P, 0, "pass", "take 2", "discard 9C", "discard JC")
    start = thousand_start(states[0], NAMES[:2])
    assert "  Musik 1: K♠ Q♠; musik 2: J♠ 9♠" in start
    assert not any("usik" in line for line in thousand_start(states[0], NAMES[:2], viewer=0))
    assert thousand_event(states[0], states[1], NAMES[:2], viewer=0) == [
        "  You pass",
        "  Boris wins the auction at 100 and chooses a musik.",
    ]
    for viewer in (None, 0, 1):
        assert thousand_event(states[1], states[2], NAMES[:2], viewer) == [
            "  Boris takes musik 2: J♠ 9♠" if viewer != 1 else "  You take musik 2: J♠ 9♠"
        ]
    assert thousand_event(states[2], states[3], NAMES[:2], viewer=0) == [
        "  Boris lays a card aside"
    ]
    assert thousand_event(states[2], states[3], NAMES[:2], viewer=1) == ["  You lay 9♣ aside"]
    assert thousand_event(states[3], states[4], NAMES[:2]) == ["  Boris lays J♣ aside"]


def test_lock_keeps_a_defenders_points_from_counting() -> None:
    start = thousand.new_deal(POLISH, layout=HEARTS, dealer=2, scores=(0, 850, 0))
    states = first_legal_to_the_end(play(start, *HEARTS_PLAY))
    assert thousand_event(states[-2], states[-1], NAMES[:3])[1:] == [
        "  Boris wins the trick: 9♠ 9♣ 9♦ (0 points)",
        "  Anna makes the contract of 100 with 116 points.",
        "  Points: Anna 116, Boris 119, Clara 25",
        "  This deal: Anna +100, Boris +120, Clara +30",
        "  Boris's +120 does not count: above 800 only one's own contracts score.",
        "  Scores: Anna 100, Boris 850, Clara 30",
        "",
        "Deal scores: 100, 120, 30",
    ]


def test_barrel_is_shown_at_the_start_and_after_the_deal() -> None:
    state = thousand.new_deal(RUSSIAN, layout=HEARTS, dealer=2, scores=(0, 880, 0))
    assert "  On the barrel: Boris (0 of 3 deals used)" in thousand_start(state, NAMES[:3])
    states = first_legal_to_the_end(play(state, *HEARTS_PLAY))
    lines = thousand_event(states[-2], states[-1], NAMES[:3])
    assert lines[-5:] == [
        "  This deal: Anna -100, Boris +0, Clara +120",
        "  Boris stays on the barrel (1 of 3 deals used).",
        "  Scores: Anna -100, Boris 880, Clara 120",
        "",
        "Deal scores: -100, 0, 120",
    ]


def test_a_match_goes_on_to_the_next_deal() -> None:
    state = thousand.new_match(RUSSIAN, seed=3, layout=HEARTS, dealer=2)
    state = play(state, *HEARTS_PLAY[:4], "concede")
    before = play(thousand.new_match(RUSSIAN, seed=3, layout=HEARTS, dealer=2), *HEARTS_PLAY[:4])
    lines = thousand_event(before, state, NAMES[:3], viewer=1)
    cut = lines.index("")
    assert lines[:cut] == [
        "  Anna concedes the deal (bid 100)",
        "  This deal: Anna -100, you +50, Clara +50",
        "  Scores: Anna -100, you 50, Clara 50",
    ]
    assert lines[cut + 1 :] == thousand_start(state, NAMES[:3], viewer=1)
    assert lines[cut + 1] == "Deal 2, dealt by Anna"


def test_colour_marks_red_suits_only() -> None:
    record = thousand_record("russian", 2, True)
    plain = replay_lines(record)
    coloured = replay_lines(record, colour=True)
    assert any("\x1b[31m" in line for line in coloured)
    assert [ANSI.sub("", line) for line in coloured] == plain
    assert all(not re.search(r"\x1b\[31m(?:10|[9JQKA])[♠♣]", line) for line in coloured)


# --- 1000? lines ---------------------------------------------------------------------------------

BLUFF_RULES = bluff.Rules(
    players=3, hand_size=3, deck="03 05 06 09 16 19 23 26 29 33 40 46 1000 1000"
)
BLUFF_LAYOUT = bluff.Layout(
    hands=["23 29 1000", "05 06 26", "03 09 16"], draw_pile="19 40 46 1000 33"
)


def bluff_through(*texts: str) -> list[bluff.State]:
    states = [bluff.new_game(BLUFF_RULES, layout=BLUFF_LAYOUT, dealer=0, seed=1)]
    for text in texts:
        states.append(states[-1].apply(bluff.parse_action(text)))
    return states


def bluff_told(states: Sequence[bluff.State], viewer: int | None) -> list[str]:
    lines = bluff_start(states[0], NAMES[:3], viewer)
    for before, after in itertools.pairwise(states):
        lines.extend(bluff_event(before, after, NAMES[:3], viewer))
    return lines


def test_bluff_face_down_cards_show_only_to_their_owner_until_challenged() -> None:
    states = bluff_through(
        "play 06", "play 16", "hide 23", "believe", "play 05", "hide 09", "challenge"
    )
    assert bluff_told(states, viewer=1) == [
        "Dealt by Anna: 3 cards each, 5 in the draw pile",
        "  You hold: [05] [06] [26]",
        "  You play first.",
        "  You start a climb with [06].",
        "  Clara plays [16] on [06].",
        "  Anna plays a card face down on [16].",
        "  You believe Anna's card.",
        "  You play [05] on the face-down card.",
        "  Clara plays a card face down on [05].",
        "  Anna challenges: Clara's card is [09], an honest card.",
        "  Anna draws 3 cards.",
        "  The table is cleared.",
        "  Anna starts the next climb with one of the cards drawn.",
        "  Cards in hand: Anna 5, you 1, Clara 1; 2 in the draw pile.",
    ]
    full = bluff_told(states, viewer=None)
    assert "  Anna plays [23] face down on [16]." in full
    assert "  Anna draws [19] [40] [46]." in full
    assert "  You draw [19] [40] [46]." in bluff_told(states, viewer=0)


def test_bluff_passes_draw_and_end_the_climb() -> None:
    states = bluff_through(
        *("play 06", "play 16", "hide 23", "believe", "play 05", "hide 09", "challenge"),
        *("play 40", "pass", "pass"),
    )
    assert bluff_event(states[-2], states[-1], NAMES[:3], viewer=1) == [
        "  Clara passes and draws a card.",
        "  Everyone else has passed on Anna's card: the table is cleared, and Anna starts again.",
        "  Cards in hand: Anna 4, you 2, Clara 2; 0 in the draw pile.",
    ]
    assert bluff_event(states[-2], states[-1], NAMES[:3], viewer=2)[0] == (
        "  You pass and draw [33]."
    )


def test_bluff_game_end_names_the_winner() -> None:
    states = bluff_through(
        *("play 06", "play 16", "hide 23", "believe", "play 05", "hide 09", "challenge"),
        *("play 40", "pass", "pass", "play 19", "play 1000", "play 33", "play 1000", "play 26"),
    )
    assert bluff_event(states[-2], states[-1], NAMES[:3], viewer=1) == [
        "  You play [26] on [1000].",
        "  It is your last card.",
        "",
        "You win the game after 15 turns.",
        "Cards left: 2, 0, 1",
    ]


# --- unfinished records --------------------------------------------------------------------------


def test_an_unfinished_match_says_where_it_stops() -> None:
    state = thousand.new_match(RUSSIAN, seed=11)
    while (
        state.deal_number < 2
        or len(state.trick_cards) + sum(mask.bit_count() for mask in state.taken_masks) < 7
    ):
        state = state.apply(state.legal_actions()[0])
    assert state.phase is thousand.Phase.PLAY
    lines = replay_lines(Record.from_state(state), NAMES[:3], viewer=2)
    assert lines[-2:] == [
        "The record stops here, in deal 3, during the trick play (trick 3).",
        "Scores so far: " + ", ".join(map(str, state.scores)),
    ]


def test_an_unfinished_single_deal_and_bluff_game_say_where_they_stop() -> None:
    state = play(thousand.new_deal(RUSSIAN, layout=HEARTS, dealer=2), "pass")
    assert replay_lines(Record.from_state(state))[-2:] == [
        "The record stops here, during the auction.",
        "Scores so far: 0, 0, 0",
    ]
    states = bluff_through("play 06", "play 16", "hide 23")
    assert replay_lines(bluff.Record.from_state(states[-1]))[-2:] == [
        "The record stops here, after 3 turns, as a card played face down awaits its answer.",
        "Cards in hand so far: 2, 2, 2",
    ]


# --- misuse ---------------------------------------------------------------------------------------


def test_states_that_do_not_follow_each_other_are_refused() -> None:
    states = deal_through(HEARTS, RUSSIAN, 2, "pass", "pass")
    with pytest.raises(ValueError, match="exactly one action"):
        thousand_event(states[0], states[2], NAMES[:3])
    games = bluff_through("play 06", "play 16")
    with pytest.raises(ValueError, match="exactly one action"):
        bluff_event(games[0], games[2], NAMES[:3])


def test_wrong_names_or_viewer_are_refused() -> None:
    state = thousand.new_deal(RUSSIAN, layout=HEARTS, dealer=2)
    with pytest.raises(ValueError, match="3 names"):
        thousand_start(state, NAMES[:2])
    with pytest.raises(SeatError):
        thousand_start(state, NAMES[:3], viewer=3)


def test_a_tampered_record_is_refused() -> None:
    record = thousand_record("russian", 1, True)
    deal = record.deals[0]
    swapped = attrs.evolve(deal, actions=(deal.actions[1], deal.actions[0], *deal.actions[2:]))
    tampered = attrs.evolve(record, deals=(swapped,))
    with pytest.raises(RecordError, match="turn"):
        replay_lines(tampered)


def test_a_match_stopped_by_the_deal_limit_is_adjudicated() -> None:
    rules = attrs.evolve(RUSSIAN, max_deals=1)
    start = thousand.new_match(rules, seed=4, layout=HEARTS, dealer=2)
    states = first_legal_to_the_end(play(start, *HEARTS_PLAY))
    result = states[-1].result
    assert isinstance(result, MatchResult)
    assert result.adjudicated
    assert result.winners == (2,)
    assert thousand_event(states[-2], states[-1], NAMES[:3], viewer=2)[-5:] == [
        "  Scores: Anna -100, Boris 0, you 120",
        "",
        "No one reached 1000 in 1 deal: you win on the highest score.",
        "Settlement: Anna -1100, Boris -1000, you +2100",
        "Final scores: -100, 0, 120",
    ]


def test_a_bluff_game_stopped_by_the_turn_limit_is_adjudicated() -> None:
    rules = attrs.evolve(BLUFF_RULES, max_turns=3)
    state = bluff.new_game(rules, layout=BLUFF_LAYOUT, dealer=0, seed=1)
    before = state.apply(bluff.parse_action("play 06")).apply(bluff.parse_action("play 16"))
    after = before.apply(bluff.parse_action("hide 23"))
    assert bluff_event(before, after, NAMES[:3], viewer=1) == [
        "  Anna plays a card face down on [16].",
        "",
        "The game stops at its limit of 3 turns: the fewest cards in hand win.",
        "You and Clara share the win after 3 turns.",
        "Cards left: 2, 2, 2",
    ]


FOUR_SEATS = ("russian-4", "polish-4")
# Russian rules with many throw-ins: weak hands as dealt, four nines or jacks after the exchange.
THROWING = attrs.evolve(
    RUSSIAN,
    redeal_weak_hand=40,
    redeal_nines=Redeal.AFTER_EXCHANGE,
    redeal_jacks=Redeal.AFTER_EXCHANGE,
    max_deals=12,
)


@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_each_deal_names_who_sits_out_and_what_the_talon_gives_them(preset: str) -> None:
    record = thousand_record(preset, 1, False)
    final = thousand.replay(record)
    names = NAMES[:4]
    deals = by_deal(replay_lines(record, names))
    assert len(deals) == len(final.deals)
    for lines, deal in zip(deals, final.deals, strict=True):
        sitter = deal.layout.sitter
        assert sitter is not None
        assert f"  {names[sitter]} sits out this deal." in lines
        assert not any(line.startswith(f"  {names[sitter]} holds") for line in lines)
        if deal.contract is not None or deal.conceded:
            bonus = deal.deal_scores[sitter]
            assert f"  Sitting out, {names[sitter]} scores {bonus} for it" in " ".join(lines)
            assert f"  {names[sitter]} sat out: {bonus:+d} for the talon." in lines


@pytest.mark.parametrize("preset", FOUR_SEATS)
def test_the_sitter_is_told_the_deal_plays_on_without_them(preset: str) -> None:
    record = thousand_record(preset, 2, True)
    result = thousand.replay(record).result
    assert isinstance(result, DealResult)
    sitter = result.layout.sitter
    assert sitter is not None
    lines = replay_lines(record, NAMES[:4], viewer=sitter)
    assert "  You sit out this deal: it plays on without you." in lines
    assert not any(line.startswith("  You hold") for line in lines)
    assert thousand_cards(lines) <= {
        card for states in deal_states(record) for card in thousand_seen(states, sitter)
    }


def test_the_forehand_follows_the_gold_set() -> None:
    rules = attrs.evolve(RUSSIAN, gold_set=2)
    record = thousand.play(["greedy"] * 3, rules, seed=3).record
    committed = [line for line in replay_lines(record, NAMES[:3]) if "is committed to" in line]
    assert "committed to 120 (a gold-set deal, 1 of 2)" in committed[0]
    assert "committed to 120 (a gold-set deal, 2 of 2)" in committed[1]
    assert all("committed to 100;" in line for line in committed[2:])


@functools.cache
def throwing_record(seed: int, single_deal: bool = False) -> Record:
    record = thousand.play(["random"] * 3, THROWING, seed=seed, single_deal=single_deal).record
    assert isinstance(record, Record)
    return record


@pytest.mark.parametrize("seed", range(10))
def test_thrown_in_deals_are_told_with_their_reason(seed: int) -> None:
    record = throwing_record(seed)
    final = thousand.replay(record)
    for viewer in (None, 0):
        lines = replay_lines(record, NAMES[:3], viewer=viewer)
        deals = by_deal(lines)
        assert len(deals) == len(final.deals)
        for told, deal in zip(deals, final.deals, strict=True):
            thrown = [line for line in told if "The deal is thrown in:" in line]
            if deal.thrown_in is None:
                assert not thrown
                continue
            name = "you" if viewer == deal.thrown_in.seat else NAMES[deal.thrown_in.seat]
            verb = "hold" if name == "you" else "holds"
            assert thrown == [
                f"  The deal is thrown in: {name} {verb} {held(deal.thrown_in)}, and nobody scores."
            ]
        assert numbers(lines[-1], "Final scores: ") == list(final.result.scores)  # type: ignore[union-attr]


def test_throw_ins_after_the_exchange_and_as_dealt_are_both_told() -> None:
    told = "\n".join(
        line for seed in range(10) for line in replay_lines(throwing_record(seed), NAMES[:3])
    )
    assert "a weak hand as dealt, and nobody scores." in told
    assert re.search(r"holds four (nines|jacks) after the exchange, and nobody scores\.", told)


def test_a_single_deal_thrown_in_as_dealt_is_told_with_its_cards() -> None:
    record = throwing_record(0, single_deal=True)
    assert record.deals[0].actions == ()
    lines = replay_lines(record, NAMES[:3])
    assert lines[2] == "Deal 1, dealt by Anna"
    assert lines[-3].startswith("  The deal is thrown in: ")
    assert lines[-1] == "Deal scores: 0, 0, 0"
    assert len(thousand_cards(lines)) == 24


def test_bolts_and_falls_are_counted_aloud() -> None:
    rules = attrs.evolve(RUSSIAN, bolts=2, barrel_reset_falls=2)
    lines = replay_lines(thousand.play(["greedy"] * 3, rules, seed=1).record, NAMES[:3])
    assert any(
        re.fullmatch(r"  \w+ takes a bolt: 1 of 2 towards a penalty\.", line) for line in lines
    )
    assert any(re.fullmatch(r"  \w+ takes a second bolt and loses 120\.", line) for line in lines)
    assert any(line.startswith("  Bolts: Anna ") for line in lines)
