"""Properties that hold in every game: conservation, immutability, the action generator."""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import Phase, Play

from .strategies import deals, play_randomly, random_action, small_deals


def all_cards(state: cr.GameState) -> Counter[cr.Card]:
    dealt = state.events[0]
    assert isinstance(dealt, cr.Dealt)
    return Counter([card for hand in dealt.hands for card in hand])


def snapshot(state: cr.GameState) -> tuple[object, ...]:
    return (
        state.hands,
        state.pile,
        state.events,
        state.to_move,
        state.phase,
        state.required_rank,
        state.last_claim,
        state.outcome,
        state.legal_actions(),
    )


def play_signature(play: Play) -> tuple[tuple[cr.Rank, ...], cr.Rank]:
    return tuple(sorted(card.rank for card in play.cards)), play.rank


@settings(max_examples=60, deadline=None)
@given(deals(), st.integers(0, 2**32))
def test_cards_are_conserved(state: cr.GameState, seed: int) -> None:
    expected = all_cards(state)
    for current in play_randomly(state, seed):
        held = Counter(card for hand in current.hands for card in hand)
        assert held + Counter(current.pile) == expected
        assert current.pile_size == len(current.pile)
        assert sum(current.hand_sizes) + current.pile_size == sum(expected.values())


@settings(max_examples=60, deadline=None)
@given(deals(), st.integers(0, 2**32))
def test_apply_never_mutates(state: cr.GameState, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        if state.is_over:
            break
        before, saved_hash = snapshot(state), hash(state)
        state.apply(random_action(state, rng))
        assert snapshot(state) == before
        assert hash(state) == saved_hash
        state = state.apply(random_action(state, rng))


@settings(max_examples=60, deadline=None)
@given(small_deals(max_cards=7), st.integers(0, 2**32))
def test_listed_actions_are_exactly_the_legal_rank_choices(state: cr.GameState, seed: int) -> None:
    rng = random.Random(seed)
    for current in play_randomly(state, seed, limit=40):
        listed = current.legal_actions()
        assert all(current.is_legal(action) for action in listed)
        assert len(set(listed)) == len(listed)
        if current.phase is not Phase.PLAY:
            continue
        signatures = {play_signature(action) for action in listed if isinstance(action, Play)}
        assert len(signatures) == len(listed)
        hand = current.hands[current.to_move]  # type: ignore[index]
        # Random concrete plays, legal or not: legal exactly when listed.
        for _ in range(20):
            count = rng.randint(0, min(5, len(hand)))
            play = Play(tuple(rng.sample(hand, count)), rng.choice(list(cr.Rank)))
            assert current.is_legal(play) == (play_signature(play) in signatures)


@settings(max_examples=40, deadline=None)
@given(deals(), st.integers(0, 2**32))
def test_the_same_seed_gives_the_same_game(state: cr.GameState, seed: int) -> None:
    first = play_randomly(state, seed)
    second = play_randomly(copy.copy(state), seed)
    assert len(first) == len(second)
    assert first[-1] == second[-1]
    assert first[-1].events == second[-1].events
    assert [hash(current) for current in first] == [hash(current) for current in second]
    # Two different histories never compare equal.
    assert len({hash(current) for current in first}) == len(first)
    assert len(set(first[:200])) == len(first[:200])


@settings(max_examples=40, deadline=None)
@given(deals(), st.integers(0, 2**32))
def test_random_legal_play_ends_with_exactly_one_winner(state: cr.GameState, seed: int) -> None:
    final = play_randomly(state, seed, limit=20_000)[-1]
    assert final.is_over
    assert final.outcome is not None
    (winner,) = final.outcome.winners
    assert final.hands[winner] == ()
    assert sorted(final.outcome.winners + final.outcome.losers) == list(range(final.players))
    assert isinstance(final.events[-1], cr.GameOver)
    assert final.to_move is None and final.legal_actions() == ()


@settings(max_examples=40, deadline=None)
@given(deals(), st.integers(0, 2**32))
def test_every_state_keeps_its_invariants(state: cr.GameState, seed: int) -> None:
    for current in play_randomly(state, seed, limit=500):
        if current.is_over:
            continue
        seat = current.to_move
        assert seat is not None
        if current.phase is Phase.PLAY:
            assert current.hands[seat], "a player to lay cards always holds some"
            assert current.required_rank is not None
        else:
            assert current.phase is Phase.CHALLENGE
            assert current.last_claim is not None
            assert seat != current.last_claim.seat, "a declarer never challenges itself"
        assert current.events[-1] is not None


@settings(max_examples=20, deadline=None)
@given(deals(), st.integers(0, 2**32))
def test_states_survive_pickling_and_copying(state: cr.GameState, seed: int) -> None:
    for current in play_randomly(state, seed, limit=200)[::25]:
        assert pickle.loads(pickle.dumps(current)) == current
        assert copy.deepcopy(current) == current
        restored = pickle.loads(pickle.dumps(current))
        assert restored.events == current.events and restored.pile == current.pile


@settings(max_examples=30, deadline=None)
@given(deals(), st.integers(0, 2**32))
def test_replaying_the_actions_gives_the_same_state(state: cr.GameState, seed: int) -> None:
    final = play_randomly(state, seed, limit=400)[-1]
    replayed = state
    for action in final.actions:
        replayed = replayed.apply(action)
    assert replayed == final
    assert replayed.events == final.events


def test_states_compare_by_history() -> None:
    state = cr.deal(cr.english(3), hands=["A♣ A♦ 5♣", "2♥", "3♥"])
    one = state.apply(Play("A♣", "A"))
    other = state.apply(Play("A♦", "A"))
    assert one != other
    assert one == state.apply(Play("A♣", "A"))
    assert one != "a state"
