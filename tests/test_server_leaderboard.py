"""The server's leaderboard and pages, from groups made by hand: the order the games give, the
anchor held at its rating, the intervals, the provisional mark, and the pages' escaping."""

from __future__ import annotations

import collections
import itertools
import random

from tournament.server.leaderboard import (
    MEMORY_GROUPS,
    MEMORY_Z,
    memory_checks,
    rating_history,
    standings,
)
from tournament.server.matchmaking import opponents
from tournament.server.pages import bot_page, leaderboard_page
from tournament.server.store import PlayedGame

BOTS = ("alpha", "greedy", "random")


def group(order: tuple[str, ...], faulty: str | None = None) -> list[PlayedGame]:
    """A group of six games in which the bots always finish in ``order``, best first, each
    seating once; ``faulty`` is at fault in every game."""
    games = []
    for seats in itertools.permutations(BOTS):
        places = tuple(order.index(bot) + 1 for bot in seats)
        statuses = tuple("error" if bot == faulty else "ok" for bot in seats)
        games.append(PlayedGame(seats, places, (0, 0, 0), statuses, {}))
    return games


def test_the_order_of_the_games_is_the_order_of_the_ratings() -> None:
    """A bot that beats another in most groups rates above it; with the anchor, greedy is held
    at its rating, interval and all."""
    groups = [group(("alpha", "greedy", "random"))] * 6 + [group(("greedy", "alpha", "random"))]
    lines = standings(groups, anchor=("greedy", 1500.0), reference=("greedy", "random"))
    assert [line.bot for line in lines] == ["alpha", "greedy", "random"]
    greedy = lines[1]
    assert greedy.rating == 1500.0
    assert greedy.interval == (1500.0, 1500.0)
    alpha = lines[0]
    assert alpha.interval is not None
    assert alpha.interval[0] <= alpha.rating <= alpha.interval[1]
    assert (alpha.groups, alpha.games, alpha.faults) == (7, 42, 0)
    assert alpha.provisional  # seven groups, fewer than PROVISIONAL
    assert [line.reference for line in lines] == [False, True, True]


def test_faults_are_counted_against_the_bot_at_fault_only() -> None:
    groups = [group(("greedy", "random", "alpha"), faulty="alpha")] * 2
    lines = {line.bot: line for line in standings(groups)}
    assert [lines[bot].faults for bot in BOTS] == [12, 0, 0]
    assert lines["alpha"].to_dict()["fault_rate"] == 1.0
    assert lines["alpha"].interval is None  # fewer groups than an interval needs


def test_a_rating_history_rises_as_the_bot_wins() -> None:
    groups = [group(("random", "greedy", "alpha"))] * 3 + [group(("alpha", "greedy", "random"))] * 9
    history = rating_history(groups, "alpha", ("greedy", 1500.0))
    assert len(history) == 12
    assert history[-1] > history[2]


def test_the_pages_escape_what_they_show_and_draw_the_history() -> None:
    """Names are escaped on every page; a bot with groups gets its rating drawn."""
    groups = {number: group(("alpha", "greedy", "random")) for number in range(1, 4)}
    page = bot_page("alpha", [("thousand", "russian<b>", groups, None)])
    assert "<svg" in page
    assert "russian&lt;b&gt;" in page
    assert "<a href='/games/3-0'>3-0</a>" in page
    board = leaderboard_page([("thousand", "<script>", standings(list(groups.values())))])
    assert "<script>" not in board
    assert "&lt;script&gt;" in board


def test_opponents_near_in_rating_are_met_more_often() -> None:
    """A rated bot meets opponents near its rating more often than far ones, yet meets every
    one sometimes; a bot without a settled rating meets all alike."""
    rng = random.Random(4)
    ratings = {"me": 1500.0, "near": 1520.0, "far": 2200.0}
    met = collections.Counter(
        opponents("me", ["near", "far"], ratings, 1, rng)[0] for _ in range(2000)
    )
    assert met["near"] > 10 * met["far"] > 0
    new = collections.Counter(
        opponents("new", ["near", "far"], ratings, 1, rng)[0] for _ in range(2000)
    )
    assert abs(new["near"] - new["far"]) < 200
    assert sorted(opponents("me", ["near", "far"], ratings, 2, rng)) == ["far", "near"]


def dealt_groups(count: int, seed: int, remembers: float = 0.0) -> list[list[PlayedGame]]:
    """Groups as the server plays them: the bots in a random order, one deal under every
    seating. A bot's result is its seat's share of the deal, its skill (alpha above greedy
    above random) and chance; alpha adds ``remembers`` in every game after the group's
    first, as a bot would that used the cards it saw."""
    rng = random.Random(seed)
    skill = {"alpha": 1.0, "greedy": 0.5, "random": 0.0}
    groups = []
    for _ in range(count):
        bots = list(BOTS)
        rng.shuffle(bots)
        luck = [rng.gauss(0, 1.5) for _ in bots]
        games = []
        for number, seating in enumerate(itertools.permutations(range(3))):
            seats = tuple(bots[index] for index in seating)
            results = [
                luck[seat]
                + skill[bot]
                + rng.gauss(0, 1)
                + (remembers if bot == "alpha" and number else 0)
                for seat, bot in enumerate(seats)
            ]
            ranked = sorted(results, reverse=True)
            places = tuple(ranked.index(result) + 1 for result in results)
            games.append(PlayedGame(seats, places, (0, 0, 0), ("ok",) * 3, {}))
        groups.append(games)
    return groups


def test_the_memory_check_leaves_honest_bots_alone_however_strong() -> None:
    """Bots that play every game of a group alike gain nothing on average in its later games,
    whatever their strength and the luck of the seats: none is flagged."""
    for seed in range(5):
        checks = memory_checks(dealt_groups(300, seed))
        assert set(checks) == set(BOTS)
        for check in checks.values():
            assert check.groups == 300
            assert check.z is not None
            assert abs(check.z) < MEMORY_Z
            assert not check.flagged


def test_the_memory_check_flags_a_bot_that_plays_seen_cards_better() -> None:
    """A bot that does better in a group's later games than in its first, the cards being the
    same, is flagged once it has played enough groups; the others are not."""
    groups = dealt_groups(200, 11, remembers=1.5)
    checks = memory_checks(groups)
    assert checks["alpha"].gain > 0.3
    assert checks["alpha"].flagged
    assert not checks["greedy"].flagged
    assert not checks["random"].flagged
    last_then_first = group(("greedy", "random", "alpha"))[:1] + group(BOTS)[1:]
    early = memory_checks([last_then_first] * (MEMORY_GROUPS - 1))["alpha"]
    assert (early.gain, early.z) == (2.0, 99.0)
    assert not early.flagged  # too few groups yet
    assert memory_checks([last_then_first] * MEMORY_GROUPS)["alpha"].flagged
    lines = standings(groups)
    assert "<strong>+0.39 flagged</strong>" in leaderboard_page([("thousand", "russian", lines)])
    honest = standings(dealt_groups(100, 11))
    assert "flagged</strong>" not in leaderboard_page([("thousand", "russian", honest)])
    line = {line.bot: line for line in lines}["alpha"].to_dict()
    assert line["memory_check"] == {
        "groups": 200,
        "gain": round(checks["alpha"].gain, 3),
        "z": round(checks["alpha"].z, 2),
        "flagged": True,
    }
