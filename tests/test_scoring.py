"""Rule tests of scoring and the end of a match (RULES.md 1.6 and 1.7): deal scores and rounding,
the barrel, the lock, crossing 1000, settlement and the deal cap."""

import attrs
import pytest

import thousand
from tests.support import play
from thousand import (
    BarrelCapacity,
    Concession,
    DealResult,
    Endgame,
    Layout,
    MatchResult,
    Phase,
    Play,
    Rules,
    RulesError,
)
from thousand.classic.scoring import round_defence

RUSSIAN = Rules.preset("russian")
POLISH = Rules.preset("polish")
SINGLE = attrs.evolve(RUSSIAN, barrel_capacity=BarrelCapacity.SINGLE)
OPEN_END = attrs.evolve(RUSSIAN, endgame=Endgame.NONE)

# The ending deal. Dealer 2: both others pass and seat 0 declares 100, takes 9C 9D JD and gives
# 9D to seat 1 and JD to seat 2. Seat 0 then holds all six hearts, 9C and 9S; seat 1 holds
# AS KS JS QC JC TD QD 9D; seat 2 holds TS QS AC TC KC AD KD JD.
# Seat 0 leads AH, KH (declaring the hearts marriage or not), QH, TH, JH, 9H: the defenders have
# no hearts and throw away all but the two cards they keep. Seat 0 then leads 9C (trick 7) and
# 9S (trick 8, or follows with it). So the defenders take exactly the tricks that their two kept
# cards win, and seat 0 takes all the rest: 120 card points minus theirs (+100 if declared).
ENDING = Layout(
    hands=["AH TH KH QH JH 9H 9S", "AS KS JS QC JC TD QD", "TS QS AC TC KC AD KD"],
    talon="9C 9D JD",
)


def ending_start(rules, scores=None, match=True):
    """The ending deal at its auction, as the first deal of a match or as a single deal."""
    if match:
        return thousand.new_match(rules, seed=5, layout=ENDING, dealer=2, scores=scores)
    return thousand.new_deal(rules, layout=ENDING, dealer=2, scores=scores)


def play_ending(state, contract, keep1, keep2, marriage=False, gives=("9D", "JD")):
    """Play the ending deal: the defenders keep ``keep1``/``keep2`` (trick 7 card, trick 8 card)
    after seat 0 gave them the talon cards ``gives``."""
    to_1, to_2 = gives
    state = play(state, "pass", "pass", f"give {to_1} 1", f"give {to_2} 2", f"contract {contract}")
    leads = ["AH", "KH", "QH", "TH", "JH", "9H", "9C", "9S"]
    kept = {1: thousand.cards(keep1), 2: thousand.cards(keep2)}
    number = state.deal_number
    while state.deal_number == number and not state.is_over:
        seat = state.current_player
        legal = state.legal_actions()
        if seat == 0 and not state.trick:
            card = thousand.Card.parse(leads.pop(0))
            action = Play(card, marriage=marriage and str(card) == "KH")
        elif seat == 0:
            (action,) = legal
        elif len(state.hands[seat]) > 2:
            action = next(a for a in legal if a.card not in kept[seat])
        else:
            action = Play(kept[seat][2 - len(state.hands[seat])])
        state = state.apply(action)
    return state


def ending_deal(rules, contract, keep1, keep2, marriage=False, scores=None):
    """The single ending deal played out; returns its DealResult."""
    state = play_ending(ending_start(rules, scores, match=False), contract, keep1, keep2, marriage)
    assert state.is_over
    assert isinstance(state.result, DealResult)
    return state.result


def autopilot(state, avoid):
    """Play the current deal to its end with legal choices, never letting seat ``avoid`` declare:
    if ``avoid`` is the forehand the next seat bids 105, else everybody passes; then every action
    is the first legal one (lowest card given, lowest contract, lowest playable card)."""
    number = state.deal_number
    forehand = (state.dealer + 1) % state.rules.players
    auction = ["bid 105", "pass", "pass"] if forehand == avoid else ["pass", "pass"]
    state = play(state, *auction)
    assert state.declarer != avoid
    while state.deal_number == number and not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state


# --- deal scores and rounding -----------------------------------------------------------------

