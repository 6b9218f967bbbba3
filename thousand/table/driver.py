"""The match driver: plays a match (or one Thousand deal) among any players, whatever they do.

Each decision, the player to act receives its observation and answers with an action. A player
that raises, runs out of time, or answers with anything but a legal action is at fault: the
fault is recorded with the observation it was given, and the fault policy decides what follows
(see :class:`FaultPolicy`).

    >>> import thousand
    >>> outcome = thousand.play(["greedy", "random", "random"], thousand.Rules.preset("russian"),
    ...                         seed=1, single_deal=True)
    >>> outcome.statuses
    (<Status.OK: 'ok'>, <Status.OK: 'ok'>, <Status.OK: 'ok'>)
    >>> thousand.replay(outcome.record).result == outcome.result
    True
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, cast

from thousand import bluff
from thousand.classic.layout import Layout
from thousand.errors import BotSpecError, BotTimeout, SeatError
from thousand.games import ActionT as A
from thousand.games import AnyObservation, AnyRules, AnyState, Game, game_of
from thousand.games import ObservationT as O
from thousand.games import RecordT as Rec
from thousand.games import RulesT as R
from thousand.games import StateT as S
from thousand.players import AnyPlayer, Player
from thousand.table.faults import FaultPolicy, Status
from thousand.table.interrupts import Interrupts, noting_interrupts
from thousand.table.match import Fault, Match, Outcome, thinking_time
from thousand.table.sandbox import Isolation, SandboxOptions
from thousand.table.specs import PlayerFactory, authors_code_here, load_player

if TYPE_CHECKING:
    from thousand.table.external import BotLimits

__all__ = ["Fault", "FaultPolicy", "Outcome", "Status", "play", "player_seed"]


def play(
    players: Sequence[AnyPlayer | str],
    rules: AnyRules,
    *,
    seed: int,
    single_deal: bool = False,
    layout: Layout | bluff.Layout | None = None,
    dealer: int | None = None,
    time_limit: float | None = None,
    time_quota: float | None = None,
    on_fault: FaultPolicy | str = FaultPolicy.FORFEIT,
    player_seeds: Sequence[int] | None = None,
    isolate: Isolation | bool | str = False,
    sandbox: SandboxOptions | None = None,
    log_dir: str | None = None,
    limits: BotLimits | None = None,
    watch: Callable[[AnyState], object] | None = None,
) -> Outcome:
    """Play one match of either game among ``players`` and return its :class:`Outcome`.

    Args:
        players: one per seat, in seat order: :class:`~thousand.Player` objects, or bot specs
            such as ``"greedy"`` or ``"cmd:./mybot"`` (see :func:`thousand.load_player`).
        rules: :class:`thousand.Rules` or :class:`thousand.bluff.Rules`; the game follows.
        seed: deals the cards (deal ``n`` of a Thousand match is
            ``Layout.from_seed(players, seed, n)``) and seeds each player's generator.
        single_deal: Thousand only: play one scored deal instead of a match to 1000.
        layout: the first deal's cards, instead of dealing them from the seed.
        dealer: the first dealer; by default drawn from the seed (seat 0 in a single deal).
        time_limit: seconds a player may take for one decision.
        time_quota: seconds a player may take over the whole match.
        on_fault: ``forfeit`` (the default), ``substitute`` or ``raise``; see
            :class:`FaultPolicy`.
        player_seeds: the seed of each seat's generator, instead of deriving them from ``seed``.
        isolate: how the bots given as specs that are not built in are kept from hidden
            state: ``sandbox`` (or ``True``), each walled in a process of its own that reaches
            no file of yours; ``process``, a Python bot in a process of its own; ``none`` (or
            ``False``, the default), a Python bot in this process (see
            :func:`thousand.load_player`).
        sandbox: what sandboxed bots may reach: more files to read, the network; never the
            folder of their logs.
        log_dir: the folder where the error output of bots in processes of their own is kept,
            each bot's files capped in all by ``limits.log`` (see :mod:`thousand.table.botlogs`);
            by default a fresh folder ``thousand-bots-*`` in the temporary directory for this
            match, which the fault of a bot that crashes names.
        limits: caps on external bots' memory, message lines and logs; by default
            :class:`~thousand.BotLimits` ``()``.
        watch: called with the starting state and then with the state after every action,
            whoever took it: for a display, or to keep the game so far when play is
            interrupted. It sees every card, so a player must not be given it.

    A player is at fault when it raises, exceeds ``time_limit`` or ``time_quota``, or answers
    with anything but one of ``observation.legal_actions``. In the main thread of a Unix
    process a Python bot is interrupted at its limit; elsewhere its time is checked when it
    answers.
    """
    from thousand.table.external import ExternalPlayer, share_log_folder

    game = game_of(rules)
    if len(players) != rules.players:
        raise SeatError(f"these rules seat {rules.players} players, but {len(players)} were given")
    policy = FaultPolicy(on_fault)

    def begun(game: Game[S, O, A, R, Rec]) -> Callable[..., Outcome]:
        own = game.own_rules(rules)
        state = game.start(own, seed=seed, layout=layout, dealer=dealer, single_deal=single_deal)
        return functools.partial(_run, Match, game, own, state)

    begin = game.handle(begun)  # the cards and the dealer are checked before any bot starts
    seeds = list(player_seeds) if player_seeds is not None else None
    if seeds is not None and len(seeds) != rules.players:
        raise SeatError(f"{len(seeds)} player seeds were given for {rules.players} seats")
    mode = Isolation.of(isolate)
    needed = any(_authors_code_here(entry, mode) for entry in players)
    with noting_interrupts(needed) as interrupts:
        names, bots = _seat_players(players, mode, sandbox, log_dir, limits, interrupts)
        share_log_folder(bots)
        cards = _cards_of(game.name, seed, layout)
        for bot in bots:
            if isinstance(bot, ExternalPlayer):
                bot.deal = cards
        outcome: Outcome | None = None
        own_seeds = [
            seeds[seat] if seeds is not None else player_seed(seed, seat)
            for seat in range(len(bots))
        ]
        for bot, own_seed in zip(bots, own_seeds, strict=True):
            if isinstance(bot, ExternalPlayer):
                bot.random_seed = own_seed
        try:
            outcome = begin(
                bots, own_seeds, interrupts,
                seed=seed, names=names, time_limit=time_limit, time_quota=time_quota,
                on_fault=policy, watch=watch,
            )  # fmt: skip
            return outcome
        finally:
            for bot in bots:
                interrupts.call_end(bot, outcome)


def _run(
    make: Callable[..., Match[S, O, A, R, Rec]],
    game: Game[S, O, A, R, Rec],
    rules: R,
    state: S,
    players: Sequence[AnyPlayer],
    seeds: Sequence[int],
    interrupts: Interrupts,
    **options: object,
) -> Outcome:
    """Play a match of ``game`` from ``state`` among ``players``, each started with its seed."""
    match = make(game, rules, state, **options)
    match.interrupts = interrupts
    # Each bot was seated at this match of its game: it is handed that game's observations.
    bots = cast("list[Player[O]]", list(players))
    for seat, bot in enumerate(bots):
        _start(match, seat, bot, random.Random(seeds[seat]), interrupts)
    match.skips_forced[:] = [getattr(bot, "skip_forced", False) is True for bot in bots]
    if match.time_limit is None and match.time_quota is None:
        match.play_out(bots)
    else:
        _play_timed(match, bots, interrupts)
    return match.outcome()


def _start(
    match: Match[S, O, A, R, Rec],
    seat: int,
    bot: Player[O],
    rng: random.Random,
    interrupts: Interrupts,
) -> None:
    """Tell a player its seat; a player that fails here is played for all match long."""
    start = getattr(bot, "start", None)
    if start is None:
        return
    try:
        start(seat, match.rules, rng)
    except BaseException as error:
        if interrupts.users(error):
            raise
        match.fail_to_start(seat, error)


def _play_timed(
    match: Match[S, O, A, R, Rec], bots: list[Player[O]], interrupts: Interrupts
) -> None:
    """Step the match to its end under time limits: a Python bot in the main thread of a Unix
    process is interrupted at its limit; elsewhere its time is checked when it answers."""
    alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGALRM, _ring) if alarm else None
    try:
        seat = match.to_act
        while seat is not None:
            seen = match.observation()
            allowed = match.allowed()
            bot = bots[seat]
            timed = getattr(bot, "act_within", None)
            began = time.perf_counter()
            try:
                if timed is not None:
                    answer = timed(seen, allowed)
                elif alarm:
                    try:
                        signal.setitimer(signal.ITIMER_REAL, allowed)
                        answer = bot.act(seen)
                    finally:
                        signal.setitimer(signal.ITIMER_REAL, 0)
                else:
                    answer = bot.act(seen)
            except _Alarm:
                error = BotTimeout(f"took more than {allowed:.3f} s")
                seat = match.fail(seat, error, thinking_time(time.perf_counter() - began, bot))
            except BaseException as error:
                if interrupts.users(error):
                    raise
                seat = match.fail(seat, error, thinking_time(time.perf_counter() - began, bot))
            else:
                seat = match.submit(seat, answer, thinking_time(time.perf_counter() - began, bot))
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def _cards_of(game: str, seed: int, layout: object) -> frozenset[Hashable]:
    """What identifies the cards a match is dealt: its seed, and its first layout when given
    (later deals of a match come from the seed even then)."""
    cards: set[Hashable] = {(game, "seed", seed)}
    if layout is not None:
        cards.add((game, "layout", layout))
    return frozenset(cards)


def player_seed(seed: int, seat: int) -> int:
    """The seed of a seat's own generator in a match played with ``seed``."""
    digest = hashlib.blake2b(f"thousand player {seed} {seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _seat_players(
    players: Sequence[AnyPlayer | str],
    isolate: Isolation,
    sandbox: SandboxOptions | None,
    log_dir: str | None,
    limits: BotLimits | None,
    interrupts: Interrupts,
) -> tuple[tuple[str, ...], list[AnyPlayer]]:
    """Each seat's player and its name: the spec it was given by, or its class's name."""
    names: list[str] = []
    bots: list[AnyPlayer] = []
    try:
        for entry in players:
            if isinstance(entry, str):
                make = _factory(entry, isolate, sandbox, log_dir, limits, os.getcwd())
                bots.append(_made(make, interrupts))
                names.append(entry)
            else:
                bots.append(entry)
                names.append(type(entry).__name__)
    except BaseException:
        for bot in bots:
            interrupts.call_end(bot, None)
        raise
    return tuple(names), bots


