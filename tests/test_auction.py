"""Rule tests of the auction (RULES.md 1.3): the forehand's committed 100, bidding order, the
final pass, the ceiling of 120 plus the marriages held, and what a high bid reveals."""

import attrs
import pytest

import thousand
from tests.support import assert_refused, legal_texts, play
from thousand import DECK, Layout, Phase, Rules, parse_action
from thousand.classic.bidding import next_bidder

RUSSIAN = Rules.preset("russian")
POLISH = Rules.preset("polish")
POLISH_2P = Rules.preset("polish-2p")
RUSSIAN_4 = Rules.preset("russian-4")
POLISH_4 = Rules.preset("polish-4")


def layout_around(hand, talon="", seat=1, players=3, sitter=None):
    """A layout where ``seat`` holds ``hand`` (and the talon starts with ``talon``); every other
    card goes to the other seats in deck order (spades 9..A, clubs, diamonds, hearts). With four
    seats the ``sitter`` gets no cards."""
    fixed = set(thousand.cards(hand)) | set(thousand.cards(talon))
    rest = [card for card in DECK if card not in fixed]
    size = 10 if players == 2 else 7
    hands = []
    for other in range(players):
        if other == seat:
            hands.append(hand)
        elif other == sitter:
            hands.append(())
        else:
            hands.append(rest[:size])
            rest = rest[size:]
    talon_cards = [*thousand.cards(talon), *rest]
    if players != 2:
        return Layout(hands=hands, talon=talon_cards)
    return Layout(hands=hands, talon=[talon_cards[:2], talon_cards[2:]])


def bids(step, top, low=100):
    """The auction actions of a player facing a bid of ``low``: pass, then every bid to ``top``."""
    return ["pass", *(f"bid {amount}" for amount in range(low + step, top + 1, step))]


def assert_illegal(state, text, reason):
    """Applying ``text`` raises an error naming the action, seat and phase; the state is intact."""
    assert_refused(state, parse_action(text), reason)


# --- the ceiling ------------------------------------------------------------------------------

# Dealer 2, so seat 0 is the forehand holding 100 and seat 1 bids first; seat 1's hand is the
# one that matters.
CEILINGS = [
    pytest.param(RUSSIAN, "AH AD TS TC KH QD 9S", "", 120, id="russian-no-marriage-120"),
    pytest.param(RUSSIAN, "KH AD TS TC 9S 9C 9D", "QH", 120, id="russian-partner-in-talon-120"),
    pytest.param(RUSSIAN, "KS QS AD TD 9C JC 9H", "", 160, id="russian-spades-marriage-160"),
    pytest.param(RUSSIAN, "KC QC AD TD 9S JS 9H", "", 180, id="russian-clubs-marriage-180"),
    pytest.param(RUSSIAN, "KD QD AS TS 9C JC 9H", "", 200, id="russian-diamonds-marriage-200"),
    pytest.param(RUSSIAN, "KH QH AS TS 9C JC 9D", "", 220, id="russian-hearts-marriage-220"),
    pytest.param(RUSSIAN, "KH QH KD QD 9C JC 9S", "", 300, id="russian-two-marriages-300"),
    pytest.param(RUSSIAN, "KH QH KD QD KC QC 9S", "", 360, id="russian-three-marriages-360"),
    pytest.param(RUSSIAN, "AH AD AC AS 9S 9C 9D", "", 320, id="russian-four-aces-320"),
    pytest.param(RUSSIAN, "AH AD AC AS KH QH 9S", "", 420, id="russian-aces-and-hearts-420"),
    pytest.param(RUSSIAN, "AH AD AC KH KS 9C 9D", "AS", 120, id="russian-three-aces-120"),
    pytest.param(POLISH, "AH AD AC AS 9S 9C 9D", "", 120, id="polish-four-aces-count-nothing"),
    pytest.param(POLISH, "KC QC AD TD 9S JS 9H", "", 180, id="polish-clubs-marriage-180"),
    pytest.param(POLISH, "KH QH KS QS 9C JC 9D", "", 260, id="polish-hearts-and-spades-260"),
    pytest.param(POLISH, "AH AD TS TC KH QD 9S", "", 120, id="polish-no-marriage-120"),
    pytest.param(
        attrs.evolve(POLISH, bid_step=1), "AH AD TS TC KH QD 9S", "", 120, id="step-1-ends-at-120"
    ),
    pytest.param(
        attrs.evolve(POLISH, bid_step=20), "KC QC AD TD 9S JS 9H", "", 180, id="step-20-ends-at-180"
    ),
]


