"""What a state keeps besides its value: its caches are invisible, bounded and safe to share.

A :class:`~cheatrules.GameState` works out its log as a tuple, its hash, its
legal actions and each seat's observation once, and the states of one game
share each seat's latest views and the events they redact (see the caches
design page). None of it is part of the state's value: a state observed or
not compares, hashes and pickles the same; and eight threads observing the
states of one game at once see what one thread sees.
"""

from __future__ import annotations

import pickle
import random
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import state as state_module

from .budget import examples, scaled
from .strategies import option_combinations, random_action


def _game(rules: cr.Rules, seed: int, decisions: int) -> list[cr.GameState]:
    """Every state of a seeded random game, from the deal."""
    rng = random.Random(seed)
    states = [cr.deal(rules, seed=seed)]
    while not states[-1].is_over and len(states) <= decisions:
        states.append(states[-1].apply(random_action(states[-1], rng)))
    return states


def _redacted_from_scratch(state: cr.GameState, seat: int) -> tuple[cr.events.Event, ...]:
    return tuple(event.seen_by(seat) for event in state.events)


# -- scenarios ----------------------------------------------------------------


def test_a_state_observed_keeps_the_observation_it_made() -> None:
    state = _game(cr.english(4), seed=1, decisions=30)[-1]
    seen = state.observe(2)
    assert state.observe(2) is seen
    assert state.observe(1) is not seen and state.observe(2) is seen


def test_the_other_seats_share_one_redacted_claim() -> None:
    # Seat 0's play is hidden from the three others the same way: one object
    # in all three logs, not three copies.
    state = cr.deal(cr.english(4), seed=5)
    state = state.apply(state.legal_actions()[0])
    claims = [state.observe(seat).events[-1] for seat in (1, 2, 3)]
    assert claims[0] == claims[1] == claims[2]
    assert claims[0] is claims[1] is claims[2]
    assert state.observe(0).events[-1] == state.events[-1]  # its own cards, unredacted


def test_observing_changes_nothing_a_state_is() -> None:
    states = _game(cr.verish(4), seed=7, decisions=60)
    state = states[-1]
    before = pickle.dumps(state)
    fresh = pickle.loads(before)
    for seat in range(4):
        state.observe(seat)
    state.legal_actions()
    _ = state.events, hash(state)
    assert pickle.dumps(state) == before  # nothing cached travels with it
    assert state == fresh and hash(state) == hash(fresh)
    assert attrs.evolve(state) == state


def test_a_copy_made_by_hand_observes_as_the_state_it_copies() -> None:
    # A state made by attrs.evolve or unpickled starts a game of its own for
    # its views; they are the same views.
    state = _game(cr.english(3), seed=2, decisions=40)[-1]
    for copy in (attrs.evolve(state), pickle.loads(pickle.dumps(state))):
        for seat in range(3):
            assert copy.observe(seat) == state.observe(seat)
            assert copy.observe(seat).events == _redacted_from_scratch(state, seat)
        assert copy.apply(copy.legal_actions()[0]).observe(0) == state.apply(
            state.legal_actions()[0]
        ).observe(0)


def test_a_game_keeps_a_bounded_number_of_views_and_shared_events() -> None:
    states = _game(cr.english(8), seed=3, decisions=600)
    assert len(states) > 100
    for state in states:
        for seat in range(8):
            state.observe(seat)
    game = states[-1]._game
    assert all(len(views) <= state_module._VIEWS_KEPT for views in game.views.values())
    assert len(game.events) <= state_module._EVENTS_KEPT
    for state in states:
        assert state._game is game  # every state of the game shares it


# -- threads ------------------------------------------------------------------


@pytest.fixture
def switching_often() -> Iterator[None]:
    """Threads switch every few microseconds (not every 5 ms), so races show."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def _answers(states: list[cr.GameState], task: tuple[int, int]) -> tuple[object, ...]:
    """What the state at ``index`` tells ``seat``, and what it says of itself."""
    index, seat = task
    state = states[index]
    seen = state.observe(seat)
    return seen, tuple(seen.events), len(state.legal_actions()), state.events, hash(state)


@pytest.mark.usefixtures("switching_often")
def test_eight_threads_observing_one_game_see_what_one_thread_sees() -> None:
    # Every thread walks the same states of one game, seat after seat, from
    # different places, so they extend, drop and share the game's views and
    # redacted events at the same time.
    rules, seed, decisions = cr.english(6), 11, scaled(150)
    tasks = [(index, seat) for index in range(decisions + 1) for seat in range(6)]
    rng = random.Random(0)
    rng.shuffle(tasks)
    threaded = _game(rules, seed, decisions)
    tasks = [(min(index, len(threaded) - 1), seat) for index, seat in tasks]
    start = threading.Barrier(8)

    def first(_: int) -> None:
        start.wait()  # every thread begins at once

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(first, range(8)))
        found = list(pool.map(lambda task: _answers(threaded, task), tasks))
    alone = _game(rules, seed, decisions)
    for task, answer in zip(tasks, found, strict=True):
        assert answer == _answers(alone, task), task
        index, seat = task
        assert answer[1] == _redacted_from_scratch(alone[index], seat), task


# -- properties ---------------------------------------------------------------


@examples(10)
@given(option_combinations(), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_what_a_state_works_out_is_what_a_fresh_copy_works_out(
    rules: cr.Rules, seed: int, rng: random.Random
) -> None:
    states = _game(rules, seed, decisions=40)
    # Observe, list and hash the states in a random order, some twice.
    order = [rng.randrange(len(states)) for _ in range(2 * len(states))]
    for index in order:
        state = states[index]
        seat = rng.randrange(rules.players)
        copy = pickle.loads(pickle.dumps(state))
        assert state.observe(seat) == copy.observe(seat)
        assert state.observe(seat).events == _redacted_from_scratch(state, seat)
        assert state.legal_actions() == copy.legal_actions()
        assert state.events == copy.events and hash(state) == hash(copy)


def test_the_actions_after_a_state_are_the_decisions_taken_since_it() -> None:
    states = _game(cr.english(3), seed=4, decisions=12)
    first, last = states[2], states[-1]
    assert last.actions_after(first) == last.actions[len(first.actions) :]
    assert last.actions_after(last) == ()
    with pytest.raises(ValueError, match="not reached from the state given"):
        first.actions_after(last)  # the later state is not behind the earlier
    with pytest.raises(ValueError, match="not reached from the state given"):
        last.actions_after(cr.deal(cr.english(3), seed=4))  # an equal deal, not this game's


@given(rules=option_combinations(), seed=st.integers(0, 2**32), cut=st.floats(0, 1))
@examples(40)
def test_the_actions_after_any_earlier_state_of_a_game_end_its_actions(
    rules: cr.Rules, seed: int, cut: float
) -> None:
    states = _game(rules, seed, decisions=scaled(60))
    earlier = states[int(cut * (len(states) - 1))]
    assert states[-1].actions_after(earlier) == states[-1].actions[len(earlier.actions) :]
