"""The sampler's exact engine: a view's hidden cards as an integer program (``cheatrules[solver]``).

Every constraint of the model is one no real game breaks, so the solver
never calls a real view impossible; and every world it gives is one the
engine replays to the very view, for every composition of house rules, a
HolderOf opening and two packs with fours set aside unasked included.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cheatrules as cr
from cheatrules import sampling
from cheatrules._sampler import solver
from cheatrules._sampler.plan import Plan
from cheatrules.events import Dealt

from .budget import examples
from .strategies import option_combinations, play_randomly

pytestmark = pytest.mark.skipif(not solver.available(), reason="needs cheatrules[solver]")


def _replayed(seen: cr.Observation, world: solver.World) -> cr.GameState | None:
    dealt = seen.events[0]
    assert isinstance(dealt, Dealt)
    plan = Plan(seen.rules, seen.seat, seen.events, dealt)
    return sampling._replayed(
        seen,
        [list(hand) for hand in world.hands],
        list(world.aside),
        list(world.stock),
        plan.draws,
        sampling._world_actions(plan, world),
        random.Random(0),
    )


def _solved(seen: cr.Observation, seed: int) -> solver.World | str:
    return solver.solve(
        seen.rules, seen.seat, seen.events, random.Random(seed), 30.0, to_move=seen.to_move
    )


def _check(state: cr.GameState, seat: int, seed: int) -> None:
    seen = state.observe(seat)
    world = _solved(seen, seed)
    assert isinstance(world, solver.World), world  # never "infeasible" for a real view
    replayed = _replayed(seen, world)
    assert replayed is not None, "the engine refused the solver's world"
    assert replayed.observe(seat) == seen


@settings(examples(12), deadline=None)
@given(option_combinations(), st.integers(0, 2**32), st.integers(0, 300), st.data())
def test_every_world_the_solver_gives_replays_to_the_view(
    rules: cr.Rules, seed: int, decisions: int, data: st.DataObject
) -> None:
    states = play_randomly(cr.deal(rules, seed=seed), seed, limit=decisions)
    _check(states[-1], data.draw(st.integers(0, rules.players - 1)), seed)


HARD = st.sampled_from(
    [
        cr.verish(3, opening=cr.policies.HolderOf("10♦")),
        cr.english(4, opening=cr.policies.HolderOf("A♠"), check="one-card"),
        cr.english(4, decks=2, discards="compulsory", jokers=1),
        cr.english(5, decks=2, discards="compulsory", stock=5),
        cr.english(4, decks=2, discards="any-time", window="extended"),
    ]
)


@settings(examples(12), deadline=None)
@given(HARD, st.integers(0, 2**32), st.integers(0, 400), st.data())
def test_holder_openings_and_fours_set_aside_are_modelled_exactly(
    rules: cr.Rules, seed: int, decisions: int, data: st.DataObject
) -> None:
    states = play_randomly(cr.deal(rules, seed=seed, dealer=seed % rules.players), seed, decisions)
    _check(states[-1], data.draw(st.integers(0, rules.players - 1)), seed)


def test_the_solver_proves_a_forged_view_impossible() -> None:
    # Seat 0's view says seat 1 showed the 7 of clubs, which seat 0 holds.
    state = cr.deal(cr.english(3), hands=["7♣ K♦", "A♠ 2♥", "A♥ 9♣"])
    state = state.apply(cr.Play("K♦", "A")).apply(cr.Accept()).apply(cr.Accept())
    state = state.apply(cr.Play("A♠", "2")).apply(cr.Accept()).apply(cr.Challenge())
    seen = state.observe(0)
    forged = [
        cr.events.Revealed(1, cr.cards("7♣"), cr.Rank.TWO, truthful=False)
        if isinstance(event, cr.events.Revealed)
        else event
        for event in seen.events
    ]
    assert solver.solve(seen.rules, 0, forged, random.Random(0), 10.0) == solver.INFEASIBLE


def test_a_holder_opening_that_no_deal_allows_is_proved_impossible() -> None:
    # Seat 2 deals, so the first seat from its left holding the A♠ opens: seat 0,
    # which holds it. A log in which seat 1 opens is one no deal gives.
    rules = cr.english(3, opening=cr.policies.HolderOf("A♠"))
    state = cr.deal(rules, hands=["A♠ 2♥", "7♣ K♦", "A♥ 9♣"], dealer=2)
    assert state.to_move == 0
    seen = state.apply(cr.Play("A♠", "A")).observe(0)
    assert isinstance(_solved(seen, 0), solver.World)
    forged = [seen.events[0], cr.events.Played(1, (), cr.Rank.ACE, 1)]
    assert solver.solve(rules, 0, forged, random.Random(0), 10.0) == solver.INFEASIBLE


def test_the_same_view_and_seed_give_the_same_world() -> None:
    state = play_randomly(cr.deal(cr.english(4, decks=2), seed=3), 3, limit=200)[-1]
    seen = state.observe(1)
    assert _solved(seen, 5) == _solved(seen, 5)


def test_different_seeds_give_different_worlds() -> None:
    state = play_randomly(cr.deal(cr.english(4), seed=4), 4, limit=40)[-1]
    seen = state.observe(1)
    worlds = {_solved(seen, seed) for seed in range(6)}
    assert len(worlds) > 1


def test_the_sampler_hands_a_view_its_search_cannot_finish_to_the_solver() -> None:
    state = play_randomly(cr.deal(cr.english(5, decks=2), seed=8), 8, limit=250)[-1]
    seen = state.observe(2)
    # A budget of one event: the search gives up at once, the solver finds the game.
    assert cr.sampling.sample(seen, random.Random(0), budget=1, timeout=30).observe(2) == seen


def test_a_view_sampled_again_reuses_its_model_and_gives_what_a_fresh_model_gives() -> None:
    state = play_randomly(cr.deal(cr.english(4, decks=2), seed=9), 9, limit=150)[-1]
    seen = state.observe(1)
    first = cr.sampling.sample(seen, random.Random(2), budget=1, timeout=30)
    dealt = seen.events[0]
    assert isinstance(dealt, Dealt)
    model = sampling._plan_of(seen, dealt).solver_model
    assert model is not None  # made by the first sample, kept with the view's plan
    second = cr.sampling.sample(seen, random.Random(2), budget=1, timeout=30)
    assert sampling._plan_of(seen, dealt).solver_model is model
    # The kept model answers as a model made afresh would: the same rng, the same game.
    assert first == second
    assert second.observe(1) == seen


def _two_pack_view(seed: int, seat: int) -> cr.Observation:
    """``seat``'s view after 120 random decisions of a seeded 4-player two-pack game."""
    game = play_randomly(cr.deal(cr.english(4, decks=2), seed=seed), seed, limit=120)
    return game[-1].observe(seat)


