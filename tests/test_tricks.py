"""Rule tests of trick play (RULES.md 1.5): following, must-beat, must-trump and must-overtrump,
trick winners, marriages and trump changes, and the four-ace marriage."""

import random

import attrs
import pytest

import thousand
from tests.support import assert_refused, legal_texts, play
from tests.test_auction import assert_illegal
from thousand import Layout, Phase, Play, Rules, Suit
from thousand.classic.cards import FULL_MASK, cards_of
from thousand.classic.rules import Endgame, MarriageDeclaration, above_lock
from thousand.classic.tricks import beats, following, plain_plays, playable, trick_winner

RUSSIAN = Rules.preset("russian")
POLISH = Rules.preset("polish")
# Russian following rules, but a marriage may be declared on the first lead, so that a trump
# can be set in the first trick.
EARLY = attrs.evolve(RUSSIAN, marriage_requires_trick=False)
OVERTRUMP = attrs.evolve(EARLY, must_overtrump=True)

MARRIAGE_VALUE = {Suit.SPADES: 40, Suit.CLUBS: 60, Suit.DIAMONDS: 80, Suit.HEARTS: 100}


def plays(text):
    """``play`` actions written short: ``"9S KH:marriage AD:aces"`` -> ``play 9S``,
    ``play KH marriage``, ``play AD aces``."""
    return [f"play {word.replace(':', ' ')}" for word in text.split()]


# Every layout is played with dealer 2: seats 1 and 2 pass, seat 0 declares 100, takes the
# talon, gives the two listed cards and fixes the contract at 100, then leads.

# OUT: seat 0 holds the hearts marriage K Q and five diamonds; seat 1 holds 9H JH TH and spades;
# seat 2 holds AH and all clubs. Trick 1 "KH marriage, 9H, AH" makes hearts trump and seat 2
# leads AC in trick 2, to which seats 0 and 1 (void in clubs) must trump.
OUT = (
    Layout(
        hands=["KH QH AD TD KD QD JD", "9H JH TH AS TS KS QS", "AH AC TC KC QC JC 9C"],
        talon="9D 9S JS",
    ),
    ("give 9S 1", "give JS 2"),
)
# BEAT: spades for must-beat: seat 0 leads JS; seat 1 holds TS 9S; seat 2 holds QS AS.
# Clubs: seat 0 holds 9C JC, seat 1 QC KC, seat 2 AC TC.
BEAT = (
    Layout(
        hands=["JS KS 9C JC AH TH KD", "TS 9S QC KC 9H JH AD", "QS AS AC TC KH QH TD"],
        talon="9D JD QD",
    ),
    ("give 9D 1", "give JD 2"),
)
# TRUMPED: seat 0 leads KD declaring diamonds; seat 1 holds 9D JD and no clubs; seat 2 holds no
# diamonds and five clubs. In trick 2 seat 0 leads JC, seat 1 trumps with JD.
TRUMPED = (
    Layout(
        hands=["KD QD JC AH TH KH QS", "9D JD AS TS KS 9H JH", "9C QC AC TC KC QH JS"],
        talon="AD TD 9S",
    ),
    ("give 9S 1", "give QS 2"),
)
# MARRIAGES: two marriages by two players. Seat 0 leads KH declaring hearts and loses the trick to
# seat 2's AH; seat 2 then leads KS declaring spades, while seat 0 and seat 1, void in spades,
# still hold hearts (the old trump).
MARRIAGES = (
    Layout(
        hands=["KH QH TH 9C JC QC KC", "9H JH 9D JD QD KD TD", "AH KS QS AS TS JS 9S"],
        talon="AC TC AD",
    ),
    ("give AC 1", "give TC 2"),
)
# ACES: seat 0 holds all four aces, the hearts marriage and TH after the talon, and wins trick 1
# with TS (a card that is not an ace): "TS, QS, 9S".
ACES = (
    Layout(
        hands=["AH AD AC AS KH QH TS", "KS QS 9H JH TD KD QD", "JS 9S TC KC QC JC 9C"],
        talon="TH 9D JD",
    ),
    ("give 9D 1", "give JD 2"),
)
# THREE_ACES: as ACES, but AC lies with seat 2 and seat 0 holds 9C instead: only three aces.
THREE_ACES = (
    Layout(
        hands=["AH AD 9C AS KH QH TS", "KS QS 9H JH TD KD QD", "JS 9S TC KC QC JC AC"],
        talon="TH 9D JD",
    ),
    ("give 9D 1", "give JD 2"),
)
ACES_TRICK_1 = plays("TS QS 9S")


