"""Rule tests of what follows the auction (RULES.md 1.4): the talon and the exchange (3 players),
the musik choice and the cards laid aside (2 players), the contract limits and concession."""

import attrs
import pytest

import thousand
from tests.support import assert_refused, legal_texts, play
from tests.test_auction import assert_illegal, layout_around
from thousand import (
    Card,
    Concession,
    Contract,
    DealResult,
    Give,
    Layout,
    Phase,
    Rules,
    SetAside,
    Take,
)

RUSSIAN = Rules.preset("russian")
POLISH = Rules.preset("polish")
POLISH_2P = Rules.preset("polish-2p")


def contracts(low, high, step, concede):
    """The contract actions from ``low`` to ``high``, then ``concede`` when allowed."""
    texts = [f"contract {amount}" for amount in range(low, high + 1, step)]
    return [*texts, "concede"] if concede else texts


# --- three players: the talon and the exchange ------------------------------------------------

# Dealer 2: both others pass, so seat 0 (the forehand) declares 100 and takes 9H 9D 9C.
EXCHANGE_LAYOUT = layout_around("AH TH AD TD AC TC KS", "9H 9D 9C", seat=0)


def after_auction(rules=RUSSIAN):
    """The exchange of the deal above: seat 0 holds its 7 cards and the talon."""
    return play(thousand.new_deal(rules, layout=EXCHANGE_LAYOUT, dealer=2), "pass", "pass")


def test_declarer_takes_the_talon_shown_to_everyone():
    """After the auction the talon joins the declarer's hand and every seat sees what it was."""
    state = after_auction()
    assert state.phase is Phase.EXCHANGE
    assert state.current_player == 0
    hand = thousand.cards("AH TH AD TD AC TC KS 9H 9D 9C")
    assert set(state.hands[0]) == set(hand)
    assert state.talon == ((),)
    for seat in range(3):
        assert state.observation(seat).talon == thousand.cards("9H 9D 9C")
    in_display_order = sorted(hand, key=lambda card: card.index, reverse=True)
    assert legal_texts(state) == [
        f"give {card} {seat}" for card in in_display_order for seat in (1, 2)
    ]


def test_declarer_gives_one_card_face_down_to_each_opponent():
    """Each opponent gets exactly one card, seen only by it; then everyone holds 8 cards."""
    state = play(after_auction(), "give 9H 1")
    assert state.phase is Phase.EXCHANGE
    assert [len(hand) for hand in state.hands] == [9, 8, 7]
    assert all(text.endswith(" 2") for text in legal_texts(state))
    assert state.observation(1).received == thousand.Card.parse("9H")
    assert state.observation(2).received is None
    assert str(state.observation(2).history[-1][1]) == "give ?? 1"
    assert str(state.observation(1).history[-1][1]) == "give 9H 1"
    state = play(state, "give 9D 2")
    assert state.phase is Phase.CONTRACT
    assert state.current_player == 0
    assert [len(hand) for hand in state.hands] == [8, 8, 8]
    assert thousand.Card.parse("9D") in state.hands[2]
    assert state.observation(2).received == thousand.Card.parse("9D")
    assert str(state.observation(1).history[-1][1]) == "give ?? 2"


ILLEGAL_EXCHANGE = [
    pytest.param((), "give KH 1", "KH is not in the declarer's hand", id="card-not-in-hand"),
    pytest.param(
        ("give 9H 1",),
        "give 9D 1",
        "seat 1 is not waiting for a card; give to seat 2",
        id="second-card-same-seat",
    ),
    pytest.param(
        (), "give 9H 0", "seat 0 is not waiting for a card; give to seat 1 or 2", id="give-to-self"
    ),
    pytest.param(
        (),
        "discard 9H",
        "the declarer now gives one card to each opponent, as in 'give 9S 1'",
        id="discard-in-3p",
    ),
    pytest.param(
        (),
        "contract 100",
        "the declarer now gives one card to each opponent, as in 'give 9S 1'",
        id="contract-too-early",
    ),
    pytest.param(
        (),
        "concede",
        "the declarer now gives one card to each opponent, as in 'give 9S 1'",
        id="concede-too-early",
    ),
]


