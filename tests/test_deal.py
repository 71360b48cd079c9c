"""deal(): seeded shuffles, the dealer, and fixed deals checked against the deck."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr

from .strategies import any_rules


def test_the_same_rules_and_seed_give_the_same_deal() -> None:
    first = cr.deal(cr.english(5), seed=42)
    assert cr.deal(cr.english(5), seed=42) == first
    assert cr.deal(cr.english(5), seed=42).hands == first.hands
    assert cr.deal(cr.english(5), seed=43).hands != first.hands


def test_an_unseeded_deal_draws_and_keeps_a_seed() -> None:
    state = cr.deal(cr.english(4))
    assert isinstance(state.seed, int)
    assert cr.deal(cr.english(4), seed=state.seed).hands == state.hands


@given(any_rules(), st.integers(0, 2**64))
def test_every_card_is_dealt_or_set_aside(rules: cr.Rules, seed: int) -> None:
    state = cr.deal(rules, seed=seed)
    dealt = [card for hand in state.hands for card in hand]
    assert Counter(dealt) + Counter(state.set_aside) == Counter(rules.deck.cards())
    assert len(state.set_aside) == rules.dealing.set_aside
    assert max(state.hand_sizes) - min(state.hand_sizes) <= 1
    assert state.pile == ()


def test_cards_go_one_at_a_time_clockwise_from_the_dealers_left() -> None:
    # 52 cards among 5 players: the first two seats from the dealer's left get
    # the extra cards.
    state = cr.deal(cr.english(5), seed=3, dealer=2)
    assert state.hand_sizes == (10, 10, 10, 11, 11)
    assert state.dealer == 2
    default = cr.deal(cr.english(5), seed=3)
    assert default.dealer == 4
    assert default.hand_sizes == (11, 11, 10, 10, 10)


def test_the_dealers_left_neighbour_opens_and_must_claim_aces() -> None:
    state = cr.deal(cr.english(4), seed=1, dealer=1)
    assert state.to_move == 2
    assert state.phase is cr.Phase.PLAY
    assert state.required_rank is cr.Rank.ACE
    assert state.last_claim is None
    assert cr.deal(cr.english(4), seed=1).to_move == 0


def test_the_deal_is_the_first_event() -> None:
    state = cr.deal(cr.english(3), hands=["7c", "8d 9d", "Ks"], dealer=0)
    assert state.events == (cr.Dealt(0, (cr.cards("7c"), cr.cards("8d 9d"), cr.cards("Ks")), ()),)


def test_fixed_hands_are_sorted_and_may_be_cards_or_strings() -> None:
    state = cr.deal(cr.english(3), hands=["K♦ 7♣", cr.cards("2h A♠"), [cr.Card.parse("9c")]])
    assert state.hands == (cr.cards("7♣ K♦"), cr.cards("A♠ 2♥"), cr.cards("9♣"))


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (["7c", "8d"], "one hand per seat: 3 hands; got 2"),
        (["7c", "8d", "9h", "Ts"], "one hand per seat: 3 hands; got 4"),
        (["7c", "7c", "9h"], "7♣ 2 times, but the deck has 1 copy"),
        (["7c 7♣", "8d", "9h"], "7♣ 2 times"),
        (["7c", "", "9h"], "hand 1 is empty"),
        (["7c", "8x", "9h"], "hand 1: cannot read '8x'"),
        ("7c 8d 9h", "must be a list with one hand per seat"),
    ],
)
def test_bad_fixed_deals_are_refused(hands: list[str], message: str) -> None:
    with pytest.raises(cr.DealError, match=message):
        cr.deal(cr.english(3), hands=hands)


def test_two_decks_allow_two_copies() -> None:
    state = cr.deal(cr.english(7), hands=["7c 7c", "8d", "9h", "Ts", "Js", "Qs", "Ks"])
    assert state.hands[0] == cr.cards("7♣ 7♣")
    with pytest.raises(cr.DealError, match="7♣ 3 times, but the deck has 2 copies"):
        cr.deal(cr.english(7), hands=["7c 7c 7c", "8d", "9h", "Ts", "Js", "Qs", "Ks"])


def test_english_sets_no_card_aside() -> None:
    with pytest.raises(cr.DealError, match="hidden= holds 1 cards but these rules set aside 0"):
        cr.deal(cr.english(3), hands=["7c", "8d", "9h"], hidden="Ks")
    with pytest.raises(cr.DealError, match="hidden= goes with hands="):
        cr.deal(cr.english(3), hidden="Ks")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dealer": 3}, "dealer must be a seat from 0 to 2; got 3"),
        ({"dealer": -1}, "dealer must be a seat from 0 to 2; got -1"),
        ({"dealer": "0"}, "dealer must be a seat from 0 to 2 or 'random'; got '0'"),
        ({"seed": 1.5}, "seed must be a whole number; got 1.5"),
        ({"seed": True}, "seed must be a whole number"),
    ],
)
def test_bad_deal_arguments_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(cr.DealError, match=message):
        cr.deal(cr.english(3), **options)  # type: ignore[arg-type]


def test_deal_needs_rules() -> None:
    with pytest.raises(cr.DealError, match="needs a Rules value"):
        cr.deal("english")  # type: ignore[arg-type]


def test_a_seed_always_deals_these_cards() -> None:
    # Pinned: records and shared seeds rely on a seed dealing the same cards
    # in every version of the library.
    english = cr.deal(cr.english(4), seed=1)
    assert english.hands[0] == cr.cards("A♥ 2♣ 4♣ 4♦ 5♦ 7♦ 8♣ 9♦ 9♠ J♥ J♠ Q♠ K♦")
    assert english.hands[1] == cr.cards("A♦ A♠ 2♦ 3♦ 4♠ 6♦ 7♣ 7♥ 8♠ 10♥ Q♣ K♣ K♥")
    verish = cr.deal(cr.verish(3), seed=1)
    assert verish.hands[0] == cr.cards("A♦ 6♣ 7♠ 8♦ 8♠ 9♦ 9♠ 10♥ J♦ Q♣ Q♠ K♠")
    assert verish.set_aside == cr.cards("K♥")


def test_negative_seeds_deal_their_own_cards() -> None:
    assert cr.deal(cr.english(4), seed=-1).hands != cr.deal(cr.english(4), seed=1).hands
    assert cr.deal(cr.english(4), seed=-1) == cr.deal(cr.english(4), seed=-1)


# -- the dealer chosen by lot ---------------------------------------------------------------


def test_the_dealer_is_chosen_by_lot_from_the_seed() -> None:
    # "Escolha o dador por sorteio" (the rule books): dealer="random" draws
    # the dealer from the game's seed, so the same seed draws the same dealer.
    rules = cr.english(5)
    drawn = [cr.deal(rules, seed=seed, dealer="random").dealer for seed in range(40)]
    assert set(drawn) == set(range(5))  # every seat can be drawn
    for seed in range(40):
        again = cr.deal(rules, seed=seed, dealer="random")
        assert again.dealer == drawn[seed]
        # The draw leaves the shuffle alone: it is the deal that seat gives.
        assert again == cr.deal(rules, seed=seed, dealer=drawn[seed])
        assert again.to_move == (drawn[seed] + 1) % 5


def test_a_dealer_drawn_by_lot_replays_from_its_record() -> None:
    state = cr.deal(cr.verish(3), seed=12, dealer="random")
    state = state.apply(state.legal_actions()[0])
    text = cr.dumps(state)
    assert f'"dealer": {state.dealer}' in text
    assert cr.loads(text) == state


def test_a_dealer_by_lot_without_a_seed_is_kept_with_the_fresh_seed() -> None:
    state = cr.deal(cr.english(4), dealer="random")
    assert state.seed is not None
    assert cr.deal(cr.english(4), seed=state.seed, dealer="random") == state
    fixed = cr.deal(cr.english(3), hands=["7c", "8d", "9h"], dealer="random")
    assert 0 <= fixed.dealer < 3 and fixed.to_move == (fixed.dealer + 1) % 3
    assert cr.loads(cr.dumps(fixed)) == fixed


def test_the_default_dealer_is_still_the_last_seat() -> None:
    assert cr.deal(cr.english(4), seed=3).dealer == 3


def test_an_unknown_way_to_choose_the_dealer_is_refused() -> None:
    with pytest.raises(cr.DealError, match="dealer must be a seat from 0 to 2 or 'random'"):
        cr.deal(cr.english(3), dealer="lot")  # type: ignore[arg-type]