def start(rules, deal, contract=100):
    """The first lead of ``deal`` (layout, gives) under ``rules``: seat 0 declares ``contract``."""
    layout, gives = deal
    state = thousand.new_deal(rules, layout=layout, dealer=2)
    state = play(state, "pass", "pass", *gives, f"contract {contract}")
    assert state.phase is Phase.PLAY
    assert state.current_player == 0
    return state


# --- following --------------------------------------------------------------------------------

FOLLOWING = [
    pytest.param(
        RUSSIAN, OUT, plays("AD"), plays("TH JH 9H AS TS KS QS 9S"), id="void-no-trump-any-card"
    ),
    pytest.param(
        EARLY, OUT, plays("KH:marriage"), plays("TH JH 9H"), id="follow-suit-any-rank-russian"
    ),
    pytest.param(POLISH, OUT, plays("KH:marriage"), plays("TH"), id="must-beat-in-trump-suit"),
    pytest.param(RUSSIAN, BEAT, plays("JS"), plays("TS 9S"), id="no-must-beat-russian"),
    pytest.param(POLISH, BEAT, plays("JS"), plays("TS"), id="must-beat-when-able"),
    pytest.param(POLISH, BEAT, plays("JS TS"), plays("AS"), id="must-beat-best-card-not-led-card"),
    pytest.param(RUSSIAN, BEAT, plays("JS TS"), plays("AS QS"), id="russian-any-spade"),
    pytest.param(
        POLISH,
        BEAT,
        plays("JS TS AS AC"),
        plays("JC 9C"),
        id="cannot-beat-any-card-of-led-suit",
    ),
    pytest.param(POLISH, BEAT, plays("JS TS AS AC 9C"), plays("KC QC"), id="cannot-beat-ace"),
    pytest.param(EARLY, OUT, plays("KH:marriage 9H AH AC"), plays("QH"), id="void-must-trump"),
    pytest.param(POLISH, OUT, plays("KH:marriage TH AH AC"), plays("QH"), id="polish-must-trump"),
    pytest.param(
        EARLY,
        OUT,
        plays("KH:marriage TH AH AC QH"),
        plays("JH 9H"),
        id="must-trump-even-when-it-cannot-win",
    ),
    pytest.param(
        EARLY,
        OUT,
        plays("KH:marriage 9H AH AC QH"),
        plays("TH JH"),
        id="no-must-overtrump-by-default",
    ),
    pytest.param(
        OVERTRUMP,
        OUT,
        plays("KH:marriage 9H AH AC QH"),
        plays("TH"),
        id="must-overtrump-when-switched-on",
    ),
    pytest.param(
        OVERTRUMP,
        OUT,
        plays("KH:marriage TH AH AC QH"),
        plays("JH 9H"),
        id="must-overtrump-unable-any-trump",
    ),
    pytest.param(
        EARLY,
        OUT,
        plays("KH:marriage 9H AH AC QH TH AS JS"),
        plays("AD TD KD QD JD 9D"),
        id="void-and-out-of-trumps-any-card",
    ),
    pytest.param(
        POLISH, TRUMPED, plays("KD:marriage"), plays("JD 9D"), id="cannot-beat-marriage-king"
    ),
    pytest.param(
        POLISH,
        TRUMPED,
        plays("KD:marriage 9D"),
        plays("QH AC TC KC QC 9C QS JS"),
        id="void-holding-no-trump-any-card",
    ),
    pytest.param(
        POLISH, TRUMPED, plays("KD:marriage 9D JS JC"), plays("JD"), id="must-trump-polish"
    ),
    pytest.param(
        POLISH,
        TRUMPED,
        plays("KD:marriage 9D JS JC JD"),
        plays("AC TC KC QC 9C"),
        id="must-beat-lapses-once-trumped",
    ),
    pytest.param(
        POLISH,
        MARRIAGES,
        plays("KH:marriage 9H AH KS:marriage"),
        plays("TH QH AD KC QC JC 9C"),
        id="old-trump-no-longer-forced",
    ),
]


