"""Chance is part of a state's value: equal states have equal successors.

A one-card check turns over a card drawn at random. The draw at each moment
comes from the state's value alone (its seed, or a draw it was scripted to
make, which records write), so two equal states, however they were made,
draw the same card.
"""

from __future__ import annotations

import pickle
import random

import cheatrules as cr
from cheatrules import Challenge, Play


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