@pytest.mark.parametrize(("rules", "hand", "talon", "top"), CEILINGS)
def test_bid_ceiling_is_120_plus_marriages_in_hand(rules, hand, talon, top):
    """A player may bid up to 120 plus the marriages (and four aces where on) really held."""
    state = thousand.new_deal(rules, layout=layout_around(hand, talon), dealer=2)
    assert state.current_player == 1
    assert legal_texts(state) == bids(rules.bid_step, top)


def test_a_hand_whose_ceiling_is_below_the_bid_can_only_pass():
    """Bids start a step above the current bid; a hand whose ceiling is lower may only pass."""
    # Dealer 2: seat 1 (hearts marriage, ceiling 220) bids 130; seat 2 holds no marriage
    # (ceiling 120); seat 0, the forehand, holds the spades marriage (ceiling 160).
    layout = Layout(
        hands=["KS QS AD TD AC TC 9H", "KH QH AS TS 9D JD 9C", "JS 9S KD QC JC AH TH"],
        talon="QD KC JH",
    )
    state = play(thousand.new_deal(RUSSIAN, layout=layout, dealer=2), "bid 130")
    assert state.current_player == 2
    assert legal_texts(state) == ["pass"]
    state = play(state, "pass")
    assert state.current_player == 0
    assert legal_texts(state) == bids(5, 160, low=130)


# --- illegal bids -----------------------------------------------------------------------------

ILLEGAL_BIDS = [
    pytest.param(
        RUSSIAN,
        "AH AD TS TC KH QD 9S",
        (),
        "bid 125",
        (
            "this hand allows bids up to 120 (120 plus the marriages "
            "held); a bid above it needs marriages in hand"
        ),
        id="over-120-bare",
    ),
    pytest.param(
        RUSSIAN,
        "KS QS AD TD 9C JC 9H",
        (),
        "bid 165",
        (
            "this hand allows bids up to 160 (120 plus the marriages "
            "held); a bid above it needs marriages in hand"
        ),
        id="over-spades",
    ),
    pytest.param(
        RUSSIAN,
        "AH AD AC KH KS 9C 9D",
        (),
        "bid 320",
        (
            "this hand allows bids up to 120 (120 plus the marriages "
            "held); a bid above it needs marriages in hand"
        ),
        id="three-aces",
    ),
    pytest.param(
        POLISH,
        "AH AD AC AS 9S 9C 9D",
        (),
        "bid 130",
        (
            "this hand allows bids up to 120 (120 plus the marriages "
            "held); a bid above it needs marriages in hand"
        ),
        id="polish-aces",
    ),
    pytest.param(
        RUSSIAN, "AH AD TS TC KH QD 9S", (), "bid 107", "bids go in steps of 5", id="off-step-5"
    ),
    pytest.param(
        POLISH, "AH AD TS TC KH QD 9S", (), "bid 105", "bids go in steps of 10", id="off-step-10"
    ),
    pytest.param(
        RUSSIAN,
        "AH AD TS TC KH QD 9S",
        (),
        "bid 100",
        "a bid must be above the current bid of 100",
        id="equal",
    ),
    pytest.param(
        RUSSIAN,
        "AH AD TS TC KH QD 9S",
        ("bid 110",),
        "bid 110",
        "a bid must be above the current bid of 110",
        id="not-above-last-bid",
    ),
    pytest.param(
        RUSSIAN,
        "AH AD TS TC KH QD 9S",
        (),
        "contract 100",
        "in the auction a player bids or passes",
        id="wrong-phase",
    ),
    pytest.param(
        RUSSIAN,
        "AH AD TS TC KH QD 9S",
        (),
        "play AH",
        "in the auction a player bids or passes",
        id="play-card",
    ),
]


@pytest.mark.parametrize(("rules", "hand", "before", "text", "reason"), ILLEGAL_BIDS)
def test_illegal_auction_actions_are_refused(rules, hand, before, text, reason):
    """A bid over the ceiling, off the step or not above the last bid raises, changing nothing."""
    state = play(thousand.new_deal(rules, layout=layout_around(hand), dealer=2), *before)
    assert state.phase is Phase.AUCTION
    assert_illegal(state, text, reason)


# --- order, the final pass, the forehand ------------------------------------------------------