@pytest.mark.parametrize(("rules", "deal", "before", "expected"), FOLLOWING)
def test_following_rules(rules, deal, before, expected):
    """The cards a follower may play: suit, then must-beat, then must-trump, else anything."""
    state = play(start(rules, deal), *before)
    assert state.trick
    assert legal_texts(state) == expected


# --- trick winners ----------------------------------------------------------------------------

WINNERS = [
    pytest.param(RUSSIAN, BEAT, [], plays("JS TS QS"), 1, 15, id="ten-beats-king-and-queen"),
    pytest.param(RUSSIAN, BEAT, [], plays("JS TS AS"), 2, 23, id="ace-beats-ten"),
    pytest.param(RUSSIAN, OUT, [], plays("AD AS AH"), 0, 33, id="off-suit-aces-lose-without-trump"),
    pytest.param(
        EARLY,
        OUT,
        plays("KH:marriage 9H AH"),
        plays("AC QH TH"),
        1,
        24,
        id="highest-trump-wins",
    ),
    pytest.param(
        POLISH,
        TRUMPED,
        plays("KD:marriage 9D JS"),
        plays("JC JD AC"),
        1,
        15,
        id="low-trump-beats-led-ace",
    ),
    pytest.param(
        POLISH, MARRIAGES, [], plays("KH:marriage 9H AH"), 2, 15, id="marriage-lead-can-lose"
    ),
    pytest.param(
        POLISH,
        MARRIAGES,
        plays("KH:marriage 9H AH"),
        plays("KS:marriage TH JH"),
        2,
        16,
        id="new-trump-rules-its-own-trick",
    ),
]


@pytest.mark.parametrize(("rules", "deal", "before", "trick", "winner", "points"), WINNERS)
def test_trick_winner_takes_the_trick_and_leads(rules, deal, before, trick, winner, points):
    """The highest trump wins, else the highest card of the led suit; the winner leads next."""
    state = play(start(rules, deal), *before)
    taken = state.points_taken
    state = play(state, *trick)
    assert state.trick == ()
    assert state.current_player == winner
    gained = [after - was for after, was in zip(state.points_taken, taken, strict=True)]
    assert gained == [points if seat == winner else 0 for seat in range(3)]


# --- marriages and trump ----------------------------------------------------------------------


def test_marriage_sets_trump_at_once_and_a_later_one_replaces_it():
    """A declared marriage is trump from its lead on; a later marriage by anyone replaces it."""
    state = start(POLISH, MARRIAGES)
    assert state.trump is None
    state = play(state, "play KH marriage")
    assert state.trump is Suit.HEARTS
    assert state.melds == ((0, Suit.HEARTS),)
    state = play(state, "play 9H", "play AH")
    assert state.current_player == 2
    assert state.trump is Suit.HEARTS
    state = play(state, "play KS marriage")
    assert state.trump is Suit.SPADES
    assert state.melds == ((0, Suit.HEARTS), (2, Suit.SPADES))


def test_every_seat_sees_spades_as_trump_once_declared():
    """Spades, the lowest suit, read as trump in every seat's observation and in its JSON."""
    state = play(start(POLISH, MARRIAGES), "play KH marriage", "play 9H", "play AH")
    state = play(state, "play KS marriage")
    for seat in range(3):
        observation = state.observation(seat)
        assert observation.trump is Suit.SPADES
        again = type(observation).from_dict(observation.to_dict())
        assert again.trump is Suit.SPADES