@functools.lru_cache(maxsize=64)
def _factory(
    spec: str,
    isolate: Isolation,
    sandbox: SandboxOptions | None,
    log_dir: str | None,
    limits: BotLimits | None,
    folder: str,
) -> PlayerFactory:
    """What makes the player ``spec`` names (see :func:`thousand.load_player`), looked up once
    for match after match of the same bot, options and working ``folder`` (a spec may name a
    file relative to it): a tournament seats the same specs thousands of times."""
    return load_player(spec, isolate=isolate, sandbox=sandbox, log_dir=log_dir, limits=limits)


def _authors_code_here(entry: AnyPlayer | str, isolate: Isolation) -> bool:
    """Whether the seat's player runs its author's code in this process, where a
    ``KeyboardInterrupt`` may be its own rather than Ctrl-C."""
    if isinstance(entry, str):
        return authors_code_here(entry, isolate=isolate)
    return not type(entry).__module__.startswith("thousand.")


def _made(make: Callable[[], AnyPlayer], interrupts: Interrupts) -> AnyPlayer:
    """A fresh player, or when its making fails (but for a spec error or the user's interrupt),
    a stand-in that fails the same way when the match starts: the failure is the seat's fault,
    as when isolated."""
    try:
        return make()
    except BotSpecError:
        raise
    except BaseException as error:
        if interrupts.users(error):
            raise
        return _Unmade(error)


class _Unmade:
    """The seat of a player whose making failed: it fails to start with the same error."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def start(self, seat: int, rules: AnyRules, rng: random.Random) -> None:
        """Fail as the making did."""
        raise self.error

    def act(self, observation: AnyObservation) -> object:
        """Never asked: a seat that failed to start is played for."""
        raise self.error


class _Alarm(BaseException):
    """Raised inside a Python bot that ran out of time (not an ``Exception``, so that a bot's
    own ``except Exception`` does not swallow it)."""


def _ring(signum: int, frame: object) -> None:
    raise _Alarm
