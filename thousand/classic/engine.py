"""Starting games and the one dispatcher where the phase modules meet.

:func:`legal_actions` is the single source of legality; :func:`apply` accepts exactly the actions
it lists and hands each to the module of the current phase. Steps that need no decision (taking
the talon, collecting a trick, scoring a deal, dealing the next one) happen inside ``apply``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from typing import cast

import attrs

from thousand.classic import bidding, redeals, scoring, talon, tricks
from thousand.classic.actions import ACTION_TYPES, Action, Concede
from thousand.classic.layout import Layout
from thousand.classic.redeals import ThrowIn
from thousand.classic.results import DealResult, MatchResult
from thousand.classic.rules import BarrelCapacity, Endgame, Rules, Samosval
from thousand.classic.seating import seating
from thousand.classic.state import NOBODY, GameState, Origin, Phase, build_context, build_state
from thousand.common.state_base import fast_constructor, fast_updater
from thousand.errors import IllegalActionError, LayoutError, RulesError

__all__ = ["new_deal", "new_match"]


def new_match(
    rules: Rules,
    *,
    seed: int,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
    layout: Layout | None = None,
) -> GameState:
    """A match to the target score (1000), at the auction of its first deal.

    Args:
        rules: the rules in force, e.g. ``Rules.preset("russian")``.
        seed: seeds every deal (and the first dealer when ``dealer`` is not given).
        dealer: the first dealer's seat; by default drawn from the seed.
        scores: the starting scores, by default all 0. Under barrel rules a player starting at
            exactly the barrel threshold is on the barrel with no deals used.
        layout: the first deal's cards; by default dealt from the seed.
    """
    return _start(rules, seed, dealer, scores, layout, single_deal=False)


def new_deal(
    rules: Rules,
    *,
    seed: int | None = None,
    layout: Layout | None = None,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
) -> GameState:
    """A single deal: the game is over once it is scored, and ``result`` is its
    :class:`~thousand.DealResult`. Without seed or layout the cards are shuffled at random (the
    seed drawn is kept in ``state.origin.seed``)."""
    if seed is None:
        seed = secrets.randbits(63)
    return _start(rules, seed, dealer, scores, layout, single_deal=True)


def _start(
    rules: Rules,
    seed: int,
    dealer: int | None,
    scores: Sequence[int] | None,
    layout: Layout | None,
    single_deal: bool,
) -> GameState:
    """The game's first state, once what it was given is checked; a dealer not given is drawn
    from the seed."""
    if not isinstance(rules, Rules):
        raise RulesError(f"expected a Rules value, not {type(rules).__name__}")
    players = rules.players
    if dealer is None:
        dealer = random.Random(f"thousand:{seed}:dealer").randrange(players)
    if not 0 <= dealer < players:
        raise RulesError(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
    start = tuple(scores) if scores is not None else (0,) * players
    if len(start) != players or not all(isinstance(score, int) for score in start):
        raise RulesError(f"scores must be {players} whole numbers, not {list(start)}")
    if layout is not None and layout.players != players:
        raise LayoutError(f"the layout has {layout.players} hands but the rules have {players}")
    if layout is not None and layout.sitter != (None if players < 4 else rules.sitter_of(dealer)):
        raise LayoutError(
            f"the layout leaves seat {layout.sitter} without cards, but with dealer {dealer} "
            f"seat {rules.sitter_of(dealer)} sits out (sitter '{rules.sitter.value}')"
        )
    if any(score >= rules.target for score in start):
        raise RulesError(f"a starting score of {rules.target} or more has already won")
    if any(scoring.samosval_hits(rules, score) for score in start):
        barred = "555" if rules.samosval is Samosval.POSITIVE else "555 or -555"
        raise RulesError(f"with samosval '{rules.samosval.value}' no score may start at {barred}")
    barrel: tuple[int | None, ...] = (None,) * players
    if rules.endgame is Endgame.BARREL:
        threshold = rules.barrel_threshold
        if any(score > threshold for score in start):
            raise RulesError(
                f"under barrel rules no score lies between {threshold} and {rules.target}"
            )
        barrel = tuple(0 if score == threshold else None for score in start)
        if rules.barrel_capacity is BarrelCapacity.SINGLE and start.count(threshold) > 1:
            raise RulesError(
                f"with single barrel capacity only one player may start at {threshold}"
            )
    origin = Origin(seed, dealer, start, layout, single_deal)
    return _deal_from(start_of_deal(rules, origin, 0, dealer, start, barrel, ()))


def start_of_deal(
    rules: Rules,
    origin: Origin,
    number: int,
    dealer: int,
    scores: tuple[int, ...],
    barrel: tuple[int | None, ...],
    deals: tuple[DealResult, ...],
    layout: Layout | None = None,
    bolts: tuple[int, ...] | None = None,
    falls: tuple[int, ...] | None = None,
    scored_deals: int | None = None,
) -> GameState:
    """The state at the start of deal ``number``, dealt ``layout`` (by default the origin's
    first layout or the one its seed gives): the forehand holds the opening bid. Bolt and fall
    counts default to 0, the scored deals to those among ``deals`` not thrown in. No throw-in
    is checked here."""
    players = rules.players
    sitter, active, turn = seating(rules, dealer)
    if layout is None and number == 0:
        layout = origin.layout
    if layout is None:
        layout = Layout.from_seed(players, origin.seed, number, sitter)
    zeros = (0,) * players
    if scored_deals is None:
        scored_deals = sum(deal.thrown_in is None for deal in deals)
    forehand = active[0]
    return build_state(
        rules=rules,
        context=build_context(
            origin,
            number,
            dealer,
            scores,
            barrel,
            deals,
            layout,
            sitter,
            active,
            turn,
            zeros if bolts is None else bolts,
            zeros if falls is None else falls,
            scored_deals,
        ),
        result=None,
        phase=Phase.AUCTION,
        player=turn[forehand],
        hand_masks=layout.hand_masks(),
        talon_masks=layout.talon_masks(),
        bidder=forehand,
        bid=rules.opening_bid_of(scored_deals),
        contract_amount=0,
        passed_mask=0,
        musik=0,
        set_aside_mask=0,
        trick_cards=(),
        taken_masks=zeros,
        melds=(),
        trump_suit=NOBODY,
        exchange_seen=((),) * players,
        history=None,
    )


def _deal_from(state: GameState) -> GameState:
    """``state`` (a deal as dealt), or, where a house rule throws in what was dealt, the first
    deal after it that is played (or the end of the game)."""
    rules = state.rules
    if not redeals.checks_at_deal(rules):
        return state
    while state.phase is Phase.AUCTION:
        thrown = redeals.at_deal(rules, state.hand_masks, state.context.active)
        if thrown is None:
            break
        state = _thrown_in(state, thrown, deal_next=False)
    return state


def deal_as_dealt(state: GameState) -> GameState:
    """The state at the start of ``state``'s deal, with the same cards dealt (replaying the
    deal's actions on it leads back to ``state``)."""
    context = state.context
    return start_of_deal(
        state.rules,
        context.origin,
        context.deal_number,
        context.dealer,
        context.scores,
        context.barrel,
        context.deals,
        context.layout,
        context.bolts,
        context.falls,
        context.scored_deals,
    )


