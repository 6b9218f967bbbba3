"""Behaviour of the built-in ``greedy`` bot: the choices it makes in explicit Thousand and 1000?
situations, legal answers over whole games of every preset and table size, and the same
decisions from the same seed.

Thousand deals are dealt from written layouts with seat 0 dealing, so seat 1 is the forehand
(held to 100 when both others pass) and seat 2 speaks first.
"""

import random

import attrs
import pytest

from thousand import (
    Bid,
    Card,
    Concede,
    Concession,
    Contract,
    Discard,
    Give,
    Layout,
    Pass,
    Phase,
    Play,
    Rules,
    Suit,
    Take,
    bluff,
    new_deal,
    new_match,
    parse_action,
)
from thousand.bots import GreedyPlayer, RandomPlayer, thousand_strategy

RUSSIAN = Rules.preset("russian")


def greedy_choice(state, seed=0):
    """What a greedy bot in the seat to act chooses."""
    seat = state.current_player
    player = GreedyPlayer()
    player.start(seat, state.rules, random.Random(seed))
    return player.act(state.observation(seat))


def deal(hands, talon, rules=RUSSIAN):
    """A Thousand deal from a written layout, seat 0 dealing."""
    return new_deal(rules, layout=Layout(hands=hands, talon=talon), dealer=0)


def act(state, *texts):
    """Apply each action text in turn (to a state of either game)."""
    parse = bluff.parse_action if isinstance(state, bluff.State) else parse_action
    for text in texts:
        state = state.apply(parse(text))
    return state


def cards(text):
    return {Card.parse(word) for word in text.split()}


# Thousand: the auction ------------------------------------------------------------------------

WEAK = "9S JS QS 9C JC 9D JD"
STRONG = "AH TH KH QH AD TD KD"


def test_weak_hand_passes():
    state = deal(["AS TS KS AC TC KC QC", STRONG, WEAK], "QD JH 9H")
    assert greedy_choice(state) == Pass()


def test_strong_hand_bids_the_least_it_may():
    state = deal(["AS TS KS AC TC KC QC", WEAK, STRONG], "QD JH 9H")
    assert greedy_choice(state) == Bid(105)


def test_does_not_chase_a_high_bid_with_a_weak_hand():
    """Its marriage of spades would allow bids up to 160, but the rest of the hand is poor."""
    state = deal(
        ["KS QS 9S JC 9C 9D JD", "AS TS JS AC TC KC QC", "AH TH AD TD KD QD JH"], "KH QH 9H"
    )
    state = act(state, "bid 120")
    assert Bid(125) in state.legal_actions()
    assert greedy_choice(state) == Pass()


# Thousand: the exchange, the contract and the concession --------------------------------------

FORCED = ["AS TS KS QS TC KC QC", "AH KH QH AD TD AC 9S", "JC KD QD JD 9D JH 9H"]
"""The forehand (seat 1) holds the hearts marriage, three aces and a ten."""


def test_gives_away_low_cards_and_keeps_the_marriage():
    state = act(deal(FORCED, "9C JS TH"), "pass", "pass")
    assert state.phase is Phase.EXCHANGE
    given = []
    for _ in range(2):
        choice = greedy_choice(state)
        assert isinstance(choice, Give)
        given.append(choice.card)
        state = state.apply(choice)
    assert set(given) <= cards("9S 9C JS")
    assert state.phase is Phase.CONTRACT


def test_lays_aside_low_cards_in_two_players():
    hands = ["AS TS KS QS KC QC JC TH JH 9H", "AH KH QH AD TD AC TC 9S JS 9C"]
    rules = Rules.preset("polish-2p")
    state = act(new_deal(rules, layout=Layout(hands=hands, talon="9D JD | KD QD")), "pass")
    assert greedy_choice(state) in (Take(1), Take(2))
    state = act(state, "take 1")
    for _ in range(2):
        choice = greedy_choice(state)
        assert isinstance(choice, Discard)
        assert choice.card in cards("9S JS 9C 9D JD")
        state = state.apply(choice)
    assert state.phase is Phase.CONTRACT


def test_raises_the_contract_on_a_strong_hand():
    state = act(deal(FORCED, "9C JS TH"), "pass", "pass", "give 9S 0", "give 9C 2")
    choice = greedy_choice(state)
    assert isinstance(choice, Contract)
    assert choice.amount > 100