DEAL_SCORES = [
    pytest.param(
        RUSSIAN, False, 100, "QD AS", "KD TS", (99, 21, 0), (-100, 20, 0),
        id="russian-99-fails-100-no-rounding-first-remainder-1-down",
    ),
    pytest.param(
        RUSSIAN, False, 100, "QD AS", "KD AD", (98, 22, 0), (-100, 20, 0),
        id="russian-remainder-2-down",
    ),
    pytest.param(
        RUSSIAN, False, 100, "QD AS", "KD JD", (107, 13, 0), (100, 15, 0),
        id="russian-excess-lost-remainder-3-up",
    ),
    pytest.param(
        RUSSIAN, False, 100, "QD AS", "KD QS", (106, 14, 0), (100, 15, 0),
        id="russian-remainder-4-up",
    ),
    pytest.param(
        RUSSIAN, False, 105, "QD AS", "JD KD", (105, 15, 0), (105, 15, 0),
        id="russian-exactly-made-remainder-0",
    ),
    pytest.param(
        RUSSIAN, False, 110, "QD KS", "KD TS", (106, 0, 14), (-110, 0, 15),
        id="russian-second-defender-takes-last-trick",
    ),
    pytest.param(
        RUSSIAN, False, 120, "TD QD", "AD KD", (120, 0, 0), (120, 0, 0),
        id="russian-declarer-takes-every-trick",
    ),
    pytest.param(
        RUSSIAN, False, 100, "QC AS", "KD TS", (92, 28, 0), (-100, 30, 0),
        id="russian-defender-takes-two-tricks",
    ),
    pytest.param(
        RUSSIAN, True, 190, "QD AS", "KD TS", (199, 21, 0), (190, 20, 0),
        id="russian-marriage-counts-toward-contract",
    ),
    pytest.param(
        POLISH, True, 210, "QD 9D", "KD TS", (210, 0, 10), (210, 0, 10),
        id="polish-remainder-0",
    ),
    pytest.param(
        POLISH, True, 200, "QD AS", "KD TS", (199, 21, 0), (-200, 20, 0),
        id="polish-199-fails-200-remainder-1-down",
    ),
    pytest.param(
        POLISH, True, 200, "QD AS", "KD AD", (198, 22, 0), (-200, 20, 0),
        id="polish-remainder-2-down",
    ),
    pytest.param(
        POLISH, True, 200, "QD AS", "KD JD", (207, 13, 0), (200, 10, 0),
        id="polish-remainder-3-down",
    ),
    pytest.param(
        POLISH, True, 210, "QD AS", "KD QS", (206, 14, 0), (-210, 10, 0),
        id="polish-206-fails-210-remainder-4-down",
    ),
    pytest.param(
        POLISH, True, 200, "QD AS", "JD KD", (205, 15, 0), (200, 20, 0),
        id="polish-remainder-5-up",
    ),
    pytest.param(
        POLISH, True, 200, "9D QD", "KD QS", (214, 0, 6), (200, 0, 10),
        id="polish-remainder-6-up",
    ),
    pytest.param(
        POLISH, True, 200, "QD KS", "KD QS", (213, 7, 0), (200, 10, 0),
        id="polish-remainder-7-up",
    ),
    pytest.param(
        POLISH, True, 200, "QD KS", "JD KD", (212, 8, 0), (200, 10, 0),
        id="polish-remainder-8-up",
    ),
    pytest.param(
        POLISH, True, 200, "QC AS", "JD QS", (201, 19, 0), (200, 20, 0),
        id="polish-remainder-9-up-two-tricks",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "marriage", "contract", "keep1", "keep2", "points", "deal_scores"), DEAL_SCORES
)
def test_deal_scores(rules, marriage, contract, keep1, keep2, points, deal_scores):
    """Declarer: +contract if its unrounded points reach it, else -contract; defenders: rounded."""
    start = (10, 20, 30)
    result = ending_deal(rules, contract, keep1, keep2, marriage, scores=start)
    assert result.declarer == 0
    assert result.contract == contract
    assert result.points == points
    assert result.made is (points[0] >= contract)
    assert result.deal_scores == deal_scores
    assert result.scores == tuple(s + d for s, d in zip(start, deal_scores, strict=True))


