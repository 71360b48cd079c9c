"""What views and records cost: observe(), knowledge(), sample(), dumps() and loads().

Run: ``python benchmarks/views.py``. For each game it plays seeded random
games (the opponents challenge now and then) and times each operation on
states with logs of different lengths, printing the time per call.
``observe()`` is timed on states that have not been observed before (a state
keeps the observations it has made); the others are the best mean of
several repeats, so a busy machine disturbs them less.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial

import cheatrules as cr


def best(function: Callable[[], object], repeat: int = 3, number: int = 5) -> float:
    """The fastest mean time of ``number`` calls, over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            function()
        times.append((time.perf_counter() - start) / number)
    return min(times)


def game(rules: cr.Rules, seed: int, decisions: int) -> list[cr.GameState]:
    """Every state of a seeded random game, up to ``decisions`` decisions."""
    rng = random.Random(seed)
    states = [cr.deal(rules, seed=seed)]
    while not states[-1].is_over and len(states) <= decisions:
        actions = list(states[-1].legal_actions())
        if actions[0] == cr.Challenge() and len(actions) > 2 and rng.random() > 0.2:
            actions = actions[1:]  # challenge one time in five where the rules allow it
        states.append(states[-1].apply(rng.choice(actions)))
    return states


def main() -> None:
    print(
        f"{'game':<8}{'events':>7}{'observe':>11}{'knowledge':>12}{'sample':>11}{'dumps':>10}{'loads':>10}"
    )
    for rules in (cr.english(4), cr.verish(6, pack=52)):
        for decisions in (25, 100, 400):
            states = game(rules, seed=decisions, decisions=decisions)
            state = states[-1]
            seat = state.to_move if state.to_move is not None else 0
            # observe(): once on each state of the game, none observed before.
            start = time.perf_counter()
            for each in states[-20:]:
                each.observe(seat)
            observe = (time.perf_counter() - start) / len(states[-20:])
            seen = state.observe(seat)
            knowledge = best(seen.knowledge)
            sample = best(partial(seen.sample, random.Random(1)))
            dumps = best(partial(cr.dumps, state))
            loads = best(partial(cr.loads, cr.dumps(state)))
            print(
                f"{rules.name:<8}{len(state.events):>7}{observe * 1e6:>9.0f}us"
                f"{knowledge * 1e3:>10.2f}ms{sample * 1e3:>9.2f}ms"
                f"{dumps * 1e3:>8.2f}ms{loads * 1e3:>8.2f}ms"
            )


if __name__ == "__main__":
    main()
