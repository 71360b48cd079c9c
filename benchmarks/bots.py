"""How fast the reference bots play, and how much stronger CountingBot is.

Run: ``python benchmarks/bots.py`` (``--games N`` for the tournaments,
``--quick`` for a short run). Two parts:

1. Games per second for each pairing of bots in three-player English Cheat:
   the first bot in seat 0 against two of the second, every game in this
   process (so the figure is one core's), the lineup rotated each game.
2. SamplingBot against two CountingBots in three-player English Cheat, one
   core: games per second, and the seconds of its own decisions per game.
3. CountingBot's and SamplingBot's win rates against two RandomBots, two
   HonestBots or two CountingBots over a seeded tournament on all cores,
   with a 95% Wilson interval. An
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


class Timed:
    """An agent that adds up the seconds its ``inner`` agent spends deciding."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.name = type(inner).__name__
        self.seconds = 0.0

    def act(self, observation: cr.Observation, rng: Any) -> cr.Action:
        start = time.perf_counter()
        try:
            return self.inner.act(observation, rng)
        finally:
            self.seconds += time.perf_counter() - start


def own_time(rules: cr.Rules, games: int) -> None:
    """SamplingBot against two CountingBots on one core: games/s and its own seconds a game."""
    bot = Timed(SamplingBot())
    start = time.perf_counter()
    lineup: list[Agent] = [bot, CountingBot(), CountingBot()]
    results = tournament(rules, lineup, games, seed=1, executor=Serial())
    elapsed = time.perf_counter() - start
    print(
        f"\nSamplingBot (defaults) vs two CountingBots, {games} games on one core: "
        f"{games / elapsed:.2f} games/s, {elapsed / games:.3f} s a game, of which "
        f"{bot.seconds / games:.3f} s its own decisions (target <= 0.3); "
        f"{results.mean_length:.0f} decisions a game"
    )


def margin(
    rules: cr.Rules, lineup: Sequence[Agent], games: int, seed: int, name: str = "CountingBot"
) -> str:
    """``name``'s win rate in ``lineup``, its interval, and its margin over a fair share.

    A fair share is one seat's share of the winners: one in three in English
    Cheat, two in three in Verish' Ne Verish' (every seat but the last wins).
    """
    # A few games among cautious bots run to thousands of decisions; knowledge
    # costs grow with the log, so such games are cut off and counted as no result.
    results = tournament(rules, lineup, games, seed=seed, max_steps=3000)
    row = results.row(name)
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
        "sampling": SamplingBot(),
    }
    per_pair = 3 if args.quick else 12
    print("games per second, one core, three-player English Cheat (seat 0 vs two of seat 1):")
    for first_name, first in bots.items():
        for other_name, other in bots.items():
            if first_name == other_name == "sampling" and not args.all:
                print(f"  {first_name:>9} vs {other_name:<9} skipped (--all)")
                continue
            games = per_pair // 3 if first_name == other_name == "sampling" else per_pair
            rate, length = speed(rules, first, other, games)
            print(
                f"  {first_name:>9} vs {other_name:<9} {rate:8.2f} games/s  {length:6.0f} decisions"
            )
    own_time(rules, 6 if args.quick else 60)
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
    print(f"\nSamplingBot's win rate, seeded tournaments of {games} games on all cores:")
    sampling = SamplingBot()
    for label, game, other in (
        ("English, vs two CountingBots", rules, CountingBot()),
        ("English, vs two HonestBots", rules, HonestBot()),
        ("Verish', vs two CountingBots", verish, CountingBot()),
        ("Verish', vs two HonestBots", verish, HonestBot()),
    ):
        print(f"  {label}:", margin(game, [sampling, other, other], games, 2026, "SamplingBot"))


if __name__ == "__main__":
    main()