HOPELESS = ["AS TS KS AC TC KC AD", "9S JS 9C JC 9D JD QS", "TD KD QD AH TH KH QH"]


def test_concedes_a_hopeless_hand():
    state = act(deal(HOPELESS, "9H JH QC"), "pass", "pass", "give QS 0", "give QC 2")
    assert greedy_choice(state) == Concede()
    free = attrs.evolve(RUSSIAN, concession=Concession.FREE)
    state = act(deal(HOPELESS, "9H JH QC", free), "pass", "pass", "give QS 0", "give QC 2")
    assert greedy_choice(state) == Concede()


def test_plays_a_fair_hand_out():
    state = act(deal(FORCED, "9C JS TH"), "pass", "pass", "give 9S 0", "give 9C 2")
    assert greedy_choice(state) != Concede()


ENDGAME = Layout(
    hands=["9H AD QS JD AH TC JS", "TS QD TD 9C KH AS TH", "KD AC QC KS QH 9D KC"],
    talon="JC JH 9S",
)


def test_bids_more_readily_when_defence_would_score_nothing():
    """A fair hand passes, but bids on the barrel or locked near the target, where only the
    bot's own contracts count."""
    assert greedy_choice(new_deal(RUSSIAN, layout=ENDGAME)) == Pass()
    on_barrel = new_deal(RUSSIAN, layout=ENDGAME, scores=[0, 0, 880])
    assert greedy_choice(on_barrel) == Bid(105)
    locked = new_deal(Rules.preset("polish"), layout=ENDGAME, scores=[0, 0, 850])
    assert greedy_choice(locked) == Bid(110)


def test_plays_for_the_win_on_the_barrel():
    """On the barrel only a contract of 120 reaches 1000; below it, making it gains nothing."""
    hands = ["KS 9C JS 9S TC QD TD", "JD AH AC KC TS KD 9D", "QS JC 9H JH QH TH AD"]
    layout = Layout(hands=hands, talon="AS KH QC")
    for scores, contract in (([0, 0, 0], 100), ([0, 880, 0], 120)):
        state = new_deal(RUSSIAN, layout=layout, scores=scores)
        state = act(state, "pass", "pass", "give 9D 0", "give JD 2")
        assert greedy_choice(state) == Contract(contract)


# Thousand: trick play -------------------------------------------------------------------------

MARRIAGE = ["9S JS AC KC QC 9D JD", "AS KH QH AD TD TC 9H", "QS KS TS JC 9C KD QD"]
"""Seat 1, the forehand, holds the hearts marriage and the ace of spades."""


def marriage_deal():
    """Seat 1 plays 100 with AS AH TH KH QH AD TD TC after giving the jack and nine of hearts."""
    return act(deal(MARRIAGE, "AH TH JH"), "pass", "pass", "give JH 0", "give 9H 2", "contract 100")


def test_keeps_the_marriage_before_it_may_be_declared():
    """Under Russian rules a marriage needs a trick won first: the king and queen stay in hand."""
    choice = greedy_choice(marriage_deal())
    assert isinstance(choice, Play)
    assert choice.card not in cards("KH QH")


def test_declares_its_marriage_once_able():
    state = act(marriage_deal(), "play AS", "play QS", "play 9S")
    assert state.current_player == 1
    choice = greedy_choice(state)
    assert choice in state.legal_actions()
    assert isinstance(choice, Play)
    assert choice.marriage
    assert choice.card.suit is Suit.HEARTS


def test_declares_at_once_when_no_trick_is_needed():
    rules = attrs.evolve(RUSSIAN, marriage_requires_trick=False)
    state = act(
        deal(MARRIAGE, "AH TH JH", rules), "pass", "pass", "give JH 0", "give 9H 2", "contract 100"
    )
    choice = greedy_choice(state)
    assert isinstance(choice, Play)
    assert choice.marriage


TRICKS = ["AS TS 9C JC 9D JD 9H", "KS QS AC TC KC QC AD", "9S JS TD KD QD AH TH"]


def trick_deal():
    """Seat 1 plays 100 and leads the king of spades; seat 2 follows with the nine."""
    return act(
        deal(TRICKS, "KH QH JH"),
        "pass",
        "pass",
        "give JH 0",
        "give QS 2",
        "contract 100",
        "play KS",
        "play 9S",
    )


def test_wins_a_trick_with_the_cheaper_of_two_winners():
    assert greedy_choice(trick_deal()) == Play(Card.parse("TS"))


