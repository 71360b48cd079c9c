"""What ``sample()`` costs and how often it fails: positions of random games at every depth.

Run: ``python benchmarks/sampling.py [positions]``. It draws ``positions``
(2,000 unless given) seat views from seeded random games: 3- and 4-player
English (nine in ten) and 3-player Verish' Ne Verish', each game played to
its end (or 600 decisions) and cut at a random depth. With ``--two-packs``
(200 positions unless given) the games are 4-player English with two packs,
where every card has two copies. With ``--compulsory`` (200 unless given)
they are 3- and 4-player English and Verish' Ne Verish' with compulsory
discards, where no hand may hold a four it did not set aside after taking
the pile. For each it times one
``sample()`` and the ``apply`` of a random legal action from the same state,
and prints the failures (target 0), and the median and 95th percentile of
sample time over the median ``apply``, and the share of views that took more
than ``LIMIT`` seconds (stopped and counted as failures). Each view that
sampled is sampled a second time (a bot samples one view many times, and the
second sample finds the view's log read): the median of those is printed too.
"""

from __future__ import annotations

import contextlib
import random
import signal
import statistics
import sys
import time

import cheatrules as cr
from cheatrules.sampling import SamplingError, sample

#: Seconds after which one sample is stopped and counted as a failure.
LIMIT = 10


class _TooLongError(Exception):
    pass


def _stop(*_: object) -> None:
    raise _TooLongError


def positions(count: int, two_packs: bool = False, compulsory: bool = False) -> list[cr.GameState]:
    """``count`` states cut from seeded random games at random depths."""
    states: list[cr.GameState] = []
    seed = 0
    while len(states) < count:
        rules = (cr.english(3), cr.english(4), cr.english(3), cr.english(4))[seed % 4]
        if seed % 10 == 9:
            rules = cr.verish(3)
        if two_packs:
            rules = cr.english(4, decks=2)
        if compulsory:
            make = (cr.english, cr.verish)[seed % 2]
            rules = make(3 + seed // 2 % 2, discards="compulsory")
        rng = random.Random(seed)
        state = cr.deal(rules, seed=seed)
        game = [state]
        while not state.is_over and len(game) < 600:
            if state.phase is cr.Phase.CHALLENGE and rng.random() >= 0.25:
                state = state.apply(cr.Accept())
            else:
                state = state.apply(state.legal_actions().choice(rng))
            game.append(state)
        states.extend(rng.sample(game[:-1], min(20, len(game) - 1)))
        seed += 1
    return states[:count]


def main(count: int, two_packs: bool = False, compulsory: bool = False) -> int:
    signal.signal(signal.SIGALRM, _stop)
    clock = time.perf_counter
    applies: list[float] = []
    samples: list[float] = []
    seconds: list[float] = []
    failed = slow = 0
    lagging: list[str] = []
    for number, state in enumerate(positions(count, two_packs, compulsory)):
        rng = random.Random(number)
        action = state.legal_actions().choice(rng)
        start = clock()
        state.apply(action)
        applies.append(clock() - start)
        seat = number % state.players
        seen = state.observe(seat)
        signal.alarm(LIMIT)
        start = clock()
        sampled = None
        try:
            sampled = sample(seen, rng)
        except SamplingError:
            failed += 1
        except _TooLongError:
            slow += 1
        finally:
            signal.alarm(0)
        samples.append(clock() - start)
        if samples[-1] > 1:
            lagging.append(f"view {number} (seat {seat}, {len(seen.events)} events)")
        if sampled is not None and sampled.observe(seat) != seen:  # checked outside the timing
            failed += 1
        if sampled is not None:
            signal.alarm(LIMIT)
            start = clock()
            with contextlib.suppress(SamplingError, _TooLongError):
                sample(seen, rng)
                seconds.append(clock() - start)
            signal.alarm(0)
    apply = statistics.median(applies)
    samples.sort()
    median = statistics.median(samples) / apply
    p95 = samples[int(0.95 * len(samples))] / apply
    games = "4-player English, two packs" if two_packs else "3-/4-player English, Verish'"
    if compulsory:
        games = "3-/4-player English and Verish', compulsory discards"
    print(f"{games}, positions {count}: failures {failed}, stopped after {LIMIT} s {slow}")
    print(f"sample / apply: median {median:.0f}x (target <= 50x), 95th percentile {p95:.0f}x")
    print(f"slowest sample {samples[-1]:.2f} s; median apply {apply * 1e6:.1f} us")
    again = statistics.median(seconds) / apply if seconds else float("nan")
    print(f"a second sample of the same view: median {again:.0f}x")
    if lagging:
        print(f"over 1 s: {', '.join(lagging)}")
    return 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    two = "--two-packs" in arguments
    compulsory = "--compulsory" in arguments
    numbers = [int(argument) for argument in arguments if not argument.startswith("--")]
    default = 200 if two or compulsory else 2000
    sys.exit(main(numbers[0] if numbers else default, two, compulsory))
