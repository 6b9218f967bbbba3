"""A search for observations the determinisers find no world for, over many seeded games.

Plays games of every Thousand preset (and of 1000?) with house rules off and on, each seat
played by ``greedy`` or by random legal moves, and at every decision asks for a world for every
seat's observation (the seat sitting out included). Half the Thousand matches open on a nearly
sorted deck, which deals hands rich in marriages: high bids and contracts, whose worlds are
rare. A world must give back exactly what the seat observed.

Prints the observations checked per game, rule set and role (``auction`` before the talon is
shown, ``declarer``, ``defender``, ``sitter``; 1000? by seat), the failures found, how many
Thousand worlds took more than 100 and more than 1,000 placements (drawn, then kept or turned
away; the determiniser gives up at 10,000) and the most any took, and the time taken. With
``--failures FILE`` each failure is written there as a JSON line with what reproduces it (the
game's record up to the decision, and the seat).

    python benchmarks/world_search.py [--observations 20000] [--seed 0] [--game russian-4]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import attrs

from thousand import (
    DECK,
    Determiniser,
    Layout,
    NoWorldError,
    Rules,
    bluff,
    new_match,
)
from thousand.bots import GreedyPlayer
from thousand.classic.rules import (
    BarrelFallPenalty,
    BoltCounting,
    MarriageDeclaration,
    Redeal,
    Samosval,
    Sitter,
)
from thousand.games import game_of

HOUSE_RULES: dict[str, dict[str, Any]] = {
    "off": {},
    "throw-ins as dealt": dict(
        redeal_nines=Redeal.DEALT, redeal_jacks=Redeal.DEALT, redeal_weak_hand=13
    ),
    "throw-ins after exchange": dict(
        redeal_nines=Redeal.AFTER_EXCHANGE, redeal_jacks=Redeal.AFTER_EXCHANGE
    ),
    "scoring": dict(
        gold_set=3,
        bolts=3,
        bolt_counting=BoltCounting.CONSECUTIVE,
        samosval=Samosval.BOTH,
        barrel_fall_penalty=BarrelFallPenalty.BOTH,
        barrel_reset_falls=2,
    ),
    "play": dict(
        must_beat=True,
        must_overtrump=True,
        marriage_declaration=MarriageDeclaration.AUTOMATIC,
        marriage_requires_trick=False,
        ace_marriage=200,
    ),
}
"""Rule sets tried on every preset: the house rules (grouped by what they touch), and the
rules of play the presets disagree on, flipped together."""
FOUR_SEATS: dict[str, dict[str, Any]] = {
    f"sitter {sitter.value}": dict(sitter=sitter, sitter_bonus=40) for sitter in Sitter
}
"""Four seats: who sits out, each way."""
BLUFF_RULES: dict[str, dict[str, Any]] = {
    "off": {},
    "any-card restart": dict(challenge_restart=bluff.ChallengeRestart.ANY_CARD),
    "no reshuffle": dict(empty_draw_pile=bluff.EmptyDrawPile.NO_RESHUFFLE),
    "last card face up": dict(last_card_face_down=bluff.LastCardFaceDown.WINS),
}
"""1000?: its rule choices, each switched on alone."""
BLUFF = "1000?"
DEALS_PER_MATCH = 3
"""Deals played from each match start (later deals carry scores, bolts, the barrel)."""


@attrs.define
class Tally:
    """What the search has checked so far."""

    checked: Counter[tuple[str, str, str]] = attrs.field(factory=Counter)
    failed: Counter[tuple[str, str, str]] = attrs.field(factory=Counter)
    seconds: defaultdict[str, float] = attrs.field(factory=lambda: defaultdict(float))
    """Seconds per game, playing and sampling."""
    sampling: defaultdict[str, float] = attrs.field(factory=lambda: defaultdict(float))
    """Seconds per game spent drawing worlds."""
    failures: list[dict[str, Any]] = attrs.field(factory=list)
    attempts: defaultdict[str, list[int]] = attrs.field(factory=lambda: defaultdict(list))
    """Per game, the placements each Thousand world took."""

    def total(self, game: str) -> int:
        """Observations of ``game`` checked."""
        return sum(count for key, count in self.checked.items() if key[0] == game)


def thousand_rule_sets(preset: str) -> dict[str, Rules]:
    """The preset under each rule set that applies to it."""
    base = Rules.preset(preset)
    sets = dict(HOUSE_RULES)
    if base.players == 4:
        sets.update(FOUR_SEATS)
    return {name: attrs.evolve(base, **changes) for name, changes in sets.items()}


def start_scores(rules: Rules, rng: random.Random) -> list[int] | None:
    """Scores to start a match from: zeros, or scores near the end (barrel, lock, bolts)."""
    if rng.random() < 0.5:
        return None
    near = rules.barrel_threshold if rules.endgame.value == "barrel" else rules.lock_threshold
    return [rng.choice([0, 120, near - 40, near, -120]) for _ in range(rules.players)]


def rich_layout(rules: Rules, dealer: int, rng: random.Random) -> Layout:
    """Cards dealt from a deck sorted by suit and rank, the suits in random order, then cut and
    given a few random swaps: each hand holds long suits and their marriages."""
    suits = [DECK[6 * suit : 6 * suit + 6] for suit in rng.sample(range(4), 4)]
    deck = [card for suit in suits for card in suit]
    cut = rng.randrange(24)
    deck = deck[cut:] + deck[:cut]
    for _ in range(rng.randrange(12)):
        first, second = rng.randrange(24), rng.randrange(24)
        deck[first], deck[second] = deck[second], deck[first]
    size = rules.hand_size
    dealt = 2 if rules.players == 2 else 3
    hands: list[Sequence[Any]] = [deck[seat * size : (seat + 1) * size] for seat in range(dealt)]
    if rules.players == 4:
        hands.insert(rules.sitter_of(dealer), ())
    rest = deck[dealt * size :]
    return Layout(hands=hands, talon=[rest] if rules.players != 2 else [rest[:2], rest[2:]])


def role(observation: Any) -> str:
    """What the observing seat is in the deal."""
    if observation.sitter == observation.seat:
        return "sitter"
    if observation.declarer is None or observation.phase.value == "musik":
        return "auction"
    return "declarer" if observation.declarer == observation.seat else "defender"


class CountingDeterminiser(Determiniser):
    """Thousand's determiniser, counting the placements its worlds take (drawn and replayed or
    turned away): a world that takes thousands is one the determiniser nearly missed."""

    attempts = 0

    def _attempt(self, *args: Any, **kwargs: Any) -> Any:
        CountingDeterminiser.attempts += 1
        return super()._attempt(*args, **kwargs)


def check(game: str, rule_set: str, state: Any, rng: random.Random, tally: Tally) -> None:
    """A world for every seat's observation of ``state`` (of either game)."""
    kind = game_of(state.rules)
    for seat in range(state.rules.players):
        observation = state.observation(seat)
        key = (game, rule_set, f"seat {seat}" if game == BLUFF else role(observation))
        began = time.perf_counter()
        before = CountingDeterminiser.attempts
        problem = None
        try:
            if game == BLUFF:
                world = kind.worlds(observation)(rng)
            else:
                world = CountingDeterminiser(observation).sample(rng)
            if world.observation(seat) != observation:
                problem = "the world shows the seat something else"
        except NoWorldError as error:
            problem = str(error)
        tally.sampling[game] += time.perf_counter() - began
        tally.checked[key] += 1
        tally.attempts[game].append(CountingDeterminiser.attempts - before)
        if problem is not None:
            tally.failed[key] += 1
            record = kind.record(state).to_dict()
            tally.failures.append(
                dict(game=game, rules=rule_set, seat=seat, problem=problem, record=record)
            )


