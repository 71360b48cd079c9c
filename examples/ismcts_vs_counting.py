"""OpenSpiel's IS-MCTS against CountingBot: a short seeded match of English Cheat.

Seat 0 is OpenSpiel's information-set Monte Carlo tree search
(``ISMCTSBot``), which asks the game for states its seat cannot tell from
the real one (``resample_from_infostate``, backed by the library's
sampler) and plays them out at random; the other seats are CountingBot. Each game
is cut short at ``max_steps`` decisions (no one wins then; the returns pay
each seat by its standing, fewest cards best). Prints each game's result
and the tally.

Needs the OpenSpiel extra: ``pip install "cheatrules[openspiel]"``.
Run: ``python examples/ismcts_vs_counting.py [games] [simulations] [max_steps]``.
"""

from __future__ import annotations

import random
import sys

import numpy
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cheatrules.openspiel  # registers python_cheat and python_verish
from cheatrules.bots import CountingBot


def play(
    game: cheatrules.openspiel.CheatGame, bot: ismcts.ISMCTSBot, seed: int
) -> tuple[bool, list[float]]:
    """One game: IS-MCTS in seat 0, CountingBot in the others; whether it ended, the returns."""
    rng = random.Random(seed)
    counting = CountingBot()
    space = game.action_space
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            seen = state.observation_of(state.current_player())
            assert seen is not None  # past the deal
            state.apply_action(space.encode(counting.act(seen, rng), seen))
    returns: list[float] = state.returns()
    assert state.game_state is not None
    return state.game_state.is_over, returns


def main(games: int = 3, simulations: int = 8, max_steps: int = 400) -> None:
    game = pyspiel.load_game("python_cheat", {"players": 3, "max_steps": max_steps})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numpy.random.RandomState(7))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=numpy.random.RandomState(2026),
    )
    tally = {"IS-MCTS": 0, "CountingBot": 0, "cut short": 0}
    for number in range(games):
        ended, returns = play(game, bot, seed=number)
        if not ended:
            result = "cut short"
        elif returns[0] > 0:
            result = "IS-MCTS"
        else:
            result = "CountingBot"
        tally[result] += 1
        print(f"game {number + 1}: {result} (returns {returns})")
    print(", ".join(f"{name} {count}" for name, count in tally.items()))


if __name__ == "__main__":
    main(*(int(argument) for argument in sys.argv[1:4]))