@pytest.mark.parametrize(
    ("step", "down", "up"),
    [
        pytest.param(5, (0, 1, 2), (3, 4), id="step-5-1-2-down-3-4-up"),
        pytest.param(10, (0, 1, 2, 3, 4), (5, 6, 7, 8, 9), id="step-10-0-4-down-5-9-up"),
    ],
)
def test_rounding_at_every_remainder(step, down, up):
    """Defence rounding: remainders below half a step go down, from half a step up."""
    for base in (0, 40, 110):
        for remainder in down:
            assert round_defence(base + remainder, step) == base
        for remainder in up:
            assert round_defence(base + remainder, step) == base + step


# --- the barrel -------------------------------------------------------------------------------

BARREL = [
    pytest.param(
        RUSSIAN, (800, 0, 0), False, 100, "QD AS", "KD JD", (880, 15, 0), (0, None, None),
        id="mount-score-past-880-becomes-880",
    ),
    pytest.param(
        RUSSIAN, (780, 0, 0), False, 100, "QD AS", "KD JD", (880, 15, 0), (0, None, None),
        id="mount-at-exactly-880",
    ),
    pytest.param(
        RUSSIAN, (870, 0, 0), True, 200, "QD AS", "JD KD", (880, 15, 0), (0, None, None),
        id="jump-past-1000-from-below-stops-at-880",
    ),
    pytest.param(
        RUSSIAN, (0, 870, 0), False, 100, "QD AS", "KD JD", (100, 880, 0), (None, 0, None),
        id="defender-mounts",
    ),
    pytest.param(
        RUSSIAN, (880, 0, 0), False, 115, "TD QD", "AD KD", (880, 0, 0), (1, None, None),
        id="small-contract-stays-at-880",
    ),
    pytest.param(
        RUSSIAN, (880, 0, 0), False, 100, "QD AS", "KD TS", (780, 20, 0), (None, None, None),
        id="failed-contract-minus-and-off",
    ),
    pytest.param(
        RUSSIAN, (0, 880, 0), False, 100, "QD AS", "KD TS", (-100, 880, 0), (None, 1, None),
        id="defence-points-not-counted-on-barrel",
    ),
    pytest.param(
        RUSSIAN, (800, 880, 0), False, 100, "QD AS", "KD JD", (880, 880, 0), (0, 1, None),
        id="multiple-capacity-sitter-stays",
    ),
    pytest.param(
        RUSSIAN, (800, 870, 0), False, 100, "QD AS", "JD KD", (880, 880, 0), (0, 0, None),
        id="multiple-capacity-both-mount",
    ),
    pytest.param(
        SINGLE, (800, 880, 0), False, 100, "QD AS", "KD JD", (880, 760, 0), (0, None, None),
        id="single-capacity-newcomer-knocks-sitter-off",
    ),
    pytest.param(
        SINGLE, (800, 870, 0), False, 100, "QD AS", "JD KD", (760, 760, 0), (None, None, None),
        id="single-capacity-two-mount-both-fall",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "start", "marriage", "contract", "keep1", "keep2", "scores", "barrel"), BARREL
)
def test_barrel(rules, start, marriage, contract, keep1, keep2, scores, barrel):
    """Scores stop at 880 on the barrel, where only a winning contract moves them up."""
    state = play_ending(ending_start(rules, start), contract, keep1, keep2, marriage)
    assert not state.is_over
    assert state.deal_number == 1
    assert state.phase is Phase.AUCTION
    assert state.scores == scores
    assert state.barrel == barrel
    assert state.deals[0].scores == scores
    assert state.deals[0].barrel == barrel


@pytest.mark.parametrize(
    ("contract", "final"),
    [
        pytest.param(120, 1000, id="contract-120-reaches-1000"),
        pytest.param(200, 1080, id="contract-200-passes-1000"),
    ],
)
def test_barrel_win(contract, final):
    """A contract made on the barrel that brings the score to 1000 or more wins the match."""
    state = play_ending(ending_start(RUSSIAN, (880, 0, 0)), contract, "QD AS", "JD KD", True)
    assert state.is_over
    result = state.result
    assert isinstance(result, MatchResult)
    assert result.winners == (0,)
    assert result.scores == (final, 15, 0)
    assert state.barrel == (None, None, None)
    assert not result.adjudicated
    assert result.deals == 1
    assert result.settlement == (985 + 1000, -985, -1000)


