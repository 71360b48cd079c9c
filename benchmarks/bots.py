"""How fast the reference bots play, and how much stronger CountingBot is.

Run: ``python benchmarks/bots.py`` (``--games N`` for the tournaments,
``--quick`` for a short run). Two parts:

1. Games per second for each pairing of bots in three-player English Cheat:
   the first bot in seat 0 against two of the second, every game in this
   process (so the figure is one core's), the lineup rotated each game.
2. CountingBot's win rate against two RandomBots and against two HonestBots
   over a seeded tournament on all cores, with its 95% Wilson interval. An
   equal bot wins one game in three; the margin is the win rate above that.
   The tournaments are seeded: the same command prints the same rates.
   A game still going after 3,000 decisions is cut off and counts as no
   result (a loss for every seat in the win rate).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

import cheatrules as cr
from cheatrules.arena import tournament
from cheatrules.bots import Agent, CountingBot, HonestBot, RandomBot, SamplingBot

T = TypeVar("T")


class Serial(Executor):
    """Every task at once, in this process: one core's speed."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def speed(rules: cr.Rules, first: Agent, other: Agent, games: int) -> tuple[float, float]:
    """Games per second and mean decisions per game, ``first`` against two of ``other``."""
    start = time.perf_counter()
    results = tournament(rules, [first, other, other], games, seed=1, executor=Serial())
    return games / (time.perf_counter() - start), results.mean_length


def margin(rules: cr.Rules, lineup: Sequence[Agent], games: int, seed: int) -> str:
    """CountingBot's win rate in ``lineup``, its interval, and its margin over a fair share.

    A fair share is one seat's share of the winners: one in three in English
    Cheat, two in three in Verish' Ne Verish' (every seat but the last wins).
    """
    # A few games among cautious bots run to thousands of decisions; knowledge
    # costs grow with the log, so such games are cut off and counted as no result.
    results = tournament(rules, lineup, games, seed=seed, max_steps=3000)
    row = results.row("CountingBot")
    low, high = row.win_interval
    fair = sum(len(game.winners) for game in results.games) / len(results.games) / rules.players
    return (
        f"{row.win_rate:.3f} (95% CI {low:.3f}-{high:.3f}); margin over a fair "
        f"{fair:.3f}: {row.win_rate - fair:+.3f} ({low - fair:+.3f} to {high - fair:+.3f}); "
        f"{row.games} games, {row.unfinished} cut off at 3,000 decisions"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games per tournament")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--all", action="store_true", help="time SamplingBot against itself too")
    args = parser.parse_args()
    rules = cr.english(3)
    bots: dict[str, Agent] = {
        "random": RandomBot(),
        "honest": HonestBot(),
        "counting": CountingBot(),
        "sampling": SamplingBot(samples=4, horizon=60),
    }
    per_pair = 3 if args.quick else 12
    print("games per second, one core, three-player English Cheat (seat 0 vs two of seat 1):")
    for first_name, first in bots.items():
        for other_name, other in bots.items():
            if first_name == other_name == "sampling" and not args.all:
                print(f"  {first_name:>9} vs {other_name:<9} skipped: minutes a game (--all)")
                continue
            games = max(1, per_pair // 4) if "sampling" in (first_name, other_name) else per_pair
            rate, length = speed(rules, first, other, games)
            print(
                f"  {first_name:>9} vs {other_name:<9} {rate:8.2f} games/s  {length:6.0f} decisions"
            )
    games = 30 if args.quick else args.games
    print(f"\nCountingBot's win rate, seeded tournaments of {games} games on all cores:")
    print(
        "  vs two RandomBots:",
        margin(rules, [CountingBot(), RandomBot(), RandomBot()], games, 2026),
    )
    print(
        "  vs two HonestBots:",
        margin(rules, [CountingBot(), HonestBot(), HonestBot()], games, 2026),
    )
    verish = cr.verish(3)
    print(f"\nCountingBot's win rate (not the last left), Verish' Ne Verish', {games} games:")
    print(
        "  vs two HonestBots:",
        margin(verish, [CountingBot(), HonestBot(), HonestBot()], games, 2026),
    )


if __name__ == "__main__":
    main()
