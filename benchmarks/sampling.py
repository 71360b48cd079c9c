"""What ``sample()`` costs and how often it fails: positions of random games at every depth.

Run: ``python benchmarks/sampling.py [positions]``. It draws ``positions``
(2,000 unless given) seat views from seeded random games: 3- and 4-player
English (nine in ten) and 3-player Verish' Ne Verish', each game played to
its end (or 600 decisions) and cut at a random depth. With ``--two-packs``
(200 positions unless given) the games are 4-player English with two packs,
where every card has two copies. With ``--compulsory`` (200 unless given)
they are 3- and 4-player English and Verish' Ne Verish' with compulsory
discards, where no hand may hold a four it did not set aside after taking
the pile. With ``--mixed`` (400 unless given) each game has its own random
option combination: either game, two to six players, one pack or two,
jokers, a stock, and any named policy of each family (the failures are
listed with their rules, game seed and depth). With ``--deep`` (200
unless given) the games are 5- and 6-player English with two packs and
random options that lengthen them (an extended window, jokers, ranks held,
passes by consent), two views a game at decision 250 or later: the views
where the search is weakest. With ``--crowded`` (200 unless given) they are
6- to 10-player English with two packs, cut at any depth. With ``--fuzz``
(20,000 unless given) each game has a random option combination as in
``--mixed``, a third of them with a ``HolderOf`` opening and a sixth two
packs with compulsory discards: real views, so a plain
:class:`~cheatrules.sampling.SamplingError` ("no game gives this view") on
any of them is a false one (target 0). For each it times one
``sample()`` and the ``apply`` of a random legal action from the same state,
and prints the failures (target 0; those where the search spent its budget,
:class:`~cheatrules.sampling.SamplingBudgetError`, counted apart from views it
found no game for, which would be a defect), and the median and 95th percentile of
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
from collections.abc import Iterator

import cheatrules as cr
from cheatrules._sampler.solver import available as solver_available
from cheatrules.sampling import SamplingBudgetError, SamplingError, sample

#: Seconds after which one sample is stopped and counted as a failure.
LIMIT = 10


class _TooLongError(Exception):
    pass


def _stop(*_: object) -> None:
    raise _TooLongError


def mixed_rules(rng: random.Random) -> tuple[cr.Rules, str]:
    """A random option combination (either game, named policies, jokers, a stock, packs).

    Returns the rules and the call that makes them.
    """
    while True:
        options: dict[str, object] = {
            family: rng.choice(list(names))
            for family, names in cr.rules.NAMED_POLICIES.items()
            if rng.random() < 0.5
        }
        if rng.random() < 0.5:
            options["jokers"] = rng.choice([True, "per-pack", 1])
        if rng.random() < 0.5:
            options["stock"] = rng.choice([True, 3, 5])
        if rng.random() < 0.5:
            options["decks"] = 2
        make = rng.choice([cr.english, cr.verish])
        players = rng.randint(3, 6) if make is cr.english else rng.randint(2, 6)
        try:
            rules = make(players, **options)
        except cr.RulesError:
            continue  # options that contradict each other, or a stock the deck cannot deal
        words = ", ".join(f"{name}={value!r}" for name, value in options.items())
        return rules, f"{make.__name__}({players}{', ' if words else ''}{words})"


def deep_rules(rng: random.Random) -> tuple[cr.Rules, str]:
    """A crowded two-pack table: five or six players, and some options that lengthen games.

    Returns the rules and the call that makes them.
    """
    options: dict[str, object] = {}
    if rng.random() < 0.5:
        options["window"] = "extended"
    if rng.random() < 0.3:
        options["jokers"] = rng.choice([True, "per-pack"])
    if rng.random() < 0.3:
        options["ranks"] = "hold"
    if rng.random() < 0.3:
        options["passing"] = "consent"
    players = rng.choice([5, 6])
    words = "".join(f", {name}={value!r}" for name, value in options.items())
    return cr.english(players, decks=2, **options), f"english({players}, decks=2{words})"


def fuzz_rules(rng: random.Random) -> tuple[cr.Rules, str]:
    """A random combination as :func:`mixed_rules`, with HolderOf openings and two packs' fours."""
    rules, call = mixed_rules(rng)
    if rng.random() < 1 / 6:
        try:
            rules = rules.replace(
                deck=cr.Deck(packs=2, ranks=rules.deck.ranks, jokers=rules.deck.jokers),
                discards=cr.policies.AfterPickup(compulsory=True),
            )
            call += ", two packs, compulsory discards"
        except cr.RulesError:
            pass
    if rng.random() < 1 / 3:
        card = rng.choice(sorted(set(rules.deck.cards()), key=lambda each: each.key))
        rules = rules.replace(opening=cr.policies.HolderOf(card))
        call += f", opening=HolderOf({str(card)!r})"
    return rules, call


def crowded_rules(rng: random.Random) -> tuple[cr.Rules, str]:
    """Six to ten players and two packs."""
    players = rng.randint(6, 10)
    return cr.english(players, decks=2), f"english({players}, decks=2)"


