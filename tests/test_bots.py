"""The reference bots: legal, deterministic, and each true to its idea."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import Accept, Challenge, Phase, Play
from cheatrules.bots import Agent, CountingBot, HonestBot, RandomBot, SamplingBot, claim_odds

from .budget import examples
from .strategies import play_randomly, small_deals

BOTS: list[Agent] = [RandomBot(), HonestBot(), CountingBot(), SamplingBot(samples=2)]
HOUSE = [
    cr.english(3),
    cr.verish(3),
    cr.english(3, jokers=True, window="extended"),
    cr.english(4, passing="consent", stock=True),
    cr.verish(2, check="one-card", discards="any-time"),
]


@pytest.mark.parametrize("bot", BOTS, ids=lambda bot: type(bot).__name__)
@examples(25)
@given(small_deals(st.sampled_from(HOUSE), max_cards=5), st.integers(0, 2**32), st.data())
def test_every_bot_always_chooses_a_legal_action(
    bot: Agent, state: cr.GameState, seed: int, data: st.DataObject
) -> None:
    states = [s for s in play_randomly(state, seed, limit=60) if not s.is_over]
    if not states:
        return
    position = states[data.draw(st.integers(0, len(states) - 1))]
    seen = position.observe(position.to_move)  # type: ignore[arg-type]
    action = bot.act(seen, random.Random(seed))
    assert position.is_legal(action)
    assert bot.act(seen, random.Random(seed)) == action  # the same rng, the same choice


@pytest.mark.parametrize("bot", BOTS, ids=lambda bot: type(bot).__name__)
def test_a_whole_game_among_bots_ends(bot: Agent) -> None:
    state = cr.deal(cr.english(3), seed=4)
    lineup = [bot, HonestBot(), RandomBot()]
    rngs = [random.Random(seat) for seat in range(3)]
    for _ in range(5000):
        if state.is_over:
            break
        seat: int = state.to_move  # type: ignore[assignment]
        state = state.apply(lineup[seat].act(state.observe(seat), rngs[seat]))
    assert state.is_over


def test_the_honest_bot_lays_every_true_card_it_may() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ A♦ A♥ 5♣", "9♣", "Q♥"])
    assert HonestBot().act(state.observe(0), random.Random(0)) == Play("A♣ A♦ A♥", "A")


def test_the_honest_bot_lies_with_one_card_when_it_has_no_true_one() -> None:
    state = cr.deal(cr.english(3), hands=["5♣ 6♣ 7♣", "9♣", "Q♥"])
    action = HonestBot().act(state.observe(0), random.Random(0))
    assert isinstance(action, Play) and action.count == 1 and action.rank is cr.Rank.ACE


def test_the_honest_bot_passes_rather_than_lie_where_it_may() -> None:
    state = cr.deal(cr.english(3, passing="consent"), hands=["5♣ 6♣", "9♣", "Q♥"])
    assert HonestBot().act(state.observe(0), random.Random(0)) == cr.Pass()


def impossible_aces() -> cr.GameState:
    """Seat 0 claims two Aces while seat 1 holds three of the four."""
    state = cr.deal(cr.english(3), hands=["A♣ 5♣ 6♣", "A♠ A♦ A♥ 2♣", "Q♥ 8♣"])
    return state.apply(Play("5♣ 6♣", "A"))


def possible_ace() -> cr.GameState:
    """A full deal: seat 0 claims one Ace, with 17 cards in hand, and seat 1 holds none."""
    state = cr.deal(cr.english(3), seed=0)
    assert not any(card.rank is cr.Rank.ACE for card in state.hands[1])
    return state.apply(Play("A♥", "A"))


@pytest.mark.parametrize(
    "bot", [HonestBot(), CountingBot(), SamplingBot(samples=3)], ids=lambda bot: type(bot).__name__
)
def test_a_claim_proved_impossible_is_challenged(bot: Agent) -> None:
    assert bot.act(impossible_aces().observe(1), random.Random(0)) == Challenge()


def test_cards_the_seat_laid_itself_count_against_a_claim() -> None:
    # Verish': seat 0 laid three true Queens; seats 1 and 2 add "one" and
    # "two" Queens, but only one Queen is left anywhere.
    state = cr.deal(
        cr.verish(3), hands=["Q♣ Q♦ Q♥ 6♣ 7♣", "9♣ 9♦ 9♥ 10♣", "J♣ J♦ K♣ K♦ A♣"], hidden="A♠"
    )
    state = state.apply(Play("Q♣ Q♦ Q♥", "Q")).apply(Play("9♣", "Q")).apply(Play("J♣ J♦", "Q"))
    seen = state.observe(0)
    assert claim_odds(seen) == 0.0
    assert HonestBot().act(seen, random.Random(0)) == Challenge()


def test_a_likely_claim_with_cards_to_spare_is_let_stand() -> None:
    seen = possible_ace().observe(1)
    assert claim_odds(seen) > 0.9
    assert HonestBot().act(seen, random.Random(0)) == Accept()
    assert CountingBot().act(seen, random.Random(0)) == Accept()


def test_the_counting_bot_doubts_last_cards_harder() -> None:
    state = cr.deal(cr.english(3), hands=["5♣ 6♣", "2♠ 2♦ 2♥", "Q♥ 8♣"])
    seen = state.apply(Play("5♣ 6♣", "A")).observe(1)  # two Aces: the declarer's last cards
    odds = claim_odds(seen)
    assert 0.0 < odds < CountingBot().last_cards
    assert CountingBot().act(seen, random.Random(0)) == Challenge()
    assert not CountingBot(last_cards=odds / 2).doubts(seen)


def test_claim_odds_follow_the_hypergeometric_count() -> None:
    # Seat 1 sees its own 3 cards; seat 0 held 3 unknown cards of the 49
    # others, 4 of them Aces: P(at least one Ace in 3 of 49 holding 4).
    state = cr.deal(cr.english(3), hands=["A♣ 5♣ 6♣", "2♠ 2♦ 2♥", "Q♥ 8♣"])
    seen = state.apply(Play("5♣", "A")).observe(1)
    expected = 1 - (45 * 44 * 43) / (49 * 48 * 47)
    assert claim_odds(seen) == pytest.approx(expected)


def test_claim_odds_count_a_protecting_joker() -> None:
    # Two jokers among seat 1's 50 unseen cards: with the protecting joker, a
    # claim is also true when the declarer's 3 unknown cards held a joker.
    hands = ["A♣ 5♣ 6♣", "2♠ 2♦ 2♥", "Q♥ 8♣"]
    plain = cr.deal(cr.english(3, jokers=True), hands=hands)
    guarded = cr.deal(cr.english(3, jokers=True, check="jokers-protect"), hands=hands)
    two = [state.apply(Play("5♣ 6♣", "A")).observe(1) for state in (plain, guarded)]
    # Two Aces: of the 51 cards seat 1 cannot see, 4 Aces and 2 jokers.
    pool, aces, jokers, drawn = 51, 4, 2, 3
    total = math.comb(pool, drawn)
    at_least_two_good = sum(
        math.comb(aces + jokers, k) * math.comb(pool - aces - jokers, drawn - k)
        for k in range(2, drawn + 1)
    )
    assert claim_odds(two[0]) == pytest.approx(at_least_two_good / total)
    false = sum(math.comb(aces, k) * math.comb(pool - aces - jokers, drawn - k) for k in range(2))
    assert claim_odds(two[1]) == pytest.approx(1 - false / total)


def test_a_claim_no_true_group_could_back_is_possible_with_a_protecting_joker() -> None:
    # Every Ace is in seat 1's hand: only a joker can make seat 0's claim true.
    hands = ["5♣ 6♣ 7♣", "A♠ A♦ A♥ A♣", "Q♥ 8♣"]
    plain = cr.deal(cr.english(3, jokers=1), hands=hands)
    guarded = cr.deal(cr.english(3, jokers=1, check="jokers-protect"), hands=hands)
    odds = [claim_odds(s.apply(Play("5♣ 6♣", "A")).observe(1)) for s in (plain, guarded)]
    assert odds[0] == 0.0  # two Aces: one joker cannot make two
    assert odds[1] > 0.0


def test_the_counting_bot_gives_away_the_rank_it_needs_last() -> None:
    # Seat 0 must claim Aces and holds none; of 2 and 4, it is asked for 4s
    # at its next turn (3 players: A, 2, 3 | 4), so it gives the 2 away.
    state = cr.deal(cr.english(3), hands=["2♣ 4♣", "9♣", "Q♥"])
    action = CountingBot().act(state.observe(0), random.Random(0))
    assert action == Play("2♣", "A")


def test_bots_discard_every_four_and_agree_to_passes() -> None:
    rules = cr.verish(2, pack=52)
    state = cr.deal(rules, hands=["Q♣ Q♦ Q♥ 7♣", "Q♠ 7♦ 8♣"], hidden="2♣")
    state = state.apply(Play("7♣", "Q")).apply(Play("Q♠", "Q"))
    state = state.apply(Challenge())  # seat 0 doubts a true claim and takes the fourth Queen
    assert state.phase is Phase.DISCARD and state.to_move == 0
    for bot in (HonestBot(), CountingBot()):
        assert bot.act(state.observe(0), random.Random(0)) == cr.Discard("Q")
    asked = cr.deal(cr.english(3, passing="consent"), hands=["5♣", "9♣", "Q♥"]).apply(cr.Pass())
    assert CountingBot().act(asked.observe(1), random.Random(0)) == Accept()


def test_every_reference_bot_is_an_agent() -> None:
    assert all(isinstance(bot, Agent) for bot in BOTS)


def test_bots_set_fours_aside_on_their_turn_where_the_rules_allow() -> None:
    state = cr.deal(cr.english(3, discards="any-time"), hands=["J♣ J♦ J♥ J♠ 5♣", "9♣", "Q♥"])
    for bot in (HonestBot(), CountingBot()):
        assert bot.act(state.observe(0), random.Random(0)) == cr.Discard("J")


def test_with_fewer_cards_than_the_smallest_claim_the_bots_lay_them_all() -> None:
    # A hand smaller than the smallest claim lays all it holds (or, in Verish', may challenge).
    rules = cr.verish(3, claims=cr.policies.ClaimSize(2, 3))
    state = cr.deal(rules, hands=["A♦ 6♣", "7♥", "8♣ 9♣"], hidden="10♣")
    state = state.apply(Play("A♦ 6♣", "7"))
    assert tuple(state.legal_actions()) == (Challenge(), Play("7♥", "7"))
    assert HonestBot().act(state.observe(1), random.Random(0)) == Play("7♥", "7")
    for bot in BOTS:
        for seed in range(5):
            assert state.is_legal(bot.act(state.observe(1), random.Random(seed)))


def test_in_cheat_a_bot_with_too_few_cards_for_a_claim_lays_them_all() -> None:
    rules = cr.english(3, claims=cr.policies.ClaimSize(2, 4))
    state = cr.deal(rules, hands=["7♣ K♦ 3♥", "A♠", "9♣ 9♦"])
    state = state.apply(Play("7♣ K♦", "A")).apply(Challenge())
    for bot in BOTS:
        for seed in range(5):
            assert bot.act(state.observe(1), random.Random(seed)) == Play("A♠", "2")


def test_a_bot_refuses_to_help_a_player_with_fewer_cards_pass() -> None:
    rules = cr.english(3, passing="consent")
    asked = cr.deal(rules, hands=["5♣", "9♣ 9♦", "Q♥"]).apply(cr.Pass())
    assert CountingBot().act(asked.observe(1), random.Random(0)) == cr.Refuse()
    even = cr.deal(rules, hands=["5♣ 6♣", "9♣ 9♦", "Q♥"]).apply(cr.Pass())
    assert CountingBot().act(even.observe(1), random.Random(0)) == Accept()


def test_the_counting_bot_doubts_claims_of_more_copies_than_can_exist() -> None:
    # Verish', one 36-card pack: seat 0 holds two Kings and lays two sevens as
    # Kings; seat 1 claims one King and seat 2 two more. Three Kings claimed by
    # the others, and only two can be anywhere but seat 0's hand: the claims
    # cannot all be true, though the last alone could be.
    state = cr.deal(
        cr.verish(3), hands=["K♣ K♦ 7♣ 7♦ 8♣", "9♣ 9♦ 9♥ 10♣", "J♣ J♦ Q♣ Q♦ A♣"], hidden="A♠"
    )
    state = state.apply(Play("7♣ 7♦", "K")).apply(Play("9♣", "K")).apply(Play("J♣ J♦", "K"))
    seen = state.observe(0)
    assert seen.decision == cr.Turn(0, (Challenge(),))
    assert claim_odds(seen) > 0.0  # the last claim, on its own, may be true
    assert CountingBot().act(seen, random.Random(0)) == Challenge()


def test_the_counting_bot_lets_claims_stand_that_copies_can_back() -> None:
    state = cr.deal(
        cr.verish(3), hands=["K♣ 7♣ 7♦ 8♣ 6♣", "9♣ 9♦ 9♥ 10♣", "J♣ J♦ Q♣ Q♦ A♣"], hidden="A♠"
    )
    state = state.apply(Play("7♣", "K")).apply(Play("9♣", "K")).apply(Play("J♣", "K"))
    seen = state.observe(0)  # two Kings claimed by the others; three can be out there
    assert not CountingBot().doubts(seen)


def one_ace_from_two_cards() -> cr.GameState:
    """Seat 0 held two cards and claims one Ace; seat 1 holds three Aces: one Ace in 49 unseen."""
    state = cr.deal(cr.english(3), hands=["5♣ 6♣", "A♠ A♦ A♥ 2♣", "Q♥ 8♣"])
    return state.apply(Play("5♣", "A"))


def three_aces() -> cr.GameState:
    """Seat 0 lays three true Aces: unlikely from a uniform deal, honest all the same."""
    state = cr.deal(cr.english(3), hands=["A♣ A♦ A♥ 5♣ 6♣ 7♣", "2♠ 9♣", "Q♥ 8♣"])
    return state.apply(Play("A♣ A♦ A♥", "A"))


def test_the_sampling_bot_doubts_a_claim_no_sampled_world_lets_be_honest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every sampled world is the real game, where seat 0 held no Ace.
    state = one_ace_from_two_cards()
    monkeypatch.setattr(cr.bots, "sample_with", lambda seen, rng, **_: state)
    assert SamplingBot(doubt=1.0).act(state.observe(1), random.Random(0)) == Challenge()


def test_the_sampling_bot_accepts_a_claim_every_sampled_world_lets_be_honest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every sampled world is the real game, where seat 0 held its three Aces.
    state = three_aces()
    monkeypatch.setattr(cr.bots, "sample_with", lambda seen, rng, **_: state)
    assert SamplingBot(doubt=1.0).act(state.observe(1), random.Random(0)) == Accept()


def test_the_sampling_bot_doubts_a_single_card_that_could_hardly_be_true() -> None:
    seen = one_ace_from_two_cards().observe(1)
    assert 0.02 < claim_odds(seen) < 0.05  # too likely for CountingBot to doubt
    assert CountingBot().act(seen, random.Random(0)) == Accept()
    assert SamplingBot().act(seen, random.Random(0)) == Challenge()


def test_the_sampling_bot_trusts_many_cards_where_the_counting_bot_doubts() -> None:
    # A liar lays as few cards as it may: three Aces at once are seldom a lie.
    seen = three_aces().observe(1)
    assert CountingBot().act(seen, random.Random(0)) == Challenge()
    assert SamplingBot().act(seen, random.Random(0)) == Accept()


def test_the_sampling_bot_challenges_a_final_play_that_would_end_the_game() -> None:
    # English Cheat: letting seat 0 go out loses the game, so seat 1 calls
    # even two cards CountingBot finds likely enough.
    state = cr.deal(cr.english(3), hands=["5♣ 6♣", "2♠ 9♣", "Q♥ 8♣"])
    seen = state.apply(Play("5♣ 6♣", "A")).observe(1)
    assert SamplingBot(fallback=CountingBot(last_cards=0.0)).act(seen, random.Random(0)) == (
        Challenge()
    )
    assert CountingBot(last_cards=0.0).act(seen, random.Random(0)) == Accept()