@pytest.mark.parametrize(
    "mode",
    [
        pytest.param(Concession.PENALTY, id="penalty"),
        pytest.param(Concession.FREE, id="free-still-fails-on-barrel"),
    ],
)
def test_concession_on_the_barrel_counts_as_failing(mode):
    """A declarer on the barrel who concedes loses the bid and falls off the barrel."""
    rules = attrs.evolve(RUSSIAN, concession=mode)
    state = play(ending_start(rules, (880, 0, 0)), "pass", "pass", "give 9D 1", "give JD 2")
    state = play(state, "concede")
    deal = state.deals[0]
    assert deal.conceded
    assert deal.deal_scores == ((-100 if mode is Concession.PENALTY else 0), 50, 50)
    assert state.scores == (780, 50, 50)
    assert state.barrel == (None, None, None)


def test_barrel_times_out_after_three_deals_for_a_starting_sitter():
    """Starting at exactly 880 is on the barrel; three deals without a win cost 120."""
    state = ending_start(RUSSIAN, (0, 880, 0))
    assert state.barrel == (None, 0, None)
    state = play_ending(state, 100, "QD AS", "KD JD")
    assert (state.scores[1], state.barrel[1]) == (880, 1)
    state = autopilot(state, avoid=1)
    assert (state.scores[1], state.barrel[1]) == (880, 2)
    state = autopilot(state, avoid=1)
    assert (state.scores[1], state.barrel[1]) == (760, None)
    assert state.deal_number == 3


def test_barrel_deals_count_from_the_deal_after_mounting():
    """A player mounting in deal 0 stays through deals 1 and 2 and falls off after deal 3."""
    state = play_ending(ending_start(RUSSIAN, (800, 0, 0)), 100, "QD AS", "KD JD")
    assert (state.scores[0], state.barrel[0]) == (880, 0)
    for used in (1, 2):
        state = autopilot(state, avoid=0)
        assert (state.scores[0], state.barrel[0]) == (880, used)
    state = autopilot(state, avoid=0)
    assert (state.scores[0], state.barrel[0]) == (760, None)
    assert state.deals[3].barrel[0] is None
    assert state.deal_number == 4


def test_new_deal_at_exactly_880_starts_on_the_barrel():
    """A single deal starting at 880 is on the barrel, so a defender's points there do not count."""
    result = ending_deal(RUSSIAN, 100, "QD AS", "KD JD", scores=(0, 880, 0))
    assert result.scores == (100, 880, 0)
    assert result.barrel == (None, 1, None)


@pytest.mark.parametrize(
    ("rules", "scores"),
    [
        pytest.param(RUSSIAN, (0, 900, 0), id="barrel-no-score-between-880-and-1000"),
        pytest.param(RUSSIAN, (0, 1000, 0), id="already-won"),
        pytest.param(POLISH, (0, 1200, 0), id="already-won-polish"),
    ],
)
def test_impossible_starting_scores_are_refused(rules, scores):
    """A match cannot start with a score the endgame rules make unreachable."""
    with pytest.raises(RulesError):
        thousand.new_match(rules, seed=1, layout=ENDING, dealer=2, scores=scores)


# --- a defender's big deal --------------------------------------------------------------------

# Dealer 2, seat 0 declares 100 and gives QD to seat 1, 9C to seat 2. Seat 1 holds all eight
# cards it needs: it wins trick 1 with AH, then declares hearts (100) and diamonds (80) and
# takes every trick: 120 + 180 = 300 defence points. Seat 0 takes nothing and fails.
BIG_DEFENCE = Layout(
    hands=["9H JD AS TS KS QS JS", "AH TH KH QH AD TD KD", "JH 9D AC TC KC QC JC"],
    talon="QD 9S 9C",
)
BIG_DEFENCE_PLAY = (
    *("pass", "pass", "give QD 1", "give 9C 2", "contract 100"),
    *("play 9H", "play AH", "play JH"),
    *("play KH marriage", "play 9C", "play 9S"),
    *("play KD marriage", "play 9D", "play JD"),
    *("play QH", "play JC", "play JS"),
    *("play TH", "play QC", "play QS"),
    *("play AD", "play KC", "play KS"),
    *("play TD", "play TC", "play TS"),
    *("play QD", "play AC", "play AS"),
)


