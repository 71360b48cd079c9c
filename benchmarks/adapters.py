"""What the learning-library adapters cost over the library's own loop, with the same policy.

Run: ``python benchmarks/adapters.py``. Each adapter has its own function;
``main`` runs them all.

:func:`pettingzoo_overhead` plays random masked games through
``cheatrules.pettingzoo.env()`` (PettingZoo's wrappers included: ``last()``,
then ``step(index)``), and the same games through the library's own loop:
``observe``, ``ActionSpace.mask_array``, the ``InformationStateEncoder``
vector, a random legal index, ``decode``, ``apply``. Both start from the
same deal and draw their indices from the same seeded generator, so they
take the same decisions. It prints the time per decision of each and their
ratio (target: at most 1.5), the best of a few rounds.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

import cheatrules as cr
from cheatrules.encoding import ActionSpace
from cheatrules.information_state import InformationStateEncoder

#: The games measured: (label, game, players, house options).
PETTINGZOO_GAMES: tuple[tuple[str, str, int, dict[str, Any]], ...] = (
    ("english(4)", "english", 4, {}),
    ("english(6)", "english", 6, {}),
    ("verish(4)", "verish", 4, {}),
    ('english(4, discards="after-pickup")', "english", 4, {"discards": "after-pickup"}),
)


def _adapter_run(environment: Any, seed: int) -> tuple[cr.GameState, float, int]:
    """One random masked game through the environment: its deal, the time taken, decisions."""
    environment.reset(seed=seed)
    dealt = environment.unwrapped.game
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        environment.step(rng.choice(np.flatnonzero(observation["action_mask"])))
        decisions += 1
    return dealt, time.perf_counter() - start, decisions


def _library_run(state: cr.GameState, seed: int, rules: cr.Rules) -> tuple[float, int]:
    """The same game through the library's own loop, with the same policy and vector."""
    space, encoder = ActionSpace(rules), InformationStateEncoder(rules)
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.perf_counter()
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view = state.observe(seat)
        mask = space.mask_array(view)
        encoder.array(view)
        state = state.apply(space.decode(rng.choice(np.flatnonzero(mask)), view))
        decisions += 1
    return time.perf_counter() - start, decisions


def pettingzoo_overhead(games: int = 6, rounds: int = 3) -> dict[str, float]:
    """Print and return, per game, the adapter's time per decision over the library loop's."""
    from cheatrules.pettingzoo import env

    ratios: dict[str, float] = {}
    print("PettingZoo env() against the library's loop, random masked play (target <= 1.5x)")
    for label, game, players, options in PETTINGZOO_GAMES:
        environment = env(game, players, max_steps=None, **options)
        rules = environment.unwrapped.rules
        best_adapter = best_library = float("inf")
        total = 0
        for _ in range(rounds):
            adapter_time = library_time = 0.0
            total = 0
            for seed in range(games):
                dealt, spent, decisions = _adapter_run(environment, seed)
                same_spent, same_decisions = _library_run(dealt, seed, rules)
                assert decisions == same_decisions, "the two loops took different games"
                adapter_time += spent
                library_time += same_spent
                total += decisions
            best_adapter = min(best_adapter, adapter_time / total)
            best_library = min(best_library, library_time / total)
        ratios[label] = best_adapter / best_library
        print(
            f"  {label}: {total} decisions; library {best_library * 1e6:.0f} µs, "
            f"env() {best_adapter * 1e6:.0f} µs per decision: {ratios[label]:.2f}x"
        )
    return ratios


def main() -> None:
    """Run every adapter's measurement."""
    pettingzoo_overhead()


if __name__ == "__main__":
    main()
