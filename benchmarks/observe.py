"""What a seat's view costs as a game goes on: ``observe()`` against ``apply()``, time and memory.

Run: ``python benchmarks/observe.py [decisions]``. It prints, each as a ratio:

* per decision, ``observe(to_move)`` as a multiple of the ``apply`` that made
  the state, in 8-player English over decisions 200 to 1200 of seeded random
  games played as a bot plays them (observe, decide, apply);
* the cost of ``observe`` late in long 8-player games (decisions 3000 to
  3300) over its cost early (the first 300 decisions);
* the memory of keeping every state of a long game (20,000 decisions unless
  given), each observed once by the seat to move, over the memory of the same
  states unobserved (measured with ``tracemalloc``).

The long games are long because the players challenge nine claims in ten.
"""

from __future__ import annotations

import gc
import random
import sys
import time
import tracemalloc

from parts import decide

import cheatrules as cr


def bot_loop(seed: int, decisions: int, challenge: float) -> tuple[list[float], list[float]]:
    """A game played as a bot plays it: the time of each ``apply`` and the ``observe`` after."""
    rng = random.Random(seed)
    state = cr.deal(cr.english(8), seed=seed)
    applies: list[float] = []
    observes: list[float] = []
    clock = time.perf_counter
    while not state.is_over and len(applies) < decisions:
        action = decide(state, rng, challenge)
        start = clock()
        state = state.apply(action)
        middle = clock()
        if state.to_move is not None:
            state.observe(state.to_move)
        end = clock()
        applies.append(middle - start)
        observes.append(end - middle)
    return applies, observes


def per_decision(first: int = 200, last: int = 1200, repeat: int = 3) -> float:
    """``observe(to_move)`` over ``apply``, summed over decisions ``first`` to ``last``.

    Games of random play are shorter than ``last``: each gives its decisions
    from ``first`` on, game after game, until ``last - first`` are counted
    (``repeat`` times over).
    """
    apply = observe = 0.0
    seed = counted = 0
    while counted < repeat * (last - first):
        applies, observes = bot_loop(seed, last, challenge=0.1)
        seed += 1
        apply += sum(applies[first:])
        observe += sum(observes[first:])
        counted += len(applies[first:])
    return observe / apply


def late_over_early(games: int = 5) -> float:
    """Mean ``observe`` time over decisions 3000-3300 over its mean over the first 300.

    The opponents challenge nine claims in ten, so the pile keeps going back
    to the players and a game lasts thousands of decisions.
    """
    early = late = 0.0
    seed = 100
    played = 0
    while played < games:
        _, observes = bot_loop(seed, 3300, challenge=0.9)
        seed += 1
        if len(observes) < 3300:
            continue
        played += 1
        early += sum(observes[:300])
        late += sum(observes[3000:3300])
    return late / early


def long_game(decisions: int) -> list[cr.GameState]:
    """Every state of seeded random 8-player games, ``decisions`` in all, game after game."""
    states: list[cr.GameState] = []
    seed = 1000
    while len(states) < decisions:
        rng = random.Random(seed)
        state = cr.deal(cr.english(8), seed=seed)
        while not state.is_over and len(states) < decisions:
            states.append(state)
            state = state.apply(decide(state, rng, challenge=0.9))
        seed += 1
    return states


def memory(decisions: int) -> tuple[float, float]:
    """MB held by every state of a long game, and by the same states each observed once."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    states = long_game(decisions)
    gc.collect()
    unobserved = tracemalloc.get_traced_memory()[0] - base
    for state in states:
        if state.to_move is not None:
            state.observe(state.to_move)
    gc.collect()
    observed = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return unobserved / 2**20, observed / 2**20


def main() -> None:
    decisions = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    print(f"observe(to_move) / apply, decisions 200-1200       {per_decision():8.2f} x")
    print(f"observe late (3000-3300) / early (first 300)        {late_over_early():8.2f} x")
    unobserved, observed = memory(decisions)
    print(
        f"{decisions:,} states observed once / unobserved       {observed / unobserved:8.2f} x"
        f"  ({observed:.1f} MB / {unobserved:.1f} MB)"
    )


if __name__ == "__main__":
    main()