def partner_wins_with_the_ace_of_spades():
    """Seat 1 declares and leads the king of spades, seat 2 takes it with the ace; seat 0, its
    partner and void in spades, plays last."""
    hands = ["TD 9D JC 9C QH JH 9H", "KS QS AC TC KC QC AD", "AS TS 9S JS KD QD AH"]
    return act(
        deal(hands, "KH TH JD"),
        "pass",
        "pass",
        "give JD 0",
        "give KH 2",
        "contract 100",
        "play KS",
        "play AS",
    )


def test_throws_points_to_a_partner_winning_the_trick():
    """Seat 2 wins with the ace of spades; seat 0, its partner and void in spades, adds its ten."""
    assert greedy_choice(partner_wins_with_the_ace_of_spades()) == Play(Card.parse("TD"))


def test_discards_its_cheapest_card_when_it_cannot_win():
    """The declarer's ace of spades wins; seat 0, void in spades, keeps its points and marriage."""
    hands = ["TD KH QH JC 9C TH 9D", "AS QS AC TC KC QC AD", "KS TS 9S JS KD QD AH"]
    state = act(
        deal(hands, "9H JH JD"),
        "pass",
        "pass",
        "give JD 0",
        "give JH 2",
        "contract 100",
        "play AS",
        "play 9S",
    )
    assert greedy_choice(state).card in cards("9C 9D")


# 1000? ----------------------------------------------------------------------------------------


def bluff_deal(hands, pile="", **fields):
    """A 1000? game dealt as written, the rest of the default deck in the draw pile; the dealer
    is the last seat, so seat 0 starts."""
    rules = bluff.Rules(players=len(hands), **fields)
    rest = list(rules.deck)
    for card in bluff.cards(" ".join([*hands, pile])):
        rest.remove(card)
    layout = bluff.Layout(hands=hands, draw_pile=[*bluff.cards(pile), *rest])
    return bluff.new_game(rules, layout=layout, dealer=len(hands) - 1, seed=0)


def test_climbs_with_the_cheapest_card_that_beats_the_top():
    state = bluff_deal(["06 11 12 13 14 15 17", "36 16 26 1000 02 03 04", "18 19 20 21 22 23 24"])
    state = act(state, "play 06")
    choice = greedy_choice(state)
    assert choice in state.legal_actions()
    assert isinstance(choice, (bluff.Play, bluff.Hide))
    assert choice.card == bluff.Card("16")


def test_shows_a_card_that_is_hard_to_beat():
    """Holding three of the six 1000s, its 49 on 39 is rarely beaten: it goes face up."""
    state = bluff_deal(
        ["39 11 12 13 14 15 17", "49 1000 1000 1000 05 07 08", "18 19 20 21 22 23 24"]
    )
    state = act(state, "play 39")
    assert greedy_choice(state) == bluff.Play(bluff.Card("49"))


def test_bluffs_rather_than_draws_when_it_cannot_beat():
    state = bluff_deal(["49 11 12 13 14 15 17", "01 02 03 04 05 07 08", "18 19 20 21 22 23 24"])
    state = act(state, "play 49")
    choice = greedy_choice(state)
    assert isinstance(choice, bluff.Hide)
    assert choice.card == bluff.Card("01")


def test_never_opens_with_a_1000_while_another_card_will_do():
    state = bluff_deal(["1000 1000 45 46 47 48 01", "11 12 13 14 15 17 18", "19 20 21 22 23 24 25"])
    assert greedy_choice(state) == bluff.Play(bluff.Card("01"))


def test_believes_what_is_hidden_on_a_1000():
    state = bluff_deal(["1000 11 12 13 14 15 17", "01 02 03 04 05 07 08", "18 19 20 21 22 23 24"])
    state = act(state, "play 1000", "hide 01")
    assert greedy_choice(state) == bluff.Believe()


def test_challenges_a_last_card_played_face_down():
    state = bluff_deal(["05 07", "15 25"], "30 31 32", hand_size=2, deck="05 07 15 25 30 31 32")
    state = act(state, "play 05", "play 15", "hide 07")
    assert greedy_choice(state) == bluff.Challenge()


def test_challenges_when_no_unseen_card_could_be_honest():
    """Nothing but a 1000 beats 49, and the bot holds all six."""
    state = bluff_deal(["49 1000 1000 1000 1000 1000 1000", "11 12 13 14 15 17 18"])
    state = act(state, "play 49", "hide 11")
    assert greedy_choice(state) == bluff.Challenge()


