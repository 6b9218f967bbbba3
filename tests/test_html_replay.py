"""The HTML replay page: frames computed from a record, a self-contained page, and the page
stepping through every action in a real headless Chromium."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Sequence
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import attrs
import pytest

import thousand
from tests.browser import browser_page, chromium, file_url, watch_errors  # noqa: F401
from thousand import RecordError, Rules, bluff
from thousand.classic.rules import Redeal
from thousand.frontends.faces import bluff_face, face, sorted_hand
from thousand.frontends.html_replay import Frame, frames, html_page
from thousand.frontends.narration import (
    WIDTH,
    bluff_event,
    bluff_start,
    header,
    thousand_event,
    thousand_start,
)

AnyRecord = thousand.Record | bluff.Record


@cache
def thousand_game(
    preset: str, seed: int, single_deal: bool, max_deals: int | None = None
) -> tuple[thousand.Record, tuple[thousand.GameState, ...]]:
    """A game of bots: its record (without the players' names, so that the page calls the
    seats ``seat 0``, ``seat 1``...), and every state it went through (the start, then one per
    action). A match stops after ``max_deals`` deals when given."""
    rules = Rules.preset(preset)
    if max_deals is not None:
        rules = attrs.evolve(rules, max_deals=max_deals)
    # The four-seat games are played by random bots.
    bots = ["greedy" if rules.players < 4 else "random"] + ["random"] * (rules.players - 1)
    states: list[thousand.GameState] = []
    record = thousand.play(
        bots, rules, seed=seed, single_deal=single_deal, watch=states.append
    ).record
    assert isinstance(record, thousand.Record)
    return attrs.evolve(record, players=None), tuple(states)


def thousand_record(preset: str, seed: int, single_deal: bool) -> thousand.Record:
    return thousand_game(preset, seed, single_deal)[0]


@cache
def bluff_game(players: int, seed: int) -> tuple[bluff.Record, tuple[bluff.State, ...]]:
    states: list[bluff.State] = []
    rules = bluff.Rules(players=players)
    record = thousand.play(["random"] * players, rules, seed=seed, watch=states.append).record
    assert isinstance(record, bluff.Record)
    return attrs.evolve(record, players=None), tuple(states)


def bluff_record(players: int, seed: int) -> bluff.Record:
    return bluff_game(players, seed)[0]


# A whole Russian match (11 deals, 218 actions, marriages and concessions included), single
# deals under the other presets, and 1000? at three and four players.
GAMES: dict[str, Callable[[], tuple[AnyRecord, tuple[Any, ...]]]] = {
    "russian match": lambda: thousand_game("russian", 35, False),
    "russian deal": lambda: thousand_game("russian", 5, True),
    "polish deal": lambda: thousand_game("polish", 3, True),
    "polish-2p deal": lambda: thousand_game("polish-2p", 4, True),
    "russian-4 deal": lambda: thousand_game("russian-4", 2, True),
    "1000? for 3": lambda: bluff_game(3, 0),
    "1000? for 4": lambda: bluff_game(4, 4),
}


# The browser steps through each page forwards and back, so there the games are shorter: the
# match one of 3 deals, adjudicated at its end (47 frames, not 219; marriages and concessions
# included), and 1000? for 4 a game of 43 turns, not 77 (every kind of action included).
BROWSED = {
    **GAMES,
    "russian match": lambda: thousand_game("russian", 17, False, max_deals=3),
    "1000? for 4": lambda: bluff_game(4, 10),
}


def record_of(name: str) -> AnyRecord:
    return GAMES[name]()[0]


def actions_of(record: AnyRecord) -> list[tuple[int, Any]]:
    if isinstance(record, thousand.Record):
        return [pair for deal in record.deals for pair in deal.actions]
    return list(record.actions)


def final_result(record: AnyRecord) -> tuple[list[int], list[int]]:
    """The scores and winners the page must end with, from the record and from a replay."""
    if isinstance(record, thousand.Record):
        result = thousand.replay(record).result
        assert result is not None
        assert record.result is not None
        assert list(result.scores) == record.result["scores"]
        winners = list(result.winners) if isinstance(result, thousand.MatchResult) else []
        return list(result.scores), winners
    final = bluff.replay(record).result
    assert final is not None
    assert record.result is not None
    assert list(final.hand_sizes) == record.result["hand_sizes"]
    assert list(final.winners) == record.result["winners"]
    return list(final.hand_sizes), list(final.winners)


def told(states: Sequence[Any], names: list[str]) -> list[list[str]]:
    """What the narration says at the start and after each action of a game that went through
    ``states``, every card shown, with every line whole (not wrapped)."""
    if isinstance(states[0], thousand.GameState):
        stories = [thousand_start(states[0], names, width=None)]
        for before, after in pairwise(states):
            stories.append(thousand_event(before, after, names, width=None))
        return stories
    stories = [bluff_start(states[0], names, width=None)]
    for before, after in pairwise(states):
        stories.append(bluff_event(before, after, names, width=None))
    return stories


def dealt_hands(record: AnyRecord) -> list[list[tuple[str, bool]]]:
    """Each seat's starting hand as the page must show it: sorted faces, red suits marked."""
    red = (thousand.Suit.HEARTS, thousand.Suit.DIAMONDS)
    if isinstance(record, thousand.Record):
        return [
            [(face(card), card.suit in red) for card in sorted_hand(hand)]
            for hand in record.deals[0].layout.hands
        ]
    start = bluff.new_game(
        record.rules, seed=record.seed, layout=record.layout, dealer=record.dealer
    )
    return [
        [(bluff_face(card), False) for card in sorted(hand, key=lambda card: card.value)]
        for hand in start.hands
    ]