def _stalled(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The solver made to run out of every turn it is given, as a hard integer program does.

    Returns the seconds of each turn, as they are asked.
    """
    turns: list[float] = []

    def solve(self: solver.Model, rng: random.Random, seconds: float) -> str:
        turns.append(seconds)
        return solver.UNKNOWN

    monkeypatch.setattr(solver.Model, "solve", solve)
    return turns


def test_where_the_solver_runs_out_of_its_turn_the_search_takes_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _two_pack_view(21, 3)
    turns = _stalled(monkeypatch)
    # No search first: the solver's turn comes at once, and runs out.
    monkeypatch.setattr(sampling, "_SEARCH_PASSES_WITH_COPIES", 0)
    sampled = cr.sampling.sample(seen, random.Random(4), timeout=30)
    assert sampled.observe(3) == seen
    assert turns == pytest.approx([sampling._FIRST_TURN], abs=1e-3)  # the search found it next


def test_turns_that_never_answer_end_in_a_spent_budget_never_a_proof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _two_pack_view(22, 0)
    turns = _stalled(monkeypatch)
    with pytest.raises(cr.sampling.SamplingTimeoutError):
        cr.sampling.sample(seen, random.Random(0), budget=1, timeout=0.2)
    assert turns and all(turn <= 0.2 for turn in turns)  # cut to the time left
    # With no timeout, the solver's turns double until its time in all is spent.
    turns.clear()
    monkeypatch.setattr(sampling, "_FIRST_TURN", 0.01)
    monkeypatch.setattr(sampling, "_SOLVER_SECONDS", 0.5)
    with pytest.raises(cr.sampling.SamplingBudgetError) as raised:
        cr.sampling.sample(seen, random.Random(0), budget=1)
    assert type(raised.value) is cr.sampling.SamplingBudgetError
    assert turns[:4] == pytest.approx([0.01, 0.02, 0.04, 0.08], abs=1e-3)
    assert all(turn <= 0.5 for turn in turns)
