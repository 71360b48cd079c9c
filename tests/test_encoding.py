"""Encodings for learning code: the action space, the legal mask, observation vectors."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules.encoding import ActionSpace, EncodingError, ObservationEncoder

from .budget import examples
from .strategies import deals, play_randomly


def ranks_of(action: cr.Action) -> object:
    if isinstance(action, cr.Play):
        return ("play", sorted(card.rank for card in action.cards), action.rank)
    return action


@examples(40)
@given(deals(), st.integers(0, 2**32))
def test_indices_and_actions_round_trip(state: cr.GameState, seed: int) -> None:
    space = ActionSpace(state.rules)
    for current in play_randomly(state, seed, limit=150)[::5]:
        if current.is_over:
            continue
        seen = current.observe(current.to_move)  # type: ignore[arg-type]
        legal = current.legal_actions()
        mask = space.mask(seen)
        assert len(mask) == space.size
        assert sum(mask) == len(legal)
        for action in legal:
            index = space.encode(action)
            assert mask[index]
            assert ranks_of(space.decode(index, seen)) == ranks_of(action)
        for index in space.legal_indices(seen):
            assert space.encode(space.decode(index, seen)) == index
            assert current.is_legal(space.decode(index, seen))


def test_the_action_space_sizes() -> None:
    # 2 (challenge, accept) + 2,379 multisets of 1-4 cards x 13 ranks announced.
    assert ActionSpace(cr.english(4)).size == 2 + 2379 * 13
    # Verish, 36 cards: 512 choices of fours, and 219 multisets of 1-3 x 9 ranks.
    assert ActionSpace(cr.verish(3)).size == 2 + 2**9 + 219 * 9
    assert ActionSpace(cr.english(4)) == ActionSpace(cr.english(4))


def test_the_first_indices_are_challenge_and_accept() -> None:
    space = ActionSpace(cr.verish(3))
    assert space.encode(cr.Challenge()) == 0
    assert space.encode(cr.Accept()) == 1
    assert space.encode(cr.Discard(())) == 2


def test_bad_indices_and_actions_are_refused() -> None:
    space = ActionSpace(cr.english(4))
    seen = cr.deal(cr.english(4), seed=1).observe(0)
    with pytest.raises(EncodingError, match="index must be a whole number from 0 to 30928"):
        space.decode(space.size, seen)
    with pytest.raises(EncodingError, match="has no index"):
        space.encode(cr.Discard("Q"))
    with pytest.raises(EncodingError, match="has no index"):
        space.encode(cr.Play("2c 3c 4c 5c 6c", "A"))
    four_kings = space.encode(cr.Play("Kc Kd Kh Ks", "A"))
    with pytest.raises(EncodingError, match="seat 0 holds no K"):
        space.decode(four_kings, seen)


@examples(30)
@given(deals(), st.integers(0, 2**32), st.data())
def test_the_vector_agrees_with_the_observation_and_its_text(
    state: cr.GameState, seed: int, data: st.DataObject
) -> None:
    encoder = ObservationEncoder(state.rules)
    states = play_randomly(state, seed, limit=150)
    current = states[data.draw(st.integers(0, len(states) - 1))]
    seat = data.draw(st.integers(0, current.players - 1))
    seen = current.observe(seat)
    vector = encoder.encode(seen)
    assert len(vector) == encoder.size
    assert encoder.section(vector, "seat")[seat] == 1.0
    assert encoder.section(vector, "hand_sizes") == [float(size) for size in seen.hand_sizes]
    assert sum(encoder.section(vector, "hand")) == len(seen.hand)
    assert encoder.section(vector, "pile_size") == [float(seen.pile_size)]
    ranks = state.rules.deck.ranks
    allowed = [
        rank
        for rank, flag in zip(ranks, encoder.section(vector, "allowed_ranks"), strict=True)
        if flag
    ]
    assert tuple(allowed) == seen.allowed_ranks
    active = encoder.section(vector, "active")
    assert [seat for seat, flag in enumerate(active) if not flag] == sorted(seen.finishing_order)
    # The text form says the same numbers.
    text = str(seen)
    assert (
        f"hand sizes: {' '.join(str(int(size)) for size in encoder.section(vector, 'hand_sizes'))}"
        in text
    )
    assert f"pile: {int(vector[encoder.layout[6][1]])} cards" in text
    if not seen.is_over:
        assert f"next claim: {' '.join(map(str, allowed))}" in text


def test_the_layout_covers_the_vector_without_gaps() -> None:
    encoder = ObservationEncoder(cr.verish(4))
    position = 0
    for _, start, length in encoder.layout:
        assert start == position
        position += length
    assert position == encoder.size
    with pytest.raises(EncodingError, match="no section 'colour'"):
        encoder.section([0.0] * encoder.size, "colour")


def test_a_numpy_array_when_numpy_is_installed() -> None:
    numpy = pytest.importorskip("numpy")
    seen = cr.deal(cr.english(4), seed=2).observe(1)
    array = ObservationEncoder(cr.english(4)).array(seen)
    assert array.dtype == numpy.float32
    assert array.tolist() == ObservationEncoder(cr.english(4)).encode(seen)


def test_random_play_through_indices_only() -> None:
    # A bot that only ever sees vectors and masks can play a whole game.
    rules = cr.verish(3)
    space, encoder = ActionSpace(rules), ObservationEncoder(rules)
    state = cr.deal(rules, seed=8)
    rng = random.Random(8)
    while not state.is_over:
        seen = state.observe(state.to_move)  # type: ignore[arg-type]
        assert len(encoder.encode(seen)) == encoder.size
        choice = rng.choice([index for index, legal in enumerate(space.mask(seen)) if legal])
        state = state.apply(space.decode(choice, seen))
    assert state.outcome is not None


@pytest.mark.parametrize(
    "options",
    [
        {"jokers": True},
        {"window": "extended"},
        {"passing": "consent", "stock": 5},
        {"passing": "all-revealed", "ranks": "hold", "jokers": True},
    ],
    ids=repr,
)
def test_every_decision_of_a_house_variation_has_its_own_index(options: dict[str, object]) -> None:
    rules = cr.english(3, **options)
    space = ActionSpace(rules)
    encoder = ObservationEncoder(rules)
    rng = random.Random(5)
    for seed in range(2):
        for state in play_randomly(cr.deal(rules, seed=seed), seed, limit=60):
            if state.is_over:
                continue
            seen = state.observe(state.to_move)  # type: ignore[arg-type]
            legal = state.legal_actions()
            indices = [space.encode(action) for action in legal]
            assert len(set(indices)) == len(indices) and sum(space.mask(seen)) == len(legal)
            chosen = rng.choice(indices)
            assert state.is_legal(space.decode(chosen, seen))
            assert len(encoder.encode(seen)) == encoder.size