def big_defence(rules, scores):
    """The deal above as the first of a match starting from ``scores``."""
    state = thousand.new_match(rules, seed=3, layout=BIG_DEFENCE, dealer=2, scores=scores)
    state = play(state, *BIG_DEFENCE_PLAY)
    deal = state.deals[0]
    assert deal.points == (0, 300, 0)
    assert deal.deal_scores == (-100, 300, 0)
    return state


def test_lock_defender_at_800_adds_in_full_past_1000_and_wins():
    """Polish lock: at or below 800 before the deal, defence points count in full, and can win."""
    state = big_defence(POLISH, (0, 800, 0))
    assert state.is_over
    assert state.result.winners == (1,)
    assert state.result.scores == (-100, 1100, 0)
    assert state.result.settlement is None


def test_lock_defender_above_800_adds_nothing_even_300():
    """Polish lock: above 800 before the deal, defence points are not added."""
    state = big_defence(POLISH, (0, 810, 0))
    assert not state.is_over
    assert state.scores == (-100, 810, 0)


def test_barrel_defender_jumping_past_1000_stops_at_880():
    """Russian barrel: a defender's jump from 800 to 1100 stops at 880 and does not win."""
    state = big_defence(RUSSIAN, (0, 800, 0))
    assert not state.is_over
    assert state.scores == (-100, 880, 0)
    assert state.barrel == (None, 0, None)


# --- the lock ---------------------------------------------------------------------------------

LOCK = [
    pytest.param(
        (0, 810, 0), 200, "QD AS", "JD KD", (200, 810, 0), id="defender-above-800-adds-nothing"
    ),
    pytest.param(
        (0, 800, 0), 200, "QD AS", "JD KD", (200, 820, 0), id="defender-at-800-adds-past-800"
    ),
    pytest.param((0, 790, 0), 200, "QD AS", "JD KD", (200, 810, 0), id="defender-below-800-adds"),
    pytest.param(
        (850, 0, 0), 100, "QD AS", "JD KD", (950, 20, 0), id="declarer-above-800-contract-counts"
    ),
    pytest.param((850, 0, 0), 210, "QD AS", "KD QS", (640, 10, 0), id="declarer-above-800-fails"),
    pytest.param(
        (0, 700, 900), 200, "QD KS", "KD TS", (200, 700, 900), id="only-the-locked-defender-stops"
    ),
]


@pytest.mark.parametrize(("start", "contract", "keep1", "keep2", "scores"), LOCK)
def test_lock(start, contract, keep1, keep2, scores):
    """Polish lock: above 800 before the deal only one's own contracts count."""
    state = play_ending(ending_start(POLISH, start), contract, keep1, keep2, marriage=True)
    assert not state.is_over
    assert state.scores == scores


def test_lock_declarer_reaching_1000_wins():
    """Under the lock a declarer above 800 who makes a contract reaching 1000 wins."""
    state = play_ending(ending_start(POLISH, (900, 0, 0)), 100, "QD AS", "JD KD", marriage=True)
    assert state.is_over
    assert state.result.winners == (0,)
    assert state.result.scores == (1000, 20, 0)
    assert state.result.settlement is None


# --- crossing 1000, settlement, the deal cap -------------------------------------------------

CROSSING = [
    pytest.param(
        OPEN_END, (900, 990, 0), True, 100, "QD AS", "KD TS",
        (1000, 1010, 0), (0,), (1000, 0, -1000),
        id="declarer-wins-over-a-higher-defender",
    ),
    pytest.param(
        OPEN_END, (0, 990, 990), False, 100, "QD AS", "AC TS",
        (-100, 1010, 1005), (1,), (-1100, 1100, 0),
        id="else-the-higher-score-wins",
    ),
    pytest.param(
        OPEN_END, (0, 985, 990), False, 100, "QD AS", "AC TS",
        (-100, 1005, 1005), (1, 2), (-2200, 1100, 1100),
        id="exact-tie-shares-the-win",
    ),
    pytest.param(
        RUSSIAN, (880, -50, 300), True, 120, "TD QD", "AD KD",
        (1000, -50, 300), (0,), (1750, -1050, -700),
        id="negative-score-pays-more",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "start", "marriage", "contract", "keep1", "keep2", "scores", "winners", "pay"),
    CROSSING,
)
def test_match_end_and_settlement(
    rules, start, marriage, contract, keep1, keep2, scores, winners, pay
):
    """First to 1000 wins (declarer first, else highest, ties share); losers pay the shortfall."""
    state = play_ending(ending_start(rules, start), contract, keep1, keep2, marriage)
    assert state.is_over
    result = state.result
    assert result.scores == scores
    assert result.winners == winners
    assert result.settlement == pay
    assert sum(result.settlement) == 0
    assert not result.adjudicated