def _rules(mode: str, seed: int) -> tuple[cr.Rules, str]:
    """The rules of game ``seed`` in ``mode``, and the call that makes them."""
    if mode == "mixed":
        return mixed_rules(random.Random(-1 - seed))
    if mode == "fuzz":
        return fuzz_rules(random.Random(-1 - seed))
    if mode == "crowded":
        return crowded_rules(random.Random(-1 - seed))
    if mode == "deep":
        return deep_rules(random.Random(-1 - seed))
    if mode == "two-packs":
        rules = cr.english(4, decks=2)
    elif mode == "compulsory":
        make = (cr.english, cr.verish)[seed % 2]
        rules = make(3 + seed // 2 % 2, discards="compulsory")
    else:
        rules = (cr.english(3), cr.english(4), cr.english(3), cr.english(4))[seed % 4]
        if seed % 10 == 9:
            rules = cr.verish(3)
    return rules, rules.name


def positions(count: int, mode: str = "plain") -> Iterator[tuple[cr.GameState, str]]:
    """``count`` states cut from seeded random games at random depths, each with its game.

    ``mode`` is one of :data:`MODES`; ``"deep"`` cuts only at decision 250 or later.
    The states come game by game, and nothing is kept of a game once its cuts
    are given: a process that held hundreds of long games at once would charge
    the sample that happens to set off a full garbage collection with a pass
    over all of them (a tenth to a third of a second, measured), which a bot
    holding its own game never pays.
    """
    seed, given = 0, 0
    cuts = 20 if mode in ("plain", "two-packs", "compulsory") else 5 if mode in MIXED else 2
    least = 250 if mode == "deep" else 0
    while given < count:
        rules, call = _rules(mode, seed)
        rng = random.Random(seed)
        state = cr.deal(rules, seed=seed, dealer=seed % rules.players)
        game = [state]
        while not state.is_over and len(game) < 600:
            if state.phase is cr.Phase.CHALLENGE and rng.random() >= 0.25:
                state = state.apply(cr.Accept())
            else:
                state = state.apply(state.legal_actions().choice(rng))
            game.append(state)
        depths = range(least, len(game) - 1)
        cut = rng.sample(depths, min(cuts, len(depths)))[: count - given]
        given += len(cut)
        states = [(game[depth], f"{call}, game seed {seed}, decision {depth}") for depth in cut]
        del game, state
        yield from states
        seed += 1


def main(count: int, mode: str = "plain") -> int:
    signal.signal(signal.SIGALRM, _stop)
    clock = time.perf_counter
    applies: list[float] = []
    samples: list[float] = []
    seconds: list[float] = []
    failed = slow = spent = refused = 0
    lagging: list[str] = []
    failing: list[str] = []
    for number, (state, game) in enumerate(positions(count, mode)):
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
        except SamplingError as error:  # a plain one, "no game gives this view", is false here
            failed += 1
            spent += isinstance(error, SamplingBudgetError)
            refused += not isinstance(error, SamplingBudgetError)
            kind = type(error).__name__
            failing.append(
                f"view {number} (seat {seat}, {len(seen.events)} events), {kind}: {game}"
            )
        except _TooLongError:
            slow += 1
            failing.append(f"view {number} (seat {seat}, {len(seen.events)} events): {game}")
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
    games = MODES[mode][1]
    solver = "with the solver" if solver_available() else "without the solver"
    print(
        f"{games}, positions {count}, {solver}: failures {failed} (budget or time spent {spent},"
        f" a real view called impossible {refused}: target 0), stopped after {LIMIT} s {slow}"
    )
    print(f"sample / apply: median {median:.0f}x (target <= 40x), 95th percentile {p95:.0f}x")
    p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))]
    print(
        f"sample: median {statistics.median(samples) * 1e3:.1f} ms, 99th percentile"
        f" {p99 * 1e3:.0f} ms (target <= 100 ms), slowest {samples[-1]:.2f} s (target <= 2 s);"
        f" median apply {apply * 1e6:.1f} us"
    )
    again = statistics.median(seconds) / apply if seconds else float("nan")
    print(f"a second sample of the same view: median {again:.0f}x")
    if lagging:
        print(f"over 1 s: {', '.join(lagging)}")
    for line in failing:
        print(f"failed or stopped: {line}")
    return 0


#: Each mode: the positions it draws unless told, and what they are.
MODES = {
    "plain": (2000, "3-/4-player English, Verish'"),
    "two-packs": (200, "4-player English, two packs"),
    "compulsory": (200, "3-/4-player English and Verish', compulsory discards"),
    "mixed": (400, "random option combinations"),
    "deep": (200, "5-/6-player English, two packs, decision 250 or later"),
    "crowded": (200, "6- to 10-player English, two packs"),
    "fuzz": (20000, "random option combinations, HolderOf openings, two packs' fours"),
}

#: The modes whose every game has rules of its own.
MIXED = ("mixed", "fuzz")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    flags = [argument[2:] for argument in arguments if argument.startswith("--")]
    unknown = [flag for flag in flags if flag not in MODES]
    if unknown or len(flags) > 1:
        modes = " | ".join(f"--{name}" for name in MODES if name != "plain")
        sys.exit(f"usage: sampling.py [{modes}] [positions]")
    chosen = flags[0] if flags else "plain"
    numbers = [int(argument) for argument in arguments if not argument.startswith("--")]
    sys.exit(main(numbers[0] if numbers else MODES[chosen][0], chosen))