# Frames, without a browser ---------------------------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_one_frame_per_action_ending_with_the_recorded_result(name: str) -> None:
    record = record_of(name)
    steps = frames(record)
    actions = actions_of(record)
    assert len(steps) == len(actions) + 1
    scores, winners = final_result(record)
    assert list(steps[-1].scores) == scores
    assert list(steps[-1].winners) == winners
    assert all(not step.winners for step in steps[:-1])
    for (seat, _), step in zip(actions, steps[1:], strict=True):
        assert f"seat {seat} " in step.description
        assert step.view["a"] == seat


@pytest.mark.parametrize("name", list(GAMES))
def test_each_description_is_the_narration_of_its_step(name: str) -> None:
    record, states = GAMES[name]()
    names = [f"seat {seat}" for seat in range(record.rules.players)]
    steps = frames(record)
    stories = told(states, names)
    assert len(stories) == len(steps)
    for story, step in zip(stories, steps, strict=True):
        assert step.description.split("\n") == [line.strip() for line in story]


def test_long_names_leave_each_line_whole() -> None:
    """The narration wraps long lines for a terminal; the page keeps each line whole."""
    record, states = thousand_game("polish-2p", 4, True)
    names = ["Anastasia Konstantinovna " + "x" * 70, "Bartholomew " + "y" * 80]
    steps = frames(record, names)
    for story, step in zip(told(states, names), steps, strict=True):
        assert step.description.split("\n") == [line.strip() for line in story]
    assert max(len(line) for step in steps for line in step.description.split("\n")) > WIDTH