@pytest.mark.parametrize(("before", "text", "reason"), ILLEGAL_EXCHANGE)
def test_illegal_exchange_actions_are_refused(before, text, reason):
    """Giving a card not held, to a seat already served, or anything but a give, raises."""
    state = play(after_auction(), *before)
    assert state.phase is Phase.EXCHANGE
    assert_illegal(state, text, reason)


# --- the contract -----------------------------------------------------------------------------

PASS_PASS = ("pass", "pass")
CONTRACT_LIMITS = [
    pytest.param(
        RUSSIAN,
        layout_around("AH TH AD TD AC TC KS", "9H 9D 9C", seat=0),
        PASS_PASS,
        ("give 9H 1", "give 9D 2"),
        contracts(100, 120, 5, concede=True),
        id="no-marriage-100-to-120",
    ),
    pytest.param(
        RUSSIAN,
        layout_around("KH AD TD AC TC AS 9S", "QH 9D 9C", seat=0),
        PASS_PASS,
        ("give 9D 1", "give 9C 2"),
        contracts(100, 220, 5, concede=True),
        id="marriage-completed-from-talon-220",
    ),
    pytest.param(
        RUSSIAN,
        layout_around("KS QS AD TD AC TC AS", "9H 9D 9C", seat=0),
        PASS_PASS,
        ("give QS 1", "give 9D 2"),
        contracts(100, 120, 5, concede=True),
        id="marriage-given-away-120",
    ),
    pytest.param(
        RUSSIAN,
        layout_around("KS QS AD TD AC TC AS", "9H 9D 9C", seat=0),
        ("bid 105", "pass", "bid 160", "pass"),
        ("give QS 1", "give 9D 2"),
        ["contract 160", "concede"],
        id="bid-160-marriage-given-away-contract-is-the-bid",
    ),
    pytest.param(
        RUSSIAN,
        layout_around("KS QS KH AD TD AC TC", "QH 9D 9C", seat=0),
        ("bid 105", "pass", "bid 160", "pass"),
        ("give 9D 1", "give 9C 2"),
        contracts(160, 260, 5, concede=True),
        id="bid-160-two-marriages-after-talon-260",
    ),
    pytest.param(
        RUSSIAN,
        layout_around("AH AD AC KS 9S 9C 9D", "AS JH 9H", seat=0),
        PASS_PASS,
        ("give JH 1", "give 9H 2"),
        contracts(100, 320, 5, concede=True),
        id="four-aces-from-talon-320",
    ),
    pytest.param(
        POLISH,
        layout_around("KH QH KS QS AD TD 9C", "9H 9D JC", seat=0),
        PASS_PASS,
        ("give 9H 1", "give 9D 2"),
        contracts(100, 260, 10, concede=False),
        id="polish-two-marriages-260-no-concede",
    ),
    pytest.param(
        POLISH,
        layout_around("AH AD AC AS 9S 9C 9D", "JH 9H JS", seat=0),
        PASS_PASS,
        ("give JH 1", "give 9H 2"),
        contracts(100, 120, 10, concede=False),
        id="polish-four-aces-count-nothing",
    ),
    pytest.param(
        RUSSIAN,
        layout_around("AH TH AD TD AC TC KS", "9H 9D 9C", seat=1),
        ("bid 115", "pass", "pass"),
        ("give 9H 0", "give 9D 2"),
        contracts(115, 120, 5, concede=True),
        id="minimum-is-the-winning-bid-115",
    ),
]


@pytest.mark.parametrize(("rules", "layout", "auction", "gives", "expected"), CONTRACT_LIMITS)
def test_contract_runs_from_the_bid_to_120_plus_marriages_after_exchange(
    rules, layout, auction, gives, expected
):
    """Contracts go from the winning bid to 120 + the marriages held after the exchange."""
    state = play(thousand.new_deal(rules, layout=layout, dealer=2), *auction, *gives)
    assert state.phase is Phase.CONTRACT
    assert legal_texts(state) == expected


