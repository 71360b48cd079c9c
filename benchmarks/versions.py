"""Two versions of cheatrules side by side in one process: ``apply`` and the playout, in turns.

Run: ``python benchmarks/versions.py OLD NEW [--rounds N] [--games G]``,
where ``OLD`` and ``NEW`` are the ``src`` folders of two checkouts, for
example after ``git worktree add /tmp/old 6b17737``::

    python benchmarks/versions.py /tmp/old/src src

Each version is imported under the name ``cheatrules`` in turn and kept,
so both live in this one interpreter, with the same attrs and the same
machine load. Each round times, for each version, the replay of the same
seeded games of ``playout.py``'s policy by ``apply`` alone (deals
included), then the whole playout loop (rules, deal, policy and ``apply``);
it prints each version's fastest round and median, and the median over
rounds of its time over the first version's in the same round. On a
shared machine whose load comes and goes, the paired ratio is the figure
to read.

Only the public API that every version since 6b17737 has is used.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

CHALLENGE_RATE = 0.1
PLAYERS = 4


def load(source: str) -> ModuleType:
    """The cheatrules package found in ``source``, imported afresh beside any loaded before."""
    for name in [name for name in sys.modules if name.split(".")[0] == "cheatrules"]:
        del sys.modules[name]
    sys.path.insert(0, source)
    try:
        package = importlib.import_module("cheatrules")
    finally:
        sys.path.remove(source)
    return package


def decide(cr: Any, state: Any, rng: random.Random) -> Any:
    """``playout.py``'s policy, in the API of the version ``cr``."""
    if state.phase is cr.Phase.PLAY:
        hand = state.hands[state.to_move]
        count = rng.randint(1, min(4, len(hand)))
        return cr.Play(tuple(rng.sample(hand, count)), state.required_rank)
    return cr.Challenge() if rng.random() < CHALLENGE_RATE else cr.Accept()


def actions(cr: Any, seed: int) -> list[Any]:
    """The actions of one seeded game of the policy, made with the version ``cr``."""
    rng = random.Random(seed)
    state = cr.deal(cr.english(PLAYERS), seed=seed)
    made = []
    while not state.is_over:
        action = decide(cr, state, rng)
        made.append(action)
        state = state.apply(action)
    return made


def replay(cr: Any, games: list[list[Any]]) -> None:
    """Deal each game and apply its actions."""
    rules = cr.english(PLAYERS)
    for seed, moves in enumerate(games):
        state = cr.deal(rules, seed=seed)
        for action in moves:
            state = state.apply(action)


def playout(cr: Any, games: int) -> None:
    """The playout loop of ``playout.py``: rules, deal, policy and ``apply``, game after game."""
    for seed in range(games):
        rng = random.Random(seed)
        state = cr.deal(cr.english(PLAYERS), seed=seed)
        while not state.is_over:
            state = state.apply(decide(cr, state, rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", help="the src folder of each version, first the base")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()

    versions = [load(source) for source in args.sources]
    games = [[actions(cr, seed) for seed in range(args.games)] for cr in versions]
    decisions = sum(map(len, games[0]))
    if any(sum(map(len, played)) != decisions for played in games):
        raise SystemExit("the versions play different games: their deals or rules differ")

    tasks: dict[str, Callable[[int], None]] = {
        "apply": lambda index: replay(versions[index], games[index]),
        "playout": lambda index: playout(versions[index], args.games),
    }
    times: dict[str, list[list[float]]] = {name: [[] for _ in versions] for name in tasks}
    clock = time.process_time
    for _ in range(args.rounds):
        for name, task in tasks.items():
            for index in range(len(versions)):
                start = clock()
                task(index)
                times[name][index].append(clock() - start)

    print(f"{args.games} games, {decisions} decisions, {args.rounds} rounds")
    for name in tasks:
        base = times[name][0]
        for source, spent in zip(args.sources, times[name], strict=True):
            ratios = [mine / first for mine, first in zip(spent, base, strict=True)]
            paired = statistics.median(ratios)
            print(
                f"{name:8} {source:30} fastest {min(spent) / decisions * 1e6:6.2f} us, "
                f"median {statistics.median(spent) / decisions * 1e6:6.2f} us a decision; "
                f"against the first {paired:.3f}"
            )


if __name__ == "__main__":
    main()