_conceded = fast_updater(GameState, "history")
_deal_result = fast_constructor(DealResult)

_WHY: dict[Phase, Callable[[GameState, Action], str]] = {
    Phase.AUCTION: bidding.why_illegal,
    Phase.MUSIK: talon.why_illegal,
    Phase.EXCHANGE: talon.why_illegal,
    Phase.CONTRACT: talon.why_illegal,
    Phase.PLAY: tricks.why_illegal,
}


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The current player's legal actions in a fixed order (empty when the game is over),
    computed once per state and kept in its ``legal_cache``."""
    legal = state.legal_cache
    if legal is not None:
        return legal
    phase = state.phase
    if phase is Phase.PLAY:
        legal = tricks.legal_actions(state)
    elif phase is Phase.AUCTION:
        legal = bidding.legal_actions(state)
    elif phase is Phase.EXCHANGE:
        legal = talon.legal_exchange(state)
    elif phase is Phase.CONTRACT:
        legal = talon.legal_contracts(state)
    elif phase is Phase.MUSIK:
        legal = talon.legal_takes(state)
    else:
        legal = ()
    object.__setattr__(state, "legal_cache", legal)
    return legal


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action`` by the current player; raises ``IllegalActionError`` unless the
    action is one of ``legal_actions(state)`` (it is then played as the engine's own instance).

    Each phase offers actions of its own kinds only, so the phase tells the action's type."""
    for own in state.legal_cache or legal_actions(state):
        if own is action:
            break
    else:
        action = _own_equal(state, action)
    phase = state.phase
    if phase is Phase.PLAY:
        after = tricks.play(state, action)  # type: ignore[arg-type]
        if after.trick_cards or after.hand_masks[after.player]:
            return after
        return _end_deal(after, conceded=False)
    if phase is Phase.AUCTION:
        after = bidding.apply(state, action)
        return talon.open_talon(after) if bidding.is_over(after) else after
    if phase is Phase.EXCHANGE:
        after = talon.exchange(state, action)  # type: ignore[arg-type]
        if after.phase is Phase.CONTRACT and redeals.checks_after_exchange(after.rules):
            thrown = redeals.after_exchange(after.rules, after.hand_masks, after.context.active)
            if thrown is not None:
                return _thrown_in(after, thrown, deal_next=True)
        return after
    if phase is Phase.CONTRACT:
        if isinstance(action, Concede):
            return _end_deal(_conceded(state, (state.history, state.player, action)), True)
        return talon.fix_contract(state, action)  # type: ignore[arg-type]
    return talon.take(state, action)  # type: ignore[arg-type]


