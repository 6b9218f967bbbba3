"""The stepped match: its host asks who is to act, shows that seat its observation and submits
the answer with the time it took; the match keeps the rules of fair play that ``thousand.play``
applies (faults, forfeits, substitutes, time limits and quotas), and many can be held at once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import attrs
import pytest

import thousand
from thousand import (
    BotCrash,
    BotTimeout,
    FaultPolicy,
    Rules,
    Status,
    TurnError,
    bluff,
    resume_match,
    start_match,
)
from thousand.bots import RandomPlayer
from thousand.common.history import history_tuple
from thousand.games import game_of
from thousand.table.driver import player_seed
from thousand.table.match import Played

RULES: list[Rules | bluff.Rules] = [
    Rules.preset("russian"),
    Rules.preset("polish-2p"),
    Rules.preset("russian-4"),
    bluff.Rules(players=3),
]
RUSSIAN = Rules.preset("russian")


def seated(rules: Rules | bluff.Rules, seed: int) -> list[RandomPlayer]:
    """Random players started as ``thousand.play`` starts them for a match of ``seed``."""
    players = [RandomPlayer() for _ in range(rules.players)]
    for seat, player in enumerate(players):
        player.start(seat, rules, random.Random(player_seed(seed, seat)))
    return players


def moves(record: Any) -> dict[str, Any]:
    """A record's JSON data but for the names of its players."""
    return {key: value for key, value in record.to_dict().items() if key != "players"}


def stepped(match: Any, players: list[RandomPlayer]) -> None:
    """Step ``match`` to its end, each seat answered by its player in a millisecond."""
    seat = match.to_act
    while seat is not None:
        seat = match.submit(seat, players[seat].act(match.observation()), elapsed=0.001)


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: f"{game_of(rules).name}-{rules.players}")
def test_a_stepped_match_is_the_match_play_plays(rules: Rules | bluff.Rules) -> None:
    """Stepped by hand with the same players, a match ends as ``thousand.play`` plays it."""
    for seed in range(3):
        names = [f"random#{seat}" for seat in range(rules.players)]
        match = start_match(rules, seed=seed, names=names)
        stepped(match, seated(rules, seed))
        played = thousand.play([RandomPlayer() for _ in names], rules, seed=seed)
        outcome = match.outcome()
        assert match.is_over
        assert moves(outcome.record) == moves(played.record)
        assert outcome.scores == played.scores
        assert outcome.places == played.places
        assert outcome.decisions == played.decisions
        assert match.record().players == tuple(names)


def test_only_the_seat_to_act_may_answer() -> None:
    """An answer from another seat, or after the end, is refused and changes nothing."""
    match = start_match(RUSSIAN, seed=1, single_deal=True)
    seat = match.to_act
    assert seat is not None
    other = (seat + 1) % 3
    before = match.state
    with pytest.raises(TurnError, match=f"seat {other} answered, but seat {seat} is to act"):
        match.submit(other, match.observation().legal_actions[0])
    assert match.state is before
    assert match.decisions == [0, 0, 0]
    with pytest.raises(TurnError, match=f"the match is not over: seat {seat} is to act"):
        match.outcome()
    stepped(match, seated(RUSSIAN, 1))
    with pytest.raises(TurnError, match="the match is over"):
        match.submit(0, "pass")
    with pytest.raises(TurnError, match="seat -1 answered, but the match is over"):
        match.submit(-1, "pass")
    with pytest.raises(TurnError, match="the match is over"):
        match.observation()


def test_an_illegal_answer_is_a_fault_named_as_play_names_it() -> None:
    """A text instead of an action is the seat's fault; under substitute the match plays on."""
    match = start_match(RUSSIAN, seed=2, single_deal=True, on_fault="substitute")
    seat = match.to_act
    assert seat is not None
    after = match.submit(seat, "bid 100")
    (fault,) = match.faults
    assert fault.status is Status.ILLEGAL
    assert fault.detail == "answered 'bid 100' (text, not an action), not one of its legal actions"
    assert match.substitutions[seat] == 1
    assert after == match.to_act


def test_an_answer_past_the_time_limit_is_a_timeout() -> None:
    """An answer reported after more than the time limit is not played: the seat forfeits."""
    match = start_match(RUSSIAN, seed=3, single_deal=True, time_limit=1.0)
    seat = match.to_act
    assert seat is not None
    assert match.allowed() == 1.0
    assert match.submit(seat, match.observation().legal_actions[0], elapsed=1.5) is None
    (fault,) = match.faults
    assert (fault.status, fault.detail) == (Status.TIMEOUT, "took 1.500 s, more than 1.000 s")
    assert match.forfeited == seat
    assert match.outcome().think_time[seat] == 1.5