def assert_every_seat_sees_the_last_trick(state, cards, leader, winner):
    """Every seat's observation of the finished game, and its JSON read back, shows the last
    trick as ``cards`` led by ``leader`` and won by ``winner``."""
    assert state.is_over
    for seat in range(3):
        observation = state.observation(seat)
        assert observation.current_player is None
        again = type(observation).from_dict(observation.to_dict())
        for seen in (observation, again):
            last = seen.tricks[-1]
            assert [str(card) for card in last.cards] == cards
            assert (last.leader, last.winner) == (leader, winner)


NO_TRUMP_ENDINGS = [
    pytest.param(
        ["KH KD KC KS 9H JH TH", "AS TS JS 9S AC TC JC", "QH QD QC QS 9D JD AH"],
        "9C TD AD",
        ("give AD 0", "give TD 2"),
        "AC QC KC TC QS KS JC 9D KD 9C JD AD AS QD 9H TS TD JH JS QH KH 9S AH TH",
        ["9S", "AH", "TH"],
        id="hearts-thrown-on-spades",
    ),
    pytest.param(
        ["TH KH QH JH 9H TD JD", "AS TS KS QS JS 9S AH", "AC TC KC QC JC 9C 9D"],
        "AD KD QD",
        ("give KD 0", "give QD 2"),
        "AH 9D 9H AD QD TD AS AC JH TS TC QH KS KC KH QS QC TH JS JC JD 9S 9C KD",
        ["9S", "9C", "KD"],
        id="clubs-thrown-on-spades",
    ),
]


@pytest.mark.parametrize(("hands", "talon", "gives", "cards", "last"), NO_TRUMP_ENDINGS)
def test_the_last_trick_of_a_deal_without_trump_goes_to_the_led_suit(
    hands, talon, gives, cards, last
):
    """With no marriage ever declared, cards of another suit thrown on a spade lead in the last
    trick do not win it (clubs, the suit after spades, included), as every seat's observation
    of the finished deal tells."""
    layout = Layout(hands=hands, talon=talon)
    state = play(thousand.new_deal(RUSSIAN, layout=layout, dealer=0), "pass", "pass")
    state = play(state, *gives, "contract 100", *plays(cards))
    assert state.trump is None
    assert_every_seat_sees_the_last_trick(state, last, leader=1, winner=1)


def test_the_last_trick_of_a_deal_goes_to_a_trump_over_a_higher_card_of_the_suit_led():
    """Once hearts are trump, 9H played on a KD lead in the last trick beats it, as every seat's
    observation of the finished game tells."""
    layout = Layout(
        hands=["AD KD QD JD TD 9S JS", "AS TS KH QH 9H JH 9D", "AC TC KC QC JC 9C KS"],
        talon="AH TH QS",
    )
    state = play(thousand.new_deal(RUSSIAN, layout=layout, dealer=0), "pass", "pass")
    state = play(state, "give TS 0", "give QS 2", "contract 100")
    state = play(state, "play AS", "play QS", "play 9S", "play KH marriage", "play 9C", "play JS")
    state = play(state, "play AH", "play JC", "play TS", "play TH", "play QC", "play JD")
    state = play(state, "play QH", "play KC", "play QD", "play JH", "play AC", "play TD")
    state = play(state, "play 9D", "play KS", "play AD", "play KD", "play 9H", "play TC")
    assert state.trump is Suit.HEARTS
    assert_every_seat_sees_the_last_trick(state, ["KD", "9H", "TC"], leader=0, winner=1)


def test_marriage_points_go_to_the_player_who_declared_it():
    """Marriage points belong to the declaring player even when another wins that trick."""
    state = play(start(POLISH, MARRIAGES), "play KH marriage", "play 9H", "play AH")
    assert state.melds == ((0, Suit.HEARTS),)
    assert state.points_taken == (0, 0, 15)
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    result = state.result
    for seat in range(3):
        melds = sum(MARRIAGE_VALUE[Suit(suit)] for owner, suit in state.melds if owner == seat)
        assert result.points[seat] == state.points_taken[seat] + melds
    assert result.points[0] >= state.points_taken[0] + 100