def _own_equal(state: GameState, action: object) -> Action:
    """The engine's own legal action equal to ``action`` (built elsewhere), else the error."""
    own = state.legal_match(action)
    if own is None:
        raise _illegal(state, action)
    return own


def _illegal(state: GameState, action: object) -> IllegalActionError:
    if state.phase is Phase.OVER:
        return IllegalActionError(
            action,
            None,
            str(state.phase),
            "the game is over; start another with new_match() or new_deal()",
        )
    if not any(type(action) is kind for kind in ACTION_TYPES):
        reason = (
            f"{type(action).__name__} is not an action; read text with parse_action(), "
            "as in state.apply(parse_action('pass'))"
        )
    elif (odd := _not_whole(action)) and any(
        type(own) is type(action) for own in legal_actions(state)
    ):
        reason = odd
    else:
        try:
            reason = _WHY[state.phase](state, cast(Action, action))
        except Exception:
            reason = f"this {type(action).__name__} holds values no action has"
    return IllegalActionError(action, state.player, str(state.phase), reason)


def _not_whole(action: object) -> str | None:
    """Why an amount, musik or seat of ``action`` cannot be taken (``Bid(105.0)``: the engine
    compares numbers by type as well as value), or ``None`` when each is an ``int``."""
    for field, name in (("amount", "amount"), ("musik", "musik"), ("to", "seat")):
        value = getattr(action, field, 0)
        if type(value) is not int:
            return f"the {name} must be a whole number (an int), not {value!r}"
    return None


def _end_deal(state: GameState, conceded: bool) -> GameState:
    """Score the finished deal, then end the game or deal the next one."""
    rules = state.rules
    context = state.context
    points = scoring.deal_points(state)
    deal = scoring.deal_scores(state, points, conceded)
    standing = scoring.end_of_deal(state, deal, points, conceded)
    result = _result(state, None if conceded else state.contract_amount, points, standing, None)
    return _deal_from(
        _after_deal(state, result, (context.dealer + 1) % rules.players, context.scored_deals + 1)
    )


def _thrown_in(state: GameState, thrown: ThrowIn, deal_next: bool) -> GameState:
    """The deal is thrown in: it scores nothing, no counter moves, and the same dealer deals the
    next deal number (the game ends instead after a single deal or at ``max_deals``)."""
    context = state.context
    nothing = (0,) * state.rules.players
    unchanged = scoring.Standing(
        nothing, context.scores, context.barrel, context.bolts, context.falls
    )
    result = _result(state, None, nothing, unchanged, thrown)
    after = _after_deal(state, result, context.dealer, context.scored_deals)
    return _deal_from(after) if deal_next else after


def _result(
    state: GameState,
    contract: int | None,
    points: tuple[int, ...],
    standing: scoring.Standing,
    thrown_in: ThrowIn | None,
) -> DealResult:
    """The result of ``state``'s deal, just finished: what it scored, and the match after it."""
    context = state.context
    return _deal_result(
        number=context.deal_number,
        dealer=context.dealer,
        layout=context.layout,
        declarer=state.bidder,
        bid=state.bid,
        contract=contract,
        points=points,
        deal_scores=standing.deal_scores,
        scores=standing.scores,
        barrel=standing.barrel,
        history=state.history,
        exchanged=state.exchanged,
        bolts=standing.bolts,
        falls=standing.falls,
        thrown_in=thrown_in,
    )


def _after_deal(state: GameState, result: DealResult, dealer: int, scored_deals: int) -> GameState:
    """The game after the deal ``result`` ends: over (a winner, a single deal, or the deal
    limit), else the next deal, dealt by ``dealer``."""
    rules = state.rules
    context = state.context
    deals = (*context.deals, result)
    won = () if result.thrown_in else scoring.winners(state, result.scores)
    adjudicated = not won and len(deals) >= rules.max_deals
    if adjudicated:
        won = scoring.highest(result.scores, range(rules.players))
    outcome: DealResult | MatchResult | None = None
    if context.origin.single_deal:
        outcome = result
    elif won or adjudicated:
        outcome = MatchResult(
            winners=won,
            scores=result.scores,
            settlement=scoring.settlement(rules, result.scores, won),
            deals=len(deals),
            adjudicated=adjudicated,
        )
    if outcome is None:
        return start_of_deal(
            rules,
            context.origin,
            context.deal_number + 1,
            dealer,
            result.scores,
            result.barrel,
            deals,
            None,
            result.bolts,
            result.falls,
            scored_deals,
        )
    final = attrs.evolve(
        context,
        scores=result.scores,
        barrel=result.barrel,
        deals=deals,
        bolts=result.bolts,
        falls=result.falls,
        scored_deals=scored_deals,
    )
    return attrs.evolve(state, context=final, result=outcome, phase=Phase.OVER, player=NOBODY)


# The state class asks this dispatcher directly: no call in between.
GameState.legal_actions = legal_actions
GameState.apply = apply