ALL_PASS = [
    pytest.param(RUSSIAN, 0, [2, 0], 1, id="russian-dealer-0-forehand-1"),
    pytest.param(RUSSIAN, 2, [1, 2], 0, id="russian-dealer-2-forehand-0"),
    pytest.param(POLISH, 1, [0, 1], 2, id="polish-dealer-1-forehand-2"),
    pytest.param(POLISH_2P, 0, [0], 1, id="two-players-dealer-0-forehand-1"),
    pytest.param(POLISH_2P, 1, [1], 0, id="two-players-dealer-1-forehand-0"),
    # Four seats: the sitter (right of the dealer, or the dealer) is skipped.
    pytest.param(RUSSIAN_4, 0, [2, 0], 1, id="russian-4-dealer-0-sitter-3-forehand-1"),
    pytest.param(RUSSIAN_4, 3, [1, 3], 0, id="russian-4-dealer-3-sitter-2-forehand-0"),
    pytest.param(POLISH_4, 0, [2, 3], 1, id="polish-4-dealer-0-sits-out-forehand-1"),
    pytest.param(POLISH_4, 2, [0, 1], 3, id="polish-4-dealer-2-sits-out-forehand-3"),
]


@pytest.mark.parametrize(("rules", "dealer", "order", "forehand"), ALL_PASS)
def test_everybody_else_passes_and_the_forehand_plays_100(rules, dealer, order, forehand):
    """The forehand is committed to 100 without acting; when all others pass it declares 100."""
    players = rules.players
    sitter = rules.sitter_of(dealer) if players == 4 else None
    # Seat 1's hand is fixed; the rest of the deck goes to the others in deck order.
    hand = "AH AD TS TC KH QD 9S" if players != 2 else "AH AD TS TC KH QD 9S JS JC JD"
    seat = 1 if sitter != 1 else 0
    layout = layout_around(hand, seat=seat, players=players, sitter=sitter)
    state = thousand.new_deal(rules, layout=layout, dealer=dealer)
    assert state.bid == 100
    assert state.declarer is None
    seen = []
    for _ in order:
        seen.append(state.current_player)
        assert "bid 100" not in legal_texts(state)
        state = play(state, "pass")
    assert seen == order
    assert forehand not in seen
    assert sitter not in seen
    assert state.declarer == forehand
    assert state.bid == 100
    assert [seat for seat, _ in state.actions] == order
    if players != 2:
        assert state.phase is Phase.EXCHANGE
        assert state.current_player == forehand
        assert len(state.hands[forehand]) == 10
        assert state.talon == ((),)
    else:
        assert state.phase is Phase.MUSIK
        assert state.current_player == forehand
        assert legal_texts(state) == ["take 1", "take 2"]


AUCTIONS = [
    pytest.param(
        RUSSIAN,
        ["bid 105", "pass", "bid 110", "bid 115", "pass"],
        [1, 2, 0, 1, 0],
        1,
        115,
        id="passed-seat-2-is-skipped",
    ),
    pytest.param(
        RUSSIAN,
        ["pass", "bid 105", "bid 110", "pass"],
        [1, 2, 0, 2],
        0,
        110,
        id="forehand-raises-when-turn-returns",
    ),
    pytest.param(
        RUSSIAN, ["pass", "bid 105", "pass"], [1, 2, 0], 2, 105, id="forehand-passes-its-100"
    ),
    pytest.param(
        RUSSIAN,
        ["bid 120", "bid 125", "bid 130", "pass", "pass"],
        [1, 2, 0, 1, 2],
        0,
        130,
        id="three-bidders-then-two-passes",
    ),
    pytest.param(
        POLISH, ["bid 110", "pass", "bid 120", "pass"], [1, 2, 0, 1], 0, 120, id="polish-steps"
    ),
    pytest.param(
        POLISH_2P, ["bid 110", "bid 120", "pass"], [1, 0, 1], 0, 120, id="two-players-raise"
    ),
    # E1 (HOUSE-RULES.md 4.12): dealer 2, sitter 1, forehand 3; the order is 3, 0, 2, 3, ...
    pytest.param(RUSSIAN_4, ["bid 105", "pass", "pass"], [0, 2, 3], 0, 105, id="e1-four-seats"),
    pytest.param(
        RUSSIAN_4,
        ["bid 105", "bid 110", "bid 120", "pass", "pass"],
        [0, 2, 3, 0, 2],
        3,
        120,
        id="four-seats-the-sitter-is-skipped",
    ),
]


