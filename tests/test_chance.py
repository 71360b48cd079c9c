"""Chance is part of a state's value: equal states have equal successors.

A one-card check turns over a card drawn at random. The draw at each moment
comes from the state's value alone (its seed, or a draw it was scripted to
make, which records write), so two equal states, however they were made,
draw the same card.
"""

from __future__ import annotations

import json
import pickle
import random

import attrs
import pytest
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


@examples(15)
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
            sampled = sample(seen, rng)
        except SamplingError:
            continue
        assert sampled.observe(seat) == seen
        event("sampled, with scripted draws" if sampled.draws else "sampled")
        # (A sample never equals the seeded game it was drawn from: it has its
        # own seed, and under a check that draws, its script.)
        assert sampled != state
        _same_futures(sampled, cr.loads(cr.dumps(sampled)), rng)
        _same_futures(sampled, pickle.loads(pickle.dumps(sampled)), rng)


# -- records of scripted draws ------------------------------------------------------------


def test_a_sampled_game_records_the_draws_its_seat_saw_and_a_dealt_game_none() -> None:
    state = _one_card_game()
    shown = state.events[3]  # the deal, the play, the challenge, the card turned over
    assert isinstance(shown, cr.events.Revealed)
    assert state.draws == () and "draws" not in json.loads(cr.dumps(state))["deal"]
    sampled = state.observe(2).sample(random.Random(1))
    # The seat saw the challenge at moment 2 turn over this card; the sample draws it there.
    assert sampled.draws == ((2, shown.cards[0]),)
    assert sampled.events[3] == shown
    record = json.loads(cr.dumps(sampled))
    assert record["deal"]["draws"] == [[2, str(shown.cards[0])]]
    assert cr.dumps(cr.loads(cr.dumps(sampled))) == cr.dumps(sampled)


@pytest.mark.parametrize(
    ("draws", "message"),
    [
        ("K♣", "deal.draws must be a list of [moment, card] pairs"),
        ([[2]], "deal.draws[0] must be a [moment, card] pair"),
        ([[0, "K♣"]], "deal.draws[0]: the moment must be a whole number of 1 or more"),
        ([[True, "K♣"]], "deal.draws[0]: the moment must be a whole number of 1 or more"),
        ([[2, "Zz"]], "deal.draws[0]: cannot read 'Zz' as a card"),
        ([[3, "K♣"], [2, "K♣"]], "deal.draws[1]: the moments must rise; 2 follows 3"),
        ([[2, "K♣"], [2, "K♣"]], "the draw is scripted to turn over K♣, which is not in the group"),
        ([[3, "K♣"]], "deal.draws[0]: no challenge at moment 3 turned over K♣"),
        ([[40, "K♣"]], "deal.draws[0]: no challenge at moment 40 turned over K♣"),
        ([[2, "Q♥"]], "actions[1] (challenge): the draw is scripted to turn over Q♥, which is not"),
    ],
)
def test_a_record_whose_draws_cannot_be_the_game_is_refused(draws: object, message: str) -> None:
    record = {
        "format": "cheatrules",
        "version": 1,
        "rules": json.loads(cr.dumps(_one_card_game()))["rules"],
        "deal": {"dealer": 2, "seed": 5, "hands": ["K♣ 9♣ 4♦", "A♠ 2♦", "3♠"], "draws": draws},
        "actions": ["play 9♣ K♣ as A", "challenge"],
    }
    with pytest.raises(cr.RecordError) as raised:
        cr.loads(json.dumps(record))
    assert message in str(raised.value)
    record["deal"]["draws"] = [[2, "K♣"]]
    assert cr.loads(json.dumps(record)).events[3].cards == cr.cards("K♣")  # type: ignore[attr-defined]


def test_samples_draw_their_future_cards_apart_as_the_seat_cannot_tell() -> None:
    # Seat 0 laid A♦ K♣ as aces and knows its group; which card a check will
    # turn over it cannot know, so the samples it searches over must differ there.
    rules = cr.english(3, check="one-card")
    state = cr.deal(rules, hands=["A♦ K♣ 2♦", "K♥ 9♣", "Q♥ 8♣"], seed=3)
    seen = state.apply(Play("A♦ K♣", "A")).observe(0)
    shown = set()
    for seed in range(16):
        revealed = seen.sample(random.Random(seed)).apply(Challenge()).events[3]
        assert isinstance(revealed, cr.events.Revealed)
        shown.add(str(revealed.cards[0]))
    assert shown == {"A♦", "K♣"}
