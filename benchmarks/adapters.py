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

:func:`openspiel_overhead`: random masked play through the OpenSpiel state
(``legal_actions``, ``information_state_tensor``, ``apply_action``) over
the library's own loop with the same policy (``state.observe``,
``ActionSpace.mask_array``, ``InformationStateEncoder.array``, the float32 vector a network takes,
``decode``, ``apply``): the same deals (the OpenSpiel deal's chance
outcomes replay ``cr.deal(rules, seed=...)``), the same random choices,
so both play the same games decision for decision; the deal is not timed.
Target: at most 1.5 times.

:func:`resample_cost`: ``resample_from_infostate`` at random moments of
random games of eleven configurations (one and two packs, compulsory
discards, Verish' Ne Verish'); target: no call past 2 s.

:func:`information_state_string_cost`: the time of
``information_state_string(player)`` at every decision of random games
(IS-MCTS and the tabular solvers key their tables on it), against the
decision itself (``legal_actions`` and ``apply_action``). It uses no API
newer than the games, so it also measures an older checkout
(``PYTHONPATH=/path/to/old/src python -c "import sys;
sys.path.insert(0, 'benchmarks'); import adapters;
adapters.information_state_string_cost()"``).

:func:`gymnasium_overhead`: ``gymnasium.make("cheatrules/Cheat-v0")`` and
  ``"cheatrules/Verish-v0"``, the learner in seat 0 against CountingBot (the
  default) and against RandomBot (cheap bots, so the environment's own cost
  shows more); the
  library loop deals the same seeds, lets the same bots play with the same
  random numbers, and stops where the environment does. It prints the
  learner's steps a second through the environment too.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pyspiel

import cheatrules as cr
import cheatrules.gymnasium  # registers the ids
import cheatrules.openspiel  # registers the games
from cheatrules.bots import Agent, CountingBot, RandomBot
from cheatrules.encoding import ActionSpace
from cheatrules.information_state import InformationStateEncoder
from cheatrules.pettingzoo import env

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


#: The games measured: a name, the rules, OpenSpiel's game and parameters, the seeds.
OPENSPIEL_GAMES: tuple[tuple[str, cr.Rules, str, dict[str, int], range], ...] = (
    ("english(4)", cr.english(4), "python_cheat", {"players": 4}, range(6)),
    ("verish(3)", cr.verish(3), "python_verish", {"players": 3}, range(60)),
)


def _library_loop(rules: cr.Rules, seeds: range, max_steps: int) -> tuple[float, int]:
    space = ActionSpace(rules)
    encoder = InformationStateEncoder(rules)
    elapsed = 0.0
    decisions = 0
    for seed in seeds:
        state = cr.deal(rules, seed=seed)
        rng = random.Random(seed)
        start = time.perf_counter()
        steps = 0
        while not state.is_over and steps < max_steps:
            seat = state.to_move
            assert seat is not None
            seen = state.observe(seat)
            legal = np.flatnonzero(space.mask_array(seen)).tolist()
            encoder.array(seen)
            state = state.apply(space.decode(rng.choice(legal), seen))
            steps += 1
        elapsed += time.perf_counter() - start
        decisions += steps
    return elapsed, decisions


def _openspiel_loop(name: str, parameters: dict[str, int], seeds: range) -> tuple[float, int]:
    game: cheatrules.openspiel.CheatGame = pyspiel.load_game(name, parameters)
    rules = game.rules
    elapsed = 0.0
    decisions = 0
    for seed in seeds:
        state = game.new_initial_state()
        for outcome in game.deal_outcomes(cr.deal(rules, seed=seed)):
            state.apply_action(outcome)
        rng = random.Random(seed)
        start = time.perf_counter()
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            state.information_state_tensor(player)
            state.apply_action(rng.choice(legal))
        elapsed += time.perf_counter() - start
        decisions += state.steps
    return elapsed, decisions


def openspiel_overhead() -> None:
    """Random masked play through the OpenSpiel games over the library's own loop."""

    print("OpenSpiel: random masked play, time per decision (the same games in both loops)")
    for label, rules, name, parameters, seeds in OPENSPIEL_GAMES:
        _openspiel_loop(name, parameters, seeds[:1])  # warm up: imports, encoders
        library, decisions = _library_loop(rules, seeds, cheatrules.openspiel.DEFAULT_MAX_STEPS)
        adapter, checked = _openspiel_loop(name, parameters, seeds)
        assert checked == decisions, (checked, decisions)
        print(
            f"  {label}: {decisions} decisions; library {library / decisions * 1e6:.0f} µs, "
            f"OpenSpiel {adapter / decisions * 1e6:.0f} µs: {adapter / library:.2f}x "
            "(target <= 1.5x)"
        )


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
            env = gymnasium.make(env_id, players=4, opponents=bot, max_steps=None)
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
                f" library {library:.3f} s, environment {adapted:.3f} s"
                f" ({stepped / adapted:.0f} learner steps/s),"
                f" ratio {adapted / library:.2f}x (target <= 1.5x)"
            )