def test_thousand_descriptions_name_the_bids_marriages_and_deal_ends() -> None:
    record = thousand_record("russian", 35, False)
    steps = frames(record)
    deal_ends = 0
    marriages = 0
    for (seat, action), step in zip(actions_of(record), steps[1:], strict=True):
        first = step.description.split("\n")[0]
        if isinstance(action, thousand.Bid):
            assert first == f"seat {seat} bids {action.amount}"
        elif isinstance(action, thousand.Pass):
            assert first == f"seat {seat} passes"
        elif isinstance(action, thousand.Give):
            assert action.card is not None
            assert first == f"seat {seat} gives {face(action.card)} to seat {action.to}"
        elif isinstance(action, thousand.Contract):
            assert first == f"seat {seat} fixes the contract at {action.amount}"
        elif isinstance(action, thousand.Concede):
            assert first.startswith(f"seat {seat} concedes the deal (bid ")
        elif isinstance(action, thousand.Play):
            played = re.escape(face(action.card))
            assert re.fullmatch(
                rf"(Trick \d+: seat {seat} leads|seat {seat} plays) {played}.*", first
            )
            if action.marriage:
                marriages += 1
                suit = action.card.suit
                points = {"♠": 40, "♣": 60, "♦": 80, "♥": 100}[suit.symbol]
                assert first.endswith(
                    f" and declares the {suit.symbol} marriage ({points}): trump is {suit.symbol}"
                )
        deal_ends += "\nThis deal: " in step.description
    assert marriages > 0
    assert deal_ends == len(record.deals)
    last = steps[-1].description.split("\n")
    assert f"seat 0 wins the match after {len(record.deals)} deals." in last
    assert last[-1] == "Final scores: " + ", ".join(str(score) for score in steps[-1].scores)


def test_a_finished_trick_and_deal_stay_visible_with_the_scores_they_left() -> None:
    record = thousand_record("russian", 35, False)
    state = thousand.replay(record)
    steps = frames(record)
    ends = [index for index, step in enumerate(steps) if "\nThis deal: " in step.description]
    assert [steps[index].scores for index in ends] == [deal.scores for deal in state.deals]
    played = [
        (index, deal) for index, deal in zip(ends, state.deals, strict=True) if not deal.conceded
    ]
    assert played
    for index, deal in played:
        view = steps[index].view
        assert all(hand == [] for hand, _ in view["s"])
        rows = dict(view["t"])
        taker = re.search(r"^(seat \d) wins the trick", steps[index].description, re.M)
        assert taker is not None
        assert rows["Trick"][-1] == f"→ {taker.group(1)} takes it"
        assert len([card for card in rows["Trick"] if isinstance(card, int)]) == 3
        notes = [f"deal {score:+d}" if score else "deal 0" for score in deal.deal_scores]
        assert [note.split(",")[0] for note in view["x"]] == notes


def test_bluff_descriptions_tell_draws_and_challenges() -> None:
    record = bluff_record(3, 3)
    steps = frames(record)
    challenges = draws = 0
    for (seat, action), step in zip(actions_of(record), steps[1:], strict=True):
        text = step.description
        if isinstance(action, bluff.Challenge):
            challenges += 1
            assert re.match(rf"seat {seat} challenges: seat \d's card is \[\w+\], ", text)
            assert text.split("\n")[0].endswith((", a bluff.", ", an honest card."))
        elif isinstance(action, bluff.Hide):
            assert action.card is not None
            assert text.startswith(f"seat {seat} plays {bluff_face(action.card)} face down on ")
        elif isinstance(action, bluff.Pass):
            drawn = re.search(rf"^seat {seat} passes and draws (\[\w+\])\.$", text, re.M)
            draws += drawn is not None
    assert challenges > 0
    assert draws > 0
    assert re.search(r"^seat \d wins the game after \d+ turns\.$", steps[-1].description, re.M)


def test_names_must_name_every_seat() -> None:
    record = thousand_record("russian", 5, True)
    assert frames(record, ["ann", "bob", "cy"])[1].description.startswith("cy ")
    with pytest.raises(ValueError, match="3 seats but 2 names"):
        html_page(record, ["ann", "bob"])


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = thousand_record("polish", 3, True)
    wrong = attrs.evolve(record, result={"deal_scores": [1, 2, 3], "scores": [1, 2, 3]})
    with pytest.raises(RecordError):
        html_page(wrong)


# The page, without a browser -------------------------------------------------------------------