def test_a_seat_that_uses_up_its_quota_is_played_for() -> None:
    """Over its quota a seat is out of the match and played for to the end."""
    match = start_match(
        RUSSIAN, seed=4, single_deal=True, time_quota=1.0, on_fault=FaultPolicy.SUBSTITUTE
    )
    players = seated(RUSSIAN, 4)
    slow = match.to_act
    assert slow is not None
    seat: int | None = slow
    while seat is not None:
        spent = 0.6 if seat == slow else 0.01
        seat = match.submit(seat, players[seat].act(match.observation()), elapsed=spent)
    outcome = match.outcome()
    assert [fault.detail for fault in outcome.faults] == ["used up its time quota of 1.000 s"]
    assert outcome.decisions[slow] == 2
    assert outcome.substitutions[slow] > 0
    assert match.gone[slow]


def test_without_a_reported_time_the_given_clock_times_a_decision() -> None:
    """With a clock, a decision is timed from when it was posed to its answer."""
    now = [100.0]
    match = start_match(RUSSIAN, seed=5, single_deal=True, time_limit=2.0, clock=lambda: now[0])
    seat = match.to_act
    assert seat is not None
    now[0] += 0.5
    seat = match.submit(seat, match.observation().legal_actions[0])
    assert seat is not None
    assert sum(match.think_time) == 0.5
    now[0] += 3.0
    assert match.submit(seat, match.observation().legal_actions[0]) is None
    assert match.faults[0].status is Status.TIMEOUT


def test_a_reported_failure_is_a_fault_and_a_fatal_one_puts_the_seat_out() -> None:
    """What the host reports the seat could not answer for is its fault; a crash of its program
    puts it out of the match, and it is played for."""
    match = start_match(RUSSIAN, seed=6, single_deal=True, on_fault="substitute")
    seat = match.to_act
    assert seat is not None
    match.fail(seat, BotTimeout("did not answer"), elapsed=0.2)
    turn = match.to_act
    assert turn is not None
    match.fail(turn, BotCrash("exited", fatal=True))
    statuses = [fault.status for fault in match.faults]
    assert statuses == [Status.TIMEOUT, Status.ERROR]
    assert match.gone[turn]
    stepped_seats = set()
    while (now := match.to_act) is not None:
        stepped_seats.add(now)
        match.submit(now, match.observation().legal_actions[0])
    assert turn not in stepped_seats


def test_a_seat_that_fails_to_start_is_played_for_all_match_long() -> None:
    """Under the substitute policy a seat that failed to start is never awaited."""
    match = start_match(RUSSIAN, seed=7, single_deal=True, on_fault="substitute")
    match.fail_to_start(1, RuntimeError("no model"))
    (fault,) = match.faults
    assert fault.detail == "failed to start: raised RuntimeError: no model"
    while (seat := match.to_act) is not None:
        assert seat != 1
        match.submit(seat, match.observation().legal_actions[0])
    assert match.outcome().decisions[1] == 0


def test_forced_decisions_of_a_skipping_seat_are_played_for_it() -> None:
    """A seat that skips forced decisions is only awaited where it has a choice."""
    match = start_match(RUSSIAN, seed=8, single_deal=True, skip_forced=[True, False, False])
    while (seat := match.to_act) is not None:
        choices = match.observation().legal_actions
        assert seat != 0 or len(choices) > 1
        match.submit(seat, choices[0])
    assert match.is_over


def test_a_match_resumes_from_its_record() -> None:
    """A match stopped midway resumes from its record and ends as it would have."""
    players = seated(RUSSIAN, 9)
    whole = start_match(RUSSIAN, seed=9, names=["a", "b", "c"])
    stepped(whole, players)
    half = start_match(RUSSIAN, seed=9, names=["a", "b", "c"])
    again = seated(RUSSIAN, 9)
    for _ in range(120):
        seat = half.to_act
        assert seat is not None
        half.submit(seat, again[seat].act(half.observation()))
    resumed = resume_match(half.record())
    assert resumed.record().players == ("a", "b", "c")
    stepped(resumed, again)
    assert moves(resumed.record()) == moves(whole.record())
    assert resumed.outcome().scores == whole.outcome().scores


class Misbehaving(RandomPlayer):
    """A random player that, at its first decision, takes too long, answers with text or
    raises, as ``how`` says (without drawing from its generator); then it plays on at random."""

    def __init__(self, how: str) -> None:
        super().__init__()
        self.how = how
        self.first = True

    def act(self, observation: Any) -> object:
        if not self.first:
            return super().act(observation)
        self.first = False
        if self.how == "slow":
            raise BotTimeout("took more than 1.000 s")
        if self.how == "crash":
            raise RuntimeError("boom")
        return "bid 100"


MISDEEDS = ("none", "slow", "illegal", "crash")
"""What one seat of a match does wrong at its first decision, by the match's seed."""