LEADS = [
    pytest.param(
        RUSSIAN, ACES, (), plays("AH TH KH QH AD AC AS TS"), id="russian-first-lead-no-declaring"
    ),
    pytest.param(
        POLISH,
        ACES,
        (),
        plays("AH TH KH:marriage QH:marriage AD AC AS TS"),
        id="polish-first-lead-automatic-marriage",
    ),
    pytest.param(
        attrs.evolve(RUSSIAN, marriage_requires_trick=False),
        ACES,
        (),
        plays("AH TH KH KH:marriage QH QH:marriage AD AC AS TS"),
        id="optional-marriage-without-trick-rule",
    ),
    pytest.param(
        RUSSIAN,
        ACES,
        ACES_TRICK_1,
        plays("AH AH:aces TH KH KH:marriage QH QH:marriage AD AD:aces AC AC:aces AS AS:aces"),
        id="russian-after-a-trick-optional-marriage-and-aces",
    ),
    pytest.param(
        POLISH,
        ACES,
        ACES_TRICK_1,
        plays("AH TH KH:marriage QH:marriage AD AC AS"),
        id="polish-no-ace-marriage",
    ),
    pytest.param(
        RUSSIAN,
        THREE_ACES,
        ACES_TRICK_1,
        plays("AH TH KH KH:marriage QH QH:marriage AD 9C AS"),
        id="three-aces-no-ace-marriage",
    ),
]


@pytest.mark.parametrize(("rules", "deal", "before", "expected"), LEADS)
def test_declarations_offered_on_a_lead(rules, deal, before, expected):
    """Marriages: optional or automatic, needing a won trick or not; aces: all four and a trick."""
    state = play(start(rules, deal), *before)
    assert state.trick == ()
    assert state.current_player == 0
    assert legal_texts(state) == expected


def test_russian_king_led_without_declaring_loses_the_marriage():
    """Leading K plainly (optional rule) sets no trump, and its queen can no longer declare."""
    state = play(start(RUSSIAN, ACES), *ACES_TRICK_1, "play KH", "play 9H", "play 9C")
    assert state.trump is None
    assert state.melds == ()
    assert state.current_player == 0
    assert "play QH" in legal_texts(state)
    assert "play QH marriage" not in legal_texts(state)


def test_ace_marriage_scores_200_and_keeps_the_trump():
    """The four aces, led after a trick won with a non-ace, score 200 and do not change trump."""
    state = play(start(RUSSIAN, ACES), *ACES_TRICK_1, "play KH marriage", "play 9H", "play 9C")
    assert state.trump is Suit.HEARTS
    assert state.current_player == 0
    state = play(state, "play AD aces")
    assert state.trump is Suit.HEARTS
    assert state.melds == ((0, Suit.HEARTS), (0, 4))
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    assert state.result.points[0] == state.points_taken[0] + 100 + 200


def test_ace_marriage_without_trump_leaves_no_trump():
    """Declaring the four aces before any marriage leaves the deal without a trump."""
    state = play(start(RUSSIAN, ACES), *ACES_TRICK_1, "play AS aces")
    assert state.trump is None
    assert state.melds == ((0, 4),)


# --- illegal plays ----------------------------------------------------------------------------

