"""What each seat knows: observations hold only what that seat could have seen."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import Phase

from .budget import examples
from .strategies import any_rules, deals, play_randomly, small_deals


def seen_cards(state: cr.GameState, seat: int) -> set[cr.Card]:
    """Every card ``seat`` has had in view at some moment of the game."""
    seen: set[cr.Card] = set()
    for event in state.observe(seat).events:
        if isinstance(event, cr.Dealt):
            seen.update(event.hands[seat])
        elif isinstance(event, (cr.Played, cr.Revealed, cr.PileTaken, cr.Discarded)):
            seen.update(event.cards)
    return seen


def cards_named(events: Sequence[cr.Event]) -> list[cr.Card]:
    """Every card any of these events names."""
    named: list[cr.Card] = []
    for event in events:
        if isinstance(event, cr.Dealt):
            named += [card for hand in event.hands for card in hand] + list(event.set_aside)
        else:
            named += list(getattr(event, "cards", ()))
    return named


def renamed(state: cr.GameState, swap: Callable[[cr.Card], cr.Card]) -> cr.GameState | None:
    """The same game with card values exchanged everywhere, or None if it no longer replays."""
    dealt = state.events[0]
    assert isinstance(dealt, cr.Dealt)
    try:
        other = cr.deal(
            state.rules,
            seed=state.seed,
            dealer=state.dealer,
            hands=[[swap(card) for card in hand] for hand in dealt.hands],
            hidden=[swap(card) for card in dealt.set_aside] or None,
        )
        for action in state.actions:
            if isinstance(action, cr.Play):
                action = cr.Play(tuple(swap(card) for card in action.cards), action.rank)
            other = other.apply(action)
    except cr.IllegalActionError:
        return None
    return other


def swapping(first: cr.Card, second: cr.Card) -> Callable[[cr.Card], cr.Card]:
    return lambda card: second if card == first else first if card == second else card


def hidden_from(state: cr.GameState, seat: int) -> list[cr.Card]:
    """Cards held by other seats at the deal, or set aside, that ``seat`` never saw."""
    dealt = state.events[0]
    assert isinstance(dealt, cr.Dealt)
    others = [card for index, hand in enumerate(dealt.hands) if index != seat for card in hand]
    seen = seen_cards(state, seat)
    return sorted({card for card in [*others, *dealt.set_aside] if card not in seen})


one_pack = st.one_of(
    st.integers(3, 6).map(lambda players: cr.english(players)),
    st.integers(2, 6).map(lambda players: cr.verish(players)),
)


def unseen_swap(
    state: cr.GameState, seed: int, data: st.DataObject
) -> tuple[cr.GameState, cr.GameState, int]:
    """A moment of a random game from ``state``, the same game with two cards a seat never
    saw swapped, and that seat."""
    states = play_randomly(state, seed, limit=200)
    final = states[data.draw(st.integers(0, len(states) - 1))]
    seat = data.draw(st.integers(0, final.players - 1))
    hidden = hidden_from(final, seat)
    assume(len(hidden) >= 2)
    first, second = data.draw(
        st.lists(st.sampled_from(hidden), min_size=2, max_size=2, unique=True)
    )
    other = renamed(final, swapping(first, second))
    assume(other is not None)
    assert other is not None
    return final, other, seat


def seen_swap(
    state: cr.GameState, seed: int, data: st.DataObject
) -> tuple[cr.GameState, cr.GameState, int]:
    """A moment of a random game from ``state``, another game where a card a seat saw is
    exchanged with one it never saw, and that seat."""
    states = play_randomly(state, seed, limit=200)
    final = states[data.draw(st.integers(0, len(states) - 1))]
    seat = data.draw(st.integers(0, final.players - 1))
    seen = seen_cards(final, seat)
    unseen = sorted(set(final.rules.deck.cards()) - seen)
    # The unseen card is held elsewhere or not dealt at all. The seen one is
    # not one the seat saw only set aside in a four: a discard names ranks, so
    # the renamed game may set aside the very same cards.
    discarded = {
        card for event in final.events if isinstance(event, cr.Discarded) for card in event.cards
    }
    swappable = sorted(seen - discarded)
    assume(swappable)
    first = data.draw(st.sampled_from(swappable))
    second = data.draw(st.sampled_from(unseen))
    other = renamed(final, swapping(first, second))
    # Two cards that stayed together all game swap into the very same game.
    assume(other is not None and other != final)
    assert other is not None
    return final, other, seat


@examples(75)
@given(small_deals(one_pack, max_cards=7), st.integers(0, 2**32), st.data())
def test_unseen_cards_make_no_difference(
    state: cr.GameState, seed: int, data: st.DataObject
) -> None:
    final, other, seat = unseen_swap(state, seed, data)
    assert other.observe(seat) == final.observe(seat)


@examples(150)
@given(small_deals(one_pack, max_cards=7), st.integers(0, 2**32), st.data())
def test_seen_cards_make_a_difference(state: cr.GameState, seed: int, data: st.DataObject) -> None:
    final, other, seat = seen_swap(state, seed, data)
    assert other.observe(seat) != final.observe(seat)


@examples(60)
@given(deals(), st.integers(0, 2**32))
def test_a_seat_sees_only_its_own_hidden_cards(state: cr.GameState, seed: int) -> None:
    for current in play_randomly(state, seed, limit=300)[::7]:
        for seat in range(current.players):
            seen = current.observe(seat)
            assert seen.hand == current.hands[seat]
            assert seen.hand_sizes == current.hand_sizes
            assert seen.pile_size == current.pile_size
            assert (seen.to_move, seen.phase) == (current.to_move, current.phase)
            assert seen.required_rank == current.required_rank
            assert seen.last_claim == current.last_claim
            assert seen.finishing_order == current.finishing_order
            assert seen.set_aside_count == len(current.set_aside)
            for event in seen.events:
                if isinstance(event, cr.Dealt):
                    assert event.set_aside == ()
                    assert all(not hand for index, hand in enumerate(event.hands) if index != seat)
                elif isinstance(event, (cr.Played, cr.PileTaken)) and event.seat != seat:
                    assert event.cards == ()
            assert len(seen.events) == len(current.events)


@examples(30)
@given(deals(), st.integers(0, 2**32))
def test_observed_legal_actions_are_the_states(state: cr.GameState, seed: int) -> None:
    for current in play_randomly(state, seed, limit=300)[::3]:
        for seat in range(current.players):
            seen = current.observe(seat)
            if seat == current.to_move:
                assert tuple(seen.legal_actions()) == tuple(current.legal_actions())
                assert seen.is_my_turn
            else:
                assert seen.legal_actions() == ()


def test_the_set_aside_card_appears_in_no_seats_view() -> None:
    state = cr.deal(cr.verish(3), seed=12)
    (hidden,) = state.set_aside
    rng = random.Random(1)
    while not state.is_over:
        for seat in range(state.players):
            seen = state.observe(seat)
            assert hidden not in seen.hand
            assert hidden not in cards_named(seen.events)
        state = state.apply(rng.choice(list(state.legal_actions())))


def test_the_worked_example_as_each_seat_saw_it() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦ Q♠", "A♠ 2♥", "A♥ 9♣"])
    state = state.apply(cr.Play("7♣ K♦", "A"))
    assert state.observe(0).events[-1] == cr.Played(0, cr.cards("7♣ K♦"), cr.Rank.ACE)
    assert state.observe(1).events[-1] == cr.Played(0, (), cr.Rank.ACE, count=2)
    state = state.apply(cr.Challenge())
    for seat in range(3):
        assert state.observe(seat).events[-2] == cr.Revealed(
            0, cr.cards("7♣ K♦"), cr.Rank.ACE, truthful=False
        )
    assert state.observe(0).events[-1] == cr.PileTaken(0, cr.cards("7♣ K♦"))
    assert state.observe(2).events[-1] == cr.PileTaken(0, (), count=2)
    assert str(state.observe(2).events[-1]) == "seat 0 takes 2 cards"


def test_only_the_taker_sees_the_fours_it_is_offered() -> None:
    state = cr.deal(cr.verish(3), hands=["Q♠ 6♣", "Q♣ Q♦ Q♥ 9♣", "10♣ J♣"], hidden="A♠")
    state = state.apply(cr.Play("Q♠", "Q")).apply(cr.Challenge())
    assert state.phase is Phase.DISCARD
    assert state.observe(1).offered == (cr.Rank.QUEEN,)
    assert state.observe(0).offered == ()
    assert state.observe(1).legal_actions() == state.legal_actions()


def test_the_observation_reads_as_text() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦ Q♠", "A♠ 2♥", "A♥ 9♣"])
    text = str(state.apply(cr.Play("7♣ K♦", "A")).observe(1))
    assert text.splitlines() == [
        "seat 1 of 3 (english)",
        "challenge: seat 1 to decide",
        "hand: A♠ 2♥",
        "hand sizes: 1 2 2",
        "pile: 2 cards in 1 group; last claim: seat 0, two Aces",
        "next claim: 2",
    ]


def test_the_observation_text_counts_one_card_and_many_groups_in_plain_english() -> None:
    state = cr.deal(cr.english(3), hands=["7♣ K♦ Q♠", "A♠ 2♥", "A♥ 9♣"])
    state = state.apply(cr.Play("7♣", "A")).apply(cr.Accept()).apply(cr.Accept())
    assert "pile: 1 card in 1 group;" in str(state.observe(1))
    state = state.apply(cr.Play("2♥", "2")).apply(cr.Accept()).apply(cr.Accept())
    assert "pile: 2 cards in 2 groups;" in str(state.observe(1))


@pytest.mark.parametrize("seat", [-1, 3, "0", 1.0, True, None])
def test_observe_refuses_a_seat_that_is_not_at_the_table(seat: object) -> None:
    state = cr.deal(cr.english(3), seed=1)
    with pytest.raises(cr.SeatError, match="seat must be a whole number from 0 to 2"):
        state.observe(seat)  # type: ignore[arg-type]


@given(any_rules(), st.integers(0, 2**32))
def test_observations_are_frozen_values(rules: cr.Rules, seed: int) -> None:
    state = cr.deal(rules, seed=seed)
    assert state.observe(0) == cr.deal(rules, seed=seed).observe(0)
    assert hash(state.observe(0)) == hash(cr.deal(rules, seed=seed).observe(0))
