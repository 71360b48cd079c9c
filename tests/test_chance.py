"""Chance is part of a state's value: equal states have equal successors.

A one-card check turns over a card drawn at random. The draw at each moment
comes from the state's value alone (its seed, or a draw it was scripted to
make, which records write), so two equal states, however they were made,
draw the same card.
"""

from __future__ import annotations

import pickle
import random

import attrs
from hypothesis import event, given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import Challenge, Play
from cheatrules.sampling import SamplingError, sample

from .budget import examples
from .strategies import option_combinations, play_randomly, random_action


def _one_card_game() -> cr.GameState:
    """A one-card game with a challenge behind it and a two-card claim waiting on one."""
    rules = cr.english(3, check="one-card")
    state = cr.deal(rules, hands=["A♦ K♣ 2♦ 5♠", "K♥ 9♣ 4♦", "Q♥ 8♣ 3♠"], seed=7)
    state = state.apply(Play("A♦ K♣", "A")).apply(Challenge())
    while state.phase is not cr.Phase.PLAY:
        state = state.apply(state.legal_actions()[0])
    seat = state.to_move
    assert seat is not None
    hand = state.hands[seat]
    state = state.apply(Play(hand[:2], state.allowed_ranks[0]))
    assert state.phase is cr.Phase.CHALLENGE
    return state


def test_a_sampled_game_and_its_record_are_the_same_game_with_the_same_future() -> None:
    # The sampler scripts the card the seat saw turned over; the record of
    # the sampled game must replay that draw, and the next draw must be the
    # same from both.
    state = _one_card_game()
    seen = state.observe(2)
    for seed in range(12):
        sampled = seen.sample(random.Random(seed))
        again = cr.loads(cr.dumps(sampled))
        assert again == sampled
        assert again.apply(Challenge()) == sampled.apply(Challenge())
        assert again.apply(Challenge()).events == sampled.apply(Challenge()).events


def test_a_pickled_sample_draws_as_the_sample_does() -> None:
    sampled = _one_card_game().observe(1).sample(random.Random(3))
    copy = pickle.loads(pickle.dumps(sampled))
    assert copy == sampled and hash(copy) == hash(sampled)
    assert copy.apply(Challenge()).events == sampled.apply(Challenge()).events


# -- equal states have equal successors ---------------------------------------------------


def _actions(state: cr.GameState, rng: random.Random) -> list[cr.Action]:
    """The choices other than plays, a few uniformly random legal actions, and a random play."""
    legal = state.legal_actions()
    return [*state.choices, *(legal.choice(rng) for _ in range(3)), random_action(state, rng)]


def _same_futures(state: cr.GameState, other: cr.GameState, rng: random.Random) -> None:
    """``other`` equals ``state``, and each action takes both to equal states, event for event."""
    assert other == state and hash(other) == hash(state)
    for action in _actions(state, rng):
        after, other_after = state.apply(action), other.apply(action)
        assert other_after == after
        assert other_after.events == after.events


@examples(30)
@given(option_combinations(), st.integers(0, 2**32), st.data())
def test_equal_states_have_equal_successors(
    rules: cr.Rules, seed: int, data: st.DataObject
) -> None:
    if data.draw(st.booleans(), label="one-card check"):
        # The check that draws, half the time (any composition allows it).
        rules = attrs.evolve(rules, check=cr.policies.OneCard())
    rng = random.Random(seed)
    states = play_randomly(cr.deal(rules, seed=seed), seed, limit=60)
    for state in rng.sample(states, min(3, len(states))):
        if state.is_over:
            continue
        # The same game written and read back, and pickled.
        _same_futures(state, cr.loads(cr.dumps(state)), rng)
        _same_futures(state, pickle.loads(pickle.dumps(state)), rng)
        # A game sampled from a seat's view, against its own record and copy.
        seat = data.draw(st.integers(0, rules.players - 1), label="seat")
        seen = state.observe(seat)
        try:
            sampled = sample(seen, rng, attempts=100)
        except SamplingError:
            continue
        assert sampled.observe(seat) == seen
        event("sampled, with scripted draws" if sampled.draws else "sampled")
        if sampled == state:
            _same_futures(state, sampled, rng)
        _same_futures(sampled, cr.loads(cr.dumps(sampled)), rng)
        _same_futures(sampled, pickle.loads(pickle.dumps(sampled)), rng)