ILLEGAL_PLAYS = [
    pytest.param(
        EARLY,
        OUT,
        plays("KH:marriage"),
        "play AS",
        "must follow suit: KH was led and this hand holds hearts",
        id="not-following-suit",
    ),
    pytest.param(
        POLISH,
        BEAT,
        plays("JS"),
        "play 9S",
        "must beat the best spade in the trick with a higher one when able",
        id="not-beating-polish",
    ),
    pytest.param(
        EARLY,
        OUT,
        plays("KH:marriage 9H AH AC"),
        "play AD",
        "void in clubs, must play a trump (hearts) when holding one",
        id="not-trumping",
    ),
    pytest.param(
        OVERTRUMP,
        OUT,
        plays("KH:marriage 9H AH AC QH"),
        "play JH",
        "must beat the highest heart already in the trick when able",
        id="not-overtrumping",
    ),
    pytest.param(RUSSIAN, OUT, [], "play AS", "AS is not in this player's hand", id="not-held"),
    pytest.param(
        RUSSIAN,
        BEAT,
        plays("AH 9H"),
        "play KH marriage",
        "only the player leading to a trick may declare",
        id="follower-declares",
    ),
    pytest.param(
        RUSSIAN,
        ACES,
        [],
        "play KH marriage",
        "these rules allow a marriage only after the player has won a trick",
        id="russian-marriage-before-first-trick",
    ),
    pytest.param(
        POLISH,
        ACES,
        [],
        "play KH",
        (
            "under these rules leading KH here declares the "
            "marriage automatically: 'play KH marriage'"
        ),
        id="polish-plain-king-with-queen",
    ),
    pytest.param(
        POLISH,
        ACES,
        ACES_TRICK_1,
        "play AD aces",
        "these rules have no ace marriage",
        id="polish-aces",
    ),
    pytest.param(
        RUSSIAN,
        THREE_ACES,
        ACES_TRICK_1,
        "play AD aces",
        "the ace marriage is declared by leading an ace while holding all four",
        id="aces-with-three-aces",
    ),
    pytest.param(
        RUSSIAN,
        ACES,
        [],
        "play AD aces",
        "the ace marriage needs a trick already won with a card other than an ace",
        id="aces-before-a-won-trick",
    ),
    pytest.param(
        RUSSIAN,
        ACES,
        ACES_TRICK_1,
        "play AH marriage",
        "a marriage is declared by leading its king or queen",
        id="ace-marriage",
    ),
    pytest.param(
        EARLY,
        TRUMPED,
        [],
        "play KH marriage",
        "the partner of KH is not in hand, so there is no marriage to declare",
        id="no-partner",
    ),
    pytest.param(
        RUSSIAN,
        ACES,
        [*ACES_TRICK_1, *plays("KH:marriage 9H 9C")],
        "play QH marriage",
        "the partner of QH is not in hand, so there is no marriage to declare",
        id="pair-declared-once",
    ),
    pytest.param(
        RUSSIAN,
        OUT,
        [],
        "bid 120",
        "in trick play the only action is playing a card ('play CARD')",
        id="bid-in-play",
    ),
    pytest.param(
        attrs.evolve(RUSSIAN, marriage_declaration=MarriageDeclaration.AUTOMATIC),
        ACES,
        ACES_TRICK_1,
        "play AD",
        "under these rules leading AD here declares the four aces automatically: 'play AD aces'",
        id="automatic-aces",
    ),
]


@pytest.mark.parametrize(("rules", "deal", "before", "text", "reason"), ILLEGAL_PLAYS)
def test_illegal_plays_are_refused(rules, deal, before, text, reason):
    """A play breaking the following or declaring rules raises and leaves the state unchanged."""
    state = play(start(rules, deal), *before)
    assert_illegal(state, text, reason)


def test_no_action_once_the_deal_is_over():
    """After the last trick the deal is scored and any action raises naming no seat."""
    state = start(RUSSIAN, OUT)
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    assert state.legal_actions() == ()
    assert state.current_player is None
    with pytest.raises(thousand.IllegalActionError) as caught:
        state.apply(thousand.parse_action("play AH"))
    assert caught.value.seat is None
    assert "nobody may act after the end of the game ('play AH')" in str(caught.value)


# One definition of the following rules ---------------------------------------------------------

_FOLLOWING_VARIANTS = {
    **{name: Rules.preset(name) for name in Rules.preset_names()},
    "overtrump": attrs.evolve(Rules.preset("russian"), must_overtrump=True),
    "beat and trump": attrs.evolve(Rules.preset("russian"), must_beat=True, must_trump=True),
}


