"""The legal actions as a lazy view: counted, indexed and drawn from without listing every play."""

from __future__ import annotations

import collections
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import Challenge, Discard, Pass, Play

from .budget import examples
from .strategies import deals, option_combinations, play_randomly, random_action

HUGE = cr.english(6, decks=2, jokers=True, claims="any", ranks="free")


def huge_state() -> cr.GameState:
    """Seat 0 holds 50 cards under the house rules with the most plays."""
    deck = sorted(HUGE.deck.cards())
    random.Random(0).shuffle(deck)
    hands = [sorted(deck[:50])] + [[card] for card in deck[50:55]]
    return cr.deal(HUGE, hands=hands, dealer=5)


# -- scenarios -----------------------------------------------------------------------


def test_a_play_of_the_same_ranks_in_other_suits_is_in_the_legal_actions() -> None:
    deck = sorted(cr.english(3).deck.cards())
    state = cr.deal(cr.english(3), hands=[deck[:6], deck[6:12], deck[12:18]], dealer=2)
    hand = state.hands[0]
    assert hand is not None and state.to_move == 0
    # The list shows each rank multiset once, with the lowest suits.
    card, other = hand[0], hand[1]
    assert card.rank is other.rank and card != other
    play = Play((other,), state.allowed_ranks[0])
    assert state.is_legal(play)
    legal = state.legal_actions()
    assert play in legal
    # It stands for the listed play of the same ranks: index and count say so.
    listed = Play((card,), state.allowed_ranks[0])
    assert legal.index(play) == legal.index(listed)
    assert legal.count(play) == 1
    assert Play((card, card), state.allowed_ranks[0]) not in legal


