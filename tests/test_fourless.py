"""Dealing the cards nobody saw under compulsory discards: no hand noted after a pickup holds a four."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules._sampler import fourless as _fourless
from cheatrules.cards import Card, Rank

from .budget import examples

KINGS = list(cr.cards("K♠ K♥ K♦ K♣"))
QUEEN = cr.cards("Q♠")[0]


def test_a_hand_that_set_nothing_aside_is_dealt_no_four() -> None:
    # Tokens 0-3 were a taker's hand after a pickup, and it set nothing
    # aside; token 4 is elsewhere. The four Kings and a Queen are left: the
    # Queen must be in that hand, and a King out of it.
    noted = [((0, 1, 2, 3), ())]
    for seed in range(20):
        dealt = _fourless.fill({}, [0, 1, 2, 3, 4], [*KINGS, QUEEN], noted, random.Random(seed))
        assert dealt is not None
        assert dealt[4].rank is Rank.KING
        assert sorted(dealt.values(), key=str) == sorted([*KINGS, QUEEN], key=str)


def test_a_hand_that_set_a_four_aside_may_hold_one() -> None:
    # The same hand set four Kings aside: four Kings in it are what it showed.
    dealt = _fourless.fill(
        {}, [0, 1, 2, 3], KINGS, [((0, 1, 2, 3), (Rank.KING,))], random.Random(1)
    )
    assert dealt is not None


def test_no_deal_fits_when_the_cards_left_make_a_four_in_the_hand() -> None:
    assert _fourless.fill({}, [0, 1, 2, 3], KINGS, [((0, 1, 2, 3), ())], random.Random(1)) is None


def test_cards_already_given_count_toward_the_four() -> None:
    # Token 0 holds a King already: two more Kings may join it, not three.
    bound = {0: KINGS[0]}
    noted = [((0, 1, 2, 3), ())]
    pool = [*KINGS[1:], QUEEN, cr.cards("Q♥")[0]]
    assert _fourless.short_of_fours(noted, bound, Counter(card.rank for card in pool)) is False
    for seed in range(10):
        dealt = _fourless.fill(bound, [1, 2, 3, 4, 5], pool, noted, random.Random(seed))
        assert dealt is not None
        assert sum(dealt[t].rank is Rank.KING for t in (0, 1, 2, 3)) <= 3


def test_a_hand_whose_free_places_only_kings_can_fill_is_short() -> None:
    noted = [((0, 1, 2, 3), ())]
    assert _fourless.short_of_fours(noted, {}, Counter({Rank.KING: 4})) is True
    assert _fourless.short_of_fours(noted, {}, Counter({Rank.KING: 4, Rank.JOKER: 1})) is False


# Few ranks, so that fours are easy to make and the limits bind.
DECK = [
    card for card in cr.english(3).deck.cards() if card.rank in (Rank.KING, Rank.QUEEN, Rank.JACK)
]


@settings(examples(100), deadline=None)
@given(
    st.integers(4, 11),
    st.lists(st.tuples(st.integers(0, 2**16), st.integers(1, 9)), min_size=1, max_size=4),
    st.randoms(use_true_random=False),
)
def test_a_deal_is_the_pool_and_breaks_no_noted_hand(
    tokens: int, hands: list[tuple[int, int]], rng: random.Random
) -> None:
    # Random pools and noted hands (overlapping, as a hand at two pickups
    # does): any deal found gives each token one card of the pool and no
    # noted hand a four; when none is found, no random deal fits either.
    pool = rng.sample(DECK, min(len(DECK), tokens + rng.randrange(3)))
    free = list(range(tokens))
    noted: list[_fourless.Noted] = []
    for mask, size in hands:
        members = random.Random(mask).sample(free, min(size, tokens))
        noted.append((tuple(members), ()))
    dealt = _fourless.fill({}, free, pool, noted, rng)
    if dealt is not None:
        assert set(dealt) == set(free)
        assert not Counter(dealt.values()) - Counter(pool)
        assert not _fourless.holds_extra_four(noted, dealt)
    else:
        for _ in range(200):
            cards: list[Card] = rng.sample(pool, len(pool))
            assert _fourless.holds_extra_four(noted, dict(zip(free, cards, strict=False)))


class _TimeUpError(Exception):
    pass


def test_the_exact_search_asks_the_clock_as_it_goes_and_stops_when_the_time_is_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With many hands noted a node of the search costs a third of a
    # millisecond; a sample's clock must reach into it.
    monkeypatch.setattr(_fourless, "_DRAWS", 0)  # straight to the exact search
    monkeypatch.setattr(_fourless, "_CHECK_EVERY", 1)
    noted: list[_fourless.Noted] = [((0, 1, 2, 3), ())]
    asked: list[int] = []
    dealt = _fourless.fill(
        {}, [0, 1, 2, 3, 4], [*KINGS, QUEEN], noted, random.Random(0), lambda: asked.append(1)
    )
    assert dealt is not None and asked

    def time_up() -> None:
        raise _TimeUpError

    with pytest.raises(_TimeUpError):
        _fourless.fill({}, [0, 1, 2, 3, 4], [*KINGS, QUEEN], noted, random.Random(0), time_up)