ILLEGAL_CONTRACTS = [
    pytest.param(
        RUSSIAN,
        "contract 95",
        "the contract may not be below the winning bid of 100",
        id="below-bid",
    ),
    pytest.param(
        RUSSIAN,
        "contract 125",
        "the contract may not exceed 120 (120 plus the marriages in hand)",
        id="above-ceiling",
    ),
    pytest.param(RUSSIAN, "contract 102", "contracts go in steps of 5", id="off-step"),
    pytest.param(POLISH, "contract 105", "contracts go in steps of 10", id="polish-off-step"),
    pytest.param(POLISH, "concede", "these rules do not allow conceding", id="polish-concede"),
    pytest.param(
        RUSSIAN,
        "bid 110",
        "the declarer now fixes the contract ('contract N') or concedes",
        id="bid",
    ),
    pytest.param(
        POLISH, "play AH", "the declarer now fixes the contract ('contract N')", id="play-too-early"
    ),
]


@pytest.mark.parametrize(("rules", "text", "reason"), ILLEGAL_CONTRACTS)
def test_illegal_contracts_are_refused(rules, text, reason):
    """A contract off the step or outside [bid, ceiling], or a concession where none, raises."""
    state = play(after_auction(rules), "give 9H 1", "give 9D 2")
    assert state.phase is Phase.CONTRACT
    assert_illegal(state, text, reason)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        pytest.param(
            Contract(100.0), "the amount must be a whole number (an int), not 100.0", id="float"
        ),
        pytest.param(
            Contract(True), "the amount must be a whole number (an int), not True", id="bool"
        ),
        pytest.param(
            Give(Card.parse("9H"), "1"),
            "the seat must be a whole number (an int), not '1'",
            id="seat",
        ),
    ],
)
def test_an_amount_or_seat_that_is_not_a_whole_number_is_refused_as_such(action, reason):
    """A contract of 100.0 is refused for not being a whole number, not as too high; so is a
    card given to seat "1"."""
    state = after_auction(RUSSIAN)
    if isinstance(action, Contract):
        state = play(state, "give 9H 1", "give 9D 2")
    assert_refused(state, action, reason)


def test_a_musik_that_is_not_a_whole_number_is_refused_as_such():
    """In the two-player game's musik choice, musik "1" is refused for not being a whole
    number; in the exchange, where no musik is taken, it is refused as out of turn."""
    assert_refused(musik_choice(), Take("1"), "the musik must be a whole number (an int), not '1'")
    assert_refused(
        after_auction(RUSSIAN),
        Take("1"),
        "the declarer now gives one card to each opponent, as in 'give 9S 1'",
    )


def test_fixing_the_contract_starts_play_with_the_declarer_leading():
    """After 'contract N' the declarer leads the first trick under that contract."""
    state = play(after_auction(), "give 9H 1", "give 9D 2", "contract 115")
    assert state.phase is Phase.PLAY
    assert state.contract == 115
    assert state.bid == 100
    assert state.current_player == 0
    assert state.trick == ()


# --- concession -------------------------------------------------------------------------------

CONCESSIONS = [
    pytest.param(Concession.PENALTY, 100, -100, 50, id="penalty-100"),
    pytest.param(Concession.PENALTY, 105, -105, 55, id="penalty-105-half-rounds-up"),
    pytest.param(Concession.PENALTY, 110, -110, 55, id="penalty-110"),
    pytest.param(Concession.PENALTY, 115, -115, 60, id="penalty-115-half-rounds-up"),
    pytest.param(Concession.PENALTY, 120, -120, 60, id="penalty-120"),
    pytest.param(Concession.PENALTY, 165, -165, 85, id="penalty-165-above-120"),
    pytest.param(Concession.FREE, 100, 0, 50, id="free-100"),
    pytest.param(Concession.FREE, 105, 0, 55, id="free-105"),
    pytest.param(Concession.FREE, 125, 0, 65, id="free-125"),
]


