"""What the learning-library adapters cost over the library's own loop.

Run: ``python benchmarks/adapters.py``. Each function plays random masked
games through one adapter and through the library's own loop with the same
policy (a random index where ``ActionSpace.mask_array`` is legal, ``decode``,
``apply``), the same encoder (the information-state vector of the seat that
decides) and the same games, and prints the ratio of the two times (the
best of a few rounds each); target at most 1.5.

* :func:`gymnasium_overhead`: ``gymnasium.make("cheatrules/Cheat-v0")`` and
  ``"cheatrules/Verish-v0"``, the learner in seat 0 against CountingBot (the
  default) and against RandomBot (cheap bots, so the environment's own cost
  shows more); the
  library loop deals the same seeds, lets the same bots play with the same
  random numbers, and stops where the environment does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import gymnasium
import numpy as np

import cheatrules as cr
import cheatrules.gymnasium  # registers the ids
from cheatrules.bots import Agent, CountingBot, RandomBot
from cheatrules.encoding import ActionSpace
from cheatrules.information_state import InformationStateEncoder

#: Games per round, rounds per measure.
GAMES, ROUNDS = 30, 5


def _library_game(
    tools: tuple[cr.Rules, ActionSpace, InformationStateEncoder, Agent],
    seed: int,
    policy: np.random.Generator,
) -> int:
    """One game as the environment plays it, by the library alone; the learner's decisions."""
    rules, space, encoder, bot = tools
    draws = np.random.default_rng(seed).integers(0, 2**62, size=2)  # as reset(seed=) draws
    state = cr.deal(rules, seed=int(draws[0]))
    bots_rng = random.Random(int(draws[1]))
    decisions = 0
    while True:
        while not state.is_over and 0 not in state.finishing_order and state.to_move != 0:
            seat: int = state.to_move  # type: ignore[assignment]
            state = state.apply(bot.act(state.observe(seat), bots_rng))
        seen = state.observe(0)
        encoder.array(seen)
        mask = space.mask_array(seen).view(np.int8)
        if state.is_over or 0 in state.finishing_order:
            return decisions
        index = policy.choice(np.flatnonzero(mask))
        state = state.apply(space.decode(index, seen))
        decisions += 1


def _env_game(env: gymnasium.Env[object, object], seed: int, policy: np.random.Generator) -> int:
    """One game through the environment; the learner's decisions."""
    _, info = env.reset(seed=seed)
    decisions = 0
    while True:
        action = policy.choice(np.flatnonzero(info["action_mask"]))
        _, _, terminated, truncated, info = env.step(action)
        decisions += 1
        if terminated or truncated:
            return decisions


def _best(*runs: Callable[[], int]) -> list[tuple[float, int]]:
    """Each run's best time over ``ROUNDS`` rounds (the runs take turns), and its count."""
    times: list[list[float]] = [[] for _ in runs]
    counts = [0] * len(runs)
    for _ in range(ROUNDS):
        for number, run in enumerate(runs):
            start = time.perf_counter()
            counts[number] = run()
            times[number].append(time.perf_counter() - start)
    return [(min(taken), count) for taken, count in zip(times, counts, strict=True)]


def gymnasium_overhead() -> None:
    """Random masked play through the Gymnasium environment over the library's own loop."""
    print("Gymnasium environment / library loop: random masked play in seat 0 against bots")
    for env_id, rules in (
        ("cheatrules/Cheat-v0", cr.english(4)),
        ("cheatrules/Verish-v0", cr.verish(4)),
    ):
        for bot in (CountingBot(), RandomBot()):
            env = gymnasium.make(env_id, players=4, opponents=bot)
            tools = (rules, ActionSpace(rules), InformationStateEncoder(rules), bot)

            def through_env(env: gymnasium.Env[object, object] = env) -> int:
                policy = np.random.default_rng(0)
                return sum(_env_game(env, seed, policy) for seed in range(GAMES))

            def by_library(
                tools: tuple[cr.Rules, ActionSpace, InformationStateEncoder, Agent] = tools,
            ) -> int:
                policy = np.random.default_rng(0)
                return sum(_library_game(tools, seed, policy) for seed in range(GAMES))

            (library, decided), (adapted, stepped) = _best(by_library, through_env)
            assert decided == stepped, (decided, stepped)  # the very same games
            print(
                f"  {env_id} vs {type(bot).__name__}: {GAMES} games, {stepped} learner decisions:"
                f" library {library:.3f} s, environment {adapted:.3f} s,"
                f" ratio {adapted / library:.2f}x (target <= 1.5x)"
            )


if __name__ == "__main__":
    gymnasium_overhead()