def test_an_event_loop_holds_a_thousand_matches_at_once() -> None:
    """A thousand matches stepped as tasks of one asyncio loop, each answer after a pause and
    timed by the match's own fake clock: a seat that runs over its time, answers with text or
    fails is substituted, and every match ends as ``thousand.play`` plays it with players that
    do the same (the moves, the scores, the statuses and the faults)."""
    seeds = range(1000)
    clocks = dict.fromkeys(seeds, 0.0)

    async def host(seed: int) -> thousand.Outcome:
        match = start_match(
            RUSSIAN, seed=seed, single_deal=True, time_limit=1.0, on_fault="substitute",
            clock=lambda: clocks[seed],
        )  # fmt: skip
        players = seated(RUSSIAN, seed)
        misdeed, culprit = MISDEEDS[seed % 4], seed % 3
        seat = match.to_act
        while seat is not None:
            await asyncio.sleep(0)
            if seat == culprit and misdeed != "none":
                if misdeed == "slow":
                    clocks[seed] += 1.5
                    seat = match.submit(seat, match.observation().legal_actions[0])
                elif misdeed == "illegal":
                    clocks[seed] += 0.01
                    seat = match.submit(seat, "bid 100")
                else:
                    seat = match.fail(seat, RuntimeError("boom"), elapsed=0.01)
                misdeed = "none"
                continue
            answer = players[seat].act(match.observation())
            clocks[seed] += 0.01
            seat = match.submit(seat, answer)
        return match.outcome()

    async def all_of_them() -> list[thousand.Outcome]:
        return await asyncio.gather(*(host(seed) for seed in seeds))

    outcomes = asyncio.run(all_of_them())
    statuses = set()
    for seed, outcome in zip(seeds, outcomes, strict=True):
        misdeed, culprit = MISDEEDS[seed % 4], seed % 3
        bots: list[RandomPlayer] = [RandomPlayer() for _ in range(3)]
        if misdeed != "none":
            bots[culprit] = Misbehaving(misdeed)
        played = thousand.play(bots, RUSSIAN, seed=seed, single_deal=True, on_fault="substitute")
        assert moves(outcome.record) == moves(played.record)
        assert outcome.scores == played.scores
        assert outcome.statuses == played.statuses
        assert outcome.substitutions == played.substitutions
        assert [fault.status for fault in outcome.faults] == [
            fault.status for fault in played.faults
        ]
        statuses.update(fault.status for fault in outcome.faults)
    assert statuses == {Status.TIMEOUT, Status.ILLEGAL, Status.ERROR}


RULES_CUT: list[Rules | bluff.Rules] = [
    attrs.evolve(rules, max_deals=6) if isinstance(rules, Rules) else rules for rules in RULES
]


@pytest.mark.parametrize(
    "rules", RULES_CUT, ids=lambda rules: f"{game_of(rules).name}-{rules.players}"
)
def test_listeners_are_told_each_action_as_their_seat_sees_it(
    rules: Rules | bluff.Rules,
) -> None:
    """A listener of each seat is told every action, the substitutes' and the forced ones
    included, with its own cards and the cards given to it in full: at every decision the tail
    of what a seat was told is its observation's history. A spectator is told the public
    history, which hides every card given, laid aside or played face down."""
    skip = [seat == 1 for seat in range(rules.players)]
    match = start_match(rules, seed=5, on_fault="substitute", skip_forced=skip)
    told: dict[int | None, list[Any]] = {seat: [] for seat in [None, *range(rules.players)]}
    for viewer, steps in told.items():
        match.listen(steps.append, viewer)
    players = seated(rules, 5)
    game = game_of(rules)
    seat = match.to_act
    while seat is not None:
        for viewer, steps in told.items():
            if viewer is None:
                seen = history_tuple(match.state.history)
            else:
                seen = game.seen_from(match.state, viewer).history
            tail = [(step.seat, step.action) for step in steps[len(steps) - len(seen) :]]
            # A card played face down in 1000? is turned up when challenged, after it was told.
            now_hidden = [(who, game.seen_action(action, who, viewer)) for who, action in seen]
            assert tail == now_hidden, viewer
        answer = "nonsense" if seat == 0 and len(told[None]) % 7 == 3 else None
        if answer is None:
            answer = players[seat].act(match.observation())
        seat = match.submit(seat, answer, elapsed=0.0)
    final = told[None]
    assert [step.number for step in final] == list(range(game.actions_played(match.state)))
    played = {step.played for step in final}
    assert {Played.ANSWER, Played.SUBSTITUTE} <= played
    # Seat 1 skips its forced decisions; a Thousand deal gives it some (the talon taken...).
    assert Played.FORCED in played or not game.has_deals
    hidden = [step.action for step in final if "??" in str(step.action)]
    assert hidden, "every game here hides some card from the onlookers"
    for viewer in range(rules.players):
        mine = [step for step in told[viewer] if step.seat == viewer]
        assert all("??" not in str(step.action) for step in mine)


def test_a_listener_of_no_such_seat_is_refused() -> None:
    match = start_match(RUSSIAN, seed=1)
    with pytest.raises(thousand.SeatError, match="no seat 3"):
        match.listen(print, 3)