def test_the_huge_house_rules_count_and_draw_without_listing() -> None:
    state = huge_state()
    legal = state.legal_actions()
    counts = collections.Counter(card.rank for card in state.hands[0] or ())
    ways = [1]  # ways[k]: rank multisets of k cards, a product of 1 + x + ... + x^c
    for count in counts.values():
        ways = [
            sum(ways[k - m] for m in range(count + 1) if 0 <= k - m < len(ways))
            for k in range(len(ways) + count)
        ]
    plays = sum(ways[1:11]) * len(state.allowed_ranks)
    assert plays > 10_000_000  # listing them would take minutes and gigabytes
    assert len(legal) == plays + len(state.choices)
    assert legal.count_plays() == plays
    rng = random.Random(7)
    for _ in range(20):
        action = legal.choice(rng)
        assert state.is_legal(action)
        assert action in legal
    assert state.is_legal(legal[-1]) and state.is_legal(legal[len(legal) // 2])
    assert legal[-1] == legal[len(legal) - 1]
    assert "actions" in repr(legal) and len(repr(legal)) < 400


def test_the_huge_view_as_seen_by_the_seat_agrees() -> None:
    state = huge_state()
    seen = state.observe(0)
    assert len(seen.legal_actions()) == len(state.legal_actions())
    assert seen.legal_actions()[12_345_678] == state.legal_actions()[12_345_678]


def test_a_saved_view_with_millions_of_plays_loads() -> None:
    state = huge_state()
    loaded = cr.loads_view(cr.dumps(state, seat=0))
    assert loaded == state.observe(0)
    assert len(loaded.legal_actions()) == len(state.legal_actions())


def test_a_play_of_every_card_under_any_claim_size_counts_quickly() -> None:
    rules = cr.english(4, claims=cr.policies.ClaimSize(1, 52))
    deck = sorted(rules.deck.cards())
    state = cr.deal(rules, hands=[deck[:26], deck[26:32], deck[32:40], deck[40:]], dealer=3)
    legal = state.legal_actions()
    # Rank counts in the hand: 4 4 4 4 4 4 2 (26 cards): multisets of any size 1..26.
    expected = (5**6 * 3 - 1) * len(state.allowed_ranks)
    assert len(legal) == expected
    assert state.is_legal(legal.choice(random.Random(1)))


def test_the_list_keeps_todays_order_and_compares_to_tuples() -> None:
    state = cr.deal(cr.english(3), seed=1)
    legal = state.legal_actions()
    materialised = tuple(legal)
    assert legal == materialised and materialised == tuple(legal)
    assert legal == list(materialised)
    assert legal != materialised[:-1]
    assert repr(legal).startswith(f"LegalActions({len(materialised)} actions: Play(2♣ as A), ")
    window = state.apply(legal[0]).legal_actions()
    assert repr(window) == repr(tuple(window)) == "(Challenge(), Accept())"
    assert legal[:3] == materialised[:3] and isinstance(legal[:3], tuple)
    assert legal[::-5] == materialised[::-5]


def test_an_empty_view_has_nothing_to_choose() -> None:
    state = cr.deal(cr.english(3), seed=1)
    assert state.to_move is not None
    seen = state.observe((state.to_move + 1) % 3)
    legal = seen.legal_actions()
    assert len(legal) == 0 and legal == () and not legal
    with pytest.raises(IndexError):
        legal.choice(random.Random(0))
    with pytest.raises(IndexError):
        legal[0]


def test_choice_is_uniform_over_the_listed_actions() -> None:
    state = cr.deal(cr.english(6), seed=11)
    legal = state.legal_actions()
    size = len(legal)
    draws = 100 * size
    rng = random.Random(2024)
    seen = collections.Counter(legal.index(legal.choice(rng)) for _ in range(draws))
    assert set(seen) <= set(range(size))
    expected = draws / size
    chi2 = sum((seen[i] - expected) ** 2 / expected for i in range(size))
    # Far above the 99.9% point of chi-square with size - 1 degrees of freedom.
    assert chi2 < (size - 1) + 5 * math.sqrt(2 * (size - 1)), chi2


def test_index_of_an_illegal_action_says_so() -> None:
    state = cr.deal(cr.english(3), seed=1)
    legal = state.legal_actions()
    with pytest.raises(ValueError, match="not a legal action"):
        legal.index(Pass())
    assert legal.count(Pass()) == 0
    assert "not an action" not in legal  # type: ignore[comparison-overlap]


# -- properties -------------------------------------------------------------------


def _check_agrees(state: cr.GameState, rng: random.Random) -> None:
    for legal in (state.legal_actions(), state.observe(state.to_move).legal_actions()):  # type: ignore[arg-type]
        listed = list(legal)
        assert (
            len(legal)
            == len(listed)
            == legal.count_plays() + sum(1 for action in listed if not isinstance(action, Play))
        )
        assert legal == listed
        assert len(set(listed)) == len(listed)
        for index in rng.sample(range(len(listed)), min(8, len(listed))):
            assert legal[index] == listed[index]
            assert legal[index - len(listed)] == listed[index]
            assert legal.index(listed[index]) == index
            assert legal.count(listed[index]) == 1
            assert listed[index] in legal
        start, stop = sorted(rng.randint(-len(listed) - 2, len(listed) + 2) for _ in range(2))
        step = rng.choice([1, 2, -1, -3])
        assert legal[start:stop:step] == tuple(listed[start:stop:step])
        if listed:
            assert state.is_legal(legal.choice(rng))
        for _ in range(5):
            action = random_action(state, rng)
            assert (action in legal) == state.is_legal(action)
        hand = state.hands[state.to_move] if state.to_move is not None else None
        if hand:
            for rank in (state.allowed_ranks or (cr.Rank.ACE,))[:2]:
                for play in (Play((hand[0], hand[0]), rank), Play((hand[-1],), rank)):
                    assert (play in legal) == state.is_legal(play)
        for other in (Challenge(), Challenge(earlier=True), Pass(), cr.Accept(), Discard(())):
            assert (other in legal) == state.is_legal(other)
    assert state.to_move is not None
    for seat in range(state.rules.players):
        if seat != state.to_move:
            assert state.observe(seat).legal_actions() == ()


@examples(25)
@given(state=deals(option_combinations()), seed=st.integers(0, 2**32))
def test_the_view_agrees_with_the_materialised_list_and_is_legal(
    state: cr.GameState, seed: int
) -> None:
    rng = random.Random(seed)
    states = play_randomly(state, seed, limit=60)
    for current in rng.sample(states, min(4, len(states))):
        if not current.is_over:
            _check_agrees(current, rng)
