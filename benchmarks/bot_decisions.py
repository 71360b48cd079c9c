"""What a bot's decision costs against the engine's own step, and SamplingBot's games per second.

Run: ``python benchmarks/bot_decisions.py [--games N]``. Two parts:

1. CountingBot against two CountingBots, three-player English Cheat: at
   every decision, the time of ``state.observe(to_move)`` and
   ``bot.act(...)`` together (what a bot loop pays), against the time of
   ``state.apply(action)`` for the action it chose. Printed as the ratio of
   the totals, and for the first and last fifth of each game's decisions
   (late over early shows whether a decision costs more as the game goes).
2. SamplingBot (its defaults) in seat 0 against two CountingBots, three-player
   English Cheat: games per second on one core, and its mean decisions.
"""

from __future__ import annotations

import argparse
import random
import time

import cheatrules as cr
from cheatrules.arena import play_game
from cheatrules.bots import Agent, CountingBot, SamplingBot


def timed_game(seed: int, bot: Agent) -> list[tuple[float, float]]:
    """One seeded game among three ``bot``s: (observe + act, apply) seconds per decision."""
    rng = random.Random(seed)
    state = cr.deal(cr.english(3), seed=seed)
    clock = time.perf_counter
    costs: list[tuple[float, float]] = []
    while not state.is_over and len(costs) < 3000:
        seat = state.to_move
        assert seat is not None
        start = clock()
        action = bot.act(state.observe(seat), rng)
        middle = clock()
        following = state.apply(action)
        end = clock()
        costs.append((middle - start, end - middle))
        state = following
    return costs


def decisions(games: int) -> None:
    bot = CountingBot()
    totals = [0.0, 0.0]
    early = [0.0, 0.0]
    late = [0.0, 0.0]
    count = 0
    for seed in range(games):
        costs = timed_game(seed, bot)
        fifth = max(1, len(costs) // 5)
        for part, chosen in ((early, costs[:fifth]), (late, costs[-fifth:])):
            part[0] += sum(act for act, _ in chosen) / len(chosen)
            part[1] += sum(step for _, step in chosen) / len(chosen)
        totals[0] += sum(act for act, _ in costs)
        totals[1] += sum(step for _, step in costs)
        count += len(costs)
    ratio = totals[0] / totals[1]
    print(f"CountingBot, 3-player English, {games} games, {count} decisions:")
    print(f"  observe + act: {totals[0] / count * 1e6:8.1f} us a decision")
    print(f"  apply:         {totals[1] / count * 1e6:8.1f} us a decision")
    print(f"  ratio:         {ratio:8.2f} x (target <= 10)")
    drift = (late[0] / late[1]) / (early[0] / early[1])
    print(f"  late / early ratio of ratios (last fifth of each game over first): {drift:.2f}")


def sampling(games: int) -> None:
    lineup: list[Agent] = [SamplingBot(), CountingBot(), CountingBot()]
    rules = cr.english(3)
    start = time.perf_counter()
    lengths = [play_game(rules, lineup, seed=seed).length for seed in range(games)]
    elapsed = time.perf_counter() - start
    print(f"SamplingBot (defaults) vs two CountingBots, 3-player English, {games} games:")
    print(
        f"  {games / elapsed:.2f} games/s on one core "
        f"({elapsed / games:.2f} s a game, {sum(lengths) / games:.0f} decisions)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games for each part")
    args = parser.parse_args()
    decisions(args.games)
    sampling(max(1, args.games // 4))


if __name__ == "__main__":
    main()
