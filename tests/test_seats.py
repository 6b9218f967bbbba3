"""Seats: the seating designs the schedule plays (what each balances), and the seat and
next-seat figures of the summary, checked against a direct count."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from tests.test_stats import unit
from tournament.runner.balanced_seatings import seatings
from tournament.runner.display import seat_role
from tournament.runner.summary import summarize
from tournament.runner.unit_results import UnitResult

SIZES = {2: 2, 3: 6, 4: 24, 5: 20, 6: 30}


@pytest.mark.parametrize("players", sorted(SIZES))
def test_every_bot_holds_every_seat_equally_often(players: int) -> None:
    design = seatings(players)
    assert len(design) == SIZES[players]
    assert len(set(design)) == len(design)
    assert all(sorted(seating) == list(range(players)) for seating in design)
    held = Counter((seat, bot) for seating in design for seat, bot in enumerate(seating))
    assert set(held.values()) == {len(design) // players}
    assert len(held) == players * players


@pytest.mark.parametrize("players", sorted(SIZES))
def test_every_bot_sits_at_every_distance_after_every_other_equally_often(players: int) -> None:
    design = seatings(players)
    for distance in range(1, players):
        after = Counter(
            (seating[seat], seating[(seat + distance) % players])
            for seating in design
            for seat in range(players)
        )
        assert len(after) == players * (players - 1)
        assert set(after.values()) == {len(design) // (players - 1)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_small_tables_play_every_seating(players: int) -> None:
    assert seatings(players) == tuple(itertools.permutations(range(players)))


def test_at_five_every_pair_of_bots_holds_every_pair_of_seats_once() -> None:
    design = seatings(5)
    for first, second in itertools.permutations(range(5), 2):
        pairs = Counter((seating[first], seating[second]) for seating in design)
        assert len(pairs) == 20
        assert set(pairs.values()) == {1}


@pytest.mark.parametrize("players", [0, 1, 7])
def test_no_design_for_tables_the_games_do_not_have(players: int) -> None:
    with pytest.raises(ValueError, match="a table seats 2 to 6 players"):
        seatings(players)


def test_seat_roles_name_the_dealer_and_the_order_of_play() -> None:
    assert [seat_role("thousand", seat, 3) for seat in range(3)] == [
        "dealer",
        "forehand",
        "second hand",
    ]
    assert [seat_role("thousand", seat, 2) for seat in range(2)] == ["dealer", "forehand"]
    assert [seat_role("bluff", seat, 4) for seat in range(4)] == [
        "dealer, plays last",
        "plays first",
        "plays second",
        "plays third",
    ]
    assert [seat_role("bluff", seat, 2) for seat in range(2)] == ["dealer", "plays first"]


# The summary's seat figures


def two_units() -> list[UnitResult]:
    """One group of two units worked by hand below."""
    return [
        unit("a", (0, 1, 2), (10, 40, -20)),
        unit("b", (1, 2, 0), (0, 60, 90)),
    ]


def test_seat_advantage_by_hand() -> None:
    """Unit a: mean 10, seats 0, +30, -30; unit b: mean 50, seats -50, +10, +40."""
    summary = summarize(two_units(), ["x", "y", "z"], format="deals", seed=1, resamples=0)
    assert [seat.advantage for seat in summary.seats] == [-25.0, 20.0, 5.0]
    assert [seat.units for seat in summary.seats] == [2, 2, 2]
    assert [seat.win_rate for seat in summary.seats] == [0.0, 0.5, 0.5]
    assert all(seat.advantage_interval is None for seat in summary.seats)


def test_next_seat_by_hand() -> None:
    """x: the next seat scores 40 against -20 (unit a), then 0 against 60 (unit b): 0 on
    average; y: -20 against 10, then 60 against 90: -30; z: 10 against 40, then 90 against
    0: +30."""
    summary = summarize(two_units(), ["x", "y", "z"], format="deals", seed=1, resamples=0)
    by_name = {standing.name: standing.next_seat for standing in summary.standings}
    assert by_name == {"x": 0.0, "y": -30.0, "z": 30.0}


def test_no_next_seat_at_tables_of_two() -> None:
    results = [unit("a", (0, 1), (30, -10)), unit("b", (1, 0), (5, 5))]
    summary = summarize(results, ["x", "y"], format="deals", seed=1)
    assert all(standing.next_seat is None for standing in summary.standings)
    assert all(standing.next_seat_interval is None for standing in summary.standings)
    assert [seat.advantage for seat in summary.seats] == [10.0, -10.0]


def random_tournament(rng: random.Random, players: int, entrants: int) -> list[UnitResult]:
    """Every table of the entrants plays groups under its design with random scores."""
    results = []
    for table_number, table in enumerate(itertools.combinations(range(entrants), players)):
        for group in range(6):
            for order, design in enumerate(seatings(players)):
                seating = tuple(table[bot] for bot in design)
                scores = [rng.randint(-120, 200) for _ in seating]
                name = f"t{table_number}-d{group}-s{order}"
                results.append(unit(name, seating, scores, table=table_number, group=group))
    return results


@pytest.mark.parametrize(("players", "entrants"), [(3, 4), (4, 5), (2, 3)])
def test_seat_and_next_seat_figures_match_a_direct_count(players: int, entrants: int) -> None:
    results = random_tournament(random.Random(players), players, entrants)
    summary = summarize(results, [f"bot{n}" for n in range(entrants)], format="deals", seed=2)
    for seat in summary.seats:
        gaps = [
            Fraction(result.scores[seat.seat]) - Fraction(sum(result.scores), players)
            for result in results
        ]
        assert seat.advantage == pytest.approx(float(sum(gaps) / len(gaps)), abs=1e-6)
        assert seat.units == len(results)
        winners = [
            Fraction(1, result.places.count(1))
            for result in results
            if result.places[seat.seat] == 1
        ]
        assert seat.win_rate == pytest.approx(float(sum(winners) / len(results)), abs=1e-6)
        low, high = seat.advantage_interval or (math.inf, -math.inf)
        assert low <= seat.advantage <= high
    assert sum(seat.advantage or 0 for seat in summary.seats) == pytest.approx(0, abs=1e-5)
    for standing in summary.standings:
        if players == 2:
            assert standing.next_seat is None
            continue
        gaps = []
        for result in results:
            if standing.entrant in result.seating:
                seat = result.seating.index(standing.entrant)
                after = (seat + 1) % players
                rest = [
                    score for other, score in enumerate(result.scores) if other not in (seat, after)
                ]
                gaps.append(Fraction(result.scores[after]) - Fraction(sum(rest), len(rest)))
        assert standing.next_seat == pytest.approx(float(sum(gaps) / len(gaps)), abs=1e-6)
        low, high = standing.next_seat_interval or (math.inf, -math.inf)
        assert low <= (standing.next_seat or 0) <= high


def test_seats_are_in_the_summary_json() -> None:
    summary = summarize(two_units(), ["x", "y", "z"], format="deals", seed=1, resamples=20)
    data = summary.to_dict()
    assert [seat["seat"] for seat in data["seats"]] == [0, 1, 2]
    assert set(data["seats"][0]) == {"seat", "units", "advantage", "advantage_interval", "win_rate"}
    assert {"next_seat", "next_seat_interval"} <= set(data["standings"][0])
