"""The workers that play the server's slower reference bots (``thousand server --reference``):
a game's seat stays on one worker, new seats go to the least busy one, and a worker that dies or
hangs is lost with its seats and replaced; on local processes and on Ray."""

from __future__ import annotations

import asyncio
import collections
import importlib.util
import os
from collections.abc import Iterator

import pytest

from thousand.classic.rules import Rules
from thousand.table.match import start_match
from thousand.table.specs import load_player
from tournament.server.hosts import Hosted, HostLost, Hosts, InServer, LocalHosts, RayHosts

BOTS = "tests/bots/python_bots.py"
RUSSIAN = Rules.preset("russian")


@pytest.fixture
def hosts() -> Iterator[Hosts]:
    """Two worker processes of this machine."""
    made = LocalHosts(2)
    try:
        yield made
    finally:
        made.close()


def played(seats: list[object], seed: int) -> dict[str, object]:
    """The record of one Russian deal whose seats are ``seats`` (server seats)."""

    async def play() -> dict[str, object]:
        match = start_match(RUSSIAN, seed=seed, single_deal=True)
        for seat, player in enumerate(seats):
            await player.begin(seat, RUSSIAN, seed + seat, 10.0)  # type: ignore[attr-defined]
        while (seat := match.to_act) is not None:
            action = await seats[seat].act(match.observation(), 10.0)  # type: ignore[attr-defined]
            match.submit(seat, action, 0.0)
        outcome = match.outcome()
        for player in seats:
            await player.end(outcome, 10.0)  # type: ignore[attr-defined]
        return outcome.record.to_dict()

    return asyncio.run(play())


def test_a_bot_played_by_a_worker_plays_as_it_does_in_the_server(hosts: Hosts) -> None:
    """The same seeds give the same deal, action for action, whether a worker or the server's
    own process plays the search bot."""
    spec = "ismcts(steps=30)"
    make = load_player(spec)
    here = played([InServer(make()), InServer(load_player("greedy")()), InServer(make())], 7)
    away = played([Hosted(hosts, spec), InServer(load_player("greedy")()), Hosted(hosts, spec)], 7)
    assert away == here


def test_seats_stay_on_their_worker_and_spread_over_the_workers(hosts: Hosts) -> None:
    """Each new seat goes to the least busy worker, and every decision of a seat is made in the
    same process, never the server's."""

    async def run() -> list[list[object]]:
        seats = [Hosted(hosts, f"{BOTS}:WhereAmI") for _ in range(4)]
        for number, seat in enumerate(seats):
            await seat.begin(0, RUSSIAN, number, 10.0)
        answers = [[await seat.act(None, 10.0) for _ in range(3)] for seat in seats]
        for seat in seats:
            seat.drop()
        return answers

    answers = asyncio.run(run())
    processes = [set(answer) for answer in answers]
    assert all(len(each) == 1 for each in processes)
    assert sorted(collections.Counter(answer[0] for answer in answers).values()) == [2, 2]
    assert os.getpid() not in set.union(*processes)


@pytest.mark.parametrize(
    ("bot", "seconds", "message"),
    [
        ("ExitsAtOnce", 30.0, "the worker playing a reference bot died"),
        ("Sleeper", 0.5, "a reference bot took more than 0.5 s"),
    ],
)
def test_a_worker_that_dies_or_hangs_is_lost_with_its_seats_and_replaced(
    hosts: Hosts, bot: str, seconds: float, message: str
) -> None:
    """The seat whose worker died or hung raises :class:`HostLost` (its group is then void), so
    does every other seat that worker kept, and new seats are played by a worker started in its
    place."""

    async def run() -> None:
        doomed = Hosted(hosts, f"{BOTS}:{bot}")
        await doomed.begin(0, RUSSIAN, 1, 10.0)
        neighbour = Hosted(hosts, f"{BOTS}:WhereAmI")
        await neighbour.begin(0, RUSSIAN, 2, 10.0)
        neighbour_before = await neighbour.act(None, 10.0)
        same_worker = Hosted(hosts, f"{BOTS}:WhereAmI")
        await same_worker.begin(0, RUSSIAN, 3, 10.0)
        before = await same_worker.act(None, 10.0)
        with pytest.raises(HostLost, match=message):
            await doomed.act(None, seconds)
        with pytest.raises(HostLost, match="the worker that kept this seat was replaced"):
            await same_worker.act(None, 10.0)
        fresh = Hosted(hosts, f"{BOTS}:WhereAmI")
        await fresh.begin(0, RUSSIAN, 4, 10.0)
        replaced = await fresh.act(None, 10.0)
        assert replaced != before
        assert await neighbour.act(None, 10.0) == neighbour_before not in (before, replaced)
        for seat in (doomed, neighbour, same_worker, fresh):
            seat.drop()

    asyncio.run(run())


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="the ray extra is not installed"
)
def test_ray_actors_play_a_bot_as_the_server_does() -> None:
    """On Ray (``--backend ray``) the workers are actors: the same deal as in the server's own
    process, and a lost actor is replaced."""
    ray_hosts = RayHosts(2)
    try:
        spec = "ismcts(steps=30)"
        make = load_player(spec)
        here = played([InServer(make()), InServer(load_player("greedy")()), InServer(make())], 3)
        away = played(
            [Hosted(ray_hosts, spec), InServer(load_player("greedy")()), Hosted(ray_hosts, spec)],
            3,
        )
        assert away == here

        async def lost() -> None:
            doomed = Hosted(ray_hosts, f"{BOTS}:ExitsAtOnce")
            await doomed.begin(0, RUSSIAN, 1, 30.0)
            with pytest.raises(HostLost, match="the Ray actor playing a reference bot was lost"):
                await doomed.act(None, 30.0)
            fresh = Hosted(ray_hosts, f"{BOTS}:WhereAmI")
            await fresh.begin(0, RUSSIAN, 2, 30.0)
            assert isinstance(await fresh.act(None, 30.0), int)
            fresh.drop()

        asyncio.run(lost())
    finally:
        ray_hosts.close()