def embedded_data(page: str) -> dict[str, Any]:
    found = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S
    )
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.mark.parametrize("name", list(GAMES))
def test_the_page_needs_nothing_from_outside(name: str) -> None:
    page = html_page(record_of(name))
    assert page.startswith("<!DOCTYPE html>")
    for pattern in (r"https?://", r"\bsrc\s*=", r"\bhref\s*=", r"@import", r"url\(", r"//cdn"):
        assert re.search(pattern, page, re.I) is None, pattern
    assert page.count("<script") == 2
    assert '<script type="application/json" id="replay-data">' in page


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("russian match", "Thousand (russian rules), a match to 1000: seat 0, seat 1 and seat 2"),
        ("polish-2p deal", "Thousand (polish-2p rules), a single deal: seat 0 and seat 1"),
        ("1000? for 3", "1000? for 3 players: seat 0, seat 1 and seat 2"),
    ],
)
def test_the_header_line_names_the_game_and_players(name: str, line: str) -> None:
    record = record_of(name)
    assert header(record, [f"seat {seat}" for seat in range(record.rules.players)]) == line
    assert f'<p class="summary">{line}</p>' in html_page(record)


def test_hostile_names_and_titles_are_escaped() -> None:
    record = thousand_record("russian", 5, True)
    names = ["</script><b>x", "a & <b>", "<!-- \u2028"]
    title = "</title><script>alert(1)</script>"
    page = html_page(record, names, title=title)
    assert page.count("</script>") == 2
    assert "<b>x" not in page
    assert "<script>alert" not in page
    assert "<!-- " not in page
    assert f"<title>{html.escape(title)}</title>" in page
    data = embedded_data(page)
    assert data["names"] == names
    assert data["frames"][1]["d"] == frames(record, names)[1].description


def test_a_whole_match_page_stays_small() -> None:
    record = thousand_record("polish", 0, False)
    assert len(record.deals) >= 20
    page = html_page(record)
    assert len(page.encode()) < 1_000_000
    assert len(embedded_data(page)["frames"]) == 1 + len(actions_of(record))


# The page in Chromium --------------------------------------------------------------------------

READ = """() => ({
  step: document.getElementById("step").textContent,
  description: document.getElementById("description").textContent,
  rendered: document.getElementById("description").innerText,
  scores: Array.from(document.querySelectorAll("#scores [data-seat]"))
    .map((node) => [Number(node.dataset.seat), Number(node.dataset.score)]),
  winners: Array.from(document.querySelectorAll("#scores .winner"))
    .map((node) => Number(node.dataset.seat)),
})"""
HANDS = """() => Array.from(document.querySelectorAll("#seats .seat")).map((seat) =>
  Array.from(seat.querySelectorAll(".hand .card"))
    .map((card) => [card.textContent, card.classList.contains("red")]))"""
BUTTONS = """() => ["first", "prev", "next", "last"]
  .map((id) => document.getElementById(id).disabled)"""


def shown(step: int, count: int, frame: Frame) -> dict[str, Any]:
    return {
        "step": f"step {step} of {count}",
        "description": frame.description,
        "rendered": frame.description,  # as lines: each narration line on a line of its own
        "scores": [[seat, score] for seat, score in enumerate(frame.scores)],
        "winners": list(frame.winners),
    }