@pytest.mark.parametrize("name", sorted(_FOLLOWING_VARIANTS))
def test_the_legal_cards_the_refusals_and_the_deductions_read_one_following_rule(
    name: str,
) -> None:
    """Every card the following rules allow is legal and is never taken for a sign that the hand
    lacks a card it holds; every card they forbid is refused in their words."""
    rules = _FOLLOWING_VARIANTS[name]
    rng = random.Random(name)
    checked = 0
    for seed in range(6):
        state = thousand.new_deal(rules, seed=seed)
        while not state.is_over:
            if state.phase is Phase.PLAY and state.trick_cards:
                hand = state.hand_masks[state.player]
                demands = following(rules, state.trick_cards, state.trump_suit)
                allowed = playable(rules, hand, state.trick_cards, state.trump_suit)
                legal = {action.card.index for action in state.legal_actions()}
                assert legal == {index for index in range(24) if allowed >> index & 1}
                for index in range(24):
                    if not hand >> index & 1:
                        continue
                    before = 0
                    for cards in demands:
                        if cards >> index & 1:
                            break
                        before |= cards
                    if index in legal:
                        assert not before & hand
                    else:
                        with pytest.raises(thousand.IllegalActionError, match="must"):
                            state.apply(thousand.Play(thousand.DECK[index]))
                checked += 1
            state = state.apply(rng.choice(state.legal_actions()))
    assert checked


def test_beats_decides_the_trick_winner() -> None:
    """A higher card of the suit, or a trump on another suit, beats the best card so far; no card
    beats itself."""
    ace_hearts, nine_hearts, nine_spades = (
        thousand.Card.parse(text).index for text in ("AH", "9H", "9S")
    )
    assert beats(ace_hearts, nine_hearts, trump=-1)
    assert not beats(nine_spades, ace_hearts, trump=-1)
    assert beats(nine_spades, ace_hearts, trump=Suit.SPADES)
    assert trick_winner((nine_hearts, nine_spades, ace_hearts), Suit.SPADES) == 1
    assert trick_winner((nine_hearts, nine_spades, ace_hearts), -1) == 2
    for trump in (-1, *Suit):
        assert not any(beats(card, card, trump) for card in range(24)), "a card beats itself"


def test_must_beat_lapses_once_spades_trump_the_lead_as_any_trump_would() -> None:
    """Spades are trump like any suit: after a club lead the next seat must beat the queen led,
    but once a spade has trumped it, any club follows."""
    queen_clubs, nine_spades = (thousand.Card.parse(text).index for text in ("QC", "9S"))
    hand = sum(card.bit for card in thousand.cards("AC 9C AH"))
    assert cards_of(playable(POLISH, hand, (queen_clubs,), Suit.SPADES)) == thousand.cards("AC")
    trumped = playable(POLISH, hand, (queen_clubs, nine_spades), Suit.SPADES)
    assert set(cards_of(trumped)) == set(thousand.cards("AC 9C"))


def test_the_lock_holds_above_its_threshold_under_the_lock_endgame_only() -> None:
    polish = Rules.preset("polish")
    assert polish.endgame is Endgame.LOCK
    assert above_lock(polish, polish.lock_threshold + 1)
    assert not above_lock(polish, polish.lock_threshold)
    assert not above_lock(Rules.preset("russian"), Rules.preset("russian").lock_threshold + 1)


def test_plain_plays_are_every_card_of_the_mask_in_display_order() -> None:
    """The plays offered for a set of cards are one per card, in the order the hand is shown,
    for sets spread over every suit and both halves of the deck."""
    rng = random.Random(17)
    masks = [0, FULL_MASK, 1, 1 << 23, (1 << 12) - 1, FULL_MASK ^ ((1 << 12) - 1)]
    masks += [rng.getrandbits(24) for _ in range(500)]
    for mask in masks:
        assert plain_plays(mask) == tuple(thousand.Play(card) for card in cards_of(mask))


class CardLookalike:
    """A stand-in for a card that has a card's text and nothing else."""

    text = "KH"


@pytest.mark.parametrize("held", [CardLookalike(), None], ids=["look-alike", "none"])
def test_a_play_holding_something_that_is_not_a_card_is_refused_naming_its_type(held):
    """A play whose card is a look-alike with no place in the deck, or no card at all, is refused
    in trick play, naming the kind of action, not the value inside it; the message still shows
    what was played."""
    action = Play(held)
    assert_refused(start(RUSSIAN, OUT), action, "this Play holds values no action has")
    assert str(action) == f"play {held}"