def test_no_win_below_1000():
    """Without the barrel a deal that leaves everybody below 1000 goes on to the next deal."""
    state = play_ending(ending_start(OPEN_END, (890, 980, 0)), 100, "QD AS", "KD JD")
    assert not state.is_over
    assert state.scores == (990, 995, 0)
    assert state.result is None


@pytest.mark.parametrize(
    ("start", "winners", "pay"),
    [
        pytest.param((0, 0, 0), (0,), (1985, -985, -1000), id="highest-score"),
        pytest.param((0, 85, 0), (0, 1), (1000, 1000, -2000), id="tie-shares"),
    ],
)
def test_match_cap_adjudicates_to_the_highest_score(start, winners, pay):
    """A match reaching max_deals without a winner goes to the highest score, marked adjudicated."""
    rules = attrs.evolve(RUSSIAN, max_deals=1)
    state = play_ending(ending_start(rules, start), 100, "QD AS", "KD JD")
    assert state.is_over
    result = state.result
    assert result.adjudicated
    assert result.deals == 1
    assert result.winners == winners
    assert result.scores == (100, start[1] + 15, 0)
    assert result.settlement == pay


def test_match_cap_counts_every_deal():
    """With max_deals 2 the match goes on after deal 0 and is adjudicated after deal 1."""
    rules = attrs.evolve(RUSSIAN, max_deals=2)
    state = play_ending(ending_start(rules, None), 100, "QD AS", "KD JD")
    assert not state.is_over
    assert state.scores == (100, 15, 0)
    state = autopilot(state, avoid=-1)
    assert state.is_over
    result = state.result
    assert result.adjudicated
    assert result.deals == 2
    top = max(result.scores)
    assert result.winners == tuple(s for s, score in enumerate(result.scores) if score == top)


def test_single_deal_reports_its_deal_result():
    """A game from new_deal ends after one deal with a DealResult, even past 1000."""
    result = ending_deal(OPEN_END, 100, "QD AS", "KD JD", scores=(950, 0, 0))
    assert isinstance(result, DealResult)
    assert result.scores == (1050, 15, 0)


def test_single_capacity_refuses_two_players_starting_on_the_barrel():
    """With single barrel capacity a match cannot start with two players at 880."""
    rules = attrs.evolve(RUSSIAN, barrel_capacity=thousand.BarrelCapacity.SINGLE)
    with pytest.raises(thousand.RulesError, match="only one player may start at 880"):
        thousand.new_match(rules, seed=1, scores=(880, 880, 0))
    assert thousand.new_match(rules, seed=1, scores=(880, 0, 0)).barrel == (0, None, None)


def test_nothing_may_be_played_once_the_game_is_over() -> None:
    """An action on a finished game is refused for nobody's turn, saying how to go on."""
    state = thousand.new_deal(Rules.preset("russian"), seed=2)
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    with pytest.raises(thousand.IllegalActionError) as caught:
        state.apply(thousand.Pass())
    assert caught.value.seat is None
    assert caught.value.reason == "the game is over; start another with new_match() or new_deal()"
    assert str(caught.value) == (
        "nobody may act after the end of the game ('pass'): the game is over; "
        "start another with new_match() or new_deal()"
    )


def test_a_contract_made_exactly_on_the_barrel_counts_as_made() -> None:
    """On the barrel at 880, a contract of 120 made with exactly 120 points reaches 1000 and
    wins: only points below the contract fail it."""
    state = play_ending(ending_start(RUSSIAN, (880, 0, 0)), 120, "TD QD", "AD KD", False)
    assert state.deals[0].points[0] == 120
    assert state.is_over
    result = state.result
    assert isinstance(result, MatchResult)
    assert result.winners == (0,)
    assert result.scores[0] == 1000