@pytest.mark.parametrize(("rules", "texts", "order", "declarer", "bid"), AUCTIONS)
def test_a_pass_is_final_and_the_last_bidder_declares(rules, texts, order, declarer, bid):
    """Turns go clockwise skipping passed seats; the auction ends when all but one have passed."""
    if rules.players == 4:
        layout = Layout(
            hands=["AC TC KC QC JC 9S TS", "", "TD KD QD JD KS QS JS", "AH TH KH QH JH 9D 9C"],
            talon="AS AD 9H",
        )
        dealer = 2
    elif rules.players == 3:
        # Seats 0 and 2 hold the hearts and diamonds marriages, so every bid here is legal.
        layout = Layout(
            hands=["KH QH AS TS KS 9C JC", "AH TH JH 9H AD TD 9D", "KD QD AC TC KC QC QS"],
            talon="JD JS 9S",
        )
        dealer = 2
    else:
        layout = Layout(
            hands=["KH QH AS TS KS 9C JC AH TH JH", "KD QD AC TC KC QC QS 9H AD TD"],
            talon=["9D JD", "JS 9S"],
        )
        dealer = 1
    state = thousand.new_deal(rules, layout=layout, dealer=dealer)
    seen = []
    passed = set()
    for text in texts:
        assert state.phase is Phase.AUCTION
        assert state.current_player not in passed
        seen.append(state.current_player)
        if text == "pass":
            passed.add(state.current_player)
        state = play(state, text)
    assert seen == order
    assert state.phase is not Phase.AUCTION
    assert state.declarer == declarer
    assert state.bid == bid


def test_forehand_facing_a_bid_may_pass_or_raise_to_its_ceiling():
    """When the turn comes back, the forehand chooses among pass and raises like anyone else."""
    # Seat 0 (forehand, dealer 2) holds the spades marriage: its ceiling is 160.
    layout = layout_around("KS QS AH AD 9C JC 9D", seat=0)
    state = play(thousand.new_deal(RUSSIAN, layout=layout, dealer=2), "bid 105", "pass")
    assert state.current_player == 0
    assert legal_texts(state) == bids(5, 160, low=105)


def test_a_bid_above_120_reveals_no_marriage():
    """Two deals that differ only in which marriage the bidder holds look the same to the others."""
    # Seat 1 bids 160: with the spades marriage in one deal, the hearts marriage in the other;
    # the other pair lies in the (still hidden) talon.
    others = ["AH TH AD TD AC TC AS", "9H JH 9D JD 9C JC QD"]
    spades = Layout(hands=[others[0], "KS QS 9S JS TS KD KC", others[1]], talon="KH QH QC")
    hearts = Layout(hands=[others[0], "KH QH 9S JS TS KD KC", others[1]], talon="KS QS QC")
    views = []
    for layout in (spades, hearts):
        state = play(thousand.new_deal(RUSSIAN, layout=layout, dealer=2), "bid 160")
        assert state.bid == 160
        assert state.melds == ()
        views.append([state.observation(seat) for seat in (0, 2)])
    assert views[0] == views[1]
    assert [str(action) for _, action in views[0][1].history] == ["bid 160"]


def test_the_next_bidder_skips_those_who_passed_and_never_runs_round_for_ever() -> None:
    """The turn goes to the next seat that has not passed; with every seat passed (which the
    auction never asks) it is an error naming the cause, not an endless search."""
    state = thousand.new_deal(RUSSIAN, seed=1, dealer=0)
    assert state.current_player == 2
    assert next_bidder(state, 0b000) == 0
    assert next_bidder(state, 0b001) == 1
    with pytest.raises(RuntimeError, match="went round the table after seat 2"):
        next_bidder(state, 0b111)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        pytest.param(
            thousand.Bid(105.0), "the amount must be a whole number (an int), not 105.0", id="float"
        ),
        pytest.param(
            thousand.Bid(True), "the amount must be a whole number (an int), not True", id="bool"
        ),
    ],
)
def test_a_bid_that_is_not_a_whole_number_is_refused_as_such(action, reason) -> None:
    """A bid of 105.0 is refused for not being a whole number, not as beyond the hand's
    ceiling."""
    assert_refused(thousand.new_deal(RUSSIAN, seed=1), action, reason)
