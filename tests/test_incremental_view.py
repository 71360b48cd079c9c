"""A seat's view built as the game goes: its log shared between states, equal to one rebuilt."""

from __future__ import annotations

import gc
import pickle
import random
import tracemalloc

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules._persistent import Log

from .budget import examples
from .strategies import option_combinations, random_action


def rebuilt(state: cr.GameState, seat: int) -> cr.Observation:
    """The seat's observation with its log redacted from scratch from the state's log."""
    seen = state.observe(seat)
    return attrs.evolve(seen, events=tuple(event.seen_by(seat) for event in state.events))


def random_game(rules: cr.Rules, seed: int, decisions: int) -> list[cr.GameState]:
    rng = random.Random(seed)
    states = [cr.deal(rules, seed=seed)]
    while not states[-1].is_over and len(states) <= decisions:
        states.append(states[-1].apply(random_action(states[-1], rng)))
    return states


# -- scenarios ----------------------------------------------------------------


def test_keeping_every_observed_state_costs_about_what_the_states_cost() -> None:
    # The issue: each cached observation held its own copy of the log, so
    # keeping the states of a game after observing each once took hundreds of
    # times the memory of the states alone.
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        states = random_game(cr.english(8), seed=3, decisions=400)
        gc.collect()
        unobserved = tracemalloc.get_traced_memory()[0] - start
        for state in states:
            if state.to_move is not None:
                state.observe(state.to_move)
        gc.collect()
        observed = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert len(states) > 300
    assert observed <= 2.5 * unobserved


def test_a_seats_next_observation_extends_its_last_one() -> None:
    states = random_game(cr.english(4), seed=1, decisions=60)
    earlier = states[40].observe(2).events
    later = states[50].observe(2).events
    assert later[: len(earlier)] == tuple(earlier)
    assert later == tuple(event.seen_by(2) for event in states[50].events)


def test_an_observation_compares_equal_with_its_log_as_a_tuple() -> None:
    state = random_game(cr.english(3), seed=2, decisions=30)[-1]
    seen = state.observe(1)
    flat = attrs.evolve(seen, events=tuple(seen.events))
    assert seen == flat and flat == seen
    assert hash(seen) == hash(flat)
    assert seen.events == tuple(seen.events) and tuple(seen.events) == seen.events
    assert cr.loads_view(cr.dumps(state, seat=1)) == seen


def test_an_observation_pickles_with_its_log() -> None:
    state = random_game(cr.verish(4), seed=5, decisions=80)[-1]
    seen = state.observe(0)
    again = pickle.loads(pickle.dumps(seen))
    assert again == seen and again.events == seen.events
    assert list(again.events) == list(seen.events)


def test_the_log_reads_like_a_tuple() -> None:
    items = tuple(range(10))
    log = Log.of(items[:3]).extended(items[3:4]).extended(()).extended(items[4:])
    assert len(log) == 10 and list(log) == list(items) and list(reversed(log)) == list(items[::-1])
    for index in range(-10, 10):
        assert log[index] == items[index]
    for start in (None, -12, -3, 0, 2, 9, 12):
        for stop in (None, -11, -1, 0, 4, 10, 13):
            for step in (None, 1, 2, -1, -3):
                assert log[start:stop:step] == items[start:stop:step]
    assert log.index(7) == 7 and log.count(3) == 1 and 4 in log and 11 not in log
    assert log == items and items == log and log != items[:-1] and log != list(items)
    assert log == Log.of(items) and hash(log) == hash(items)
    assert Log() == () and len(Log()) == 0
    assert log + (10,) == (*items, 10) and (-1,) + log == (-1, *items)  # noqa: RUF005
    assert log + log == items + items


def test_the_log_says_when_an_index_is_out_of_range() -> None:
    log = Log.of((1, 2))
    for index in (2, -3):
        with pytest.raises(IndexError, match="out of range"):
            log[index]


# -- properties ---------------------------------------------------------------


@examples(12)
@given(option_combinations(), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_incremental_observation_equals_one_rebuilt_from_scratch(
    rules: cr.Rules, seed: int, rng: random.Random
) -> None:
    state = cr.deal(rules, seed=seed)
    for step in range(40):
        # Each step observes some of the seats, so a seat's view extends
        # over gaps of different lengths.
        for seat in rng.sample(range(rules.players), rng.randint(0, rules.players)):
            assert state.observe(seat) == rebuilt(state, seat)
        if step % 10 == 0:
            for seat in range(rules.players):
                assert cr.loads_view(cr.dumps(state, seat=seat)) == state.observe(seat)
        if state.is_over:
            break
        state = state.apply(random_action(state, rng))
    for seat in range(rules.players):
        seen = state.observe(seat)
        assert seen == rebuilt(state, seat)
        assert cr.loads_view(cr.dumps(state, seat=seat)) == seen


@examples(25)
@given(st.integers(0, 2**32), st.integers(1, 30), st.integers(0, 3))
def test_a_branch_observes_the_same_as_the_line_it_left(seed: int, split: int, seat: int) -> None:
    # Observing one line of play must not change what another line, branching
    # from an earlier state, shows.
    states = random_game(cr.english(4), seed=seed, decisions=40)
    for state in states:
        state.observe(seat)
    root = states[min(split, len(states) - 1)]
    branch = random_game(cr.english(4), seed=seed + 1, decisions=0)  # unrelated state
    rng = random.Random(seed)
    state = root
    for _ in range(10):
        if state.is_over:
            break
        state = state.apply(random_action(state, rng))
        assert state.observe(seat) == rebuilt(state, seat)
    assert branch[0].observe(seat) == rebuilt(branch[0], seat)


def test_states_observed_out_of_order_show_what_they_showed_in_order() -> None:
    # A seat's latest view may belong to a later state, or to another line of
    # play; an earlier state then finds an older view to extend, or starts over.
    states = random_game(cr.verish(5), seed=11, decisions=120)
    rng = random.Random(4)
    order = list(range(len(states)))
    rng.shuffle(order)
    for index in order[:60] + order[:60][::-1]:
        for seat in (0, 3):
            assert states[index].observe(seat) == rebuilt(states[index], seat)