@pytest.mark.parametrize(("mode", "bid", "declarer_score", "share"), CONCESSIONS)
def test_concession_scores(mode, bid, declarer_score, share):
    """Conceding: opponents get half the bid rounded up to 5; the declarer 0 or minus the bid."""
    rules = attrs.evolve(RUSSIAN, concession=mode)
    # Dealer 2. Seat 1 holds the hearts marriage (ceiling 220) and bids; at 100 nobody bids and
    # seat 0, the forehand, declares.
    layout = layout_around("KH QH AS TS 9C JC 9D", seat=1)
    auction = ["pass", "pass"] if bid == 100 else [f"bid {bid}", "pass", "pass"]
    start = (200, 300, 400)
    state = play(thousand.new_deal(rules, layout=layout, dealer=2, scores=start), *auction)
    declarer = state.declarer
    while state.phase is Phase.EXCHANGE:
        state = state.apply(state.legal_actions()[0])
    assert state.phase is Phase.CONTRACT
    assert legal_texts(state)[-1] == "concede"
    state = play(state, "concede")
    assert state.is_over
    result = state.result
    assert isinstance(result, DealResult)
    assert result.conceded
    assert result.contract is None
    assert not result.made
    assert result.declarer == declarer
    assert result.bid == bid
    expected = tuple(declarer_score if seat == declarer else share for seat in range(3))
    assert result.deal_scores == expected
    assert result.scores == tuple(s + d for s, d in zip(start, expected, strict=True))


def test_russian_preset_concedes_with_penalty():
    """The Russian preset's concession costs the declarer the bid."""
    state = play(after_auction(), "give 9H 1", "give 9D 2", "concede")
    assert RUSSIAN.concession is Concession.PENALTY
    assert state.result.deal_scores == (-100, 50, 50)


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(POLISH, id="polish-preset"),
        pytest.param(attrs.evolve(RUSSIAN, concession=Concession.NONE), id="russian-none"),
    ],
)
def test_no_concession_when_disallowed(rules):
    """With concession 'none' the declarer must fix a contract: 'concede' is not offered."""
    state = play(after_auction(rules), "give 9H 1", "give 9D 2")
    assert "concede" not in legal_texts(state)
    assert_illegal(state, "concede", "these rules do not allow conceding")


# --- two players: the musik and the cards laid aside -------------------------------------------

# Dealer 0: seat 0 passes at once and seat 1 (the forehand) declares 100. Seat 1 holds all
# hearts, three diamonds and 9S; seat 0 holds spades A-J and clubs T-9. Musik 1 is QD JD
# (5 points), musik 2 is AC 9D (11 points).
TWO_PLAYER_LAYOUT = Layout(
    hands=["AS TS KS QS JS TC KC QC JC 9C", "AH TH KH QH JH 9H AD TD KD 9S"],
    talon=["QD JD", "AC 9D"],
)


def musik_choice(rules=POLISH_2P):
    """The two-player deal above after the auction: seat 1 chooses a musik."""
    return play(thousand.new_deal(rules, layout=TWO_PLAYER_LAYOUT, dealer=0), "pass")


@pytest.mark.parametrize(
    ("take", "chosen", "other"),
    [
        pytest.param(1, "QD JD", "AC 9D", id="take-musik-1"),
        pytest.param(2, "AC 9D", "QD JD", id="take-musik-2"),
    ],
)
def test_declarer_takes_one_musik_shown_to_the_opponent(take, chosen, other):
    """The chosen musik is shown and joins the hand (12 cards); the other stays face down."""
    state = musik_choice()
    assert state.phase is Phase.MUSIK
    assert state.current_player == 1
    assert legal_texts(state) == ["take 1", "take 2"]
    state = play(state, f"take {take}")
    assert state.phase is Phase.EXCHANGE
    hand = set(TWO_PLAYER_LAYOUT.hands[1]) | set(thousand.cards(chosen))
    assert set(state.hands[1]) == hand
    assert len(state.hands[1]) == 12
    assert {card for pile in state.talon for card in pile} == set(thousand.cards(other))
    opponent = state.observation(0)
    assert opponent.talon == thousand.cards(chosen)
    hidden = set(thousand.cards(other))
    assert not hidden & set(opponent.talon)
    assert not hidden & set(state.observation(1).talon)
    assert legal_texts(state) == [
        f"discard {card}" for card in sorted(hand, key=lambda card: card.index, reverse=True)
    ]