def players_for(rules: Any, rng: random.Random, seed: int) -> list[GreedyPlayer | None]:
    """A ``greedy`` bot or ``None`` (random legal moves) per seat, at least one greedy."""
    greedy = [rng.random() < 0.5 for _ in range(rules.players)]
    greedy[rng.randrange(rules.players)] = True
    bots: list[GreedyPlayer | None] = []
    for seat, flag in enumerate(greedy):
        bot = None
        if flag:
            bot = GreedyPlayer()
            bot.start(seat, rules, random.Random(seed * 10 + seat))
        bots.append(bot)
    return bots


def play_and_check(
    game: str,
    rule_set: str,
    state: Any,
    seed: int,
    tally: Tally,
    deals: int | None,
) -> None:
    """Play ``state`` on (``deals`` deals of a match, or the whole game), checking every
    decision."""
    rng = random.Random(seed)
    sampling = random.Random(-seed)
    bots = players_for(state.rules, rng, seed)
    first = getattr(state, "deal_number", 0)
    while not state.is_over and (deals is None or state.deal_number < first + deals):
        check(game, rule_set, state, sampling, tally)
        player = state.player
        bot = bots[player]
        action = (
            bot.act(state.observation(player))
            if bot is not None
            else rng.choice(state.legal_actions())
        )
        state = state.apply(action)