#: The games whose information-state strings are timed: OpenSpiel's name and parameters, seeds.
STRING_GAMES: tuple[tuple[str, dict[str, int | str], range], ...] = (
    ("python_cheat", {"players": 4, "max_steps": 600}, range(4)),
    ("python_verish", {"players": 3, "check": "one-card"}, range(30)),
)


def information_state_string_cost(rounds: int = 3) -> None:
    """Time ``information_state_string`` at every decision of random games, beside the decision."""
    print("OpenSpiel information_state_string(player) at every decision of random games")
    for name, parameters, seeds in STRING_GAMES:
        game = pyspiel.load_game(name, parameters)
        best_string = best_decision = float("inf")
        decisions = length = 0
        for _ in range(rounds):
            string_time = decision_time = 0.0
            decisions = length = 0
            for seed in seeds:
                rng = random.Random(seed)
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                        state.apply_action(rng.choices(outcomes, weights)[0])
                        continue
                    player = state.current_player()
                    start = time.perf_counter()
                    length += len(state.information_state_string(player))
                    middle = time.perf_counter()
                    state.apply_action(rng.choice(state.legal_actions()))
                    decision_time += time.perf_counter() - middle
                    string_time += middle - start
                    decisions += 1
            best_string = min(best_string, string_time / decisions)
            best_decision = min(best_decision, decision_time / decisions)
        print(
            f"  {name}{parameters}: {decisions} decisions, strings of {length // decisions}"
            f" characters on average; string {best_string * 1e6:.0f} µs, decision"
            f" {best_decision * 1e6:.0f} µs"
        )


#: The games :func:`resample_cost` samples from: eleven configurations, one and two packs.
RESAMPLE_GAMES = (
    "python_cheat(players=3)",
    "python_cheat(players=4)",
    "python_cheat(players=5,deck=104)",
    "python_cheat(players=6,deck=104)",
    "python_cheat(players=4,check=one-card)",
    "python_cheat(players=4,window=extended)",
    "python_cheat(players=4,deck=104,discards=compulsory)",
    "python_verish(players=3)",
    "python_verish(players=4)",
    "python_verish(players=4,deck=52)",
    "python_verish(players=5,deck=52)",
)


def resample_cost(calls: int = 1100) -> None:
    """Time ``resample_from_infostate`` at random moments of random games of every configuration.

    Target: no call waits more than 2 s (``RESAMPLE_SECONDS``); prints the
    median, 95th and 99th percentiles and the slowest, and any call that
    raised.
    """
    times: list[float] = []
    raised: list[str] = []
    seed = 0
    names = list(RESAMPLE_GAMES)
    while len(times) + len(raised) < calls:
        name = names[seed % len(names)]
        game = pyspiel.load_game(name)
        rng = random.Random(seed)
        state = game.new_initial_state()
        stop = rng.randrange(1, 600)
        steps = 0
        while not state.is_terminal() and steps < stop:
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        if not state.is_terminal() and not state.is_chance_node():
            player = rng.randrange(game.num_players())
            start = time.perf_counter()
            try:
                state.resample_from_infostate(player, rng.random)
                times.append(time.perf_counter() - start)
            except cr.sampling.SamplingError as error:
                raised.append(f"{name}, seed {seed}: {type(error).__name__}")
        seed += 1
    times.sort()
    p95, p99 = (times[int(share * len(times))] * 1e3 for share in (0.95, 0.99))
    print(
        f"resample_from_infostate, {len(times)} calls over {len(names)} configurations:"
        f" median {statistics.median(times) * 1e3:.1f} ms, 95th percentile {p95:.0f} ms,"
        f" 99th {p99:.0f} ms, slowest {times[-1]:.2f} s (target <= 2 s); raised {len(raised)}"
    )
    for line in raised:
        print(f"  raised: {line}")


def main() -> None:
    """Run every adapter's measurement."""
    pettingzoo_overhead()
    gymnasium_overhead()
    openspiel_overhead()
    information_state_string_cost()
    resample_cost()


if __name__ == "__main__":
    main()