def test_declarer_lays_two_cards_aside_face_down():
    """Two discards bring the hand back to 10; only the declarer knows which cards they were."""
    state = play(musik_choice(), "take 1", "discard TD")
    assert state.phase is Phase.EXCHANGE
    state = play(state, "discard JD")
    assert state.phase is Phase.CONTRACT
    assert set(state.set_aside) == set(thousand.cards("TD JD"))
    assert [len(hand) for hand in state.hands] == [10, 10]
    assert state.observation(0).set_aside == ()
    assert set(state.observation(1).set_aside) == set(thousand.cards("TD JD"))
    assert [str(action) for _, action in state.observation(0).history[-2:]] == [
        "discard ??",
        "discard ??",
    ]
    # Hearts and diamonds marriages kept: 120 + 180; Polish steps of 10, no concession.
    assert legal_texts(state) == contracts(100, 300, 10, concede=False)


ILLEGAL_TWO_PLAYER = [
    pytest.param(
        (), "discard 9S", "choose a musik with 'take 1' or 'take 2'", id="discard-before-musik"
    ),
    pytest.param((), "take 3", "choose a musik with 'take 1' or 'take 2'", id="no-third-musik"),
    pytest.param(("take 1",), "discard AC", "AC is not in the declarer's hand", id="other-musik"),
    pytest.param(
        ("take 1",),
        "give QD 0",
        "the declarer now lays two cards aside, as in 'discard 9S'",
        id="give-in-2p",
    ),
    pytest.param(
        ("take 1",),
        "take 2",
        "the declarer now lays two cards aside, as in 'discard 9S'",
        id="second-musik",
    ),
    pytest.param(
        ("take 1", "discard TD"), "discard TD", "TD is not in the declarer's hand", id="twice"
    ),
]


@pytest.mark.parametrize(("before", "text", "reason"), ILLEGAL_TWO_PLAYER)
def test_illegal_musik_actions_are_refused(before, text, reason):
    """Only 'take 1|2', then discards of cards in hand, are legal before the contract."""
    state = play(musik_choice(), *before)
    assert_illegal(state, text, reason)


# Seat 1 takes musik 1, lays TD JD aside (12 points); musik 2 (AC 9D, 11 points) stays untaken,
# so 23 points are out of play. Seat 1 leads all ten tricks: nine red cards (declaring the hearts
# and diamonds marriages, +180) that seat 0 cannot follow, then 9S, which seat 0 takes with AS.
SET_ASIDE_PLAY = (
    "take 1",
    "discard TD",
    "discard JD",
    "contract 280",
    *("play AH", "play 9C", "play TH", "play JC", "play KH marriage", "play QC"),
    *("play QH", "play KC", "play JH", "play TC", "play 9H", "play JS", "play AD", "play QS"),
    *("play KD marriage", "play KS", "play QD", "play TS", "play 9S", "play AS"),
)


@pytest.mark.parametrize(
    ("credit", "points", "deal_scores"),
    [
        pytest.param(SetAside.NOBODY, (11, 266), (10, -280), id="nobody"),
        pytest.param(SetAside.DECLARER, (11, 289), (10, 280), id="declarer"),
        pytest.param(SetAside.LAST_TRICK_WINNER, (34, 266), (30, -280), id="last-trick-winner"),
    ],
)
def test_points_of_the_four_cards_out_of_play(credit, points, deal_scores):
    """The 4 out-of-play cards score for nobody, the declarer or the last trick's winner."""
    rules = attrs.evolve(POLISH_2P, set_aside=credit)
    state = play(musik_choice(rules), *SET_ASIDE_PLAY)
    assert state.is_over
    result = state.result
    assert state.points_taken == (11, 86)
    assert result.points == points
    assert result.deal_scores == deal_scores
    assert result.scores == deal_scores


def test_two_player_default_scores_the_set_aside_for_nobody():
    """The polish-2p preset credits the four out-of-play cards to nobody."""
    assert POLISH_2P.set_aside is SetAside.NOBODY
    state = play(musik_choice(), *SET_ASIDE_PLAY)
    assert sum(state.points_taken) == 120 - 23