def test_believes_when_most_unseen_cards_would_be_honest():
    """Most cards beat 01, so a card hidden on it is most likely honest."""
    state = bluff_deal(["01 44 45 46 47 48 49", "11 12 13 14 15 17 18"])
    state = act(state, "play 01", "hide 11")
    assert greedy_choice(state) == bluff.Believe()


# Every game: legal answers and repeatable decisions ----------------------------------------------


def play_out(state, players, check):
    """Play to the end, checking that every answer is one of the legal actions."""
    actions = []
    while not state.is_over:
        seat = state.current_player
        observation = state.observation(seat)
        action = players[seat].act(observation)
        if check:
            assert action in observation.legal_actions
        actions.append(action)
        state = state.apply(action)
    return actions


def seated(rules, seed, greedy_seats):
    """Greedy bots in the given seats, random ones elsewhere, each with its own generator."""
    players = [
        GreedyPlayer() if seat in greedy_seats else RandomPlayer() for seat in range(rules.players)
    ]
    for seat, player in enumerate(players):
        player.start(seat, rules, random.Random(f"{seed}:{seat}"))
    return players


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_always_answers_legally_in_thousand(preset):
    rules = Rules.preset(preset)
    for seed in range(4):
        greedy_seats = {seed % rules.players, (seed + 1) % rules.players}
        state = new_match(attrs.evolve(rules, max_deals=15), seed=seed)
        play_out(state, seated(rules, seed, greedy_seats), check=True)


@pytest.mark.parametrize("players", range(2, 7))
def test_always_answers_legally_in_1000(players):
    rules = bluff.Rules(players=players)
    for seed in range(4):
        greedy_seats = {seed % players} if seed % 2 else set(range(players))
        state = bluff.new_game(rules, seed=seed)
        play_out(state, seated(rules, seed, greedy_seats), check=True)


def test_same_seed_same_decisions():
    for rules, start in (
        (Rules.preset("polish-2p"), lambda rules: new_deal(rules, seed=7)),
        (bluff.Rules(players=3), lambda rules: bluff.new_game(rules, seed=7)),
    ):
        runs = [
            play_out(start(rules), seated(rules, 1, set(range(rules.players))), False)
            for _ in range(2)
        ]
        assert runs[0] == runs[1]


def test_refuses_other_games():
    with pytest.raises(TypeError):
        GreedyPlayer().act(object())


def _strength_script():
    """The duplicate-play measurement of benchmarks/strength.py, loaded as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "strength.py"
    spec = importlib.util.spec_from_file_location("strength_benchmark", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_greedy_beats_random_in_duplicate_play():
    """Over 300 deal groups of each game, greedy's margin over random has a 95% confidence
    interval above zero: in Thousand points per deal, in 1000? wins per game."""
    strength = _strength_script()
    russian = Rules.preset("russian")
    card_play = strength.measure(
        300, lambda group, tally: strength.thousand_group(russian, 0, group, tally)
    )
    mean, half = strength.interval(card_play.values)
    assert mean - half > 50
    climbing_rules = bluff.Rules(players=3)
    climbing = strength.measure(
        300, lambda group, tally: strength.bluff_group(climbing_rules, 0, group, tally)
    )
    mean, half = strength.interval(climbing.values)
    assert mean - half > 0.5


# Thousand: the trick play with every hand face up (the search bots' playouts) ----------------


def test_face_up_play_throws_points_to_a_partner_who_cannot_be_beaten():
    """The partner-feeding deal above, every hand in view: seat 0 plays last, so nobody can
    take the trick from its partner's ace, and it adds its ten of diamonds."""
    state = partner_wins_with_the_ace_of_spades()
    assert thousand_strategy.play_in_view(state) == Play(Card.parse("TD"))


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_trick_play_answers_with_the_engines_own_actions(preset):
    """In the trick play, greedy and its face-up variant return one of the state's own legal
    actions (the very object), which the engine takes without looking it up."""
    rules = Rules.preset(preset)
    checked = 0
    for seed in range(6):
        state = new_deal(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            observation = state.observation(state.current_player)
            answer = thousand_strategy.choose(observation, rng)
            if state.phase is Phase.PLAY:
                legal = state.legal_actions()
                assert any(answer is own for own in observation.legal_actions)
                assert any(thousand_strategy.play_in_view(state) is own for own in legal)
                checked += 1
            state = state.apply(answer)
    assert checked > 20