def search_thousand(preset: str, target: int, seed: int, tally: Tally) -> None:
    """Matches of ``preset`` under each rule set in turn until ``target`` observations."""
    rule_sets = list(thousand_rule_sets(preset).items())
    began = time.perf_counter()
    game = 0
    while tally.total(preset) < target:
        name, rules = rule_sets[game % len(rule_sets)]
        match_seed = seed * 1_000_003 + game
        rng = random.Random(match_seed)
        dealer = rng.randrange(rules.players)
        layout = rich_layout(rules, dealer, rng) if rng.random() < 0.5 else None
        try:
            scores = start_scores(rules, rng)
            state = new_match(rules, seed=match_seed, dealer=dealer, scores=scores, layout=layout)
        except ValueError:
            state = new_match(rules, seed=match_seed, dealer=dealer, layout=layout)
        play_and_check(preset, name, state, match_seed, tally, DEALS_PER_MATCH)
        game += 1
    tally.seconds[preset] += time.perf_counter() - began


def search_bluff(target: int, seed: int, tally: Tally) -> None:
    """1000? games of 2 to 6 players under each rule set in turn until ``target``
    observations."""
    began = time.perf_counter()
    game = 0
    while tally.total(BLUFF) < target:
        name, changes = list(BLUFF_RULES.items())[game % len(BLUFF_RULES)]
        rules = bluff.Rules(players=2 + game // len(BLUFF_RULES) % 5, max_turns=300, **changes)
        game_seed = seed * 1_000_003 + game
        state = bluff.new_game(rules, seed=game_seed)
        label = f"{name}, {rules.players} players"
        play_and_check(BLUFF, label, state, game_seed, tally, None)
        game += 1
    tally.seconds[BLUFF] += time.perf_counter() - began


def report(tally: Tally, games: Sequence[str]) -> None:
    """The figures, per game, rule set and role."""
    print(f"{'game':<10} {'rules':<32} {'role':<9} {'checked':>8} {'failed':>7}")
    for game in games:
        for key in sorted(key for key in tally.checked if key[0] == game):
            _, rule_set, seat_role = key
            print(
                f"{game:<10} {rule_set:<32} {seat_role:<9} {tally.checked[key]:>8} "
                f"{tally.failed[key]:>7}"
            )
    print()
    print(
        f"{'game':<10} {'checked':>8} {'failed':>7} {'>100 tries':>10} {'>1000':>6} "
        f"{'most':>6} {'seconds':>8} {'ms/world':>9}"
    )
    for game in games:
        checked = tally.total(game)
        failed = sum(count for key, count in tally.failed.items() if key[0] == game)
        per_world = tally.sampling[game] / max(checked, 1) * 1000
        tries = [count for count in tally.attempts[game] if count]
        hard = sum(count > 100 for count in tries)
        harder = sum(count > 1000 for count in tries)
        most = str(max(tries)) if tries else "-"
        print(
            f"{game:<10} {checked:>8} {failed:>7} {hard if tries else '-':>10} "
            f"{harder if tries else '-':>6} {most:>6} {tally.seconds[game]:>8.0f} "
            f"{per_world:>9.2f}"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--observations", type=int, default=20_000, help="observations to check per game"
    )
    parser.add_argument("--seed", type=int, default=0, help="seeds every game of the search")
    games = [*Rules.preset_names(), BLUFF]
    parser.add_argument("--game", action="append", help=", ".join(games))
    parser.add_argument("--failures", help="write each failure as a JSON line to this file")
    args = parser.parse_args(argv)
    chosen = args.game or games
    tally = Tally()
    for game in chosen:
        if game == BLUFF:
            search_bluff(args.observations, args.seed, tally)
        else:
            search_thousand(game, args.observations, args.seed, tally)
    report(tally, chosen)
    if args.failures:
        with open(args.failures, "w", encoding="utf-8") as out:
            for failure in tally.failures:
                out.write(json.dumps(failure) + "\n")


if __name__ == "__main__":
    main()