def open_page(page: Any, tmp_path: Path, record: AnyRecord, **options: Any) -> list[str]:
    target = tmp_path / "replay.html"
    target.write_text(html_page(record, **options), encoding="utf-8")
    errors = watch_errors(page)
    page.goto(file_url(target))
    return errors


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BROWSED))
def test_the_page_steps_through_every_action(
    name: str,
    browser_page: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    page = browser_page
    record = BROWSED[name]()[0]
    expected = frames(record)
    count = len(expected) - 1
    errors = open_page(page, tmp_path, record)
    assert page.evaluate(READ) == shown(0, count, expected[0])
    assert page.evaluate(HANDS) == [[list(card) for card in hand] for hand in dealt_hands(record)]
    assert page.evaluate(BUTTONS) == [True, True, False, False]

    for step in range(1, count + 1):
        page.click("#next")
        assert page.evaluate(READ) == shown(step, count, expected[step])
    scores, winners = final_result(record)
    final = page.evaluate(READ)
    assert [score for _, score in final["scores"]] == scores
    assert final["winners"] == winners
    assert page.evaluate(BUTTONS) == [False, False, True, True]

    for step in range(count - 1, -1, -1):
        page.click("#prev")
        assert page.evaluate(READ) == shown(step, count, expected[step])

    page.click("#last")
    assert page.evaluate(READ) == shown(count, count, expected[count])
    page.click("#first")
    assert page.evaluate(READ) == shown(0, count, expected[0])
    page.keyboard.press("ArrowRight")
    assert page.evaluate(READ) == shown(1, count, expected[1])
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(READ) == shown(0, count, expected[0])
    page.keyboard.press("End")
    assert page.evaluate(READ)["step"] == f"step {count} of {count}"
    assert errors == []


def test_hostile_names_show_as_text(
    browser_page: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    page = browser_page
    names = ["</script><b>x", "<img src=x onerror=alert(1)>", "a & b"]
    title = "</title><script>alert(1)</script>"
    record = thousand_record("russian", 5, True)
    errors = open_page(page, tmp_path, record, names=names, title=title)
    assert page.title() == title
    assert (
        page.evaluate("() => document.querySelectorAll('img, #seats b, #description b').length")
        == 0
    )
    labels = page.evaluate(
        "() => Array.from(document.querySelectorAll('#seats .name')).map((n) => n.textContent)"
    )
    assert labels == names
    page.click("#next")
    assert page.text_content("#description") == frames(record, names)[1].description
    assert errors == []


def test_a_four_seat_frame_marks_the_sitter_and_their_bonus() -> None:
    record, states = GAMES["russian-4 deal"]()
    assert isinstance(record, thousand.Record)
    sitter = states[0].sitter
    assert sitter is not None
    steps = frames(record)
    final = thousand.replay(record).result
    assert isinstance(final, thousand.DealResult)
    for step, state in zip(steps, states, strict=True):
        hand, info = step.view["s"][sitter]
        assert hand == []
        assert info.startswith("sits out")
        rows = dict(step.view["t"])
        assert rows["Sitting out"] == [f"seat {sitter}"]
        if state.phase not in (thousand.Phase.AUCTION, thousand.Phase.OVER):
            assert rows["Sitter's bonus"] == [f"{final.deal_scores[sitter]} for seat {sitter}"]
    assert steps[-1].view["x"][sitter] == f"deal {final.deal_scores[sitter]:+d}".replace(
        "deal +0", "deal 0"
    )


def test_thrown_in_deals_show_why_and_keep_one_frame_per_action() -> None:
    rules = attrs.evolve(
        Rules.preset("russian"),
        redeal_weak_hand=40,
        redeal_nines=Redeal.AFTER_EXCHANGE,
        max_deals=12,
    )
    record = thousand.play(["random"] * 3, rules, seed=8).record
    assert isinstance(record, thousand.Record)
    final = thousand.replay(record)
    steps = frames(record)
    assert len(steps) == 1 + len(actions_of(record))
    assert list(steps[-1].scores) == list(final.scores)
    thrown = [deal for deal in final.deals if deal.thrown_in is not None]
    told = "\n".join(step.description for step in steps)
    assert told.count("The deal is thrown in: ") == len(thrown)
    after_exchange = [step for step in steps if dict(step.view["t"]).get("Thrown in") is not None]
    assert after_exchange
    for step in after_exchange:
        assert "deal thrown in" in step.view["g"]
        assert all(note.startswith("deal 0") for note in step.view["x"])
    single = thousand.play(["random"] * 3, rules, seed=0, single_deal=True).record
    (only,) = frames(single)
    rows = dict(only.view["t"])
    assert rows["Auction"] == ["not held"]
    assert rows["Thrown in"][0].endswith("holds a weak hand as dealt")
